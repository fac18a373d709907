"""The Scarney Put-and-Take rule engine and its match: RULES.md 11 (with 0.5-0.8)."""

from __future__ import annotations

import pickle
import random
import uuid
from fractions import Fraction
from itertools import product
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import registry
from games.rules.base import Move, Rules, fold, make_ruleset
from games.rules.errors import BadRuleset, BadSetup, IllegalEvent, RuleError
from games.rules.put_and_take.game import PUT_AND_TAKE
from games.rules.put_and_take.match import PUT_AND_TAKE_MATCH, transfers
from games.rules.put_and_take.state import Ruleset, State, classify, nets
from games.rules.registry import match_rules

ANTE = Move("round.anted", {})
DOUBLE = Move("double_down.called", {})
END = Move("session.ended", {})
FACES = ["1", "3", "4", "6", "D"]


def throw(faces: str) -> Move:
    """A throw written as its faces, e.g. ``"44 6"`` or ``"DD4"`` (spaces ignored)."""
    return Move("dice.thrown", {"faces": list(faces.replace(" ", ""))})


def seating(faces: str) -> Move:
    return Move("seating.thrown", {"faces": list(faces)})


def left(seat: int) -> Move:
    return Move("player.left", {"seat": seat})


def joined(seat: int) -> Move:
    return Move("player.joined", {"seat": seat})


def start(seats: int = 3, **rules: Any) -> State:
    return PUT_AND_TAKE.initial_state({}, rules, seats)


def play(state: State, *moves: Move) -> State:
    for move in moves:
        state = PUT_AND_TAKE.apply(state, move)
    return state


def anted(seats: int = 3, **rules: Any) -> State:
    return play(start(seats, **rules), ANTE)


def refusal(state: State, move: Move) -> IllegalEvent:
    with pytest.raises(IllegalEvent) as refused:
        PUT_AND_TAKE.apply(state, move)
    return refused.value


def pot(state: State) -> dict[str, Any]:
    view: dict[str, Any] = PUT_AND_TAKE.view(state)["pot"]
    return view


def movements(state: State) -> list[tuple[str, int, int]]:
    return [(m["kind"], m["seat"], m["chips"]) for m in PUT_AND_TAKE.pot_ledger(state)]


def last_throw(state: State) -> dict[str, Any]:
    throws: list[dict[str, Any]] = PUT_AND_TAKE.view(state)["dice"]["throws"]
    return throws[-1]


# --- the engine, its seats, setup and ruleset --------------------------------------------------


def test_put_and_take_is_registered_and_follows_the_rules_protocol() -> None:
    assert registry.get("scarney-put-and-take") is PUT_AND_TAKE
    assert isinstance(PUT_AND_TAKE, Rules)
    assert PUT_AND_TAKE.min_seats == 2


def test_the_default_ruleset_follows_appendix_e() -> None:
    assert make_ruleset(Ruleset, {}) == Ruleset(1, "left_of_shooter", "split_equally", "strict")


@pytest.mark.parametrize(
    "overrides",
    [
        {"put_take_after_short_take": "winner"},
        {"put_take_abandoned_pot": "to_house"},
        {"ante_chips": 0},
        {"ante_chips": -2},
        {"ante_chips": "2"},
        {"ante_chips": True},
        {"ante_chips": 1.5},
    ],
)
def test_a_house_rule_outside_its_values_is_refused(overrides: dict[str, Any]) -> None:
    with pytest.raises(BadRuleset) as refused:
        start(**overrides)
    assert refused.value.code == "ruleset.bad_value"


def test_one_player_is_not_a_session() -> None:
    with pytest.raises(BadSetup) as refused:
        start(1)
    assert refused.value.code == "game.bad_seats"


def test_put_and_take_takes_no_setup() -> None:
    with pytest.raises(BadSetup) as refused:
        PUT_AND_TAKE.initial_state({"order": [1, 0]}, None, 2)
    assert refused.value.code == "setup.unknown_key"
    with pytest.raises(BadSetup):
        PUT_AND_TAKE.initial_state([], None, 2)  # type: ignore[arg-type]


def test_a_new_session_waits_for_the_antes_of_round_one() -> None:
    state = start()
    assert state.phase == "ante"
    assert PUT_AND_TAKE.expected(state) == [
        "seating.thrown",
        "round.anted",
        "player.left",
        "session.ended",
    ]
    assert PUT_AND_TAKE.current_player(state) == 0
    assert PUT_AND_TAKE.legal_events(state) is None
    assert pot(state) == {"balance": 0, "nets": [0, 0, 0]}
    assert PUT_AND_TAKE.result(state) is None


# --- 11.4 throw classes --------------------------------------------------------------------------


