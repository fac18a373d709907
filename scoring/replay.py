"""Every stream's final state, folded from the events alone (used by the projections' rebuild).

Reads the event table once, in stream order, through a server-side cursor, so memory stays flat
however many events there are.
"""

from __future__ import annotations

import itertools
import json
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db import connection
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games import events as event_types
from games.folding import Folded, fold_events
from games.store import StoredEvent

_QUERY = """
    SELECT e.stream_id, e.version, e.type, e.schema_version, e.data, e.recorded_at
    FROM games_event e JOIN games_stream s ON s.id = e.stream_id
    WHERE s.category = %s
    ORDER BY e.stream_id, e.version
"""


@dataclass(frozen=True)
class Replayed:
    stream_id: Any
    folded: Folded
    started_at: datetime
    updated_at: datetime


def final_states(
    category: str, progress: Callable[[int], None] | None = None
) -> Iterator[Replayed]:
    """One Replayed per stream of ``category``; ``progress(n)`` is told of every n events read."""
    rows = _rows(category)
    for _, group in itertools.groupby(rows, key=lambda row: row[0]):
        events = [_stored(row) for row in group]
        if progress:
            progress(len(events))
        folded = fold_events(category, events)
        yield Replayed(events[0].stream_id, folded, events[0].recorded_at, events[-1].recorded_at)


def _rows(category: str) -> Iterator[tuple[Any, ...]]:
    with connection.chunked_cursor() as cursor:
        cursor.execute(_QUERY, [category])
        while batch := cursor.fetchmany(5000):
            yield from batch


def _stored(row: tuple[Any, ...]) -> StoredEvent:
    stream_id, version, type_, schema_version, data, recorded_at = row
    if isinstance(data, str):  # SQLite hands back JSON, UUIDs and datetimes as text
        data = json.loads(data)
    if not isinstance(stream_id, uuid.UUID):
        stream_id = uuid.UUID(str(stream_id))
    if isinstance(recorded_at, str):
        recorded_at = parse_datetime(recorded_at)
    if timezone.is_naive(recorded_at):
        recorded_at = timezone.make_aware(recorded_at, UTC)
    return StoredEvent(
        position=0,
        id=None,  # type: ignore[arg-type]
        stream_id=stream_id,
        version=version,
        type=type_,
        data=event_types.upcast(type_, data, schema_version),
        meta={},
        recorded_at=recorded_at,
        hash="",
        schema_version=schema_version,
    )


def count_events(category: str | None = None) -> int:
    from games.models import Event

    rows = Event.objects.all()
    if category:
        rows = rows.filter(stream__category=category)
    return rows.count()
