"""The Scarnie rule engine and its game to 100: RULES.md section 6 (with 0.5-0.8, C.5, E)."""

from __future__ import annotations

import dataclasses
import json
import pickle
import random
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import registry
from games.rules.base import Move, Rules, fold, make_ruleset, ruleset_as_dict
from games.rules.errors import BadRuleset, BadSetup, IllegalEvent
from games.rules.matches import GameEntry, ScoredMatchState
from games.rules.registry import match_rules
from games.rules.scarnie.game import SCARNIE
from games.rules.scarnie.match import ScarnieMatch
from games.rules.scarnie.state import (
    ALL_PLAIN,
    DEALING,
    OVER,
    PLAY,
    Pawn,
    Ruleset,
    State,
    pawns_left,
)

# The tests' own colouring (the seed fixes none, D-SCN-2): 1-20 are a, 21-28 are b.
COLOUR = {n: "a" if n <= 20 else "b" for n in range(1, 29)}
# Station s holds 7s-6 .. 7s on positions 1-7: station 4 holds the eight b pawns but 21.
IN_ORDER = {s: list(range(7 * s - 6, 7 * s + 1)) for s in range(1, 5)}


def faced_up(layout: dict[int, list[int]], colour: dict[int, str] | None = None) -> Move:
    colours = {**COLOUR, **(colour or {})}
    stations = {
        str(s): [
            {"position": p, "pawn": n, "colour": colours.get(n, "a")} for p, n in enumerate(ns, 1)
        ]
        for s, ns in layout.items()
    }
    return Move("deal.faced_up", {"stations": stations})


def rules_with(**overrides: Any) -> Ruleset:
    return make_ruleset(Ruleset, overrides)  # type: ignore[no-any-return]


def new_deal(seats: int = 4, setup: dict[str, Any] | None = None, **house: Any) -> State:
    return SCARNIE.initial_state(setup or {}, rules_with(**house), seats)


def dealt(seats: int = 4, layout: dict[int, list[int]] | None = None, **kw: Any) -> State:
    layout = layout or {s: IN_ORDER[s] for s in range(1, seats + 1)}
    return SCARNIE.apply(new_deal(seats, **kw), faced_up(layout))


def remove(station: int | None, *positions: int | str) -> Move:
    data: dict[str, Any] = {"positions": list(positions)}
    if station is not None:
        data["station"] = station
    return Move("pawns.removed", data)


def play(state: State, *moves: Move) -> State:
    for move in moves:
        state = SCARNIE.apply(state, move)
    return state


def refusal(state: State, move: Move) -> IllegalEvent:
    with pytest.raises(IllegalEvent) as refused:
        SCARNIE.apply(state, move)
    return refused.value


def clear_all_but(state: State, keep: tuple[int, int]) -> State:
    """Remove every pawn but the one at ``keep`` (station, position), one pawn a move."""
    for s, p, _ in pawns_left(state):
        if (s, p) != keep:
            state = SCARNIE.apply(state, remove(s, p))
    return state


def points(state: State) -> list[int]:
    return [score.points for score in SCARNIE.scores(state)]


# --- the engine, its ruleset and its setup ----------------------------------------------------


def test_scarnie_is_registered_with_its_match_format_and_follows_the_rules_protocol() -> None:
    assert registry.get("scarnie") is SCARNIE
    assert isinstance(SCARNIE, Rules)
    assert (SCARNIE.min_seats, SCARNIE.max_seats) == (2, 4)
    assert isinstance(match_rules("scarnie"), ScarnieMatch)


def test_the_default_ruleset_invents_nothing() -> None:
    # D-SCN-1 all plain, D-SCN-3 own stations only, D-SCN-5 previous player, D-SCN-8 none.
    assert make_ruleset(Ruleset, {}) == Ruleset(ALL_PLAIN, False, "previous_player", "none")
    assert Ruleset().sheet_entry_validation == "strict"
    assert all(Ruleset().multiplier(s, p) == 1 for s in range(1, 5) for p in range(1, 8))


def test_position_marks_are_one_map_for_every_station_with_per_station_overrides() -> None:
    # given: positions 5-7 marked Draw, Double, Triple; station 2 plays its position 1 double
    marks = {"5": "draw", "6": "double", "7": "triple", "stations": {"2": {"1": "double"}}}
    ruleset = rules_with(scarnie_position_marks=marks)
    # then: the multipliers of 6.1, x0 x1 x2 x3
    assert [ruleset.multiplier(1, p) for p in range(1, 8)] == [1, 1, 1, 1, 0, 2, 3]
    assert [ruleset.multiplier(2, p) for p in range(1, 8)] == [2, 1, 1, 1, 0, 2, 3]
    assert ruleset.mark(3, 5) == "draw" and ruleset.mark(4, 7) == "triple"


def test_position_marks_survive_the_json_of_a_stream_header_unchanged() -> None:
    ruleset = rules_with(scarnie_position_marks={"3": "triple", "stations": {"4": {"3": "draw"}}})
    stored = json.loads(json.dumps(ruleset_as_dict(ruleset)))
    assert make_ruleset(Ruleset, stored) == ruleset
    assert stored["scarnie_position_marks"][3][2] == "draw"


