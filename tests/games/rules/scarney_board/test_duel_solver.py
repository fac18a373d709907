"""The two-player solver (games.rules.scarney_board.solve.duel): Doubles parity positions built by
hand (the seed's strategy notes behind D-DBL-2), and agreement with brute force through the rule
engines on small positions."""

from __future__ import annotations

import dataclasses
import random
from functools import cache
from typing import Any

import pytest

from games.rules.base import Move, fold
from games.rules.errors import IllegalEvent
from games.rules.scarney_board.board import ALL_PAWNS, EMPTY_BOARD, Board, board_as_dict, with_pawn
from games.rules.scarney_board.doubles import DOUBLES, TAKEOFF_1, TAKEOFF_2
from games.rules.scarney_board.doubles import Ruleset as DoublesRuleset
from games.rules.scarney_board.doubles import State as DoublesState
from games.rules.scarney_board.high_low import HIGH_LOW
from games.rules.scarney_board.placing import Sides
from games.rules.scarney_board.solve.duel import (
    HighLowSearch,
    analyse,
    doubles_jumps,
    occupied_mask,
    pack,
    solve_doubles,
    solve_high_low,
    unpack,
)

A, B = 0, 1


def board_of(text: str) -> Board:
    board = EMPTY_BOARD
    for item in text.split():
        pawn, circle = item.split("@")
        board = with_pawn(board, int(circle[1:]), pawn)
    return board


def doubles_study(text: str, to_move: int = A, **ruleset: Any) -> Any:
    setup = {"position": board_as_dict(board_of(text)), "to_move": to_move}
    return DOUBLES.initial_state(setup, DoublesRuleset(**ruleset), 2)


# Two separate jumps: R1 over B1 on row 1, Y1 over G1 on row 4; the blacks B4, B3 never jump.
TWO_JUMPS = "R1@C1 B1@C2 Y1@C13 G1@C14 B4@C8 B3@C12"
ONE_JUMP = "R1@C1 B1@C2 B4@C8 B3@C12"


# --- the packed board --------------------------------------------------------------------------


def test_pack_and_unpack_are_inverse_and_jumps_match_the_board_rules() -> None:
    rng = random.Random(7)
    for _ in range(200):
        board = random_board(rng, rng.randint(2, 16))
        assert unpack(pack(board)) == board
        state = DOUBLES.initial_state(
            {"position": board_as_dict(board), "to_move": A}, DoublesRuleset(), 2
        )
        engine = {(m.data["from"], m.data["to"]) for m in DOUBLES.legal_events(state)}
        assert {(f + 1, t + 1) for f, _, t in doubles_jumps(pack(board))} == engine


# --- Doubles parity (RULES.md 4.3, the seed's strategy: leave an even number of jumps) ----------


def test_one_jump_left_the_mover_jumps_and_sweeps() -> None:
    duel = solve_doubles(board_of(ONE_JUMP), A)
    assert duel.winner == A and duel.margin == 1 + 8  # B1 captured, then R1, B4, B3 swept
    assert duel.line == (Move("pawn.jumped", {"from": 1, "to": 3}),)


def test_two_separate_jumps_the_mover_loses_the_sweep() -> None:
    # each takes a 1-spot; the second jumper is the last and sweeps R1 (or Y1), B4 and B3
    duel = solve_doubles(board_of(TWO_JUMPS), A)
    assert duel.winner == B and duel.margin == -9
    assert len(duel.line) == 2


def test_the_mover_leaves_an_even_number_of_jumps_as_the_seed_advises() -> None:
    # given two jumps: B4 over Y3 (C10 to C12) leaves two jumps, Y3 over B4 (C11 to C9) leaves one
    state = doubles_study("R3@C1 G3@C3 Y4@C7 B4@C10 Y3@C11 R4@C16")
    even = DOUBLES.apply(state, Move("pawn.jumped", {"from": 10, "to": 12}))
    odd = DOUBLES.apply(state, Move("pawn.jumped", {"from": 11, "to": 9}))
    assert len(DOUBLES.legal_events(even)) == 2 and len(DOUBLES.legal_events(odd)) == 1
    # then best play takes the even one and wins; the odd one loses
    answer = analyse(DOUBLES, state)
    assert answer["winner"] == A
    assert answer["line"][0] == {"type": "pawn.jumped", "data": {"from": 10, "to": 12}}
    assert analyse(DOUBLES, odd)["winner"] == B


def test_with_the_premature_call_the_mover_jumps_and_sweeps_at_once() -> None:
    duel = solve_doubles(board_of(TWO_JUMPS), A, call_allowed=True)
    assert duel.winner == A and duel.margin == 1 + 10
    assert duel.line[-1] == Move("game.scarney_called", {})


def test_a_call_pending_is_made_when_it_pays_the_player_who_just_jumped() -> None:
    # B has just jumped and may call; A to move would win the two-jump position's sweep otherwise
    duel = solve_doubles(board_of(TWO_JUMPS), A, (3, 5), call_pending=True, call_allowed=True)
    assert duel.line == (Move("game.scarney_called", {}),)
    assert duel.winner == B and duel.margin == 3 - (5 + 11)  # the whole board: 11 spots


def test_no_jump_at_all_the_previous_mover_sweeps() -> None:
    duel = solve_doubles(board_of("B4@C1 B3@C2 R1@C16"), A, (10, 22))
    assert duel.winner == B and duel.margin == 10 - 30 and duel.line == ()


def test_points_already_credited_decide_the_winner_with_the_margin_still_to_make() -> None:
    assert solve_doubles(board_of(ONE_JUMP), A, (0, 12)).winner == B
    assert solve_doubles(board_of(ONE_JUMP), A, (0, 9)).winner is None  # 20-20 is drawn
    assert solve_doubles(board_of(ONE_JUMP), B, (0, 0)).winner == B


