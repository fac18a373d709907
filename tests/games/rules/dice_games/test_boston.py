"""Going to Boston and Multiplication: RULES.md 13 and 14, the pot, and the session match."""

import uuid
from itertools import product
from typing import Any

import pytest

from games.rules import registry
from games.rules.base import Move, Rules, fold, make_ruleset
from games.rules.dice_games.boston import (
    GOING_TO_BOSTON,
    MULTIPLICATION_RULES,
    Ruleset,
    State,
    boston_score,
    multiplication_score,
    set_aside,
)
from games.rules.dice_games.boston_match import PRODUCTS, SUMS, SessionRuleset
from games.rules.errors import BadRuleset, BadSetup, IllegalEvent
from games.rules.matches import ScoredMatchState
from games.rules.registry import match_rules

BOSTON = GOING_TO_BOSTON
MULT = MULTIPLICATION_RULES
SPLIT = Ruleset(boston_tie="split")


def throw(faces: str) -> Move:
    return Move("dice.thrown", {"faces": faces.split()})


def turn(first: str, second: str, last: str) -> list[Move]:
    return [throw(first), throw(second), throw(last)]


def new_round(rules: Any = BOSTON, seats: int = 3, ruleset: Any = None, **setup: Any) -> State:
    state: State = rules.initial_state(setup, ruleset, seats)
    return state


def played(turns: list[list[Move]], rules: Any = BOSTON, seats: int = 3, **kw: Any) -> State:
    moves = [move for t in turns for move in t]
    state: State = fold(rules, new_round(rules, seats, **kw), moves)
    return state


def refusal(state: State, move: Move, rules: Any = BOSTON) -> IllegalEvent:
    with pytest.raises(IllegalEvent) as refused:
        rules.apply(state, move)
    return refused.value


TEN = turn("1 2 4", "3 1", "5")  # 4 + 3 + 5 = 12
SEVEN = turn("2 2 1", "2 1", "3")  # 2 + 2 + 3 = 7
EIGHTEEN = turn("6 6 6", "6 6", "6")


# --- the engines --------------------------------------------------------------------------------


def test_both_games_are_registered_and_follow_the_rules_protocol() -> None:
    assert registry.get("going-to-boston") is BOSTON
    assert registry.get("multiplication") is MULT
    assert isinstance(BOSTON, Rules) and isinstance(MULT, Rules)


def test_the_default_ruleset_antes_one_chip_and_plays_ties_off() -> None:
    assert make_ruleset(Ruleset, {}) == Ruleset(1, "playoff", "strict")
    with pytest.raises(BadRuleset):
        make_ruleset(Ruleset, {"boston_tie": "share"})
    for ante in (0, -1, "1", True):
        with pytest.raises(BadRuleset) as refused:
            new_round(ruleset=make_ruleset(Ruleset, {"ante_chips": ante}))
        assert refused.value.code == "ruleset.bad_value"


@pytest.mark.parametrize(
    ("setup", "code"),
    [
        ({"first": 1}, "setup.unknown_key"),
        ({"first_player": 3}, "setup.bad_first_player"),
        ({"first_player": "0"}, "setup.bad_first_player"),
        ({"carried": -1}, "setup.bad_carried"),
        ({"carried": 1.5}, "setup.bad_carried"),
    ],
)
def test_a_bad_setup_is_refused(setup: dict[str, Any], code: str) -> None:
    with pytest.raises(BadSetup) as refused:
        BOSTON.initial_state(setup, None, 3)
    assert refused.value.code == code


def test_one_player_is_refused() -> None:
    with pytest.raises(BadSetup) as refused:
        BOSTON.initial_state({}, None, 1)
    assert refused.value.code == "game.bad_seats"


# --- the turn (13.3, 14, D-MUL-1) ----------------------------------------------------------------


def test_the_highest_then_the_higher_then_the_last_die_are_set_aside() -> None:
    assert set_aside([("1", "2", "4"), ("3", "1"), ("5",)]) == ("4", "3", "5")
    assert set_aside([("5", "5", "2"), ("4", "4"), ("1",)]) == ("5", "4", "1")
    assert boston_score(("4", "3", "5")) == 12


def test_multiplications_worked_example_scores_42() -> None:
    # the seed: 3 and 4 set aside, the last die a 6: (3 + 4) x 6
    assert multiplication_score(("3", "4", "6")) == 42
    state = played([turn("3 1 2", "4 2", "6")], MULT)
    assert MULT.scores(state)[0].points == 42
    last = MULT.view(state)["dice"]["turns"][0]
    assert last["how"] == "(3 + 4) × 6 = 42"