@pytest.mark.parametrize(
    "marks",
    [
        {"8": "double"},
        {"1": "quadruple"},
        {"1": ["double"]},
        {"stations": {"5": {"1": "double"}}},
        {"stations": ["double"]},
        [["plain"] * 7] * 3,
        [["plain"] * 6] * 4,
        "triple",
    ],
)
def test_impossible_position_marks_are_refused(marks: Any) -> None:
    with pytest.raises(BadRuleset) as refused:
        rules_with(scarnie_position_marks=marks)
    assert refused.value.code == "ruleset.bad_value"
    assert "scarnie_position_marks" in refused.value.message


@pytest.mark.parametrize(
    "name, value",
    [
        ("scarnie_fill_all_stations", "yes"),
        ("scarnie_scorer", "killer"),
        ("scarnie_settlement", "pot"),
    ],
)
def test_closed_house_rules_take_only_their_listed_values(name: str, value: Any) -> None:
    with pytest.raises(BadRuleset) as refused:
        rules_with(**{name: value})
    assert refused.value.code == "ruleset.bad_value"


def test_a_new_deal_waits_for_the_pawns_and_the_dealer_is_seat_0_by_default() -> None:
    state = new_deal(3)
    assert state.phase == DEALING and state.dealer == 0
    assert SCARNIE.expected(state) == ["deal.faced_up"]
    assert SCARNIE.legal_events(state) is None  # the deal is a chance event, recorded
    assert SCARNIE.current_player(state) == 0
    assert SCARNIE.result(state) is None and points(state) == [0, 0, 0]


@pytest.mark.parametrize("seats", [1, 5])
def test_scarnie_is_for_two_to_four_players(seats: int) -> None:
    with pytest.raises(BadSetup) as refused:
        new_deal(seats)
    assert refused.value.code == "game.bad_seats"


@pytest.mark.parametrize(
    "setup, code",
    [
        ({"dealer": 4}, "setup.bad_dealer"),
        ({"dealer": True}, "setup.bad_dealer"),
        ({"deal": 0}, "setup.bad_deal"),
        ({"scores_before": [1, 2]}, "setup.bad_scores"),
        ({"scores_before": [0, 0, 0, -1]}, "setup.bad_scores"),
        ({"teams": [[0, 1], [2, 3]]}, "setup.bad_teams"),
        ({"teams": [[0, "2"], [1, 3]]}, "setup.bad_teams"),
        ({"colours": {"29": "a"}}, "setup.bad_colours"),
        ({"colours": {"3": "c"}}, "setup.bad_colours"),
        ({"colours": {str(n): "b" for n in range(1, 10)}}, "setup.bad_colours"),
        ({"colours": 5}, "setup.bad_colours"),
        ({"starter": 1}, "setup.unknown_key"),
    ],
)
def test_a_bad_setup_is_refused_with_its_code(setup: dict[str, Any], code: str) -> None:
    with pytest.raises(BadSetup) as refused:
        new_deal(4, setup)
    assert refused.value.code == code


def test_partnerships_need_four_players() -> None:
    with pytest.raises(BadSetup) as refused:
        new_deal(3, {"teams": [[0, 2], [1]]})
    assert refused.value.code == "setup.bad_teams"


# --- the deal (6.4) ------------------------------------------------------------------------------


def test_the_faced_up_deal_starts_play_and_the_dealer_moves_first() -> None:
    # D-SCN-9: the dealer (here seat 2) moves first
    state = dealt(4, setup={"dealer": 2})
    assert state.phase == PLAY and SCARNIE.current_player(state) == 2
    assert SCARNIE.expected(state) == ["pawns.removed"]
    assert state.stations[1][4] == Pawn(12, "a")  # S2P5
    assert len(pawns_left(state)) == 28


@pytest.mark.parametrize("seats, out_of_play", [(2, 14), (3, 7)])
def test_with_fewer_players_only_their_stations_are_dealt(seats: int, out_of_play: int) -> None:
    # D-SCN-3: the absent seats' stations stay empty; 14 or 7 pawns stay face down
    state = dealt(seats)
    assert 28 - len(pawns_left(state)) == out_of_play
    assert all(pawn is None for row in state.stations[seats:] for pawn in row)
    refused = refusal(new_deal(seats), faced_up({s: IN_ORDER[s] for s in range(1, 5)}))
    assert refused.code == "deal.bad_station"
    assert (
        f"Station {seats + 1} cannot be dealt: with {seats} players only stations 1-{seats}"
        in refused.message
    )


def test_the_house_rule_fill_all_stations_puts_all_28_pawns_in_play() -> None:
    state = dealt(3, {s: IN_ORDER[s] for s in range(1, 5)}, scarnie_fill_all_stations=True)
    assert len(pawns_left(state)) == 28
    short = refusal(new_deal(3, scarnie_fill_all_stations=True), faced_up({1: IN_ORDER[1]}))
    assert short.code == "deal.bad_station" and "Station 2, 3, 4 has no pawns" in short.message


def test_the_play_is_round_the_players_only_even_when_every_station_is_filled() -> None:
    state = dealt(2, {s: IN_ORDER[s] for s in range(1, 5)}, scarnie_fill_all_stations=True)
    state = play(state, remove(4, 1), remove(3, 1))
    assert SCARNIE.current_player(state) == 0


def bad_layout(**change: Any) -> dict[int, list[int]]:
    layout = {s: list(IN_ORDER[s]) for s in range(1, 3)}
    layout.update(change.get("layout", {}))
    return layout