def test_all_125_throws_of_three_dice_fall_in_the_four_classes_in_the_counts_of_11_4() -> None:
    counted: dict[str, int] = {}
    for faces in product(FACES, repeat=3):
        kind, _ = classify(faces)
        counted[kind] = counted.get(kind, 0) + 1
    numbers = 4  # faces other than D
    assert counted == {
        "scarney": len(FACES),  # one throw per face
        "put": 3 * numbers,  # the number's die, and which number
        "take": numbers * (len(FACES) - 1) * 3,  # the pair's number, the odd face, its die
        "split": len(FACES) * (len(FACES) - 1) * (len(FACES) - 2),  # three different faces
    }
    assert sum(counted.values()) == 125


def test_every_throw_is_classed_as_its_faces_say() -> None:
    for faces in product(FACES, repeat=3):
        kind, chips = classify(faces)
        distinct = set(faces)
        dead = faces.count("D")
        if len(distinct) == 1:
            assert (kind, chips) == ("scarney", 0)
        elif dead == 2:
            number = next(f for f in faces if f != "D")
            assert (kind, chips) == ("put", int(number))
        elif len(distinct) == 2:
            single = next(f for f in faces if faces.count(f) == 1)
            assert (kind, chips) == ("take", 0 if single == "D" else int(single))
        else:
            assert (kind, chips) == ("split", 0)


def test_with_fair_dice_the_classes_have_the_chances_of_11_4() -> None:
    # An ordinary die stands in: its 2 and 5 count as D (RULES.md 1.3).
    as_scarney = {"1": "1", "2": "D", "3": "3", "4": "4", "5": "D", "6": "6"}
    chances: dict[str, Fraction] = {}
    for spots in product("123456", repeat=3):
        kind, _ = classify([as_scarney[s] for s in spots])
        chances[kind] = chances.get(kind, Fraction(0)) + Fraction(1, 216)
    assert chances == {
        "scarney": Fraction(1, 18),
        "put": Fraction(2, 9),
        "take": Fraction(5, 18),
        "split": Fraction(4, 9),
    }


@pytest.mark.parametrize(
    ("faces", "kind", "chips"),
    [
        ("DD4", "put", 4),
        ("DD6", "put", 6),
        ("33D", "take", 0),
        ("446", "take", 6),
        ("136", "split", 0),
        ("346", "split", 0),
        ("34D", "split", 0),
        ("111", "scarney", 0),
        ("666", "scarney", 0),
        ("DDD", "scarney", 0),
        ("4D4", "take", 0),
        ("6D6", "take", 0),
        ("D4D", "put", 4),
    ],
)
def test_the_seed_examples_are_classed_as_printed(faces: str, kind: str, chips: int) -> None:
    assert classify(list(faces)) == (kind, chips)


# --- 11.3 antes ----------------------------------------------------------------------------------


def test_every_player_antes_in_turn_from_the_first_shooter() -> None:
    state = anted(3, ante_chips=2)
    assert state.phase == "shooting"
    assert movements(state) == [("ante", 0, 2), ("ante", 1, 2), ("ante", 2, 2)]
    assert pot(state) == {"balance": 6, "nets": [-2, -2, -2]}
    assert PUT_AND_TAKE.current_player(state) == 0
    assert PUT_AND_TAKE.expected(state) == ["dice.thrown", "double_down.called", "session.ended"]


def test_the_antes_are_recorded_once_per_round() -> None:
    assert refusal(anted(), ANTE).code == "round.already_anted"


def test_no_throw_or_double_down_before_the_antes() -> None:
    for move in (throw("446"), DOUBLE):
        error = refusal(start(), move)
        assert error.code == "round.not_anted"
        assert "round 1" in error.message


# --- 11.4 the classes at the table ---------------------------------------------------------------


def test_a_put_pays_the_number_into_the_pot_and_passes_the_dice_left() -> None:
    state = play(anted(), throw("DD4"))
    assert pot(state) == {"balance": 7, "nets": [-5, -1, -1]}
    assert state.shooter == 1
    assert last_throw(state) == {
        "round": 1,
        "seat": 0,
        "faces": ["4", "D", "D"],
        "class": "put",
        "push": False,
        "doubled": False,
        "asked": 4,
        "chips": 4,
        "refill": 0,
        "short": False,
    }
    state = play(state, throw("D6D"))
    assert movements(state)[-1] == ("put", 1, 6)
    assert state.shooter == 2


def test_the_last_seat_passes_the_dice_to_seat_zero() -> None:
    state = play(anted(), throw("DD1"), throw("DD1"), throw("DD1"))
    assert state.shooter == 0


def test_a_take_draws_the_single_die_from_the_pot_and_the_shooter_throws_again() -> None:
    state = play(anted(3, ante_chips=4), throw("446"))
    assert pot(state) == {"balance": 6, "nets": [2, -4, -4]}
    assert state.shooter == 0
    assert movements(state)[-1] == ("take", 0, -6)


def test_a_pair_with_a_dead_die_is_a_push_and_the_shooter_throws_again() -> None:
    state = play(anted(), throw("33D"))
    assert pot(state)["balance"] == 3
    assert len(movements(state)) == 3
    assert last_throw(state)["push"] is True
    assert state.shooter == 0


