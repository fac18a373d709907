"""Hearts Due and Double Cameroon matches through the services, on PostgreSQL: a finished sheet
entered to ``match.settled`` (RULES.md 0.6, 0.8: winner and totals only, nothing paid), a live
match played to its settlement, and the projections' rebuild equal to the inline rows."""

from __future__ import annotations

import random
import uuid
from typing import Any

import pytest

from games.play import services
from games.rules.base import Move
from games.rules.errors import IllegalEvent
from games.store import folding
from games.store.models import Event, Stream
from scoring.models import MatchStanding
from tests.conformance import assert_rebuild_equal, assert_replays, record
from tests.games.rules.dice_games.test_double_cameroon_match import BEST, POOR
from tests.games.rules.dice_games.test_double_cameroon_match import random_move as cameroon_move

pytestmark = pytest.mark.django_db


def players(prefix: str, count: int) -> list[dict[str, str]]:
    return [{"name": f"{prefix}{i}"} for i in range(count)]


def assert_settled_with_nothing_paid(match_id: uuid.UUID, game_event: str, seats: int) -> Any:
    stream = Stream.objects.get(pk=match_id)
    assert stream.status == "settled"
    types = Event.objects.filter(stream=stream).order_by("version").values_list("type", flat=True)
    assert list(types) == ["match.started", game_event, "match.settled"]
    settled = Event.objects.get(stream=stream, type="match.settled").data
    assert settled == {"payments": [], "nets": [0] * seats}
    return assert_replays(match_id)


def standing_totals(match_id: uuid.UUID) -> list[tuple[int, int, int]]:
    folded = folding.load(Stream.objects.get(pk=match_id))
    rows = folded.engine.rules.standing(folded.state)
    return [(row["seat"], row["total"], row["rank"]) for row in rows]


# --- sheets -------------------------------------------------------------------------------------


def test_a_hearts_due_sheet_is_entered_to_its_settlement(
    django_capture_on_commit_callbacks: Any,
) -> None:
    match = services.match_start(
        format="hearts-due",
        players=players("HS", 3),
        ruleset={"hearts_due_target": 50},
        entry="sheet",
    )
    rolls = [[35, 10, 0], [10, "reset", 15], [15, 25, 10], [None, None, None]]
    with pytest.raises(IllegalEvent) as refused:
        record(match.pk, Move("game.scored", {"rolls": rolls, "scores": [55, 25, 20]}))
    assert refused.value.code == "sheet.total_mismatch"
    with pytest.raises(IllegalEvent) as impossible:
        record(match.pk, Move("game.scored", {"rolls": [[35, 12, 0], *rolls[1:]]}))
    assert impossible.value.code == "score.unattainable"
    with django_capture_on_commit_callbacks(execute=True):
        record(match.pk, Move("game.scored", {"rolls": rolls, "scores": [60, 25, 25]}))
    folded = assert_settled_with_nothing_paid(match.pk, "game.scored", 3)
    assert folded.state.entries[0].winners == (0,)
    assert standing_totals(match.pk) == [(0, 60, 1), (1, 25, 2), (2, 25, 2)]
    assert MatchStanding.objects.filter(match=match.pk).exists()
    assert_rebuild_equal()


def test_a_double_cameroon_sheet_is_entered_to_its_settlement(
    django_capture_on_commit_callbacks: Any,
) -> None:
    match = services.match_start(format="double-cameroon", players=players("DS", 2), entry="sheet")
    with pytest.raises(IllegalEvent) as refused:
        record(match.pk, Move("game.scored", {"boxes": [BEST, {**POOR, "sixes": 7}]}))
    assert refused.value.code == "score.unattainable"
    with django_capture_on_commit_callbacks(execute=True):
        record(match.pk, Move("game.scored", {"boxes": [BEST, POOR], "scores": [178, 62]}))
    folded = assert_settled_with_nothing_paid(match.pk, "game.scored", 2)
    assert folded.state.entries[0].winners == (0,)
    assert standing_totals(match.pk) == [(0, 178, 1), (1, 62, 2)]
    assert_rebuild_equal()


