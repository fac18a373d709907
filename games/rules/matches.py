"""The pure rules of matches: a match format folds its games' results into match totals.

This module names no game. A format lives in its game's family package and is listed in the
family's ``FORMATS`` (see :mod:`games.rules.registry`). Most formats derive from
:class:`ScoredMatch`: the base keeps the games (live or from a
sheet), the sheet checks of RULES.md 0.6 in strict or lenient mode, and ``match.settled``; the
format says when the match is complete, how it stands and how it settles (RULES.md 0.8).
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from games.rules.base import Move, check_move, make_ruleset
from games.rules.errors import BadSetup, IllegalEvent, wrong_length
from games.rules.events import GAME_FINISHED, GAME_SCORED, MATCH_SETTLED
from games.rules.shapes import Integer, ListOf, Record, record

IN_PROGRESS, FINISHED, SETTLED = "in_progress", "finished", "settled"


class MatchRules(Protocol):
    """What every match format provides; its state is immutable, as a game's is."""

    kind: str
    ruleset_type: type[Any]
    min_seats: int
    max_seats: int
    # The data of each event type a table records on the match (a sheet's ``game.scored``, a
    # session's ``match.ended`` ...), declared as a game's are (games/rules/shapes.py).
    events: Mapping[str, Record]

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
    # The rule a sheet's lines follow and how the match ends, in one sentence, under the
    # match's house rules (``ruleset``: every one, defaults filled in): the sheet page shows it.
    def sheet_rule(self, ruleset: Mapping[str, Any]) -> str: ...


@dataclass(frozen=True, slots=True)
class EntryWarning:
    """An impossible sheet entry accepted under ``sheet_entry_validation = lenient``."""

    game: int
    code: str
    message: str

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game, "code": self.code, "message": self.message}


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


SHEET_SCORES = ListOf(
    Integer(doc="a seat's game score"), 64, 1, doc="one whole number per seat, in seat order"
)


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
    # What a live game's ``report`` (its rule engine's ``match_report``) must give this format.
    report_needs: tuple[str, ...] = ()
    # A sheet's line: each seat's game score, and the running totals if the sheet shows them. A
    # format whose sheet says more (frames, turns, boxes) or that takes events of its own (a
    # draw, a session's end) declares its own ``events``.
    events: Mapping[str, Record] = {
        GAME_SCORED: record(
            "One game of a score sheet.",
            optional=("cumulative",),
            scores=SHEET_SCORES,
            cumulative=ListOf(Integer(), 64, doc="the running totals after this game, per seat"),
        )
    }

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
        if not isinstance(game, str) or not is_uuid(game):
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
        report = dict(report) if isinstance(report, Mapping) else {}
        if any(name not in report for name in self.report_needs):
            raise IllegalEvent(
                "event.bad_data",
                f"'report' of game.finished must give the game's {', '.join(self.report_needs)}.",
                field="report",
            )
        entry = GameEntry(len(state.entries) + 1, game, scores, tuple(winners), report)
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
        if isinstance(scores, list | tuple) and len(scores) != state.seats:
            raise wrong_length("scores", scores, state.seats, "one score per seat in seat order")
        if not isinstance(scores, list | tuple) or not all(_is_int(s) for s in scores):
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


def is_uuid(text: str) -> bool:
    """True if ``text`` spells a UUID (a game's id in a match event)."""
    try:
        uuid.UUID(text)
    except ValueError:
        return False
    return True
