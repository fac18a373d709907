"""Scarney 3000 (RULES.md 9): throws, the bonus table, confirmation, the 200 minimum, the end.

Every worked value of section 9 is a test vector; every refusal code and every decision
D-3000-* has a test; the 3,125 five-dice throws are evaluated and counted against figures
derived here by counting, not by the engine. The match format (one game a match, settlement
per RULES.md 0.8) and the sheet of Appendix B.4 close the file.
"""

from __future__ import annotations

import json
import math
import pickle
import random
import uuid
from collections import Counter
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import registry
from games.rules.base import Move, fold, make_ruleset
from games.rules.errors import BadRuleset, BadSetup, IllegalEvent
from games.rules.registry import match_rules
from games.rules.scarney_3000 import view
from games.rules.scarney_3000.play import (
    MAY_STAND,
    MUST_THROW,
    OVER,
    State,
    award_rows,
    totals,
)
from games.rules.scarney_3000.throws import BUST, SCORED, UNCONFIRMED, Ruleset, evaluate

RULES: Any = registry.get("scarney-3000")
MATCH: Any = match_rules("scarney-3000")
FIXTURE = Path(__file__).parents[3] / "fixtures" / "sheet_scarney_3000_b4.json"
STAND = Move("shooter.stood", {})
NO_SCORE_5 = ("1", "1", "3", "3", "4")  # five dice, no dead die, no three of a number


def start(seats: int = 2, **house_rules: Any) -> State:
    state: State = RULES.initial_state({}, make_ruleset(Ruleset, house_rules), seats)
    return state


def thrown(*faces: str, **extra: Any) -> Move:
    return Move("dice.thrown", {"faces": list(faces), **extra})


def throw(text: str) -> Move:
    return thrown(*text.split())


def play(state: State, *moves: Move) -> State:
    for move in moves:
        state = RULES.apply(state, move)
    return state


def refusal(state: State, move: Move) -> IllegalEvent:
    with pytest.raises(IllegalEvent) as refused:
        RULES.apply(state, move)
    return refused.value


