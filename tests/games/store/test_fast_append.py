"""The one-statement fast path of event_record and its per-process cache of stream heads."""

from __future__ import annotations

import itertools
import pickle
import random
import uuid
from typing import Any

import pytest
from django.core.management import call_command
from django.db import transaction

from bench import families
from games.play import appending, services
from games.rules.base import Move
from games.store import fast_append, folding, journal
from games.store.models import Event, Stream
from scoring import projections
from scoring.models import BonusAward, GameSummary, PlayerRecord
from scoring.projections import game_summary
from tests.play import random_layout, record

pytestmark = pytest.mark.django_db(transaction=True)


class Rollback(Exception):
    pass


def started_game(seed: int) -> tuple[uuid.UUID, random.Random]:
    rng = random.Random(seed)
    game = services.game_start(kind="scarney-solitaire", seats=[{"name": "Fay"}])
    record(game.pk, random_layout(rng))
    return game.pk, rng


def next_move(game_id: uuid.UUID, rng: random.Random) -> Any:
    folded = folding.load(Stream.objects.get(pk=game_id))
    return rng.choice(folded.engine.rules.legal_events(folded.state))


def test_a_move_in_progress_is_appended_by_the_fast_path_and_projected(
    django_assert_max_num_queries: Any,
) -> None:
    game_id, rng = started_game(1)
    move = next_move(game_id, rng)
    with django_assert_max_num_queries(1):
        recorded = services.event_record(
            stream_id=game_id, event_id=uuid.uuid4(), type=move.type, data=dict(move.data)
        )
    assert recorded.created and recorded.event.position > 0
    summary = GameSummary.objects.get(pk=game_id)
    assert summary.version == 3 == recorded.folded.version
    rules = recorded.folded.engine.rules
    assert summary.scores == [s.as_dict() for s in rules.scores(recorded.folded.state)]
    # The row's snapshot is packed with every SNAPSHOT_EVERY-th event; the events since fold on.
    row = Stream.objects.get(pk=game_id)
    assert 3 - journal.SNAPSHOT_EVERY < row.snapshot_version <= 3
    assert folding.unpack(row) == recorded.folded


def test_a_head_cached_from_a_rolled_back_append_never_corrupts_the_stream() -> None:
    # given a move appended inside a transaction that rolls back: the cache saw it
    game_id, rng = started_game(2)
    move = next_move(game_id, rng)
    with pytest.raises(Rollback), transaction.atomic():
        services.event_record(
            stream_id=game_id, event_id=uuid.uuid4(), type=move.type, data=dict(move.data)
        )
        stale = fast_append._heads[game_id]
        raise Rollback
    # and another move committed at that version (as by another process)
    fast_append.forget(game_id)
    other = next_move(game_id, random.Random(99))
    services.event_record(
        stream_id=game_id, event_id=uuid.uuid4(), type=other.type, data=dict(other.data)
    )
    fast_append.remember(game_id, stale)

    # when the next move is folded onto the stale head
    third = next_move(game_id, rng)
    recorded = services.event_record(
        stream_id=game_id, event_id=uuid.uuid4(), type=third.type, data=dict(third.data)
    )

    # then it lands on the committed history, and every chain still verifies
    assert recorded.event.version == 4
    assert folding.refold(Stream.objects.get(pk=game_id)).state == recorded.folded.state
    call_command("verify_events")
    assert Event.objects.filter(stream_id=game_id).count() == 4


def test_a_stale_expected_version_on_the_fast_path_is_a_conflict() -> None:
    game_id, rng = started_game(3)
    move = next_move(game_id, rng)
    services.event_record(
        stream_id=game_id, event_id=uuid.uuid4(), type=move.type, data=dict(move.data)
    )
    with pytest.raises(journal.VersionConflict) as refused:
        services.event_record(
            stream_id=game_id,
            event_id=uuid.uuid4(),
            type=move.type,
            data=dict(move.data),
            expected_version=2,
        )
    assert refused.value.current_version == 3


