"""Straight Scarney Dice rules (RULES.md 1.3, 7; the match of 0.6-0.8, sheet B.5, Appendix C.5)."""

from __future__ import annotations

import json
from collections import Counter
from itertools import product
from math import comb, factorial
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.base import Move, fold, fold_states, make_ruleset
from games.rules.errors import BadRuleset, BadSetup, IllegalEvent
from games.rules.registry import match_rules
from games.rules.straight_dice.game import StraightDiceRules
from games.rules.straight_dice.play import State
from games.rules.straight_dice.throws import (
    BIG_SCARNEY,
    CRAP_OUT,
    LITTLE_SCARNEY,
    POINTS,
    SCORELESS,
    Ruleset,
    evaluate,
)

RULES = StraightDiceRules()
FACES = ("1", "3", "4", "6", "D")
FIXTURE = Path(__file__).parents[3] / "fixtures" / "sheet_straight_dice_b5.json"
STAND = Move("shooter.stood", {})
DOUBLE = Move("double_down.called", {})
UNDO = Move("move.undone", {})


def throw(faces: str, **extra: Any) -> Move:
    return Move("dice.thrown", {"faces": faces.split(), **extra})


def new_game(seats: int = 2, setup: dict[str, Any] | None = None, **house: Any) -> State:
    return RULES.initial_state(setup or {}, make_ruleset(Ruleset, house), seats)


def play(state: State, *moves: Move) -> State:
    for move in moves:
        state = RULES.apply(state, move)
    return state


def refused(state: State, move: Move) -> IllegalEvent:
    with pytest.raises(IllegalEvent) as caught:
        RULES.apply(state, move)
    assert caught.value.message  # a sentence for a person
    return caught.value


def value(faces: str, doubled: bool = False, opposite: bool = False, **house: Any) -> int:
    return evaluate(
        faces.split(), doubled=doubled, opposite=opposite, ruleset=Ruleset(**house)
    ).points


# A frame of a known score, and a crap-out: (frame score, moves).
SCORE_17 = (throw("1 3 3 4 6"), STAND)
SCORE_20 = (throw("1 3 4 6 6"), STAND)
CRAP = (throw("D D D 1 3"), throw("D D"))


def frames_of(state: State, seat: int) -> list[int]:
    return [f.score for f in state.frames if f.seat == seat and f.ended]


def play_rounds(state: State, rounds: int, frames: dict[int, tuple[Move, ...]]) -> State:
    """Every seat shoots ``rounds`` frames, seat s always the frame ``frames[s]``."""
    for _ in range(rounds):
        for seat in state.order:
            state = play(state, *frames[seat])
    return state


# --- the worked values of section 7.5 -------------------------------------------------------------


def test_a_throw_of_17_then_a_hit_of_16_with_three_of_a_kind_makes_a_frame_of_53() -> None:
    # given a throw of 17 points (one pair earns nothing)
    state = play(new_game(), throw("1 3 3 4 6"))
    assert state.frame is not None and state.frame.held == 17 and state.frame.holding
    # when he hits and throws 16 with three threes, then stands
    state = play(state, throw("3 3 3 6 1"), STAND)
    # then the hit scored 16 + 20 = 36 and the frame 53
    first = state.frames[0]
    assert [t.points for t in first.throws] == [17, 36]
    assert (first.throws[1].numbers, first.throws[1].bonus_points) == (16, 20)
    assert first.score == 53 and frames_of(state, 0) == [53]
    assert RULES.current_player(state) == 1


def test_a_double_down_on_15_with_three_of_a_kind_scores_30_plus_20() -> None:
    # given a scoreless throw that leaves four dice
    state = play(new_game(), throw("D 1 3 4 6"), DOUBLE)
    # when 3 3 3 6 is thrown doubled
    state = play(state, throw("3 3 3 6"))
    last = state.frames[0].throws[-1]
    # then only the number total is doubled
    assert (last.numbers, last.doubling, last.bonus_points, last.points) == (15, 15, 20, 50)
    assert state.frames[0].held == 50


@pytest.mark.parametrize(("face", "points"), [("1", 2), ("3", 3), ("4", 4), ("6", 12)])
def test_a_double_down_on_one_die_doubles_only_a_one_or_a_six(face: str, points: int) -> None:
    assert value(face, doubled=True) == points
    # and through a frame: four dice die on the first throw, then one die doubled
    state = play(new_game(), throw("D D D 1 3"), throw("D 4"), DOUBLE, throw(face))
    assert state.frames[0].held == points