@pytest.mark.parametrize("faces", ["136", "346", "34D"])
def test_a_split_moves_nothing_and_the_shooter_throws_again(faces: str) -> None:
    before = anted()
    state = play(before, throw(faces))
    assert (pot(state), state.shooter) == (pot(before), 0)
    assert last_throw(state)["class"] == "split"


@pytest.mark.parametrize("faces", ["111", "333", "444", "666", "DDD"])
def test_scarney_takes_the_whole_pot_and_ends_the_round(faces: str) -> None:
    state = play(anted(), throw("DD6"), throw(faces))
    assert pot(state) == {"balance": 0, "nets": [-7, 8, -1]}
    assert movements(state)[-1] == ("win", 1, -9)
    assert state.phase == "round_over"
    assert state.rounds[-1].winner == 1 and state.rounds[-1].how == "scarney"


def test_the_next_round_starts_left_of_the_winner_with_fresh_antes() -> None:
    state = play(anted(), throw("DD6"), throw("111"))
    assert PUT_AND_TAKE.current_player(state) == 2
    assert PUT_AND_TAKE.expected(state) == ["round.anted", "player.left", "session.ended"]
    state = play(state, ANTE)
    assert state.round == 2 and state.shooter == 2
    assert movements(state)[-3:] == [("ante", 2, 1), ("ante", 0, 1), ("ante", 1, 1)]
    assert pot(state)["balance"] == 3  # D-PT-8: nothing carried over


def test_no_throw_between_rounds() -> None:
    state = play(anted(), throw("666"))
    assert refusal(state, throw("446")).code == "round.not_anted"
    assert refusal(state, DOUBLE).code == "round.not_anted"


# --- 11.5 double down ----------------------------------------------------------------------------


def test_double_down_doubles_a_take_4_4_6_takes_12() -> None:
    state = play(anted(4, ante_chips=5), DOUBLE, throw("446"))
    assert movements(state)[4] == ("take", 0, -12)
    assert last_throw(state)["doubled"] is True and last_throw(state)["asked"] == 12


def test_double_down_doubles_a_put_dead_dead_4_puts_8() -> None:
    state = play(anted(), DOUBLE, throw("DD4"))
    assert movements(state)[-1] == ("put", 0, 8)
    assert pot(state)["balance"] == 11


def test_double_down_is_free_and_applies_to_that_throw_only() -> None:
    state = play(anted(), DOUBLE)
    assert movements(state) == movements(anted())  # D-PT-4: no chip
    assert PUT_AND_TAKE.view(state)["dice"]["double_down"] == {"open": False, "called": True}
    assert PUT_AND_TAKE.expected(state) == ["dice.thrown", "session.ended"]
    state = play(state, throw("136"), throw("DD3"))
    assert movements(state)[-1] == ("put", 0, 3)


def test_double_down_is_called_once_per_throw() -> None:
    error = refusal(play(anted(), DOUBLE), DOUBLE)
    assert error.code == "double_down.already_called"
    assert "Seat 0" in error.message


def test_a_doubled_push_still_moves_nothing() -> None:
    state = play(anted(), DOUBLE, throw("66D"))
    assert (pot(state)["balance"], last_throw(state)["asked"]) == (3, 0)  # D-PT-7


def test_a_doubled_scarney_takes_the_pot_not_twice_the_pot() -> None:
    state = play(anted(), DOUBLE, throw("444"))
    assert movements(state)[-1] == ("win", 0, -3)


# --- 11.6 pot maintenance ------------------------------------------------------------------------


def test_a_take_leaving_five_or_fewer_calls_for_a_refill_from_everyone() -> None:
    # 3 x 3 + 1 = 10 in the pot; seat 1 takes 6 leaving 4: everyone antes 3 again, in turn from
    # the round's first shooter.
    state = play(anted(3, ante_chips=3), throw("DD1"), throw("446"))
    assert movements(state)[-4:] == [
        ("take", 1, -6),
        ("refill", 0, 3),
        ("refill", 1, 3),
        ("refill", 2, 3),
    ]
    assert pot(state) == {"balance": 13, "nets": [-7, 0, -6]}
    assert last_throw(state)["refill"] == 9
    assert state.shooter == 1


def test_a_take_leaving_six_calls_for_no_refill() -> None:
    state = play(anted(3, ante_chips=3), throw("443"))
    assert pot(state)["balance"] == 6
    assert movements(state)[-1] == ("take", 0, -3)


def test_one_refill_per_take_even_if_the_pot_stays_at_five_or_fewer() -> None:
    # D-PT-3: 2 in the pot, a take of 1 leaves 1, one refill of 2 makes 3.
    state = play(anted(2), throw("331"))
    assert movements(state)[-3:] == [("take", 0, -1), ("refill", 0, 1), ("refill", 1, 1)]
    assert pot(state)["balance"] == 3


