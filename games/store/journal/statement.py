"""The fast statement: one append in one round trip (the stream row's update, the event's insert
and, when nothing was written, the head as it stood), the heads it reads, and the past
snapshots it keeps.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction

from games.store import event_types as event_types
from games.store.journal.prepared import database, fetch_row
from games.store.journal.rows import CANONICAL_JSON, Draft, EventIdReused, hash_of_texts
from games.store.models import PastSnapshot

# Who records a stream (its creator, its keepers, the creator and keepers of its match): the
# test of games.play.permissions (its _RECORDER_SQL), as a condition on the games_stream row an
# UPDATE is about to write: the fast path (games.store.fast_append) makes it inside its one
# statement rather than in a
# query of its own. A move it stops goes to the locked path, where check_may_record says why.
RECORDER_CONDITION = """(
    games_stream.created_by_id = %(recorder)s
    OR EXISTS (SELECT 1 FROM games_stream_keepers k
               WHERE k.stream_id = games_stream.id AND k.user_id = %(recorder)s)
    OR EXISTS (SELECT 1 FROM games_game g JOIN games_stream m ON m.id = g.match_id
               WHERE g.stream_id = games_stream.id
                 AND (m.created_by_id = %(recorder)s
                      OR EXISTS (SELECT 1 FROM games_stream_keepers mk
                                 WHERE mk.stream_id = m.id AND mk.user_id = %(recorder)s))))"""


_APPEND_SQL = """
WITH s AS (
    UPDATE games_stream
    SET version = %(version)s, head_hash = %(hash)s, status = %(status)s,
        snapshot = COALESCE(%(snapshot)s, snapshot),
        snapshot_version = COALESCE(%(snapshot_version)s, snapshot_version)
    WHERE id = %(stream)s AND version = %(previous)s AND head_hash = %(previous_hash)s
        AND status = 'in_progress'{recorder}
    RETURNING id
), e AS (
    INSERT INTO games_event
        (id, stream_id, version, type, schema_version, data, meta, recorded_at, hash)
    SELECT %(event_id)s, s.id, %(version)s, %(type)s, %(schema_version)s,
        %(data)s::jsonb, %(meta)s::jsonb, %(recorded_at)s, %(hash)s
    FROM s
    RETURNING position
){more}
SELECT e.position, NULL::integer, NULL::varchar, NULL::varchar, NULL::bytea, NULL::integer,
    NULL::json
FROM e
UNION ALL
SELECT NULL, h.version, h.head_hash, h.status, h.snapshot, h.snapshot_version, {since}
FROM games_stream h
WHERE h.id = %(stream)s AND NOT EXISTS (SELECT FROM e)
"""

# The events after a stream row's snapshot (``h``), for a reader to fold onto it: [[type, data,
# schema version], ...] in version order, or NULL when the snapshot is the head's.
_SINCE_SNAPSHOT = """CASE WHEN h.snapshot_version < h.version THEN (
        SELECT json_agg(json_build_array(x.type, x.data, x.schema_version) ORDER BY x.version)
        FROM games_event x WHERE x.stream_id = h.id AND x.version > h.snapshot_version
    ) END"""


@dataclass(frozen=True)
class StreamHead:
    """A stream row's head as a statement that wrote nothing read it (the statement's snapshot:
    a writer that committed while the statement waited for the row's lock is not in it)."""

    version: int
    hash: str
    status: str
    snapshot: bytes | None
    snapshot_version: int | None
    # The events after the snapshot, when it is behind the head: (type, data, schema version).
    since: list[tuple[str, dict[str, Any], int]] | None = None


# The fast path writes the snapshot with every SNAPSHOT_EVERY-th event (and with a game's last),
# not with each: packing a dice game's state was a tenth of a move's CPU. A reader of an older
# snapshot folds the few events after it (``StreamHead.since``, folding.load).
SNAPSHOT_EVERY = 4


# Every KEEP_EVERY versions the snapshot is also kept apart (PastSnapshot), so that a state of
# the past folds at most KEEP_EVERY - 1 events after the one kept before it.
KEEP_EVERY = 64
# A kept snapshot is the stream's own of that version: the fast path packs one then.
assert KEEP_EVERY % SNAPSHOT_EVERY == 0
_KEEP_PAST = """, kept AS (
    INSERT INTO games_pastsnapshot (stream_id, version, snapshot)
    SELECT s.id, %(version)s, %(snapshot)s FROM s
)"""


