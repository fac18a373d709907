"""The fast path of ``event_record`` for the common case: a legal move in a game.

On PostgreSQL such a move is appended by one statement without an explicit transaction: the
stream row's UPDATE takes its lock and re-checks the version, the event is inserted and the read
models updated in the same statement (the summary; when the move ends the game, its bonus rows
and the players' records too). The state to fold onto comes from a per-process cache of
stream heads; a head at version N is the state at version N forever, since events never change.
The moves other processes of the host appended since are read from games.store.shared_heads and
folded on, checked by their chain hashes. A head moved on where that cannot help (another host, more
moves
than a slot keeps) costs one more statement, not the locked path: the statement that wrote nothing
answers with the head it read, and the move is folded onto that once more.
The statement writes the stream row's snapshot with every journal.SNAPSHOT_EVERY-th event and with
a game's last; a head read from the row is its snapshot with the few events since folded on.
Everything else (refusals, the end of a match's game, take-backs, retries, conflicts, matches,
SQLite) goes through the locked path in games.play.services, which decides those cases against the
stream as it is.
"""

from __future__ import annotations

import uuid
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.db import connection

from games.rules.base import Move
from games.rules.errors import RuleError
from games.rules.events import SERVICE_ONLY, UNDO
from games.store import folding, journal, reactions, shared_heads
from games.store.event_types import check_stream_data, upcast
from games.store.models import Stream

CACHE_SIZE = 4096


@dataclass(frozen=True)
class Head:
    """A stream's version, the hash of its last event, and its state at that version."""

    version: int
    hash: str
    folded: folding.Folded


_heads: OrderedDict[uuid.UUID, Head] = OrderedDict()


def remember(stream_id: uuid.UUID, head: Head) -> None:
    _heads[stream_id] = head
    _heads.move_to_end(stream_id)
    if len(_heads) > CACHE_SIZE:
        _heads.popitem(last=False)


def forget(stream_id: uuid.UUID) -> None:
    _heads.pop(stream_id, None)


def try_append(
    stream_id: uuid.UUID,
    event_id: uuid.UUID,
    type: str,
    data: dict[str, Any],
    expected_version: int | None,
    meta: dict[str, Any],
    recorder: int | None = None,
) -> tuple[journal.StoredEvent, folding.Folded, str] | None:
    """Append on the fast path (the event, the state, the status), or None: the caller then
    takes the locked path. ``recorder``: the user whose right to record the statement tests
    (games.play.permissions.recorder_to_test); a move he may not make writes nothing and gets None,
    so the locked path's check says why."""
    if type in _SLOW_TYPES or connection.vendor != "postgresql":
        return None
    cached = _heads.get(stream_id)
    head = _head(stream_id, expected_version)
    if head is None:
        return None
    outcome = _attempt(stream_id, head, event_id, type, data, meta, recorder)
    if outcome is None and head is cached:
        # Refused by a cached head, which may be behind the stream (a move legal now can be
        # illegal a few moves back): only a refusal by the head as it is goes to the locked path.
        head = _read_head(stream_id)
        if head is None or (expected_version is not None and head.version != expected_version):
            return None
        outcome = _attempt(stream_id, head, event_id, type, data, meta, recorder)
    if not isinstance(outcome, Stale):
        return outcome
    # The cached head was not the stream's: another process moved it on. The statement that
    # wrote nothing read the head as it stood; fold onto that once more, no second read.
    fresh = _fresh_head(stream_id, outcome)
    if fresh is None or (expected_version is not None and fresh.version != expected_version):
        return None  # a race lost at the lock, or a real conflict: the locked path decides
    again = _attempt(stream_id, fresh, event_id, type, data, meta, recorder)
    return None if isinstance(again, Stale) else again


@dataclass(frozen=True)
class Stale:
    """The stream's head as the statement that wrote nothing read it (its own snapshot)."""

    tried: Head
    head: journal.StreamHead | None


