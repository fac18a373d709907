"""Loading and saving a stream: its snapshot and the events after it folded on (or a past
snapshot kept on the way), a state of the past, and the save of a new event with its state.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings

from games.rules.base import Move
from games.rules.events import (
    MATCH_SETTLED,
)
from games.rules.shapes import ShapeError
from games.store import event_types, journal
from games.store.folding.engines import Folded, engine_for, engine_step, fold_events, fold_on
from games.store.folding.snapshots import from_own_snapshot, pack, unpack, unpack_bytes
from games.store.models import Stream, Tournament


def refold(stream: Stream, upto: int | None = None) -> Folded:
    return fold_events(stream.category, journal.stream_events(stream.pk, upto))


def state_stack(stream: Stream) -> tuple[dict[str, Any], list[Any]]:
    """The header and the stack of states of the moves in force (for ``move.undone``)."""
    events = journal.stream_events(stream.pk)
    first = next(events)
    engine = engine_for(stream.category, first.data)
    states = [engine.start(first.data)]
    for event in events:
        engine_step(engine, states, Move(event.type, event.data))
    return first.data, states


def settlement(stream_id: uuid.UUID, folded: Folded) -> dict[str, Any] | None:
    """The data of a match's ``match.settled`` event, or None. No query while the fold says the
    match is unsettled; else the event is read from the stream's end, where it lies (a match is
    settled once, after its games): from the start it cost a match report ~1.5 ms at 100 events.
    """
    if not folded.match_rules.is_settled(folded.state):
        return None
    return journal.event_data(stream_id, MATCH_SETTLED, last=True)


def save(
    stream: Stream,
    after: Folded,
    status: str,
    *,
    event_id: uuid.UUID,
    type: str,
    data: dict[str, Any],
    meta: dict[str, Any],
) -> journal.StoredEvent:
    """Append the event that made ``after`` and keep ``after`` as the stream's snapshot, with its
    ``status``; the caller holds the stream's lock and the transaction (the locked path)."""
    if settings.CHECK_DECLARED:
        check_declared(after, type, data)
    row = journal.insert(stream, event_id=event_id, type=type, data=data, meta=meta)
    stream.status = status
    stream.snapshot = pack(after, stream.pk)
    stream.snapshot_version = stream.version
    stream.save(update_fields=["version", "head_hash", "status", "snapshot", "snapshot_version"])
    if stream.category == Stream.Category.TOURNAMENT:
        # Its row's copy of the head, in the same transaction (a season's standings read it).
        Tournament.objects.filter(pk=stream.pk).update(
            head_version=stream.version, head_hash=stream.head_hash
        )
    journal.keep_past(stream.pk, stream.version, stream.snapshot)
    return journal.read(row)


def check_declared(after: Folded, type: str, data: dict[str, Any]) -> None:
    """Assert that an event and the game's view after it hold to their declarations
    (games/rules/shapes.py): on in the test suite (``CHECK_DECLARED``), so that every event any
    test writes, the service's own included, checks what the schema and the pages rely on."""
    shape = event_types.declared(type)
    assert shape is not None, f"{type} is declared nowhere"
    try:
        shape.check(data)
        if after.category == Stream.Category.GAME:
            after.game_rules.view_shape.check(after.game_rules.view(after.state))
    except ShapeError as error:
        raise AssertionError(
            f"{type} or the view after it: {error.path}: {error.expected}"
        ) from None


def load(stream: Stream, at_version: int | None = None) -> Folded:
    """The stream's state now, or as of ``at_version``."""
    if at_version is None or at_version == stream.version:
        return unpack(stream) or refold(stream)
    return (
        from_own_snapshot(stream, at_version)
        or _from_past(stream, at_version)
        or refold(stream, upto=at_version)
    )


def _from_past(stream: Stream, version: int) -> Folded | None:
    """The state at ``version`` folded on from the last snapshot kept before it (at most
    journal.KEEP_EVERY - 1 events); None if none is kept or usable."""
    kept = journal.past_snapshot(stream.pk, version)
    if kept is None:
        return None
    start = unpack_bytes(stream.pk, stream.category, kept[0], kept[1])
    if start is None:
        return None
    events = journal.stream_events(stream.pk, upto=version, after=start.version)
    return fold_on(start, [Move(event.type, event.data) for event in events])