def keep_past(stream_id: uuid.UUID, version: int, snapshot: bytes) -> None:
    """The locked path's counterpart of _KEEP_PAST (the caller holds the stream's lock)."""
    if version % KEEP_EVERY == 0:
        PastSnapshot.objects.create(stream_id=stream_id, version=version, snapshot=snapshot)


def past_snapshot(stream_id: uuid.UUID, version: int) -> tuple[int, bytes] | None:
    """The last snapshot kept at or before ``version``: (its version, the snapshot)."""
    row = (
        PastSnapshot.objects.filter(stream_id=stream_id, version__lte=version)
        .order_by("-version")
        .values_list("version", "snapshot")
        .first()
    )
    return None if row is None else (int(row[0]), bytes(row[1]))


_HEAD_SQL = f"""
SELECT h.version, h.head_hash, h.status, h.snapshot, h.snapshot_version, {_SINCE_SNAPSHOT}
FROM games_stream h WHERE h.id = %(stream)s AND h.category = 'game' AND h.status = 'in_progress'
"""


def game_head(stream_id: uuid.UUID) -> StreamHead | None:
    """The head of a game in progress (None for any other stream), by a prepared statement: the
    fast path reads it for every game it has not seen yet, so it costs no ORM query."""
    row = fetch_row(_HEAD_SQL, {"stream": stream_id})
    return None if row is None else _head_of(row)


def _head_of(row: tuple[Any, ...]) -> StreamHead:
    """A StreamHead from (version, hash, status, snapshot, snapshot version, events since)."""
    snapshot = None if row[3] is None else bytes(row[3])
    since = json.loads(row[5]) if isinstance(row[5], str) else row[5]
    events = None if since is None else [(str(t), dict(d), int(v)) for t, d, v in since]
    return StreamHead(int(row[0]), str(row[1]), str(row[2]), snapshot, row[4], events)


def append_unlocked(
    event: Draft,
    *,
    previous_hash: str,
    status: str,
    snapshot: bytes | None,
    more: list[tuple[str, dict[str, Any]]],
    recorder: int | None = None,
) -> int | StreamHead | None:
    """Append ``event`` right after version ``event.version - 1`` in one statement (PostgreSQL).

    The UPDATE of the stream row takes its lock and re-checks the version and the head's hash
    (which pins the whole history the caller folded), so a writer that lost the race, or that
    folded onto a head that never committed, inserts nothing. Its answer is then the stream's
    head as the same statement read it (None for no such stream), so that a writer whose head
    was stale can fold again without another round trip; else the event's position. ``more`` are
    read-model updates written in the same statement, each ``(sql, params)`` with a
    ``WITH``-clause body that may refer to ``s``. With ``recorder``, the UPDATE also tests that
    user's right to record (RECORDER_CONDITION): without it, nothing is written.
    ``snapshot`` None leaves the stream's older snapshot in place (SNAPSHOT_EVERY).
    """
    data, meta = CANONICAL_JSON.encode(event.data), CANONICAL_JSON.encode(event.meta)
    event.hash = hash_of_texts(previous_hash, event, data, meta)
    event.data_json, event.meta_json = data, meta
    params: dict[str, Any] = {
        "version": event.version,
        "previous": event.version - 1,
        "previous_hash": previous_hash,
        "status": status,
        "hash": event.hash,
        "snapshot": snapshot,
        "snapshot_version": None if snapshot is None else event.version,
        "stream": event.stream_id,
        "event_id": event.id,
        "type": event.type,
        "schema_version": event.schema_version,
        "data": data,
        "meta": meta,
        "recorded_at": event.recorded_at,
        "recorder": recorder,
    }
    test = "" if recorder is None else f"\n        AND {RECORDER_CONDITION}"
    kept = snapshot is not None and event.version % KEEP_EVERY == 0
    clauses = _KEEP_PAST if kept else ""
    for number, (sql, extra) in enumerate(more):
        clauses += f", m{number} AS ({sql})"
        params.update(extra)
    sql = _APPEND_SQL.format(recorder=test, more=clauses, since=_SINCE_SNAPSHOT)
    return _execute_append(sql, params, event.id)


def _execute_append(
    sql: str, params: dict[str, Any], event_id: uuid.UUID
) -> int | StreamHead | None:
    try:
        # Alone, the statement is its own transaction; inside a caller's transaction a
        # savepoint keeps a duplicate id from aborting the caller's work.
        if database().in_atomic_block:
            with transaction.atomic():
                row = fetch_row(sql, params)
        else:
            row = fetch_row(sql, params)
    except IntegrityError:
        raise EventIdReused(event_id) from None
    if row is None:
        return None
    if row[0] is not None:
        return int(row[0])
    return _head_of(row[1:])