@pytest.mark.parametrize(("top", "points"), [("3", 4), ("4", 3), ("1", 6), ("6", 1)])
def test_opposite_scores_the_bottom_face(top: str, points: int) -> None:
    state = play(new_game(), throw("D D D 1 3"), throw("D 4"), throw(top, opposite=True))
    last = state.frames[0].throws[-1]
    assert last.opposite and last.points == points and last.faces == (top,)


def test_a_dead_die_stays_dead_under_opposite_and_craps_out() -> None:
    state = play(new_game(), throw("D D D 1 3"), throw("D 4"), throw("D", opposite=True))
    assert frames_of(state, 0) == [0]
    assert state.frames[0].ended == "crapped_out"


def test_double_the_opposite_doubles_the_bottom_face() -> None:
    state = play(new_game(), throw("D D D 1 3"), throw("D 4"), DOUBLE, throw("1", opposite=True))
    assert state.frames[0].held == 12  # the bottom of a 1 is a 6, doubled


@pytest.mark.parametrize(
    ("faces", "numbers", "bonus", "points"),
    [
        ("3 3 3 1 1", 11, "full_house", 41),
        ("6 6 6 6 1", 25, "four_of_a_kind", 65),
        ("4 4 3 3 1", 15, "two_pairs", 25),
        ("1 3 3 4 6", 17, "", 17),
        ("1 1 1", 3, "three_of_a_kind", 23),
        ("6 6 4 4", 20, "two_pairs", 30),
        ("4 4 4 4", 16, "four_of_a_kind", 56),
        ("6 6", 12, "", 12),
    ],
)
def test_the_worked_throws_and_their_one_highest_bonus(
    faces: str, numbers: int, bonus: str, points: int
) -> None:
    thrown = evaluate(faces.split(), ruleset=Ruleset())
    assert (thrown.outcome, thrown.numbers, thrown.bonus, thrown.points) == (
        POINTS,
        numbers,
        bonus,
        points,
    )


def test_a_double_down_never_doubles_a_bonus() -> None:
    assert value("3 3 3 1 1", doubled=True) == 22 + 30
    assert value("6 6 6 6 1", doubled=True) == 50 + 40


# --- every five-dice throw, counted independently ------------------------------------------------


def _reference(faces: tuple[str, ...]) -> tuple[str, int]:
    """A second, plain reading of 7.5 for five dice: the outcome and its points."""
    dead = faces.count("D")
    counts = sorted(Counter(faces).values())
    if counts == [5]:
        return "big", 0
    if dead == 4:
        return "little", 25
    if dead > 0:
        return "scoreless", 0
    spots = sum(int(f) for f in faces)
    bonus = {(1, 4): 40, (2, 3): 30, (1, 1, 3): 20, (1, 2, 2): 10}.get(tuple(counts), 0)
    return "points", spots + bonus


def test_all_3125_five_dice_throws_are_evaluated_as_section_7_5_says() -> None:
    names = {BIG_SCARNEY: "big", LITTLE_SCARNEY: "little", SCORELESS: "scoreless", POINTS: "points"}
    outcomes: Counter[str] = Counter()
    bonuses: Counter[str] = Counter()
    for faces in product(FACES, repeat=5):
        thrown = evaluate(faces, ruleset=Ruleset())
        assert (names[thrown.outcome], thrown.points) == _reference(faces)
        outcomes[thrown.outcome] += 1
        bonuses[thrown.bonus or "none"] += 1 if thrown.outcome == POINTS else 0
    # counted by patterns: 4 numbers, dead on any die
    numbers_only = 4**5
    assert sum(outcomes.values()) == 3125
    assert outcomes[BIG_SCARNEY] == 5  # five of one face, D included
    assert outcomes[LITTLE_SCARNEY] == comb(5, 4) * 4  # four D, the fifth a number
    assert outcomes[SCORELESS] == 3125 - numbers_only - 20 - 1
    assert outcomes[CRAP_OUT] == 0  # five dead dice are Big Scarney
    assert outcomes[POINTS] == numbers_only - 4
    assert bonuses["four_of_a_kind"] == 4 * 3 * 5
    assert bonuses["full_house"] == 4 * 3 * comb(5, 3)
    assert bonuses["three_of_a_kind"] == 4 * comb(5, 3) * 3 * 2
    assert bonuses["two_pairs"] == comb(4, 2) * 2 * factorial(5) // 4
    assert bonuses["none"] == 4 * factorial(5) // 2  # one pair: nothing