def scoring_turn(points: int) -> list[Move]:
    """Single dead dice, 50 a throw, then a stand: a turn worth ``points`` (a multiple of 50)."""
    moves, cup = [], 5
    for _ in range(points // 50):
        moves.append(thrown("D", *"1346"[: cup - 1]))
        cup = cup - 1 or 5
    return [*moves, STAND]


def turns(state: State, *scores: int) -> State:
    """Play whole turns in order: 0 is a bust on the first throw."""
    for score in scores:
        state = play(state, *(scoring_turn(score) if score else [thrown(*NO_SCORE_5)]))
    return state


# --- the worked example of 9.3 -------------------------------------------------------------------


def test_the_worked_example_reaches_200_and_may_stand() -> None:
    # given / when: D 3 4 6 6, then D 3 6 6, then D D 6 (RULES.md 9.3)
    first = play(start(), throw("D 3 4 6 6"))
    second = play(first, throw("D 3 6 6"))
    third = play(second, throw("D D 6"))
    # then
    assert (first.banked, first.in_cup, first.phase) == (50, 4, MUST_THROW)
    assert (second.banked, second.in_cup, second.phase) == (100, 3, MUST_THROW)
    assert (third.banked, third.in_cup, third.phase) == (200, 1, MAY_STAND)
    assert RULES.expected(third) == ["dice.thrown", "shooter.stood"]
    assert RULES.view(third)["dice"]["set_aside"] == ["D", "D", "D", "D"]


def test_the_worked_example_hit_that_is_not_dead_busts_the_turn() -> None:
    state = play(start(), throw("D 3 4 6 6"), throw("D 3 6 6"), throw("D D 6"), throw("4"))
    assert state.shooter == 1 and state.turns[-1].score == 0
    assert RULES.scores(state)[0].total == 0
    last = RULES.view(state)["dice"]["last_turn"]
    assert last["seat"] == 0 and last["score"] == 0
    assert [t["faces"] for t in last["throws"]] == [
        ["D", "3", "4", "6", "6"],
        ["D", "3", "6", "6"],
        ["D", "D", "6"],
        ["4"],
    ]
    assert [t["turn_points"] for t in last["throws"]] == [50, 100, 200, 0]
    assert last["throws"][-1]["outcome"] == BUST


def test_the_worked_example_hit_that_is_dead_makes_250_with_all_five_dice_back() -> None:
    state = play(start(), throw("D 3 4 6 6"), throw("D 3 6 6"), throw("D D 6"), throw("D"))
    assert (state.banked, state.in_cup, state.phase) == (250, 5, MAY_STAND)
    assert RULES.view(state)["dice"]["set_aside"] == []
    stood = play(state, STAND)
    assert RULES.scores(stood)[0].total == 250 and stood.shooter == 1
    hit = play(state, throw("D 1 3 4 6"))
    assert (hit.banked, hit.in_cup) == (300, 4)


def test_the_view_itemises_every_throw_of_the_turn() -> None:
    state = play(start(), throw("6 6 6 1 3"), throw("D 4"))
    dice = RULES.view(state)["dice"]
    assert dice["shooter"] == 0 and dice["in_cup"] == 1 and dice["may_stand"] is True
    assert dice["turn_points"] == 950 and dice["pending"] == 0
    first, second = dice["throws"]
    assert first["outcome"] == UNCONFIRMED and first["points"] == 0 and first["pending"] == 900
    assert first["number_bonus"] == {
        "hand": "three 6s",
        "faces": ["6", "6", "6"],
        "points": 900,
        "status": "pending",
    }
    assert first["numbers"] == {"faces": ["1", "3"], "points": 0}
    assert second["dead_dice"] == {"count": 1, "points": 50, "bonus": False}
    assert second["confirmation"] == 900 and second["points"] == 950
    assert second["turn_points"] == 950 and second["pending"] == 0


# --- all 3,125 five-dice throws ------------------------------------------------------------------


def test_every_five_dice_throw_is_evaluated_as_9_3_says() -> None:
    # given: every ordered throw of five dice over the five faces
    outcomes: Counter[str] = Counter()
    confirmed_points = pending_points = 0
    by_dead: Counter[int] = Counter()
    for faces in product("1346D", repeat=5):
        result = evaluate(faces)
        outcomes[result.outcome] += 1
        by_dead[faces.count("D")] += 1
        confirmed_points += result.points
        pending_points += result.bonus_points if result.outcome == UNCONFIRMED else 0
        in_cup = 5 - len(result.scoring_faces)
        assert in_cup == 5 - faces.count("D") - result.bonus_dice
    # then: counts derived by counting, independently of the engine
    c = math.comb
    numbers_only = 4**5
    with_a_number_bonus = 4 * (c(5, 3) * 3**2 + c(5, 4) * 3 + 1)  # no overlap on five dice
    assert outcomes[UNCONFIRMED] == with_a_number_bonus == 424
    assert outcomes[BUST] == numbers_only - with_a_number_bonus == 600
    assert outcomes[SCORED] == 5**5 - numbers_only == 2101
    assert by_dead == {d: c(5, d) * 4 ** (5 - d) for d in range(6)}
    three = {"1": 100, "3": 300, "4": 400, "6": 900}
    four = {"1": 200, "3": 900, "4": 800, "6": 1200}
    dead = 1 * c(5, 1) * 4**4 * 50 + c(5, 2) * 4**3 * 100 + c(5, 3) * 4**2 * 200
    dead += c(5, 4) * 4 * 400 + 3000
    # one dead die and three (12 ways) or four of a number; two dead dice and three of it
    bonuses = sum(5 * (c(4, 3) * 3 * three[f] + four[f]) + c(5, 2) * three[f] for f in three)
    assert confirmed_points == dead + bonuses
    assert pending_points == sum(
        c(5, 3) * 9 * three[f] + c(5, 4) * 3 * four[f] + 3000 for f in three
    )


# --- the bonus table (RULES.md 9.2, D-3000-1) ----------------------------------------------------

PRINTED = {
    ("D", 3): 200, ("D", 4): 400, ("D", 5): 3000,
    ("1", 3): 100, ("1", 4): 200, ("1", 5): 3000,
    ("3", 3): 300, ("3", 4): 900, ("3", 5): 3000,
    ("4", 3): 400, ("4", 4): 800, ("4", 5): 3000,
    ("6", 3): 900, ("6", 4): 1200, ("6", 5): 3000,
}  # fmt: skip
PATTERN = {**PRINTED, ("6", 3): 600, ("3", 4): 600}


def _hand(face: str, count: int) -> tuple[str, ...]:
    filler = [f for f in "1346" if f != face][: 5 - count]
    return (face,) * count + tuple(filler)


@pytest.mark.parametrize(("table", "values"), [("as_printed", PRINTED), ("pattern", PATTERN)])
@pytest.mark.parametrize(("face", "count"), sorted(PRINTED))
def test_each_bonus_hand_is_worth_its_table_value(
    table: str, values: dict[tuple[str, int], int], face: str, count: int
) -> None:
    hand = evaluate(_hand(face, count), table=table)
    if face == "D":
        assert hand.outcome == SCORED and hand.points == values[face, count]
        assert hand.dead_points == values[face, count]
    else:
        assert hand.outcome == UNCONFIRMED and hand.bonus_points == values[face, count]
        assert hand.points == 0


def test_the_printed_table_is_the_default_and_pattern_changes_only_two_hands() -> None:
    assert Ruleset().s3000_bonus_table == "as_printed"
    changed = {key for key in PRINTED if PRINTED[key] != PATTERN[key]}
    assert changed == {("6", 3), ("3", 4)}
    printed = play(start(), throw("D 6 6 6 1"))
    pattern = play(start(s3000_bonus_table="pattern"), throw("D 6 6 6 1"))
    assert (printed.banked, pattern.banked) == (950, 650)


# --- decisions D-3000-* --------------------------------------------------------------------------


def test_d_3000_2_the_target_is_3000_by_default_and_a_house_rule() -> None:
    assert Ruleset().s3000_target == 3000
    state = turns(start(s3000_target=500), 300, 0, 200)
    assert state.phase == OVER and state.winners == (0,)
    assert RULES.result(state).as_dict()["totals"] == [500, 0]


@pytest.mark.parametrize("target", [0, -50, "3000", True, 2.5])
def test_d_3000_2_a_target_must_be_a_positive_whole_number(target: Any) -> None:
    with pytest.raises(BadRuleset) as refused:
        make_ruleset(Ruleset, {"s3000_target": target})
    assert refused.value.code == "ruleset.bad_value"


def test_d_3000_3_the_game_ends_the_moment_a_player_stands_at_the_target() -> None:
    # given: three players, seat 0 stands at the target first
    state = turns(start(3, s3000_target=500), 500)
    # then: later seats get no equalising turn
    assert state.phase == OVER and state.winners == (0,)
    assert RULES.current_player(state) is None and RULES.expected(state) == []
    assert refusal(state, thrown(*NO_SCORE_5)).code == "game.over"


def test_d_3000_3_below_the_target_play_passes_left_and_wraps() -> None:
    state = turns(start(3), 200, 0, 250)
    assert state.shooter == 0 and [t.seat for t in state.turns] == [0, 1, 2]


def test_d_3000_3_with_equal_turns_the_round_is_completed_and_the_highest_wins() -> None:
    state = turns(start(3, s3000_target=500, s3000_equal_turns=True), 500)
    assert state.phase == MUST_THROW and state.shooter == 1 and state.closing == (1, 2)
    state = turns(state, 600, 0)
    assert state.phase == OVER and state.winners == (1,)


def test_d_3000_3_with_equal_turns_tied_leaders_only_shoot_again_until_one_leads() -> None:
    state = turns(start(3, s3000_target=500, s3000_equal_turns=True), 500, 500, 0)
    assert state.closing == (0, 1) and state.shooter == 0
    state = turns(state, 200, 200)  # tied again at 700
    assert state.closing == (0, 1) and state.shooter == 0
    state = turns(state, 0, 250)
    assert state.phase == OVER and state.winners == (1,)
    assert [t.seat for t in state.turns] == [0, 1, 2, 0, 1, 0, 1]


def test_d_3000_3_with_equal_turns_the_last_seat_reaching_ends_the_round_at_once() -> None:
    state = turns(start(2, s3000_target=500, s3000_equal_turns=True), 200, 550)
    assert state.phase == OVER and state.winners == (1,)


def test_d_3000_4_every_scoring_die_is_set_aside() -> None:
    state = play(start(), throw("D 3 4 6 6"))
    refused = refusal(state, throw("D 1 3 4 6"))
    assert refused.code == "throw.wrong_dice_count" and refused.data["expected"] == 4
    assert "4 dice are in the cup" in refused.message


def test_d_3000_5_dead_dice_with_a_number_bonus_both_count() -> None:
    assert play(start(), throw("D 6 6 6 3")).banked == 50 + 900
    assert play(start(), throw("D D 4 4 4")).banked == 100 + 400
    assert play(start(), throw("D 1 1 1 1")).banked == 50 + 200


def test_d_3000_6_a_confirming_throw_confirms_everything_pending_with_its_own_points() -> None:
    state = play(start(), throw("1 1 1 1 1"))  # five 1s, unconfirmed, all five back in the cup
    assert (state.pending, state.in_cup, state.banked) == (3000, 5, 0)
    state = play(state, throw("D 3 3 3 4"))
    assert (state.banked, state.pending, state.in_cup) == (3000 + 50 + 300, 0, 1)


def test_d_3000_6_another_number_bonus_without_a_dead_die_adds_to_pending() -> None:
    state = play(start(), throw("D 1 3 4 6"), throw("6 6 6 6"), throw("1 1 1 3 4"))
    assert (state.banked, state.pending, state.in_cup, state.phase) == (50, 1300, 2, MUST_THROW)
    confirmed = play(state, throw("D 3"))
    assert (confirmed.banked, confirmed.pending, confirmed.in_cup) == (1400, 0, 1)


def test_d_3000_6_a_throw_with_neither_busts_pending_and_banked_points() -> None:
    state = play(start(), *scoring_turn(250)[:-1], throw("6 6 6 1 3"))
    assert (state.banked, state.pending) == (250, 900)
    bust = play(state, throw("1 4"))
    assert bust.shooter == 1 and bust.turns[-1].score == 0
    assert RULES.scores(bust)[0].total == 0
    assert RULES.view(bust)["dice"]["throws"] == []


def test_d_3000_7_pending_points_do_not_count_toward_the_minimum() -> None:
    state = play(start(), throw("6 6 6 1 3"))
    assert state.phase == MUST_THROW and RULES.expected(state) == ["dice.thrown"]
    refused = refusal(state, STAND)
    assert refused.code == "stand.unconfirmed_bonus"
    assert "three 6s" in refused.message and "6 6 6" in refused.message
    assert RULES.view(state)["dice"]["turn_points"] == 0


def test_d_3000_7_pending_points_cannot_be_stood_on_even_above_200_banked() -> None:
    state = play(start(), *scoring_turn(250)[:-1], throw("4 4 4 1 3"))
    assert refusal(state, STAND).code == "stand.unconfirmed_bonus"


def test_d_3000_8_five_dead_dice_are_3000_and_the_shooter_still_stands() -> None:
    state = play(start(), throw("D D D D D"))
    assert (state.banked, state.in_cup, state.phase) == (3000, 5, MAY_STAND)
    assert not RULES.is_terminal(state)
    over = play(state, STAND)
    assert over.phase == OVER and over.winners == (0,)
    score = RULES.scores(over)[0]
    assert score.points == 0 and score.total == 3000
    assert [(b.kind, b.points, b.pawns) for b in score.bonuses] == [
        ("five_dead_dice", 3000, ("D",) * 5)
    ]


def test_d_3000_9_three_or_more_dead_dice_score_the_bonus_not_50_each() -> None:
    assert play(start(), throw("D D D 1 3")).banked == 200
    assert play(start(), throw("D D D D 3")).banked == 400


# --- the 200 minimum and stands ------------------------------------------------------------------


def test_a_stand_below_200_is_refused_naming_the_points_and_dice() -> None:
    state = play(start(), throw("D D 1 3 4"), throw("D 1 3"))
    refused = refusal(state, STAND)
    assert refused.code == "stand.below_minimum" and refused.data["banked"] == 150
    assert "150" in refused.message and "D D 1 3 4" in refused.message
    assert "2 dice" in refused.message


def test_a_stand_before_any_throw_is_below_the_minimum() -> None:
    assert refusal(start(), STAND).code == "stand.below_minimum"


def test_an_entered_turn_is_at_least_200_and_a_multiple_of_50() -> None:
    state = turns(start(3), 200, 350, 0)
    assert [t.score for t in state.turns] == [200, 350, 0]
    assert RULES.view(state)["sheet"][1] == {
        "seat": 1,
        "entries": [{"score": 350, "cumulative": 350}],
        "total": 350,
    }
    assert RULES.view(state)["sheet"][2]["entries"] == []  # busts are not written


# --- scores --------------------------------------------------------------------------------------


def test_scores_sum_the_turns_and_itemise_the_bonus_hands() -> None:
    state = play(start(), throw("6 6 6 1 3"), throw("D 4"), STAND)  # 900 + 50
    state = turns(state, 0)
    state = play(state, throw("D D D 1 3"), STAND)  # 200
    score = RULES.scores(state)[0]
    assert score.total == 1150 and score.points == 50
    assert [(b.kind, b.points, b.pawns) for b in score.bonuses] == [
        ("three_6s", 900, ("6", "6", "6")),
        ("three_dead_dice", 200, ("D", "D", "D")),
    ]
    assert "three 6s confirmed" in score.bonuses[0].why
    assert RULES.result(state) is None


def test_a_hand_made_twice_gives_two_identical_awards_of_its_kind() -> None:
    state = play(start(), throw("6 6 6 1 3"), throw("D 4"), STAND)
    state = play(turns(state, 0), throw("D 6 6 6 1"), STAND)
    (first, second) = RULES.scores(state)[0].bonuses
    assert (first.kind, first.points, first.pawns) == (second.kind, second.points, second.pawns)
    assert first.why.endswith("turn 1") and second.why.endswith("turn 2")


def test_a_long_game_keeps_its_turns_packed_and_only_the_last_turns_throws() -> None:
    # given: 1,200 turns, each a 900 bonus hand confirmed and a stand (target out of reach)
    state = start(3, s3000_target=10_000_000)
    hand = [throw("6 6 6 1 3"), throw("D 4"), STAND]
    for _ in range(1_200):
        state = play(state, *hand)
    # then: every turn and award is there, in order, and the state pickles small
    assert len(state.turns) == 1_200 and state.turns[-1] == state.turns[1_199]
    assert [t.seat for t in state.turns[:4]] == [0, 1, 2, 0]
    assert state.turns.count_of(0) == 400 and state.turns[0].score == 950
    assert len(RULES.scores(state)[2].bonuses) == 400
    assert RULES.scores(state)[2].bonuses[-1].why == "three 6s confirmed, turn 400"
    assert len(state.last_throws) == 2 and RULES.view(state)["dice"]["last_turn"]["score"] == 950
    assert len(pickle.dumps(state)) < 20 * 1_200  # the throws are not kept: about 16 bytes a turn
    assert pickle.loads(pickle.dumps(state)) == state
    with pytest.raises(IndexError):
        state.turns[1_200]


def test_scores_and_the_sheet_are_made_once_a_turn_and_equal_after_a_snapshot() -> None:
    # given: a turn entered, then the throws of the next turn
    entered = turns(play(start(), throw("6 6 6 1 3"), throw("D 4"), STAND), 0)
    throwing = play(entered, throw("D 6 6 6 1"))
    # then: the throws change neither, so each move's answer reuses them
    assert RULES.scores(throwing) is RULES.scores(entered)
    assert RULES.view(throwing)["sheet"] is RULES.view(entered)["sheet"]
    # and a state read back from its snapshot shows the same scores and sheet
    copy = pickle.loads(pickle.dumps(throwing))
    assert RULES.scores(copy) == RULES.scores(throwing)
    assert RULES.view(copy)["sheet"] == RULES.view(throwing)["sheet"]
    # and the next turn entered changes both
    done = play(throwing, STAND)
    assert RULES.scores(done)[0].total == RULES.scores(throwing)[0].total + 950
    assert RULES.view(done)["sheet"][0]["entries"][-1] == {"score": 950, "cumulative": 1900}


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_scores_and_sheet_built_turn_on_turn_equal_those_made_from_scratch(seed: int) -> None:
    # given a random game, its scores and sheet made on those of the turn before (view._owned,
    # view._sheet_after) at every state, then the same made from the packed turns and awards
    rng = random.Random(seed)
    state = start(rng.randint(2, 4), s3000_target=10_000_000)
    for _ in range(300):
        if state.phase == MAY_STAND and rng.random() < 0.4:
            state = play(state, STAND)
        else:
            state = play(state, thrown(*rng.choices("1346D", k=state.in_cup)))
        built_scores, built_sheet = RULES.scores(state), RULES.view(state)["sheet"]
        # then they equal those made from scratch
        fresh: list[list[Any]] = [[] for _ in range(state.seats)]
        for seat, number, face, count, points in award_rows(state):
            fresh[seat].append(view._award(face, count, points, number))
        assert [score.bonuses for score in built_scores] == [tuple(b) for b in fresh]
        assert [score.total for score in built_scores] == totals(state)
        assert built_sheet == view._sheet(state.turns.packed, state.seats)


def test_bonus_hands_of_a_bust_turn_are_not_awarded() -> None:
    state = play(start(), throw("D D D 1 3"), throw("1 4"))
    assert RULES.scores(state)[0].bonuses == ()


def test_legal_events_is_none_because_the_dice_decide() -> None:
    assert RULES.legal_events(start()) is None
    assert RULES.legal_events(turns(start(s3000_target=200), 200)) is None


# --- refusals ------------------------------------------------------------------------------------


@pytest.mark.parametrize("face", ["2", "5", "X", "d", ""])
def test_a_face_that_is_not_on_a_scarney_die_is_refused(face: str) -> None:
    refused = refusal(start(), thrown("D", "1", "3", "4", face))
    assert refused.code == "throw.bad_face" and repr(face) in refused.message


@pytest.mark.parametrize("count", [0, 4, 6])
def test_a_throw_of_the_wrong_number_of_dice_is_refused(count: int) -> None:
    refused = refusal(start(), thrown(*("D" * count)))
    assert refused.code == "throw.wrong_dice_count" and refused.data["expected"] == 5


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"faces": "D1346"},
        {"faces": None},
        {"faces": list("D1346"), "opposite": True},
        {"faces": list("D1346"), "seat": "0"},
        {"faces": list("D1346"), "seat": True},
    ],
)
def test_malformed_throw_data_is_bad_data(data: dict[str, Any]) -> None:
    assert refusal(start(), Move("dice.thrown", data)).code == "event.bad_data"


