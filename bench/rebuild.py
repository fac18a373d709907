"""Rebuild of every read model from the events (as ``manage.py rebuild_projections``), and a peer.

Fill: the bench database gets ``--events`` events (default 1,000,000): random legal Scarney
Solitaire games generated with the pure rules (``games.rules.scarney_board.solitaire``: a shuffled
layout, a random low pawn taken off, random legal jumps until none is left; 1 game in 20 is left
unfinished). Random play ends early, so a game averages ~11.5 events (17 at most, for a game played
down to one pawn): 1,000,000 events are ~87,000 games. Rows are bulk-loaded with COPY into
games_player / games_stream / games_game / games_gameseat / games_event, as the service would write
them: data in the current schema version, meta ``{"recorded_by": null}``, a *real* hash chain
computed with ``games.store.journal.chain_hash`` (``--no-hash`` leaves it blank), and stream rows
with version, status, head hash and snapshot (``games.store.folding.pack``). Two generator processes
load in parallel. A database that already holds at least ``--events`` events is reused as it is
(other
benches add events to it; all of them are counted and rebuilt).

Timed: ``scoring.projections.rebuild_all``, as the management command runs it (one transaction,
the event table locked in SHARE mode, the games folded by ``--workers`` processes, default 2);
events/s = events in the store / total seconds, commit included. Also timed on their own, for
the breakdown: the replay alone (``scoring.replay.final_states('game')``, folding only, one
process) and the same with the workers (``map_final_states``, no writes).

Peer: the ``eventsourcing`` library (POSTGRES persistence, database scarney_bench_es): aggregates
of 200 events each (one Created + 199 "Moved"), read back with ``app.repository.get(id)``
(no cache, no snapshots), events/s. ``--peer-aggregates`` (default 5,000 = 1,000,000 events) are
stored once and reused; ``--peer-replay`` of them (default all) are replayed per run.

Run: ``.venv/bin/python bench/rebuild.py [--events 1000000] [--runs 3]``.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
if sys.path and Path(sys.path[0] or ".").resolve() == _HERE:
    sys.path.pop(0)  # bench/http.py must not shadow the standard library's http package
sys.path.insert(0, str(_HERE.parent))

import argparse  # noqa: E402
import datetime as dt  # noqa: E402
import multiprocessing as mp  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402
import uuid  # noqa: E402
from types import SimpleNamespace  # noqa: E402
from typing import Any  # noqa: E402

from bench import _common  # noqa: E402

NAME = "rebuild"
PEER_DB = "scarney_bench_es"
PEER_EVENTS_PER_AGGREGATE = 200
FILL_PLAYERS = 1000
GAMES_PER_CHUNK = 2000
EVENTS_PER_GAME = 11.3  # measured mean of generate_game: random play ends early (17 at most)


# --- fill -----------------------------------------------------------------------------------------


def generate_game(
    rng: random.Random, player: tuple[int, str], start: dt.datetime
) -> dict[str, Any]:
    """One random legal game as rows: the stream's events (type, schema, data), its final state."""
    from games.rules.base import Move, ruleset_as_dict
    from games.rules.scarney_board.board import ALL_PAWNS, CIRCLES
    from games.rules.scarney_board.solitaire import SOLITAIRE, Ruleset
    from games.store.event_types import current_version

    header = {
        "kind": "scarney-solitaire",
        "seats": [{"seat": 0, "player": player[0], "name": player[1]}],
        "ruleset": ruleset_as_dict(Ruleset()),
        "setup": {},
        "match": None,
        "number": None,
    }
    state = SOLITAIRE.initial_state({}, Ruleset(), 1)
    pawns = list(ALL_PAWNS)
    rng.shuffle(pawns)
    moves = [
        Move(
            "board.laid_out",
            {"position": {f"C{c}": p for c, p in zip(CIRCLES, pawns, strict=True)}},
        )
    ]
    unfinished = rng.random() < 0.05
    events = [("game.started", header)]
    while moves:
        move = moves.pop()
        state = SOLITAIRE.apply(state, move)
        events.append((move.type, dict(move.data)))
        legal = SOLITAIRE.legal_events(state)
        if legal and not (unfinished and rng.random() < 0.2):
            moves.append(rng.choice(legal))
    rows = []
    at = start
    for version, (type_, data) in enumerate(events, 1):
        rows.append(
            (uuid.uuid4(), version, type_, current_version(type_), data, {"recorded_by": None}, at)
        )
        at += dt.timedelta(milliseconds=rng.randrange(500, 20000))
    return {
        "header": header,
        "state": state,
        "events": rows,
        "finished": SOLITAIRE.is_terminal(state),
    }