def test_multiplication_sets_aside_the_highest_even_when_a_lower_die_would_suit_better() -> None:
    # D-MUL-1: 6 then 6 set aside, last 1: (6 + 6) x 1 = 12, though keeping lower would not help
    state = played([turn("6 1 1", "6 5", "1")], MULT)
    assert MULT.scores(state)[0].points == 12


def test_scores_span_3_to_18_and_2_to_72() -> None:
    assert min(PRODUCTS) == 2 and max(PRODUCTS) == 72
    assert 71 not in PRODUCTS and 42 in PRODUCTS
    assert played([EIGHTEEN], seats=2).turns[0].score == 18


def test_the_sheet_sets_are_exactly_the_scores_the_fixed_procedure_can_give() -> None:
    """Appendix C.5 (Boston 3-18, Multiplication (a + b) x c) against every possible turn of
    13.3/D-MUL-1: the sets a sheet is checked against hold every reachable score and no other."""
    faces = "123456"
    boston, products = set(), set()
    for first, second, last in product(product(faces, repeat=3), product(faces, repeat=2), faces):
        aside = set_aside([first, second, (last,)])
        boston.add(boston_score(aside))
        products.add(multiplication_score(aside))
    assert boston == SUMS == set(range(3, 19))
    assert products == PRODUCTS


def test_the_view_says_whose_throw_and_how_many_dice_are_in_the_cup() -> None:
    state = new_round()
    dice = BOSTON.view(state)["dice"]
    assert (dice["turn"], dice["throw"], dice["in_cup"]) == (0, 1, 3)
    state = BOSTON.apply(state, throw("1 2 4"))
    dice = BOSTON.view(state)["dice"]
    assert (dice["throw"], dice["in_cup"], dice["set_aside"]) == (2, 2, ["4"])
    state = BOSTON.apply(state, throw("3 1"))
    assert BOSTON.view(state)["dice"]["in_cup"] == 1
    state = BOSTON.apply(state, throw("5"))
    dice = BOSTON.view(state)["dice"]
    assert (dice["turn"], dice["in_cup"], dice["set_aside"]) == (1, 3, [])
    assert dice["turns"][0]["how"] == "4 + 3 + 5 = 12"
    assert BOSTON.expected(state) == ["dice.thrown"] and BOSTON.legal_events(state) is None


# --- the pot (13.2, 13.4) ------------------------------------------------------------------------


def test_every_seat_antes_and_the_highest_score_takes_the_pot() -> None:
    state = new_round(ruleset=Ruleset(ante_chips=2))
    assert BOSTON.view(state)["pot"] == {"balance": 6, "nets": [-2, -2, -2]}
    state = fold(BOSTON, state, [*SEVEN, *TEN, *SEVEN])
    assert BOSTON.is_terminal(state)
    assert BOSTON.view(state)["pot"] == {"balance": 0, "nets": [-2, 4, -2]}
    assert BOSTON.pot_ledger(state) == [
        {"kind": "ante", "seat": 0, "chips": 2},
        {"kind": "ante", "seat": 1, "chips": 2},
        {"kind": "ante", "seat": 2, "chips": 2},
        {"kind": "win", "seat": 1, "chips": -6},
    ]
    result = BOSTON.result(state)
    assert result is not None and result.winners == (1,)
    assert [s.total for s in result.scores] == [7, 12, 7]
    assert BOSTON.match_report(state) == {"nets": [-2, 4, -2], "pot_left": 0}
    assert refusal(state, throw("1 2 3")).code == "game.over"
    assert BOSTON.expected(state) == [] and BOSTON.legal_events(state) == []


def test_a_tie_is_played_off_by_the_tied_players_only_comparing_new_scores() -> None:
    state = played([TEN, SEVEN, TEN])
    assert not BOSTON.is_terminal(state)
    dice = BOSTON.view(state)["dice"]
    assert (dice["playoff"], dice["to_throw"], dice["turn"]) == (1, [0, 2], 0)
    # the play-off ties again (7 and 7): repeat
    state = fold(BOSTON, state, [*SEVEN, *SEVEN])
    assert BOSTON.view(state)["dice"]["playoff"] == 2
    state = fold(BOSTON, state, [*SEVEN, *EIGHTEEN])
    result = BOSTON.result(state)
    assert result is not None and result.winners == (2,)
    # the round's own scores stay on the sheet; the antes are paid once only
    assert [s.total for s in result.scores] == [12, 7, 12]
    assert BOSTON.view(state)["pot"] == {"balance": 0, "nets": [-1, -1, 2]}