@pytest.mark.parametrize(
    "move, code, words",
    [
        (faced_up({1: IN_ORDER[1]}), "deal.bad_station", "Station 2 has no pawns"),
        (faced_up({1: IN_ORDER[1], 2: IN_ORDER[2][:6]}), "deal.bad_station", "holds 6 pawns"),
        (
            faced_up({1: IN_ORDER[1], 3: IN_ORDER[3]}),
            "deal.bad_station",
            "Station 3 cannot be dealt",
        ),
        (faced_up({1: IN_ORDER[1], 2: [1, *IN_ORDER[2][1:]]}), "deal.duplicate_pawn", "S1P1"),
        (faced_up({1: IN_ORDER[1], 2: [29, *IN_ORDER[2][1:]]}), "event.bad_data", "S2P1"),
        (Move("deal.faced_up", {"stations": [1, 2]}), "event.bad_data", "stations"),
        (Move("deal.faced_up", {"stations": {"1": "1-7"}}), "event.bad_data", "Station 1"),
        (
            Move("deal.faced_up", {"stations": {"0": []}}),
            "deal.bad_station",
            "Station 0 cannot be dealt: the board has",
        ),
    ],
)
def test_a_bad_deal_is_refused_with_its_code(move: Move, code: str, words: str) -> None:
    refused = refusal(new_deal(2), move)
    assert refused.code == code
    assert words in refused.message


def test_each_station_has_one_pawn_on_each_of_its_seven_positions() -> None:
    stations = faced_up({1: IN_ORDER[1], 2: IN_ORDER[2]}).data["stations"]
    stations["2"][6]["position"] = 1
    refused = refusal(new_deal(2), Move("deal.faced_up", {"stations": stations}))
    assert refused.code == "deal.bad_station" and "S2P1 is given two pawns" in refused.message
    stations["2"][6]["position"] = 8
    refused = refusal(new_deal(2), Move("deal.faced_up", {"stations": stations}))
    assert refused.code == "deal.bad_station" and "positions 1-7, not 8" in refused.message


def test_a_station_given_twice_is_refused() -> None:
    stations: dict[Any, Any] = dict(faced_up({1: IN_ORDER[1], 2: IN_ORDER[2]}).data["stations"])
    stations[1] = stations["1"]
    refused = refusal(new_deal(2), Move("deal.faced_up", {"stations": stations}))
    assert refused.code == "deal.bad_station" and "given twice" in refused.message


def test_a_colour_must_be_a_or_b() -> None:
    refused = refusal(new_deal(2), faced_up({1: IN_ORDER[1], 2: IN_ORDER[2]}, {9: "c"}))
    assert refused.code == "event.bad_data" and "Pawn 9 on S2P2" in refused.message


def test_a_pawns_colour_never_changes_within_a_session() -> None:
    # D-SCN-2: colours are recorded at each deal; the match hands on those already seen
    state = new_deal(2, {"colours": {"3": "b"}})
    refused = refusal(state, faced_up({1: IN_ORDER[1], 2: IN_ORDER[2]}))
    assert refused.code == "deal.colour_changed"
    assert "3a on S1P3 was 3b" in refused.message


def test_no_more_than_20_pawns_a_and_8_pawns_b_are_ever_seen() -> None:
    # 21 a pawns among the 28: too many, when all four stations are dealt
    layout = {s: IN_ORDER[s] for s in range(1, 5)}
    refused = refusal(new_deal(4), faced_up(layout, {21: "a"}))
    assert (
        refused.code == "deal.colour_count" and "21 different pawns of colour a" in refused.message
    )
    # within one deal of two stations, with b pawns seen in an earlier deal
    seen = {str(n): "b" for n in range(21, 28)}
    refused = refusal(new_deal(2, {"colours": seen}), faced_up(bad_layout(), {14: "b", 13: "b"}))
    assert (
        refused.code == "deal.colour_count" and "9 different pawns of colour b" in refused.message
    )


def test_a_removal_before_the_deal_and_a_second_deal_are_refused() -> None:
    assert refusal(new_deal(2), remove(1, 1)).code == "deal.required"
    refused = refusal(dealt(2), faced_up(bad_layout()))
    assert refused.code == "deal.already_made"


# --- play (6.5) ----------------------------------------------------------------------------------


def test_one_to_three_pawns_of_one_colour_leave_one_station_and_the_turn_passes_left() -> None:
    state = dealt(3, setup={"dealer": 1})
    state = play(state, remove(2, 1, 2, 3))
    assert [pawn for pawn in state.stations[1][:3]] == [None, None, None]
    assert SCARNIE.current_player(state) == 2
    state = play(state, remove(1, 7))
    assert SCARNIE.current_player(state) == 0
    state = play(state, remove(3, 2, 5))
    assert SCARNIE.current_player(state) == 1
    assert [r.as_dict() for r in state.removals][0] == {
        "seat": 1,
        "station": 2,
        "positions": [1, 2, 3],
        "pawns": ["8a", "9a", "10a"],
    }


def test_any_player_may_remove_from_any_station_in_the_position_notation() -> None:
    state = play(dealt(2), remove(None, "S2P5", "S2P6"))
    assert state.stations[1][4] is None and state.stations[1][5] is None
    state = play(state, remove(1, "S1P1"))
    assert state.stations[0][0] is None


