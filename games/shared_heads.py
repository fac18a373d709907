"""The last moves of each game, shared by the web processes of one host.

The fast path keeps each process's heads (games.fast_append). When a game's moves reach several
processes, as they do behind a load balancer or when a table's device reconnects, a process's
head is behind the stream as often as not, and without help it learns so from a statement that
writes nothing: two statements for one move. So every move the fast path appends is also written
here, with all its chain hash covers, into the slot of its game in a file in shared memory
(``/dev/shm``); a process whose head is behind reads the moves it missed from there and folds them
on, and the move takes one statement again.

Nothing read here is trusted. A move is folded on only if its chain hash, computed anew from what
the slot holds, links the head this process has to the stream's head, and the append statement
then checks that head (version and hash) in the database: a slot another game has taken over, one
torn by two writers at once, or a move whose transaction was rolled back gives a chain that does
not link, and the fast path goes on as it would without this file. No locks are taken: a reader
that loses a race only misses a shortcut.

A slot holds its game's last ``KEEP`` moves: ``SLOT_HEAD`` (the game's id, the version of its last
move, the length of what follows, how many moves), then each move as ``MOVE_HEAD`` (version,
schema version, the lengths of its type, data, meta and time, its id, the hash before it and its
own hash) and those four texts.
"""

from __future__ import annotations

import hashlib
import json
import mmap
import os
import struct
import tempfile
import threading
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections

SLOTS = 2048
SLOT_SIZE = 2048
KEEP = 4
SLOT_HEAD = struct.Struct("<16sIHB")
MOVE_HEAD = struct.Struct("<IHBHHB16s32s32s")


@dataclass(frozen=True)
class Published:
    """One move as a slot holds it: what the chain hash covers, and the hashes around it."""

    stream_id: uuid.UUID
    version: int
    id: uuid.UUID
    type: str
    schema_version: int
    data_json: str
    meta_json: str
    recorded_at: datetime
    previous: str
    hash: str

    def data(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.data_json)
        return data


_lock = threading.Lock()
_memory: list[mmap.mmap | None] = []


def enabled() -> bool:
    return bool(getattr(settings, "SHARED_HEADS", True))


def publish(stream_id: uuid.UUID, move: Published) -> None:
    """Write ``move`` into its game's slot after the moves it follows (those kept, if the slot
    holds this game's chain up to it; else it starts the slot anew)."""
    memory = _mapped()
    if memory is None:
        return
    start = _slot(stream_id)
    kept = _spans(memory, start, stream_id)
    if not kept or kept[-1][0] != move.version - 1 or kept[-1][1] != move.previous:
        kept = []  # not this game's chain up to this move: the slot starts anew
    spans = [block for _, _, block in kept[-(KEEP - 1) :]] + [_packed(move)]
    while sum(map(len, spans)) + SLOT_HEAD.size > SLOT_SIZE and spans:
        spans = spans[1:]  # the oldest go first; a move too large alone leaves nothing
    body = b"".join(spans)
    head = SLOT_HEAD.pack(stream_id.bytes, move.version, len(body), len(spans))
    memory[start : start + len(head) + len(body)] = head + body


def newer(stream_id: uuid.UUID, version: int) -> list[Published] | None:
    """The moves after ``version`` the slot holds for this game, oldest first; None if the slot
    knows of no move after ``version`` (another game's slot, or nothing newer). Unchecked: the
    caller verifies the chain."""
    memory = _mapped()
    if memory is None:
        return None
    start = _slot(stream_id)
    owner, last, _, _ = SLOT_HEAD.unpack_from(memory, start)
    if owner != stream_id.bytes or last <= version:
        return None
    try:
        return [
            _move(stream_id, block)
            for v, _, block in _spans(memory, start, stream_id)
            if v > version
        ]
    except (struct.error, ValueError, UnicodeDecodeError):
        return []  # torn by a writer: known to be newer, not readable