# --- brute force through the rule engines ------------------------------------------------------


def random_board(rng: random.Random, count: int, circles: list[int] | None = None) -> Board:
    board = EMPTY_BOARD
    where = rng.sample(circles or list(range(1, 17)), count)
    for circle, pawn in zip(where, rng.sample(ALL_PAWNS, count), strict=True):
        board = with_pawn(board, circle, pawn)
    return board


def doubles_brute(state: Any) -> int:
    """Seat 0's final points minus seat 1's under best play, over the engine's legal events."""
    if DOUBLES.is_terminal(state):
        scores = DOUBLES.scores(state)
        return scores[0].points - scores[1].points
    mover = DOUBLES.current_player(state)
    moves = DOUBLES.legal_events(state)
    play = [
        doubles_brute(DOUBLES.apply(state, m)) for m in moves if m.type != "game.scarney_called"
    ]
    best = max(play) if mover == A else min(play)
    if len(play) < len(moves):
        # the call belongs to the player who has just jumped, the one not on turn
        called = doubles_brute(DOUBLES.apply(state, Move("game.scarney_called", {})))
        best = min(best, called) if mover == A else max(best, called)
    return best


def check_doubles(state: Any) -> None:
    value = doubles_brute(state)
    answer = analyse(DOUBLES, state)
    assert answer["winner"] == (None if value == 0 else (A if value > 0 else B))
    line = [Move(m["type"], m["data"]) for m in answer["line"]]
    end = fold(DOUBLES, state, line)
    assert DOUBLES.is_terminal(end)
    scores = DOUBLES.scores(end)
    assert scores[0].points - scores[1].points == value  # the line is best play


@pytest.mark.parametrize("seed", range(12))
def test_doubles_solver_agrees_with_brute_force_in_play(seed: int) -> None:
    rng = random.Random(seed)
    # pawns crowded into the top three rows, so jumps abound
    board = random_board(rng, rng.randint(6, 8), list(range(1, 13)))
    call = seed % 3 == 0
    state = DOUBLES.initial_state(
        {"position": board_as_dict(board), "to_move": seed % 2},
        DoublesRuleset(doubles_allow_premature_call=call),
        2,
    )
    check_doubles(state)
    if call and DOUBLES.legal_events(state):
        # after a jump the jumper may call: the solver weighs his call too
        after = DOUBLES.apply(state, DOUBLES.legal_events(state)[0])
        if not DOUBLES.is_terminal(after):
            check_doubles(after)


@pytest.mark.parametrize("credit", ["nonstarter", "remover"])
@pytest.mark.parametrize("seed", range(4))
def test_doubles_solver_agrees_with_brute_force_over_the_take_offs(seed: int, credit: str) -> None:
    rng = random.Random(100 + seed)
    board = random_board(rng, 7, list(range(1, 13)))
    ruleset = DoublesRuleset(doubles_second_takeoff_credit=credit)
    state = DoublesState(TAKEOFF_1, Sides(seed % 2, 1 - seed % 2), board, ruleset=ruleset)
    check_doubles(state)
    second = DOUBLES.apply(state, DOUBLES.legal_events(state)[0])
    assert second.phase == TAKEOFF_2
    check_doubles(second)


def test_doubles_analysis_of_a_finished_game_names_its_winner() -> None:
    state = doubles_study(ONE_JUMP)
    state = DOUBLES.apply(state, Move("pawn.jumped", {"from": 1, "to": 3}))
    assert analyse(DOUBLES, state) == {"winner": A, "line": []}


def test_doubles_analysis_waits_for_the_pawns_to_be_placed() -> None:
    state = DOUBLES.initial_state({}, DoublesRuleset(), 2)
    with pytest.raises(IllegalEvent) as refused:
        analyse(DOUBLES, state)
    assert refused.value.code == "analysis.no_position"


def high_low_study(board: Board, to_move: int) -> Any:
    return HIGH_LOW.initial_state(
        {"position": board_as_dict(board), "to_move": to_move}, HIGH_LOW.ruleset_type(), 2
    )


@pytest.mark.parametrize("seed", range(20))
def test_high_low_solver_agrees_with_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    board = random_board(rng, rng.randint(2, 8))
    state = high_low_study(board, seed % 2)

    @cache
    def wins(cells: Board) -> bool:
        here = dataclasses.replace(state, board=cells)
        if HIGH_LOW.is_terminal(here):
            return False
        for move in HIGH_LOW.legal_events(here):
            after = HIGH_LOW.apply(here, move)
            if HIGH_LOW.is_terminal(after):
                if HIGH_LOW.result(after).winners == (here.to_move,):
                    return True
            elif not wins(after.board):
                return True
        return False

    expected = state.to_move if wins(board) else 1 - state.to_move
    engine = {tuple(m.data["circles"]) for m in HIGH_LOW.legal_events(state)}
    mask = occupied_mask(board)
    mine = {
        tuple(c + 1 for c in range(16) if group >> c & 1)
        for group in HighLowSearch(board).legal(mask)
    }
    assert mine == engine
    answer = analyse(HIGH_LOW, state)
    assert answer["winner"] == expected == solve_high_low(board, state.to_move).winner
    end = fold(HIGH_LOW, state, [Move(m["type"], m["data"]) for m in answer["line"]])
    assert HIGH_LOW.result(end).winners == (expected,)


def test_high_low_analysis_of_a_lone_pawn_game_is_its_result() -> None:
    state = high_low_study(board_of("R3@C1 B1@C2"), A)
    state = HIGH_LOW.apply(state, Move("pawns.removed", {"circles": [2]}))
    assert analyse(HIGH_LOW, state) == {"winner": A, "line": []}