def test_a_throw_for_a_seat_the_table_has_not_got_is_seat_unknown() -> None:
    error = refusal(start(), Move("dice.thrown", {"faces": list("D1346"), "seat": 7}))
    assert (error.code, error.data["seat"]) == ("seat.unknown", 7)


def test_data_that_is_not_an_object_and_unknown_types_are_refused() -> None:
    assert refusal(start(), Move("dice.thrown", [])).code == "event.bad_data"  # type: ignore[arg-type]
    assert refusal(start(), Move("shooter.stood", {"faces": []})).code == "event.bad_data"
    assert refusal(start(), Move("double_down.called", {})).code == "event.unknown_type"
    assert refusal(start(), Move(None, {})).code == "event.unknown_type"  # type: ignore[arg-type]


def test_a_throw_or_stand_naming_another_seat_is_refused() -> None:
    state = turns(start(3), 200)
    refused = refusal(state, thrown(*NO_SCORE_5, seat=0))
    assert refused.code == "turn.over"
    assert refused.message == "Seat 0's turn is over (stood on 200); seat 1 is the shooter."
    busted = turns(state, 0)
    assert "Seat 1's turn is over (bust)" in refusal(busted, Move(STAND.type, {"seat": 1})).message
    other = refusal(busted, thrown(*NO_SCORE_5, seat=0))
    assert other.code == "turn.not_your_turn"
    assert other.message == "Seat 0 is not on turn: seat 2 is the shooter."
    assert play(busted, thrown("D", "1", "3", "4", "6", seat=2)).banked == 50


