"""The conformance test of STYLE.md for the Straight Scarney Dice games, through the services.

Seeded random throws, double-downs, Opposite calls, stands and take-backs play standalone games,
live one-game matches and sheet matches to the end: a legal event is never refused, chips are
conserved after every event (nets + balance = 0), take-backs restore the exact prior state,
replay equals the stored state and the projections' rebuild equals the inline rows.
"""

from __future__ import annotations

import json
import random
import uuid
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.play import services
from games.rules.base import Move
from games.store import folding
from games.store.models import Match, Stream
from scoring.models import GameSummary
from tests.conformance import assert_rebuild_equal, assert_replays, record

pytestmark = pytest.mark.django_db

SCARNEY_FACES = ["1", "3", "4", "6", "D", "D"]  # a fair die: D on two faces
FIXTURE = Path(__file__).parents[3] / "fixtures" / "sheet_straight_dice_b5.json"
RANDOM = settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def next_move(state: Any, rules: Any, rng: random.Random) -> Move:
    """A random legal event: what the table might record next."""
    dice = rules.view(state)["dice"]
    expected = rules.expected(state)
    if "shooter.stood" in expected and rng.random() < 0.5:
        return Move("shooter.stood", {})
    if "double_down.called" in expected and rng.random() < 0.15:
        return Move("double_down.called", {})
    faces = [rng.choice(SCARNEY_FACES) for _ in range(dice["in_cup"])]
    data: dict[str, Any] = {"faces": faces}
    if dice.get("may_call_opposite") and rng.random() < 0.4:
        data["opposite"] = True
    return Move("dice.thrown", data)


def assert_chips_conserved(state: Any, rules: Any) -> None:
    pot = rules.view(state)["pot"]
    assert pot["balance"] >= 0 and sum(pot["nets"]) + pot["balance"] == 0
    assert sum(m["chips"] for m in rules.pot_ledger(state)) == pot["balance"]


def play_out(game_id: uuid.UUID, rng: random.Random) -> tuple[Any, int]:
    """Random legal events to the end of the game, with some take-backs; the events recorded."""
    folded = folding.load(Stream.objects.get(pk=game_id))
    rules = folded.engine.rules
    count = 0
    while not rules.is_terminal(folded.state):
        assert rules.legal_events(folded.state) is None
        before = folded.state
        folded = record(game_id, next_move(folded.state, rules, rng))
        assert_chips_conserved(folded.state, rules)
        count += 1
        if rng.random() < 0.04:
            folded = record(game_id, Move("move.undone", {"reason": "test"}))
            assert folded.state == before
            count += 1
    assert rules.expected(folded.state) == [] and rules.legal_events(folded.state) == []
    return folded, count


def assert_finished_game(game_id: uuid.UUID, folded: Any) -> None:
    rules = folded.engine.rules
    state = folded.state
    result = rules.result(state)
    assert result is not None and result.winners
    frames = rules.match_report(state)["frames"]
    assert [s.total for s in result.scores] == [sum(row) for row in frames]
    if state.big_scarney is None:
        # seven frames each, and the winning side strictly ahead of every other side
        assert all(len(row) >= 7 for row in frames)
        side_totals = {side: sum(frames_sum(frames, side)) for side in state.sides}
        winning = next(side for side in state.sides if set(side) == set(result.winners))
        assert all(total < side_totals[winning] for side, total in side_totals.items()
                   if side != winning)  # fmt: skip
    pot = rules.view(state)["pot"]
    if getattr(state.ruleset, "partnership_odd_chips", "") != "carry_over":
        assert pot["balance"] == 0
    losers = [seat for seat in range(state.seats) if seat not in result.winners]
    assert all(pot["nets"][seat] < 0 for seat in losers)
    assert_replays(game_id, folded)
    summary = GameSummary.objects.get(pk=game_id)
    assert summary.status == "finished"
    assert [row["total"] for row in summary.scores] == [s.total for s in result.scores]


def frames_sum(frames: list[list[int]], side: tuple[int, ...]) -> list[int]:
    return [sum(frames[seat]) for seat in side]


