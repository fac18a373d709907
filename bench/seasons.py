"""A season's standings against a bare DRF get-by-pk view, measured from outside with wrk.

Seeding (``--evenings`` 40, ``--players`` 60, ``--rounds`` 3): players registered through
``games.play.register``; one season made by ``games.tournaments.seasons.season_create`` (points by
field, every evening counted); each evening a Scarney evening of the ``tables`` system (tables of
six, sheet entry) made through ``games.tournaments``: every player entered, every round paired by
the service, every table's result entered by the director (``result.adjusted``, as a club does
from the sheets: playing each table's match through the services costs ~0.4 s a table on this
machine, 40 minutes for the season), then the evening added to the season (``tournament_add``).
Evenings are played by ``--workers`` processes at once; a season already seeded with as many
evenings is used again.

Then, for each scenario, gunicorn (``gunicorn.conf.py``, 2 processes x 4 threads) serving
``bench.settings_reads`` is asked by wrk (2 threads, 16 connections, ``--seconds`` a run, no token:
an anonymous reader of the published season), ceiling and product alternating (C P, P C, C P)
after ``--warmup`` seconds of each, unrecorded:

* product  ``GET /api/v1/seasons/{id}/standings/``
* ceiling  ``GET /bench/ceiling-read/{id}/`` (``bench/ceiling_reads.py``) over the season's and
           its evenings' stream rows

Scenarios: ``plain`` (the seeded season); ``corrected`` (after ``--corrections`` 200
``result.adjusted`` spread over the evenings' last rounds (the earlier ones closed when the next
was paired), each a director's correction through
``games.tournaments.results.correction_record``); ``writer`` (a thread of this process appends one
such correction a second during every run, ceiling's too: the first read of each web process
after a correction reads that evening again). Before the HTTP runs, ``standings_json`` is timed in
this process: cold (nothing kept), warm, and after one correction (one evening read again).

Target (issue 38): the product's p99 under 2x the ceiling's, medians of ``--runs`` runs each.
Results: one JSON line in bench/results/seasons.jsonl.

Run: ``DATABASE_URL=postgres://postgres@127.0.0.1:5432/scarney_bench_season .venv/bin/python
bench/seasons.py [--evenings 40] [--players 60] [--rounds 3] [--corrections 200] [--seconds 10]
[--runs 3] [--warmup 3] [--workers 3] [--scenarios plain,corrected,writer] [--in-process-only]``.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
if sys.path and Path(sys.path[0] or ".").resolve() == _HERE:
    sys.path.pop(0)  # bench/http.py must not shadow the standard library's http package
sys.path.insert(0, str(_HERE.parent))

import argparse  # noqa: E402
import json  # noqa: E402
import multiprocessing as mp  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
import uuid  # noqa: E402
from http.client import HTTPConnection  # noqa: E402
from typing import Any  # noqa: E402

from bench import _common  # noqa: E402
from bench import http as bench_http  # noqa: E402  (its server machinery)

NAME = "seasons"
HOST = bench_http.HOST
LUA = _HERE / "wrk" / "reads.lua"
WORK = _common.RESULTS / "wrk" / "seasons"
SEASON_NAME = "Bench season"
DIRECTOR = "bench-season"
SCENARIOS = ["plain", "corrected", "writer"]
FORMAT = "scarney-singles"
TABLE_SIZE = 6


# --- the season ---------------------------------------------------------------------------------


def director() -> Any:
    from django.contrib.auth import get_user_model

    user, _ = get_user_model().objects.get_or_create(
        username=DIRECTOR, defaults={"is_staff": True, "is_superuser": True}
    )
    return user


def season_seed(args: argparse.Namespace) -> uuid.UUID:
    """The season of ``args.evenings`` played evenings (made if missing): its id."""
    from bench import seeding  # the register's players
    from games.store.models import Season, Tournament
    from games.tournaments import seasons

    user = director()
    for season in Season.objects.filter(name=SEASON_NAME):
        if Tournament.objects.filter(season=season).count() == args.evenings:
            print(f"season {season.pk}: {args.evenings} evenings seeded already")
            return uuid.UUID(str(season.pk))
    t0 = time.perf_counter()
    players = seeding.players_register(args.players, user)
    season = seasons.season_create(
        spec={"name": SEASON_NAME, "format": FORMAT, "published": True}, user=user
    )
    _common.close_django_connections()
    jobs = [(n, players, args.rounds) for n in range(1, args.evenings + 1)]
    with mp.get_context("fork").Pool(args.workers) as pool:
        evenings = pool.map(evening_play, jobs)
    for tournament in evenings:
        seasons.tournament_add(season_id=season.pk, tournament_id=tournament, user=user)
    print(
        f"season {season.pk}: {args.evenings} evenings of {args.players} players,"
        f" {args.rounds} rounds, seeded in {time.perf_counter() - t0:.0f} s",
        flush=True,
    )
    return uuid.UUID(str(season.pk))


def evening_play(job: tuple[int, list[tuple[int, str]], int]) -> uuid.UUID:
    """One evening (in a pool's process): a Scarney evening of tables of six, each round paired by
    the service and each table's result entered by the director (``result.adjusted``, as a club
    does from the score sheets); its tournament id."""
    number, players, rounds = job
    from games.store.models import TournamentTable
    from games.tournaments import creating, entries
    from games.tournaments import rounds as pairing

    user, rng = director(), random.Random(number)
    tournament = creating.tournament_create(
        spec={
            "name": f"Season evening {number}",
            "format": FORMAT,
            "system": "tables",
            "rounds": rounds,
            "table_size": TABLE_SIZE,
            "entry": "sheet",
        },
        user=user,
    )
    for pk, _name in players:
        entries.entry_add(tournament_id=tournament.pk, spec={"player": pk}, user=user)
    for _ in range(rounds):
        n = pairing.round_pair(tournament_id=tournament.pk, user=user)
        for table in TournamentTable.objects.filter(tournament=tournament, round_number=n):
            adjust(tournament.pk, n, table.number, len(table.players), rng, user, "the sheet")
    return uuid.UUID(str(tournament.pk))


def adjust(
    tournament: Any, round: int, table: int, seats: int, rng: random.Random, user: Any, why: str
) -> None:
    """A director sets a table's match points: a random order of the seats, 1 to 0."""
    from games.tournaments import results

    points = [round_(1 - place / max(1, seats - 1)) for place in range(seats)]
    rng.shuffle(points)
    results.correction_record(
        tournament_id=tournament,
        event_id=uuid.uuid4(),
        type="result.adjusted",
        data={"round": round, "table": table, "points": points, "reason": why},
        user=user,
    )


