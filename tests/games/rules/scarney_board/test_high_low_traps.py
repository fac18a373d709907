"""The seven High-Low end-game traps of RULES.md Appendix A.5 (seed 000): replayed move by move
through the rule engine, and solved: the first mover (A) wins with best play in every one."""

from __future__ import annotations

from itertools import permutations
from typing import Any

import pytest

from games.rules.base import Move, fold
from games.rules.scarney_board.board import EMPTY_BOARD, Board, with_pawn
from games.rules.scarney_board.high_low import HIGH_LOW, Ruleset
from games.rules.scarney_board.solve.duel import HighLowSearch, occupied_mask, solve_high_low

A, B = 0, 1


def position(text: str) -> dict[str, str]:
    return {circle: pawn for pawn, circle in (item.split("@") for item in text.split())}


def board_of(text: str) -> Board:
    board = EMPTY_BOARD
    for circle, pawn in position(text).items():
        board = with_pawn(board, int(circle[1:]), pawn)
    return board


# name, section, position, the printed line (player, circles), the pawn left, A's points within
# the trap, and A.5.8's first-move counts (winning moves, legal moves).
TRAPS: list[tuple[str, str, list[tuple[int, list[int]]], str, int, tuple[int, int]]] = [
    (
        "A.5.1 four pawns",
        "R3@C2 R4@C4 G4@C5 G2@C9",
        [(A, [5]), (B, [2, 4])],
        "G2",
        4,
        (1, 6),
    ),
    (
        "A.5.2 five pawns",
        "B1@C2 G4@C5 G2@C7 G3@C8 R3@C10",
        [(A, [5, 7]), (B, [8]), (A, [2])],
        "R3",
        7,
        (2, 9),
    ),
    (
        "A.5.3 six pawns",
        "B4@C2 R2@C4 R3@C5 R4@C8 B3@C10 R1@C16",
        [(A, [4, 16]), (B, [2, 10]), (A, [8])],
        "R3",
        7,
        (2, 12),
    ),
    (
        "A.5.4 seven pawns",
        "B1@C5 Y4@C7 B2@C8 Y3@C11 R2@C12 G2@C14 R1@C16",
        [(A, [7, 11]), (B, [5, 8]), (A, [12]), (B, [14])],
        "R1",
        9,
        (6, 9),
    ),
    (
        "A.5.5 eight pawns",
        "R1@C5 R4@C6 R3@C7 R2@C8 G2@C13 G3@C14 G1@C15 G4@C16",
        [(A, [13, 15, 16]), (B, [6, 7, 8]), (A, [5])],
        "G3",
        8,
        (6, 28),
    ),
    (
        "A.5.6 nine pawns",
        "G3@C1 R1@C3 G4@C5 R3@C6 R4@C7 Y4@C8 R2@C11 Y3@C12 B4@C14",
        [(A, [3, 7, 11]), (B, [8, 12]), (A, [5]), (B, [14]), (A, [1])],
        "R3",
        14,
        (1, 16),
    ),
    (
        "A.5.7b ten pawns (reconstructed)",
        "G2@C1 G1@C2 R4@C3 G3@C5 B3@C6 Y3@C7 G4@C9 R2@C10 Y4@C12 B4@C16",
        [(A, [1, 5, 9]), (B, [16]), (A, [3]), (B, [12]), (A, [10]), (B, [6]), (A, [2])],
        "Y3",
        16,
        (1, 15),
    ),
]
TRAP_7 = TRAPS[-1][1]


def start(text: str) -> Any:
    return HIGH_LOW.initial_state({"position": position(text), "to_move": A}, Ruleset(), 2)


def removal(circles: list[int]) -> Move:
    return Move("pawns.removed", {"circles": circles})


