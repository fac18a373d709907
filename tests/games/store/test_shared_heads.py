"""The fast path's moves shared by the processes of one host (games.store.shared_heads): a process
behind a game folds the moves it missed from the shared file, and nothing it reads there is
trusted without its chain hash."""

from __future__ import annotations

import random
import uuid
from dataclasses import replace
from typing import Any

import pytest

from games.play import appending, services
from games.store import fast_append, folding, journal, shared_heads
from games.store.journal import statement
from games.store.models import Stream
from tests.play import random_layout, record

pytestmark = pytest.mark.django_db(transaction=True)


def started_game(seed: int) -> tuple[uuid.UUID, random.Random]:
    rng = random.Random(seed)
    game = services.game_start(kind="scarney-solitaire", seats=[{"name": "Gus"}])
    record(game.pk, random_layout(rng))
    return game.pk, rng


def move(game_id: uuid.UUID, rng: random.Random, **extra: Any) -> appending.Recorded:
    folded = folding.load(Stream.objects.get(pk=game_id))
    chosen = rng.choice(folded.engine.rules.legal_events(folded.state))
    return services.event_record(
        stream_id=game_id, event_id=uuid.uuid4(), type=chosen.type, data=dict(chosen.data), **extra
    )


class Statements:
    """Counts the fast path's statements: appends, and head reads."""

    def __init__(self, monkeypatch: Any) -> None:
        self.appends = self.head_reads = 0
        fetch, game_head = statement.fetch_row, journal.game_head

        def counted_fetch(sql: str, params: Any) -> Any:
            self.appends += "INSERT INTO games_event" in sql
            return fetch(sql, params)

        def counted_head(stream_id: uuid.UUID) -> Any:
            self.head_reads += 1
            return game_head(stream_id)

        monkeypatch.setattr(statement, "fetch_row", counted_fetch)
        monkeypatch.setattr(journal, "game_head", counted_head)


def publish(move: shared_heads.Published) -> None:
    shared_heads.publish(move, move.previous)


def behind(game_id: uuid.UUID, rng: random.Random, moves: int) -> fast_append.Head:
    """This process's head left ``moves`` behind the stream, as if another process of the host
    had made them (it published them; this process's cache never saw them)."""
    stale = fast_append._heads[game_id]
    for _ in range(moves):
        move(game_id, rng)
    fast_append.remember(game_id, stale)
    return stale


@pytest.mark.parametrize("missed", [1, 3])
def test_moves_another_process_made_are_folded_on_and_the_move_takes_one_statement(
    monkeypatch: Any, missed: int
) -> None:
    game_id, rng = started_game(1)
    move(game_id, rng)
    stale = behind(game_id, rng, missed)
    counted = Statements(monkeypatch)

    recorded = move(game_id, rng)

    assert recorded.created and recorded.event.version == stale.version + missed + 1
    assert (counted.appends, counted.head_reads) == (1, 0)
    assert recorded.folded.state == folding.refold(Stream.objects.get(pk=game_id)).state


def test_with_expected_version_the_missed_moves_are_folded_on_without_reading_the_head(
    monkeypatch: Any,
) -> None:
    game_id, rng = started_game(2)
    move(game_id, rng)
    behind(game_id, rng, 2)
    counted = Statements(monkeypatch)

    recorded = move(game_id, rng, expected_version=5)

    assert recorded.created and recorded.event.version == 6
    assert (counted.appends, counted.head_reads) == (1, 0)


def test_more_moves_missed_than_a_slot_keeps_means_the_head_is_read(monkeypatch: Any) -> None:
    game_id, rng = started_game(3)
    move(game_id, rng)
    behind(game_id, rng, shared_heads.KEEP + 1)
    counted = Statements(monkeypatch)

    recorded = move(game_id, rng)

    # the head is read (no append that writes nothing), then the move is appended on it
    assert recorded.created and (counted.appends, counted.head_reads) == (1, 1)
    assert recorded.folded.state == folding.refold(Stream.objects.get(pk=game_id)).state


@pytest.mark.parametrize("damage", ["data", "hash", "previous", "torn"])
def test_a_slot_that_does_not_chain_is_never_folded_on(monkeypatch: Any, damage: str) -> None:
    # given a head one move behind, and the slot holding that move altered
    game_id, rng = started_game(4)
    move(game_id, rng)
    stale = behind(game_id, rng, 1)
    (published,) = shared_heads.newer(game_id, stale.version) or []
    if damage == "torn":  # half of one writer's entry over another's
        memory = shared_heads._mapped()
        assert memory is not None
        entry = shared_heads._slot(game_id) + shared_heads.SLOT_HEAD.size
        entry += (published.version % shared_heads.KEEP) * shared_heads.ENTRY_SIZE
        memory[entry + 40 : entry + 120] = bytes(range(80))
    else:
        publish(
            {
                "data": replace(published, data_json='{"circle":16}'),
                "hash": replace(published, hash="0" * 64),
                "previous": replace(published, previous="f" * 64),
            }[damage]
        )
    counted = Statements(monkeypatch)

    recorded = move(game_id, rng)

    # then the move still lands on the stream as it is, by the head read from the database
    assert recorded.created and recorded.event.version == stale.version + 2
    assert (counted.appends, counted.head_reads) == (1, 1)
    assert recorded.folded.state == folding.refold(Stream.objects.get(pk=game_id)).state


