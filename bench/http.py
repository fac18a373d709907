"""The append path over HTTP: gunicorn (gunicorn.conf.py) and a loopback load generator.

The script starts ``gunicorn scarney_site.wsgi -w 2 -b 127.0.0.1:<free port>`` on the bench
database (SECRET_KEY set, DEBUG off), issues an API token with ``manage.py issue_token bench``,
and runs ``--clients`` (default 16) client threads, each with its own ``http.client`` connection
(kept alive: the project's gunicorn.conf.py runs threaded workers, which keep connections
open) and its own games. A client plays its games move by move:
``POST /api/v1/games/{id}/events/`` with ``expected_version``, a take-off or jump chosen at
random among the legal ones (tracked locally with the pure rules). The games are started and laid
out through the service (two processes) before gunicorn starts, enough for about
900 req/s; a client that runs out makes more over HTTP (``POST /api/v1/games/`` then
``board.laid_out``), and those set-up requests are counted apart, outside the move figures. A
warm-up (``--warmup`` s, same load, not counted) precedes the runs.

Figures per run: requests/s, p50, p99 and max of the move requests; errors by status. Median of
``--runs`` runs (default 3 of ``--seconds`` 20 s). Target: p99 under 50 ms at 16 clients.
gunicorn is stopped at the end (and on failure).

Run: ``.venv/bin/python bench/http.py [--clients 16] [--seconds 20] [--runs 3]``.
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
import random  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
import uuid  # noqa: E402
from collections import Counter  # noqa: E402
from http.client import HTTPConnection  # noqa: E402
from typing import Any  # noqa: E402

from bench import _common  # noqa: E402

NAME = "http"
HOST = "127.0.0.1"


def _make_games(job: tuple[int, int, int]) -> list[tuple[str, dict[str, str]]]:
    """In a forked child: start ``count`` games through the service and lay them out."""
    seed, count, first = job
    from games import services
    from games.rules.scarney_board.board import ALL_PAWNS, CIRCLES

    rng = random.Random(seed)
    made = []
    for i in range(first, first + count):
        game = services.game_start(kind="scarney-solitaire", seats=[{"name": f"http-p{i % 100}"}])
        pawns = list(ALL_PAWNS)
        rng.shuffle(pawns)
        layout = {f"C{c}": p for c, p in zip(CIRCLES, pawns, strict=True)}
        services.event_record(
            stream_id=game.pk,
            event_id=uuid.uuid4(),
            type="board.laid_out",
            data={"position": layout},
            expected_version=1,
        )
        made.append((str(game.pk), layout))
    return made


def make_games(count: int) -> list[tuple[str, dict[str, str]]]:
    """``count`` laid-out games, made through the service by two processes before the load."""
    import multiprocessing as mp

    _common.close_django_connections()
    tag = int(time.time())
    half = count // 2
    with mp.get_context("fork").Pool(2) as pool:
        parts = pool.map(_make_games, [(tag, half, 0), (tag + 1, count - half, half)])
    return [g for part in parts for g in part]


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def issue_token(env: dict[str, str]) -> str:
    out = subprocess.run(
        [sys.executable, "manage.py", "issue_token", "bench"],
        cwd=_common.ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return out.stdout.strip().splitlines()[-1]


def start_gunicorn(env: dict[str, str], port: int, workers: int) -> subprocess.Popen[bytes]:
    gunicorn = Path(sys.executable).with_name("gunicorn")
    log = open(_common.RESULTS / "gunicorn.log", "ab")  # noqa: SIM115
    proc = subprocess.Popen(
        [
            str(gunicorn),
            "scarney_site.wsgi",
            "-w",
            str(workers),
            "-b",
            f"{HOST}:{port}",
            "--no-control-socket",
        ],
        cwd=_common.ROOT,
        env=env,
        stdout=log,
        stderr=log,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(
                f"gunicorn exited with {proc.returncode}; see bench/results/gunicorn.log"
            )
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


class Client:
    """One table: plays its own games move by move over one HTTP connection."""

    def __init__(self, n: int, port: int, token: str, seed: int) -> None:
        self.n = n
        self.until = 0.0
        self.conn = HTTPConnection(HOST, port, timeout=30)
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        self.rng = random.Random(seed)
        self.game: list[Any] | None = None  # [id, state, version]
        self.ready: list[tuple[str, dict[str, str]]] = []  # pre-made games (id, layout)
        self.games_made = 0
        self.reset()

    def reset(self) -> None:
        self.latencies: list[float] = []
        self.statuses: Counter[int] = Counter()
        self.setup_requests = 0
        self.errors: list[str] = []

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, bytes]:
        self.conn.request("POST", path, body=json.dumps(body), headers=self.headers)
        response = self.conn.getresponse()
        return response.status, response.read()

    def new_game(self) -> None:
        from games.rules.base import Move
        from games.rules.scarney_board.board import ALL_PAWNS, CIRCLES
        from games.rules.scarney_board.solitaire import SOLITAIRE, Ruleset

        if self.ready:
            game_id, layout = self.ready.pop()
            state = SOLITAIRE.apply(
                SOLITAIRE.initial_state({}, Ruleset(), 1),
                Move("board.laid_out", {"position": layout}),
            )
            self.game = [game_id, state, 2]
            return
        # Out of pre-made games: make one over HTTP (two set-up requests, not in the figures).
        status, body = self.post(
            "/api/v1/games/",
            {
                "kind": "scarney-solitaire",
                "seats": [{"name": f"http-{self.n}-{self.games_made % 10}"}],
            },
        )
        if status != 201:
            raise RuntimeError(f"game creation answered {status}: {body[:300]!r}")
        game_id = json.loads(body)["id"]
        pawns = list(ALL_PAWNS)
        self.rng.shuffle(pawns)
        layout = {f"C{c}": p for c, p in zip(CIRCLES, pawns, strict=True)}
        status, body = self.post(
            f"/api/v1/games/{game_id}/events/",
            {
                "id": str(uuid.uuid4()),
                "type": "board.laid_out",
                "data": {"position": layout},
                "expected_version": 1,
            },
        )
        if status != 201:
            raise RuntimeError(f"layout answered {status}: {body[:300]!r}")
        state = SOLITAIRE.apply(
            SOLITAIRE.initial_state({}, Ruleset(), 1), Move("board.laid_out", {"position": layout})
        )
        self.setup_requests += 2
        self.games_made += 1
        self.game = [game_id, state, 2]

    def play(self, until: float) -> None:
        from games.rules.base import Move
        from games.rules.scarney_board.solitaire import SOLITAIRE

        clock = time.perf_counter
        while clock() < until:
            if self.game is None:
                self.new_game()
                continue
            game_id, state, version = self.game
            move = self.rng.choice(SOLITAIRE.legal_events(state))
            body = {
                "id": str(uuid.uuid4()),
                "type": move.type,
                "data": dict(move.data),
                "expected_version": version,
            }
            t0 = clock()
            status, answer = self.post(f"/api/v1/games/{game_id}/events/", body)
            self.latencies.append(clock() - t0)
            self.statuses[status] += 1
            if status != 201:
                self.errors.append(f"{status}: {answer[:200]!r}")
                self.game = None  # abandon the game; a 409 or 422 means our view went stale
                continue
            state = SOLITAIRE.apply(state, Move(move.type, move.data))
            self.game = None if SOLITAIRE.is_terminal(state) else [game_id, state, version + 1]

    def run(self) -> None:
        try:
            self.play(self.until)
        except Exception as failure:  # noqa: BLE001
            self.errors.append(f"client {self.n} stopped: {failure!r}")


def run_load(clients: list[Client], seconds: float) -> dict[str, Any]:
    for c in clients:
        c.reset()
    started = time.perf_counter()
    for c in clients:
        c.until = started + seconds
    threads = [threading.Thread(target=c.run, daemon=True) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=seconds + 120)
    elapsed = time.perf_counter() - started
    latencies = [x for c in clients for x in c.latencies]
    statuses: Counter[int] = Counter()
    for c in clients:
        statuses.update(c.statuses)
    errors = [e for c in clients for e in c.errors]
    ok = statuses.get(201, 0)
    return {
        "seconds": elapsed,
        "requests": len(latencies),
        "ok": ok,
        "rps": len(latencies) / elapsed,
        "p50_ms": _common.percentile(latencies, 50) * 1000,
        "p90_ms": _common.percentile(latencies, 90) * 1000,
        "p99_ms": _common.percentile(latencies, 99) * 1000,
        "max_ms": max(latencies) * 1000 if latencies else float("nan"),
        "statuses": dict(statuses),
        "setup_requests": sum(c.setup_requests for c in clients),
        "errors": errors[:10],
        "error_count": len(errors),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    parser.add_argument(
        "--games",
        type=int,
        default=0,
        help="games made through the service before the load (default: enough for"
        " ~900 req/s; a client out of games makes more over HTTP)",
    )
    args = parser.parse_args()

    url = _common.setup_django()
    _common.RESULTS.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DEBUG": "0",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or "bench-" + uuid.uuid4().hex,
        "DJANGO_SETTINGS_MODULE": "scarney_site.settings",
        # One token sends every request (~900/s), far over a device's rate; still counted.
        "THROTTLE_TOKEN_RATE": os.environ.get("THROTTLE_TOKEN_RATE") or "10000000/m",
    }
    env.pop("REDIS_URL", None)
    token = issue_token(env)
    games = args.games or int(900 * (args.runs * args.seconds + args.warmup) / 9) + 4 * args.clients
    t0 = time.perf_counter()
    made = make_games(games)
    print(
        f"made {len(made)} laid-out games through the service in {time.perf_counter() - t0:.1f} s"
    )
    port = free_port()
    print(
        f"gunicorn -w {args.workers} on {HOST}:{port}, database {_common.dbname_of(url)}; "
        f"{args.clients} clients, {args.runs} x {args.seconds:g} s (+{args.warmup:g} s warm-up)"
    )
    proc = start_gunicorn(env, port, args.workers)
    runs = []
    try:
        clients = [Client(n, port, token, seed=n) for n in range(args.clients)]
        for i, game in enumerate(made):
            clients[i % len(clients)].ready.append(game)
        warm = run_load(clients, args.warmup)
        if warm["ok"] == 0:
            raise RuntimeError(f"warm-up recorded nothing: {warm['errors']}")
        for run in range(1, args.runs + 1):
            r = run_load(clients, args.seconds)
            runs.append(r)
            print(
                f"  run {run}: {r['rps']:6.0f} req/s  p50 {r['p50_ms']:6.1f} ms"
                f"  p90 {r['p90_ms']:6.1f} ms"
                f"  p99 {r['p99_ms']:6.1f} ms  max {r['max_ms']:6.1f} ms  statuses {r['statuses']}"
                f"  (+{r['setup_requests']} set-up requests)",
                flush=True,
            )
            for e in r["errors"][:3]:
                print(f"     error: {e}")
    finally:
        stop_gunicorn(proc)
        print("gunicorn stopped")

    summary = {
        "rps": _common.median(r["rps"] for r in runs),
        "p50_ms": _common.median(r["p50_ms"] for r in runs),
        "p99_ms": _common.median(r["p99_ms"] for r in runs),
        "max_ms": max(r["max_ms"] for r in runs),
        "error_count": sum(r["error_count"] for r in runs),
        "rps_spread": _common.spread([r["rps"] for r in runs]),
    }
    print()
    print(
        _common.table(
            ["clients", "req/s", "p50 ms", "p99 ms", "max ms", "errors", "spread"],
            [
                [
                    args.clients,
                    summary["rps"],
                    summary["p50_ms"],
                    summary["p99_ms"],
                    summary["max_ms"],
                    summary["error_count"],
                    f"{100 * summary['rps_spread']:.0f}%",
                ]
            ],
            title=f"POST /api/v1/games/{{id}}/events/ via gunicorn -w {args.workers},"
            f" medians of {len(runs)} runs",
        )
    )
    print()
    print(
        _common.table(
            ["figure", "value", "target", "verdict"],
            [
                [
                    f"p99 at {args.clients} clients (ms)",
                    summary["p99_ms"],
                    "< 50",
                    _common.verdict(summary["p99_ms"], 50.0, higher_is_better=False),
                ]
            ],
        )
    )
    path = _common.record(NAME, {"args": vars(args), "summary": summary, "runs": runs})
    print(f"\nappended to {path.relative_to(_common.ROOT)}")


if __name__ == "__main__":
    main()