@pytest.mark.parametrize(
    "move, code, words",
    [
        (remove(2), "remove.count", "not 0."),
        (remove(2, 1, 2, 3, 4), "remove.count", "not 4 (8a on S2P1, 9a on S2P2, 10a on S2P3, 11a"),
        (remove(2, 1, 1), "remove.duplicate", "8a on S2P1 is named twice in S2P1, S2P1"),
        (remove(2, 1, 3, 1), "remove.duplicate", "S2P1 is named twice"),
        (
            remove(1, 1, "S2P2"),
            "remove.two_stations",
            "1a on S1P1, 9a on S2P2 are on stations 1",
        ),
        (remove(None, "S3P1", "S4P1"), "remove.two_stations", "15a on S3P1, 22b on S4P1"),
        (remove(3, 6, 7), "remove.mixed_colours", "20a on S3P6, 21b on S3P7 are of two colours"),
        (remove(1, 4), "remove.empty_position", "No pawn stands on S1P4 (4a was removed"),
        (remove(1, 2, 4, 5), "remove.empty_position", "No pawn stands on S1P4"),
    ],
)
def test_an_illegal_removal_is_refused_with_its_code_naming_positions_and_pawns(
    move: Move, code: str, words: str
) -> None:
    state = play(dealt(4), remove(1, 4))  # seat 0 takes 4a off S1P4
    refused = refusal(state, move)
    assert refused.code == code
    assert words in refused.message


@pytest.mark.parametrize(
    "station, positions", [(1, ["S2P1"]), (1, ["S2P1", "S2P2"]), (2, [3, "S1P3"])]
)
def test_a_station_named_apart_from_the_positions_texts_is_two_stations(
    station: int, positions: list[Any]
) -> None:
    """RULES.md 6.5: the pawns removed are all in one station; a move naming station 1 and
    ``S2P1`` names two stations and is refused, not carried out on either one."""
    refused = refusal(dealt(2), remove(station, *positions))
    assert refused.code == "remove.two_stations"
    assert f"station {station}" in refused.message


def test_the_empty_stations_of_absent_players_hold_nothing_to_remove() -> None:
    refused = refusal(dealt(2), remove(3, 1))
    assert refused.code == "remove.empty_position"
    assert "S3P1 (station 3 has no player and is not dealt)" in refused.message


@pytest.mark.parametrize(
    "data",
    [
        {"station": 5, "positions": [1]},
        {"station": "2", "positions": [1]},
        {"station": True, "positions": [1]},
        {"station": 2, "positions": 1},
        {"station": 2, "positions": [8]},
        {"station": 2, "positions": [[1]]},
        {"positions": [1]},
        {"positions": ["S5P1"]},
        {"station": 2, "positions": [{"1": 2}]},
    ],
)
def test_malformed_removals_are_bad_data(data: dict[str, Any]) -> None:
    assert refusal(dealt(2), Move("pawns.removed", data)).code == "event.bad_data"


@pytest.mark.parametrize("type, data", [("pawn.jumped", {}), ("pawns.removed", [1, 2]), (7, {})])
def test_unknown_events_and_data_that_is_no_object_are_refused(type: Any, data: Any) -> None:
    code = "event.bad_data" if type == "pawns.removed" else "event.unknown_type"
    assert refusal(dealt(2), Move(type, data)).code == code


def test_a_removal_of_several_pawns_may_not_empty_the_board() -> None:
    # D-SCN-4: two a pawns are left; taking both would leave no last pawn to kill
    two_left = dealt(2)
    for s, p, _ in pawns_left(two_left):
        if (s, p) not in ((2, 1), (2, 2)):
            two_left = SCARNIE.apply(two_left, remove(s, p))
    refused = refusal(two_left, remove(2, 1, 2))
    assert refused.code == "remove.empties_board"
    assert "8a on S2P1, 9a on S2P2 are the last pawns" in refused.message
    assert {tuple(m.data["positions"]) for m in SCARNIE.legal_events(two_left) or []} == {
        (1,),
        (2,),
    }


# --- scoring a deal (6.6) ------------------------------------------------------------------------


def kill(state: State, keep: tuple[int, int]) -> State:
    """Play the deal down to the pawn at ``keep`` and have the player on turn kill it."""
    state = clear_all_but(state, keep)
    return SCARNIE.apply(state, remove(*keep))


def test_the_killer_loses_and_the_other_player_of_two_scores_the_last_pawn() -> None:
    # 14 moves of one pawn: seat 0 removes the 1st, 3rd ... 13th; seat 1 kills 12a on S2P5
    state = kill(dealt(2), (2, 5))
    assert state.phase == OVER
    assert SCARNIE.view(state)["last_pawn"]["killer"] == 1
    assert points(state) == [12, 0]
    assert SCARNIE.result(state).winners == (0,)  # type: ignore[union-attr]


def test_the_score_is_the_number_times_the_mark_of_the_position_it_stood_on() -> None:
    # worked values of 6.1/6.6: pawn 12 on a Double position 24, Triple 36, Draw 0, plain 12
    for mark, expected in [("double", 24), ("triple", 36), ("draw", 0), ("plain", 12)]:
        state = kill(dealt(2, scarnie_position_marks={"5": mark}), (2, 5))
        assert points(state) == [expected, 0]
        assert SCARNIE.view(state)["last_pawn"]["mark"] == mark


