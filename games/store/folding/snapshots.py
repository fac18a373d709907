"""A stream's snapshot: its folded state packed (pickle) under a MAC bound to the stream, its
version and the format, so that a row altered in the database is refused, never unpickled.
"""

from __future__ import annotations

import copyreg
import dataclasses
import functools
import hashlib
import hmac
import io
import operator
import pickle
import struct
import uuid
from collections.abc import Callable
from typing import Any

from django.conf import settings

from games.rules.base import Move
from games.store import journal
from games.store.event_types import upcast
from games.store.folding.engines import Folded, fold_on
from games.store.models import Stream

# Bump when a state class changes shape or moves: older snapshots are then ignored and refolded.
# 3: the rule modules moved into family packages (pickles name class paths); 4: authenticated;
# 5: Scarney 3000 keeps its turns packed and only the last turn's throws; 6: the Scarney dice
# games' rulesets moved from their family's ``scoring`` module to ``throws``; 7: a finished
# Truffle hand keeps Dealer's discards in Opposite's pile when Dealer won no trick (21.2); 8: a
# tournament's entries, results and tables hold labels and confirmations; 9: a tournament holds
# whether it is published; 10: its state moved into games.tournaments.core.
SNAPSHOT_FORMAT = 10


# A snapshot is its MAC then its pickle. Unpickling runs code the pickle names, so a snapshot is
# unpickled only once its MAC shows this installation made it: HMAC-SHA256, under a key derived
# from SECRET_KEY (which the database does not hold), of the format, the version, the stream and
# the pickle. One written by anyone else, or copied from another stream or version, is ignored.
_MAC_SIZE = hashlib.sha256().digest_size
_MAC_SALT = "games.store.folding.snapshot"
_BOUND = struct.Struct(">HQ")  # SNAPSHOT_FORMAT, version; then the stream id's 16 bytes


@functools.lru_cache(maxsize=4)
def _hmac_pads(secret: str) -> tuple[Any, Any]:
    """HMAC-SHA256's inner and outer hashes, keyed and ready to copy (RFC 2104).

    The key is derived from SECRET_KEY as django.utils.crypto.salted_hmac derives its own, under
    this module's salt. The pads are hashed once per key, not per snapshot: hmac.digest() would
    set up its key on every call, four times the cost of the MAC itself.
    """
    key = hashlib.sha256((_MAC_SALT + secret).encode()).digest()
    block = key.ljust(hashlib.sha256().block_size, b"\0")
    inner = hashlib.sha256(bytes(byte ^ 0x36 for byte in block))
    outer = hashlib.sha256(bytes(byte ^ 0x5C for byte in block))
    return inner, outer


def _mac(stream_id: uuid.UUID, version: int, body: bytes | memoryview) -> bytes:
    inner, outer = (pad.copy() for pad in _hmac_pads(settings.SECRET_KEY))
    inner.update(_BOUND.pack(SNAPSHOT_FORMAT, version))
    inner.update(stream_id.bytes)
    inner.update(body)
    outer.update(inner.digest())
    mac: bytes = outer.digest()
    return mac


def pack(folded: Folded, stream_id: uuid.UUID) -> bytes:
    """The snapshot of ``folded``, the state of stream ``stream_id`` at ``folded.version``."""
    out = io.BytesIO()
    _Pickler(out, pickle.HIGHEST_PROTOCOL).dump((folded.header, folded.state))
    body = out.getvalue()
    return _mac(stream_id, folded.version, body) + body


class _Pickler(pickle.Pickler):
    """pickle's own output, faster for the rule engines' slotted dataclasses.

    Their state comes from dataclasses' ``__getstate__``, which looks the class's fields up
    again for every object and lists their values one by one: most of pickling a dice game's
    state (its throws, turns and frames are many small objects; a sixth of a move's CPU).
    Here one ``attrgetter`` per class takes the values in C, and the object is reduced as
    ``object.__reduce_ex__`` reduces it, but with its state a tuple rather than a list (one
    opcode apart), which the stock ``__setstate__`` reads back alike
    (tests/games/store/test_fast_append.py).
    """

    def reducer_override(self, obj: Any) -> Any:
        values = _slotted_values.get(type(obj), _UNSEEN)
        if values is _UNSEEN:
            values = _slotted_values[type(obj)] = _values_of(type(obj))
        if values is None:
            return NotImplemented
        return _NEWOBJ, (type(obj),), values(obj)


