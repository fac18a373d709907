"""Past snapshots: a state of the past folds on from the last snapshot kept before it.

Every journal.KEEP_EVERY versions the snapshot written with the event is kept apart, by the fast
statement and by the locked path alike, so that a retry of an old move (its original answer) and
``?at_version=`` fold at most KEEP_EVERY - 1 events, however long the game.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from games.demo import sample_tables
from games.play import appending, services
from games.play.representation import game_json
from games.store import folding, journal
from games.store.models import PastSnapshot, Stream

pytestmark = pytest.mark.django_db(transaction=True)

# Hearts Due with a target out of reach: a game as long as the test wants.
LONG = {"hearts_due_target": 10_000_000}


def long_game() -> uuid.UUID:
    seats = [{"name": name} for name in ("Ann", "Bob", "Cy")]
    return services.game_start(kind="hearts-due", seats=seats, ruleset=LONG).pk


def play(game_id: uuid.UUID, moves: int, rng: random.Random) -> list[tuple[Any, ...]]:
    """Record ``moves`` random legal moves; (event id, type, data, answer) of each."""
    made = []
    folded = folding.load(Stream.objects.get(pk=game_id))
    for _ in range(moves):
        move = sample_tables.next_move(folded, rng)
        assert move is not None
        event_id = uuid.uuid4()
        recorded = services.event_record(
            stream_id=game_id, event_id=event_id, type=move[0], data=move[1]
        )
        folded = recorded.folded
        made.append((event_id, move[0], move[1], answer(game_id, recorded)))
    return made


def answer(game_id: uuid.UUID, recorded: appending.Recorded) -> dict[str, Any]:
    return game_json(recorded.folded, stream_id=game_id, status=recorded.status)


def take_back(game_id: uuid.UUID) -> None:
    services.event_record(
        stream_id=game_id, event_id=uuid.uuid4(), type="move.undone", data={"reason": "misread"}
    )


def counting_events(monkeypatch: Any) -> list[int]:
    """Patch journal.stream_events to count the events it yields (one entry per call)."""
    calls: list[int] = []
    original = journal.stream_events

    def counted(*args: Any, **kwargs: Any) -> Iterator[journal.StoredEvent]:
        calls.append(0)
        for event in original(*args, **kwargs):
            calls[-1] += 1
            yield event

    monkeypatch.setattr(journal, "stream_events", counted)
    return calls


def test_every_kept_version_has_its_snapshot_whichever_path_wrote_it() -> None:
    # given 150 moves, one of them a take-back (the locked path) in the first 64 versions
    game_id = long_game()
    rng = random.Random(1)
    play(game_id, 20, rng)
    take_back(game_id)
    play(game_id, 129, rng)
    # then the snapshots of versions 64 and 128 are kept, each the state refolded at its version
    kept = PastSnapshot.objects.filter(stream_id=game_id).order_by("version")
    assert [row.version for row in kept] == [journal.KEEP_EVERY, 2 * journal.KEEP_EVERY]
    stream = Stream.objects.get(pk=game_id)
    for row in kept:
        unpacked = folding.unpack_bytes(game_id, "game", row.version, bytes(row.snapshot))
        assert unpacked is not None
        assert unpacked.state == folding.refold(stream, upto=row.version).state


def test_a_retry_of_an_old_move_gets_its_original_answer_from_the_kept_snapshot(
    monkeypatch: Any,
) -> None:
    # given a game of 150 moves; the move that made version 100 is sent again
    game_id = long_game()
    made = play(game_id, 150, random.Random(2))
    event_id, type, data, original = made[98]  # version 100: the start is version 1
    assert original["version"] == 100
    calls = counting_events(monkeypatch)
    # when the retry arrives
    again = services.event_record(stream_id=game_id, event_id=event_id, type=type, data=data)
    # then it writes nothing and answers the original answer, folding only versions 65..100
    assert not again.created
    assert answer(game_id, again) == original
    assert calls == [100 - journal.KEEP_EVERY]


def test_a_past_state_after_a_take_back_past_the_kept_snapshot_is_folded_from_the_start() -> None:
    # given versions 1..70, then a take-back (version 71) that pops the move of version 70
    game_id = long_game()
    rng = random.Random(3)
    play(game_id, 69, rng)
    take_back(game_id)
    play(game_id, 5, rng)
    stream = Stream.objects.get(pk=game_id)
    # then the state at any version equals the refold from the start
    for version in (63, 64, 65, 71, 72, 76):
        assert folding.load(stream, at_version=version).state == (
            folding.refold(stream, upto=version).state
        ), version


def test_a_kept_snapshot_not_made_here_is_ignored(monkeypatch: Any) -> None:
    # given a kept snapshot overwritten by someone with the database's rights only
    game_id = long_game()
    play(game_id, 70, random.Random(4))
    PastSnapshot.objects.filter(stream_id=game_id).update(snapshot=b"\0" * 40 + b"not a pickle")
    stream = Stream.objects.get(pk=game_id)
    calls = counting_events(monkeypatch)
    # when a past state is asked for, then it is folded from the events, all of them
    assert folding.load(stream, at_version=68).state == folding.refold(stream, upto=68).state
    assert calls[0] == 68
