"""The pure rules of matches: a match format folds its games' results into match totals.

Only the Scarney Solitaire match exists so far (RULES.md 2.6, D-SOL-9): five games, the match
score is the sum of the five total game scores, and a complete match earns a match rating. There
is no opponent and no settlement. Other formats join :data:`_FORMATS` as they are written.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any, Protocol

from games.rules.base import Move, make_ruleset
from games.rules.errors import BadSetup, IllegalEvent
from games.rules.solitaire import KIND as SOLITAIRE_KIND
from games.rules.solitaire import Ruleset, attainable_totals, match_rating

IN_PROGRESS, FINISHED, SETTLED = "in_progress", "finished", "settled"

GAME_FINISHED = "game.finished"
GAME_SCORED = "game.scored"
MATCH_RATED = "match.rated"


class MatchRules(Protocol):
    """What every match format provides; its state is immutable, as a game's is."""

    kind: str
    ruleset_type: type[Any]
    min_seats: int
    max_seats: int

    def initial_state(self, ruleset: Any, seats: int) -> Any: ...
    def apply(self, state: Any, move: Move) -> Any: ...
    def standing(self, state: Any) -> list[dict[str, Any]]: ...
    def games(self, state: Any) -> list[dict[str, Any]]: ...
    def rating(self, state: Any) -> str | None: ...
    def next_game_number(self, state: Any) -> int | None: ...


@dataclass(frozen=True, slots=True)
class EntryWarning:
    """An impossible sheet entry accepted under ``sheet_entry_validation = lenient``."""

    game: int
    code: str
    message: str

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game, "code": self.code, "message": self.message}


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

    def initial_state(self, ruleset: Any, seats: int) -> SolitaireMatchState:
        if seats != 1:
            raise BadSetup(
                "match.bad_seats", f"A Solitaire match has one player, not {seats}.", seats=seats
            )
        rules = ruleset if isinstance(ruleset, Ruleset) else make_ruleset(Ruleset, ruleset)
        return SolitaireMatchState(ruleset=rules)

    def apply(self, state: SolitaireMatchState, move: Move) -> SolitaireMatchState:
        """The match after a finished game, a sheet entry or the rating; else IllegalEvent."""
        if not isinstance(move.type, str) or move.type not in _HANDLERS:
            raise IllegalEvent(
                "event.unknown_type",
                f"{move.type!r} is not an event of a Solitaire match.",
                type=move.type,
            )
        if not isinstance(move.data, Mapping):
            raise IllegalEvent("event.bad_data", f"The data of {move.type} must be an object.")
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


def _game_finished(state: SolitaireMatchState, move: Move) -> SolitaireMatchState:
    """A live game of the match finished; its total comes from the game's own rule engine."""
    game = move.data.get("game")
    if not isinstance(game, str) or not _is_uuid(game):
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


def _is_uuid(text: str) -> bool:
    try:
        uuid.UUID(text)
    except ValueError:
        return False
    return True


_HANDLERS = {
    GAME_FINISHED: _game_finished,
    GAME_SCORED: _game_scored,
    MATCH_RATED: _match_rated,
}

_FORMATS: dict[str, MatchRules] = {SOLITAIRE_KIND: SolitaireMatchRules()}


def match_rules(format: str) -> MatchRules:
    """The rules of the match format ``format``, or BadSetup ``match.unknown_format``."""
    try:
        return _FORMATS[format]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_FORMATS))
        raise BadSetup(
            "match.unknown_format",
            f"{format!r} is not a match format this service keeps; known: {known}.",
            format=format,
        ) from None