def fill_chunk(args: tuple[int, int, list[tuple[int, str]], str, bool]) -> tuple[int, int]:
    """Generate ``count`` games and COPY them in one transaction; (games, events) written."""
    seed, count, players, url, hashes = args
    import django

    django.setup()
    import psycopg
    from psycopg.types.json import Jsonb

    from games.store.folding import Folded, pack
    from games.store.journal import chain_hash

    rng = random.Random(seed)
    base = dt.datetime(2024, 1, 1, tzinfo=dt.UTC) + dt.timedelta(minutes=seed)
    games = [
        generate_game(rng, rng.choice(players), base + dt.timedelta(seconds=37 * i))
        for i in range(count)
    ]
    written = 0
    with psycopg.connect(_common.conninfo(url)) as conn, conn.cursor() as cur:
        streams, seats, events = [], [], []
        for game in games:
            stream_id = uuid.uuid4()
            head = ""
            for event_id, version, type_, schema, data, meta, at in game["events"]:
                if hashes:
                    head = chain_hash(
                        head,
                        SimpleNamespace(
                            stream_id=stream_id,
                            version=version,
                            id=event_id,
                            type=type_,
                            schema_version=schema,
                            data=data,
                            meta=meta,
                            recorded_at=at,
                        ),
                    )
                events.append(
                    (
                        event_id,
                        stream_id,
                        version,
                        type_,
                        schema,
                        Jsonb(data),
                        Jsonb(meta),
                        at,
                        head,
                    )
                )
            version = len(game["events"])
            folded = Folded("game", game["header"], game["state"], version)
            created = game["events"][0][6]
            streams.append(
                (
                    stream_id,
                    "game",
                    "scarney-solitaire",
                    version,
                    "finished" if game["finished"] else "in_progress",
                    pack(folded, stream_id),
                    version,
                    head,
                    True,
                    created,
                )
            )
            seats.append((0, game["header"]["seats"][0]["player"], stream_id))
            written += version
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
            for row in seats:
                copy.write_row(row)
        with cur.copy(
            "COPY games_event (id, stream_id, version, type, schema_version, data, meta,"
            " recorded_at, hash) FROM STDIN"
        ) as copy:
            for row in events:
                copy.write_row(row)
        conn.commit()
    return count, written


def count_events() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM games_event")
        return cursor.fetchone()[0]


