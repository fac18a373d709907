"""The pure rules of matches: a match format folds its games' results into match totals.

The Scarney Solitaire match (RULES.md 2.6, D-SOL-9) lives here: five games, rated on the sum of
their totals, no settlement. Every other format derives from :class:`ScoredMatch` in its game's
module and registers itself with :func:`register_format`: the base keeps the games (live or from a
sheet), the sheet checks of RULES.md 0.6 in strict or lenient mode, and ``match.settled``; the
format says when the match is complete, how it stands and how it settles (RULES.md 0.8).
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any, Protocol

from games.rules.base import Move, check_move, make_ruleset
from games.rules.errors import BadSetup, IllegalEvent
from games.rules.solitaire import KIND as SOLITAIRE_KIND
from games.rules.solitaire import Ruleset, attainable_totals, match_rating

IN_PROGRESS, FINISHED, SETTLED = "in_progress", "finished", "settled"

GAME_FINISHED = "game.finished"
GAME_SCORED = "game.scored"
MATCH_RATED = "match.rated"


MATCH_SETTLED = "match.settled"


class MatchRules(Protocol):
    """What every match format provides; its state is immutable, as a game's is."""

    kind: str
    ruleset_type: type[Any]
    min_seats: int
    max_seats: int

    def initial_state(self, ruleset: Any, seats: int, teams: Any = None) -> Any: ...
    def apply(self, state: Any, move: Move) -> Any: ...
    def standing(self, state: Any) -> list[dict[str, Any]]: ...
    def games(self, state: Any) -> list[dict[str, Any]]: ...
    def rating(self, state: Any) -> str | None: ...
    def next_game_number(self, state: Any) -> int | None: ...
    def next_game_setup(self, state: Any) -> dict[str, Any]: ...
    def expected(self, state: Any) -> list[str]: ...
    def warnings(self, state: Any) -> list[dict[str, Any]]: ...
    def closing_event(self, state: Any) -> tuple[str, dict[str, Any]] | None: ...
    def is_settled(self, state: Any) -> bool: ...


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


def register_format(rules: MatchRules) -> MatchRules:
    """Add a match format (called by the game modules as the registry imports them)."""
    _FORMATS[rules.kind] = rules
    return rules


def formats() -> list[str]:
    """Every match format, by name."""
    from games.rules import registry

    registry.kinds()
    return sorted(_FORMATS)


def match_rules(format: str) -> MatchRules:
    """The rules of the match format ``format``, or BadSetup ``match.unknown_format``."""
    from games.rules import registry

    registry.kinds()  # imports every game module, and so every match format
    try:
        return _FORMATS[format]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_FORMATS))
        raise BadSetup(
            "match.unknown_format",
            f"{format!r} is not a match format this service keeps; known: {known}.",
            format=format,
        ) from None


# --- matches of several players: the base every other format derives from ----------------------


@dataclass(frozen=True, slots=True)
class GameEntry:
    """One game of a match: each seat's total game score, the winners, and what the format needs.

    ``report`` carries facts of a live game beyond its scores (the game rule engine's
    ``match_report``, e.g. who made the last move); a sheet game has none.
    """

    number: int
    game: str | None
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    report: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ScoredMatchState:
    ruleset: Any
    seats: int
    teams: tuple[tuple[int, ...], ...] = ()
    entries: tuple[GameEntry, ...] = ()
    warnings: tuple[EntryWarning, ...] = ()
    settlement: Mapping[str, Any] | None = None
    # Format-specific facts recorded on the match itself (a first-player draw, say).
    extra: Mapping[str, Any] = field(default_factory=dict)


