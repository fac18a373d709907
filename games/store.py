"""The only code that writes Event rows: locking a stream, chaining hashes, inserting.

Callers (games.services) hold the transaction; every function here expects to run inside it.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError
from django.utils import timezone

from games import events as event_types
from games.models import Event, Stream


class VersionConflict(Exception):
    def __init__(self, current_version: int) -> None:
        super().__init__(f"The stream is at version {current_version}.")
        self.current_version = current_version


class EventIdReused(Exception):
    def __init__(self, event_id: uuid.UUID) -> None:
        super().__init__(f"Event id {event_id} was already used for a different event.")
        self.event_id = event_id


@dataclass(frozen=True)
class StoredEvent:
    """An event as read back: data already upcast to its type's current schema version."""

    position: int
    id: uuid.UUID
    stream_id: uuid.UUID
    version: int
    type: str
    data: dict[str, Any]
    meta: dict[str, Any]
    recorded_at: datetime
    hash: str
    schema_version: int


def lock_stream(stream_id: uuid.UUID) -> Stream:
    """The stream row, locked until the transaction ends (raises Stream.DoesNotExist)."""
    return Stream.objects.select_for_update().get(pk=stream_id)


def chain_hash(previous: str, event: Event) -> str:
    """SHA-256 over the previous hash and the event's identity and content."""
    body = json.dumps(
        [
            previous,
            str(event.stream_id),
            event.version,
            str(event.id),
            event.type,
            event.schema_version,
            event.data,
            event.meta,
            event.recorded_at.isoformat(),
        ],
        sort_keys=True,
        separators=(",", ":"),
        default=str,
    )
    return hashlib.sha256(body.encode()).hexdigest()


def insert(
    stream: Stream, *, event_id: uuid.UUID, type: str, data: dict[str, Any], meta: dict[str, Any]
) -> Event:
    """Append one event at the stream's next version; the caller then saves the stream row."""
    event = Event(
        id=event_id,
        stream_id=stream.pk,
        version=stream.version + 1,
        type=type,
        schema_version=event_types.current_version(type),
        data=data,
        meta=meta,
        recorded_at=timezone.now(),
    )
    event.hash = chain_hash(stream.head_hash, event)
    try:
        event.save(force_insert=True)
    except IntegrityError:
        # The only unique keys are (stream, version), held by our lock, and the client's id.
        # No savepoint: the caller's transaction is rolled back as this propagates.
        raise EventIdReused(event_id) from None
    stream.version = event.version
    stream.head_hash = event.hash
    return event


def find(event_id: uuid.UUID) -> Event | None:
    return Event.objects.filter(id=event_id).first()


def read(event: Event) -> StoredEvent:
    return StoredEvent(
        position=event.position,
        id=event.id,
        stream_id=event.stream_id,
        version=event.version,
        type=event.type,
        data=event_types.upcast(event.type, event.data, event.schema_version),
        meta=event.meta,
        recorded_at=event.recorded_at,
        hash=event.hash,
        schema_version=event.schema_version,
    )


def stream_events(stream_id: uuid.UUID, upto: int | None = None) -> Iterator[StoredEvent]:
    """The stream's events in version order, up to and including version ``upto``."""
    rows = Event.objects.filter(stream_id=stream_id).order_by("version")
    if upto is not None:
        rows = rows.filter(version__lte=upto)
    for row in rows.iterator(chunk_size=2000):
        yield read(row)
