"""The pages' cost on the recording path: a move through the page beside the same move through
the API, and the recording path with 0 and with 100 room scoreboards open.

Against a live ``gunicorn`` (gunicorn.conf.py: 2 threaded processes) on the bench database
(PostgreSQL), started as bench/http.py starts it. The ``bench`` user (token and session) is made
a director so it may record everywhere.

(a) One client, one keep-alive connection, alternating the two ways of recording a Solitaire
    move (a random legal take-off or jump, tracked with the pure rules): ``POST /games/{id}/moves/``
    (the page's form fields, session cookie and CSRF token; answers the table partial) and
    ``POST /api/v1/games/{id}/events/`` (JSON, token; answers the game's JSON). Latency as the
    client sees it on loopback: the server's time plus a few tens of microseconds.
(b) The recording path at a fixed rate (``--rate`` moves/s over the API from 4 paced client
    threads, plus one "room" thread recording a move every 0.25 s in the games of a live
    duplicate-Solitaire tournament of 16 tables, so every scoreboard changes several times a
    second), measured once with no scoreboard open and once with ``--boards`` (100) pollers:
    threads in a separate process, each asking for the room's board every second with
    ``If-None-Match`` as scoreboard.js does. p50/p99 of the moves in each condition; the pollers'
    answers (200 vs 304) and their own latency.

(c) What open pages cost the server while nothing happens (``--only idle`` runs this alone):
    ``--pages`` (100) clients, each a table page's poll of its own game (``GET
    /games/{id}/table/`` with the keeper's session and ``If-None-Match``, every second, as
    static/games/live.js asks), then as many match pages (``GET /matches/{id}/``, the page's
    own URL), then as many room scoreboards (``GET .../scoreboard/board/``); no move is recorded
    meanwhile. Requests answered a second, their statuses and latency, and the server's CPU: the
    user and system seconds of gunicorn's processes (/proc) over the seconds measured.

Run: ``.venv/bin/python bench/pages.py [--moves 400] [--seconds 20] [--rate 100] [--boards 100]
[--pages 100] [--idle-seconds 20] [--only idle]``.
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
import os  # noqa: E402
import random  # noqa: E402
import subprocess  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
import uuid  # noqa: E402
from collections import Counter  # noqa: E402
from http.client import HTTPConnection  # noqa: E402
from typing import Any  # noqa: E402
from urllib.parse import urlencode  # noqa: E402

from bench import _common  # noqa: E402
from bench import http as bench_http  # noqa: E402

NAME = "pages"
HOST = bench_http.HOST
TABLES = 16
ROOM_EVERY_S = 0.25


class Mover:
    """Plays Solitaire games move by move; ``send`` posts one move and times it."""

    def __init__(self, port: int, headers: dict[str, str], games: list[Any], seed: int) -> None:
        self.conn = HTTPConnection(HOST, port, timeout=30)
        self.headers = headers
        self.games = games  # (id, layout) pairs, laid out and not yet moved
        self.rng = random.Random(seed)
        self.game: list[Any] | None = None
        self.latencies: list[float] = []
        self.statuses: Counter[int] = Counter()

    def next_move(self) -> tuple[str, Any, int]:
        from games.rules.base import Move
        from games.rules.scarney_board.solitaire import SOLITAIRE, Ruleset

        if self.game is None:
            game_id, layout = self.games.pop()
            start = SOLITAIRE.initial_state({}, Ruleset(), 1)
            self.game = [
                game_id,
                SOLITAIRE.apply(start, Move("board.laid_out", {"position": layout})),
                2,
            ]
        game_id, state, version = self.game
        return game_id, self.rng.choice(SOLITAIRE.legal_events(state)), version

    def advance(self, move: Any) -> None:
        from games.rules.scarney_board.solitaire import SOLITAIRE

        assert self.game is not None
        game_id, state, version = self.game
        state = SOLITAIRE.apply(state, move)
        self.game = None if SOLITAIRE.is_terminal(state) else [game_id, state, version + 1]

    def send(self, path: str, body: bytes, headers: dict[str, str]) -> int:
        t0 = time.perf_counter()
        self.conn.request("POST", path, body=body, headers={**self.headers, **headers})
        answer = self.conn.getresponse()
        body = answer.read()
        if answer.status >= 400 and not self.statuses.get(answer.status):
            print(f"  first {answer.status} on {path}: {body[:300]!r}", flush=True)
        self.latencies.append(time.perf_counter() - t0)
        self.statuses[answer.status] += 1
        return answer.status

    def api_move(self) -> None:
        game_id, move, version = self.next_move()
        body = {"id": str(uuid.uuid4()), "type": move.type, "data": dict(move.data)}
        body["expected_version"] = version
        status = self.send(
            f"/api/v1/games/{game_id}/events/",
            json.dumps(body).encode(),
            {"Content-Type": "application/json"},
        )
        self.after(status, move)

    def page_move(self) -> None:
        game_id, move, version = self.next_move()
        fields = {
            "id": str(uuid.uuid4()),
            "type": move.type,
            "payload": json.dumps(dict(move.data)),
            "expected_version": version,
        }
        status = self.send(
            f"/games/{game_id}/moves/",
            urlencode(fields).encode(),
            {"Content-Type": "application/x-www-form-urlencoded"},
        )
        self.after(status, move)

    def after(self, status: int, move: Any) -> None:
        if status == 201:
            self.advance(move)
        else:
            self.game = None  # a stale view of the game: drop it


def figures(latencies: list[float]) -> dict[str, float]:
    return {
        "n": len(latencies),
        "p50_ms": _common.percentile(latencies, 50) * 1000,
        "p99_ms": _common.percentile(latencies, 99) * 1000,
        "max_ms": max(latencies) * 1000 if latencies else float("nan"),
    }


# --- set-up, in this process, through the services ---------------------------------------------


def director() -> Any:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(username="bench")
    user.is_staff = True
    user.set_password(BENCH_PASSWORD)
    user.save(update_fields=["is_staff", "password"])
    return user


BENCH_PASSWORD = "bench-pages-" + uuid.uuid4().hex


def log_in(port: int) -> tuple[str, str]:
    """The session and CSRF cookies of the ``bench`` user, through the login page as a person
    gets them (the server's SECRET_KEY signs the session, not this process's)."""
    conn = HTTPConnection(HOST, port, timeout=30)
    conn.request("GET", "/accounts/login/")
    answer = conn.getresponse()
    answer.read()
    csrf = _cookie(answer, "csrftoken")
    form = urlencode({"username": "bench", "password": BENCH_PASSWORD, "csrfmiddlewaretoken": csrf})
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "Cookie": f"csrftoken={csrf}",
    }
    conn.request("POST", "/accounts/login/", body=form, headers=headers)
    answer = conn.getresponse()
    answer.read()
    return _cookie(answer, "sessionid"), _cookie(answer, "csrftoken") or csrf


def _cookie(answer: Any, name: str) -> str:
    for header, value in answer.getheaders():
        if header.lower() == "set-cookie" and value.startswith(name + "="):
            return str(value.split(";", 1)[0].split("=", 1)[1])
    return ""


def room(user: Any) -> tuple[str, list[str]]:
    """A running live duplicate-Solitaire tournament of TABLES tables, laid out; its matches."""
    from games.store.models import Tournament
    from games.tournaments import creating, entries, results, rounds

    spec = {
        "name": f"bench room {uuid.uuid4().hex[:6]}",
        "format": "scarney-solitaire",
        "system": "tables",
        "table_size": 1,
        "rounds": 1,
        "entry": "live",
    }
    made = creating.tournament_create(spec=spec, user=user)
    for n in range(TABLES):
        entries.entry_add(
            tournament_id=made.pk, spec={"name": f"room-{made.pk.hex[:4]}-{n}"}, user=user
        )
    rounds.round_pair(tournament_id=made.pk, tables=None, seed=1, user=user)
    layouts = [_layout(random.Random(i)) for i in range(5)]
    results.correction_record(
        tournament_id=made.pk,
        event_id=uuid.uuid4(),
        type="round.laid_out",
        data={"round": 1, "layouts": layouts},
        expected_version=None,
        user=user,
    )
    tournament = Tournament.objects.get(pk=made.pk)
    matches = [str(t.match_id) for t in tournament.tables.filter(round_number=1)]
    return str(made.pk), matches


def make_games(user: Any, count: int) -> list[tuple[str, dict[str, str]]]:
    """``count`` Solitaire games started and laid out through the services: (id, layout)."""
    from games.play import services

    rng = random.Random(7)
    games = []
    for _ in range(count):
        layout = _layout(rng)
        game = services.game_start(kind="scarney-solitaire", seats=[{"name": "bench"}], user=user)
        services.event_record(
            stream_id=game.pk,
            event_id=uuid.uuid4(),
            type="board.laid_out",
            data={"position": layout},
            user=user,
        )
        games.append((str(game.pk), layout))
    return games


def _layout(rng: random.Random) -> dict[str, str]:
    from games.rules.scarney_board.board import ALL_PAWNS, CIRCLES

    pawns = list(ALL_PAWNS)
    rng.shuffle(pawns)
    return {f"C{c}": p for c, p in zip(CIRCLES, pawns, strict=True)}


class RoomClient(threading.Thread):
    """The room: a move every ROOM_EVERY_S in the tournament's games, a new game of a match when
    one ends (POST /api/v1/games/ with its match), so every scoreboard keeps changing."""

    def __init__(self, port: int, token: str, matches: list[str]) -> None:
        super().__init__(daemon=True)
        self.conn = HTTPConnection(HOST, port, timeout=30)
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        self.matches = matches
        self.rng = random.Random(7)
        self.tables: dict[str, list[Any]] = {}
        self.until = 0.0
        self.moves = 0
        self.errors: list[str] = []

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, Any]:
        self.conn.request("POST", path, body=json.dumps(body), headers=self.headers)
        answer = self.conn.getresponse()
        return answer.status, json.loads(answer.read() or b"null")

    def step(self) -> None:
        from games.rules.base import Move
        from games.rules.scarney_board.solitaire import SOLITAIRE

        match = self.rng.choice(self.matches)
        if match not in self.tables:
            status, game = self.post(
                "/api/v1/games/", {"kind": "scarney-solitaire", "match": match}
            )
            if status != 201:
                self.matches.remove(match)  # the match has all its games
                return
            self.tables[match] = [game["id"], None, game["version"], game]
        game_id, state, version, shown = self.tables[match]
        if state is None:  # rebuild the state from the laid-out position the API shows
            state = _solitaire_at(shown)
        move = self.rng.choice(SOLITAIRE.legal_events(state))
        body = {"id": str(uuid.uuid4()), "type": move.type, "data": dict(move.data)}
        status, _ = self.post(
            f"/api/v1/games/{game_id}/events/", {**body, "expected_version": version}
        )
        if status != 201:
            self.errors.append(f"room move answered {status}")
            del self.tables[match]
            return
        self.moves += 1
        state = SOLITAIRE.apply(state, Move(move.type, move.data))
        if SOLITAIRE.is_terminal(state):
            del self.tables[match]
        else:
            self.tables[match] = [game_id, state, version + 1, shown]

    def run(self) -> None:
        while time.perf_counter() < self.until and self.matches:
            started = time.perf_counter()
            try:
                self.step()
            except Exception as failure:  # noqa: BLE001
                self.errors.append(repr(failure))
            time.sleep(max(0.0, ROOM_EVERY_S - (time.perf_counter() - started)))


def _solitaire_at(game: dict[str, Any]) -> Any:
    """The state of a game the API just started, folded from its stream (the round's layout)."""
    from games.store import folding
    from games.store.models import Stream

    return folding.load(Stream.objects.get(pk=game["id"])).state


# --- (b) the pollers, in a separate process ----------------------------------------------------


POLLER = r"""
import json, sys, threading, time
from http.client import HTTPConnection
host, paths = sys.argv[1], json.loads(sys.argv[3])
port, count, seconds = int(sys.argv[2]), int(sys.argv[4]), float(sys.argv[5])
cookie = sys.argv[6] if len(sys.argv) > 6 else ""
statuses, latencies, lock = {}, [], threading.Lock()
def poll(n):
    conn, tag = HTTPConnection(host, port, timeout=30), ""
    path = paths[n % len(paths)]
    headers = {"Cookie": cookie} if cookie else {}
    end = time.monotonic() + seconds
    time.sleep(n / count)  # screens opened at different moments
    while time.monotonic() < end:
        tick = time.monotonic()
        try:
            conn.request("GET", path, headers={**headers, "If-None-Match": tag})
            answer = conn.getresponse(); answer.read()
            tag = answer.getheader("ETag") or tag
            with lock:
                statuses[answer.status] = statuses.get(answer.status, 0) + 1
                latencies.append(time.monotonic() - tick)
        except OSError:
            conn = HTTPConnection(host, port, timeout=30)
            with lock:
                statuses["error"] = statuses.get("error", 0) + 1
        time.sleep(max(0.0, 1.0 - (time.monotonic() - tick)))  # scoreboard.js: every second
threads = [threading.Thread(target=poll, args=(n,)) for n in range(count)]
[t.start() for t in threads]; [t.join() for t in threads]
latencies.sort()
def pick(q):
    if not latencies:
        return None
    return latencies[min(len(latencies) - 1, int(q / 100 * len(latencies)))] * 1000
found = {"statuses": statuses, "polls": len(latencies)}
print(json.dumps({**found, "p50_ms": pick(50), "p99_ms": pick(99)}))
"""


def paced_load(movers: list[Mover], rate: float, seconds: float) -> dict[str, Any]:
    """Each mover sends rate/len(movers) API moves a second, on schedule, for ``seconds``."""
    for m in movers:
        m.latencies, m.statuses = [], Counter()
    every = len(movers) / rate
    end = time.perf_counter() + seconds

    def run(mover: Mover, offset: float) -> None:
        due = time.perf_counter() + offset
        while due < end:
            time.sleep(max(0.0, due - time.perf_counter()))
            try:
                mover.api_move()
            except IndexError:
                return  # out of games: the figures say how many moves were made
            due += every

    threads = [
        threading.Thread(target=run, args=(m, i * every / len(movers)), daemon=True)
        for i, m in enumerate(movers)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=seconds + 60)
    statuses: Counter[int] = Counter()
    for m in movers:
        statuses.update(m.statuses)
    return {**figures([x for m in movers for x in m.latencies]), "statuses": dict(statuses)}


def with_boards(
    port: int, board: str, boards: int, seconds: float, load: Any
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Run ``load()`` with ``boards`` pollers in a separate process (none when 0)."""
    if boards == 0:
        return load(), None
    pollers = subprocess.Popen(
        [
            sys.executable,
            "-c",
            POLLER,
            HOST,
            str(port),
            json.dumps([board]),
            str(boards),
            str(seconds + 3),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    time.sleep(2)  # every screen open and polling before the measurement starts
    try:
        result = load()
        out, _ = pollers.communicate(timeout=seconds + 60)
    finally:
        if pollers.poll() is None:
            pollers.kill()
    return result, json.loads(out.strip().splitlines()[-1])


# --- (c) idle open pages ------------------------------------------------------------------------


def server_cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of gunicorn's master ``pid`` and its workers, so far."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # a process gone meanwhile
        # after the name: state, ppid, ... utime and stime are the 12th and 13th
        if int(stat.parent.name) == pid or int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def idle_pollers(
    port: int, paths: list[str], count: int, seconds: float, pid: int, cookie: str = ""
) -> dict[str, Any]:
    """``count`` clients polling ``paths`` (one each, in turn) every second for ``seconds``,
    nothing recorded meanwhile: what they are answered and what the server spends on them."""
    pollers = subprocess.Popen(
        [
            sys.executable,
            "-c",
            POLLER,
            HOST,
            str(port),
            json.dumps(paths),
            str(count),
            str(seconds),
            cookie,
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    time.sleep(3)  # every page open, its first answer (a 200) given, before measuring
    cpu, started = server_cpu_seconds(pid), time.monotonic()
    time.sleep(seconds - 4)  # the measured span, inside the pollers' own
    cpu, spent = server_cpu_seconds(pid) - cpu, time.monotonic() - started
    out, _ = pollers.communicate(timeout=seconds + 60)
    found = json.loads(out.strip().splitlines()[-1])
    found["requests_per_s"] = found["polls"] / seconds
    found["server_cpu_percent"] = 100 * cpu / spent  # of one core
    return found


def idle(port: int, pid: int, user: Any, cookie: str, count: int, seconds: float) -> dict[str, Any]:
    from games.play import services

    games = [gid for gid, _layout in make_games(user, count)]
    matches = [
        str(
            services.match_start(
                format="high-low-scarney",
                players=[{"name": "Ann"}, {"name": "Bob"}],
                entry="sheet",
                user=user,
            ).pk
        )
        for _ in range(count)
    ]
    tournament, _matches = room(user)
    found = {
        "table pages": idle_pollers(
            port, [f"/games/{g}/table/" for g in games], count, seconds, pid, cookie
        ),
        "match pages": idle_pollers(
            port, [f"/matches/{m}/" for m in matches], count, seconds, pid, cookie
        ),
        "scoreboards": idle_pollers(
            port, [f"/tournaments/{tournament}/scoreboard/board/"], count, seconds, pid
        ),
    }
    for name, figures_of in found.items():
        print(f"(c) {count} idle {name}: {figures_of}", flush=True)
    return found


def print_idle(found: dict[str, Any], count: int, seconds: float) -> None:
    rows = [
        [
            name,
            f["requests_per_s"],
            json.dumps(f["statuses"]),
            f["p50_ms"],
            f["p99_ms"],
            f["server_cpu_percent"],
        ]
        for name, f in found.items()
    ]
    print(
        _common.table(
            ["open", "requests/s", "answers", "p50 ms", "p99 ms", "server CPU % of a core"],
            rows,
            title=f"(c) {count} idle open pages, each polling every second, {seconds:g} s",
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--moves", type=int, default=400, help="(a) moves each way")
    parser.add_argument("--seconds", type=float, default=20.0, help="(b) per condition")
    parser.add_argument("--rate", type=float, default=100.0, help="(b) API moves/s")
    parser.add_argument("--boards", type=int, default=100, help="(b) scoreboards open")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--pages", type=int, default=100, help="(c) idle pages open")
    parser.add_argument("--idle-seconds", type=float, default=20.0, help="(c) per kind of page")
    parser.add_argument("--only", choices=["all", "idle"], default="all")
    args = parser.parse_args()

    url = _common.setup_django()
    _common.RESULTS.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DEBUG": "0",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or "bench-" + uuid.uuid4().hex,
        "DJANGO_SETTINGS_MODULE": "scarney_site.settings",
        "THROTTLE_TOKEN_RATE": os.environ.get("THROTTLE_TOKEN_RATE") or "10000000/m",
    }
    env.pop("REDIS_URL", None)
    token = bench_http.issue_token(env)
    user = director()
    if args.only == "idle":
        return idle_only(env, args, user)
    tournament, matches = room(user)
    # A random Solitaire game lasts 6 to 12 moves: games enough at 5 moves each.
    needed = int(2 * args.moves / 5) + int(args.rate * (2 * args.seconds + 5) / 5) + 40
    games = make_games(user, needed)
    print(f"made {len(games)} laid-out games and a room of {len(matches)} tables")
    port = bench_http.free_port()
    proc = bench_http.start_gunicorn({**env, "WEB_CONCURRENCY": str(args.workers)}, port)
    try:
        auth = {"Authorization": f"Token {token}"}
        session, csrf = log_in(port)
        if not session:
            raise RuntimeError("the login page gave no session")
        page_headers = {"Cookie": f"sessionid={session}; csrftoken={csrf}", "X-CSRFToken": csrf}
        page = Mover(port, page_headers, games[: needed // 4], 1)
        api = Mover(port, auth, games[needed // 4 : needed // 2], 2)
        for _ in range(args.moves):
            page.page_move()
            api.api_move()
        one = {"page": figures(page.latencies), "api": figures(api.latencies)}
        one["page"]["statuses"] = dict(page.statuses)
        one["api"]["statuses"] = dict(api.statuses)
        print(f"(a) page {one['page']}\n    api  {one['api']}", flush=True)

        rest = games[needed // 2 :]
        movers = [Mover(port, auth, rest[i::4], 10 + i) for i in range(4)]
        board = f"/tournaments/{tournament}/scoreboard/board/"
        conditions = {}
        # One room for both conditions: its games go on from one to the next.
        room_client = RoomClient(port, token, list(matches))
        room_client.until = time.perf_counter() + 2 * args.seconds + 20
        room_client.start()
        for boards in (0, args.boards):
            before = room_client.moves
            moves, polled = with_boards(
                port,
                board,
                boards,
                args.seconds,
                lambda: paced_load(movers, args.rate, args.seconds),
            )
            conditions[boards] = {
                "moves": moves,
                "pollers": polled,
                "room_moves": room_client.moves - before,
            }
            print(f"(b) {boards} boards: {conditions[boards]}", flush=True)
        room_client.until = 0.0
        room_client.join(timeout=30)
        cookie = f"sessionid={session}"
        still = idle(port, proc.pid, user, cookie, args.pages, args.idle_seconds)
    finally:
        bench_http.stop_gunicorn(proc)
        print("gunicorn stopped")

    print()
    print(
        _common.table(
            ["way", "moves", "p50 ms", "p99 ms", "max ms"],
            [
                [name, f["n"], f["p50_ms"], f["p99_ms"], f["max_ms"]]
                for name, f in (
                    ("page POST /games/{id}/moves/", one["page"]),
                    ("API POST /api/v1/games/{id}/events/", one["api"]),
                )
            ],
            title="(a) one move, one client, alternating",
        )
    )
    print()
    rows = []
    for boards, c in conditions.items():
        p = c["pollers"] or {}
        rows.append(
            [
                boards,
                c["moves"]["n"],
                c["moves"]["p50_ms"],
                c["moves"]["p99_ms"],
                c["room_moves"],
                json.dumps(p.get("statuses", {})),
                p.get("p99_ms") or "-",
            ]
        )
    print(
        _common.table(
            ["boards", "moves", "p50 ms", "p99 ms", "room moves", "poll answers", "poll p99 ms"],
            rows,
            title=f"(b) API moves at {args.rate:g}/s for {args.seconds:g} s",
        )
    )
    print()
    print_idle(still, args.pages, args.idle_seconds)
    record = {"args": vars(args), "one_move": one, "boards": conditions, "idle": still}
    path = _common.record(NAME, record)
    print(f"\nappended to {path.relative_to(_common.ROOT)}")


def idle_only(env: dict[str, str], args: Any, user: Any) -> None:
    """(c) alone, against its own gunicorn."""
    port = bench_http.free_port()
    proc = bench_http.start_gunicorn({**env, "WEB_CONCURRENCY": str(args.workers)}, port)
    try:
        session, _csrf = log_in(port)
        found = idle(port, proc.pid, user, f"sessionid={session}", args.pages, args.idle_seconds)
    finally:
        bench_http.stop_gunicorn(proc)
    print()
    print_idle(found, args.pages, args.idle_seconds)
    path = _common.record(NAME, {"args": vars(args), "idle": found})
    print(f"\nappended to {path.relative_to(_common.ROOT)}")


if __name__ == "__main__":
    main()
