"""Every stream's final state, folded from the events alone (used by the projections' rebuild).

Reads the event table in stream order through a server-side cursor, so memory stays flat however
many events there are. Rows stay plain tuples (no StoredEvent per event) and only the first and
last event of a stream bring their ``recorded_at``, the one column a summary takes from them.

On PostgreSQL the streams can be split among worker processes by ranges of stream id: each
worker reads and folds its share through its own connection and sends compact rows back to the
calling process, which does all the writing in its one transaction.
"""

from __future__ import annotations

import itertools
import json
import multiprocessing
import signal
import traceback
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar, cast

from django.db import connection, connections, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games.store import event_types as event_types
from games.store.folding import Folded, check_start, fold_moves

T = TypeVar("T")

# Only a stream's first row carries its id and stored status, and only its first and last rows
# their recorded_at: loading a UUID and a timestamp on every row was most of the reading time.
_QUERY = """
    SELECT CASE WHEN lag(e.version) OVER w IS NULL THEN e.stream_id END,
        e.version, e.type, e.schema_version, e.data,
        CASE WHEN lag(e.version) OVER w IS NULL OR lead(e.version) OVER w IS NULL
            THEN e.recorded_at END,
        CASE WHEN lag(e.version) OVER w IS NULL THEN s.status END,
        CASE WHEN lead(e.version) OVER w IS NULL THEN e.position END
    FROM games_event e JOIN games_stream s ON s.id = e.stream_id
    WHERE s.category = %s {where}
    WINDOW w AS (PARTITION BY e.stream_id ORDER BY e.version)
    ORDER BY e.stream_id, e.version
"""

# Streams a worker folds before sending their rows to the parent process.
_BATCH = 500


@dataclass(frozen=True)
class Replayed:
    stream_id: Any
    folded: Folded
    started_at: datetime
    updated_at: datetime
    status: str = ""  # as stored on the stream row (only "abandoned" adds to the events)
    events: int = 0  # read to fold it
    last_position: int = 0  # the position of its last event


def final_states(
    category: str,
    progress: Callable[[int], None] | None = None,
    bounds: tuple[Any, Any] = (None, None),
    only: str = "",
) -> Iterator[Replayed]:
    """One Replayed per stream of ``category`` (with id in ``bounds``, low included).

    ``progress(n)`` is told of every n events read. ``only``: a further condition on the stream
    row ``s``, as SQL beginning with AND (no parameters).
    """
    for rows in _streams(_rows(category, bounds, only)):
        if progress:
            progress(len(rows))
        yield _replayed(category, rows)


def map_final_states(
    category: str,
    function: Callable[[Replayed], T],
    progress: Callable[[int], None] | None = None,
    workers: int = 1,
    only: str = "",
) -> Iterator[T]:
    """``function(replayed)`` for every stream of ``category`` (and ``only``, as for
    ``final_states``), in no particular order.

    With ``workers`` > 1 (PostgreSQL), forked processes read and fold, each its range of stream
    ids, through their own connections: they see committed events only, so the caller must not
    have appended events in its transaction. What ``function`` returns must pickle.
    """
    if workers <= 1 or connection.vendor != "postgresql":
        return (function(replayed) for replayed in final_states(category, progress, only=only))
    return _in_workers(category, function, progress, _split(category, workers), only)


def _rows(category: str, bounds: tuple[Any, Any], only: str = "") -> Iterator[tuple[Any, ...]]:
    where, params = _range_clause(bounds)
    where += f" {only}" if only else ""
    with connection.chunked_cursor() as cursor:
        cursor.execute(_QUERY.format(where=where), [category, *params])
        while batch := cursor.fetchmany(5000):
            yield from batch


def _streams(rows: Iterator[tuple[Any, ...]]) -> Iterator[list[tuple[Any, ...]]]:
    """The rows of one stream after another (a stream's first row alone has its id)."""
    stream: list[tuple[Any, ...]] = []
    for row in rows:
        if row[0] is not None and stream:
            yield stream
            stream = []
        stream.append(row)
    if stream:
        yield stream


def _range_clause(bounds: tuple[Any, Any]) -> tuple[str, list[Any]]:
    low, high = bounds
    clauses, params = [], []
    if low is not None:
        clauses.append("AND e.stream_id >= %s")
        params.append(low)
    if high is not None:
        clauses.append("AND e.stream_id < %s")
        params.append(high)
    return " ".join(clauses), params


def _replayed(category: str, rows: list[tuple[Any, ...]]) -> Replayed:
    stream_id, version, type, schema_version, data, started_at, status, _ = rows[0]
    check_start(stream_id, type)
    header = _upcast(type, schema_version, _decode(data))
    moves = ((r[1], r[2], _upcast(r[2], r[3], _decode_move(r[4]))) for r in rows[1:])
    folded = fold_moves(category, header, version, moves)
    updated_at = _aware(rows[-1][5])
    last = int(rows[-1][7])
    return Replayed(
        _uuid(stream_id), folded, _aware(started_at), updated_at, status, len(rows), last
    )