def test_a_per_station_override_marks_only_that_station() -> None:
    marks = {"5": "double", "stations": {"1": {"5": "triple"}}}
    on_station_1 = kill(dealt(2, scarnie_position_marks=marks), (1, 5))
    on_station_2 = kill(dealt(2, scarnie_position_marks=marks), (2, 5))
    assert points(on_station_1) == [15, 0]  # 5 x 3: seat 1 kills, seat 0 (the other) scores
    assert points(on_station_2) == [24, 0]  # 12 x 2


def test_three_players_the_scorer_is_the_player_who_moved_before_the_killer() -> None:
    # 21 pawns, one a move, dealer 0: the 21st move is seat 2's, so seat 1 forced the kill
    state = kill(dealt(3), (3, 7))
    assert SCARNIE.view(state)["last_pawn"]["killer"] == 2
    assert points(state) == [0, 21, 0]
    assert SCARNIE.result(state).winners == (1,)  # type: ignore[union-attr]


def test_four_individual_players_the_previous_player_scores() -> None:
    # 28 moves from dealer 1: the 28th is seat 0's, forced by seat 3
    state = kill(dealt(4, setup={"dealer": 1}), (4, 7))
    assert SCARNIE.view(state)["last_pawn"]["killer"] == 0
    assert points(state) == [0, 0, 0, 28]


@pytest.mark.parametrize("seats, scores", [(3, [0, 21, 21]), (4, [0, 28, 28, 28])])
def test_the_house_rule_all_others_makes_everyone_but_the_killer_score(
    seats: int, scores: list[int]
) -> None:
    # D-SCN-5 alternative: one pawn a move from dealer 1, the last move is seat 0's
    state = dealt(seats, setup={"dealer": 1}, scarnie_scorer="all_others")
    keep = (3, 7) if seats == 3 else (4, 7)
    state = kill(state, keep)
    assert SCARNIE.view(state)["last_pawn"]["killer"] == 0
    assert points(state) == scores
    assert SCARNIE.result(state).winners == tuple(range(1, seats))  # type: ignore[union-attr]


def test_with_two_players_all_others_is_the_other_player() -> None:
    state = kill(dealt(2, scarnie_scorer="all_others"), (2, 5))
    assert points(state) == [12, 0]


def test_partners_opposing_the_killer_win_the_deal_and_score_it_once() -> None:
    # D-SCN-6: seats 0 and 2 against 1 and 3; seat 0 kills, so 1 and 3 win
    state = kill(dealt(4, setup={"dealer": 1, "teams": [[0, 2], [1, 3]]}), (4, 7))
    assert SCARNIE.result(state).winners == (1, 3)  # type: ignore[union-attr]
    assert points(state) == [0, 0, 0, 28]  # at the forcer's seat: a side counts its seats' sum
    assert SCARNIE.view(state)["partnerships"] == [
        {"seats": [0, 2], "score": 0},
        {"seats": [1, 3], "score": 28},
    ]


def test_nothing_is_recorded_after_the_kill() -> None:
    state = kill(dealt(2), (2, 5))
    refused = refusal(state, remove(1, 1))
    assert refused.code == "game.over" and "seat 1 killed 12a on S2P5" in refused.message
    assert SCARNIE.expected(state) == [] and SCARNIE.legal_events(state) == []
    assert SCARNIE.current_player(state) is None and SCARNIE.is_terminal(state)


# --- legal events, undo, the view ------------------------------------------------------------


def brute_force_legal(state: State) -> set[tuple[int, tuple[int, ...]]]:
    """Every (station, positions) of 1-3 positions that the engine accepts, found by trying."""
    accepted = set()
    for station in range(1, 5):
        for size in (1, 2, 3):
            for positions in combinations(range(1, 8), size):
                try:
                    SCARNIE.apply(state, remove(station, *positions))
                except IllegalEvent:
                    continue
                accepted.add((station, positions))
    return accepted


@pytest.mark.parametrize("seed", range(6))
def test_legal_events_list_exactly_the_removals_the_engine_accepts(seed: int) -> None:
    rng = random.Random(seed)
    state = random_deal(rng, rng.choice([2, 3, 4]))
    while state.phase == PLAY:
        listed = {(m.data["station"], tuple(m.data["positions"])) for m in legal_events(state)}
        assert listed == brute_force_legal(state)
        state = SCARNIE.apply(state, rng.choice(legal_events(state)))


def test_a_take_back_restores_the_exact_prior_state() -> None:
    start = new_deal(3)
    moves = [faced_up({s: IN_ORDER[s] for s in (1, 2, 3)}), remove(1, 1, 2), remove(3, 7)]
    before = fold(SCARNIE, start, moves[:2])
    assert fold(SCARNIE, start, [*moves, Move("move.undone", {})]) == before
    assert fold(SCARNIE, start, [moves[0], Move("move.undone", {})]) == start


def test_the_view_shows_the_stations_who_is_on_turn_the_deal_and_the_scores_so_far() -> None:
    setup = {"dealer": 1, "deal": 3, "scores_before": [40, 7]}
    state = play(dealt(2, setup=setup, scarnie_position_marks={"7": "triple"}), remove(1, 2))
    view = SCARNIE.view(state)
    assert view["deal"] == 3 and view["dealer"] == 1 and view["on_turn"] == 0
    assert view["phase"] == "play" and view["pawns_left"] == 13
    assert view["stations"]["1"][1] == {
        "position": 2,
        "at": "S1P2",
        "mark": "plain",
        "pawn": None,
        "colour": None,
        "label": None,
    }
    assert (
        view["stations"]["2"][6]["label"] == "14a" and view["stations"]["2"][6]["mark"] == "triple"
    )
    assert view["stations"]["4"][0]["pawn"] is None
    assert view["scores_so_far"] == [40, 7] and view["last_pawn"] is None and view["target"] == 100
    over = kill(state, (2, 7))
    # 14 moves from dealer 1: seat 0 kills 14a on a Triple position, seat 1 scores 42
    assert SCARNIE.view(over)["last_pawn"]["killer"] == 0
    assert SCARNIE.view(over)["scores_so_far"] == [40, 7 + 42]


