"""Partnership Straight Scarney Dice rules (RULES.md 8, with 7; the match of 0.8)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.base import Move, fold_states, make_ruleset
from games.rules.errors import BadRuleset, BadSetup, IllegalEvent
from games.rules.registry import match_rules
from games.rules.straight_dice.partnership import PartnershipDiceRules, PartnershipRuleset
from games.rules.straight_dice.play import State

RULES = PartnershipDiceRules()
MATCH = match_rules("partnership-straight-scarney-dice")
STAND = Move("shooter.stood", {})


def throw(faces: str, **extra: Any) -> Move:
    return Move("dice.thrown", {"faces": faces.split(), **extra})


def new_game(seats: int = 4, setup: dict[str, Any] | None = None, **house: Any) -> State:
    return RULES.initial_state(setup or {}, make_ruleset(PartnershipRuleset, house), seats)


def play(state: State, *moves: Move) -> State:
    for move in moves:
        state = RULES.apply(state, move)
    return state


def frame(points: int) -> tuple[Move, ...]:
    """A frame of ``points`` from a catalogue of single throws (0: a crap-out)."""
    catalogue = {0: ("D D D 1 3", "D D"), 17: ("1 3 3 4 6",), 20: ("1 3 4 6 6",)}
    catalogue |= {15: ("1 1 3 4 6",), 18: ("1 3 4 4 6",), 19: ("1 3 4 6 5",)}
    moves = tuple(throw(faces) for faces in catalogue[points])
    return moves if points == 0 else (*moves, STAND)


def play_rounds(state: State, rounds: int, points: dict[int, int]) -> State:
    for _ in range(rounds):
        for seat in state.order:
            state = play(state, *frame(points[seat]))
    return state


def totals(state: State) -> list[int]:
    result = RULES.result(state)
    assert result is not None
    return [score.total for score in result.scores]


# --- sides ----------------------------------------------------------------------------------------


def test_by_default_partners_sit_alternately() -> None:
    assert new_game(4).sides == ((0, 2), (1, 3))
    assert new_game(6).sides == ((0, 2, 4), (1, 3, 5))
    assert new_game(4, {"teams": [[3, 1], [2, 0]]}).sides == ((0, 2), (1, 3))


@pytest.mark.parametrize(
    ("seats", "setup", "code"),
    [
        (5, {}, "game.bad_seats"),
        (2, {}, "game.bad_seats"),
        (4, {"teams": [[0, 1], [2, 3]]}, "setup.teams_not_alternating"),
        (4, {"teams": [[0, 2], [1, 2]]}, "setup.bad_teams"),
        (4, {"teams": [[0, 2], [1]]}, "setup.bad_teams"),
        (4, {"teams": [[0, 2, 1, 3]]}, "setup.bad_teams"),
        (4, {"teams": "02/13"}, "setup.bad_teams"),
        (4, {"teams": [["0", 2], [1, 3]]}, "setup.bad_teams"),
        (4, {"teams": [[0, 2], [1, 3]], "partner_throws": True}, "setup.conflict"),
        (4, {"partner_throws": True, "first_shooter": 1}, "setup.conflict"),
        (4, {"seating_throws": True}, "setup.unknown_key"),
    ],
)
def test_bad_partnership_setups(seats: int, setup: dict[str, Any], code: str) -> None:
    with pytest.raises(BadSetup) as caught:
        new_game(seats, setup)
    assert caught.value.code == code


def test_the_odd_chips_house_rule_takes_only_its_two_values() -> None:
    with pytest.raises(BadRuleset):
        make_ruleset(PartnershipRuleset, {"partnership_odd_chips": "split"})
    assert make_ruleset(PartnershipRuleset, {"partnership_odd_chips": "carry_over"})


# --- play, side totals, pot division --------------------------------------------------------------


def test_the_side_with_the_higher_sum_of_totals_takes_the_pot() -> None:
    # seats 0 and 2 make 17 + 15 a frame; seats 1 and 3 make 20 + 0
    state = play_rounds(new_game(4, ante_chips=2), 7, {0: 17, 1: 20, 2: 15, 3: 0})
    assert state.over and state.winners == (0, 2)
    assert RULES.view(state)["sides"] == [
        {"seats": [0, 2], "total": 224},
        {"seats": [1, 3], "total": 140},
    ]
    assert RULES.view(state)["pot"] == {"balance": 0, "nets": [2, -2, 2, -2]}


def test_odd_chips_go_to_the_winning_partner_with_the_higher_individual_total() -> None:
    # one double-down by seat 0 makes the pot 5: seat 2 (higher total) gets the odd chip
    state = play(new_game(4), Move("double_down.called", {}), *frame(0))
    state = play(state, *frame(0), *frame(20), *frame(0))
    state = play_rounds(state, 6, {0: 15, 1: 0, 2: 20, 3: 0})
    assert state.winners == (0, 2) and totals(state)[::2] == [90, 140]
    wins = [m for m in RULES.pot_ledger(state) if m["kind"] == "win"]
    assert wins == [
        {"kind": "win", "seat": 0, "chips": -2},
        {"kind": "win", "seat": 2, "chips": -3},
    ]
    assert RULES.view(state)["pot"] == {"balance": 0, "nets": [0, -1, 2, -1]}


def test_equal_individual_totals_give_the_odd_chip_in_order_from_the_first_shooter() -> None:
    state = play(new_game(4, {"first_shooter": 2}), Move("double_down.called", {}))
    state = play(state, *frame(17))  # seat 2 pays the odd chip and shoots first
    state = play(state, *frame(0), *frame(17), *frame(0))
    state = play_rounds(state, 6, {0: 17, 1: 0, 2: 17, 3: 0})
    wins = [m for m in RULES.pot_ledger(state) if m["kind"] == "win"]
    assert wins == [
        {"kind": "win", "seat": 2, "chips": -3},
        {"kind": "win", "seat": 0, "chips": -2},
    ]


def test_carry_over_leaves_the_odd_chips_in_the_pot() -> None:
    state = play(new_game(4, partnership_odd_chips="carry_over"), Move("double_down.called", {}))
    state = play(state, *frame(0), *frame(0), *frame(20), *frame(0))
    state = play_rounds(state, 6, {0: 15, 1: 0, 2: 20, 3: 0})
    assert RULES.view(state)["pot"] == {"balance": 1, "nets": [0, -1, 1, -1]}
    assert RULES.match_report(state)["left_in_pot"] == 1


def test_a_side_tie_gives_every_player_one_more_frame_until_it_is_broken() -> None:
    state = play_rounds(new_game(4), 7, {0: 17, 1: 20, 2: 18, 3: 15})
    assert not state.over and state.round == 8 and state.due == (1, 2, 3)
    state = play_rounds(state, 1, {0: 17, 1: 20, 2: 18, 3: 15})  # still tied
    state = play_rounds(state, 1, {0: 20, 1: 17, 2: 18, 3: 15})
    assert state.over and state.winners == (0, 2)
    assert [len([f for f in state.frames if f.seat == s]) for s in range(4)] == [9] * 4


def test_big_scarney_wins_the_pot_for_the_shooters_side_at_once() -> None:
    state = play(new_game(6), *frame(20), throw("6 6 6 6 6"))
    assert state.over and state.winners == (1, 3, 5) and state.big_scarney == 1
    assert RULES.view(state)["pot"] == {"balance": 0, "nets": [-1, 1, -1, 1, -1, 1]}


def test_chips_are_conserved_after_every_event_of_a_partnership_game() -> None:
    moves = [Move("double_down.called", {}), *frame(0), *frame(17), *frame(0), *frame(20)] * 7
    for state in fold_states(RULES, new_game(4), moves):
        pot = RULES.view(state)["pot"]
        assert sum(pot["nets"]) + pot["balance"] == 0


# --- partner throws (8.1, D-PSD-1) ----------------------------------------------------------------


def test_partner_throws_make_the_two_highest_one_side_seated_alternately() -> None:
    state = new_game(4, {"partner_throws": True})
    assert RULES.view(state)["sides"] == []
    # totals: seat 0: 6, seat 1: 14, seat 2: 10, seat 3: 13
    for faces in ["6 D D D D", "4 4 6 D D", "4 6 D D D", "3 4 6 D D"]:
        state = play(state, throw(faces))
    assert state.sides == ((1, 3), (0, 2))
    assert state.order == (1, 2, 3, 0) and RULES.current_player(state) == 1
    assert [m["seat"] for m in RULES.pot_ledger(state)] == [1, 2, 3, 0]


def test_partner_throw_ties_are_thrown_again_only_where_they_matter() -> None:
    # seats 1 and 2 tie across the split (10 each), seats 0 and 3 tie at the bottom (3 each)
    state = new_game(4, {"partner_throws": True})
    for faces in ["3 D D D D", "4 6 D D D", "6 4 D D D", "3 D D D D"]:
        state = play(state, throw(faces))
    assert RULES.view(state)["dice"]["seating"]["throwing"] == [1, 2]
    assert refused(state, throw("1 D D D D", seat=0)).code == "turn.not_your_turn"
    state = play(state, throw("1 D D D D"), throw("3 D D D D"))
    # 2 now leads, 1 is second; 0 and 3 stay tied, on the same side whatever their order
    assert state.order == (2, 0, 1, 3) and state.sides == ((1, 2), (0, 3))


def test_a_tie_for_the_highest_inside_one_side_is_thrown_again() -> None:
    state = new_game(4, {"partner_throws": True})
    for faces in ["4 6 D D D", "1 D D D D", "6 4 D D D", "3 D D D D"]:
        state = play(state, throw(faces))
    assert RULES.view(state)["dice"]["seating"]["throwing"] == [0, 2]
    state = play(state, throw("1 D D D D"), throw("3 D D D D"))
    assert state.order == (2, 3, 0, 1) and state.sides == ((0, 2), (1, 3))


def refused(state: State, move: Move) -> IllegalEvent:
    with pytest.raises(IllegalEvent) as caught:
        RULES.apply(state, move)
    return caught.value


# --- the match ------------------------------------------------------------------------------------


def test_a_match_gives_its_teams_to_its_game_and_refuses_bad_teams() -> None:
    state = MATCH.initial_state({}, 4, [[0, 2], [1, 3]])
    assert MATCH.next_game_setup(state) == {"teams": [[0, 2], [1, 3]]}
    assert MATCH.next_game_setup(MATCH.initial_state({}, 6, [])) == {}
    for seats, teams, code in [
        (4, [[0, 1], [2, 3]], "match.teams_not_alternating"),
        (5, [], "match.bad_seats"),
        (4, [[0, 2]], "match.bad_teams"),
    ]:
        with pytest.raises(BadSetup) as caught:
            MATCH.initial_state({}, seats, teams)
        assert caught.value.code == code


def test_a_partnership_sheet_pays_the_pot_to_the_higher_side() -> None:
    state = MATCH.initial_state({"ante_chips": 2}, 4, [[0, 2], [1, 3]])
    frames = [[10] * 7, [30] * 7, [20] * 7, [1] * 7]
    data = {"frames": frames, "double_downs": [0, 0, 1, 0]}
    state = MATCH.apply(state, Move("game.scored", data))
    entry = state.entries[0]
    assert entry.scores == (70, 210, 140, 7) and entry.winners == (1, 3)
    standing = MATCH.standing(state)
    assert [(row["seat"], row["rank"], row["side_total"]) for row in standing] == [
        (1, 1, 217),
        (3, 1, 217),
        (0, 3, 210),
        (2, 3, 210),
    ]
    # a pot of 9: 4 each, the odd chip to seat 1 (210 against 7)
    settlement = MATCH.settlement(state)
    assert settlement["nets"] == [-2, 3, -3, 2]
    assert settlement["payments"] == [
        {"from": 0, "to": 1, "points": 2},
        {"from": 2, "to": 1, "points": 1},
        {"from": 2, "to": 3, "points": 2},
    ]


def test_a_partnership_sheet_with_a_side_tie_needs_an_extra_frame_for_everyone() -> None:
    state = MATCH.initial_state({}, 4, [])
    tied = [[10] * 7, [20] * 7, [10] * 7, [0] * 7]
    with pytest.raises(IllegalEvent) as caught:
        MATCH.apply(state, Move("game.scored", {"frames": tied}))
    assert caught.value.code == "sheet.frame_count"
    broken = [row + [extra] for row, extra in zip(tied, [5, 0, 0, 0], strict=True)]
    state = MATCH.apply(state, Move("game.scored", {"frames": broken}))
    assert state.entries[0].winners == (0, 2)
    settlement = MATCH.settlement(state)
    assert settlement["nets"] == [1, -1, 1, -1] and sum(settlement["nets"]) == 0
    assert settlement["payments"] == [
        {"from": 1, "to": 0, "points": 1},
        {"from": 3, "to": 2, "points": 1},
    ]


@settings(max_examples=100, deadline=None)
@given(
    teams=st.recursive(
        st.none() | st.integers(-1, 6) | st.booleans() | st.text(max_size=2),
        lambda inner: st.lists(inner, max_size=4),
        max_leaves=10,
    ),
    throws=st.booleans(),
)
def test_random_teams_are_taken_or_refused_cleanly(teams: Any, throws: bool) -> None:
    try:
        state = new_game(4, {"teams": teams, "partner_throws": throws})
    except BadSetup as refusal:
        assert refusal.code.startswith("setup.")
    else:
        assert sorted(state.sides) == [(0, 2), (1, 3)]
    try:
        MATCH.initial_state({}, 4, teams)
    except BadSetup as refusal:
        assert refusal.code.startswith("match.")


def test_a_live_game_whose_partner_throws_formed_the_sides_is_ranked_by_those_sides() -> None:
    """RULES.md 8.1: the partner throw forms the sides, which need not be the even and the odd
    seats; 8.2: "A side's score = the sum of its members' game totals", so the match's standing
    adds the totals of the sides the game was played with."""
    state = new_game(4, {"partner_throws": True})
    for faces in ["3 D D D D", "4 6 D D D", "6 4 D D D", "3 D D D D"]:
        state = play(state, throw(faces))
    state = play(state, throw("1 D D D D"), throw("3 D D D D"))
    assert state.sides == ((1, 2), (0, 3)) and state.order == (2, 0, 1, 3)
    # seats 2 and 1 score 20 a frame, seats 0 and 3 score 17 and 15
    state = play_rounds(state, 7, {2: 20, 0: 17, 1: 20, 3: 15})
    assert totals(state) == [119, 140, 140, 105] and state.winners == (2, 1)
    result = RULES.result(state)
    assert result is not None
    finished = {
        "game": "5b4d3b53-7a45-4f3e-9d55-0c4f2f6f7a11",
        "scores": [s.total for s in result.scores],
        "winners": list(result.winners),
        "report": RULES.match_report(state),
    }
    match = MATCH.apply(MATCH.initial_state({}, 4, []), Move("game.finished", finished))
    standing = MATCH.standing(match)
    assert [(row["seat"], row["rank"], row["side_total"]) for row in standing] == [
        (1, 1, 280),
        (2, 1, 280),
        (0, 3, 224),
        (3, 3, 224),
    ]