def test_a_take_that_empties_the_pot_exactly_is_not_short_and_calls_for_a_refill() -> None:
    state = play(anted(3), throw("113"))
    assert state.phase == "shooting" and state.shooter == 0
    assert movements(state)[-4:] == [("take", 0, -3), *(("refill", s, 1) for s in range(3))]
    assert last_throw(state)["short"] is False


def test_a_push_triggers_no_refill_even_with_five_or_fewer_in_the_pot() -> None:
    state = play(anted(2), throw("44D"))
    assert pot(state)["balance"] == 2
    assert len(movements(state)) == 2


def test_a_short_take_takes_what_is_left_and_ends_the_round_with_no_redress() -> None:
    # D-PT-1 as the seed states it: doubled, 4-4-6 asks 12 of a pot of 3.
    state = play(anted(), DOUBLE, throw("446"))
    assert movements(state)[-1] == ("take", 0, -3)
    assert pot(state) == {"balance": 0, "nets": [2, -1, -1]}
    assert state.phase == "round_over"
    assert last_throw(state)["short"] is True and last_throw(state)["chips"] == -3
    assert state.rounds[-1].how == "short_take"


def test_an_undoubled_take_larger_than_the_pot_is_short_too() -> None:
    state = play(anted(2), throw("336"))
    assert movements(state)[-1] == ("take", 0, -2)
    assert state.phase == "round_over"


def test_after_a_short_take_the_player_left_of_the_shooter_starts() -> None:
    state = play(anted(), throw("DD1"), throw("116"))
    assert PUT_AND_TAKE.current_player(state) == 2  # D-PT-2 default
    assert play(state, ANTE).shooter == 2


def test_a_short_take_ends_the_round_with_no_winner() -> None:
    """RULES.md 11.6: "the shooter takes everything in the pot (no redress) and the round ends
    with no winner"; D-PT-2 treats him as the winner only to say who starts the next round."""
    state = play(anted(), throw("DD1"), throw("116"))
    assert state.rounds[-1].winner is None and state.rounds[-1].how == "short_take"
    dice = PUT_AND_TAKE.view(state)["dice"]
    assert dice["rounds"] == [{"round": 1, "winner": None, "how": "short_take"}]
    assert (dice["throws"][-1]["seat"], dice["throws"][-1]["short"]) == (1, True)


def test_house_rule_same_shooter_starts_again_after_a_short_take() -> None:
    state = play(anted(put_take_after_short_take="same_shooter"), throw("DD1"), throw("116"))
    assert play(state, ANTE).shooter == 1


def test_house_rule_same_shooter_does_not_change_who_starts_after_a_scarney() -> None:
    state = play(anted(put_take_after_short_take="same_shooter"), throw("DD1"), throw("333"))
    assert play(state, ANTE).shooter == 2


def test_the_pot_is_never_negative_and_the_nets_and_pot_always_sum_to_zero() -> None:
    rng = random.Random(11)
    for session in range(30):
        state = anted(2 + session % 5, ante_chips=1 + session % 3)
        for _ in range(200):
            if state.phase == "round_over":
                state = play(state, ANTE)
            if rng.random() < 0.3:
                state = play(state, DOUBLE)
            state = play(state, throw("".join(rng.choice("1346DD") for _ in range(3))))
            assert state.balance >= 0
            assert sum(nets(state)) + state.balance == 0
            assert state.balance == sum(m.chips for m in state.ledger)
            assert state.phase == "shooting" or state.balance == 0  # D-PT-8
        state = play(state, END)
        assert state.balance == 0 and sum(nets(state)) == 0


# --- seating (11.2) ------------------------------------------------------------------------------


def test_seating_throws_order_the_players_highest_total_first() -> None:
    # Seat 0 throws 1+3+D = 4, seat 1 throws 6+6+4 = 16, seat 2 throws 3+4+6 = 13.
    state = play(start(), seating("13D"), seating("664"))
    assert state.phase == "seating"
    assert PUT_AND_TAKE.current_player(state) == 2
    state = play(state, seating("346"))
    assert state.phase == "ante" and state.order == (1, 2, 0)
    assert PUT_AND_TAKE.current_player(state) == 1
    state = play(state, ANTE)
    assert movements(state) == [("ante", 1, 1), ("ante", 2, 1), ("ante", 0, 1)]
    assert play(state, throw("DD3")).shooter == 2  # his left is the second highest
    assert play(state, throw("DD3"), throw("DD3")).shooter == 0


def test_seating_ties_are_thrown_again_by_the_tied_players_only() -> None:
    # 0 and 2 tie on 10, seat 1 has 7; the re-throw puts 2 (D D 6) above 0 (1 D D).
    state = play(start(), seating("64D"), seating("61D"), seating("46D"))
    assert state.phase == "seating"
    assert PUT_AND_TAKE.current_player(state) == 0
    assert PUT_AND_TAKE.view(state)["dice"]["seating"]["groups"] == [[0, 2], [1]]
    state = play(state, seating("1DD"), seating("DD6"))
    assert state.order == (2, 0, 1)