def test_the_match_report_names_the_dealer_the_kill_and_every_colour_seen() -> None:
    state = kill(dealt(2, setup={"dealer": 1, "colours": {"28": "b"}}), (1, 3))
    report = SCARNIE.match_report(state)
    assert report["dealer"] == 1 and report["last_pawn"]["label"] == "3a"
    assert report["colours"] == {**{str(n): COLOUR[n] for n in range(1, 15)}, "28": "b"}


def test_states_are_picklable_and_compare_equal() -> None:
    state = play(dealt(4), remove(1, 1))
    assert pickle.loads(pickle.dumps(state)) == state


# --- seeded random deals to the end ------------------------------------------------------------


def random_deal(rng: random.Random, seats: int, **house: Any) -> State:
    numbers = rng.sample(range(1, 29), 28)
    colours = dict(zip(numbers, rng.sample(["a"] * 20 + ["b"] * 8, 28), strict=True))
    count = 4 if house.get("scarnie_fill_all_stations") else seats
    layout = {s: numbers[7 * s - 7 : 7 * s] for s in range(1, count + 1)}
    setup = {"dealer": rng.randrange(seats)}
    return SCARNIE.apply(new_deal(seats, setup, **house), faced_up(layout, colours))


def legal_events(state: State) -> list[Move]:
    return SCARNIE.legal_events(state) or []


@pytest.mark.parametrize("seed", range(40))
def test_random_legal_deals_end_with_one_killed_pawn_and_its_score(seed: int) -> None:
    rng = random.Random(seed)
    seats = rng.choice([2, 3, 4])
    house = {
        "scarnie_fill_all_stations": rng.random() < 0.3,
        "scarnie_scorer": rng.choice(["previous_player", "all_others"]),
        "scarnie_position_marks": {
            str(p): rng.choice(["plain", "draw", "double", "triple"]) for p in range(1, 8)
        },
    }
    state = random_deal(rng, seats, **house)
    dealt_pawns = {pawn for _, _, pawn in pawns_left(state)}
    turn = state.dealer
    while state.phase == PLAY:
        assert SCARNIE.current_player(state) == turn
        move = rng.choice(legal_events(state))
        before = len(pawns_left(state))
        state = SCARNIE.apply(state, move)
        removal = state.removals[-1]
        assert 1 <= len(removal.pawns) <= 3 and len({p.colour for p in removal.pawns}) == 1
        assert len(pawns_left(state)) == before - len(removal.pawns)
        turn = (turn + 1) % seats
    # every pawn dealt was removed exactly once, the last one alone
    removed = [pawn for removal in state.removals for pawn in removal.pawns]
    assert sorted(removed, key=lambda p: p.number) == sorted(dealt_pawns, key=lambda p: p.number)
    last = state.removals[-1]
    assert len(last.pawns) == 1
    value = last.pawns[0].number * state.ruleset.multiplier(last.station, last.positions[0])
    scores = points(state)
    assert scores[last.seat] == 0
    assert sorted(set(scores) | {0}) == sorted({0, value})
    assert SCARNIE.legal_events(state) == [] and SCARNIE.result(state) is not None


# --- the game to 100: a match of deals (6.3, 6.7, D-SCN-7, D-SCN-8) -----------------------------

MATCH = ScarnieMatch()
GAME_IDS = [f"00000000-0000-4000-8000-{n:012d}" for n in range(1, 60)]


def new_match(seats: int = 3, teams: Any = None, **house: Any) -> ScoredMatchState:
    return MATCH.initial_state(house, seats, teams)


def sheet(state: ScoredMatchState, *deals: list[int]) -> ScoredMatchState:
    for scores in deals:
        state = MATCH.apply(state, Move("game.scored", {"scores": scores}))
    return state


def finished(state: ScoredMatchState, deal: State) -> ScoredMatchState:
    """Report a finished live deal to the match, as the service does."""
    result = SCARNIE.result(deal)
    assert result is not None
    data = {
        "game": GAME_IDS[len(state.entries)],
        "scores": [s.total for s in result.scores],
        "winners": list(result.winners),
        "report": SCARNIE.match_report(deal),
    }
    return MATCH.apply(state, Move("game.finished", data))


def match_refusal(state: ScoredMatchState, move: Move) -> IllegalEvent:
    with pytest.raises(IllegalEvent) as refused:
        MATCH.apply(state, move)
    return refused.value


def test_deals_go_on_until_a_player_reaches_100() -> None:
    state = sheet(new_match(3), [0, 28, 0], [27, 0, 0], [0, 0, 26], [0, 25, 0], [0, 24, 0])
    assert not MATCH.is_complete(state) and MATCH.next_game_number(state) == 6
    state = sheet(state, [0, 23, 0])  # seat 1: 28 + 25 + 24 + 23 = 100
    assert MATCH.is_complete(state) and MATCH.next_game_number(state) is None
    assert [(r["seat"], r["total"], r["rank"]) for r in MATCH.standing(state)] == [
        (1, 100, 1),
        (0, 27, 2),
        (2, 26, 3),
    ]
    assert match_refusal(state, Move("game.scored", {"scores": [1, 0, 0]})).code == "match.over"


