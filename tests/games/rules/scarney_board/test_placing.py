"""Choosing colours and placing the pawns (RULES.md 3.5), as Singles, Doubles and High-Low do."""

from typing import Any

import pytest

from games.rules.base import Move
from games.rules.errors import BadSetup, IllegalEvent
from games.rules.scarney_board import placing
from games.rules.scarney_board.board import EMPTY_BOARD, Board, with_pawn
from games.rules.scarney_board.doubles import DOUBLES
from games.rules.scarney_board.placing import CHOOSING, PLACING, Sides

# Seat 2 chooses and places first, seat 0 second (as a Singles game with three players).
OPEN = Sides(first=2, second=0)
BLACK_RED = Sides(first=2, second=0, colours=("B", "R"))


def choose(*colours: Any) -> Move:
    return Move("colours.chosen", {"colours": list(colours)})


def put(circle: int | str, pawn: str) -> Move:
    return Move("pawn.placed", {"circle": circle, "pawn": pawn})


def refusal(sides: Sides, board: Board, move: Move) -> IllegalEvent:
    with pytest.raises(IllegalEvent) as refused:
        placing.apply(sides, board, move)
    return refused.value


def after(sides: Sides, board: Board, *moves: Move) -> tuple[Sides, Board]:
    for move in moves:
        sides, board = placing.apply(sides, board, move)
    return sides, board


# --- colours ------------------------------------------------------------------------------------


def test_the_first_side_chooses_colours_first_from_all_six_pairs() -> None:
    assert placing.phase(OPEN, EMPTY_BOARD) == CHOOSING
    assert placing.on_turn(OPEN, EMPTY_BOARD) == 2
    assert placing.expected(OPEN, EMPTY_BOARD) == ["colours.chosen"]
    pairs = [m.data["colours"] for m in placing.legal_moves(OPEN, EMPTY_BOARD)]
    assert pairs == [["B", "R"], ["B", "Y"], ["B", "G"], ["R", "Y"], ["R", "G"], ["Y", "G"]]


def test_choosing_two_colours_gives_the_first_side_those_eight_pawns() -> None:
    sides, board = placing.apply(OPEN, EMPTY_BOARD, choose("g", "Y"))
    assert sides.colours == ("Y", "G")
    assert sides.pawns_of(2) == ("Y1", "Y2", "Y3", "Y4", "G1", "G2", "G3", "G4")
    assert sides.pawns_of(0) == ("B1", "B2", "B3", "B4", "R1", "R2", "R3", "R4")
    assert sides.pawns_of(1) == ()
    assert placing.phase(sides, board) == PLACING


@pytest.mark.parametrize(
    "colours",
    [["B"], ["B", "B"], ["B", "X"], "BR", ["B", "R", "Y"], [1, 2], None, ["b", "B"], []],
)
def test_anything_but_two_different_colours_is_refused(colours: Any) -> None:
    error = refusal(OPEN, EMPTY_BOARD, Move("colours.chosen", {"colours": colours}))
    assert error.code == "colours.invalid"
    assert error.message.startswith(f"{colours!r} is not a choice of colours")


def test_a_colour_choice_without_colours_is_malformed() -> None:
    assert refusal(OPEN, EMPTY_BOARD, Move("colours.chosen", {})).code == "event.bad_data"


def test_nothing_is_placed_before_the_colours_are_chosen() -> None:
    error = refusal(OPEN, EMPTY_BOARD, put(1, "B1"))
    assert error.code == "colours.required"
    assert error.message == (
        "Seat 2 must first choose two colours (colours.chosen), before pawn.placed."
    )


def test_the_colours_are_chosen_once() -> None:
    error = refusal(BLACK_RED, EMPTY_BOARD, choose("Y", "G"))
    assert error.code == "colours.already_chosen"
    assert "black and red" in error.message


# --- placing ------------------------------------------------------------------------------------