def test_anything_after_the_end_is_game_over() -> None:
    state = turns(start(s3000_target=200), 200)
    assert refusal(state, STAND).code == "game.over"
    assert refusal(state, thrown("D")).code == "game.over"


@settings(max_examples=150, deadline=None)
@given(
    data=st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=3),
        lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=6), inner),
        max_leaves=12,
    ),
    kind=st.sampled_from(["dice.thrown", "shooter.stood", "x"]),
    after=st.integers(min_value=0, max_value=3),
)
def test_any_json_data_is_applied_or_refused_never_a_crash(
    data: Any, kind: str, after: int
) -> None:
    state = play(start(), *[throw("D D 1 3 4"), throw("D D 1"), throw("D")][:after])
    for candidate in (data, {"faces": data}, {"faces": data, "seat": data}):
        try:
            RULES.apply(state, Move(kind, candidate))
        except IllegalEvent:
            pass


# --- setup ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [1, 17])
def test_scarney_3000_is_for_two_or_more_players(seats: int) -> None:
    with pytest.raises(BadSetup) as refused:
        RULES.initial_state({}, Ruleset(), seats)
    assert refused.value.code == "game.bad_seats"


def test_the_setup_takes_nothing_and_must_be_an_object() -> None:
    with pytest.raises(BadSetup) as unknown:
        RULES.initial_state({"teams": [[0], [1]]}, Ruleset(), 2)
    assert unknown.value.code == "setup.unknown_key"
    with pytest.raises(BadSetup) as bad:
        RULES.initial_state([], Ruleset(), 2)
    assert bad.value.code == "setup.not_an_object"
    assert RULES.initial_state(None, {}, 2) == start()