def test_a_tie_at_the_bottom_is_broken_without_the_others() -> None:
    state = play(start(), seating("666"), seating("DDD"), seating("DDD"))
    assert PUT_AND_TAKE.current_player(state) == 1
    state = play(state, seating("DDD"), seating("DDD"), seating("DD1"), seating("DDD"))
    assert state.order == (0, 1, 2)


def test_nothing_but_seating_throws_until_the_seats_are_decided() -> None:
    state = play(start(), seating("666"))
    for move in (ANTE, throw("446"), DOUBLE, left(1)):
        error = refusal(state, move)
        assert error.code == "seating.incomplete"
        assert "seat 1" in error.message
    assert PUT_AND_TAKE.expected(state) == ["seating.thrown", "session.ended"]


def test_seats_are_thrown_for_only_before_the_first_round() -> None:
    decided = play(start(2), seating("666"), seating("111"))
    assert refusal(decided, seating("333")).code == "seating.closed"
    assert refusal(anted(), seating("333")).code == "seating.closed"
    assert refusal(play(start(), left(2)), seating("333")).code == "seating.closed"


def test_a_seating_throw_is_three_scarney_dice() -> None:
    assert refusal(start(), seating("66")).code == "throw.wrong_dice_count"
    assert refusal(start(), seating("625")).code == "throw.bad_face"


# --- joining and leaving (D-PT-9) ----------------------------------------------------------------


def test_a_player_who_left_neither_antes_nor_refills_nor_shoots() -> None:
    state = play(start(4), left(1), ANTE)
    assert [m[1] for m in movements(state)] == [0, 2, 3]
    state = play(state, throw("DD1"))
    assert state.shooter == 2  # the dice skip seat 1
    state = play(state, throw("331"))  # 4 - 1 = 3 in the pot: refill by the three seated
    assert [m for m in movements(state) if m[0] == "refill"] == [
        ("refill", 0, 1),
        ("refill", 2, 1),
        ("refill", 3, 1),
    ]


def test_a_player_joins_and_leaves_only_between_rounds() -> None:
    error = refusal(anted(), left(2))
    assert error.code == "player.mid_round"
    assert "Seat 2" in error.message
    state = play(start(), left(2), ANTE)
    assert refusal(state, joined(2)).code == "player.mid_round"
    state = play(state, throw("666"), joined(2), ANTE)
    assert [m[1] for m in movements(state)[-3:]] == [1, 2, 0]


def test_leaving_twice_or_joining_when_seated_is_refused() -> None:
    state = play(start(), left(2))
    assert PUT_AND_TAKE.expected(state)[-3:] == ["player.left", "player.joined", "session.ended"]
    assert refusal(state, left(2)).code == "player.already_left"
    assert refusal(state, joined(1)).code == "player.already_seated"


def test_a_round_needs_two_seated_players() -> None:
    state = play(start(3), left(0), left(2))
    error = refusal(state, ANTE)
    assert error.code == "round.too_few_players"


def test_the_next_round_starts_with_the_next_seated_player_when_the_first_has_left() -> None:
    state = play(anted(3), throw("666"), left(1), ANTE)  # seat 1 would have started
    assert state.shooter == 2


@pytest.mark.parametrize(
    "seat, code",
    [
        (None, "event.bad_data"),
        (-1, "seat.unknown"),
        (3, "seat.unknown"),
        ("1", "event.bad_data"),
        (True, "event.bad_data"),
        (1.0, "event.bad_data"),
    ],
)
def test_a_join_or_leave_names_a_seat_of_the_game(seat: Any, code: str) -> None:
    for move in (Move("player.left", {"seat": seat}), Move("player.joined", {"seat": seat})):
        assert refusal(start(), move).code == code


# --- the end of a session (D-PT-5) ---------------------------------------------------------------


def test_a_session_ends_between_rounds_with_the_nets_as_its_result() -> None:
    state = play(anted(), throw("DD6"), throw("666"), END)
    assert PUT_AND_TAKE.is_terminal(state)
    assert PUT_AND_TAKE.expected(state) == []
    assert PUT_AND_TAKE.legal_events(state) == []
    assert PUT_AND_TAKE.current_player(state) is None
    result = PUT_AND_TAKE.result(state)
    assert result is not None
    assert [s.points for s in result.scores] == [-7, 8, -1]
    assert [s.total for s in result.scores] == [-7, 8, -1]
    assert result.winners == (1,)


def test_a_session_with_no_round_ends_all_square() -> None:
    result = PUT_AND_TAKE.result(play(start(), END))
    assert result is not None and result.winners == (0, 1, 2)


def test_every_move_after_the_end_is_refused() -> None:
    state = play(start(), END)
    for move in (ANTE, throw("446"), DOUBLE, END, left(0), seating("666")):
        assert refusal(state, move).code == "game.over"


