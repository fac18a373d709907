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

By purpose: ``signing`` (the key, the digest, a checkpoint verified), ``making`` (a new one),
``verifying`` (what verify_events checks). Their public names are named here for the importers.
"""

from games.store.checkpoints.making import Made, create
from games.store.checkpoints.signing import (
    Heads,
    describe,
    digest,
    fault,
    key_id,
    newest_valid,
    sign,
    signing_key,
)
from games.store.checkpoints.verifying import (
    Signed,
    SignedHeads,
    check_stream,
    missing_streams,
    signed_heads,
    verify_stream,
)

__all__ = [
    "Heads",
    "Made",
    "Signed",
    "SignedHeads",
    "check_stream",
    "create",
    "describe",
    "digest",
    "fault",
    "key_id",
    "missing_streams",
    "newest_valid",
    "sign",
    "signed_heads",
    "signing_key",
    "verify_stream",
]