def test_the_move_that_ends_a_game_writes_its_bonuses_and_records_in_the_same_statement(
    django_assert_max_num_queries: Any,
) -> None:
    # given the rule book's six-pawn end game, one jump from its end
    position = {"C2": "Y4", "C5": "Y3", "C10": "B2", "C11": "G3", "C14": "B1", "C15": "R4"}
    game = services.game_start(
        kind="scarney-solitaire", seats=[{"name": "Eve"}], setup={"position": position}
    )
    for jump in [(11, 9), (9, 1), (1, 3)]:
        record(game.pk, Move("pawn.jumped", {"from": jump[0], "to": jump[1]}))
    record(game.pk, Move("move.undone", {}))  # leaves a head cached by the locked path
    record(game.pk, Move("pawn.jumped", {"from": 1, "to": 3}))

    # when the last jump is recorded
    with django_assert_max_num_queries(1):
        recorded = services.event_record(
            stream_id=game.pk,
            event_id=uuid.uuid4(),
            type="pawn.jumped",
            data={"from": 14, "to": 16},
        )

    # then the game is over everywhere at once
    assert recorded.status == "finished"
    assert Stream.objects.get(pk=game.pk).status == "finished"
    summary = GameSummary.objects.get(pk=game.pk)
    assert summary.status == "finished" and summary.scores[0]["total"] == 36
    assert summary.rating == "Average game"
    player_id = summary.game.seats.get().player_id
    assert PlayerRecord.objects.get(pk=player_id).best_total == 36
    assert not BonusAward.objects.filter(game_id=game.pk).exists()


def test_a_black_corner_finish_on_the_fast_path_itemises_its_bonus_rows(
    django_assert_max_num_queries: Any,
) -> None:
    game = services.game_start(
        kind="scarney-solitaire",
        seats=[{"name": "Bo"}],
        setup={"position": {"C2": "R1", "C3": "B1", "C8": "B2"}},
    )
    with django_assert_max_num_queries(1):
        recorded = services.event_record(
            stream_id=game.pk, event_id=uuid.uuid4(), type="pawn.jumped", data={"from": 3, "to": 1}
        )
    assert recorded.status == "finished"
    assert GameSummary.objects.get(pk=game.pk).scores[0]["total"] == 37 + 40 + 20
    rows = BonusAward.objects.filter(game_id=game.pk).values_list("kind", "points", "pawns")
    assert sorted(rows) == [("black", 20, ["B2"]), ("black_corner", 40, ["B1"])]


