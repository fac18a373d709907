"""A move over HTTP against its ceiling, measured from outside with wrk, for every family.

gunicorn serves ``bench.settings`` (the product's settings; its URLconf adds the ceiling view,
``bench/ceiling.py``, beside the product's URLs) with the project's ``gunicorn.conf.py``
(2 processes x 4 threads) on the bench database. wrk (Debian's package) sends, with 16 threads
of one connection each (so a thread's moves arrive one at a time, in order), for ``--seconds``:

* product  ``POST /api/v1/games/{id}/events/``: legal moves prepared before the run with the pure
           rules (``bench/families.py``), on games started (and brought to ``--length`` events)
           through the service by the token's user, who thus records as their creator;
* ceiling  ``POST /bench/ceiling/{id}/`` with the very same bodies: one INSERT, a JSON answer.

Ceiling and product runs alternate (C P P C ...); the figures are medians over ``--runs`` runs of
each and the ratios of those medians. Each run also gives the CPU a request cost the web processes
and PostgreSQL (from /proc, wrk's own left out): the ratio of those is steadier than the rates'
on a shared machine. The tables a move writes are vacuumed before each scenario (autovacuum is off
on these machines, and every move leaves dead rows behind). Scenarios: each family
(``--families``), with and without ``expected_version``, games of ``--length`` events (10, or
1,000 for the dice games whose games do not end), and ``--spread``: ``Connection: close`` on
every request (ceiling too), so that each move is accepted anew by either process and a game's
moves are served by both.

Each thread plays ``--games`` games round robin (dice games) or a queue of games one after the
other (Solitaire, High-Low, Manchester: their games end). Event ids are made by the Lua script,
random per thread (bench/wrk/moves.lua). Results: one JSON line per scenario in
bench/results/http.jsonl.

Run: ``DATABASE_URL=... .venv/bin/python bench/http.py [--families hearts-due,...]
[--length 10] [--expected both|yes|no] [--spread] [--seconds 10] [--runs 2] [--profile]``;
``bench/http.py --report SINCE`` prints the latest result of each scenario since SINCE (UTC) as
a Markdown table. Figures and how to read them: docs/BENCHMARKS.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
if sys.path and Path(sys.path[0] or ".").resolve() == _HERE:
    sys.path.pop(0)  # this very file must not shadow the standard library's http package
sys.path.insert(0, str(_HERE.parent))

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402
import uuid  # noqa: E402
from http.client import HTTPConnection  # noqa: E402
from typing import Any  # noqa: E402

from bench import _common, families  # noqa: E402

NAME = "http"
HOST = "127.0.0.1"
THREADS = 16
# Families whose games end by themselves, well before 1,000 events: a Solitaire game has 17 events
# at most, a Straight Scarney Dice game ends after its frames, a Manchester game is one hand.
BOUNDED = {
    "scarney-solitaire",
    "high-low-scarney",
    "straight-scarney-dice",
    "manchester-piccadilly",
}
LUA = _HERE / "wrk" / "moves.lua"
WORK = _common.RESULTS / "wrk"


# --- the server ---------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def issue_token(env: dict[str, str], username: str = "bench", staff: bool = False) -> str:
    out = subprocess.run(
        [sys.executable, "manage.py", "issue_token", username, *(["--staff"] if staff else [])],
        cwd=_common.ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return out.stdout.strip().splitlines()[-1]


def start_gunicorn(
    env: dict[str, str], port: int, settings: str = "bench.settings", log_name: str = "gunicorn"
) -> subprocess.Popen[bytes]:
    """gunicorn as gunicorn.conf.py sets it up (read from the project's directory), with a
    bench-only settings module that adds its ceiling's URLs."""
    gunicorn = Path(sys.executable).with_name("gunicorn")
    _common.RESULTS.mkdir(parents=True, exist_ok=True)
    log = open(_common.RESULTS / f"{log_name}.log", "ab")  # noqa: SIM115
    proc = subprocess.Popen(
        [str(gunicorn), "scarney_site.wsgi", "--no-control-socket"],
        cwd=_common.ROOT,
        env={**env, "WEB_BIND": f"{HOST}:{port}", "DJANGO_SETTINGS_MODULE": settings},
        stdout=log,
        stderr=log,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {proc.returncode}; see {log.name}")
        try:
            conn = HTTPConnection(HOST, port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                conn.close()
                return proc
        except OSError:
            time.sleep(0.2)
    stop_gunicorn(proc)
    raise RuntimeError("gunicorn did not answer /healthz within 60 s")


def stop_gunicorn(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)  # graceful: the arbiter stops its workers
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


# --- the moves ----------------------------------------------------------------------------------


class Scenario:
    """One family's games and each thread's moves, written as wrk's input files."""

    def __init__(self, kind: str, length: int, expected: bool, spread: bool) -> None:
        self.kind, self.length, self.expected, self.spread = kind, length, expected, spread
        self.seats, self.ruleset = next((s, r) for k, s, r in families.FAMILIES if k == kind)

    @property
    def name(self) -> str:
        ev = "ev" if self.expected else "no-ev"
        return f"{self.kind}-{self.length}-{ev}{'-spread' if self.spread else ''}"

    def prepare(self, user: Any, per_thread: int, games: int, statement: bool = False) -> None:
        """Each arm's moves, a file a wrk thread. The statement arm (``--statement``) writes into
        games of its own: its events are not the rules' moves, so no product game may get them."""
        arms = ["product", "ceiling", *(["statement"] if statement else [])]
        for arm in ("product", "ceiling", "statement"):  # no arm left from an earlier run
            shutil.rmtree(WORK / self.name / arm, ignore_errors=True)
        for arm in arms:
            (WORK / self.name / arm).mkdir(parents=True)
        for thread in range(1, THREADS + 1):
            lines = self.lines(user, thread, per_thread, games)
            self.write("product", thread, lines)
            self.write("ceiling", thread, [(_ceiling_path(p), b) for p, b in lines])
            if statement:
                others = self.lines(user, thread + THREADS, per_thread, games)
                self.write("statement", thread, [(_statement_path(p), b) for p, b in others])

    def lines(self, user: Any, thread: int, count: int, games: int) -> list[tuple[str, str]]:
        if self.kind in BOUNDED:
            return self.queue_of_games(user, thread, count)
        return self.round_robin(user, thread, count, games)

    def write(self, arm: str, thread: int, lines: list[tuple[str, str]]) -> None:
        text = "".join(f"{path}\t{body}\n" for path, body in lines)
        (WORK / self.name / arm / f"t{thread}.txt").write_text(text)

    def start(self, user: Any, seed: int) -> uuid.UUID:
        from games.play import services

        names = [{"name": f"bench-{self.kind}-{(seed + s) % 8}"} for s in range(self.seats)]
        game = services.game_start(kind=self.kind, seats=names, ruleset=self.ruleset, user=user)
        return uuid.UUID(str(game.pk))

    def queue_of_games(self, user: Any, thread: int, count: int) -> list[tuple[str, str]]:
        """Whole games one after another, each from its start (they end by themselves)."""
        lines: list[tuple[str, str]] = []
        seed = thread * 100_000
        while len(lines) < count:
            seed += 1
            game = self.start(user, seed)
            version = 1
            for type, data in families.moves(self.kind, self.seats, self.ruleset, 10_000, seed):
                version += 1
                lines.append(self.line(game, type, data, version))
        return lines[:count]

    def round_robin(self, user: Any, thread: int, count: int, games: int) -> list[tuple[str, str]]:
        """``games`` endless games brought to ``length`` events, their next moves interleaved."""
        from games.play import services

        plays = []
        for g in range(games):
            seed = thread * 1000 + g
            game = self.start(user, seed)
            upcoming = families.moves(
                self.kind, self.seats, self.ruleset, self.length - 1 + count // games + 1, seed
            )
            for type, data in upcoming[: self.length - 1]:
                services.event_record(
                    stream_id=game, event_id=uuid.uuid4(), type=type, data=data, user=user
                )
            plays.append((game, upcoming[self.length - 1 :], self.length))
        lines = []
        for step in range(count // games + 1):
            for game, upcoming, version in plays:
                if step < len(upcoming):
                    type, data = upcoming[step]
                    lines.append(self.line(game, type, data, version + step + 1))
        return lines[:count]

    def line(self, game: uuid.UUID, type: str, data: Any, version: int) -> tuple[str, str]:
        body: dict[str, Any] = {"id": "%ID%", "type": type, "data": data}
        if self.expected:
            body["expected_version"] = version - 1
        return f"/api/v1/games/{game}/events/", json.dumps(body, separators=(",", ":"))


def _ceiling_path(path: str) -> str:
    return path.replace("/api/v1/games/", "/bench/ceiling/").replace("/events/", "/")


def _statement_path(path: str) -> str:
    return path.replace("/api/v1/games/", "/bench/statement/").replace("/events/", "/")


# --- the runs -----------------------------------------------------------------------------------


# The tables the moves and the ceiling write. A server with autovacuum on (PostgreSQL's default)
# clears their dead rows as they pile up; this machine's runs with it off, and every move leaves
# a dead version of its stream row and summary row: without a vacuum the product's tables bloat
# from scenario to scenario (the ceiling only inserts) and later runs measure the bloat.
VACUUMED = ("games_stream", "scoring_gamesummary", "games_event", "games_pastsnapshot")


def vacuum(url: str) -> None:
    """VACUUM (ANALYZE) the tables a move writes, and the ceiling's, before a scenario's runs."""
    import psycopg

    with psycopg.connect(_common.conninfo(url), autocommit=True) as conn:
        for table in (*VACUUMED, "bench_raw_event"):
            conn.execute(f"VACUUM (ANALYZE) {table}")


def wrk(
    port: int, folder: Path, token: str, seconds: float, spread: bool, profile: Path | None
) -> dict[str, Any]:
    args = [str(folder), token] + (["close"] if spread else [])
    spy = None if profile is None else py_spy(profile, seconds)
    web_before, db_before = cpu_seconds(WEB_PIDS), cpu_seconds(postgres_pids())
    out = subprocess.run(
        [
            "wrk",
            f"-t{THREADS}",
            f"-c{THREADS}",
            f"-d{seconds:g}s",
            "--timeout",
            "10s",
            "-s",
            str(LUA),
            f"http://{HOST}:{port}/",
            "--",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=seconds + 60,
        check=True,
    )
    if spy is not None:
        spy.wait(timeout=60)
    line = next(x for x in out.stdout.splitlines() if x.startswith("WRK "))
    figures: dict[str, Any] = json.loads(line[4:])
    # Moves only: a thread out of moves asks /healthz (counted apart, as "exhausted").
    figures["rps"] = (figures["requests"] - figures["exhausted"]) / figures["seconds"]
    # CPU a request costs the web processes and PostgreSQL: steadier than the rate on a shared
    # machine, and it says which side a move costs more on. wrk's own CPU is left out.
    done = max(1, figures["requests"])
    figures["web_cpu_ms"] = 1000 * (cpu_seconds(WEB_PIDS) - web_before) / done
    figures["db_cpu_ms"] = 1000 * (cpu_seconds(postgres_pids()) - db_before) / done
    figures["stderr"] = out.stderr.strip().splitlines()[:3]
    return figures


WEB_PIDS: list[int] = []


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU of ``pids`` so far (those that have ended count nothing)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def postgres_pids() -> list[int]:
    """The database server's processes (its backends come and go with connections)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == "postgres":
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


PROFILE_MODE = ["--gil"]  # --profile wall: every thread in a request, waiting or not


def py_spy(out: Path, seconds: float) -> subprocess.Popen[bytes]:
    """py-spy (root) on one web process for the middle of the run: collapsed stacks to ``out``.
    ``--gil`` samples the thread holding the GIL only: where the CPU of a process goes."""
    spy = Path(sys.executable).with_name("py-spy")
    return subprocess.Popen(
        [str(spy), "record", "-p", str(WEB_PIDS[0]), "-d", f"{max(1, int(seconds) - 3)}",
         "-r", "200", "-f", "raw", "-o", str(out), "--nonblocking", *PROFILE_MODE],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip


def measure(
    scenario: Scenario, port: int, token: str, seconds: float, runs: int, profile: bool
) -> dict[str, Any]:
    base = WORK / scenario.name
    order = ["ceiling", "product", *(["statement"] if (base / "statement").is_dir() else [])]
    results: dict[str, list[dict[str, Any]]] = {which: [] for which in order}
    for run in range(runs):
        for which in order if run % 2 == 0 else order[::-1]:
            spy = base / f"profile-{run}.txt" if profile and which == "product" else None
            figures = wrk(port, base / which, token, seconds, scenario.spread, spy)
            figures["loadavg_1m"] = os.getloadavg()[0]
            results[which].append(figures)
            print(
                f"    {which:8s} {figures['rps']:7.0f} req/s  p50 {figures['p50_ms']:6.1f}"
                f"  p99 {figures['p99_ms']:6.1f}  refused {figures['refused']}"
                f"  exhausted {figures['exhausted']}  load {figures['loadavg_1m']:.1f}"
                f"  cpu/request web {figures['web_cpu_ms']:.2f} db {figures['db_cpu_ms']:.2f} ms",
                flush=True,
            )
            for message in figures["stderr"]:
                print(f"      {message}")
    summary: dict[str, Any] = {
        which: {
            key: _common.median(r[key] for r in rows)
            for key in ("rps", "p50_ms", "p99_ms", "web_cpu_ms", "db_cpu_ms")
        }
        for which, rows in results.items()
    }
    summary["rps_ratio"] = summary["product"]["rps"] / summary["ceiling"]["rps"]
    if "statement" in summary:  # the floor: the product's statement without the rules
        summary["statement_ratio"] = summary["statement"]["rps"] / summary["ceiling"]["rps"]
        summary["statement_p99_ratio"] = (
            summary["statement"]["p99_ms"] / summary["ceiling"]["p99_ms"]
        )
    summary["p99_ratio"] = summary["product"]["p99_ms"] / summary["ceiling"]["p99_ms"]
    cpu = {w: summary[w]["web_cpu_ms"] + summary[w]["db_cpu_ms"] for w in ("ceiling", "product")}
    summary["cpu_ratio"] = cpu["ceiling"] / cpu["product"] if cpu["product"] else 0.0
    return {"scenario": scenario.name, "summary": summary, "runs": results}


def scenarios(args: argparse.Namespace) -> list[Scenario]:
    kinds = [k for k, _, _ in families.FAMILIES]
    chosen = kinds if args.families == "all" else args.families.split(",")
    expected = {"both": [True, False], "yes": [True], "no": [False]}[args.expected]
    out = []
    for kind in chosen:
        if kind in BOUNDED and args.length > 10:
            continue  # their games end long before
        for ev in expected:
            out.append(Scenario(kind, args.length, ev, args.spread))
    return out


def report(since: str) -> None:
    """A Markdown table of the latest result of each scenario recorded since ``since`` (UTC)."""
    latest: dict[str, dict[str, Any]] = {}
    for line in (_common.RESULTS / f"{NAME}.jsonl").read_text().splitlines():
        row = json.loads(line)
        if "scenario" in row and row["at"] >= since:
            latest[row["scenario"]] = row
    print(
        "| scenario | product req/s | ceiling req/s | ratio | p99 product | p99 ceiling | ratio |"
    )
    print("|---|---|---|---|---|---|---|")
    for name, row in latest.items():
        s, p, c = row["summary"], row["summary"]["product"], row["summary"]["ceiling"]
        print(
            f"| {name} | {p['rps']:.0f} | {c['rps']:.0f} | {s['rps_ratio']:.2f} "
            f"| {p['p99_ms']:.0f} ms | {c['p99_ms']:.0f} ms | {s['p99_ratio']:.2f} |"
        )


def main() -> None:
    if sys.argv[1:2] == ["--report"]:
        return report(sys.argv[2] if len(sys.argv) > 2 else "")
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--families", default="all", help="comma-separated kinds, or all")
    parser.add_argument("--length", type=int, default=10, help="events in a game at the start")
    parser.add_argument("--expected", default="both", choices=["both", "yes", "no"])
    parser.add_argument("--spread", action="store_true", help="Connection: close per request")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--runs", type=int, default=2, help="runs of each, alternating")
    parser.add_argument("--games", type=int, default=0, help="games per thread (dice games)")
    parser.add_argument(
        "--statement",
        action="store_true",
        help="a third arm: the product's append statement alone, on games of its own",
    )
    parser.add_argument("--max-rate", type=int, default=1200, help="req/s the moves must last")
    parser.add_argument(
        "--profile",
        nargs="?",
        const="gil",
        choices=["gil", "wall"],
        help="py-spy one web process during each product run (gil: its CPU; wall: its threads)",
    )
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is missing: apt-get install -y wrk")

    # Snapshots written here, as the games are prepared, must verify in the web processes.
    os.environ["SECRET_KEY"] = os.environ.get("SECRET_KEY") or "bench-" + uuid.uuid4().hex
    url = _common.setup_django()
    import psycopg
    from django.contrib.auth import get_user_model

    from bench.append import RAW_DDL

    with psycopg.connect(_common.conninfo(url), autocommit=True) as conn:
        conn.execute(RAW_DDL)
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DEBUG": "0",
        # One token sends every request, far over a device's rate; still counted.
        "THROTTLE_TOKEN_RATE": os.environ.get("THROTTLE_TOKEN_RATE") or "100000000/m",
        "THROTTLE_ADDRESS_RATE": os.environ.get("THROTTLE_ADDRESS_RATE") or "100000000/m",
    }
    env.pop("REDIS_URL", None)
    token = issue_token(env)
    user = get_user_model().objects.get(username="bench")
    # gunicorn serves its connections unevenly: the busiest thread sends ~2x the average.
    per_thread = int(2.5 * args.max_rate * args.seconds * args.runs / THREADS)
    if args.profile == "wall":
        PROFILE_MODE.clear()
    port = free_port()
    print(f"gunicorn (gunicorn.conf.py) on {HOST}:{port}, database {_common.dbname_of(url)}")
    proc = start_gunicorn(env, port)
    children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
    WEB_PIDS[:] = [int(pid) for pid in children]
    try:
        for scenario in scenarios(args):
            games = args.games or (8 if args.length <= 10 else 1)
            t0 = time.perf_counter()
            scenario.prepare(user, per_thread, games, args.statement)
            vacuum(url)
            print(f"  {scenario.name}: prepared in {time.perf_counter() - t0:.0f} s", flush=True)
            result = measure(scenario, port, token, args.seconds, args.runs, bool(args.profile))
            s = result["summary"]
            print(
                f"  {scenario.name}: {s['product']['rps']:.0f} vs {s['ceiling']['rps']:.0f}"
                f" req/s = {s['rps_ratio']:.2f}; p99 {s['product']['p99_ms']:.1f} vs"
                f" {s['ceiling']['p99_ms']:.1f} ms = {s['p99_ratio']:.2f}; CPU a request"
                f" {s['product']['web_cpu_ms'] + s['product']['db_cpu_ms']:.2f} vs"
                f" {s['ceiling']['web_cpu_ms'] + s['ceiling']['db_cpu_ms']:.2f} ms"
                f" = {s['cpu_ratio']:.2f}",
                flush=True,
            )
            if "statement_ratio" in s:
                print(
                    f"  {scenario.name}: the statement alone {s['statement']['rps']:.0f} req/s"
                    f" = {s['statement_ratio']:.2f} of the ceiling; p99"
                    f" {s['statement_p99_ratio']:.2f}; CPU a request"
                    f" {s['statement']['web_cpu_ms'] + s['statement']['db_cpu_ms']:.2f} ms",
                    flush=True,
                )
            variant = os.environ.get("BENCH_STATEMENT", "full") if args.statement else None
            _common.record(NAME, {"args": vars(args), "statement": variant, **result})
    finally:
        stop_gunicorn(proc)


if __name__ == "__main__":
    main()