def test_a_lenient_double_cameroon_sheet_settles_with_its_warning(
    django_capture_on_commit_callbacks: Any,
) -> None:
    match = services.match_start(
        format="double-cameroon",
        players=players("DL", 2),
        ruleset={"sheet_entry_validation": "lenient"},
        entry="sheet",
    )
    with django_capture_on_commit_callbacks(execute=True):
        folded = record(match.pk, Move("game.scored", {"boxes": [POOR, {**POOR, "aces": 7}]}))
    warnings = folded.engine.rules.warnings(folded.state)
    assert [w["code"] for w in warnings] == ["score.unattainable"]
    folded = assert_settled_with_nothing_paid(match.pk, "game.scored", 2)
    assert folded.state.entries[0].winners == (1,)
    assert_rebuild_equal()


# --- live matches -------------------------------------------------------------------------------


def play(game_id: uuid.UUID, next_move: Any, rng: random.Random) -> folding.Folded:
    folded = folding.load(Stream.objects.get(pk=game_id))
    rules = folded.engine.rules
    while not rules.is_terminal(folded.state):
        folded = record(game_id, next_move(folded.state, rng))
    return folded


def hearts_move(state: Any, rng: random.Random) -> Move:
    return Move("dice.thrown", {"faces": [str(rng.randint(1, 6)) for _ in range(6)]})


@pytest.mark.parametrize("seed", [1, 2])
def test_a_live_hearts_due_match_is_played_to_its_settlement(
    seed: int, django_capture_on_commit_callbacks: Any
) -> None:
    rng = random.Random(seed)
    ruleset = {"hearts_due_target": 40, "hearts_due_equal_turns": seed == 1}
    match = services.match_start(
        format="hearts-due", players=players(f"HL{seed}", 3), ruleset=ruleset
    )
    game = services.game_start(kind="hearts-due", seats=None, match_id=match.pk)
    game_header = folding.load(game.stream).header
    assert game_header["ruleset"]["hearts_due_target"] == 40
    assert "sheet_entry_validation" not in game_header["ruleset"]
    with django_capture_on_commit_callbacks(execute=True):
        folded = play(game.pk, hearts_move, rng)
    settled = assert_settled_with_nothing_paid(match.pk, "game.finished", 3)
    assert settled.state.entries[0].scores == folded.state.totals
    assert settled.state.entries[0].winners == folded.state.winners
    assert max(folded.state.totals) >= 40
    assert standing_totals(match.pk)[0][:2] == (
        folded.state.winners[0],
        max(folded.state.totals),
    )
    assert_rebuild_equal()


def test_a_live_double_cameroon_match_is_played_to_its_settlement(
    django_capture_on_commit_callbacks: Any,
) -> None:
    rng = random.Random(5)
    ruleset = {"cameroon_kept_dice_locked": True}
    match = services.match_start(
        format="double-cameroon", players=players("DL", 2), ruleset=ruleset
    )
    game = services.game_start(kind="double-cameroon", seats=None, match_id=match.pk)
    assert folding.load(game.stream).header["ruleset"]["cameroon_kept_dice_locked"] is True
    with django_capture_on_commit_callbacks(execute=True):
        folded = play(game.pk, cameroon_move, rng)
    settled = assert_settled_with_nothing_paid(match.pk, "game.finished", 2)
    totals = tuple(s.total for s in folded.engine.rules.scores(folded.state))
    assert settled.state.entries[0].scores == totals
    best = max(totals)
    assert settled.state.entries[0].winners == tuple(
        seat for seat, total in enumerate(totals) if total == best
    )
    assert [row[1] for row in standing_totals(match.pk)] == sorted(totals, reverse=True)
    assert_rebuild_equal()
