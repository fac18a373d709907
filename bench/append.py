"""Append throughput and latency on PostgreSQL: the service, the raw ceiling, and a peer library.

Three kinds of writer, each run with 1 and with 8 concurrent writer *processes* (no shared GIL):

* service  Solitaire moves through ``games.play.services.event_record`` (lock the stream row, check
           ``expected_version``, fold through the rules, insert with the hash chain, snapshot,
           inline projections, one transaction each). Before the clock starts, ``--games`` games
           are started with ``game_start`` and laid out (``board.laid_out``); the writers then
           append take-offs and jumps chosen at random from ``legal_events``, picking a random
           live game of their share for every append, until the time window closes.
* statement  the service's one append statement alone (games.store.journal.append_unlocked with the
game
           summary's clause, as the fast path writes it) on laid-out Solitaire games, with no rules,
           no fold and no service around it: the floor under ``service`` that any Python on top
           of this statement adds to.
* raw      the ceiling: psycopg single-row INSERTs (autocommit: one INSERT = one transaction)
           into an equivalent table ``bench_raw_event`` (bigserial position, uuid id unique,
           stream uuid, version int, type, jsonb data/meta, timestamptz, hash,
           unique(stream, version)) in the bench database.
* peer     the ``eventsourcing`` library (POSTGRES persistence, its default application
           recorder) in its own database: an ``Aggregate`` per game, one event per
           ``Application.save``; every writer keeps its aggregates in memory (the library's fastest
           path: no repository read per append).

Every measurement is run ``--runs`` times (default 3); the table gives medians.
Run: ``.venv/bin/python bench/append.py [--games 1000] [--seconds 10] [--runs 3]``.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
if sys.path and Path(sys.path[0] or ".").resolve() == _HERE:
    sys.path.pop(0)  # bench/http.py must not shadow the standard library's http package
sys.path.insert(0, str(_HERE.parent))

import argparse  # noqa: E402
import hashlib  # noqa: E402
import multiprocessing as mp  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402
import uuid  # noqa: E402
from typing import Any  # noqa: E402

from bench import _common  # noqa: E402

NAME = "append"
KINDS = ("service", "statement", "raw", "peer")
PEER_DB = "scarney_bench_es"

RAW_DDL = """
CREATE TABLE IF NOT EXISTS bench_raw_event (
    position bigserial PRIMARY KEY,
    id uuid NOT NULL UNIQUE,
    stream uuid NOT NULL,
    version integer NOT NULL,
    type text NOT NULL,
    data jsonb NOT NULL,
    meta jsonb NOT NULL,
    recorded_at timestamptz NOT NULL,
    hash text NOT NULL,
    UNIQUE (stream, version)
)
"""
RAW_INSERT = (
    "INSERT INTO bench_raw_event (id, stream, version, type, data, meta, recorded_at, hash)"
    " VALUES (%s, %s, %s, %s, %s, %s, now(), %s)"
)


# --- the three writers: each sets up, waits at the barrier, appends until its deadline ----------


def _laid_out_games(share: list[int], rng: random.Random, tag: str) -> list[Any]:
    """A Solitaire game started and laid out for each of ``share``: the lay-outs recorded."""
    from games.play import services
    from games.rules.scarney_board.board import ALL_PAWNS, CIRCLES

    recorded = []
    for i in share:
        game = services.game_start(
            kind="scarney-solitaire", seats=[{"name": f"bench-{tag}-p{i % 100}"}]
        )
        pawns = list(ALL_PAWNS)
        rng.shuffle(pawns)
        layout = {f"C{c}": p for c, p in zip(CIRCLES, pawns, strict=True)}
        recorded.append(
            services.event_record(
                stream_id=game.pk,
                event_id=uuid.uuid4(),
                type="board.laid_out",
                data={"position": layout},
                expected_version=1,
            )
        )
    return recorded


def service_writer(
    share: list[int], seconds: float, barrier: Any, seed: int, tag: str
) -> dict[str, Any]:
    """Start and lay out this writer's games, then append legal moves through the service."""
    from games.play import services
    from games.rules.scarney_board.solitaire import SOLITAIRE

    rng = random.Random(seed)
    live: list[list[Any]] = []  # [stream id, state, version]
    for done in _laid_out_games(share, rng, tag):
        live.append([done.event.stream_id, done.folded.state, done.folded.version])

    barrier.wait()
    latencies: list[float] = []
    finished = 0
    started = time.perf_counter()
    deadline = started + seconds
    clock = time.perf_counter
    while live and clock() < deadline:
        k = rng.randrange(len(live))
        game = live[k]
        move = rng.choice(SOLITAIRE.legal_events(game[1]))
        t0 = clock()
        done = services.event_record(
            stream_id=game[0],
            event_id=uuid.uuid4(),
            type=move.type,
            data=dict(move.data),
            expected_version=game[2],
        )
        latencies.append(clock() - t0)
        game[1], game[2] = done.folded.state, done.folded.version
        if SOLITAIRE.is_terminal(game[1]):
            finished += 1
            live[k] = live[-1]
            live.pop()
    return {"elapsed": clock() - started, "latencies": latencies, "finished": finished}


