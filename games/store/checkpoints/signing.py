"""A checkpoint's key and signature: the Ed25519 key taken from the environment or a file outside
the database, the digest of the heads it signs, and whether a stored checkpoint verifies.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from games.store.models import Checkpoint

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
