"""The four Scarney Solitaire end games of RULES.md Appendix A.3, replayed move by move."""

import json
from pathlib import Path
from typing import Any

import pytest

from games.rules.base import Move
from games.rules.scarney_board.board import board_as_dict, parse_position
from games.rules.scarney_board.solitaire import SOLITAIRE

FIXTURE = Path(__file__).parents[3] / "fixtures" / "solitaire_end_games.json"
END_GAMES: list[dict[str, Any]] = json.loads(FIXTURE.read_text())["end_games"]


@pytest.mark.parametrize("end_game", END_GAMES, ids=[g["section"] for g in END_GAMES])
def test_each_printed_jump_is_legal_and_removes_the_printed_pawn(end_game: dict[str, Any]) -> None:
    state = SOLITAIRE.initial_state({"position": end_game["position"]}, None, 1)
    for step in end_game["jumps"]:
        assert state.phase == "jumping"
        assert state.board[step["from"] - 1] == step["pawn"]
        move = Move("pawn.jumped", {k: step[k] for k in ("from", "over", "to")})
        state = SOLITAIRE.apply(state, move)
        assert state.removed[-1] == step["jumps"]
        assert state.board[step["to"] - 1] == step["pawn"]
    assert state.phase == "over"
    assert board_as_dict(state.board) == board_as_dict(parse_position(end_game["final"]))


@pytest.mark.parametrize("end_game", END_GAMES, ids=[g["section"] for g in END_GAMES])
def test_each_end_game_scores_the_printed_total_and_bonuses(end_game: dict[str, Any]) -> None:
    state = SOLITAIRE.initial_state({"position": end_game["position"]}, None, 1)
    for step in end_game["jumps"]:
        state = SOLITAIRE.apply(
            state, Move("pawn.jumped", {"from": step["from"], "to": step["to"]})
        )
    (score,) = SOLITAIRE.scores(state)
    assert score.points == end_game["points"]
    bonuses = [{"kind": b.kind, "points": b.points, "pawns": list(b.pawns)} for b in score.bonuses]
    assert bonuses == end_game["bonuses"]
    assert score.total == end_game["total"]


def test_the_printed_totals_are_36_63_63_and_116() -> None:
    assert [g["total"] for g in END_GAMES] == [36, 63, 63, 116]