def statement_writer(
    share: list[int], seconds: float, barrier: Any, seed: int, tag: str
) -> dict[str, Any]:
    """The fast path's statement alone: each game's laid-out state folded once, then events
    appended onto its head with that state's summary clause; no rules, no service."""
    from games.store import journal, reactions
    from games.store.models import Stream

    rng = random.Random(seed)
    live: list[list[Any]] = []  # [stream id, version, head hash, folded]
    for started in _laid_out_games(share, rng, tag):
        stream = Stream.objects.get(pk=started.event.stream_id)
        live.append([stream.pk, stream.version, stream.head_hash, started.folded])
    projections = reactions.current()

    def append() -> None:
        game = live[rng.randrange(len(live))]
        event = journal.Draft(
            stream_id=game[0],
            version=game[1] + 1,
            event_id=uuid.uuid4(),
            type="pawn.taken_off",
            data={"circle": rng.randrange(1, 17)},
            meta={"recorded_by": None},
        )
        more = projections.append_clauses(game[3], "in_progress", event.recorded_at, game[3])
        written = journal.append_unlocked(
            event, previous_hash=game[2], status="in_progress", snapshot=None, more=more
        )
        if not isinstance(written, int):
            raise RuntimeError(f"the statement wrote nothing: {written}")
        game[1], game[2] = event.version, event.hash

    barrier.wait()
    return _timed(append, seconds)


def _timed(append: Any, seconds: float) -> dict[str, Any]:
    """``append()`` again and again for ``seconds``, each call timed."""
    latencies: list[float] = []
    clock = time.perf_counter
    started = clock()
    deadline = started + seconds
    while clock() < deadline:
        t0 = clock()
        append()
        latencies.append(clock() - t0)
    return {"elapsed": clock() - started, "latencies": latencies, "finished": 0}


def raw_writer(
    share: list[int], seconds: float, barrier: Any, seed: int, tag: str
) -> dict[str, Any]:
    """One INSERT per transaction into bench_raw_event; versions kept per stream in memory."""
    import psycopg
    from psycopg.types.json import Jsonb

    rng = random.Random(seed)
    streams = [[uuid.uuid4(), 0] for _ in share]
    meta = Jsonb({"recorded_by": None})
    with psycopg.connect(_common.conninfo(os.environ["DATABASE_URL"]), autocommit=True) as conn:
        barrier.wait()
        latencies: list[float] = []
        clock = time.perf_counter
        started = clock()
        deadline = started + seconds
        previous = ""
        while clock() < deadline:
            stream = streams[rng.randrange(len(streams))]
            stream[1] += 1
            frm, to = rng.randrange(1, 17), rng.randrange(1, 17)
            event_id = uuid.uuid4()
            previous = hashlib.sha256(f"{previous}{event_id}{frm}{to}".encode()).hexdigest()
            t0 = clock()
            conn.execute(
                RAW_INSERT,
                (
                    event_id,
                    stream[0],
                    stream[1],
                    "pawn.jumped",
                    Jsonb({"from": frm, "to": to}),
                    meta,
                    previous,
                ),
            )
            latencies.append(clock() - t0)
    return {"elapsed": clock() - started, "latencies": latencies, "finished": 0}