def test_under_split_the_tied_share_the_pot_and_the_remainder_stays() -> None:
    state = played([TEN, SEVEN, TEN], ruleset=SPLIT)
    result = BOSTON.result(state)
    assert result is not None and result.winners == (0, 2)
    assert BOSTON.pot_ledger(state)[-2:] == [
        {"kind": "split", "seat": 0, "chips": -1},
        {"kind": "split", "seat": 2, "chips": -1},
    ]
    assert BOSTON.view(state)["pot"] == {"balance": 1, "nets": [0, -1, 0]}
    assert BOSTON.match_report(state) == {"nets": [0, -1, 0], "pot_left": 1}


def test_multiplication_ties_follow_boston_tie_too() -> None:
    # D-MUL-2: (3 + 4) x 6 = 42 for both; split, or played off
    tied = [turn("3 1 2", "4 2", "6"), turn("4 2 1", "3 3", "6")]
    state = played(tied, MULT, seats=2, ruleset=SPLIT)
    assert MULT.view(state)["pot"] == {"balance": 0, "nets": [0, 0]}
    assert played(tied, MULT, seats=2).playoff == 1


def test_chips_carried_from_the_last_round_go_to_this_rounds_winner() -> None:
    state = new_round(carried=1)
    assert BOSTON.pot_ledger(state)[0] == {"kind": "carry", "seat": None, "chips": 1}
    state = fold(BOSTON, state, [*TEN, *SEVEN, *SEVEN])
    assert BOSTON.view(state)["pot"] == {"balance": 0, "nets": [3, -1, -1]}


def test_the_first_player_may_be_agreed_and_play_goes_clockwise_from_him() -> None:
    # D-BOS-2: seat 2 leads, then 0, then 1
    state = new_round(first_player=2)
    assert BOSTON.current_player(state) == 2
    state = fold(BOSTON, state, TEN)
    assert BOSTON.current_player(state) == 0
    state = fold(BOSTON, state, [*TEN, *SEVEN])
    # the play-off of seats 2 and 0 starts from the first player too
    assert BOSTON.view(state)["dice"]["to_throw"] == [2, 0]


# --- refusals ------------------------------------------------------------------------------------


def test_each_throw_has_the_dice_the_procedure_leaves() -> None:
    state = new_round()
    assert refusal(state, throw("1 2")).code == "throw.wrong_dice_count"
    state = BOSTON.apply(state, throw("1 2 3"))
    error = refusal(state, throw("1 2 3"))
    assert error.code == "throw.wrong_dice_count" and "2 dice" in error.message
    assert refusal(state, throw("1 7")).code == "throw.bad_face"
    state = BOSTON.apply(state, throw("1 2"))
    assert refusal(state, throw("1 2")).code == "throw.wrong_dice_count"


@pytest.mark.parametrize("data", [{}, {"faces": 6}, []])
def test_malformed_throws_are_refused(data: Any) -> None:
    assert refusal(new_round(), Move("dice.thrown", data)).code == "event.bad_data"


def test_other_events_are_unknown() -> None:
    assert refusal(new_round(), Move("shooter.stood", {})).code == "event.unknown_type"


def test_a_throw_can_be_taken_back() -> None:
    before = played([TEN, SEVEN])
    assert fold(BOSTON, before, [throw("1 1 1"), Move("move.undone")]) == before
    last = fold(BOSTON, played([TEN, SEVEN]), [throw("1 1 1"), throw("1 1")])
    assert fold(BOSTON, last, [throw("1"), Move("move.undone")]) == last


# --- the session (the match) ---------------------------------------------------------------------


def session(kind: str = "going-to-boston", seats: int = 3, **house: Any) -> ScoredMatchState:
    state: ScoredMatchState = match_rules(kind).initial_state(house, seats)
    return state


def finished(state: State, rules: Any = BOSTON) -> Move:
    result = rules.result(state)
    return Move(
        "game.finished",
        {
            "game": str(uuid.uuid4()),
            "scores": [s.total for s in result.scores],
            "winners": list(result.winners),
            "report": rules.match_report(state),
        },
    )


def scored(*scores: int, **more: Any) -> Move:
    return Move("game.scored", {"scores": list(scores), **more})