def round_(value: float) -> float:
    return float(f"{value:.2f}")


def evening_ids(season_id: uuid.UUID) -> list[uuid.UUID]:
    from games.store.models import Tournament

    rows = Tournament.objects.filter(season_id=season_id).values_list("pk", flat=True)
    return [uuid.UUID(str(pk)) for pk in rows]


# --- corrections --------------------------------------------------------------------------------


class Corrector:
    """A director's ``result.adjusted`` on a random table of a random evening, through the
    service: each one changes that evening's head, and with it the season's fingerprint."""

    def __init__(self, season_id: uuid.UUID, seed: int) -> None:
        from games.store.models import TournamentTable

        self.rng = random.Random(seed)
        self.user = director()
        rows = TournamentTable.objects.filter(tournament__season_id=season_id).values_list(
            "tournament_id", "round_number", "number", "players"
        )
        last: dict[Any, int] = {}
        for tournament, round_number, _table, _players in rows:
            last[tournament] = max(round_number, last.get(tournament, 0))
        # An evening's earlier rounds closed when the next was paired: their results stay.
        self.tables = [
            (tournament, round_number, table, len(players))
            for tournament, round_number, table, players in rows
            if round_number == last[tournament]
        ]

    def one(self) -> None:
        tournament, round_number, table, seats = self.rng.choice(self.tables)
        adjust(tournament, round_number, table, seats, self.rng, self.user, "sheet misread")

    def many(self, count: int) -> float:
        t0 = time.perf_counter()
        for _ in range(count):
            self.one()
        return time.perf_counter() - t0