def linked(previous: str, moves: list[Published]) -> bool:
    """Whether ``moves`` follow the hash ``previous`` one by one, each hash computed anew from
    what the slot holds (games.store's chain hash)."""
    from games import store

    for move in moves:
        if move.previous != previous:
            return False
        if store.hash_of_texts(previous, move, move.data_json, move.meta_json) != move.hash:
            return False
        previous = move.hash
    return True


def _packed(move: Published) -> bytes:
    texts = [move.type, move.data_json, move.meta_json, move.recorded_at.isoformat()]
    encoded = [text.encode() for text in texts]
    head = MOVE_HEAD.pack(
        move.version,
        move.schema_version,
        len(encoded[0]),
        len(encoded[1]),
        len(encoded[2]),
        len(encoded[3]),
        move.id.bytes,
        bytes.fromhex(move.previous),
        bytes.fromhex(move.hash),
    )
    return head + b"".join(encoded)


def _spans(memory: mmap.mmap, start: int, stream_id: uuid.UUID) -> list[tuple[int, str, bytes]]:
    """Each move of the slot at ``start`` if it is this game's: (its version, its hash, its
    bytes); [] if it is not, or if it does not parse (a torn write)."""
    owner, _, length, count = SLOT_HEAD.unpack_from(memory, start)
    if owner != stream_id.bytes or length > SLOT_SIZE - SLOT_HEAD.size:
        return []
    block = memory[start + SLOT_HEAD.size : start + SLOT_HEAD.size + length]
    spans, at = [], 0
    try:
        for _ in range(count):
            version, _, *lengths, _, _, hash = MOVE_HEAD.unpack_from(block, at)
            end = at + MOVE_HEAD.size + sum(lengths)
            if end > length:
                return []
            spans.append((version, hash.hex(), block[at:end]))
            at = end
    except struct.error:
        return []
    return spans


def _move(stream_id: uuid.UUID, block: bytes) -> Published:
    version, schema, *lengths, id, previous, hash = MOVE_HEAD.unpack_from(block, 0)
    texts, at = [], MOVE_HEAD.size
    for length in lengths:
        texts.append(block[at : at + length].decode())
        at += length
    type, data, meta, recorded_at = texts
    return Published(
        stream_id,
        version,
        uuid.UUID(bytes=id),
        type,
        schema,
        data,
        meta,
        datetime.fromisoformat(recorded_at),
        previous.hex(),
        hash.hex(),
    )


def _slot(stream_id: uuid.UUID) -> int:
    return (stream_id.int % SLOTS) * SLOT_SIZE


def _mapped() -> mmap.mmap | None:
    """This process's map of the host's file (made on first use), or None when switched off."""
    if not enabled():
        return None
    if _memory:
        return _memory[0]
    with _lock:
        if not _memory:
            _memory.append(_open())
    return _memory[0]


def _open() -> mmap.mmap | None:
    size = SLOTS * SLOT_SIZE
    try:
        fd = os.open(path(), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            if os.fstat(fd).st_size < size:
                os.ftruncate(fd, size)
            return mmap.mmap(fd, size)
        finally:
            os.close(fd)
    except OSError:
        return None  # no shared memory here: each process keeps to its own heads


def path() -> str:
    """One file per database and user: the processes serving one database share it."""
    db = connections[DEFAULT_DB_ALIAS].settings_dict
    key = f"{db.get('HOST')}|{db.get('PORT')}|{db.get('NAME')}|{os.getuid()}"
    name = f"scarney-heads-{hashlib.sha256(key.encode()).hexdigest()[:16]}"
    folder = "/dev/shm" if os.path.isdir("/dev/shm") else tempfile.gettempdir()
    return os.path.join(folder, name)


def reset() -> None:
    """Forget the map (tests that switch the setting, or a file removed underneath)."""
    with _lock:
        for memory in _memory:
            if memory is not None:
                memory.close()
        _memory.clear()