def fill(url: str, target: int, hashes: bool) -> dict[str, Any]:
    from django.db import connection

    have = count_events()
    if have >= target:
        print(f"reusing the bench database: {have:,} events already (target {target:,})")
        return {"filled": 0, "seconds": 0.0, "had": have}
    missing = target - have
    games_needed = max(1, round(missing / EVENTS_PER_GAME))
    print(
        f"filling: {have:,} events present, adding ~{missing:,}"
        f" (~{games_needed:,} games) with COPY ...",
        flush=True,
    )
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO games_player (name, created_at)"
            " SELECT 'fill-p' || g, now() FROM generate_series(1, %s) g RETURNING id, name",
            [FILL_PLAYERS],
        )
        players = [tuple(row) for row in cursor.fetchall()]
    _common.close_django_connections()
    started = time.perf_counter()
    added = 0
    seed = int(time.time())
    ctx = mp.get_context("fork")
    with ctx.Pool(2) as pool:
        while added < missing:
            games_left = max(1, round((missing - added) / EVENTS_PER_GAME))
            sizes = [GAMES_PER_CHUNK] * (games_left // GAMES_PER_CHUNK)
            if games_left % GAMES_PER_CHUNK:
                sizes.append(games_left % GAMES_PER_CHUNK)
            jobs = [(seed + i, size, players, url, hashes) for i, size in enumerate(sizes)]
            seed += len(jobs)
            for _games, events in pool.imap_unordered(fill_chunk, jobs):
                added += events
                print(
                    f"  {have + added:,} events ({time.perf_counter() - started:.0f} s)",
                    end="\r",
                    flush=True,
                )
    seconds = time.perf_counter() - started
    print(
        f"\nfilled {added:,} events in {seconds:.0f} s"
        f" ({added / seconds:,.0f} events/s); ANALYZE ..."
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return {"filled": added, "seconds": seconds, "had": have}


# --- timed rebuild ----------------------------------------------------------------------------


def time_rebuild(workers: int) -> dict[str, Any]:
    """Every read model rebuilt as manage.py rebuild_projections does (projections.rebuild_all)."""
    from scoring import projections

    seen = [0]

    def progress(n: int) -> None:
        seen[0] += n

    per_module: dict[str, float] = {}
    rows: dict[str, int] = {}
    started = time.perf_counter()
    last = [started]

    def report(name: str, count: int) -> None:
        now = time.perf_counter()
        per_module[name], rows[name], last[0] = now - last[0], count, now

    projections.rebuild_all(progress=progress, report=report, workers=workers)
    total = time.perf_counter() - started
    per_module["commit"] = total - (last[0] - started)
    return {"seconds": total, "per_module": per_module, "rows": rows, "events_replayed": seen[0]}


def time_replay_only() -> dict[str, Any]:
    """The read and fold alone (scoring.replay.final_states of the games), no writes."""
    from scoring.replay import final_states

    seen = [0]
    t0 = time.perf_counter()
    streams = sum(1 for _ in final_states("game", lambda n: seen.__setitem__(0, seen[0] + n)))
    return {"seconds": time.perf_counter() - t0, "events": seen[0], "streams": streams}


def time_replay_workers(workers: int) -> dict[str, Any]:
    """The read and fold alone in ``workers`` processes (scoring.replay.map_final_states)."""
    from scoring.replay import map_final_states

    seen = [0]
    t0 = time.perf_counter()
    streams = sum(
        1
        for _ in map_final_states(
            "game", _nothing, lambda n: seen.__setitem__(0, seen[0] + n), workers
        )
    )
    return {"seconds": time.perf_counter() - t0, "events": seen[0], "streams": streams}


def _nothing(replayed: Any) -> None:
    return None


# --- peer ---------------------------------------------------------------------------------------


def peer_env() -> dict[str, str]:
    from urllib.parse import urlparse

    parts = urlparse(os.environ["DATABASE_URL"])
    return {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": PEER_DB,
        "POSTGRES_HOST": parts.hostname or "127.0.0.1",
        "POSTGRES_PORT": str(parts.port or 5432),
        "POSTGRES_USER": parts.username or "postgres",
        "POSTGRES_PASSWORD": parts.password or "",
    }


def peer_app() -> Any:
    app_class, _ = _common.peer_classes()
    return app_class(env=peer_env())


def peer_ids(app: Any) -> list[uuid.UUID]:
    with app.recorder.datastore.get_connection() as conn, conn.cursor() as cur:
        cur.execute(
            f"SELECT originator_id FROM {app.recorder.events_table_name}"
            " WHERE originator_version = 1 ORDER BY notification_id"
        )
        return [row["originator_id"] for row in cur.fetchall()]


def peer_fill(app: Any, aggregates: int) -> list[uuid.UUID]:
    from eventsourcing.utils import get_topic

    table = app.recorder.events_table_name
    with app.recorder.datastore.get_connection() as conn, conn.cursor() as cur:
        cur.execute(f"SELECT topic FROM {table} LIMIT 1")
        row = cur.fetchone()
        if row is not None and row["topic"] != get_topic(_common.peer_classes()[1].Created):
            print(f"peer: stored topics ({row['topic']}) are not this script's: emptying {table}")
            cur.execute(f"TRUNCATE {table}")
            conn.commit()
    ids = peer_ids(app)
    if len(ids) >= aggregates:
        print(f"peer: reusing {len(ids):,} stored aggregates of {PEER_EVENTS_PER_AGGREGATE} events")
        return ids[:aggregates]
    rng = random.Random(7)
    started = time.perf_counter()
    for n in range(aggregates - len(ids)):
        aggregate = _common.peer_classes()[1]()
        for _ in range(PEER_EVENTS_PER_AGGREGATE - 1):
            aggregate.move(rng.randrange(1, 17), rng.randrange(1, 17))
        app.save(aggregate)
        if n % 100 == 0:
            print(
                f"  peer fill: {n:,} aggregates ({time.perf_counter() - started:.0f} s)",
                end="\r",
                flush=True,
            )
    print(
        f"\npeer: stored {aggregates - len(ids):,} aggregates"
        f" in {time.perf_counter() - started:.0f} s"
    )
    return peer_ids(app)[:aggregates]


def peer_replay(app: Any, ids: list[uuid.UUID]) -> dict[str, Any]:
    events = 0
    t0 = time.perf_counter()
    for aggregate_id in ids:
        aggregate = app.repository.get(aggregate_id)
        events += aggregate.version
    seconds = time.perf_counter() - t0
    return {"seconds": seconds, "events": events, "aggregates": len(ids), "rate": events / seconds}


# --- main ---------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--events", type=int, default=1_000_000, help="events in the bench store")
    parser.add_argument("--runs", type=int, default=3, help="timed rebuilds (median reported)")
    parser.add_argument("--no-hash", action="store_true", help="fill with blank hashes (faster)")
    parser.add_argument("--peer-aggregates", type=int, default=5000, help="peer aggregates stored")
    parser.add_argument(
        "--peer-replay", type=int, default=0, help="peer aggregates replayed per run (0: all)"
    )
    parser.add_argument("--skip-peer", action="store_true")
    parser.add_argument(
        "--workers", type=int, default=2, help="processes folding the games (as the command)"
    )
    args = parser.parse_args()

    url = _common.setup_django()
    filled = fill(url, args.events, hashes=not args.no_hash)
    events = count_events()
    print(f"store: {events:,} events")

    runs = []
    for run in range(1, args.runs + 1):
        result = time_rebuild(args.workers)
        result["rate"] = events / result["seconds"]
        replay = time_replay_only()
        result["replay_only"] = replay
        workers = time_replay_workers(args.workers)
        result["replay_workers"] = workers
        runs.append(result)
        mods = ", ".join(f"{k} {v:.1f} s" for k, v in result["per_module"].items())
        print(
            f"  run {run}: rebuild {result['seconds']:.1f} s"
            f" = {result['rate']:,.0f} events/s ({mods});"
            f" replay alone {replay['seconds']:.1f} s"
            f" = {replay['events'] / replay['seconds']:,.0f} events/s,"
            f" with {args.workers} workers {workers['seconds']:.1f} s"
            f" = {workers['events'] / workers['seconds']:,.0f} events/s",
            flush=True,
        )

    peer_runs: list[dict[str, Any]] = []
    if not args.skip_peer:
        _common.ensure_database(_common.with_dbname(url, PEER_DB))
        app = peer_app()
        ids = peer_fill(app, args.peer_aggregates)
        replay_ids = ids[: args.peer_replay] if args.peer_replay else ids
        for run in range(1, args.runs + 1):
            r = peer_replay(app, replay_ids)
            peer_runs.append(r)
            print(
                f"  peer run {run}: {r['events']:,} events in {r['aggregates']:,} aggregates,"
                f" {r['seconds']:.1f} s = {r['rate']:,.0f} events/s",
                flush=True,
            )
        app.close()

    rate = _common.median(r["rate"] for r in runs)
    replay_rate = _common.median(
        r["replay_only"]["events"] / r["replay_only"]["seconds"] for r in runs
    )
    workers_rate = _common.median(
        r["replay_workers"]["events"] / r["replay_workers"]["seconds"] for r in runs
    )
    rows = [
        [
            "rebuild_projections (all modules)",
            events,
            _common.median(r["seconds"] for r in runs),
            rate,
            f"{100 * _common.spread([r['rate'] for r in runs]):.0f}%",
        ],
    ]
    for name in runs[0]["per_module"]:
        rows.append([f"  {name}", "", _common.median(r["per_module"][name] for r in runs), "", ""])
    rows.append(
        [
            "replay alone (final_states, no writes)",
            runs[0]["replay_only"]["events"],
            _common.median(r["replay_only"]["seconds"] for r in runs),
            replay_rate,
            "",
        ]
    )
    rows.append(
        [
            f"replay alone, {args.workers} workers (map_final_states)",
            runs[0]["replay_workers"]["events"],
            _common.median(r["replay_workers"]["seconds"] for r in runs),
            workers_rate,
            "",
        ]
    )
    summary: dict[str, Any] = {
        "events": events,
        "rebuild_rate": rate,
        "replay_only_rate": replay_rate,
        "replay_workers_rate": workers_rate,
        "rebuild_seconds": _common.median(r["seconds"] for r in runs),
    }
    if peer_runs:
        peer_rate = _common.median(r["rate"] for r in peer_runs)
        rows.append(
            [
                f"peer: eventsourcing repository.get x{peer_runs[0]['aggregates']:,}",
                peer_runs[0]["events"],
                _common.median(r["seconds"] for r in peer_runs),
                peer_rate,
                f"{100 * _common.spread([r['rate'] for r in peer_runs]):.0f}%",
            ]
        )
        summary["peer_rate"] = peer_rate
        summary["ratio"] = rate / peer_rate
        summary["replay_ratio"] = replay_rate / peer_rate
    print()
    print(
        _common.table(
            ["what", "events", "seconds", "events/s", "spread"],
            rows,
            title=f"Rebuild on PostgreSQL, medians of {args.runs} runs",
        )
    )
    print()
    verdicts = [["rebuild events/s", rate, ">= 50,000", _common.verdict(rate, 50_000)]]
    if peer_runs:
        verdicts.append(
            [
                "rebuild / peer replay",
                summary["ratio"],
                ">= 2",
                _common.verdict(summary["ratio"], 2),
            ]
        )
        verdicts.append(["replay alone / peer replay", summary["replay_ratio"], "-", "-"])
    print(_common.table(["figure", "value", "target", "verdict"], verdicts))
    path = _common.record(
        NAME,
        {
            "args": vars(args),
            "fill": filled,
            "summary": summary,
            "runs": runs,
            "peer_runs": peer_runs,
            "hashes": "blank" if args.no_hash else "chain_hash",
        },
    )
    print(f"\nappended to {path.relative_to(_common.ROOT)}")


if __name__ == "__main__":
    main()