@RANDOM
@given(seed=st.integers(min_value=0, max_value=2**32), seats=st.integers(2, 4))
def test_random_straight_games_play_to_the_end_conserving_chips(seed: int, seats: int) -> None:
    rng = random.Random(seed)
    setup = {"seating_throws": True} if rng.random() < 0.5 else {}
    game = services.game_start(
        kind="straight-scarney-dice",
        seats=[{"name": f"S{seed % 5}-{i}"} for i in range(seats)],
        ruleset={"ante_chips": rng.randint(1, 3)},
        setup=setup,
    )
    folded, _ = play_out(game.pk, rng)
    assert_finished_game(game.pk, folded)


@RANDOM
@given(seed=st.integers(min_value=0, max_value=2**32), seats=st.sampled_from([4, 6]))
def test_random_partnership_games_play_to_the_end_conserving_chips(seed: int, seats: int) -> None:
    rng = random.Random(seed)
    setup = {"partner_throws": True} if rng.random() < 0.5 else {}
    odd = rng.choice(["by_individual_score", "carry_over"])
    game = services.game_start(
        kind="partnership-straight-scarney-dice",
        seats=[{"name": f"P{seed % 5}-{i}"} for i in range(seats)],
        ruleset={"partnership_odd_chips": odd},
        setup=setup,
    )
    folded, _ = play_out(game.pk, rng)
    assert_finished_game(game.pk, folded)


@pytest.mark.parametrize(
    ("kind", "seats", "teams"),
    [
        ("straight-scarney-dice", 3, []),
        ("partnership-straight-scarney-dice", 4, [[1, 3], [0, 2]]),
        ("partnership-straight-scarney-dice", 6, []),
    ],
)
def test_a_live_match_of_one_game_is_settled_by_its_pot(
    kind: str, seats: int, teams: list[list[int]], django_capture_on_commit_callbacks: Any
) -> None:
    rng = random.Random(seats * 101)
    match = services.match_start(
        format=kind,
        players=[{"name": f"M{i}"} for i in range(seats)],
        teams=teams,
        ruleset={"ante_chips": 2},
    )
    game = services.game_start(kind=kind, seats=None, match_id=match.pk)
    with django_capture_on_commit_callbacks(execute=True):
        folded, _ = play_out(game.pk, rng)
    state = folded.state
    if teams:
        assert [list(side) for side in state.sides] == [[0, 2], [1, 3]]
    stream = Stream.objects.get(pk=match.pk)
    assert stream.status == "settled"
    settled = assert_replays(match.pk)
    settlement = settled.state.settlement
    assert settlement["nets"] == folded.engine.rules.view(state)["pot"]["nets"]
    assert sum(settlement["nets"]) == 0
    winners = {row["seat"] for row in settled.engine.rules.standing(settled.state)
               if row["rank"] == 1}  # fmt: skip
    assert winners == set(state.winners)
    assert all(p["to"] in winners for p in settlement["payments"]) or len(winners) > 1
    assert_replays(game.pk, folded)
    assert_rebuild_equal()


@pytest.mark.parametrize("mode", ["strict", "lenient"])
def test_sheet_b5_through_the_services_settles_c_plus_3(
    mode: str, django_capture_on_commit_callbacks: Any
) -> None:
    fixture = json.loads(FIXTURE.read_text())
    match = services.match_start(
        format="straight-scarney-dice",
        players=[{"name": name} for name in fixture["players"]],
        ruleset={**fixture["ruleset"], "sheet_entry_validation": mode},
        entry="sheet",
    )
    with django_capture_on_commit_callbacks(execute=True):
        record(match.pk, Move("game.scored", fixture["entry"]))
    assert Match.objects.get(pk=match.pk).stream.status == "settled"
    folded = assert_replays(match.pk)
    settlement = folded.state.settlement
    assert settlement["nets"] == fixture["expected"]["nets"]
    assert settlement["payments"] == fixture["expected"]["payments"]
    assert_rebuild_equal()


def test_many_seeded_games_then_the_rebuild_equals_the_inline_rows() -> None:
    rng = random.Random(7)
    events = 0
    for number in range(12):
        kind = "partnership-straight-scarney-dice" if number % 3 == 0 else "straight-scarney-dice"
        seats = rng.choice([4, 6]) if number % 3 == 0 else rng.randint(2, 5)
        game = services.game_start(
            kind=kind, seats=[{"name": f"R{(number + i) % 8}"} for i in range(seats)]
        )
        folded, count = play_out(game.pk, rng)
        events += count
        assert_finished_game(game.pk, folded)
    assert events > 500
    assert_rebuild_equal()