# copyreg.__newobj__, as object.__reduce_ex__ names it (typeshed does not list it).
_NEWOBJ = copyreg.__newobj__  # type: ignore[attr-defined]
_UNSEEN = object()
_slotted_values: dict[type, Any] = {}


def _values_of(cls: type) -> Callable[[Any], tuple[Any, ...]] | None:
    """What takes the field values of a slotted dataclass that pickles through dataclasses' own
    state functions, as a tuple; None for any other class (pickled as pickle pickles it)."""
    getstate = getattr(cls, "__getstate__", None)
    if not dataclasses.is_dataclass(cls) or "__slots__" not in cls.__dict__:
        return None
    if getattr(getstate, "__qualname__", "") != "_dataclass_getstate":
        return None
    names = tuple(field.name for field in dataclasses.fields(cls))
    if len(names) == 1:  # attrgetter of one name gives the value itself, not a tuple
        return lambda obj: (getattr(obj, names[0]),)
    return operator.attrgetter(*names)


def unpack(stream: Stream) -> Folded | None:
    """The state at the stream's version from its snapshot, if present, authentic and readable,
    with the few events after it folded on when it is behind the head (the fast path writes one
    every journal.SNAPSHOT_EVERY events); else None (the caller refolds)."""
    if stream.snapshot_version == stream.version:
        return unpack_bytes(stream.pk, stream.category, stream.version, stream.snapshot)
    return from_own_snapshot(stream)


def unpack_head(stream_id: uuid.UUID, category: str, head: journal.StreamHead) -> Folded | None:
    """unpack() of a head read by the fast path's statement (journal.StreamHead): its snapshot,
    and the events after it folded on when it is behind the head."""
    if head.snapshot_version == head.version:
        return unpack_bytes(stream_id, category, head.version, head.snapshot)
    if head.snapshot_version is None or head.since is None:
        return None
    if len(head.since) != head.version - head.snapshot_version:
        return None  # not the whole run of events since the snapshot: the locked path decides
    start = unpack_bytes(stream_id, category, head.snapshot_version, head.snapshot)
    moves = [Move(type, upcast(type, data, schema)) for type, data, schema in head.since]
    return None if start is None else fold_on(start, moves)


def unpack_bytes(
    stream_id: uuid.UUID, category: str, version: int, snapshot: bytes | memoryview | None
) -> Folded | None:
    if not snapshot:
        return None
    view = memoryview(snapshot)
    mac, body = view[:_MAC_SIZE], view[_MAC_SIZE:]
    if not hmac.compare_digest(mac, _mac(stream_id, version, body)):
        return None  # not made here for this stream and version: never unpickled
    try:
        header, state = pickle.loads(body)
    except Exception:  # an unreadable cache is not an error: the events are the truth
        return None
    return Folded(category, header, state, version)


def from_own_snapshot(stream: Stream, upto: int | None = None) -> Folded | None:
    """The state at ``upto`` (the head's by default), folded on from the stream row's snapshot
    when that is behind it by less than journal.SNAPSHOT_EVERY (a retry of one of the last moves,
    say); None otherwise, or if it is not usable."""
    upto = stream.version if upto is None else upto
    version = stream.snapshot_version
    if version is None or not 0 < version < upto or upto - version >= journal.SNAPSHOT_EVERY:
        return None
    start = unpack_bytes(stream.pk, stream.category, version, stream.snapshot)
    if start is None:
        return None
    events = journal.stream_events(stream.pk, upto=upto, after=version)
    return fold_on(start, [Move(event.type, event.data) for event in events])