@pytest.mark.parametrize("dice", [1, 2, 3, 4])
def test_fewer_dice_never_make_a_scarney_and_any_dead_die_scores_nothing(dice: int) -> None:
    for faces in product(FACES, repeat=dice):
        thrown = evaluate(faces, ruleset=Ruleset())
        dead = faces.count("D")
        if dead:
            assert thrown.outcome == (CRAP_OUT if dead == dice else SCORELESS)
            assert thrown.points == 0 and thrown.dead == dead
        else:
            assert thrown.outcome == POINTS and thrown.numbers == sum(map(int, faces))


# --- the frame state machine ----------------------------------------------------------------------


def test_a_scoreless_hit_cancels_the_points_held_and_puts_the_dead_dice_aside() -> None:
    state = play(new_game(), throw("1 3 3 4 6"), throw("D D 3 4 6"))
    frame = state.frame
    assert frame is not None and frame.held == 0 and frame.live == 3 and not frame.holding
    assert frame.throws[-1].cancelled == 17
    assert RULES.expected(state) == ["dice.thrown", "double_down.called"]
    # D-SSD-7: no voluntary stop with nothing
    assert refused(state, STAND).code == "stand.no_point_score"
    assert refused(new_game(), STAND).code == "stand.no_point_score"


def test_after_a_scoreless_throw_a_point_score_may_be_kept() -> None:
    state = play(new_game(), throw("D D 3 4 6"), throw("1 1 6"), STAND)
    assert frames_of(state, 0) == [8]


def test_five_dead_dice_in_a_frame_are_a_crap_out_scoring_nothing() -> None:
    state = play(new_game(), throw("1 3 3 4 6"), throw("D D D 1 3"), throw("6 6"))
    state = play(state, throw("D D"))
    assert frames_of(state, 0) == [0] and RULES.current_player(state) == 1


def test_a_hit_throws_every_live_die() -> None:
    state = play(new_game(), throw("1 3 3 4 6"))
    assert refused(state, throw("1 3")).code == "throw.wrong_dice_count"


def test_big_scarney_on_the_first_throw_wins_the_game_and_the_pot_at_once() -> None:
    state = play(new_game(3, ante_chips=2), *SCORE_20, throw("4 4 4 4 4"))
    assert RULES.is_terminal(state) and state.big_scarney == 1
    result = RULES.result(state)
    assert result is not None and result.winners == (1,)
    assert [s.total for s in result.scores] == [20, 0, 0]  # whatever the scores
    assert RULES.view(state)["pot"] == {"balance": 0, "nets": [-2, 4, -2]}
    assert RULES.expected(state) == [] and RULES.legal_events(state) == []
    assert refused(state, throw("1 3 4 6 6")).code == "game.over"


def test_five_dead_dice_are_big_scarney_too_even_on_a_hit_of_five_dice() -> None:
    state = play(new_game(), throw("1 3 3 4 6"), throw("D D D D D"))
    assert state.over and state.winners == (0,) and state.big_scarney == 0


def test_little_scarney_is_worth_25_keeps_earlier_points_and_leaves_one_die() -> None:
    state = play(new_game(), throw("1 3 3 4 6"), throw("D D D D 6"))
    frame = state.frame
    assert frame is not None and frame.held == 17 + 25 and frame.live == 1 and frame.holding
    assert RULES.view(state)["dice"]["may_call_opposite"] is True
    state = play(state, throw("6", opposite=True), STAND)
    assert frames_of(state, 0) == [17 + 25 + 1]


def test_little_scarney_is_never_doubled_and_the_live_die_counts_only_by_house_rule() -> None:
    assert value("D D D D 6", doubled=True) == 25
    assert value("D D D D 6", little_scarney_counts_live_die=True) == 31
    assert value("D D D D 6", doubled=True, little_scarney_counts_live_die=True) == 37
    assert value("D D D D 3", doubled=True, little_scarney_counts_live_die=True) == 28


def test_four_dead_dice_of_four_are_a_crap_out_unless_the_house_rule_scores_them() -> None:
    literal = play(new_game(), throw("D 1 3 4 6"), throw("D D D D"))
    assert frames_of(literal, 0) == [0]
    house = play(new_game(little_scarney_on_four_dice=True), throw("D 1 3 4 6"), throw("D D D D"))
    assert frames_of(house, 0) == [25] and house.frames[0].ended == "stood"