def test_placements_alternate_starting_with_the_first_side() -> None:
    sides, board = BLACK_RED, EMPTY_BOARD
    assert placing.placer(sides, board) == 2
    sides, board = after(sides, board, put("C7", "B4"))
    assert board[6] == "B4"
    assert placing.placer(sides, board) == 0
    sides, board = after(sides, board, put(8, "y1"))
    assert board[7] == "Y1"
    assert placing.on_turn(sides, board) == 2


def test_every_unplaced_pawn_of_the_side_on_turn_may_go_on_every_empty_circle() -> None:
    moves = placing.legal_moves(BLACK_RED, EMPTY_BOARD)
    assert len(moves) == 8 * 16
    assert {m.data["pawn"] for m in moves} == set(BLACK_RED.pawns_of(2))
    _, board = after(BLACK_RED, EMPTY_BOARD, put(1, "B1"))
    moves = placing.legal_moves(BLACK_RED, board)
    assert len(moves) == 8 * 15
    assert {m.data["pawn"] for m in moves} == set(BLACK_RED.pawns_of(0))
    assert all(m.data["circle"] != 1 for m in moves)


def test_a_pawn_of_the_side_not_on_turn_is_refused() -> None:
    error = refusal(BLACK_RED, EMPTY_BOARD, put(1, "Y1"))
    assert error.code == "place.not_your_pawn"
    assert error.message == (
        "It is seat 2's turn to place, and Y1 is not one of his pawns: "
        "seat 2 places the black and red pawns."
    )


def test_a_pawn_already_on_the_board_is_refused() -> None:
    _, board = after(BLACK_RED, EMPTY_BOARD, put(1, "B1"), put(2, "Y1"))
    error = refusal(BLACK_RED, board, put(3, "B1"))
    assert error.code == "place.already_placed"
    assert error.message == "B1 is already placed, on C1."


def test_a_pawn_on_an_occupied_circle_is_refused() -> None:
    _, board = after(BLACK_RED, EMPTY_BOARD, put(1, "B1"))
    error = refusal(BLACK_RED, board, put("C1", "Y1"))
    assert error.code == "place.circle_occupied"
    assert error.message == "Y1 cannot go on C1: B1 stands there."


@pytest.mark.parametrize("circle", ["C17", 0, "X1", 17])
def test_a_circle_off_the_board_is_refused(circle: Any) -> None:
    error = refusal(BLACK_RED, EMPTY_BOARD, put(circle, "B1"))
    assert error.code == "setup.unknown_circle"
    assert repr(circle) in error.message


def test_an_unknown_pawn_is_refused() -> None:
    error = refusal(BLACK_RED, EMPTY_BOARD, put(1, "B5"))
    assert error.code == "setup.unknown_pawn"
    assert "'B5'" in error.message


@pytest.mark.parametrize(
    "data", [{"pawn": "B1"}, {"circle": 1}, {"circle": [1], "pawn": "B1"}, {"circle": None}]
)
def test_malformed_placements_are_refused(data: dict[str, Any]) -> None:
    assert refusal(BLACK_RED, EMPTY_BOARD, Move("pawn.placed", data)).code == "event.bad_data"


def test_after_the_sixteenth_placement_the_placing_is_over() -> None:
    sides, board = BLACK_RED, EMPTY_BOARD
    while placing.phase(sides, board) == PLACING:
        sides, board = placing.apply(sides, board, placing.legal_moves(sides, board)[0])
    assert placing.phase(sides, board) is None
    assert sorted(p for p in board if p) == sorted(sides.pawns_of(0) + sides.pawns_of(2))


def test_other_moves_wait_for_the_placing_naming_who_places_next() -> None:
    _, board = after(BLACK_RED, EMPTY_BOARD, put(1, "B1"))
    error = refusal(BLACK_RED, board, Move("pawn.taken_off", {"circle": 1}))
    assert error.code == "place.required"
    assert error.message == (
        "All 16 pawns must be placed before pawn.taken_off; 15 still to place, seat 0 next."
    )


