"""The Scarney board of RULES.md 1.1 and the pawns of 1.2."""

from collections import Counter
from typing import Any

import pytest

from games.rules.errors import BadSetup, IllegalEvent
from games.rules.scarney_board.board import (
    ALL_PAWNS,
    CIRCLES,
    CORNERS,
    JUMPS,
    LINES,
    NEIGHBOURS,
    TOTAL_SPOTS,
    board_as_dict,
    check_takeoff,
    circle_name,
    column_of,
    is_adjacent,
    is_low,
    jump_over,
    parse_circle,
    parse_pawn,
    parse_position,
    row_of,
    spots_of,
)


def full_position() -> dict[str, str]:
    return {circle_name(c): pawn for c, pawn in zip(CIRCLES, ALL_PAWNS, strict=True)}


def test_there_are_exactly_32_jump_triples_and_no_repeats() -> None:
    assert len(JUMPS) == 32
    assert len(set(JUMPS)) == 32


def test_each_of_the_eight_lines_holds_four_jump_triples() -> None:
    per_line = Counter(
        next(i for i, line in enumerate(LINES) if {f, o, t} <= set(line)) for f, o, t in JUMPS
    )
    assert len(LINES) == 8
    assert per_line == {i: 4 for i in range(8)}


def test_every_jump_goes_over_an_adjacent_circle_to_the_next_circle_in_line() -> None:
    for frm, over, to in JUMPS:
        assert is_adjacent(frm, over) and is_adjacent(over, to)
        assert row_of(frm) == row_of(to) or column_of(frm) == column_of(to)
        assert 2 * over == frm + to  # the middle circle, in a row or a column


def test_the_printed_jump_triples_of_the_end_games_are_jumps() -> None:
    for triple in [(11, 10, 9), (9, 5, 1), (1, 2, 3), (14, 15, 16), (12, 8, 4), (2, 6, 10)]:
        assert triple in JUMPS


def test_corners_have_two_neighbours_edges_three_and_the_centre_four() -> None:
    counts = {c: len(NEIGHBOURS[c]) for c in CIRCLES}
    assert {c for c, n in counts.items() if n == 2} == CORNERS == {1, 4, 13, 16}
    assert {c for c, n in counts.items() if n == 4} == {6, 7, 10, 11}
    assert sorted(counts.values()) == [2] * 4 + [3] * 8 + [4] * 4


def test_adjacency_is_orthogonal_and_never_diagonal() -> None:
    assert NEIGHBOURS[6] == {2, 5, 7, 10}
    assert not is_adjacent(1, 6)
    assert not is_adjacent(4, 5)  # the end of row 1 does not run on into row 2
    assert all(is_adjacent(b, a) for a in CIRCLES for b in NEIGHBOURS[a])


def test_circles_are_numbered_row_by_row_from_the_top_left() -> None:
    assert [row_of(c) for c in (1, 4, 5, 16)] == [1, 1, 2, 4]
    assert [column_of(c) for c in (1, 4, 5, 16)] == [1, 4, 1, 4]


def test_jump_over_names_the_middle_circle_or_none() -> None:
    assert jump_over(11, 9) == 10
    assert jump_over(3, 11) == 7
    assert jump_over(11, 6) is None  # diagonal
    assert jump_over(3, 5) is None  # no wrapping from one row to the next
    assert jump_over(1, 4) is None  # too far


@pytest.mark.parametrize(("value", "circle"), [("C7", 7), ("c7", 7), (7, 7), ("C16", 16), (1, 1)])
def test_circles_parse_from_text_in_either_case_or_from_a_number(value: Any, circle: int) -> None:
    assert parse_circle(value) == circle


@pytest.mark.parametrize("value", ["C0", "C17", "C07", "7", "D7", 0, 17, True, 7.0, None, [7]])
def test_anything_else_is_an_unknown_circle(value: Any) -> None:
    with pytest.raises(IllegalEvent) as refused:
        parse_circle(value)
    assert refused.value.code == "circle.unknown"
    assert "C1 to C16" in refused.value.message


def test_circle_names_round_trip() -> None:
    assert [parse_circle(circle_name(c)) for c in CIRCLES] == list(CIRCLES)


def test_pawns_parse_in_either_case() -> None:
    assert parse_pawn("B4") == "B4"
    assert parse_pawn("g1") == "G1"


@pytest.mark.parametrize("value", ["B5", "B0", "X1", "BB", "", 4, None])
def test_anything_else_is_an_unknown_pawn(value: Any) -> None:
    with pytest.raises(IllegalEvent) as refused:
        parse_pawn(value)
    assert refused.value.code == "pawn.unknown"


def test_the_sixteen_pawns_total_forty_spots_and_half_are_low() -> None:
    assert len(set(ALL_PAWNS)) == 16
    assert sum(spots_of(p) for p in ALL_PAWNS) == TOTAL_SPOTS == 40
    assert sorted(p for p in ALL_PAWNS if is_low(p)) == sorted(c + s for c in "BRYG" for s in "12")


def test_a_position_parses_into_a_board_of_sixteen_circles() -> None:
    board = parse_position({"C7": "b4", 11: "G3", "C2": None})
    assert board[6] == "B4" and board[10] == "G3" and board.count(None) == 14
    assert board_as_dict(board)["C7"] == "B4"
    assert list(board_as_dict(board)) == [f"C{c}" for c in CIRCLES]


@pytest.mark.parametrize(
    ("position", "code", "named"),
    [
        ({"C7": "B4", "C8": "B4"}, "setup.duplicate_pawn", ["B4", "C7", "C8"]),
        ({"C7": "B9"}, "setup.unknown_pawn", ["C7", "B9"]),
        ({"C99": "B4"}, "setup.unknown_circle", ["C99"]),
        ({"C7": "B4", 7: "R1"}, "setup.duplicate_circle", ["C7"]),
    ],
)
def test_a_bad_position_is_refused_naming_the_pawns_and_circles(
    position: dict[Any, str], code: str, named: list[str]
) -> None:
    with pytest.raises(IllegalEvent) as refused:
        parse_position(position)
    assert refused.value.code == code
    assert all(name in refused.value.message for name in named)


def test_a_bad_setup_position_is_refused_as_a_bad_setup() -> None:
    with pytest.raises(BadSetup) as refused:
        parse_position({"C7": "B9"}, error=BadSetup)
    assert refused.value.code == "setup.unknown_pawn"


def test_a_layout_must_fill_all_sixteen_circles() -> None:
    position = full_position()
    del position["C5"]
    with pytest.raises(IllegalEvent) as refused:
        parse_position(position, complete=True)
    assert refused.value.code == "setup.incomplete_layout"
    assert "C5 is empty and R1 is missing" in refused.value.message
    assert parse_position(full_position(), complete=True).count(None) == 0


def test_a_take_off_from_an_empty_circle_is_refused() -> None:
    board = parse_position({"C7": "B1"})
    with pytest.raises(IllegalEvent) as refused:
        check_takeoff(board, 6)
    assert refused.value.code == "takeoff.empty_circle"
    assert "C6" in refused.value.message
    assert check_takeoff(board, 7) == "B1"