def test_double_down_costs_a_chip_once_and_only_before_a_throw_without_points() -> None:
    state = play(new_game(), DOUBLE)
    assert RULES.expected(state) == ["dice.thrown"]
    assert refused(state, DOUBLE).code == "double_down.already_called"
    state = play(state, throw("1 1 3 4 6"))
    assert state.frame is not None and state.frame.held == 30 and not state.frame.double_down
    assert refused(state, DOUBLE).code == "double_down.not_allowed"
    assert [m.kind for m in state.ledger] == ["ante", "ante", "double_down"]
    assert RULES.view(state)["pot"] == {"balance": 3, "nets": [-2, -1]}


def test_double_down_affects_the_next_throw_only() -> None:
    state = play(new_game(), DOUBLE, throw("D 1 3 4 6"), throw("1 3 4 6"))
    assert state.frame is not None and state.frame.held == 14


def test_opposite_needs_a_single_live_die() -> None:
    code = refused(new_game(), throw("1 3 3 4 6", opposite=True)).code
    assert code == "opposite.not_allowed"
    assert refused(new_game(), throw("1 3 3 4 6", opposite="yes")).code == "event.bad_data"


@pytest.mark.parametrize(
    ("move", "code"),
    [
        (throw("1 3 3 4 5"), "throw.bad_face"),
        (throw("1 3 3 4"), "throw.wrong_dice_count"),
        (Move("dice.thrown", {}), "event.bad_data"),
        (Move("dice.thrown", {"faces": "13346"}), "event.bad_data"),
        (Move("dice.thrown", {"faces": [1, 3, 3, 4, 6]}), "throw.bad_face"),
        (Move("dice.thrown", ["1"]), "event.bad_data"),  # type: ignore[arg-type]
        (Move("pawn.jumped", {}), "event.unknown_type"),
        (Move(7, {}), "event.unknown_type"),  # type: ignore[arg-type]
        (throw("1 3 3 4 6", seat=1), "turn.not_your_turn"),
        (throw("1 3 3 4 6", seat="0"), "event.bad_data"),
    ],
)
def test_refusals_of_a_throw(move: Move, code: str) -> None:
    assert refused(new_game(), move).code == code


def test_a_move_naming_the_shooter_whose_frame_just_ended_is_refused_as_frame_over() -> None:
    state = play(new_game(), *SCORE_17)
    assert refused(state, throw("1 3 3 4 6", seat=0)).code == "frame.over"
    assert RULES.apply(state, throw("1 3 3 4 6", seat=1)).frames[-1].seat == 1


# --- the game: seven frames, ties, the pot --------------------------------------------------------


def test_seven_frames_each_then_the_highest_total_takes_the_pot() -> None:
    state = play_rounds(new_game(3), 7, {0: SCORE_17, 1: SCORE_20, 2: CRAP})
    assert state.over and state.winners == (1,)
    assert [len(frames_of(state, s)) for s in range(3)] == [7, 7, 7]
    result = RULES.result(state)
    assert result is not None and [s.total for s in result.scores] == [119, 140, 0]
    assert RULES.pot_ledger(state)[-1] == {"kind": "win", "seat": 1, "chips": -3}
    assert RULES.view(state)["pot"] == {"balance": 0, "nets": [-1, 2, -1]}


def test_tied_leaders_alone_shoot_extra_frames_until_the_tie_is_broken() -> None:
    # given two seats tied on 119 after seven frames, the third behind
    state = play_rounds(new_game(3), 7, {0: SCORE_17, 1: CRAP, 2: SCORE_17})
    assert not state.over and state.round == 8
    assert RULES.current_player(state) == 0
    # when both tie again in frame 8, then seat 2 wins frame 9
    state = play(state, *SCORE_17, *SCORE_17, *SCORE_17, *SCORE_20)
    assert state.over and state.winners == (2,)
    assert [len(frames_of(state, s)) for s in range(3)] == [9, 7, 9]
    assert [f.number for f in state.frames if f.seat == 2][-2:] == [8, 9]
    result = RULES.result(state)
    assert result is not None and [s.total for s in result.scores] == [153, 0, 156]