def test_when_several_pass_100_together_the_highest_wins_and_equals_deal_on() -> None:
    # scarnie_scorer all_others: two players score in one deal (6.7)
    state = sheet(new_match(3, scarnie_scorer="all_others"), [0, 28, 28], [0, 28, 28])
    state = sheet(state, [0, 27, 27], [0, 26, 26])
    assert [r["total"] for r in MATCH.standing(state)] == [109, 109, 0]
    assert not MATCH.is_complete(state)  # equal: a full deal is played, not 0.7's extra play
    state = sheet(state, [5, 0, 5])
    assert MATCH.is_complete(state)
    assert [r["seat"] for r in MATCH.standing(state) if r["rank"] == 1] == [2]


def test_the_default_settlement_is_none() -> None:
    state = sheet(new_match(2), [28, 0], [0, 27], [28, 0], [28, 0], [20, 0])
    assert MATCH.settlement(state) == {"payments": [], "nets": [0, 0]}
    assert MATCH.closing_event(state) == ("match.settled", {"payments": [], "nets": [0, 0]})


def test_under_difference_the_winner_collects_the_difference_from_each_loser() -> None:
    # D-SCN-8 "difference": winner 104, losers 20 and 0 pay 84 and 104
    state = sheet(new_match(3, scarnie_settlement="difference"), [0, 20, 0], [0, 0, 28])
    state = sheet(state, [0, 0, 28], [0, 0, 24], [0, 0, 24])
    assert MATCH.settlement(state) == {
        "payments": [{"from": 0, "to": 2, "points": 104}, {"from": 1, "to": 2, "points": 84}],
        "nets": [-104, -84, 188],
    }


def test_partnerships_score_as_one_side_and_settle_side_difference() -> None:
    # D-SCN-6: teams given, seats 0 and 2 against 1 and 3; a side's score is its seats' sum
    state = new_match(4, [[0, 2], [1, 3]], scarnie_settlement="difference")
    state = sheet(state, [28, 0, 0, 0], [0, 12, 0, 0], [0, 0, 27, 0], [26, 0, 0, 0])
    state = sheet(state, [0, 0, 25, 0])
    standing = {r["seat"]: r for r in MATCH.standing(state)}
    assert [standing[s]["total"] for s in range(4)] == [106, 12, 106, 12]
    assert standing[2]["points_scored"] == 52 and standing[0]["rank"] == standing[2]["rank"] == 1
    assert MATCH.settlement(state) == {
        "payments": [{"from": 1, "to": 0, "points": 94}, {"from": 3, "to": 2, "points": 94}],
        "nets": [94, -94, 94, -94],
    }


@pytest.mark.parametrize(
    "seats, teams", [(3, [[0, 2], [1]]), (4, [[0, 1], [2, 3]]), (4, [[0, 2]]), (4, "02/13")]
)
def test_partnerships_are_four_players_sitting_opposite(seats: int, teams: Any) -> None:
    with pytest.raises(BadSetup) as refused:
        new_match(seats, teams)
    assert refused.value.code == "match.bad_teams"


def test_the_deal_passes_left_from_seat_0_by_default() -> None:
    state = new_match(3)
    dealers = []
    for _ in range(4):
        dealers.append(MATCH.next_game_setup(state)["dealer"])
        state = sheet(state, [1, 0, 0])
    assert dealers == [0, 1, 2, 0]


def test_the_lowest_pawn_drawn_deals_first() -> None:
    # 6.3: each player draws a pawn; seat 2 drew 3, the lowest
    state = MATCH.apply(new_match(3), Move("dealer.drawn", {"pawns": [17, 9, 3]}))
    assert MATCH.next_game_setup(state)["dealer"] == 2
    assert MATCH.next_game_setup(sheet(state, [1, 0, 0]))["dealer"] == 0
    again = match_refusal(state, Move("dealer.drawn", {"pawns": [1, 2, 3]}))
    assert again.code == "draw.already_made" and "seat 2 deals first" in again.message


@pytest.mark.parametrize(
    "pawns, code",
    [
        ([4, 4, 9], "draw.duplicate_pawn"),
        ([1, 2], "draw.wrong_count"),
        ([0, 2, 3], "event.bad_data"),
    ],
)
def test_a_bad_dealer_draw_is_refused(pawns: list[int], code: str) -> None:
    assert match_refusal(new_match(3), Move("dealer.drawn", {"pawns": pawns})).code == code


def test_the_dealer_is_drawn_before_the_first_deal() -> None:
    refused = match_refusal(sheet(new_match(2), [3, 0]), Move("dealer.drawn", {"pawns": [1, 2]}))
    assert refused.code == "draw.too_late"