@pytest.mark.parametrize(
    ("name", "value"),
    [("s3000_bonus_table", "printed"), ("s3000_equal_turns", 1), ("sheet_entry_validation", "x")],
)
def test_house_rules_take_only_their_values(name: str, value: Any) -> None:
    with pytest.raises(BadRuleset) as refused:
        make_ruleset(Ruleset, {name: value})
    assert refused.value.code == "ruleset.bad_value"


# --- undo ----------------------------------------------------------------------------------------

UNDO = Move("move.undone", {"reason": "misrecorded"})


def test_undo_takes_back_a_throw_a_bust_and_the_winning_stand() -> None:
    moves = [throw("D 3 4 6 6"), throw("D 3 6 6"), throw("D D 6")]
    before = fold(RULES, start(), moves)
    assert fold(RULES, start(), [*moves, throw("4"), UNDO]) == before  # a bust
    assert fold(RULES, start(), [*moves, UNDO]) == fold(RULES, start(), moves[:2])
    win = [throw("D D D D D")]
    assert fold(RULES, start(), [*win, STAND, UNDO]) == fold(RULES, start(), win)
    with pytest.raises(IllegalEvent) as refused:
        fold(RULES, start(), [UNDO])
    assert refused.value.code == "undo.nothing_to_undo"