def _decode(data: Any) -> Any:
    # Django hands JSON back as text, from psycopg and SQLite alike.
    return json.loads(data) if isinstance(data, str) else data


# A move's data is mostly one of a few short texts (a jump is one of 32): decode each once per
# process. The rules never change a move's data, so the decoded object can be shared; a start
# event's data (it becomes the header callers get) and long texts are decoded every time.
_decoded_moves: dict[str, Any] = {}


def _decode_move(data: Any) -> Any:
    if not isinstance(data, str) or len(data) > 100:
        return _decode(data)
    decoded = _decoded_moves.get(data)
    if decoded is None:
        decoded = json.loads(data)
        if len(_decoded_moves) < 10_000:
            _decoded_moves[data] = decoded
    return decoded


def _upcast(type: str, schema_version: int, data: Any) -> Any:
    if schema_version == event_types.current_version(type):
        return data
    return event_types.upcast(type, data, schema_version)


def _uuid(value: Any) -> uuid.UUID:
    # SQLite hands UUIDs back as text
    return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))


def _aware(value: Any) -> datetime:
    if isinstance(value, str):  # SQLite hands datetimes back as text
        value = parse_datetime(value)
    moment: datetime = value
    return timezone.make_aware(moment, UTC) if timezone.is_naive(moment) else moment


# --- worker processes (PostgreSQL) -------------------------------------------------------------


def _split(category: str, parts: int) -> list[tuple[Any, Any]]:
    """Stream-id bounds cutting the category's streams into ``parts`` ranges of equal count."""
    fractions = [i / parts for i in range(1, parts)]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT percentile_disc(%s::float8[]) WITHIN GROUP (ORDER BY id)"
            " FROM games_stream WHERE category = %s",
            [fractions, category],
        )
        cuts = cursor.fetchone()[0] or []
    edges = [None, *cuts, None]
    return list(itertools.pairwise(edges))


def _in_workers(
    category: str,
    function: Callable[[Replayed], T],
    progress: Callable[[int], None] | None,
    ranges: list[tuple[Any, Any]],
    only: str = "",
) -> Iterator[T]:
    # fork, not spawn: the workers need this process's settings (a test database's name, say)
    # and start at once.
    context = multiprocessing.get_context("fork")
    readers, processes = [], []
    try:
        for bounds in ranges:
            reader, writer = context.Pipe(duplex=False)
            process = context.Process(
                target=_work, args=(category, function, bounds, writer, only), daemon=True
            )
            process.start()
            writer.close()
            readers.append(reader)
            processes.append(process)
        yield from _results(readers, progress)
    finally:
        for process in processes:
            if process.is_alive():
                process.terminate()  # the caller gave up early, or another worker failed
            process.join()


def _results(readers: list[Connection], progress: Callable[[int], None] | None) -> Iterator[Any]:
    """Every row the workers send, as it arrives; a worker's failure is raised here."""
    readers = list(readers)
    while readers:
        for reader in cast(list[Connection], wait(readers)):
            try:
                kind, events, rows = reader.recv()
            except EOFError:
                raise RuntimeError("a replay worker died without a word") from None
            if kind == "failed":
                raise RuntimeError(f"a replay worker failed:\n{rows}")
            if kind == "done":
                readers.remove(reader)
                continue
            if progress:
                progress(events)
            yield from rows


def _work(
    category: str,
    function: Callable[[Replayed], Any],
    bounds: tuple[Any, Any],
    out: Connection,
    only: str = "",
) -> None:
    """A worker process: fold the streams within ``bounds`` and send ``function`` of each."""
    # Ctrl-C reaches the whole process group: the parent handles it, and stops its workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _own_connections()
    try:
        # In a transaction: outside one, Django's server-side cursor is WITH HOLD, which makes
        # PostgreSQL run the whole query and store its result before the first row comes back.
        with transaction.atomic():
            events, batch = 0, []
            for replayed in final_states(category, bounds=bounds, only=only):
                events += replayed.events
                batch.append(function(replayed))
                if len(batch) >= _BATCH:
                    out.send(("rows", events, batch))
                    events, batch = 0, []
            out.send(("rows", events, batch))
        out.send(("done", 0, []))
    except Exception:
        out.send(("failed", 0, traceback.format_exc()))
    finally:
        connections.close_all()
        out.close()


# Connections inherited from the parent by a forked worker: referenced, never used nor closed.
_inherited: list[Any] = []


def _own_connections() -> None:
    # The fork copied the parent's open connection, in the middle of its transaction. Closing
    # the copy (even by garbage collection) would end the parent's session: keep it aside and
    # give this process fresh connections, opened on first use.
    for alias in connections:
        _inherited.append(connections[alias])
        connections[alias] = connections.create_connection(alias)


def count_events(category: str | None = None) -> int:
    from games.store.models import Event

    rows = Event.objects.all()
    if category:
        rows = rows.filter(stream__category=category)
    return rows.count()
