"""The last moves of each game, shared by the web processes of one host.

The fast path keeps each process's heads (games.store.fast_append). When a game's moves reach
several processes, as they do behind a load balancer or when a table's device reconnects, a
process's
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

A slot holds its game's last ``KEEP`` moves: ``SLOT_HEAD`` (the game's id and the version of its
last move), then ``KEEP`` entries of ``ENTRY_SIZE`` bytes, the move of version v in entry v % KEEP,
so that a writer writes its own entry and the head, and reads nothing. An entry is its length,
``MOVE_HEAD`` (version, schema version, the lengths of its type, data, meta and time, its id, the
hash before it and its own hash) and those four texts; a move too large for an entry is written
as an empty one (a reader then reads the head from the database).
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
from typing import Any, Protocol

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections

from games.store import journal

SLOTS = 2048
SLOT_SIZE = 2048
KEEP = 4
SLOT_HEAD = struct.Struct("<16sI12x")
ENTRY_SIZE = (SLOT_SIZE - SLOT_HEAD.size) // KEEP
ENTRY_LENGTH = struct.Struct("<H")
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


class Shareable(journal.Chained, Protocol):
    """A move as appended (a journal.Draft) or as read from a slot (Published)."""

    @property
    def data_json(self) -> str: ...
    @property
    def meta_json(self) -> str: ...
    @property
    def hash(self) -> str: ...


def publish(move: Shareable, previous: str) -> None:
    """Write ``move``, appended after the hash ``previous``, into its game's slot."""
    memory = _mapped()
    if memory is None:
        return
    texts = [
        move.type.encode(),
        move.data_json.encode(),
        move.meta_json.encode(),
        move.recorded_at.isoformat().encode(),
    ]
    entry = MOVE_HEAD.pack(
        move.version,
        move.schema_version,
        *map(len, texts),
        move.id.bytes,
        bytes.fromhex(previous),
        bytes.fromhex(move.hash),
    ) + b"".join(texts)
    if len(entry) + ENTRY_LENGTH.size > ENTRY_SIZE:
        entry = b""  # too large to share: readers find the entry empty
    start = _slot(move.stream_id)
    at = start + SLOT_HEAD.size + (move.version % KEEP) * ENTRY_SIZE
    memory[at : at + ENTRY_LENGTH.size + len(entry)] = ENTRY_LENGTH.pack(len(entry)) + entry
    memory[start : start + SLOT_HEAD.size] = SLOT_HEAD.pack(move.stream_id.bytes, move.version)


def newer(stream_id: uuid.UUID, version: int) -> list[Published] | None:
    """The moves after ``version`` the slot holds for this game, oldest first; None if the slot
    knows of no move after ``version`` (another game's slot, or nothing newer); [] if it knows
    of one but not of them all. Unchecked: the caller verifies the chain."""
    memory = _mapped()
    if memory is None:
        return None
    start = _slot(stream_id)
    owner, last = SLOT_HEAD.unpack_from(memory, start)
    if owner != stream_id.bytes or last <= version:
        return None
    if last - version > KEEP:
        return []
    moves = []
    try:
        for wanted in range(version + 1, last + 1):
            at = start + SLOT_HEAD.size + (wanted % KEEP) * ENTRY_SIZE
            (length,) = ENTRY_LENGTH.unpack_from(memory, at)
            move = _move(
                stream_id, memory[at + ENTRY_LENGTH.size : at + ENTRY_LENGTH.size + length]
            )
            if move.version != wanted:
                return []  # overwritten, or torn by a writer
            moves.append(move)
    except (struct.error, ValueError, UnicodeDecodeError):
        return []
    return moves


def linked(previous: str, moves: list[Published]) -> bool:
    """Whether ``moves`` follow the hash ``previous`` one by one, each hash computed anew from
    what the slot holds (games.store.journal's chain hash)."""
    for move in moves:
        if move.previous != previous:
            return False
        if journal.hash_of_texts(previous, move, move.data_json, move.meta_json) != move.hash:
            return False
        previous = move.hash
    return True


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
            # Every page allocated now: a write to a page of a sparse file on a full tmpfs is
            # a SIGBUS that kills the process; a file that cannot be had whole is not used.
            os.posix_fallocate(fd, 0, size)
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