def test_an_abandoned_round_splits_the_pot_equally_remainder_from_the_shooter() -> None:
    # Pot 3 + 6 + 4 = 13 with seat 2 shooting: 4 each, the odd chip to seat 2.
    state = play(anted(), throw("DD6"), throw("DD4"), END)
    assert movements(state)[-3:] == [("refund", 2, -5), ("refund", 0, -4), ("refund", 1, -4)]
    assert pot(state) == {"balance": 0, "nets": [-3, -1, 4]}
    assert state.rounds[-1].how == "abandoned" and state.rounds[-1].winner is None
    assert PUT_AND_TAKE.match_report(state) == {"rounds": 1, "abandoned": True}


def test_an_abandoned_round_returns_each_his_own_under_to_contributors() -> None:
    state = play(anted(put_take_abandoned_pot="to_contributors"), throw("DD6"), throw("DD4"), END)
    assert movements(state)[-3:] == [("refund", 2, -1), ("refund", 0, -7), ("refund", 1, -5)]
    assert pot(state) == {"balance": 0, "nets": [0, 0, 0]}


def test_to_contributors_scales_down_pro_rata_when_takes_reduced_the_pot() -> None:
    # In: 0 gave 1 + 6, 1 gave 1 + 4, 2 gave 1 (13); seat 2 takes 1, leaving 12. Shares
    # 12*7//13 = 6, 12*5//13 = 4, 12*1//13 = 0; the two odd chips go to 2, then 0.
    rules = {"put_take_abandoned_pot": "to_contributors"}
    state = play(anted(**rules), throw("DD6"), throw("DD4"), throw("133"), END)
    assert pot(state) == {"balance": 0, "nets": [0, -1, 1]}
    assert [m for m in movements(state) if m[0] == "refund"] == [
        ("refund", 2, -1),
        ("refund", 0, -7),
        ("refund", 1, -4),
    ]


def test_an_abandoned_round_keeps_the_chips_conserved() -> None:
    state = play(anted(5), *[throw("DD6")] * 3, END)
    assert sum(nets(state)) == 0 and state.balance == 0


# --- refusals of any event -----------------------------------------------------------------------


def test_an_unknown_event_type_is_refused() -> None:
    assert refusal(start(), Move("pawn.jumped", {"from": 1, "to": 3})).code == "event.unknown_type"
    assert refusal(start(), Move(7, {})).code == "event.unknown_type"  # type: ignore[arg-type]


def test_event_data_must_be_an_object() -> None:
    assert refusal(start(), Move("round.anted", [])).code == "event.bad_data"  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("data", "code", "named"),
    [
        ({"faces": ["4", "4"]}, "throw.wrong_dice_count", "3 dice"),
        ({"faces": ["4", "4", "6", "1"]}, "throw.wrong_dice_count", "4 6 1"),
        ({"faces": ["4", "4", "5"]}, "throw.bad_face", "'5'"),
        ({"faces": ["4", "4", "d"]}, "throw.bad_face", "'d'"),
        ({"faces": "446"}, "event.bad_data", "faces"),
        ({"faces": [4, 4, 6]}, "throw.bad_face", "string"),
        ({}, "event.bad_data", "faces"),
        ({"faces": ["4", "4", "6"], "opposite": True}, "opposite.not_allowed", "Opposite"),
    ],
)
def test_a_bad_throw_is_refused_naming_the_dice(
    data: dict[str, Any], code: str, named: str
) -> None:
    error = refusal(anted(), Move("dice.thrown", data))
    assert error.code == code
    assert named in error.message


def test_a_refused_event_changes_nothing() -> None:
    state = anted()
    copy = pickle.loads(pickle.dumps(state))
    refusal(state, throw("44"))
    assert state == copy


@settings(max_examples=150, deadline=None)
@given(
    moves=st.lists(
        st.tuples(
            st.sampled_from(
                [
                    "round.anted",
                    "dice.thrown",
                    "double_down.called",
                    "seating.thrown",
                    "player.left",
                    "player.joined",
                    "session.ended",
                ]
            ),
            st.dictionaries(
                st.sampled_from(["faces", "seat", "opposite", "x"]),
                st.none()
                | st.booleans()
                | st.integers(-2, 5)
                | st.text(max_size=3)
                | st.lists(st.sampled_from(["1", "3", "4", "6", "D", "2", 4]), max_size=4),
                max_size=3,
            ),
        ),
        max_size=30,
    )
)
def test_malformed_events_of_any_shape_are_refused_never_raised(
    moves: list[tuple[str, dict[str, Any]]],
) -> None:
    state = start(3)
    for type, data in moves:
        try:
            state = PUT_AND_TAKE.apply(state, Move(type, data))
        except RuleError as error:
            assert isinstance(error, IllegalEvent)
        assert sum(nets(state)) + state.balance == 0
        PUT_AND_TAKE.view(state)
        PUT_AND_TAKE.expected(state)