def test_big_scarney_in_an_extra_frame_ends_the_game() -> None:
    state = play_rounds(new_game(2), 7, {0: SCORE_17, 1: SCORE_17})
    state = play(state, *SCORE_20, throw("D D D D D"))
    assert state.over and state.winners == (1,) and state.big_scarney == 1


def test_every_player_antes_in_turn_from_the_first_shooter() -> None:
    state = new_game(3, {"first_shooter": 2}, ante_chips=5)
    assert state.order == (2, 0, 1) and RULES.current_player(state) == 2
    assert RULES.pot_ledger(state) == [
        {"kind": "ante", "seat": 2, "chips": 5},
        {"kind": "ante", "seat": 0, "chips": 5},
        {"kind": "ante", "seat": 1, "chips": 5},
    ]


def test_chips_are_conserved_after_every_event() -> None:
    moves = [DOUBLE, throw("D 1 3 4 6"), DOUBLE, throw("1 3 4 6"), STAND, *SCORE_17] * 7
    for state in fold_states(RULES, new_game(2), moves):
        pot = RULES.view(state)["pot"]
        assert sum(pot["nets"]) + pot["balance"] == 0 and pot["balance"] >= 0


def test_scores_itemise_kept_bonuses_and_drop_cancelled_ones() -> None:
    moves = [throw("3 3 3 1 1"), throw("D 3 4 6 1")]  # a full house, then cancelled
    moves += [throw("4 4 3 3"), STAND]  # two pairs kept: 14 + 10
    state = play(new_game(), *moves)
    score = RULES.scores(state)[0]
    assert (score.points, score.total) == (14, 24)
    assert [(b.kind, b.points, b.pawns) for b in score.bonuses] == [
        ("two_pairs", 10, ("3", "3", "4", "4"))
    ]


def test_the_view_tells_whose_throw_how_many_dice_and_what_the_shooter_may_do() -> None:
    state = play(new_game(), throw("1 3 3 4 6"), throw("D D 3 4 6"), DOUBLE)
    dice = RULES.view(state)["dice"]
    assert dice["shooter"] == 0 and dice["in_cup"] == 3 and dice["phase"] == "ready"
    assert (dice["may_stand"], dice["may_double_down"], dice["may_call_opposite"]) == (
        False,
        False,
        False,
    )
    assert dice["throws"][1]["cancelled"] == 17 and dice["throws"][1]["dead_dice"] == 2
    state = play(state, throw("1 3 6"))
    dice = RULES.view(state)["dice"]
    assert dice["phase"] == "holding" and dice["may_stand"] and dice["held"] == 20
    last = dice["throws"][-1]
    assert (last["number_total"], last["doubling"], last["points"]) == (10, 10, 20)
    assert RULES.legal_events(state) is None


def test_the_pad_itemises_only_each_seats_latest_frame_so_the_answer_stays_a_rounds_size() -> None:
    state = play_rounds(new_game(3), 3, {0: SCORE_17, 1: SCORE_20, 2: CRAP})
    pad = RULES.view(state)["dice"]["frames"]
    state = play(state, throw("1 3 3 4 6"))  # seat 0's fourth frame is in play
    pad = RULES.view(state)["dice"]["frames"]
    assert [[f["cumulative"] for f in column] for column in pad] == [
        [17, 34, 51, None],
        [20, 40, 60],
        [0, 0, 0],
    ]
    assert [["throws" in f for f in column] for column in pad] == [
        [False, False, True, True],
        [False, False, True],
        [False, False, True],
    ]
    assert [len(f["throws"]) for f in pad[0][2:]] == [1, 1]
    assert [f["faces"] for f in pad[2][-1]["throws"]] == [["1", "3", "D", "D", "D"], ["D", "D"]]


def test_undo_restores_the_exact_prior_state() -> None:
    moves = [throw("1 3 3 4 6"), DOUBLE]
    before = fold(RULES, new_game(), moves[:1])
    assert refused(before, DOUBLE).code == "double_down.not_allowed"
    moves = [throw("D 3 3 4 6"), DOUBLE, UNDO]
    after = fold(RULES, new_game(), moves)
    assert after == fold(RULES, new_game(), moves[:1])
    assert after.ledger == fold(RULES, new_game(), moves[:1]).ledger


# --- seating throws (7.2, D-SSD-9) ----------------------------------------------------------------