def test_placing_after_the_board_is_set_is_refused() -> None:
    assert placing.refusal_after_placing(put(1, "B1"), study=False).code == "place.all_placed"
    late = placing.refusal_after_placing(choose("B", "R"), study=True)
    assert late.code == "colours.already_chosen"
    assert "study position" in late.message


def test_the_view_lists_each_seats_colours_and_pawns_still_to_place() -> None:
    board = with_pawn(EMPTY_BOARD, 5, "R2")
    view = placing.view(BLACK_RED, board, 3)
    assert view["colours"] == [["Y", "G"], [], ["B", "R"]]
    assert view["unplaced"][2] == ["B1", "B2", "B3", "B4", "R1", "R3", "R4"]
    assert view["unplaced"][1] == []


# --- setups and event checks shared by the games ------------------------------------------------


def test_a_seat_in_the_setup_must_be_a_seat_at_the_table() -> None:
    assert placing.setup_seat({}, "starter", 1, 2) == 1
    assert placing.setup_seat({"starter": None}, "starter", 1, 2) == 1
    assert placing.setup_seat({"starter": 0}, "starter", 1, 2) == 0
    for bad in [2, -1, True, "0", 0.0]:
        with pytest.raises(BadSetup) as refused:
            placing.setup_seat({"starter": bad}, "starter", 0, 2)
        assert refused.value.code == "setup.bad_seat"
        assert "'starter'" in refused.value.message


def test_a_setup_with_an_unknown_key_or_not_an_object_is_refused() -> None:
    with pytest.raises(BadSetup) as refused:
        DOUBLES.initial_state({"starter": 0, "colour": "B"}, {}, 2)
    assert refused.value.code == "setup.unknown_key"
    assert "colour is unknown" in refused.value.message
    with pytest.raises(BadSetup) as refused:
        DOUBLES.initial_state([1], {}, 2)  # type: ignore[arg-type]
    assert refused.value.code == "setup.not_an_object"
    assert DOUBLES.initial_state(None, {}, 2) == DOUBLES.initial_state({}, {}, 2)  # type: ignore[arg-type]


def test_a_study_position_needs_its_fewest_pawns() -> None:
    assert placing.setup_position({}) is None
    board = placing.setup_position({"position": {"C1": "B1", "C2": "R1"}}, fewest=2)
    assert board is not None and board[:2] == ("B1", "R1")
    for position, code in [({}, "setup.empty_position"), ({"C1": "B1"}, "setup.too_few_pawns")]:
        with pytest.raises(BadSetup) as refused:
            placing.setup_position({"position": position}, fewest=2)
        assert refused.value.code == code


def test_unknown_events_bad_data_and_moves_after_the_end_are_refused_in_that_order() -> None:
    types = frozenset({"pawn.placed"})
    codes = []
    for move, over in [
        (Move("dice.thrown", {}), True),
        (Move("pawn.placed", [1]), True),  # type: ignore[arg-type]
        (Move("pawn.placed", {}), True),
    ]:
        with pytest.raises(IllegalEvent) as refused:
            placing.check_event(move, types, "Game", over)
        codes.append(refused.value.code)
    assert codes == ["event.unknown_type", "event.bad_data", "game.over"]
    placing.check_event(Move("pawn.placed", {}), types, "Game", False)


def test_the_legal_placements_are_exactly_the_placements_accepted() -> None:
    sides, board = BLACK_RED, EMPTY_BOARD
    for _ in range(5):  # a few placements in, alternating sides
        sides, board = placing.apply(sides, board, placing.legal_moves(sides, board)[-1])
    accepted = set()
    for circle in range(1, 17):
        for pawn in [c + str(s) for c in "BRYG" for s in range(1, 5)]:
            try:
                placing.apply(sides, board, put(circle, pawn))
            except IllegalEvent:
                continue
            accepted.add((circle, pawn))
    listed = {(m.data["circle"], m.data["pawn"]) for m in placing.legal_moves(sides, board)}
    assert accepted == listed
    assert len(listed) == 6 * 11  # seat 0 (two placed) has six pawns for the eleven empty circles