def _attempt(
    stream_id: uuid.UUID,
    head: Head,
    event_id: uuid.UUID,
    type: str,
    data: dict[str, Any],
    meta: dict[str, Any],
    recorder: int | None,
) -> tuple[journal.StoredEvent, folding.Folded, str] | Stale | None:
    after = _fold(head, type, data)
    if after is None:
        return None
    event = journal.Draft(
        stream_id=stream_id,
        version=after.version,
        event_id=event_id,
        type=type,
        data=data,
        meta=meta,
    )
    over = after.game_rules.is_terminal(after.state)
    status = Stream.Status.FINISHED if over else Stream.Status.IN_PROGRESS
    more = reactions.current().append_clauses(after, status, event.recorded_at, head.folded)
    if more is None:
        return None  # the read models are written on the locked path (a rated game's end)
    # A snapshot with every SNAPSHOT_EVERY-th event and with the last: a reader of the stream
    # row folds the few events since (folding.unpack_head, folding.load).
    packed = over or after.version % journal.SNAPSHOT_EVERY == 0
    written = journal.append_unlocked(
        event,
        previous_hash=head.hash,
        status=status,
        snapshot=folding.pack(after, stream_id) if packed else None,
        more=more,
        recorder=recorder,
    )
    if not isinstance(written, int) or over:
        forget(stream_id)
    if not isinstance(written, int):
        return Stale(head, written)
    if not over:
        remember(stream_id, Head(after.version, event.hash, after))
        _share(head.hash, event)
    return event.stored(written), after, status


def _share(previous: str, event: journal.Draft) -> None:
    """Publish the move for the host's other processes (games.store.shared_heads); not a move inside
    a caller's transaction, which may yet be rolled back."""
    if shared_heads.enabled() and not journal.in_transaction():
        shared_heads.publish(event, previous)


def _fresh_head(stream_id: uuid.UUID, stale: Stale) -> Head | None:
    """The head read by the statement that wrote nothing, if it is another than the one tried
    (the same one means the statement waited on a writer that has since moved the stream on)."""
    found = stale.head
    if found is None or found.status != Stream.Status.IN_PROGRESS:
        return None
    if (found.version, found.hash) == (stale.tried.version, stale.tried.hash):
        return None
    folded = folding.unpack_head(stream_id, Stream.Category.GAME, found)
    if folded is None:
        return None
    head = Head(found.version, found.hash, folded)
    remember(stream_id, head)
    return head


_SLOW_TYPES = SERVICE_ONLY | {UNDO}


def _head(stream_id: uuid.UUID, expected_version: int | None) -> Head | None:
    head = _heads.get(stream_id)
    if head is not None:
        head = _caught_up(stream_id, head)
    if head is None or (expected_version is not None and expected_version != head.version):
        head = _read_head(stream_id)  # another process may have moved the stream on
    if head is None or head.folded.category != Stream.Category.GAME:
        return None
    if expected_version is not None and expected_version != head.version:
        return None
    return head


def _caught_up(stream_id: uuid.UUID, head: Head) -> Head | None:
    """``head``, or the head after the moves other processes of this host appended since
    (games.store.shared_heads), folded on; None if the stream is known to be further on but the
    moves missed are not all there: the head is then read, not guessed at."""
    moves = shared_heads.newer(stream_id, head.version)
    if moves is None:
        return head
    if (
        not moves
        or moves[0].version != head.version + 1
        or not shared_heads.linked(head.hash, moves)
    ):
        return None
    try:
        missed = [Move(m.type, upcast(m.type, m.data(), m.schema_version)) for m in moves]
        folded = folding.fold_on(head.folded, missed)
    except (RuleError, ValueError):
        return None
    if folded is None:
        return None
    caught = Head(moves[-1].version, moves[-1].hash, folded)
    remember(stream_id, caught)
    return caught


def _read_head(stream_id: uuid.UUID) -> Head | None:
    found = journal.game_head(stream_id)
    if found is None:
        return None
    folded = folding.unpack_head(stream_id, Stream.Category.GAME, found)
    if folded is None:
        return None
    head = Head(found.version, found.hash, folded)
    remember(stream_id, head)
    return head


def _fold(head: Head, type: str, data: dict[str, Any]) -> folding.Folded | None:
    engine = head.folded.engine
    try:
        check_stream_data(head.folded.category, head.folded.header["kind"], type, data)
        state = engine.apply(head.folded.state, Move(type, data))
    except RuleError:
        return None  # refusals are given by the locked path, against the stream as it is now
    if engine.status(state) != Stream.Status.IN_PROGRESS and head.folded.header.get("match"):
        return None  # the game's result goes to its match stream: the locked path does that
    return folding.Folded(head.folded.category, head.folded.header, state, head.version + 1)