class ScoredMatch:
    """A match whose games each give every seat a score; subclasses give the format's rules.

    Subclasses set ``kind`` (the game kind its games are), ``ruleset_type`` (the game's ruleset,
    so the match's house rules are its games'), ``min_seats``/``max_seats``, and implement
    :meth:`is_complete`, :meth:`standing`, :meth:`settlement` and :meth:`next_game_setup`;
    :meth:`sheet_issues`, :meth:`sheet_winners`, :meth:`check_teams` and :meth:`extra_handlers`
    have defaults.
    """

    kind: str
    ruleset_type: type[Any]
    min_seats: int
    max_seats: int

    # --- what a format implements ---

    def is_complete(self, state: ScoredMatchState) -> bool:
        raise NotImplementedError

    def standing(self, state: ScoredMatchState) -> list[dict[str, Any]]:
        """Rows ``seat, match_score, bonuses, total, games_won, rank`` (rank 1 wins)."""
        raise NotImplementedError

    def settlement(self, state: ScoredMatchState) -> dict[str, Any]:
        """``{"payments": [{"from", "to", "points"}], "nets": [...]}`` of a complete match."""
        raise NotImplementedError

    def next_game_setup(self, state: ScoredMatchState) -> dict[str, Any]:
        """The setup of the next live game (its roles: active player, starter ...)."""
        raise NotImplementedError

    def sheet_issues(self, state: ScoredMatchState, scores: tuple[int, ...]) -> list[IllegalEvent]:
        """Why a sheet game's scores are impossible (Appendix C); empty when they are possible."""
        return []

    def sheet_winners(self, state: ScoredMatchState, scores: tuple[int, ...]) -> tuple[int, ...]:
        """The winners of a game entered from a sheet: by default the highest scores."""
        best = max(scores)
        return tuple(seat for seat, score in enumerate(scores) if score == best)

    def check_teams(self, teams: Any, seats: int) -> tuple[tuple[int, ...], ...]:
        if teams:
            raise BadSetup("match.bad_teams", f"A {self.kind} match has no teams.")
        return ()

    def extra_handlers(self) -> Mapping[str, Any]:
        """Format-specific match events: type -> ``handler(state, move) -> state``."""
        return {}

    # --- the common machinery ---

    def rating(self, state: ScoredMatchState) -> str | None:
        return None

    def initial_state(self, ruleset: Any, seats: int, teams: Any = None) -> ScoredMatchState:
        if not self.min_seats <= seats <= self.max_seats:
            span = (
                f"{self.min_seats}"
                if self.min_seats == self.max_seats
                else f"{self.min_seats} to {self.max_seats}"
            )
            raise BadSetup(
                "match.bad_seats",
                f"A {self.kind} match has {span} players, not {seats}.",
                seats=seats,
            )
        rules = (
            ruleset
            if isinstance(ruleset, self.ruleset_type)
            else make_ruleset(self.ruleset_type, ruleset)
        )
        return ScoredMatchState(ruleset=rules, seats=seats, teams=self.check_teams(teams, seats))

    def apply(self, state: ScoredMatchState, move: Move) -> ScoredMatchState:
        handlers = {
            GAME_FINISHED: self._game_finished,
            GAME_SCORED: self._game_scored,
            MATCH_SETTLED: self._match_settled,
            **self.extra_handlers(),
        }
        check_move(move, handlers, f"a {self.kind} match", over=False)
        if move.type != MATCH_SETTLED and self.is_complete(state):
            raise IllegalEvent("match.over", "The match is complete: it has all its games.")
        return handlers[move.type](state, move)  # type: ignore[no-any-return]

    def expected(self, state: ScoredMatchState) -> list[str]:
        """The match events due next: games (and the format's own events) until complete.

        Nothing once complete: ``match.settled`` is the service's to record.
        """
        if self.is_complete(state):
            return []
        extra = [t for t in self.extra_handlers() if t not in (GAME_FINISHED, GAME_SCORED)]
        return [GAME_FINISHED, GAME_SCORED, *extra]

    def games(self, state: ScoredMatchState) -> list[dict[str, Any]]:
        running = [0] * state.seats
        rows = []
        for entry in state.entries:
            running = [a + b for a, b in zip(running, entry.scores, strict=True)]
            rows.append(
                {
                    "number": entry.number,
                    "game": entry.game,
                    "scores": list(entry.scores),
                    "cumulative": running,
                    "winners": list(entry.winners),
                }
            )
        return rows

    def next_game_number(self, state: ScoredMatchState) -> int | None:
        return None if self.is_complete(state) else len(state.entries) + 1

    def warnings(self, state: ScoredMatchState) -> list[dict[str, Any]]:
        return [warning.as_dict() for warning in state.warnings]

    def closing_event(self, state: ScoredMatchState) -> tuple[str, dict[str, Any]] | None:
        if not self.is_complete(state) or state.settlement is not None:
            return None
        return MATCH_SETTLED, self.settlement(state)

    def is_settled(self, state: ScoredMatchState) -> bool:
        return state.settlement is not None

    def _game_finished(self, state: ScoredMatchState, move: Move) -> ScoredMatchState:
        game = move.data.get("game")
        if not isinstance(game, str) or not _is_uuid(game):
            raise IllegalEvent(
                "event.bad_data",
                "'game' of game.finished must be the game's id (a UUID).",
                field="game",
            )
        if any(entry.game == game for entry in state.entries):
            raise IllegalEvent(
                "match.duplicate_game", f"Game {game} already counts in this match.", game=game
            )
        scores = self._scores(state, move)
        winners = move.data.get("winners")
        if not isinstance(winners, list) or not all(
            _is_int(w) and 0 <= w < state.seats for w in winners
        ):
            winners = list(self.sheet_winners(state, scores))
        report = move.data.get("report")
        entry = GameEntry(
            len(state.entries) + 1,
            game,
            scores,
            tuple(winners),
            dict(report) if isinstance(report, Mapping) else {},
        )
        return dataclasses.replace(state, entries=(*state.entries, entry))

    def _game_scored(self, state: ScoredMatchState, move: Move) -> ScoredMatchState:
        scores = self._scores(state, move)
        number = len(state.entries) + 1
        self._check_sheet_sums(state, move, scores, number)
        warnings = state.warnings
        for issue in self.sheet_issues(state, scores):
            if state.ruleset.sheet_entry_validation == "strict":
                raise issue
            warnings = (*warnings, EntryWarning(number, issue.code, issue.message))
        entry = GameEntry(number, None, scores, self.sheet_winners(state, scores))
        return dataclasses.replace(state, entries=(*state.entries, entry), warnings=warnings)

    def _check_sheet_sums(
        self, state: ScoredMatchState, move: Move, scores: tuple[int, ...], number: int
    ) -> None:
        """A sheet's own cumulative figures, if sent, must be the derived ones (RULES.md 0.6)."""
        sent = move.data.get("cumulative")
        if sent is None:
            return
        derived = [
            sum(e.scores[seat] for e in state.entries) + scores[seat] for seat in range(state.seats)
        ]
        if sent != derived:
            raise IllegalEvent(
                "sheet.cumulative_mismatch",
                f"The cumulative scores after game {number} are {derived}, not {sent}.",
                cumulative=derived,
                game=number,
            )

    def _match_settled(self, state: ScoredMatchState, move: Move) -> ScoredMatchState:
        if state.settlement is not None:
            raise IllegalEvent("match.already_settled", "The match is already settled.")
        if not self.is_complete(state):
            raise IllegalEvent(
                "match.not_finished", "Only a complete match is settled; games are still due."
            )
        expected = self.settlement(state)
        if dict(move.data) != expected:
            raise IllegalEvent(
                "match.settlement_mismatch",
                "The settlement recorded is not the one the rules give.",
                settlement=expected,
            )
        return dataclasses.replace(state, settlement=expected)

    def _scores(self, state: ScoredMatchState, move: Move) -> tuple[int, ...]:
        scores = move.data.get("scores")
        if (
            not isinstance(scores, list | tuple)
            or len(scores) != state.seats
            or not all(_is_int(s) for s in scores)
        ):
            raise IllegalEvent(
                "event.bad_data",
                f"'scores' of {move.type} must list {state.seats} whole numbers, one per seat "
                "in seat order (0 for a seat that scores nothing).",
                field="scores",
            )
        return tuple(scores)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def cumulative(state: ScoredMatchState) -> list[int]:
    """Each seat's sum of game scores so far."""
    return [sum(entry.scores[seat] for entry in state.entries) for seat in range(state.seats)]


