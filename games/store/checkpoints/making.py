"""Making a checkpoint: every stream's head read in one snapshot, signed only over history
consistent with the newest checkpoint that verifies (a rewritten stream keeps its signed head).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction

from games.store import journal
from games.store.checkpoints.signing import Heads, describe, newest_valid, sign, signing_key
from games.store.models import Checkpoint, Event

logger = logging.getLogger(__name__)


# --- making a checkpoint --------------------------------------------------------------------------


@dataclass
class Made:
    checkpoint: Checkpoint | None  # None: nothing changed since the newest valid checkpoint
    problems: list[str] = field(default_factory=list)
    streams: int = 0


# Every stream's head as its last event records it (an append changes the stream row and inserts
# its event in one transaction).
_HEADS_SQL = """
    SELECT s.id, s.kind, s.version, e.hash
    FROM games_stream s LEFT JOIN games_event e ON e.stream_id = s.id AND e.version = s.version
    WHERE s.version > 0
"""


def create() -> Made:
    """Sign the heads of every stream, unless none moved since the newest valid checkpoint.

    Each head is signed only if the stream's events lead to it from the head the newest valid
    checkpoint signed (from nothing, for a new stream); a stream whose events do not keeps its
    last signed head, and each such stream is named in ``problems``.
    """
    key = signing_key(create=True)
    assert key is not None
    with _one_snapshot():
        base, problems = newest_valid(key.public_key())
        heads = _heads(dict(base.heads) if base else {}, base, problems)
    if base is not None and heads == base.heads:
        return Made(None, problems, len(heads))
    checkpoint = sign(heads, key)
    checkpoint.save()
    logger.info("%s: %d streams, digest %s", describe(checkpoint), len(heads), checkpoint.digest)
    return Made(checkpoint, problems, len(heads))


@contextmanager
def _one_snapshot() -> Iterator[None]:
    """The heads, the events they cover and the checkpoint they extend, read as of one moment.

    Clients append meanwhile: read statement by statement, a stream's events were read after
    its head, and an event appended in between made its history look longer than its head (a
    tamper reported that was not there, and the stream's head left unsigned). One REPEATABLE READ
    snapshot sees each stream exactly at its head; READ ONLY, it takes no xid (it holds back no
    reader of the feed). Inside a caller's transaction (the tests') the isolation is already set.
    """
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def _heads(signed: Heads, base: Checkpoint | None, problems: list[str]) -> Heads:
    """The heads to sign: each stream's current head where its events lead to it from the head
    ``signed`` holds for it, else that signed head (and a problem naming the stream)."""
    heads: Heads = {}
    with connection.cursor() as cursor:
        cursor.execute(_HEADS_SQL)
        current = {str(id): (kind, version, hash) for id, kind, version, hash in cursor.fetchall()}
    for stream_id, (kind, version, head) in current.items():
        before = signed.get(stream_id)
        problem = _extends(stream_id, kind, before, version, head, base)
        if problem is None:
            heads[stream_id] = [version, head]
        else:
            problems.append(problem)
            if before is not None:
                heads[stream_id] = before  # the rewrite is not signed over
    for stream_id, before in signed.items():
        if stream_id not in current:
            problems.append(f"stream {stream_id}: signed at version {before[0]}, now gone.")
            heads[stream_id] = before
    return heads


def _extends(
    stream_id: str,
    kind: str,
    before: list[Any] | None,
    version: int,
    head: str | None,
    base: Checkpoint | None,
) -> str | None:
    """Why the stream's events do not lead from its signed head ``before`` to ``head``."""
    where = f"stream {stream_id} ({kind})"
    if head is None:
        return f"{where}: the stream row says version {version}, which has no event."
    if before is not None:
        signed_version, signed_hash = before
        if version == signed_version and head == signed_hash:
            return None  # unchanged (the common case: one lookup for all of them above)
        if version < signed_version:
            return f"{where}: at version {version}, signed at version {signed_version}."
    else:
        signed_version, signed_hash = 0, ""
    # Read in the same snapshot as the head (_one_snapshot): an event beyond it is no append in
    # flight but a row that was not written by an append.
    rows = Event.objects.filter(stream_id=stream_id, version__gte=max(signed_version, 1))
    events = iter(rows.order_by("version"))
    if signed_version:
        first = next(events, None)
        if first is None or first.version != signed_version:
            return f"{where} version {signed_version}: signed, and now gone."
        if first.hash != signed_hash:
            return (
                f"{where} version {signed_version}: no longer carries the hash "
                f"{describe(base) if base else 'a checkpoint'} signed: history was rewritten."
            )
    previous, expected = signed_hash, signed_version + 1
    for row in events:
        if row.version != expected or journal.chain_hash(previous, row) != row.hash:
            return f"{where} version {expected}: the hash chain is broken."
        previous, expected = row.hash, expected + 1
    if (expected - 1, previous) != (version, head):
        return f"{where}: its events do not end at its head (version {version})."
    return None