class Writer(threading.Thread):
    """One correction a second until stopped (its own database connection)."""

    def __init__(self, corrector: Corrector) -> None:
        super().__init__(daemon=True)
        self.corrector = corrector
        self.halt = threading.Event()
        self.made = 0

    def run(self) -> None:
        from django.db import connection

        try:
            while not self.halt.wait(1.0):
                self.corrector.one()
                self.made += 1
        finally:
            connection.close()


# --- in this process ----------------------------------------------------------------------------


def in_process(season_id: uuid.UUID, corrector: Corrector, repeat: int = 5) -> dict[str, float]:
    """``standings_json`` timed here, in ms: cold (nothing kept), warm, and after one correction
    (medians of ``repeat``)."""
    from django.contrib.auth.models import AnonymousUser

    from games.store.models import Season
    from games.tournaments import season_standings

    anonymous = AnonymousUser()

    def timed() -> float:
        season = Season.objects.get(pk=season_id)
        t0 = time.perf_counter()
        answer = season_standings.standings_json(season, anonymous)
        assert len(answer["rows"]) > 0 and answer["evenings"] > 0
        return 1000 * (time.perf_counter() - t0)

    cold, warm, corrected = [], [], []
    for _ in range(repeat):
        season_standings._ANSWERS.clear()
        season_standings._PLACES.clear()
        cold.append(timed())
        warm.append(timed())
        corrector.one()
        corrected.append(timed())
    return {
        "cold_ms": _common.median(cold),
        "warm_ms": _common.median(warm),
        "one_corrected_ms": _common.median(corrected),
    }


# --- over HTTP ----------------------------------------------------------------------------------


def wrk(port: int, paths_file: Path, seconds: float) -> dict[str, Any]:
    out = subprocess.run(
        [
            "wrk", "-t2", "-c16", f"-d{seconds:g}s", "--timeout", "10s", "-s", str(LUA),
            f"http://{HOST}:{port}/", "--", str(paths_file), "-",
        ],
        capture_output=True,
        text=True,
        timeout=seconds + 60,
        check=True,
    )  # fmt: skip
    line = next(x for x in out.stdout.splitlines() if x.startswith("WRK "))
    figures: dict[str, Any] = json.loads(line[4:])
    figures["rps"] = figures["requests"] / figures["seconds"]
    figures["loadavg_1m"] = os.getloadavg()[0]
    return figures


def path_files(season_id: uuid.UUID) -> dict[str, Path]:
    WORK.mkdir(parents=True, exist_ok=True)
    rows = [season_id, *evening_ids(season_id)]
    files = {"product": WORK / "product.txt", "ceiling": WORK / "ceiling.txt"}
    files["product"].write_text(f"/api/v1/seasons/{season_id}/standings/\n")
    files["ceiling"].write_text("".join(f"/bench/ceiling-read/{pk}/\n" for pk in rows))
    return files


def endpoint_ready(port: int, season_id: uuid.UUID) -> None:
    conn = HTTPConnection(HOST, port, timeout=120)
    conn.request("GET", f"/api/v1/seasons/{season_id}/standings/")
    response = conn.getresponse()
    body = response.read()
    if response.status != 200:
        raise SystemExit(f"the standings answered {response.status}: {body[:300]!r}")