# --- the match: one game, the winner collects the difference (RULES.md 0.8, 9.4) -----------------


def match(seats: int = 4, **house_rules: Any) -> Any:
    return MATCH.initial_state(house_rules, seats)


def sheet(*rounds: list[Any], **extra: Any) -> Move:
    return Move("game.scored", {"turns": [list(r) for r in rounds], **extra})


def match_refusal(state: Any, move: Move) -> IllegalEvent:
    with pytest.raises(IllegalEvent) as refused:
        MATCH.apply(state, move)
    return refused.value


B4 = json.loads(FIXTURE.read_text())
B4_CASES = [(case, mode) for case in B4["cases"] for mode in case["modes"]]


@pytest.mark.parametrize(("case", "mode"), B4_CASES, ids=[f"{c['name']}-{m}" for c, m in B4_CASES])
def test_the_b4_sheet_fixtures(case: dict[str, Any], mode: str) -> None:
    state = match(len(B4["players"]), sheet_entry_validation=mode, **B4["ruleset"])
    move = Move("game.scored", case["sheet"])
    if "refusal" in case:
        refused = match_refusal(state, move)
        expected = case["refusal"]
        assert refused.code == expected["code"]
        assert {k: refused.data[k] for k in expected if k != "code"} == {
            k: v for k, v in expected.items() if k != "code"
        }
        return
    after = MATCH.apply(state, move)
    expected = case["expected"]
    assert MATCH.games(after)[0]["scores"] == expected["totals"]
    assert MATCH.games(after)[0]["winners"] == expected["winners"]
    assert MATCH.is_complete(after) and MATCH.warnings(after) == []
    settled = MATCH.settlement(after)
    assert settled == {"payments": expected["payments"], "nets": expected["nets"]}
    assert sum(settled["nets"]) == 0
    assert MATCH.standing(after)[0]["seat"] == expected["winners"][0]
    closed = MATCH.apply(after, Move("match.settled", settled))
    assert MATCH.is_settled(closed)


