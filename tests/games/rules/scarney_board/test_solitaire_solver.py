"""The Solitaire solver (RULES.md 2.7): best totals of the end games and of full layouts."""

import json
import random
from pathlib import Path
from typing import Any

import pytest

from games.rules.base import Move, fold
from games.rules.errors import IllegalEvent
from games.rules.scarney_board.board import ALL_PAWNS, circle_name
from games.rules.scarney_board.solitaire import SOLITAIRE, Ruleset, State
from games.rules.scarney_board.solve.solitaire import Analysis, best_line, decode, encode

FIXTURE = Path(__file__).parents[3] / "fixtures" / "solitaire_end_games.json"
END_GAMES: list[dict[str, Any]] = json.loads(FIXTURE.read_text())["end_games"]


def study(position: dict[str, str], ruleset: Ruleset | None = None) -> State:
    return SOLITAIRE.initial_state({"position": position}, ruleset, 1)


def replayed_total(state: State, analysis: Analysis) -> int:
    end = fold(SOLITAIRE, state, analysis.line)
    assert SOLITAIRE.is_terminal(end)
    return SOLITAIRE.scores(end)[0].total


def random_layout(seed: int) -> State:
    pawns = list(ALL_PAWNS)
    random.Random(seed).shuffle(pawns)
    position = {circle_name(i + 1): pawn for i, pawn in enumerate(pawns)}
    return SOLITAIRE.apply(
        SOLITAIRE.initial_state({}, None, 1), Move("board.laid_out", {"position": position})
    )


def test_the_eight_pawn_end_game_is_worth_94_not_the_printed_63() -> None:
    state = study(END_GAMES[2]["position"])
    analysis = best_line(state)
    assert analysis.value == 94
    assert replayed_total(state, analysis) == 94


@pytest.mark.parametrize("number", [0, 1, 3])
def test_the_other_end_games_are_worth_their_printed_totals(number: int) -> None:
    end_game = END_GAMES[number]
    state = study(end_game["position"])
    analysis = best_line(state)
    assert analysis.value == end_game["best"] == end_game["total"]
    assert replayed_total(state, analysis) == analysis.value


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_full_layout_is_solved_take_off_included(seed: int) -> None:
    state = random_layout(seed)
    analysis = best_line(state)
    assert analysis.line[0].type == "pawn.taken_off"
    assert replayed_total(state, analysis) == analysis.value


def test_the_best_line_is_at_least_as_good_as_any_played_line() -> None:
    state = study(END_GAMES[3]["position"])
    best = best_line(state).value
    moves = SOLITAIRE.legal_events(state)
    assert moves
    for move in moves:
        assert best_line(SOLITAIRE.apply(state, move)).value <= best


def test_a_finished_game_is_worth_its_total_with_no_line() -> None:
    assert best_line(study({"C8": "B4"})) == Analysis(116, ())


def test_there_is_nothing_to_analyse_before_the_layout() -> None:
    with pytest.raises(IllegalEvent) as refused:
        best_line(SOLITAIRE.initial_state({}, None, 1))
    assert refused.value.code == "analysis.no_board"


# Four 1-spots, two on corners: worth 96 as they stand, but any jump leaves at most 87.
ALL_ONES = {"C1": "Y1", "C16": "G1", "C6": "B1", "C7": "R1"}


def test_under_the_printed_rules_the_solver_must_keep_jumping() -> None:
    analysis = best_line(study(ALL_ONES))
    assert analysis.value == 87
    assert all(move.type == "pawn.jumped" for move in analysis.line)


def test_with_the_call_house_rule_the_solver_may_stop_early() -> None:
    state = study(ALL_ONES, Ruleset(solitaire_allow_scarney_call=True))
    analysis = best_line(state)
    assert analysis == Analysis(96, (Move("game.scarney_called", {}),))
    assert replayed_total(state, analysis) == 96


def test_boards_encode_and_decode_without_loss() -> None:
    board = random_layout(7).board
    assert decode(encode(board)) == board