def test_live_deals_hand_on_the_dealer_scores_partnerships_and_colours() -> None:
    # given: a live match of four in partnerships; deal 1 dealt by seat 0
    state = new_match(4, [[0, 2], [1, 3]])
    setup = MATCH.next_game_setup(state)
    assert setup == {
        "dealer": 0,
        "deal": 1,
        "scores_before": [0, 0, 0, 0],
        "teams": [[0, 2], [1, 3]],
        "colours": {},
    }
    deal = kill(SCARNIE.apply(new_deal(4, setup), faced_up(IN_ORDER)), (4, 7))
    # when: the deal is reported to the match
    state = finished(state, deal)
    # then: deal 2 is dealt by seat 1 with the scores and every colour seen so far
    setup = MATCH.next_game_setup(state)
    assert setup["dealer"] == 1 and setup["deal"] == 2
    assert setup["scores_before"] == [0, 0, 28, 0]  # 28 moves from seat 0: 3 kills, 2 forced
    assert setup["colours"] == {str(n): COLOUR[n] for n in range(1, 29)}
    assert state.entries[0].winners == (0, 2)
    # and a pawn of deal 2 cannot change its colour
    refused = refusal(new_deal(4, setup), faced_up(IN_ORDER, {21: "a", 1: "b"}))
    assert refused.code == "deal.colour_changed"


def test_the_rotation_follows_the_dealer_each_live_deal_reports() -> None:
    entry = GameEntry(1, GAME_IDS[0], (0, 5, 0), (1,), {"dealer": 2})
    state = dataclasses.replace(new_match(3), entries=(entry,))
    assert MATCH.next_game_setup(state)["dealer"] == 0


@pytest.mark.parametrize(
    "seats, house, scores",
    [
        (3, {}, [29, 0, 0]),  # 29 is no pawn number
        (3, {}, [0, 56, 0]),  # no Double position on an all-plain board
        (3, {}, [0, 5, 7]),  # two scorers under previous_player
        (4, {"teams": True}, [5, 0, 5, 0]),  # a partnership scores once
        (3, {"scarnie_scorer": "all_others"}, [0, 5, 6]),
        (3, {"scarnie_scorer": "all_others"}, [4, 4, 4]),  # the killer never scores
        (4, {"scarnie_scorer": "all_others"}, [0, 0, 4, 4]),
    ],
)
def test_a_strict_sheet_refuses_a_deal_no_kill_can_score(
    seats: int, house: dict[str, Any], scores: list[int]
) -> None:
    teams = [[0, 2], [1, 3]] if house.pop("teams", False) else None
    refused = match_refusal(
        new_match(seats, teams, **house), Move("game.scored", {"scores": scores})
    )
    assert refused.code == "score.unattainable"


@pytest.mark.parametrize(
    "seats, house, scores",
    [
        (3, {}, [0, 28, 0]),
        (3, {}, [0, 0, 0]),
        (3, {"scarnie_position_marks": {"7": "triple"}}, [0, 84, 0]),  # 28 x 3 (Appendix C.5)
        (3, {"scarnie_scorer": "all_others"}, [0, 17, 17]),
        (2, {"scarnie_scorer": "all_others"}, [0, 17]),
    ],
)
def test_a_sheet_takes_every_score_a_kill_can_give(
    seats: int, house: dict[str, Any], scores: list[int]
) -> None:
    state = sheet(new_match(seats, **house), scores)
    assert list(state.entries[0].scores) == scores


def test_a_lenient_sheet_keeps_an_impossible_deal_with_a_warning() -> None:
    state = sheet(new_match(2, sheet_entry_validation="lenient"), [29, 3])
    assert [w["code"] for w in MATCH.warnings(state)] == ["score.unattainable"] * 2
    assert MATCH.standing(state)[0]["total"] == 29


def test_a_sheet_deal_is_won_by_its_scorer_and_partner() -> None:
    state = sheet(new_match(4, [[0, 2], [1, 3]]), [0, 0, 0, 9], [0, 0, 0, 0])
    assert [entry.winners for entry in state.entries] == [(1, 3), ()]


# --- JSON of any shape is refused with a code, never a crash ----------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.text(max_size=5) | st.just("S2P5"),
    lambda inner: st.lists(inner, max_size=8) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(
    type=st.sampled_from(["pawns.removed", "deal.faced_up"]),
    data=st.dictionaries(
        st.sampled_from(["station", "positions", "stations"]) | st.text(max_size=3), json_values
    ),
    phase=st.sampled_from([DEALING, PLAY]),
)
def test_any_removal_or_deal_data_gives_a_state_or_a_coded_refusal(
    type: str, data: dict[str, Any], phase: str
) -> None:
    state = new_deal(3) if phase == DEALING else dealt(3)
    try:
        SCARNIE.apply(state, Move(type, data))
    except IllegalEvent as refused:
        assert refused.code.count(".") >= 1 and refused.message


@settings(max_examples=100, deadline=None)
@given(marks=json_values, setup=st.dictionaries(st.sampled_from(["dealer", "teams"]), json_values))
def test_any_marks_or_setup_give_a_ruleset_or_a_coded_refusal(marks: Any, setup: Any) -> None:
    try:
        new_deal(4, setup, scarnie_position_marks=marks)
    except (BadRuleset, BadSetup) as refused:
        assert refused.code.count(".") >= 1 and refused.message


@settings(max_examples=100, deadline=None)
@given(data=st.dictionaries(st.just("pawns") | st.text(max_size=3), json_values))
def test_any_dealer_draw_gives_a_match_or_a_coded_refusal(data: dict[str, Any]) -> None:
    try:
        MATCH.apply(new_match(3), Move("dealer.drawn", data))
    except IllegalEvent as refused:
        assert refused.code.count(".") >= 1 and refused.message