def test_seating_throws_order_the_players_highest_first_and_ties_throw_again() -> None:
    state = new_game(4, {"seating_throws": True})
    assert RULES.expected(state) == ["dice.thrown"] and RULES.pot_ledger(state) == []
    assert refused(state, STAND).code == "seating.throws_due"
    assert refused(state, throw("1 3 4 6 D", seat=2)).code == "turn.not_your_turn"
    # seat 0: 10, seat 1: 14, seat 2: 10, seat 3: 6
    state = play(state, throw("1 3 6 D D"), throw("4 4 6 D D"), throw("6 4 D D D"))
    state = play(state, throw("6 D D D D"))
    assert RULES.current_player(state) == 0  # seats 0 and 2 tied: they throw again
    assert RULES.view(state)["dice"]["seating"]["throwing"] == [0, 2]
    state = play(state, throw("1 D D D D"), throw("3 D D D D"))
    assert state.order == (1, 2, 0, 3) and RULES.current_player(state) == 1
    assert [m["seat"] for m in RULES.pot_ledger(state)] == [1, 2, 0, 3]
    assert len(RULES.view(state)["dice"]["seating"]["throws"]) == 6


def test_a_seating_throw_is_five_dice_without_opposite() -> None:
    state = new_game(2, {"seating_throws": True})
    assert refused(state, throw("1 3")).code == "throw.wrong_dice_count"
    assert refused(state, throw("1 3 4 6 6", opposite=True)).code == "opposite.not_allowed"


@pytest.mark.parametrize(
    ("setup", "code"),
    [
        ({"first_shooter": 5}, "setup.bad_value"),
        ({"first_shooter": True}, "setup.bad_value"),
        ({"seating_throws": "yes"}, "setup.bad_value"),
        ({"seating_throws": True, "first_shooter": 1}, "setup.conflict"),
        ({"teams": [[0], [1]]}, "setup.unknown_key"),
        ([], "setup.not_an_object"),
    ],
)
def test_bad_setups(setup: Any, code: str) -> None:
    with pytest.raises(BadSetup) as caught:
        RULES.initial_state(setup, Ruleset(), 2)
    assert caught.value.code == code


def test_one_player_is_too_few() -> None:
    with pytest.raises(BadSetup) as caught:
        new_game(1)
    assert caught.value.code == "game.bad_seats"


@pytest.mark.parametrize("ante", [0, -1, "1", True, 1.5])
def test_the_ante_is_a_positive_whole_number_of_chips(ante: Any) -> None:
    with pytest.raises(BadRuleset) as caught:
        make_ruleset(Ruleset, {"ante_chips": ante})
    assert caught.value.code == "ruleset.bad_value"


# --- the match and its score sheet (0.6-0.8, B.5, C.5) --------------------------------------------

MATCH = match_rules("straight-scarney-dice")


def sheet_match(seats: int = 4, **house: Any) -> Any:
    return MATCH.initial_state(house, seats)


def scored(state: Any, **data: Any) -> Any:
    return MATCH.apply(state, Move("game.scored", data))


@pytest.mark.parametrize("mode", ["strict", "lenient"])
def test_sheet_b5_derives_the_totals_and_c_takes_the_pot(mode: str) -> None:
    fixture = json.loads(FIXTURE.read_text())
    state = sheet_match(4, sheet_entry_validation=mode, **fixture["ruleset"])
    state = scored(state, **fixture["entry"])
    expected = fixture["expected"]
    assert MATCH.is_complete(state) and MATCH.warnings(state) == []
    assert MATCH.games(state)[0]["scores"] == expected["totals"]
    standing = MATCH.standing(state)
    assert [row["seat"] for row in standing if row["rank"] == 1] == expected["winners"]
    assert [row["seat"] for row in standing] == [2, 3, 1, 0]
    settlement = MATCH.settlement(state)
    assert settlement["nets"] == expected["nets"] and sum(settlement["nets"]) == 0
    assert settlement["payments"] == expected["payments"]
    assert state.entries[0].report["pot"] == expected["pot"]
    closing = MATCH.closing_event(state)
    assert closing == ("match.settled", settlement)
    settled = MATCH.apply(state, Move(*closing))
    assert MATCH.is_settled(settled)


def test_a_sheet_with_double_downs_puts_their_chips_in_the_pot() -> None:
    fixture = json.loads(FIXTURE.read_text())
    state = scored(sheet_match(4), **fixture["entry"], double_downs=[2, 0, 1, 0])
    assert state.entries[0].report["pot"] == 7
    assert MATCH.settlement(state)["nets"] == [-3, -1, 5, -1]  # C paid 2 of the 7