def test_a_head_left_stale_by_another_process_costs_no_locked_path(
    monkeypatch: Any, settings: Any
) -> None:
    settings.SHARED_HEADS = False  # the statement that wrote nothing is what this tests
    # given this process's cached head one move behind the stream (another process moved it)
    game_id, rng = started_game(4)
    first = next_move(game_id, rng)
    services.event_record(
        stream_id=game_id, event_id=uuid.uuid4(), type=first.type, data=dict(first.data)
    )
    stale = fast_append._heads[game_id]
    second = next_move(game_id, rng)
    services.event_record(
        stream_id=game_id, event_id=uuid.uuid4(), type=second.type, data=dict(second.data)
    )
    fast_append.remember(game_id, stale)

    # when a move comes without expected_version, and the locked path is out of reach
    def locked_path(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a stale head must not send the move to the locked path")

    monkeypatch.setattr(appending, "_locked", locked_path)
    third = next_move(game_id, rng)
    recorded = services.event_record(
        stream_id=game_id, event_id=uuid.uuid4(), type=third.type, data=dict(third.data)
    )

    # then the statement that wrote nothing gave the fresh head, and the move landed on it
    assert recorded.created and recorded.event.version == 5
    assert fast_append._heads[game_id].version == 5
    assert folding.refold(Stream.objects.get(pk=game_id)).state == recorded.folded.state


def _move(game_id: uuid.UUID, rng: random.Random) -> appending.Recorded:
    move = next_move(game_id, rng)
    return services.event_record(
        stream_id=game_id, event_id=uuid.uuid4(), type=move.type, data=dict(move.data)
    )


def _no_locked_path(monkeypatch: Any) -> None:
    def locked_path(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the move must not need the locked path")

    monkeypatch.setattr(appending, "_locked", locked_path)


def test_a_head_behind_its_snapshot_is_folded_on_by_a_process_that_never_saw_it(
    monkeypatch: Any,
) -> None:
    # given a stream whose row holds the snapshot of version 4 and two moves since, which this
    # process has not cached (another process made them, or this one started afresh)
    game_id, rng = started_game(5)
    for _ in range(4):
        last = _move(game_id, rng)
    assert last.event.version == 6
    row = Stream.objects.get(pk=game_id)
    assert (row.version, row.snapshot_version) == (6, 4)
    fast_append.forget(game_id)

    # when the next move comes, the locked path out of reach
    _no_locked_path(monkeypatch)
    recorded = _move(game_id, rng)

    # then the head was the snapshot with the two events since folded on, and the move landed
    assert recorded.created and recorded.event.version == 7
    assert folding.refold(Stream.objects.get(pk=game_id)).state == recorded.folded.state


def test_a_stale_head_is_caught_up_from_a_snapshot_behind_the_stream(
    monkeypatch: Any, settings: Any
) -> None:
    settings.SHARED_HEADS = False  # the statement that wrote nothing is what this tests
    # given this process's head at version 4 while the stream went on to 6 (snapshot at 4)
    game_id, rng = started_game(8)
    _move(game_id, rng), _move(game_id, rng)
    stale = fast_append._heads[game_id]
    assert stale.version == 4
    _move(game_id, rng), _move(game_id, rng)
    fast_append.remember(game_id, stale)

    # when a move comes without expected_version, the locked path out of reach
    _no_locked_path(monkeypatch)
    recorded = _move(game_id, rng)

    # then the statement that wrote nothing gave the snapshot and the events since, folded on
    assert recorded.created and recorded.event.version == 7
    assert fast_append._heads[game_id].version == 7
    assert folding.refold(Stream.objects.get(pk=game_id)).state == recorded.folded.state


def test_the_state_from_a_snapshot_behind_the_stream_is_the_refold() -> None:
    game_id, rng = started_game(7)
    for _ in range(3):
        _move(game_id, rng)
    row = Stream.objects.get(pk=game_id)
    assert row.snapshot_version is not None and row.snapshot_version < row.version == 5
    assert folding.unpack(row) == folding.refold(row) == folding.load(row)
    # a snapshot that is not this stream's at its version is never folded on
    Stream.objects.filter(pk=game_id).update(snapshot_version=row.snapshot_version - 1)
    assert folding.unpack(Stream.objects.get(pk=game_id)) is None


@pytest.mark.parametrize("family", [family for family, _, _ in families.FAMILIES])
def test_a_snapshot_is_read_back_by_pickle_itself_for_every_family(family: str) -> None:
    # folding.pack's pickler reduces the slotted dataclasses itself (faster), their state as a
    # tuple where pickle writes a list: the stock __setstate__ must read it back as ever, and
    # the snapshot differ from pickle's own by those opcodes only (same length).
    kind, seats, ruleset = next(f for f in families.FAMILIES if f[0] == family)
    game_id = uuid.uuid4()
    for _, folded in itertools.islice(families.play(kind, seats, ruleset, seed=11), 120):
        own = pickle.dumps((folded.header, folded.state), pickle.HIGHEST_PROTOCOL)
        packed = folding.pack(folded, game_id)
        assert len(packed) <= len(own) + 32
        assert pickle.loads(packed[32:]) == (folded.header, folded.state)
        back = folding.unpack_bytes(game_id, "game", folded.version, packed)
        assert back is not None and back.state == folded.state


def test_a_throw_that_changes_no_score_leaves_the_summarys_scores_and_the_rows_stay_right(
    django_assert_max_num_queries: Any, monkeypatch: Any
) -> None:
    # given a Scarney 3000 game played on the fast path, turns entered between throws
    judged: list[bool] = []
    same_scores = game_summary.same_scores
    monkeypatch.setattr(
        game_summary, "same_scores", lambda *a: judged.append(same_scores(*a)) or judged[-1]
    )
    kind, seats, ruleset = next(f for f in families.FAMILIES if f[0] == "scarney-3000")
    game = services.game_start(
        kind=kind, seats=[{"name": f"K{s}"} for s in range(seats)], ruleset=ruleset
    )
    kept = written = 0
    for type, data in families.moves(kind, seats, ruleset, 150, seed=3):
        before = GameSummary.objects.get(pk=game.pk).scores
        with django_assert_max_num_queries(1):
            recorded = services.event_record(
                stream_id=game.pk, event_id=uuid.uuid4(), type=type, data=data
            )
        after = recorded.folded.scores_json
        summary = GameSummary.objects.get(pk=game.pk)
        # then every move leaves the row's scores equal to its state's, written or kept
        assert summary.scores == after and summary.version == recorded.folded.version
        kept, written = (kept + 1, written) if after == before else (kept, written + 1)
    # and most throws changed no score and sent none (the row kept its own), the turns did
    assert kept > written > 5 and judged.count(True) == kept
    # and the read models equal a re-fold of the events
    assert projections.differences() == []
