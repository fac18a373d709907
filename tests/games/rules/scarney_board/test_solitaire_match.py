"""The Scarney Solitaire match (RULES.md 2.6, D-SOL-9, sheet entry 0.6 and Appendix C.1)."""

import uuid
from typing import Any

import pytest

from games.rules.base import Move, fold
from games.rules.errors import BadSetup, IllegalEvent
from games.rules.registry import match_rules
from games.rules.scarney_board.solitaire import Ruleset
from games.rules.scarney_board.solitaire_match import SolitaireMatchRules, SolitaireMatchState

MATCH = SolitaireMatchRules()
END_GAME_TOTALS = [36, 63, 63, 116, 94]  # 372: a Fair match


def scored(total: int) -> Move:
    return Move("game.scored", {"scores": [total]})


def finished(total: int, game: str | None = None) -> Move:
    return Move("game.finished", {"game": game or str(uuid.uuid4()), "scores": [total]})


def played(totals: list[int], ruleset: Ruleset | None = None) -> SolitaireMatchState:
    return fold(MATCH, MATCH.initial_state(ruleset, 1), [scored(t) for t in totals])  # type: ignore[arg-type]


def refusal(state: SolitaireMatchState, move: Move) -> IllegalEvent:
    with pytest.raises(IllegalEvent) as refused:
        MATCH.apply(state, move)
    return refused.value


def test_the_solitaire_format_is_found_by_name_and_others_are_refused() -> None:
    assert match_rules("scarney-solitaire").kind == "scarney-solitaire"
    with pytest.raises(BadSetup) as refused:
        match_rules("scarney-checkers")
    assert refused.value.code == "match.unknown_format"


def test_a_solitaire_match_has_one_player() -> None:
    with pytest.raises(BadSetup) as refused:
        MATCH.initial_state(None, 3)
    assert refused.value.code == "match.bad_seats"


def test_a_new_match_waits_for_game_one() -> None:
    state = MATCH.initial_state({}, 1)
    assert state.status == "in_progress"
    assert MATCH.next_game_number(state) == 1
    assert MATCH.games(state) == []
    assert MATCH.rating(state) is None


def test_games_add_up_to_the_match_score_with_a_derived_running_sum() -> None:
    state = played(END_GAME_TOTALS[:3])
    assert [g["cumulative"] for g in MATCH.games(state)] == [[36], [99], [162]]
    assert [g["number"] for g in MATCH.games(state)] == [1, 2, 3]
    assert MATCH.standing(state) == [
        {"seat": 0, "match_score": 162, "bonuses": [], "total": 162, "games_won": 0, "rank": 1}
    ]
    assert MATCH.next_game_number(state) == 4
    assert MATCH.rating(state) is None  # D-SOL-9: only a complete match is rated


def test_five_games_finish_the_match_and_earn_its_rating() -> None:
    state = played(END_GAME_TOTALS)
    assert state.status == "finished"
    assert MATCH.next_game_number(state) is None
    assert MATCH.rating(state) == "Fair match"


def test_a_live_game_of_the_match_counts_with_its_id() -> None:
    game = str(uuid.uuid4())
    state = MATCH.apply(MATCH.initial_state(None, 1), finished(97, game))
    assert MATCH.games(state) == [{"number": 1, "game": game, "scores": [97], "cumulative": [97]}]
    assert refusal(state, finished(63, game)).code == "match.duplicate_game"


def test_a_live_game_needs_its_id() -> None:
    error = refusal(MATCH.initial_state(None, 1), finished(97, "not-a-uuid"))
    assert error.code == "event.bad_data"
    assert "'game'" in error.message


def test_a_sixth_game_is_refused() -> None:
    state = played(END_GAME_TOTALS)
    assert refusal(state, scored(36)).code == "match.over"
    assert refusal(state, finished(36)).code == "match.over"


def test_an_impossible_sheet_score_is_refused_in_strict_mode() -> None:
    error = refusal(played([36]), scored(45))
    assert error.code == "score.unattainable"
    assert "45" in error.message and "game 2" in error.message


def test_an_impossible_sheet_score_is_kept_with_a_warning_in_lenient_mode() -> None:
    state = played([36, 45], Ruleset(sheet_entry_validation="lenient"))
    assert MATCH.standing(state)[0]["match_score"] == 81
    assert MATCH.warnings(state) == [
        {
            "game": 2,
            "code": "score.unattainable",
            "message": "No Scarney Solitaire game can score 45 (game 2).",
        }
    ]


@pytest.mark.parametrize(
    "data, code",
    [
        ({}, "event.bad_data"),
        ({"scores": 36}, "event.bad_data"),
        ({"scores": [36, 12]}, "sheet.wrong_length"),  # one score per seat: Solitaire has one
        ({"scores": ["36"]}, "event.bad_data"),
        ({"scores": [True]}, "event.bad_data"),
    ],
)
def test_a_malformed_sheet_entry_is_refused(data: dict[str, Any], code: str) -> None:
    error = refusal(MATCH.initial_state(None, 1), Move("game.scored", data))
    assert error.code == code
    assert "'scores'" in error.message


def test_the_rating_is_recorded_once_and_settles_the_match() -> None:
    state = MATCH.apply(played(END_GAME_TOTALS), Move("match.rated", {"rating": "Fair match"}))
    assert state.status == "settled"
    assert refusal(state, Move("match.rated", {"rating": "Fair match"})).code == (
        "match.already_rated"
    )
    assert refusal(state, scored(36)).code == "match.over"


def test_a_rating_is_refused_before_the_fifth_game_or_if_it_is_not_the_tables() -> None:
    assert refusal(played([36]), Move("match.rated", {"rating": "Fair match"})).code == (
        "match.not_finished"
    )
    error = refusal(played(END_GAME_TOTALS), Move("match.rated", {"rating": "Perfect match"}))
    assert error.code == "match.rating_mismatch"
    assert "Fair match" in error.message


def test_an_event_a_match_does_not_know_is_refused() -> None:
    assert refusal(played([]), Move("pawn.jumped", {})).code == "event.unknown_type"


def test_a_sheet_entry_can_be_taken_back() -> None:
    start = MATCH.initial_state(None, 1)
    moves = [scored(36), scored(63), Move("move.undone")]
    assert fold(MATCH, start, moves) == played([36])  # type: ignore[arg-type]