# --- take-backs, replay, the view ----------------------------------------------------------------


def test_a_take_back_restores_the_exact_prior_state() -> None:
    moves = [ANTE, DOUBLE, throw("446"), ANTE, throw("DD4"), throw("113")]
    for upto in range(1, len(moves) + 1):
        before = fold(PUT_AND_TAKE, start(), moves[: upto - 1])
        undone = fold(PUT_AND_TAKE, start(), [*moves[:upto], Move("move.undone", {})])
        assert undone == before


def test_a_take_back_of_an_abandoning_end_returns_the_round() -> None:
    state = fold(PUT_AND_TAKE, anted(), [throw("DD6"), END, Move("move.undone", {})])
    assert state.phase == "shooting" and state.balance == 9 and state.shooter == 1


def test_states_are_picklable_and_compare_equal() -> None:
    state = play(anted(), DOUBLE, throw("DD4"), throw("333"), left(0), END)
    assert pickle.loads(pickle.dumps(state)) == state


def test_the_view_itemises_the_throws_of_the_round_under_way_or_just_over() -> None:
    over = play(anted(), throw("DD4"), throw("116"), throw("333"))
    assert [(t["seat"], t["class"]) for t in PUT_AND_TAKE.view(over)["dice"]["throws"]] == [
        (0, "put"),
        (1, "take"),
        (1, "scarney"),
    ]
    # Earlier rounds are in the event stream; the view keeps how they ended.
    dice = PUT_AND_TAKE.view(play(over, ANTE, throw("DD1")))["dice"]
    assert [(t["round"], t["seat"], t["class"]) for t in dice["throws"]] == [(2, 2, "put")]
    assert dice["rounds"] == [{"round": 1, "winner": 1, "how": "scarney"}]


def test_a_long_session_keeps_its_state_small_and_its_nets_equal_to_the_ledger() -> None:
    rng = random.Random(5)
    state = anted(4)
    session = list(state.ledger)  # every movement, as /pot/ lists them state after state
    for _ in range(3000):
        faces = "".join(rng.choices(FACES, k=3))
        state = play(state, ANTE if state.phase == "round_over" else throw(faces))
        session = session[: state.ledger_start] + list(state.ledger)
    assert all(t.round == state.round for t in state.throws)
    summed = [0] * 4
    for movement in session:
        summed[movement.seat] -= movement.chips
    assert nets(state) == summed
    # The state keeps the round's movements only (three bytes each), a byte a round, and the
    # round's few throws: it does not grow with the session.
    assert state.ledger_start + len(state.ledger) == len(session) > 20 * len(state.ledger)
    assert len(pickle.dumps(state)) < 3 * len(state.ledger) + len(state.rounds) + 3000
    # The view shows the last round over, read from its byte alone.
    assert state.round > 100 and state.last_round() == state.rounds[-1:]
    shown = PUT_AND_TAKE.view(state)["dice"]["rounds"]
    assert shown == [state.rounds[-1]._asdict()]


def test_chips_beyond_two_bytes_are_kept_whole_in_the_ledger() -> None:
    big = 10**9  # the largest a house rule takes (games.rules.base.LARGEST_PARAMETER)
    state = play(anted(2, ante_chips=big), throw("DD6"), throw("DD6"), throw("666"))
    assert movements(state) == [
        ("ante", 0, big),
        ("ante", 1, big),
        ("put", 0, 6),
        ("put", 1, 6),
        ("win", 0, -2 * big - 12),
    ]
    copy = pickle.loads(pickle.dumps(state))
    assert copy == state and movements(copy) == movements(state)
    assert nets(copy) == [big + 6, -big - 6]


def test_the_ledger_slices_and_compares_as_a_sequence_of_movements() -> None:
    state = play(anted(ante_chips=40000), throw("DD4"), throw("116"))
    ledger = state.ledger
    assert len(ledger) == 5 and ledger[-1] == ("take", 1, -6)
    assert ledger[:3] == anted(ante_chips=40000).ledger and ledger[:3] != ledger
    assert list(ledger[3:]) == [("put", 0, 4), ("take", 1, -6)]


def test_a_snapshot_of_an_older_state_shape_is_refused_so_the_stream_is_refolded() -> None:
    state = anted()
    blank = object.__new__(State)
    with pytest.raises(ValueError):
        blank.__setstate__((state.ruleset, state.seats, state.order))