def test_a_slot_another_game_took_over_is_not_read(monkeypatch: Any) -> None:
    # given a head one move behind, and its slot since written by another game's move
    game_id, rng = started_game(4)
    move(game_id, rng)
    stale = behind(game_id, rng, 1)
    (published,) = shared_heads.newer(game_id, stale.version) or []
    slots = shared_heads.SLOTS
    other = uuid.UUID(int=(uuid.uuid4().int // slots) * slots + game_id.int % slots)
    publish(replace(published, stream_id=other))
    assert shared_heads.newer(game_id, 0) is None
    counted = Statements(monkeypatch)

    recorded = move(game_id, rng)

    # then the stale head is found out by the database, as without sharing: the statement that
    # writes nothing, or the head read when the stale head refuses the move
    assert recorded.created and recorded.event.version == stale.version + 2
    assert counted.appends + counted.head_reads == 2
    assert recorded.folded.state == folding.refold(Stream.objects.get(pk=game_id)).state


def test_a_move_inside_a_callers_transaction_is_not_shared() -> None:
    from django.db import transaction

    game_id, rng = started_game(5)
    move(game_id, rng)
    version = fast_append._heads[game_id].version
    with transaction.atomic():
        inside = move(game_id, rng)
    assert inside.event.version == version + 1
    assert shared_heads.newer(game_id, version) is None


def test_a_slot_keeps_the_last_moves_of_its_game() -> None:
    game_id, rng = started_game(1)
    for _ in range(shared_heads.KEEP + 1):
        last = move(game_id, rng)
    version, keep = last.event.version, shared_heads.KEEP
    kept = shared_heads.newer(game_id, version - keep) or []
    assert [m.version for m in kept] == list(range(version - keep + 1, version + 1))
    assert kept[-1].hash == last.event.hash and shared_heads.linked(kept[0].previous, kept)
    # one move more behind: known to be behind, the moves missed not all there
    assert shared_heads.newer(game_id, version - keep - 1) == []
    # at the head: nothing newer
    assert shared_heads.newer(game_id, version) is None


def test_a_move_too_large_for_an_entry_is_not_shared() -> None:
    game_id, rng = started_game(2)
    last = move(game_id, rng)
    (shared,) = shared_heads.newer(game_id, last.event.version - 1) or []
    publish(replace(shared, version=shared.version + 1, data_json="[" + "1," * 400 + "1]"))
    assert shared_heads.newer(game_id, last.event.version) == []


def test_switched_off_nothing_is_shared(settings: Any) -> None:
    settings.SHARED_HEADS = False
    game_id, rng = started_game(7)
    move(game_id, rng)
    assert shared_heads.newer(game_id, 0) is None


ANOTHER_PROCESS = """
import os, random, sys, uuid
import django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scarney_site.settings")
django.setup()
from games.store import folding
from games.play import services
from games.store.models import Stream
game, rng = uuid.UUID(sys.argv[1]), random.Random(int(sys.argv[2]))
for _ in range(int(sys.argv[3])):
    folded = folding.load(Stream.objects.get(pk=game))
    move = rng.choice(folded.engine.rules.legal_events(folded.state))
    services.event_record(
        stream_id=game, event_id=uuid.uuid4(), type=move.type, data=dict(move.data)
    )
"""


def test_moves_a_real_other_process_appended_are_read_from_the_shared_file(
    monkeypatch: Any,
) -> None:
    import os
    import subprocess
    import sys

    from django.db import connection

    # given this process's head of a game, then two moves appended by another process
    game_id, rng = started_game(8)
    before = move(game_id, rng).event.version
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    other = subprocess.run(
        [sys.executable, "-c", ANOTHER_PROCESS, str(game_id), "3", "2"],
        env={**os.environ, "DATABASE_URL": url},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert other.returncode == 0, other.stderr
    assert Stream.objects.get(pk=game_id).version == before + 2
    counted = Statements(monkeypatch)

    # when this process records the next move
    recorded = move(game_id, rng)

    # then it folded on the other process's moves from the shared file: one statement
    assert recorded.created and recorded.event.version == before + 3
    assert (counted.appends, counted.head_reads) == (1, 0)
    assert recorded.folded.state == folding.refold(Stream.objects.get(pk=game_id)).state


def test_without_room_in_shared_memory_each_process_keeps_to_its_own_heads(
    monkeypatch: Any,
) -> None:
    import errno
    import os

    def full(*args: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    # given a host whose /dev/shm has no room for the file
    shared_heads.reset()
    monkeypatch.setattr(os, "posix_fallocate", full)
    try:
        game_id, rng = started_game(9)
        # then moves are recorded as without sharing, and nothing is shared
        assert move(game_id, rng).created and move(game_id, rng).created
        assert shared_heads._mapped() is None and shared_heads.newer(game_id, 0) is None
    finally:
        shared_heads.reset()  # the next test maps the file again