def test_the_b4_cumulative_refusal_names_the_figure_and_the_right_sum() -> None:
    case = next(c for c in B4["cases"] if c["name"] == "B.4-printed-cumulative")
    refused = match_refusal(match(), Move("game.scored", case["sheet"]))
    assert refused.message == "Seat 3's cumulative score after round 2 is 1700, not 1400."


@pytest.mark.parametrize(("score", "codes"), [(225, ["score.not_multiple_of_50"]),
                                              (150, ["score.below_minimum"]),
                                              (120, ["score.not_multiple_of_50",
                                                     "score.below_minimum"])])  # fmt: skip
def test_an_impossible_turn_score_is_refused_strict_and_warned_lenient(
    score: int, codes: list[str]
) -> None:
    rounds = ([score, 3000],)
    refused = match_refusal(match(2), sheet(*rounds))
    assert refused.code == codes[0] and str(score) in refused.message
    lenient = MATCH.apply(match(2, sheet_entry_validation="lenient"), sheet(*rounds))
    assert [w["code"] for w in MATCH.warnings(lenient)] == codes
    assert MATCH.games(lenient)[0]["scores"] == [score, 3000]
    assert MATCH.settlement(lenient)["payments"] == [{"from": 0, "to": 1, "points": 3000 - score}]


def test_a_negative_turn_score_is_below_the_minimum() -> None:
    assert match_refusal(match(2), sheet([-50, 3000])).code == "score.below_minimum"


def test_a_sheet_turn_after_the_end_or_out_of_turn_is_refused() -> None:
    refused = match_refusal(match(3), sheet([3000, 200, 0]))
    assert refused.code == "sheet.turn_not_due" and "game was over" in refused.message
    tie = match(3, s3000_equal_turns=True, s3000_target=500)
    # seats 1 and 2 tie at 500; in the tie-break round seat 0 has no turn
    refused = match_refusal(tie, sheet([0, 500, 500], [200, 0, 0]))
    assert refused.code == "sheet.turn_not_due" and refused.data["seat"] == 0
    assert refused.message == "Seat 0 has 200 in round 2, but seat 1 was due to shoot."
    after_end = match_refusal(tie, sheet([500, 500, 0], [200, 0, 300]))
    assert after_end.code == "sheet.turn_not_due" and after_end.data["seat"] == 2
    settled = MATCH.apply(tie, sheet([500, 500, 0], [200, 0, None]))
    assert MATCH.games(settled)[0]["scores"] == [700, 500, 0]
    assert MATCH.games(settled)[0]["winners"] == [0]


def test_an_unfinished_sheet_is_refused() -> None:
    refused = match_refusal(match(2), sheet([200, 200], [0, 450]))
    assert refused.code == "sheet.game_unfinished" and "3000" in refused.message


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"turns": []},
        {"turns": [[200, "3000"]]},
        {"turns": [[200, True]]},
        {"turns": "200 3000"},
        {"turns": [[200, 3000]], "totals": [200, 3000]},
        {"scores": [200, 3000]},
    ],
)
def test_a_malformed_sheet_is_bad_data(data: dict[str, Any]) -> None:
    assert match_refusal(match(2), Move("game.scored", data)).code == "event.bad_data"


@pytest.mark.parametrize(
    "data",
    [
        {"turns": [[200, 3000, 0]]},
        {"turns": [[200, 3000]], "cumulative": [[200]]},
        {"turns": [[200, 3000]], "cumulative": [[200, 3000], [200, 3000]]},
        {"turns": [[200, 3000]], "scores": [200]},
    ],
)
def test_a_sheet_row_of_the_wrong_length_is_sheet_wrong_length(data: dict[str, Any]) -> None:
    assert match_refusal(match(2), Move("game.scored", data)).code == "sheet.wrong_length"


def test_a_live_game_completes_the_match_and_settles_the_difference() -> None:
    # given: a game where seat 2 stands at 3000 first
    game = turns(start(3), 200, 450, 0, 300, 0)
    game = play(game, throw("D D D D D"), STAND)
    result = RULES.result(game)
    finished = Move(
        "game.finished",
        {
            "game": str(uuid.uuid4()),
            "scores": [s.total for s in result.scores],
            "winners": list(result.winners),
            "report": RULES.match_report(game),
        },
    )
    # when
    state = MATCH.apply(match(3), finished)
    # then
    assert MATCH.is_complete(state)
    assert MATCH.settlement(state) == {
        "payments": [{"from": 0, "to": 2, "points": 2500}, {"from": 1, "to": 2, "points": 2550}],
        "nets": [-2500, -2550, 5050],
    }
    assert [row["seat"] for row in MATCH.standing(state)] == [2, 0, 1]
    assert match_refusal(state, finished).code == "match.over"
    assert match_refusal(state, Move("match.settled", {"payments": []})).code == (
        "match.settlement_mismatch"
    )
    assert MATCH.next_game_setup(state) == {}


