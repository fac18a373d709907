"""What ``manage.py verify_events`` checks: every stream's events against the heads the
checkpoints signed, and streams a checkpoint names that are gone.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from games.store import folding, journal
from games.store.checkpoints.signing import describe, fault, signing_key
from games.store.models import Checkpoint, Stream


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
