"""The Scarney Solitaire match (RULES.md 2.6, D-SOL-9): five games, rated on the sum of their
totals, no settlement. Live games arrive as ``game.finished``; a finished sheet's games as
``game.scored``, checked against Appendix C.1.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any

from games.rules.base import Move, check_move, make_ruleset
from games.rules.errors import BadSetup, IllegalEvent, wrong_length
from games.rules.events import GAME_FINISHED, GAME_SCORED, MATCH_RATED
from games.rules.matches import FINISHED, IN_PROGRESS, SETTLED, EntryWarning, is_uuid
from games.rules.scarney_board.solitaire import KIND as SOLITAIRE_KIND
from games.rules.scarney_board.solitaire import Ruleset, attainable_totals, match_rating
from games.rules.shapes import Integer, ListOf, Nullable, record


@dataclass(frozen=True, slots=True)
class SolitaireMatchState:
    """The total game score of each game played, in order, and the rating once recorded."""

    totals: tuple[int, ...] = ()
    game_ids: tuple[str | None, ...] = ()
    rating: str | None = None
    warnings: tuple[EntryWarning, ...] = ()
    ruleset: Ruleset = field(default_factory=Ruleset)

    @property
    def status(self) -> str:
        if self.rating is not None:
            return SETTLED
        return FINISHED if len(self.totals) == SolitaireMatchRules.GAMES_PER_MATCH else IN_PROGRESS


class SolitaireMatchRules:
    """A Scarney Solitaire match: five games, rated on the sum of their totals."""

    kind = SOLITAIRE_KIND
    ruleset_type: type[Any] = Ruleset
    min_seats = 1
    max_seats = 1
    GAMES_PER_MATCH = 5
    # A table records only sheet games: game.finished and match.rated are the service's.
    events = {
        GAME_SCORED: record(
            "One game of a score sheet: the player's total game score (Appendix C.1).",
            optional=("cumulative",),
            scores=ListOf(Integer(doc="the total game score"), 1, 1, doc="the one total"),
            cumulative=Nullable(
                ListOf(Integer(), 1, 1),
                doc="the running total after this game, as the sheet shows it (not checked)",
            ),
        )
    }

    def sheet_rule(self, ruleset: Mapping[str, Any]) -> str:
        """The rule a sheet's lines follow and how the match ends, in one sentence."""
        return (
            "Each line is one game's total score, bonus included; a match is "
            f"{self.GAMES_PER_MATCH} games, rated on their sum."
        )

    def initial_state(self, ruleset: Any, seats: int, teams: Any = None) -> SolitaireMatchState:
        if seats != 1:
            raise BadSetup(
                "match.bad_seats", f"A Solitaire match has one player, not {seats}.", seats=seats
            )
        rules = ruleset if isinstance(ruleset, Ruleset) else make_ruleset(Ruleset, ruleset)
        return SolitaireMatchState(ruleset=rules)

    def apply(self, state: SolitaireMatchState, move: Move) -> SolitaireMatchState:
        """The match after a finished game, a sheet entry or the rating; else IllegalEvent."""
        check_move(move, _HANDLERS, "a Solitaire match", over=False)
        if move.type != MATCH_RATED and state.status != IN_PROGRESS:
            raise IllegalEvent(
                "match.over", f"All {self.GAMES_PER_MATCH} games of the match are already in."
            )
        return _HANDLERS[move.type](state, move)

    def standing(self, state: SolitaireMatchState) -> list[dict[str, Any]]:
        score = sum(state.totals)
        return [
            {
                "seat": 0,
                "match_score": score,
                "bonuses": [],
                "total": score,
                "games_won": 0,
                "rank": 1,
            }
        ]

    def games(self, state: SolitaireMatchState) -> list[dict[str, Any]]:
        """Each game's score and the derived running sum (the sheet's "game score - cumulative")."""
        running = accumulate(state.totals)
        return [
            {"number": number, "game": game, "scores": [total], "cumulative": [cumulative]}
            for number, (game, total, cumulative) in enumerate(
                zip(state.game_ids, state.totals, running, strict=True), start=1
            )
        ]

    def rating(self, state: SolitaireMatchState) -> str | None:
        """The match rating, only for a complete five-game match (D-SOL-9)."""
        if len(state.totals) < self.GAMES_PER_MATCH:
            return None
        return match_rating(sum(state.totals))

    def next_game_number(self, state: SolitaireMatchState) -> int | None:
        if len(state.totals) >= self.GAMES_PER_MATCH:
            return None
        return len(state.totals) + 1

    def warnings(self, state: SolitaireMatchState) -> list[dict[str, Any]]:
        return [warning.as_dict() for warning in state.warnings]

    def next_game_setup(self, state: SolitaireMatchState) -> dict[str, Any]:
        return {}

    def expected(self, state: SolitaireMatchState) -> list[str]:
        return [] if self.next_game_number(state) is None else [GAME_FINISHED, GAME_SCORED]

    def closing_event(self, state: SolitaireMatchState) -> tuple[str, dict[str, Any]] | None:
        """``match.rated`` once all five games are in (the rating is D-SOL-9's, not a payment)."""
        rating = self.rating(state)
        if rating is None or state.rating is not None:
            return None
        return MATCH_RATED, {"rating": rating, "match_score": sum(state.totals)}

    def is_settled(self, state: SolitaireMatchState) -> bool:
        # A rated Solitaire match stays "finished": there is nothing to settle (RULES.md 0.8).
        return False


