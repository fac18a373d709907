"""The Hearts Due rule engine: RULES.md 15 (rolls, the reset, the target, equal turns, ties)."""

from itertools import combinations_with_replacement
from typing import Any

import pytest

from games.rules import registry
from games.rules.base import Move, Rules, fold, make_ruleset
from games.rules.dice_games.hearts_due import (
    HEARTS_DUE,
    Ruleset,
    State,
    letters,
    resets,
    roll_points,
)
from games.rules.errors import BadRuleset, BadSetup, IllegalEvent


def roll(faces: str) -> Move:
    return Move("dice.thrown", {"faces": faces.split()})


def new_game(seats: int = 2, **house: Any) -> State:
    return HEARTS_DUE.initial_state({}, make_ruleset(Ruleset, house), seats)


def played(rolls: list[str], seats: int = 2, **house: Any) -> State:
    return fold(HEARTS_DUE, new_game(seats, **house), [roll(r) for r in rolls])


def refusal(state: State, move: Move) -> IllegalEvent:
    with pytest.raises(IllegalEvent) as refused:
        HEARTS_DUE.apply(state, move)
    return refused.value


HEARTS = "1 2 3 4 5 6"  # 35
MISS = "2 3 4 5 6 6"  # 0
THREE_HS = "1 1 1 2 3 4"  # reset


# --- the engine ---------------------------------------------------------------------------------


def test_hearts_due_is_registered_and_follows_the_rules_protocol() -> None:
    assert registry.get("hearts-due") is HEARTS_DUE
    assert isinstance(HEARTS_DUE, Rules)
    assert (HEARTS_DUE.min_seats, HEARTS_DUE.max_seats) == (2, 20)


def test_the_default_ruleset_is_three_or_more_hs_to_100_with_equal_turns() -> None:
    assert make_ruleset(Ruleset, {}) == Ruleset(3, 100, True)


def test_house_rules_are_checked() -> None:
    with pytest.raises(BadRuleset) as refused:
        make_ruleset(Ruleset, {"hearts_due_reset_ones": 4})
    assert refused.value.code == "ruleset.bad_value"
    for target in (0, -5, "100", True, 2.5):
        with pytest.raises(BadRuleset) as refused:
            new_game(hearts_due_target=target)
        assert refused.value.code == "ruleset.bad_value"


def test_one_player_or_a_setup_is_refused() -> None:
    with pytest.raises(BadSetup) as refused:
        new_game(1)
    assert refused.value.code == "game.bad_seats"
    with pytest.raises(BadSetup) as refused:
        HEARTS_DUE.initial_state({"first": 1}, None, 2)
    assert refused.value.code == "setup.unknown_key"


# --- scoring a roll (RULES.md 15.2 test vectors, D-HD-1) ----------------------------------------


@pytest.mark.parametrize(
    ("faces", "points"),
    [
        ("1 2 3 4 5 6", 35),
        ("1 2 4 5 6 6", 10),
        ("1 1 2 3 3 6", 15),
        ("2 3 4 5 6 6", 0),
        ("1 6 6 6 6 6", 5),
        ("4 3 2 1 6 6", 20),
        ("1 2 3 4 5 5", 25),  # D-HD-1: H-E-A-R-T is 1-2-3-4-5, not the printed 1-2-4-5
        ("1 2 4 5 5 5", 10),
    ],
)
def test_the_roll_vectors_score_the_run_of_hearts(faces: str, points: int) -> None:
    assert roll_points(faces.split()) == points
    state = played([faces])
    assert HEARTS_DUE.scores(state)[0].points == points


def test_every_roll_scores_exactly_the_values_appendix_c_allows() -> None:
    """Appendix C.5: a roll scores 0, 5, 10, 15, 20, 25 or 35, or resets the total; each occurs."""
    ruleset = Ruleset()
    points, resetting = set(), 0
    for dice in combinations_with_replacement("123456", 6):
        if resets(dice, ruleset):
            resetting += 1
        else:
            points.add(roll_points(dice))
    assert points == {0, 5, 10, 15, 20, 25, 35}
    assert resetting > 0


def test_the_dice_read_as_the_letters_of_hearts() -> None:
    assert letters("1 2 3 4 5 6".split()) == "HEARTS"


def test_three_hs_reset_the_whole_total_not_only_the_roll() -> None:
    # given seat 0 at 35 after round one
    state = played([HEARTS, MISS, THREE_HS])
    # then the vector 1 1 1 2 3 4 resets to 0 (D-HD-4)
    assert HEARTS_DUE.scores(state)[0].points == 0
    last = HEARTS_DUE.view(state)["dice"]["rolls"][-1]
    assert last == {
        "seat": 0,
        "faces": ["1", "1", "1", "2", "3", "4"],
        "letters": "HHHEAR",
        "points": 0,
        "reset": True,
        "total": 0,
        "extra_round": False,
    }


def test_three_or_more_hs_reset_by_default() -> None:
    ruleset = Ruleset()
    assert resets("1 1 1 1 2 3".split(), ruleset)
    assert resets("1 1 1 1 1 1".split(), ruleset)
    assert not resets("1 1 2 3 4 5".split(), ruleset)


def test_exactly_three_hs_reset_under_the_house_rule() -> None:
    ruleset = Ruleset(hearts_due_reset_ones="exactly_3")
    assert resets("1 1 1 2 3 4".split(), ruleset)
    assert not resets("1 1 1 1 2 3".split(), ruleset)
    state = played(["1 1 1 1 2 3"], hearts_due_reset_ones="exactly_3")
    assert HEARTS_DUE.scores(state)[0].points == 15