def test_a_session_plays_one_round_per_player_by_default() -> None:
    match = match_rules("going-to-boston")
    state = session()
    assert match.next_game_setup(state) == {"first_player": 0, "carried": 0}
    state = match.apply(state, finished(played([SEVEN, TEN, SEVEN])))
    assert match.next_game_setup(state) == {"first_player": 1, "carried": 0}
    state = match.apply(state, finished(played([TEN, SEVEN, SEVEN], first_player=1)))
    assert not match.is_complete(state)
    state = match.apply(state, scored(12, 7, 5))
    assert match.is_complete(state)
    standing = match.standing(state)
    assert [(r["seat"], r["total"], r["games_won"], r["rank"]) for r in standing] == [
        (1, 3, 2, 1),
        (0, 0, 1, 2),
        (2, -3, 0, 3),
    ]
    assert match.settlement(state) == {
        "payments": [{"from": 2, "to": 1, "points": 3}],
        "nets": [0, 3, -3],
        "pot_left": 0,
    }
    assert match.apply(state, Move("match.settled", match.settlement(state))).settlement
    assert pytest.raises(IllegalEvent, match.apply, state, scored(3, 3, 4)).value.code == (
        "match.over"
    )


def test_the_session_length_is_a_house_rule() -> None:
    match = match_rules("multiplication")
    state = session("multiplication", seats=2, session_rounds=1, ante_chips=5)
    state = match.apply(state, scored(42, 2))
    assert match.is_complete(state)
    assert match.settlement(state)["nets"] == [5, -5]
    for rounds in (0, "2", -1):
        with pytest.raises(BadRuleset):
            session(session_rounds=rounds)
    assert make_ruleset(SessionRuleset, {}).session_rounds is None


def test_a_split_remainder_is_carried_into_the_next_round_of_the_session() -> None:
    match = match_rules("going-to-boston")
    state = session(boston_tie="split")
    state = match.apply(state, finished(played([TEN, SEVEN, TEN], ruleset=SPLIT)))
    assert match.next_game_setup(state) == {"first_player": 1, "carried": 1}
    # a sheet round: seat 1 wins the 3 antes plus the carried chip
    state = match.apply(state, scored(3, 18, 4))
    assert match.next_game_setup(state)["carried"] == 0
    # seats 0 and 1 split 3 chips: one each, one left in the pot at the session's end
    state = match.apply(state, scored(10, 10, 4))
    assert match.settlement(state) == {
        "payments": [{"from": 0, "to": 1, "points": 1}, {"from": 2, "to": 1, "points": 1}],
        "nets": [-1, 2, -2],
        "pot_left": 1,
    }


def test_a_sheet_round_with_a_tie_needs_its_play_offs_under_playoff() -> None:
    match = match_rules("going-to-boston")
    state = session()
    error = pytest.raises(IllegalEvent, match.apply, state, scored(12, 12, 4)).value
    assert error.code == "sheet.playoff_missing" and "Seats 0 and 1 tie" in error.message
    state = match.apply(state, scored(12, 12, 4, playoffs=[[9, 9], [5, 11]]))
    assert match.games(state)[0]["winners"] == [1]
    assert match.standing(state)[0]["seat"] == 1
    bad = scored(12, 7, 4, playoffs=[[9, 9]])
    assert pytest.raises(IllegalEvent, match.apply, state, bad).value.code == (
        "sheet.playoff_not_due"
    )
    bad = scored(12, 12, 4, playoffs=[[9]])
    assert pytest.raises(IllegalEvent, match.apply, state, bad).value.code == "sheet.wrong_length"
    bad = scored(12, 12, 4, playoffs="none")
    assert pytest.raises(IllegalEvent, match.apply, state, bad).value.code == "event.bad_data"


def test_impossible_sheet_scores_are_refused_or_warned() -> None:
    match = match_rules("multiplication")
    error = pytest.raises(IllegalEvent, match.apply, session("multiplication"), scored(71, 2, 3))
    assert error.value.code == "score.unattainable" and "71" in error.value.message
    boston = match_rules("going-to-boston")
    assert pytest.raises(IllegalEvent, boston.apply, session(), scored(19, 3, 3)).value.code == (
        "score.unattainable"
    )
    lenient = session(sheet_entry_validation="lenient")
    state = boston.apply(lenient, scored(19, 3, 3))
    assert [w["code"] for w in boston.warnings(state)] == ["score.unattainable"]


def test_a_sheet_checks_its_cumulative_figures() -> None:
    match = match_rules("going-to-boston")
    state = match.apply(session(), scored(12, 7, 5))
    bad = scored(3, 4, 18, cumulative=[15, 11, 22])
    assert pytest.raises(IllegalEvent, match.apply, state, bad).value.code == (
        "sheet.cumulative_mismatch"
    )
    assert match.apply(state, scored(3, 4, 18, cumulative=[15, 11, 23]))


def test_a_session_has_no_teams() -> None:
    with pytest.raises(BadSetup):
        match_rules("going-to-boston").initial_state({}, 3, [[0, 1], [2]])
