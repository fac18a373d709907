"""Ratings (scoring/ratings): every rating rebuilt from 1,000,000 events, and the leaderboard read
at 100,000 players against a bare DRF get-by-pk view.

**rebuild** (database ``scarney_bench_ratings``). Filled to ``--events`` events (default
1,000,000) of rated play, all of it games outside matches, so the ratings' rebuild folds every
event in the store (the worst case: a match's games are not folded, its own stream says its
result): random legal games generated with the pure rules (``games.demo.sample_tables``) of
High-Low Scarney (2 players), Scarney Singles (3), Hearts Due (4) and Partnership Straight
Scarney Dice (2 x 2), between ``--players`` players (2,000), each kind about a quarter of the
events. Rows are COPYed as bench/rebuild.py's fill writes them (a real hash chain, a snapshot
per stream), by 2 processes. Timed: ``manage.py rebuild_ratings`` as it runs (one transaction,
the event table locked in SHARE mode, the games folded by ``--workers`` processes, commit
included), events/s = events in the store / seconds; its parts alone (finding the results, rating
them, writing); and ``rebuild_projections`` (every read model, the ratings included) beside it.
Target: >= 50,000 events/s, as the other read models.

**board** (database ``scarney_bench_board``). 100,000 players (``--board-players``), each with 10
two-player results or more (established), made as the rebuild writes them: results between
random pairs, each on a finished game stream of its own (1 in 20 private), rated in order by
``scoring.ratings.ledger.rate_all`` and COPYed (no events: the leaderboard reads the rating rows
and the streams' flags, nothing else). gunicorn serves ``bench.settings_reads`` as for
bench/scale.py (2 processes x 4 threads); wrk (2 threads, 16 connections) GETs
``/api/v1/ratings/high-low-scarney/`` pages (the first, and pages at random depths by their
cursors, 50 rows each) against the ceiling ``/bench/ceiling-read/{id}/`` (one stream row by
primary key), alternating runs. Target: the leaderboard's p99 at most 2x the ceiling's (medians).

Run: ``.venv/bin/python bench/ratings.py [--only rebuild|board] [--events 1000000] [--runs 3]
[--seconds 10]``. Results: bench/results/ratings.jsonl.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
if sys.path and Path(sys.path[0] or ".").resolve() == _HERE:
    sys.path.pop(0)  # bench/http.py must not shadow the standard library's http package
sys.path.insert(0, str(_HERE.parent))

import argparse  # noqa: E402
import base64  # noqa: E402
import datetime as dt  # noqa: E402
import json  # noqa: E402
import multiprocessing as mp  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402
import uuid  # noqa: E402
from types import SimpleNamespace  # noqa: E402
from typing import Any  # noqa: E402

from bench import _common  # noqa: E402

NAME = "ratings"
REBUILD_DB = "scarney_bench_ratings"
BOARD_DB = "scarney_bench_board"
BOARD_KIND = "high-low-scarney"
# kind, seats, setup, events a game (measured): each kind a quarter of the events
KINDS: list[tuple[str, int, dict[str, Any], int]] = [
    ("high-low-scarney", 2, {}, 30),
    ("scarney-singles", 3, {}, 21),
    ("hearts-due", 4, {}, 45),
    ("partnership-straight-scarney-dice", 4, {"teams": [[0, 2], [1, 3]]}, 133),
]
GAMES_PER_CHUNK = 400
EPOCH = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)


# --- rebuild: the fill ----------------------------------------------------------------------------


def generate_game(
    rng: random.Random,
    kind: tuple[str, int, dict[str, Any], int],
    players: list[tuple[int, str]],
    start: dt.datetime,
) -> dict[str, Any]:
    """One random legal game of ``kind`` to its end, as rows: its events, its final state."""
    from games.demo import sample_tables
    from games.rules.base import Move
    from games.store import folding
    from games.store.event_types import current_version

    name, seats, setup, _ = kind
    seated = rng.sample(players, seats)
    header = {
        "kind": name,
        "seats": [{"seat": i, "player": p, "name": n} for i, (p, n) in enumerate(seated)],
        "ruleset": _ruleset(name),
        "setup": setup,
        "match": None,
        "number": None,
    }
    folded = folding.Folded("game", header, folding.game_start(header), 1)
    rules = folded.game_rules
    events: list[tuple[str, Any]] = [("game.started", header)]
    while not rules.is_terminal(folded.state):
        move = sample_tables.next_move(folded, rng)
        assert move is not None, name
        state = rules.apply(folded.state, Move(*move))
        folded = folding.Folded("game", header, state, folded.version + 1)
        events.append(move)
    rows, at = [], start
    for version, (type_, data) in enumerate(events, 1):
        rows.append(
            (uuid.uuid4(), version, type_, current_version(type_), data, {"recorded_by": None}, at)
        )
        at += dt.timedelta(milliseconds=rng.randrange(500, 20000))
    return {"folded": folded, "events": rows, "seated": seated}


def _ruleset(kind: str) -> dict[str, Any]:
    from games.rules import registry
    from games.rules.base import make_ruleset, ruleset_as_dict

    return ruleset_as_dict(make_ruleset(registry.get(kind).ruleset_type, {}))


def fill_chunk(args: tuple[int, int, int, list[tuple[int, str]], str]) -> int:
    """Generate ``count`` games of KINDS[kind] and COPY them in one transaction; the events."""
    seed, which, count, players, url = args
    import django

    django.setup()
    import psycopg
    from psycopg.types.json import Jsonb

    from games.store.folding import pack
    from games.store.journal import chain_hash

    kind = KINDS[which][0]
    rng = random.Random(seed)
    base = EPOCH + dt.timedelta(minutes=seed)
    games = [
        generate_game(rng, KINDS[which], players, base + dt.timedelta(seconds=61 * i))
        for i in range(count)
    ]
    streams, seat_rows, events = [], [], []
    for game in games:
        stream_id = uuid.uuid4()
        head = ""
        for event_id, version, type_, schema, data, meta, at in game["events"]:
            fields = dict(stream_id=stream_id, version=version, id=event_id, type=type_)
            head = chain_hash(
                head,
                SimpleNamespace(
                    **fields, schema_version=schema, data=data, meta=meta, recorded_at=at
                ),
            )
            events.append(
                (event_id, stream_id, version, type_, schema, Jsonb(data), Jsonb(meta), at, head)
            )
        version = len(game["events"])
        created = game["events"][0][6]
        snapshot = pack(game["folded"], stream_id)
        streams.append(
            (stream_id, "game", kind, version, "finished", snapshot, version, head, True, created)
        )
        seat_rows += [(i, p, stream_id) for i, (p, _) in enumerate(game["seated"])]
    with psycopg.connect(_common.conninfo(url)) as conn, conn.cursor() as cur:
        with cur.copy(
            "COPY games_stream (id, category, kind, version, status, snapshot, snapshot_version,"
            " head_hash, is_public, created_at) FROM STDIN"
        ) as copy:
            for row in streams:
                copy.write_row(row)
        with cur.copy("COPY games_game (stream_id, kind, created_at) FROM STDIN") as copy:
            for row in streams:
                copy.write_row((row[0], row[2], row[9]))
        with cur.copy("COPY games_gameseat (seat, player_id, game_id) FROM STDIN") as copy:
            for row in seat_rows:
                copy.write_row(row)
        with cur.copy(
            "COPY games_event (id, stream_id, version, type, schema_version, data, meta,"
            " recorded_at, hash) FROM STDIN"
        ) as copy:
            for row in events:
                copy.write_row(row)
        conn.commit()
    return len(events)


def count_events() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM games_event")
        return int(cursor.fetchone()[0])


def players_made(count: int, prefix: str) -> list[tuple[int, str]]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT id, name FROM games_player WHERE name LIKE %s ORDER BY id", [f"{prefix}%"]
        )
        have = [tuple(row) for row in cursor.fetchall()]
        if len(have) < count:
            cursor.execute(
                "INSERT INTO games_player (name, created_at) SELECT %s || g, now()"
                " FROM generate_series(%s, %s) g RETURNING id, name",
                [prefix, len(have) + 1, count],
            )
            have += [tuple(row) for row in cursor.fetchall()]
    return have[:count]  # type: ignore[return-value]


def fill(url: str, target: int, players: int) -> dict[str, Any]:
    have = count_events()
    if have >= target:
        print(f"reusing {REBUILD_DB}: {have:,} events already (target {target:,})")
        return {"filled": 0, "seconds": 0.0, "had": have}
    pool = players_made(players, "rated-p")
    _common.close_django_connections()
    missing = target - have
    jobs = []
    seed = int(time.time())
    share = missing / len(KINDS)
    for which, (_kind, _seats, _setup, per_game) in enumerate(KINDS):
        games = max(1, round(share / per_game))
        while games > 0:
            size = min(GAMES_PER_CHUNK, games)
            jobs.append((seed, which, size, pool, url))
            seed += 1
            games -= size
    random.Random(1).shuffle(jobs)
    print(f"filling {REBUILD_DB}: ~{missing:,} events in {len(jobs)} chunks (COPY) ...", flush=True)
    started = time.perf_counter()
    added = 0
    with mp.get_context("fork").Pool(2) as workers:
        for events in workers.imap_unordered(fill_chunk, jobs):
            added += events
            print(f"  {have + added:,} events ({time.perf_counter() - started:.0f} s)", end="\r")
    seconds = time.perf_counter() - started
    print(f"\nfilled {added:,} events in {seconds:.0f} s; ANALYZE ...")
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return {"filled": added, "seconds": seconds, "had": have}


# --- rebuild: timed -------------------------------------------------------------------------------


def time_rebuild_ratings(workers: int) -> dict[str, Any]:
    """``manage.py rebuild_ratings`` as it runs, with its parts timed apart."""
    from django.db import connection, transaction

    from scoring.projections import ratings

    started = time.perf_counter()
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("LOCK TABLE games_event IN SHARE MODE")
        results = ratings.rebuild(workers=workers)
    seconds = time.perf_counter() - started
    # The parts alone, outside the timed rebuild (no writes): finding and rating.
    t0 = time.perf_counter()
    found = ratings.found_results(workers)
    t1 = time.perf_counter()
    points = sum(len(rated.points) for _, rated in ratings.rate_every_kind(found))
    t2 = time.perf_counter()
    return {
        "seconds": seconds,
        "results": results,
        "points": points,
        "find_seconds": t1 - t0,
        "rate_seconds": t2 - t1,
    }


def time_rebuild_all(workers: int) -> dict[str, Any]:
    from scoring import projections

    per_module: dict[str, float] = {}
    last = [time.perf_counter()]
    started = last[0]

    def report(name: str, count: int) -> None:
        now = time.perf_counter()
        per_module[name], last[0] = now - last[0], now

    projections.rebuild_all(report=report, workers=workers)
    return {"seconds": time.perf_counter() - started, "per_module": per_module}


def run_rebuild(args: argparse.Namespace) -> dict[str, Any]:
    os.environ["DATABASE_URL"] = _common.with_dbname(_common.bench_env(), REBUILD_DB)
    url = _common.setup_django()
    filled = fill(url, args.events, args.players)
    events = count_events()
    print(f"store: {events:,} events")
    runs = []
    for run in range(1, args.runs + 1):
        ratings_run = time_rebuild_ratings(args.workers)
        ratings_run["rate"] = events / ratings_run["seconds"]
        every = time_rebuild_all(args.workers)
        every["rate"] = events / every["seconds"]
        runs.append({"ratings": ratings_run, "all": every})
        print(
            f"  run {run}: rebuild_ratings {ratings_run['seconds']:.1f} s ="
            f" {ratings_run['rate']:,.0f} events/s ({ratings_run['results']:,} results,"
            f" {ratings_run['points']:,} points; finding {ratings_run['find_seconds']:.1f} s,"
            f" rating {ratings_run['rate_seconds']:.1f} s); rebuild_projections"
            f" {every['seconds']:.1f} s = {every['rate']:,.0f} events/s"
            f" ({', '.join(f'{k} {v:.1f} s' for k, v in every['per_module'].items())})",
            flush=True,
        )
    med = _common.median
    summary = {
        "events": events,
        "ratings_rate": med(r["ratings"]["rate"] for r in runs),
        "ratings_seconds": med(r["ratings"]["seconds"] for r in runs),
        "find_seconds": med(r["ratings"]["find_seconds"] for r in runs),
        "rate_seconds": med(r["ratings"]["rate_seconds"] for r in runs),
        "all_rate": med(r["all"]["rate"] for r in runs),
        "all_seconds": med(r["all"]["seconds"] for r in runs),
        "ratings_module_seconds": med(r["all"]["per_module"]["ratings"] for r in runs),
        "results": runs[0]["ratings"]["results"],
        "points": runs[0]["ratings"]["points"],
        "spread": _common.spread([r["ratings"]["rate"] for r in runs]),
    }
    print(
        _common.table(
            ["figure", "value", "target", "verdict"],
            [
                [
                    "rebuild_ratings events/s",
                    summary["ratings_rate"],
                    ">= 50,000",
                    _common.verdict(summary["ratings_rate"], 50_000),
                ],
                ["rebuild_projections events/s (all)", summary["all_rate"], "-", "-"],
            ],
            title=f"Ratings rebuilt from {events:,} events, medians of {args.runs} runs",
        )
    )
    return {"fill": filled, "summary": summary, "runs": runs}


# --- board: the fill ------------------------------------------------------------------------------


def board_fill(url: str, count: int) -> dict[str, Any]:
    """``count`` established players of BOARD_KIND, their results on streams of their own."""
    from django.db import connection

    from scoring.models import Rating, RatingResult
    from scoring.projections import ratings as projection
    from scoring.ratings import ledger, scale

    have = Rating.objects.filter(kind=BOARD_KIND, provisional=False).count()
    if have >= count:
        print(f"reusing {BOARD_DB}: {have:,} established ratings")
        return {"filled": 0, "seconds": 0.0}
    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE scoring_ratingpoint, scoring_rating, scoring_ratingresult")
    players = [p for p, _ in players_made(count, "board-p")]
    rng = random.Random(11)
    strength = {p: rng.gauss(0, 1) for p in players}
    results, streams = [], []
    position = 0
    for round_ in range(scale.ESTABLISHED_AFTER):  # a result a round: established after them
        order = players[:]
        rng.shuffle(order)
        for a, b in zip(order[0::2], order[1::2], strict=False):
            position += 1
            stream = uuid.uuid4()
            at = EPOCH + dt.timedelta(seconds=position)
            streams.append((stream, "game", BOARD_KIND, 30, "finished", rng.random() > 0.05, at))
            first = rng.random() < 1 / (1 + 10 ** ((strength[b] - strength[a]) * 0.8))
            ranks = [1, 2] if first else [2, 1]
            results.append(
                RatingResult(
                    stream_id=stream,
                    kind=BOARD_KIND,
                    position=position,
                    at=at,
                    sides=[[a], [b]],
                    ranks=ranks,
                )
            )
        print(f"  results made: round {round_ + 1}", end="\r", flush=True)
    with connection.cursor() as cursor:
        with cursor.copy(
            "COPY games_stream (id, category, kind, version, status, is_public, created_at,"
            " snapshot_version, head_hash) FROM STDIN"
        ) as copy:
            for row in streams:
                copy.write_row((*row, 0, ""))
    rated = ledger.rate_all(BOARD_KIND, results, {})
    projection.write(results, [(BOARD_KIND, rated)])
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    seconds = time.perf_counter() - started
    print(f"\nboard: {len(results):,} results, {len(rated.points):,} points in {seconds:.0f} s")
    return {"filled": len(results), "seconds": seconds}


def board_paths(rng: random.Random, count: int) -> tuple[list[str], list[str]]:
    """The leaderboard's pages (the first, and others at random depths) and the ceiling's."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT board FROM scoring_rating WHERE kind = %s AND NOT provisional"
            " ORDER BY board DESC",
            [BOARD_KIND],
        )
        boards = [row[0] for row in cursor.fetchall()]
        cursor.execute("SELECT id FROM games_stream ORDER BY random() LIMIT %s", [count])
        streams = [str(row[0]) for row in cursor.fetchall()]
    pages = [f"/api/v1/ratings/{BOARD_KIND}/"] * (count // 4)
    while len(pages) < count:
        depth = rng.randrange(1, len(boards) - 50)
        cursor_ = base64.urlsafe_b64encode(json.dumps([boards[depth - 1], depth]).encode())
        pages.append(f"/api/v1/ratings/{BOARD_KIND}/?cursor={cursor_.decode()}")
    rng.shuffle(pages)
    return pages, [f"/bench/ceiling-read/{s}/" for s in streams]


def run_board(args: argparse.Namespace) -> dict[str, Any]:
    from bench import http as bench_http
    from bench import scale

    if shutil.which("wrk") is None:
        sys.exit("wrk is missing: apt-get install -y wrk")
    os.environ["DATABASE_URL"] = _common.with_dbname(_common.bench_env(), BOARD_DB)
    url = _common.setup_django()
    filled = board_fill(url, args.board_players)
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DEBUG": "0",
        "THROTTLE_TOKEN_RATE": "100000000/m",
        "THROTTLE_ADDRESS_RATE": "100000000/m",
    }
    env.pop("REDIS_URL", None)
    token = bench_http.issue_token(env)
    work = _common.RESULTS / "wrk" / "ratings"
    work.mkdir(parents=True, exist_ok=True)
    product, ceiling = board_paths(random.Random(5), 2000)
    files = {"product": work / "board-product.txt", "ceiling": work / "board-ceiling.txt"}
    files["product"].write_text("".join(p + "\n" for p in product))
    files["ceiling"].write_text("".join(p + "\n" for p in ceiling))
    port = bench_http.free_port()
    proc = scale.start_gunicorn(env, port)
    runs: dict[str, list[dict[str, Any]]] = {"ceiling": [], "product": []}
    try:
        for run in range(args.runs):
            for which in ("ceiling", "product") if run % 2 == 0 else ("product", "ceiling"):
                figures = scale.wrk(port, files[which], token, args.seconds)
                runs[which].append(figures)
                print(
                    f"    leaderboard {which:8s} {figures['rps']:7.0f} req/s  p50"
                    f" {figures['p50_ms']:6.1f}  p99 {figures['p99_ms']:6.1f}  non-2xx"
                    f" {figures['non_2xx']}  load {figures['loadavg_1m']:.1f}",
                    flush=True,
                )
    finally:
        bench_http.stop_gunicorn(proc)
    summary: dict[str, Any] = {
        which: {k: _common.median(r[k] for r in rows) for k in ("rps", "p50_ms", "p99_ms")}
        for which, rows in runs.items()
    }
    summary["p99_ratio"] = summary["product"]["p99_ms"] / summary["ceiling"]["p99_ms"]
    print(
        f"  leaderboard at {args.board_players:,} players: p99"
        f" {summary['product']['p99_ms']:.1f} vs {summary['ceiling']['p99_ms']:.1f} ms ="
        f" {summary['p99_ratio']:.2f} (target <= 2)"
    )
    return {"fill": filled, "summary": summary, "runs": runs}


# --- main ---------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--only", choices=["rebuild", "board"], default=None)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=2000, help="players of the rebuild's fill")
    parser.add_argument("--board-players", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10.0, help="a wrk run")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.only is None:
        # Each part in a process of its own: Django reads its database once, at setup.
        for part in ("rebuild", "board"):
            subprocess.run([sys.executable, __file__, *sys.argv[1:], "--only", part], check=True)
        return
    payload: dict[str, Any] = {"args": vars(args)}
    payload[args.only] = run_rebuild(args) if args.only == "rebuild" else run_board(args)
    path = _common.record(NAME, payload)
    print(f"appended to {path.relative_to(_common.ROOT)}")


if __name__ == "__main__":
    main()