def test_a_sheet_figure_that_does_not_add_up_is_refused() -> None:
    entry = json.loads(FIXTURE.read_text())["entry"]
    wrong = [row[:] for row in entry["cumulative"]]
    wrong[1][2] = 44
    with pytest.raises(IllegalEvent) as caught:
        scored(sheet_match(4), **{**entry, "cumulative": wrong})
    assert caught.value.code == "sheet.cumulative_mismatch" and "frame 3" in caught.value.message
    with pytest.raises(IllegalEvent) as caught:
        scored(sheet_match(4), **{**entry, "scores": [47, 97, 168, 104]})
    assert caught.value.code == "sheet.total_mismatch"


def test_a_negative_frame_is_refused_when_strict_and_warned_when_lenient() -> None:
    frames = [[10, 0, 0, 0, 0, 0, 0], [-5, 0, 0, 0, 0, 0, 0]]
    with pytest.raises(IllegalEvent) as caught:
        scored(sheet_match(2), frames=frames)
    assert caught.value.code == "score.unattainable"
    state = scored(sheet_match(2, sheet_entry_validation="lenient"), frames=frames)
    assert [w["code"] for w in MATCH.warnings(state)] == ["score.unattainable"]
    assert MATCH.games(state)[0]["scores"] == [10, -5]


@pytest.mark.parametrize(
    ("frames", "big", "fine"),
    [
        ([[5] * 7, [5] * 7], None, False),  # tied, yet no extra frame
        ([[5] * 8, [5] * 7 + [6]], None, True),  # the tie broken in frame 8
        ([[5] * 8, [5] * 7], None, False),  # an extra frame for one seat only
        ([[5] * 7, [4] * 8], None, False),  # an extra frame for a seat not tied
        ([[5] * 6, [4] * 7], None, False),  # a frame missing
        ([[5, 5], [1]], None, False),
        ([[5, 5], [1]], 0, True),  # seat 0's Big Scarney in frame 2
        ([[5, 5], [1, 0]], 0, False),  # no frame after a Big Scarney
        ([[5] * 8, [5] * 8], 1, True),  # Big Scarney in an extra frame
    ],
)
def test_the_frames_per_seat_must_be_what_play_gives(
    frames: list[list[int]], big: int | None, fine: bool
) -> None:
    data: dict[str, Any] = {"frames": frames, "big_scarney": big}
    if fine:
        state = scored(sheet_match(2), **data)
        assert state.entries[0].winners == ((big,) if big is not None else (1,))
        return
    with pytest.raises(IllegalEvent) as caught:
        scored(sheet_match(2, sheet_entry_validation="lenient"), **data)
    assert caught.value.code == "sheet.frame_count"


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"scores": [1, 2]},
        {"frames": [[1] * 7]},
        {"frames": [[1] * 7, "x"]},
        {"frames": [[1] * 7, [True] * 7]},
        {"frames": [[1] * 7, []]},
        {"frames": [[1] * 7, [2] * 7], "big_scarney": 2},
        {"frames": [[1] * 7, [2] * 7], "double_downs": [1]},
        {"frames": [[1] * 7, [2] * 7], "double_downs": [1, -1]},
        {"frames": [[1] * 7, [2] * 7], "cumulative": "no"},
    ],
)
def test_malformed_sheets_are_refused_without_an_exception(data: dict[str, Any]) -> None:
    with pytest.raises(IllegalEvent) as caught:
        scored(sheet_match(2), **data)
    # a row of the wrong length is sheet.wrong_length, a seat the table has not seat.unknown
    codes = ("event.bad_data", "sheet.cumulative_mismatch", "sheet.wrong_length", "seat.unknown")
    assert caught.value.code in codes


def test_a_live_game_reports_its_pot_and_the_match_settles_it() -> None:
    state = play_rounds(new_game(3, ante_chips=2), 7, {0: SCORE_17, 1: SCORE_20, 2: CRAP})
    result = RULES.result(state)
    assert result is not None
    data = {
        "game": "5b4d3b53-7a45-4f3e-9d55-0c4f2f6f7a11",
        "scores": [s.total for s in result.scores],
        "winners": list(result.winners),
        "report": RULES.match_report(state),
    }
    match = MATCH.apply(sheet_match(3), Move("game.finished", data))
    assert MATCH.is_complete(match) and MATCH.next_game_number(match) is None
    assert MATCH.settlement(match) == {
        "payments": [{"from": 0, "to": 1, "points": 2}, {"from": 2, "to": 1, "points": 2}],
        "nets": [-2, 4, -2],
    }
    with pytest.raises(IllegalEvent) as caught:
        MATCH.apply(match, Move("game.finished", {**data, "game": str(data["game"])[::-1]}))
    assert caught.value.code == "match.over"