def measure(
    scenario: str, port: int, files: dict[str, Path], args: argparse.Namespace, writer: Any
) -> dict[str, Any]:
    runs: dict[str, list[dict[str, Any]]] = {"ceiling": [], "product": []}
    if args.warmup:  # each web process's first read makes what it keeps (timed in process)
        for which in ("product", "ceiling"):
            wrk(port, files[which], args.warmup)
    for run in range(args.runs):
        for which in ("ceiling", "product") if run % 2 == 0 else ("product", "ceiling"):
            figures = wrk(port, files[which], args.seconds)
            runs[which].append(figures)
            print(
                f"    {scenario:9s} {which:8s} {figures['rps']:7.0f} req/s  p50"
                f" {figures['p50_ms']:6.1f}  p99 {figures['p99_ms']:6.1f}  non-2xx"
                f" {figures['non_2xx']}  load {figures['loadavg_1m']:.1f}",
                flush=True,
            )
    summary: dict[str, Any] = {
        which: {k: _common.median(r[k] for r in rows) for k in ("rps", "p50_ms", "p99_ms")}
        for which, rows in runs.items()
    }
    summary["p99_ratio"] = summary["product"]["p99_ms"] / summary["ceiling"]["p99_ms"]
    if writer is not None:
        summary["corrections_during"] = writer.made
    return {"scenario": scenario, "summary": summary, "runs": runs}


def over_http(
    season_id: uuid.UUID, corrector: Corrector, args: argparse.Namespace
) -> list[dict[str, Any]]:
    env = {
        **os.environ,
        "DEBUG": "0",
        "THROTTLE_TOKEN_RATE": os.environ.get("THROTTLE_TOKEN_RATE") or "100000000/m",
        "THROTTLE_ADDRESS_RATE": os.environ.get("THROTTLE_ADDRESS_RATE") or "100000000/m",
    }
    env.pop("REDIS_URL", None)
    env.pop("OUTBOX_INLINE", None)  # the server as deployed
    files = path_files(season_id)
    port = bench_http.free_port()
    print(f"gunicorn (gunicorn.conf.py) on {HOST}:{port}", flush=True)
    proc = bench_http.start_gunicorn(env, port, "bench.settings_reads", "gunicorn-seasons")
    results = []
    try:
        endpoint_ready(port, season_id)
        for scenario in args.scenarios.split(","):
            writer = None
            if scenario == "corrected":
                spent = corrector.many(args.corrections)
                print(f"  {args.corrections} corrections appended in {spent:.1f} s", flush=True)
            if scenario == "writer":
                writer = Writer(corrector)
                writer.start()
            try:
                result = measure(scenario, port, files, args, writer)
            finally:
                if writer is not None:
                    writer.halt.set()
                    writer.join(timeout=30)
            s = result["summary"]
            print(
                f"  {scenario}: p50 {s['product']['p50_ms']:.1f} vs"
                f" {s['ceiling']['p50_ms']:.1f} ms; p99 {s['product']['p99_ms']:.1f} vs"
                f" {s['ceiling']['p99_ms']:.1f} ms = {s['p99_ratio']:.2f} (target < 2)",
                flush=True,
            )
            results.append(result)
    finally:
        bench_http.stop_gunicorn(proc)
    return results


# --- main ---------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--evenings", type=int, default=40)
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--corrections", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--runs", type=int, default=3, help="runs of each, alternating")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds of each, unrecorded")
    parser.add_argument("--workers", type=int, default=3, help="processes seeding evenings")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    parser.add_argument("--in-process-only", action="store_true", help="no HTTP runs")
    args = parser.parse_args()
    if shutil.which("wrk") is None and not args.in_process_only:
        sys.exit("wrk is missing: apt-get install -y wrk")
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/scarney_bench_season")
    # A match's close (Celery eager) runs in the committing thread, before the next round is
    # paired: without it a publisher thread runs it later, and forking the pool beside it hangs.
    os.environ["OUTBOX_INLINE"] = "1"
    _common.setup_django()
    season_id = season_seed(args)
    corrector = Corrector(season_id, seed=38)
    timings = in_process(season_id, corrector)
    print(
        "  in this process: cold {cold_ms:.1f} ms, warm {warm_ms:.2f} ms, after one correction"
        " {one_corrected_ms:.1f} ms".format(**timings),
        flush=True,
    )
    results = [] if args.in_process_only else over_http(season_id, corrector, args)
    path = _common.record(
        NAME, {"args": vars(args), "season": str(season_id), "in_process": timings, "http": results}
    )
    print(f"appended to {path.relative_to(_common.ROOT)}")


if __name__ == "__main__":
    main()