def _game_finished(state: SolitaireMatchState, move: Move) -> SolitaireMatchState:
    """A live game of the match finished; its total comes from the game's own rule engine."""
    game = move.data.get("game")
    if not isinstance(game, str) or not is_uuid(game):
        raise IllegalEvent(
            "event.bad_data",
            "'game' of game.finished must be the game's id (a UUID).",
            field="game",
        )
    if game in state.game_ids:
        raise IllegalEvent(
            "match.duplicate_game", f"Game {game} already counts in this match.", game=game
        )
    total = _one_total(move)
    return dataclasses.replace(
        state, totals=(*state.totals, total), game_ids=(*state.game_ids, game)
    )


def _game_scored(state: SolitaireMatchState, move: Move) -> SolitaireMatchState:
    """A game entered from a finished score sheet, checked against RULES.md Appendix C.1."""
    total = _one_total(move)
    number = len(state.totals) + 1
    warnings = state.warnings
    if total not in attainable_totals():
        refusal = IllegalEvent(
            "score.unattainable",
            f"No Scarney Solitaire game can score {total} (game {number}).",
            score=total,
            game=number,
        )
        if state.ruleset.sheet_entry_validation == "strict":
            raise refusal
        warnings = (*warnings, EntryWarning(number, refusal.code, refusal.message))
    return dataclasses.replace(
        state, totals=(*state.totals, total), game_ids=(*state.game_ids, None), warnings=warnings
    )


def _match_rated(state: SolitaireMatchState, move: Move) -> SolitaireMatchState:
    if state.rating is not None:
        raise IllegalEvent("match.already_rated", f"The match is already rated {state.rating!r}.")
    if state.status != FINISHED:
        raise IllegalEvent(
            "match.not_finished",
            f"Only a complete match is rated; {len(state.totals)} of "
            f"{SolitaireMatchRules.GAMES_PER_MATCH} games are in.",
        )
    rating = move.data.get("rating")
    expected = match_rating(sum(state.totals))
    if not isinstance(rating, str):
        raise IllegalEvent(
            "event.bad_data", "'rating' of match.rated must be a string.", field="rating"
        )
    if rating != expected:
        raise IllegalEvent(
            "match.rating_mismatch",
            f"A match score of {sum(state.totals)} is rated {expected!r}, not {rating!r}.",
            rating=expected,
        )
    return dataclasses.replace(state, rating=rating)


def _one_total(move: Move) -> int:
    scores = move.data.get("scores")
    if isinstance(scores, list | tuple) and len(scores) != 1:
        raise wrong_length("scores", scores, 1, "one score, the player's total game score")
    if (
        not isinstance(scores, list | tuple)
        or len(scores) != 1
        or not isinstance(scores[0], int)
        or isinstance(scores[0], bool)
    ):
        raise IllegalEvent(
            "event.bad_data",
            f"'scores' of {move.type} must list one whole number: the player's total game score.",
            field="scores",
        )
    return scores[0]


_HANDLERS = {
    GAME_FINISHED: _game_finished,
    GAME_SCORED: _game_scored,
    MATCH_RATED: _match_rated,
}


SOLITAIRE_MATCH = SolitaireMatchRules()