def test_the_frame_of_a_big_scarney_keeps_the_points_held_before_it() -> None:
    state = play(new_game(), throw("1 3 3 4 6"), throw("6 6 6 6 6"))
    assert state.frames[0].ended == "big_scarney" and frames_of(state, 0) == [17]
    assert RULES.scores(state)[0].total == 17
    assert RULES.match_report(state)["big_scarney"] == 0


def test_bonuses_of_one_kind_make_one_award_naming_every_throw() -> None:
    state = play(new_game(), throw("3 3 3 1 4"), STAND, *SCORE_17, throw("6 6 6 1 4"), STAND)
    (award,) = RULES.scores(state)[0].bonuses
    assert (award.kind, award.points) == ("three_of_a_kind", 40)
    assert award.why == "frame 1: 1 3 3 3 4; frame 2: 1 4 6 6 6" and award.pawns == ()
    single = RULES.scores(play(new_game(), throw("3 3 3 1 4"), STAND))[0].bonuses[0]
    assert single.pawns == ("1", "3", "3", "3", "4")


def test_the_live_die_of_a_little_scarney_counts_by_house_rule_in_a_frame() -> None:
    house = play(new_game(little_scarney_counts_live_die=True), DOUBLE, throw("D D D D 6"))
    assert house.frame is not None and house.frame.held == 25 + 12
    literal = play(new_game(), DOUBLE, throw("D D D D 6"))
    assert literal.frame is not None and literal.frame.held == 25


def test_undo_takes_back_a_seating_throw() -> None:
    moves = [throw("1 3 6 D D"), throw("4 4 6 D D"), UNDO]
    states = fold_states(RULES, new_game(2, {"seating_throws": True}), moves)
    assert states[-1] == states[1] and RULES.current_player(states[-1]) == 1


def test_a_big_scarney_on_a_sheet_wins_whatever_the_totals_and_ranks_first() -> None:
    frames = [[40, 40, 40], [0, 0, 5], [30, 30]]
    state = scored(sheet_match(3, ante_chips=2), frames=frames, big_scarney=1)
    assert state.entries[0].winners == (1,)
    standing = MATCH.standing(state)
    assert [(row["seat"], row["rank"], row["chips"]) for row in standing] == [
        (1, 1, 4),
        (0, 2, -2),
        (2, 3, -2),
    ]
    game = MATCH.games(state)[0]
    assert game["big_scarney"] == 1 and game["frames"][0] == [[40, 40], [40, 80], [40, 120]]


# --- malformed data of any shape is a refusal, never an exception ---------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=3)
    | st.sampled_from(FACES),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=12,
)  # fmt: skip
DATA = st.dictionaries(
    st.sampled_from(["faces", "opposite", "seat", "frames", "big_scarney", "scores"]), JSON
)


def _states() -> list[State]:
    return [
        new_game(),
        play(new_game(), throw("1 3 3 4 6")),
        play(new_game(), throw("D D D D 1")),
        new_game(3, {"seating_throws": True}),
        play(new_game(), throw("1 1 1 1 1")),
    ]


@settings(max_examples=150, deadline=None)
@given(
    index=st.integers(0, 4),
    type=st.sampled_from(["dice.thrown", "shooter.stood", "double_down.called"]),
    data=DATA,
)
def test_random_event_data_is_applied_or_refused_never_raising(
    index: int, type: str, data: dict[str, Any]
) -> None:
    try:
        RULES.apply(_states()[index], Move(type, data))
    except IllegalEvent as refusal:
        assert refusal.code and refusal.message


@settings(max_examples=100, deadline=None)
@given(setup=JSON, data=DATA)
def test_random_setups_and_sheets_are_refused_cleanly(setup: Any, data: dict[str, Any]) -> None:
    try:
        RULES.initial_state(setup, Ruleset(), 3)
    except BadSetup as refusal:
        assert refusal.code.startswith("setup.")
    try:
        scored(sheet_match(3, sheet_entry_validation="lenient"), **data)
    except IllegalEvent as refusal:
        assert refusal.code