def test_a_scarney_3000_match_has_two_or_more_players() -> None:
    with pytest.raises(BadSetup) as refused:
        MATCH.initial_state({}, 1)
    assert refused.value.code == "match.bad_seats"
    with pytest.raises(BadSetup) as teams:
        MATCH.initial_state({}, 4, [[0, 2], [1, 3]])
    assert teams.value.code == "match.bad_teams"


# --- the order of play: seat 0, a first shooter, or recorded seating throws (0.5, 7.2 by 9.1) ----


def test_a_first_shooter_from_the_setup_starts_and_play_passes_left_from_him() -> None:
    state = RULES.initial_state({"first_shooter": 2}, Ruleset(), 3)
    assert state.shooter == 2 and state.order == (2, 0, 1)
    state = turns(state, 200, 0, 250)
    assert [t.seat for t in state.turns] == [2, 0, 1] and state.shooter == 2


def test_with_equal_turns_the_round_ends_with_the_seat_right_of_the_first_shooter() -> None:
    ruleset = make_ruleset(Ruleset, {"s3000_target": 500, "s3000_equal_turns": True})
    state = turns(RULES.initial_state({"first_shooter": 1}, ruleset, 3), 0, 500)
    assert state.closing == (0,) and state.shooter == 0  # seat 2 reached; seat 0 ends the round
    state = turns(state, 450)
    assert state.phase == OVER and state.winners == (2,)


def draw(state: State, *throws: str) -> State:
    return play(state, *(throw(text) for text in throws))


def test_seating_throws_order_the_play_highest_total_first_ties_thrown_again() -> None:
    # given: seats 0 and 2 tie at 20 for the highest total
    state = RULES.initial_state({"seating_throws": True}, Ruleset(), 3)
    assert state.phase == "drawing" and RULES.expected(state) == ["dice.thrown"]
    assert RULES.current_player(state) == 0
    state = draw(state, "6 6 4 3 1", "D D 1 3 4", "6 6 4 3 1")
    assert RULES.view(state)["dice"]["draw"]["throwing"] == [0, 2]
    assert RULES.current_player(state) == 0
    # when: only they throw again; seat 2 wins it
    state = draw(state, "D D D D 1", "3 D D D D")
    # then: seat 2 shoots first, seat 0 on his left, then seat 1
    assert state.order == (2, 0, 1) and state.shooter == 2 and state.phase == MUST_THROW
    drawn = RULES.view(state)["dice"]["draw"]
    assert [t["total"] for t in drawn["throws"]] == [20, 8, 20, 1, 3]
    assert drawn["ranking"] is None and drawn["throwing"] is None
    assert [t.seat for t in turns(state, 0, 0, 0).turns] == [2, 0, 1]


def test_during_the_seating_throws_only_the_thrower_throws_five_dice() -> None:
    state = RULES.initial_state({"seating_throws": True}, Ruleset(), 2)
    assert refusal(state, STAND).code == "seating.throws_due"
    assert refusal(state, thrown("D", "1", "3")).code == "throw.wrong_dice_count"
    other = refusal(state, thrown(*NO_SCORE_5, seat=1))
    assert other.code == "turn.not_your_turn" and "seat 0 throws for the draw" in other.message
    assert fold(RULES, state, [throw("D 1 3 4 6"), UNDO]) == state


@pytest.mark.parametrize(
    ("setup", "code"),
    [
        ({"first_shooter": 3}, "setup.bad_value"),
        ({"first_shooter": "1"}, "setup.bad_value"),
        ({"first_shooter": True}, "setup.bad_value"),
        ({"seating_throws": "yes"}, "setup.bad_value"),
        ({"seating_throws": True, "first_shooter": 1}, "setup.conflict"),
        ({"partner_throws": True}, "setup.unknown_key"),
    ],
)
def test_a_bad_order_of_play_is_refused(setup: dict[str, Any], code: str) -> None:
    with pytest.raises(BadSetup) as refused:
        RULES.initial_state(setup, Ruleset(), 3)
    assert refused.value.code == code


@settings(max_examples=150, deadline=None)
@given(
    data=st.recursive(
        st.none()
        | st.booleans()
        | st.integers(min_value=-100, max_value=4000)
        | st.text(max_size=3),
        lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner),
        max_leaves=16,
    )
)
def test_any_sheet_data_is_entered_or_refused_never_a_crash(data: Any) -> None:
    for candidate in (data, {"turns": data}, {"turns": [[200, 3000]], "cumulative": data}):
        try:
            MATCH.apply(match(2), Move("game.scored", candidate))
        except IllegalEvent:
            pass