def peer_env() -> dict[str, str]:
    url = os.environ["DATABASE_URL"]
    from urllib.parse import urlparse

    parts = urlparse(url)
    return {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": PEER_DB,
        "POSTGRES_HOST": parts.hostname or "127.0.0.1",
        "POSTGRES_PORT": str(parts.port or 5432),
        "POSTGRES_USER": parts.username or "postgres",
        "POSTGRES_PASSWORD": parts.password or "",
    }


def peer_writer(
    share: list[int], seconds: float, barrier: Any, seed: int, tag: str
) -> dict[str, Any]:
    """eventsourcing: one aggregate per game, one event per Application.save."""
    app_class, aggregate_class = _common.peer_classes()
    app = app_class(env={**peer_env(), "CREATE_TABLE": "no"})  # prepare_peer made it
    rng = random.Random(seed)
    aggregates = [aggregate_class() for _ in share]
    for start in range(0, len(aggregates), 200):
        app.save(*aggregates[start : start + 200])

    def append() -> None:
        aggregate = aggregates[rng.randrange(len(aggregates))]
        aggregate.move(rng.randrange(1, 17), rng.randrange(1, 17))
        app.save(aggregate)

    barrier.wait()
    result = _timed(append, seconds)
    app.close()
    return result


WRITERS = {
    "service": service_writer,
    "statement": statement_writer,
    "raw": raw_writer,
    "peer": peer_writer,
}


def _child(
    kind: str, share: list[int], seconds: float, barrier: Any, seed: int, tag: str, out: Any
) -> None:
    try:
        out.put(("ok", WRITERS[kind](share, seconds, barrier, seed, tag)))
    except BaseException:
        barrier.abort()
        out.put(("error", traceback.format_exc()))


def measure(kind: str, writers: int, games: int, seconds: float, run: int) -> dict[str, Any]:
    """One measurement: ``writers`` processes sharing ``games`` games/streams for ``seconds``."""
    _common.close_django_connections()
    ctx = mp.get_context("fork")
    barrier = ctx.Barrier(writers + 1)
    out = ctx.Queue()
    tag = f"{int(time.time())}-{kind}{writers}-r{run}"
    shares = [list(range(w, games, writers)) for w in range(writers)]
    procs = [
        ctx.Process(
            target=_child,
            args=(kind, shares[w], seconds, barrier, 1000 * run + 17 * w + writers, tag, out),
        )
        for w in range(writers)
    ]
    setup = time.perf_counter()
    for p in procs:
        p.start()
    try:
        barrier.wait(timeout=600)
    except Exception:
        pass
    setup = time.perf_counter() - setup
    results, errors = [], []
    for _ in procs:
        status, value = out.get(timeout=seconds + 600)
        (results if status == "ok" else errors).append(value)
    if errors:
        for p in procs:
            p.kill()
        first = [e for e in errors if "BrokenBarrierError" not in e] or errors
        raise RuntimeError(f"{kind} writer failed:\n{first[0]}")
    for p in procs:
        p.join()
    latencies = [x for r in results for x in r["latencies"]]
    elapsed = max(r["elapsed"] for r in results)
    return {
        "kind": kind,
        "writers": writers,
        "run": run,
        "events": len(latencies),
        "seconds": elapsed,
        "rate": len(latencies) / elapsed if elapsed else 0.0,
        "p50_ms": _common.percentile(latencies, 50) * 1000,
        "p99_ms": _common.percentile(latencies, 99) * 1000,
        "games_finished": sum(r["finished"] for r in results),
        "loadavg_1m": os.getloadavg()[0],
        "setup_s": setup,
    }


def prepare_raw() -> None:
    import psycopg

    with psycopg.connect(_common.conninfo(os.environ["DATABASE_URL"]), autocommit=True) as conn:
        conn.execute(RAW_DDL)
        conn.execute("TRUNCATE bench_raw_event RESTART IDENTITY")


