"""Signed checkpoints: the heads of every stream, signed with a key the database does not hold.

A hash chain shows that an event was not changed *unless* its writer recomputed the chain, which
anyone who can write the database can do. A checkpoint records every stream's head (version and
hash) and is signed with an Ed25519 key taken from the environment (``CHECKPOINT_KEY``) or a file
outside the database (``CHECKPOINT_KEY_FILE``, made with mode 0600 on first use). Because each
event's hash covers the previous one, a signed head pins every event up to it: an event changed
afterwards, chain recomputed or not, no longer leads to the signed hash.

A checkpoint is made only over history consistent with the newest checkpoint that verifies: a
stream whose events no longer lead to its signed head keeps that head in the new checkpoint (and
the change is reported), so a rewrite is never signed over. ``manage.py verify_events`` checks
every event against every checkpoint; the public key it verifies with is derived from the same
private key, never read from the database.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import logging
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import connection, transaction

from games.store import folding, journal
from games.store.models import Checkpoint, Event, Stream

logger = logging.getLogger(__name__)

Heads = dict[str, list[Any]]  # stream id -> [version, head hash]


# --- the key ----------------------------------------------------------------------------------


def signing_key(create: bool = False) -> Ed25519PrivateKey | None:
    """The private key: CHECKPOINT_KEY (base64 of its 32 bytes, or PEM), else the key file.

    With ``create``, a missing file is made (mode 0600, never replaced: a second process that
    races the first reads the winner's key); without it, None when there is no key.
    """
    configured = getattr(settings, "CHECKPOINT_KEY", "").strip()
    if configured:
        return _parse(configured.encode(), "CHECKPOINT_KEY")
    path = Path(settings.CHECKPOINT_KEY_FILE)
    if not path.exists():
        if not create:
            return None
        _create(path)
    return _parse(path.read_bytes(), str(path))


def _parse(text: bytes, source: str) -> Ed25519PrivateKey:
    try:
        if text.lstrip().startswith(b"-----BEGIN"):
            key = serialization.load_pem_private_key(text, password=None)
        else:
            key = Ed25519PrivateKey.from_private_bytes(base64.b64decode(text, validate=True))
    except (ValueError, TypeError, binascii.Error) as error:
        raise ImproperlyConfigured(f"{source} is not an Ed25519 private key: {error}") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise ImproperlyConfigured(f"{source} is not an Ed25519 private key.")
    return key


def _create(path: Path) -> None:
    pem = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    draft = path.with_name(f".{path.name}.{os.getpid()}")
    descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as out:
        out.write(pem)
    try:
        os.link(draft, path)
    except FileExistsError:
        pass
    finally:
        draft.unlink()


def key_id(public: Ed25519PublicKey) -> str:
    """SHA-256 of the raw public key, in hex: names the key a checkpoint was signed with."""
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()


# --- signing and checking one checkpoint --------------------------------------------------------


def digest(heads: Heads) -> str:
    """SHA-256 of the heads' canonical JSON (sorted keys, no spaces), in hex."""
    canonical = json.dumps(heads, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def sign(heads: Heads, key: Ed25519PrivateKey) -> Checkpoint:
    """An unsaved checkpoint of ``heads``: the Ed25519 signature of their digest's 32 bytes."""
    hexdigest = digest(heads)
    return Checkpoint(
        heads=heads,
        digest=hexdigest,
        signature=key.sign(bytes.fromhex(hexdigest)).hex(),
        key_id=key_id(key.public_key()),
    )


def describe(checkpoint: Checkpoint) -> str:
    return f"checkpoint {checkpoint.pk} ({checkpoint.created_at:%Y-%m-%d %H:%M:%S %Z})"


def fault(checkpoint: Checkpoint, public: Ed25519PublicKey) -> str | None:
    """Why ``checkpoint`` cannot be trusted, as a sentence; None when it verifies."""
    ours = key_id(public)
    if checkpoint.key_id != ours:
        return (
            f"{describe(checkpoint)}: signed with another key ({checkpoint.key_id[:16]}...), "
            f"not this installation's ({ours[:16]}...)."
        )
    try:
        public.verify(bytes.fromhex(checkpoint.signature), bytes.fromhex(checkpoint.digest))
    except (InvalidSignature, ValueError):
        return f"{describe(checkpoint)}: the signature does not verify."
    if digest(checkpoint.heads) != checkpoint.digest:
        return f"{describe(checkpoint)}: its heads do not match its digest (changed after signing)."
    return None


def newest_valid(public: Ed25519PublicKey) -> tuple[Checkpoint | None, list[str]]:
    """The newest checkpoint that verifies, and a sentence for each newer one that does not."""
    faults: list[str] = []
    for checkpoint in Checkpoint.objects.order_by("-id").iterator(chunk_size=20):
        problem = fault(checkpoint, public)
        if problem is None:
            return checkpoint, faults
        faults.append(problem)
    return None, faults


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


# --- what verify_events checks --------------------------------------------------------------------


@dataclass
class Signed:
    """What the valid checkpoints signed: per stream, per version, the hash and who signed it."""

    heads: dict[str, dict[int, tuple[str, Checkpoint]]] = field(default_factory=dict)
    checkpoints: list[Checkpoint] = field(default_factory=list)  # valid, newest first
    problems: list[str] = field(default_factory=list)

    def of(self, stream_id: Any) -> dict[int, tuple[str, Checkpoint]]:
        return self.heads.get(str(stream_id), {})


def signed_heads(limit: int | None = None) -> Signed:
    """Every head signed by the newest ``limit`` checkpoints (all by default) that verify, and a
    sentence for each checkpoint that does not (or for all of them, without a key)."""
    result = Signed()
    rows = Checkpoint.objects.order_by("-id")
    if limit is not None:
        rows = rows[:limit]
    key = signing_key(create=False)
    if key is None:
        count = rows.count()
        if count:
            result.problems.append(
                f"{count} checkpoint(s) cannot be verified: no checkpoint key "
                f"(CHECKPOINT_KEY, or the file {settings.CHECKPOINT_KEY_FILE})."
            )
        return result
    public = key.public_key()
    for checkpoint in rows.iterator(chunk_size=20):
        problem = fault(checkpoint, public)
        if problem:
            result.problems.append(problem)
            continue
        result.checkpoints.append(checkpoint)
        for stream_id, (version, head) in checkpoint.heads.items():
            versions = result.heads.setdefault(stream_id, {})
            known = versions.get(version)
            if known is not None and known[0] != head:
                result.problems.append(
                    f"stream {stream_id} version {version}: {describe(checkpoint)} and "
                    f"{describe(known[1])} signed different hashes."
                )
            versions.setdefault(version, (head, checkpoint))
    return result


def check_stream(
    where: str, signed: dict[int, tuple[str, Checkpoint]], hashes: Iterable[tuple[int, str]]
) -> Iterator[str]:
    """The first event of a stream (``(version, hash)`` in order) that no longer carries the hash
    a checkpoint signed at its version, with the range of versions the change lies in."""
    if not signed:
        return
    matched, last = 0, 0
    for version, hash in hashes:
        last = version
        if version not in signed:
            continue
        head, checkpoint = signed[version]
        if hash == head:
            matched = version
            continue
        if matched == version - 1:
            changed = f"the event was changed after {describe(checkpoint)} signed it."
        else:
            changed = (
                f"no longer carries the hash {describe(checkpoint)} signed: an event of versions "
                f"{matched + 1}..{version} was changed after it was signed"
                + (f" (version {matched} still matches)." if matched else ".")
            )
        yield f"{where} version {version}: {changed}"
        return
    beyond = [v for v in signed if v > last]
    if beyond:
        version = max(beyond)
        yield (
            f"{where}: {describe(signed[version][1])} signed version {version}, the stream's "
            f"events end at version {last}: events were removed."
        )


def missing_streams(signed: Signed, seen: set[str]) -> Iterator[str]:
    for stream_id, versions in signed.heads.items():
        if stream_id not in seen:
            version = max(versions)
            yield (
                f"stream {stream_id}: {describe(versions[version][1])} signed it at version "
                f"{version}, it is no longer in the database."
            )


# Versions of one stream and the hash a checkpoint signed there (with the checkpoint).
SignedHeads = dict[int, tuple[str, Any]]


def verify_stream(stream: Stream, signed: SignedHeads | None = None) -> list[str]:
    """What is wrong with one stream, each as a sentence naming the stream and version.

    ``signed`` maps versions to the hash a checkpoint signed there (and the checkpoint).
    """
    where = f"stream {stream.pk} ({stream.kind})"
    problems: list[str] = []
    hashes: list[tuple[int, str]] = []
    previous, expected_version = "", 1
    for row in stream.events.order_by("version"):
        hashes.append((row.version, row.hash))
        if problems:
            continue  # the first break of the chain is the one reported
        if row.version != expected_version:
            problems.append(
                f"{where} version {row.version}: expected version {expected_version}, "
                "the chain has a gap."
            )
        elif journal.chain_hash(previous, row) != row.hash:
            problems.append(
                f"{where} version {row.version}: hash mismatch, the event was altered after it "
                "was recorded."
            )
        previous, expected_version = row.hash, expected_version + 1
    problems.extend(check_stream(where, signed or {}, hashes))
    if problems:
        return problems
    if expected_version - 1 != stream.version:
        return [f"stream {stream.pk}: the stream row says version {stream.version}."]
    if stream.version and stream.head_hash != previous:
        return [f"{where}: the stream row's head hash is not its last event's hash."]
    try:
        folded = folding.refold(stream)
    except Exception as error:  # a stored event the rules now refuse is exactly what we report
        return [f"stream {stream.pk} ({stream.kind}): does not re-fold: {error}"]
    snapshot = folding.unpack(stream)
    if snapshot is not None and (snapshot.header, snapshot.state) != (folded.header, folded.state):
        return [
            f"{where}: its snapshot (authenticated: made by this installation at version "
            f"{stream.version}) differs from a re-fold of its events: an event was changed."
        ]
    return []