# --- turns, the target and the end (15.3, D-HD-3, 0.7) ------------------------------------------


def test_turns_pass_clockwise_and_totals_accumulate() -> None:
    state = played([HEARTS, "1 2 2 2 2 2", HEARTS])
    assert [s.points for s in HEARTS_DUE.scores(state)] == [70, 10]
    assert HEARTS_DUE.current_player(state) == 1
    assert HEARTS_DUE.expected(state) == ["dice.thrown"]
    assert HEARTS_DUE.legal_events(state) is None
    assert HEARTS_DUE.view(state)["dice"]["round"] == 2


def test_reaching_the_target_completes_the_round_so_turns_are_equal() -> None:
    # seat 0 reaches 105 in round three; seat 1 still rolls, and stays below
    state = played([HEARTS, MISS, HEARTS, MISS, HEARTS])
    assert not HEARTS_DUE.is_terminal(state)
    assert HEARTS_DUE.view(state)["dice"]["target_reached"] is True
    state = HEARTS_DUE.apply(state, roll(MISS))
    assert HEARTS_DUE.is_terminal(state)
    result = HEARTS_DUE.result(state)
    assert result is not None and result.winners == (0,)
    assert [s.total for s in result.scores] == [105, 0]
    assert HEARTS_DUE.expected(state) == [] and HEARTS_DUE.legal_events(state) == []
    assert HEARTS_DUE.current_player(state) is None


def test_exactly_the_target_reaches_it() -> None:
    """RULES.md 15.3: the game is played to the target; a player reaching "100 or more" ends it,
    so a total equal to the target (here 35 of 35) counts, and the round is then completed."""
    state = played([HEARTS], hearts_due_target=35)
    assert HEARTS_DUE.view(state)["dice"]["target_reached"] is True
    state = HEARTS_DUE.apply(state, roll("1 2 3 4 5 5"))
    result = HEARTS_DUE.result(state)
    assert result is not None and result.winners == (0,)
    assert [s.total for s in result.scores] == [35, 25]


def test_the_last_player_can_overtake_in_the_completed_round() -> None:
    # seat 0 reaches 60 of a target of 50 first; seat 1 still rolls and passes him
    state = played([HEARTS, HEARTS, "1 2 3 4 5 5", HEARTS], hearts_due_target=50)
    result = HEARTS_DUE.result(state)
    assert result is not None and result.winners == (1,)
    assert [s.total for s in result.scores] == [60, 70]


def test_without_equal_turns_the_game_ends_as_soon_as_the_target_is_reached() -> None:
    state = played([HEARTS, MISS, HEARTS, MISS, HEARTS], hearts_due_equal_turns=False)
    result = HEARTS_DUE.result(state)
    assert result is not None and result.winners == (0,)
    assert refusal(state, roll(MISS)).code == "game.over"


def test_a_tie_for_the_highest_total_is_broken_by_extra_rounds_of_the_tied_only() -> None:
    # three players; seats 0 and 2 tie at 35 with a target of 30, seat 1 has 5
    state = played([HEARTS, "1 3 3 3 3 3", HEARTS], seats=3, hearts_due_target=30)
    assert not HEARTS_DUE.is_terminal(state)
    dice = HEARTS_DUE.view(state)["dice"]
    assert dice["extra_round"] is True and dice["to_roll"] == [0, 2]
    # the extra rolls add to the totals (0.7); still tied: repeat
    state = fold(HEARTS_DUE, state, [roll("1 2 6 6 6 6"), roll("1 2 5 5 5 5")])
    assert HEARTS_DUE.current_player(state) == 0
    state = fold(HEARTS_DUE, state, [roll(MISS), roll("1 4 4 4 4 4")])
    result = HEARTS_DUE.result(state)
    assert result is not None and result.winners == (2,)
    assert [s.total for s in result.scores] == [45, 5, 50]
    assert HEARTS_DUE.view(state)["dice"]["rolls"][-1]["extra_round"] is True


def test_a_reset_in_the_extra_round_can_hand_the_game_to_a_player_not_tied() -> None:
    # seats 0 and 1 tie at 35, seat 2 has 20; both tied players roll three H's
    state = played([HEARTS, HEARTS, "1 2 3 4 6 6"], seats=3, hearts_due_target=30)
    state = fold(HEARTS_DUE, state, [roll(THREE_HS), roll(THREE_HS)])
    result = HEARTS_DUE.result(state)
    assert result is not None and result.winners == (2,)


# --- refusals ------------------------------------------------------------------------------------


def test_a_roll_must_have_six_ordinary_dice() -> None:
    state = new_game()
    assert refusal(state, roll("1 2 3 4 5")).code == "throw.wrong_dice_count"
    error = refusal(state, roll("1 2 3 4 5 7"))
    assert error.code == "throw.bad_face" and "'7'" in error.message
    assert refusal(state, roll("1 2 3 4 5 D")).code == "throw.bad_face"


@pytest.mark.parametrize("data", [{}, {"faces": "123456"}, {"faces": None}, []])
def test_malformed_data_is_refused_as_bad_data(data: Any) -> None:
    assert refusal(new_game(), Move("dice.thrown", data)).code == "event.bad_data"


def test_other_events_are_unknown() -> None:
    assert refusal(new_game(), Move("shooter.stood", {})).code == "event.unknown_type"
    assert refusal(new_game(), Move(None, {})).code == "event.unknown_type"  # type: ignore[arg-type]


def test_a_roll_can_be_taken_back() -> None:
    before = played([HEARTS])
    after = fold(HEARTS_DUE, before, [roll(THREE_HS), Move("move.undone")])
    assert after == before