def prepare_peer() -> None:
    _common.ensure_database(_common.with_dbname(os.environ["DATABASE_URL"], PEER_DB))
    app_class, _ = _common.peer_classes()
    app_class(env=peer_env()).close()  # creates the table once, before the writers race for it


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=1000, help="games (streams) per measurement")
    parser.add_argument("--seconds", type=float, default=10.0, help="time window per measurement")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--writers", default="1,8", help="comma-separated writer counts")
    parser.add_argument("--kinds", default=",".join(KINDS), help="subset of service,raw,peer")
    args = parser.parse_args()
    writer_counts = [int(w) for w in args.writers.split(",")]
    kinds = [k for k in args.kinds.split(",") if k]

    url = _common.setup_django()
    print(
        f"database {_common.dbname_of(url)}; {args.games} games; "
        f"{args.seconds:g} s per measurement; "
        f"{args.runs} runs; writers {writer_counts}; kinds {kinds}"
    )
    if "raw" in kinds:
        prepare_raw()
    if "peer" in kinds:
        prepare_peer()

    measurements = []
    for run in range(1, args.runs + 1):
        for kind in kinds:
            for writers in writer_counts:
                m = measure(kind, writers, args.games, args.seconds, run)
                measurements.append(m)
                print(
                    f"  run {run} {kind:7s} x{writers}: {m['rate']:8.0f} ev/s"
                    f"  p50 {m['p50_ms']:6.2f} ms"
                    f"  p99 {m['p99_ms']:6.2f} ms"
                    f"  ({m['events']} events, setup {m['setup_s']:.1f} s)",
                    flush=True,
                )

    summary: dict[str, dict[str, Any]] = {}
    rows = []
    for kind in kinds:
        for writers in writer_counts:
            ms = [m for m in measurements if m["kind"] == kind and m["writers"] == writers]
            rates = [m["rate"] for m in ms]
            key = f"{kind}_{writers}"
            summary[key] = {
                "rate": _common.median(rates),
                "p50_ms": _common.median(m["p50_ms"] for m in ms),
                "p99_ms": _common.median(m["p99_ms"] for m in ms),
                "rate_spread": _common.spread(rates),
                "runs": len(ms),
            }
            s = summary[key]
            rows.append(
                [
                    kind,
                    writers,
                    s["rate"],
                    s["p50_ms"],
                    s["p99_ms"],
                    f"{100 * s['rate_spread']:.0f}%",
                ]
            )
    print()
    print(
        _common.table(
            ["writer", "procs", "events/s", "p50 ms", "p99 ms", "spread"],
            rows,
            title=f"Appends on PostgreSQL, medians of {args.runs} runs"
            " (spread = (max-min)/median of events/s)",
        )
    )

    ratios: dict[str, float] = {}
    # Issue 14's targets for one writer; statement/raw and statement/peer bound what any service
    # on top of the one statement can reach, service/statement is what the service adds to it.
    targets = {"service/raw_1": 0.5, "service/peer_1": 2.0, "service/peer_8": 2.0}
    pairs = [("service", "raw"), ("service", "peer"), ("statement", "raw"), ("statement", "peer")]
    for a, b in [*pairs, ("service", "statement")]:
        for writers in writer_counts:
            if f"{a}_{writers}" in summary and f"{b}_{writers}" in summary:
                ratios[f"{a}/{b}_{writers}"] = (
                    summary[f"{a}_{writers}"]["rate"] / summary[f"{b}_{writers}"]["rate"]
                )
    if ratios:
        print()
        print(
            _common.table(
                ["ratio (events/s)", "value", "target", "verdict"],
                [
                    [
                        k.replace("_", ", writers "),
                        v,
                        f">= {targets[k]:g}" if k in targets else "-",
                        _common.verdict(v, targets[k]) if k in targets else "-",
                    ]
                    for k, v in ratios.items()
                ],
            )
        )
    path = _common.record(
        NAME,
        {
            "args": vars(args),
            "summary": summary,
            "ratios": ratios,
            "targets": targets,
            "measurements": measurements,
        },
    )
    print(f"\nappended to {path.relative_to(_common.ROOT)}")


if __name__ == "__main__":
    main()
