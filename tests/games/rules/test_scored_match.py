"""The machinery every match format shares (games.rules.matches.ScoredMatch), on a toy format.

The toy: two or three players, first to 10 or more, the leader collects the difference from each
other player; a sheet game may not score more than 6 for one seat.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from games.rules.base import Move, fold
from games.rules.errors import BadRuleset, BadSetup, IllegalEvent
from games.rules.matches import (
    ScoredMatch,
    ScoredMatchState,
    cumulative,
    payments_settlement,
    ranked,
)


@dataclass(frozen=True)
class ToyRuleset:
    ALLOWED: ClassVar[dict[str, tuple[Any, ...]]] = {
        "sheet_entry_validation": ("strict", "lenient")
    }
    sheet_entry_validation: str = "strict"


class ToyMatch(ScoredMatch):
    kind = "toy"
    ruleset_type = ToyRuleset
    min_seats = 2
    max_seats = 3

    def is_complete(self, state: ScoredMatchState) -> bool:
        return max(cumulative(state)) >= 10

    def standing(self, state: ScoredMatchState) -> list[dict[str, Any]]:
        return ranked(
            [
                {"seat": s, "match_score": t, "bonuses": [], "total": t, "games_won": 0}
                for s, t in enumerate(cumulative(state))
            ]
        )

    def settlement(self, state: ScoredMatchState) -> dict[str, Any]:
        totals = cumulative(state)
        leader = totals.index(max(totals))
        payments = [(s, leader, totals[leader] - t) for s, t in enumerate(totals) if s != leader]
        return payments_settlement(payments, state.seats)

    def next_game_setup(self, state: ScoredMatchState) -> dict[str, Any]:
        return {"starter": len(state.entries) % state.seats}

    def sheet_issues(self, state: ScoredMatchState, scores: tuple[int, ...]) -> list[IllegalEvent]:
        return [
            IllegalEvent("score.unattainable", f"No seat can score {s} in one game.", score=s)
            for s in scores
            if not 0 <= s <= 6
        ]


TOY = ToyMatch()


def scored(*scores: int, **extra: Any) -> Move:
    return Move("game.scored", {"scores": list(scores), **extra})


def finished(*scores: int, winners: Any = None, game: str | None = None) -> Move:
    data: dict[str, Any] = {"game": game or str(uuid.uuid4()), "scores": list(scores)}
    if winners is not None:
        data["winners"] = winners
    return Move("game.finished", data)


def refusal(state: ScoredMatchState, move: Move) -> IllegalEvent:
    with pytest.raises(IllegalEvent) as refused:
        TOY.apply(state, move)
    return refused.value


def start(seats: int = 3, **ruleset: Any) -> ScoredMatchState:
    return TOY.initial_state(ruleset, seats)


def test_a_match_checks_its_seats_teams_and_house_rules() -> None:
    with pytest.raises(BadSetup) as seats:
        start(4)
    assert seats.value.code == "match.bad_seats" and "2 to 3" in seats.value.message
    with pytest.raises(BadSetup) as teams:
        TOY.initial_state({}, 2, [[0], [1]])
    assert teams.value.code == "match.bad_teams"
    with pytest.raises(BadRuleset) as rules:
        start(2, sheet_entry_validation="loose")
    assert rules.value.code == "ruleset.bad_value"


def test_sheet_games_derive_the_cumulative_figures_and_the_next_game() -> None:
    state = fold(TOY, start(), [scored(3, 5, 0), scored(6, 1, 2)])
    assert [g["cumulative"] for g in TOY.games(state)] == [[3, 5, 0], [9, 6, 2]]
    assert [g["winners"] for g in TOY.games(state)] == [[1], [0]]
    assert TOY.next_game_number(state) == 3
    assert TOY.next_game_setup(state) == {"starter": 2}
    assert TOY.closing_event(state) is None


def test_a_sheet_game_must_give_one_whole_score_per_seat() -> None:
    state = start()
    for bad in ([1, 2, "3"], [1, 2, True], "123", None):
        assert refusal(state, Move("game.scored", {"scores": bad})).code == "event.bad_data"
    short = refusal(state, Move("game.scored", {"scores": [1, 2]}))
    assert (short.code, short.data) == (
        "sheet.wrong_length",
        {"field": "scores", "count": 2, "expected": 3},
    )


def test_strict_entry_refuses_an_impossible_score_and_lenient_keeps_it_with_a_warning() -> None:
    assert refusal(start(), scored(7, 0, 0)).code == "score.unattainable"
    lenient = TOY.apply(start(sheet_entry_validation="lenient"), scored(7, 0, 0))
    assert cumulative(lenient) == [7, 0, 0]
    assert TOY.warnings(lenient) == [
        {"game": 1, "code": "score.unattainable", "message": "No seat can score 7 in one game."}
    ]


def test_a_sheet_carrying_its_own_cumulative_figures_must_carry_the_derived_ones() -> None:
    state = TOY.apply(start(), scored(3, 5, 0))
    assert TOY.apply(state, scored(1, 1, 1, cumulative=[4, 6, 1])).entries[-1].scores == (1, 1, 1)
    wrong = refusal(state, scored(1, 1, 1, cumulative=[4, 6, 2]))
    assert wrong.code == "sheet.cumulative_mismatch"
    assert wrong.data["cumulative"] == [4, 6, 1] and "[4, 6, 1]" in wrong.message


def test_live_games_count_once_with_the_winners_the_game_gave() -> None:
    game = str(uuid.uuid4())
    state = TOY.apply(start(), finished(2, 2, 1, winners=[1], game=game))
    assert state.entries[0].winners == (1,) and state.entries[0].game == game
    assert refusal(state, finished(1, 1, 1, game=game)).code == "match.duplicate_game"
    assert refusal(state, Move("game.finished", {"game": "nope", "scores": [1, 1, 1]})).code == (
        "event.bad_data"
    )
    # winners the game did not give are read from the scores, as on a sheet
    assert TOY.apply(state, finished(0, 4, 1, winners="x")).entries[-1].winners == (1,)


def test_a_complete_match_closes_with_its_settlement_once() -> None:
    state = fold(TOY, start(), [scored(6, 2, 1), scored(5, 3, 0)])
    assert TOY.is_complete(state) and TOY.next_game_number(state) is None
    assert refusal(state, scored(1, 1, 1)).code == "match.over"
    type, data = TOY.closing_event(state)  # type: ignore[misc]
    assert type == "match.settled"
    assert data == {
        "payments": [{"from": 1, "to": 0, "points": 6}, {"from": 2, "to": 0, "points": 10}],
        "nets": [16, -6, -10],
    }
    assert refusal(state, Move("match.settled", {"payments": []})).code == (
        "match.settlement_mismatch"
    )
    settled = TOY.apply(state, Move("match.settled", data))
    assert TOY.is_settled(settled) and TOY.closing_event(settled) is None
    assert refusal(settled, Move("match.settled", data)).code == "match.already_settled"


def test_settlement_before_the_end_and_unknown_events_are_refused() -> None:
    assert refusal(start(), Move("match.settled", {})).code == "match.not_finished"
    assert refusal(start(), Move("pawn.jumped", {})).code == "event.unknown_type"
    assert refusal(start(), Move("game.scored", [1, 2, 3])).code == "event.bad_data"  # type: ignore[arg-type]


def test_payments_reverse_a_negative_difference_and_drop_a_zero_one() -> None:
    assert payments_settlement([(1, 0, -12), (2, 0, 0)], 3) == {
        "payments": [{"from": 0, "to": 1, "points": 12}],
        "nets": [-12, 12, 0],
    }


def test_equal_totals_share_a_rank() -> None:
    rows = ranked([{"seat": s, "total": t} for s, t in enumerate([5, 9, 9, 1])])
    assert [(r["seat"], r["rank"]) for r in rows] == [(1, 1), (2, 1), (0, 3), (3, 4)]


def test_the_match_says_what_it_takes_next_until_it_is_complete() -> None:
    state = start()
    assert TOY.expected(state) == ["game.finished", "game.scored"]
    complete = fold(TOY, state, [scored(6, 2, 1), scored(5, 3, 0)])
    assert TOY.expected(complete) == []