def test_the_view_says_whose_throw_how_many_dice_and_the_round() -> None:
    dice = PUT_AND_TAKE.view(play(anted(), throw("DD1")))["dice"]
    assert dice["round"] == 1 and dice["shooter"] == 1 and dice["thrower"] == 1
    assert dice["throwing_for"] == "round" and dice["in_cup"] == 3
    assert dice["double_down"] == {"open": True, "called": False}
    assert dice["order"] == [0, 1, 2] and dice["first_shooter"] == 0
    between = PUT_AND_TAKE.view(play(anted(), throw("111")))["dice"]
    assert between["in_cup"] == 0 and between["double_down"]["open"] is False
    assert between["rounds"] == [{"round": 1, "winner": 0, "how": "scarney"}]
    seated = PUT_AND_TAKE.view(play(start(), seating("666")))["dice"]
    assert seated["throwing_for"] == "seating" and seated["thrower"] == 1
    assert seated["seating"]["throws"] == [{"seat": 0, "faces": ["6", "6", "6"], "total": 18}]


def test_the_scores_are_the_nets() -> None:
    state = play(anted(), throw("DD4"))
    assert [s.as_dict() for s in PUT_AND_TAKE.scores(state)] == [
        {"seat": 0, "points": -5, "bonuses": [], "total": -5},
        {"seat": 1, "points": -1, "bonuses": [], "total": -1},
        {"seat": 2, "points": -1, "bonuses": [], "total": -1},
    ]


# --- the match: one session settled by the nets (0.8) --------------------------------------------


def finished(scores: list[int], winners: list[int]) -> Move:
    return Move("game.finished", {"game": str(uuid.uuid4()), "scores": scores, "winners": winners})


def test_the_match_format_is_found_by_name() -> None:
    assert match_rules("scarney-put-and-take") is PUT_AND_TAKE_MATCH


def test_a_match_is_one_session_and_settles_each_players_net() -> None:
    state = PUT_AND_TAKE_MATCH.initial_state({}, 4)
    assert PUT_AND_TAKE_MATCH.next_game_number(state) == 1
    assert PUT_AND_TAKE_MATCH.next_game_setup(state) == {}
    state = PUT_AND_TAKE_MATCH.apply(state, finished([-7, 10, 2, -5], [1]))
    assert PUT_AND_TAKE_MATCH.next_game_number(state) is None
    assert [(r["seat"], r["total"], r["rank"]) for r in PUT_AND_TAKE_MATCH.standing(state)] == [
        (1, 10, 1),
        (2, 2, 2),
        (3, -5, 3),
        (0, -7, 4),
    ]
    settlement = PUT_AND_TAKE_MATCH.settlement(state)
    assert settlement == {
        "payments": [
            {"from": 0, "to": 1, "points": 7},
            {"from": 3, "to": 1, "points": 3},
            {"from": 3, "to": 2, "points": 2},
        ],
        "nets": [-7, 10, 2, -5],
    }
    closing = PUT_AND_TAKE_MATCH.closing_event(state)
    assert closing == ("match.settled", settlement)
    settled = PUT_AND_TAKE_MATCH.apply(state, Move(*closing))
    assert PUT_AND_TAKE_MATCH.is_settled(settled)


def test_a_second_session_in_a_match_is_refused() -> None:
    new = PUT_AND_TAKE_MATCH.initial_state({}, 2)
    state = PUT_AND_TAKE_MATCH.apply(new, finished([1, -1], [0]))
    with pytest.raises(IllegalEvent) as refused:
        PUT_AND_TAKE_MATCH.apply(state, finished([1, -1], [0]))
    assert refused.value.code == "match.over"


def test_a_sheet_session_whose_nets_do_not_sum_to_zero_is_refused_or_warned() -> None:
    bad = Move("game.scored", {"scores": [3, -1]})
    with pytest.raises(IllegalEvent) as refused:
        PUT_AND_TAKE_MATCH.apply(PUT_AND_TAKE_MATCH.initial_state({}, 2), bad)
    assert refused.value.code == "score.nets_not_zero"
    lenient = PUT_AND_TAKE_MATCH.initial_state({"sheet_entry_validation": "lenient"}, 2)
    state = PUT_AND_TAKE_MATCH.apply(lenient, bad)
    assert [w["code"] for w in PUT_AND_TAKE_MATCH.warnings(state)] == ["score.nets_not_zero"]
    good = PUT_AND_TAKE_MATCH.apply(
        PUT_AND_TAKE_MATCH.initial_state({}, 2), Move("game.scored", {"scores": [3, -3]})
    )
    assert PUT_AND_TAKE_MATCH.settlement(good)["nets"] == [3, -3]


def test_a_match_checks_its_ante_like_a_game() -> None:
    with pytest.raises(BadRuleset):
        PUT_AND_TAKE_MATCH.initial_state({"ante_chips": 0}, 3)
    with pytest.raises(BadSetup):
        PUT_AND_TAKE_MATCH.initial_state({}, 1)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-50, 50), min_size=2, max_size=8))
def test_transfers_realise_any_nets_that_sum_to_zero(values: list[int]) -> None:
    values[-1] -= sum(values)
    paid = [0] * len(values)
    for payer, payee, chips in transfers(values):
        assert chips > 0 and values[payer] < 0 < values[payee]
        paid[payer] -= chips
        paid[payee] += chips
    assert paid == values