@pytest.mark.parametrize(("name", "text", "line", "last", "points", "counts"), TRAPS)
def test_the_printed_line_replays_and_a_wins(
    name: str,
    text: str,
    line: list[tuple[int, list[int]]],
    last: str,
    points: int,
    counts: tuple[int, int],
) -> None:
    state = start(text)
    for player, circles in line:
        assert HIGH_LOW.current_player(state) == player
        state = HIGH_LOW.apply(state, removal(circles))
    assert HIGH_LOW.is_terminal(state)
    assert state.last_pawn == last
    assert HIGH_LOW.result(state).winners == (A,)
    # a study position starts with empty piles: A's score is the spots he removed in the trap
    assert HIGH_LOW.scores(state)[A].points == points and HIGH_LOW.scores(state)[B].points == 0


@pytest.mark.parametrize(("name", "text", "line", "last", "points", "counts"), TRAPS)
def test_the_first_mover_wins_with_best_play_and_every_move_of_a_is_winning(
    name: str,
    text: str,
    line: list[tuple[int, list[int]]],
    last: str,
    points: int,
    counts: tuple[int, int],
) -> None:
    board = board_of(text)
    assert solve_high_low(board, A).winner == A
    search = HighLowSearch(board)
    mask = occupied_mask(board)
    for player, circles in line:
        group = sum(1 << (c - 1) for c in circles)
        if player == A:
            assert search.wins(mask) and not search.wins(mask ^ group)
        mask ^= group


@pytest.mark.parametrize(("name", "text", "line", "last", "points", "counts"), TRAPS)
def test_first_move_counts_of_a58(
    name: str,
    text: str,
    line: list[tuple[int, list[int]]],
    last: str,
    points: int,
    counts: tuple[int, int],
) -> None:
    board = board_of(text)
    search = HighLowSearch(board)
    mask = occupied_mask(board)
    legal = search.legal(mask)
    winning = [group for group in legal if not search.wins(mask ^ group)]
    assert (len(winning), len(legal)) == counts
    # the solver's legal removals are the rule engine's
    engine = {tuple(m.data["circles"]) for m in HIGH_LOW.legal_events(start(text))}
    mine = {tuple(c + 1 for c in range(16) if group >> c & 1) for group in legal}
    assert mine == engine


@pytest.mark.parametrize(("name", "text", "line", "last", "points", "counts"), TRAPS)
def test_the_solver_line_replays_through_the_engine_to_a_win_for_a(
    name: str,
    text: str,
    line: list[tuple[int, list[int]]],
    last: str,
    points: int,
    counts: tuple[int, int],
) -> None:
    duel = solve_high_low(board_of(text), A)
    state = fold(HIGH_LOW, start(text), list(duel.line))
    assert HIGH_LOW.is_terminal(state) and HIGH_LOW.result(state).winners == (A,)


def test_trap_seven_as_printed_does_not_check_out() -> None:
    # given the printed moves: A's triple, B removes B4, A removes R4, "A removes G1"
    state = fold(HIGH_LOW, start(TRAP_7), [removal([1, 5, 9]), removal([16]), removal([3])])
    # then it is B's turn, not A's, and four more pawns than one would remain after G1
    assert HIGH_LOW.current_player(state) == B
    after = HIGH_LOW.apply(state, removal([2]))
    assert not HIGH_LOW.is_terminal(after)
    assert sorted(c for c, pawn in enumerate(after.board, 1) if pawn) == [6, 7, 10, 12]


def test_trap_seven_only_singles_are_left_after_a_opens_with_the_triple() -> None:
    state = fold(HIGH_LOW, start(TRAP_7), [removal([1, 5, 9])])
    assert all(len(m.data["circles"]) == 1 for m in HIGH_LOW.legal_events(state))


def test_trap_seven_any_order_removing_both_low_pawns_before_the_end_wins_for_a() -> None:
    # A.5.8: after A's triple six single removals remain, B, A, B, A, B, A; whenever both low
    # pawns (G1 on C2, R2 on C10) are among the six removed, the last pawn is high and A wins.
    opened = fold(HIGH_LOW, start(TRAP_7), [removal([1, 5, 9])])
    left = [2, 3, 6, 7, 10, 12, 16]
    for order in permutations(left, 6):
        if 2 not in order or 10 not in order:
            continue
        state = fold(HIGH_LOW, opened, [removal([c]) for c in order])
        assert HIGH_LOW.result(state).winners == (A,)