def ranked(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Standing rows ordered by ``total``, best first; equal totals share a rank."""
    ordered = sorted(rows, key=lambda row: (-row["total"], row["seat"]))
    for row in ordered:
        row["rank"] = 1 + sum(1 for other in ordered if other["total"] > row["total"])
    return ordered


def payments_settlement(payments: list[tuple[int, int, int]], seats: int) -> dict[str, Any]:
    """The settlement of ``(payer, payee, points)`` payments, with each seat's net.

    A negative amount reverses the payment (D-HL-7); a zero one is left out.
    """
    rows = []
    nets = [0] * seats
    for payer, payee, points in payments:
        if points < 0:
            payer, payee, points = payee, payer, -points
        if points == 0:
            continue
        rows.append({"from": payer, "to": payee, "points": points})
        nets[payer] -= points
        nets[payee] += points
    return {"payments": rows, "nets": nets}


class OneGameMatch(ScoredMatch):
    """A match that is one game: the dice games whose game is the whole contest (RULES.md 0.2).

    Its standing ranks the seats by their totals (equal totals share a rank) and counts the game
    for its winners; nothing is due after the one game.
    """

    def is_complete(self, state: ScoredMatchState) -> bool:
        return bool(state.entries)

    def next_game_setup(self, state: ScoredMatchState) -> dict[str, Any]:
        return {}

    def standing(self, state: ScoredMatchState) -> list[dict[str, Any]]:
        return totals_standing(state)


def totals_standing(state: ScoredMatchState) -> list[dict[str, Any]]:
    """Each seat's total of its games, best first; a seat's games won are those naming it."""
    rows = [
        {
            "seat": seat,
            "match_score": total,
            "bonuses": [],
            "total": total,
            "games_won": sum(1 for entry in state.entries if seat in entry.winners),
        }
        for seat, total in enumerate(cumulative(state))
    ]
    return ranked(rows)


def no_payments(seats: int) -> dict[str, Any]:
    """The settlement of a game that settles nothing (RULES.md 0.8: winner and totals only)."""
    return {"payments": [], "nets": [0] * seats}
