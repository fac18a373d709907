"""The session match of Going to Boston and Multiplication: RULES.md 13.2, 13.4, 14 and 0.8.

A session is a match of rounds, each a game of :mod:`games.rules.dice_games.boston`; the lead
passes to the left each round (D-BOS-2) and a split's remainder stays in the pot (D-BOS-1). The
session is settled by the rounds' chip nets (RULES.md 0.8). A sheet (RULES.md 0.6) gives every
seat's round score and the play-offs of a tie, each score checked against Appendix C.5 (Going to
Boston 3-18; Multiplication (a + b) × c).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from games.rules.base import Move
from games.rules.dice_games.boston import (
    GOING_TO_BOSTON,
    MAX_SEATS,
    MIN_SEATS,
    MULTIPLICATION_RULES,
    PLAYOFF,
    SPLIT,
    BostonRules,
    Ruleset,
    is_int,
    share_pot,
    top_seats,
)
from games.rules.errors import IllegalEvent, wrong_length
from games.rules.events import GAME_SCORED
from games.rules.matches import (
    EntryWarning,
    GameEntry,
    ScoredMatch,
    ScoredMatchState,
    payments_settlement,
    ranked,
)
from games.rules.shapes import Integer, ListOf, Nullable, record
from games.rules.wording import player_at, players_at

# --- what a table records on the match (games/rules/shapes.py) ------------------------------

# The play-offs of one tie: none is fixed (a tie may repeat); ample for any round.
MOST_PLAYOFFS = 1000
ROUND = record(
    "A round from a sheet: every seat's turn score, and the play-offs of a tie.",
    optional=("cumulative", "playoffs"),
    scores=ListOf(
        Integer(doc="a turn's score (a lenient sheet warns of one no turn can make)"),
        MAX_SEATS,
        MIN_SEATS,
        doc="each seat's turn score in the round, in seat order",
    ),
    cumulative=Nullable(
        ListOf(Integer(), MAX_SEATS, MIN_SEATS, doc="the running totals after this round, per seat")
    ),
    playoffs=ListOf(
        ListOf(
            Integer(doc="a play-off turn's score"),
            MAX_SEATS,
            2,
            doc="the tied seats' scores, in playing order from the round's first player",
        ),
        MOST_PLAYOFFS,
        doc="the play-offs of a tie for the pot (boston_tie playoff), in order; none when left out",
    ),
)


@dataclass(frozen=True, slots=True)
class SessionRuleset(Ruleset):
    """A session's house rules: its rounds' own, and how many rounds it has.

    ``session_rounds`` None (the default) plays one round per player, so each leads once.
    """

    POSITIVE: ClassVar[Mapping[str, str]] = {**Ruleset.POSITIVE, "session_rounds": ""}

    session_rounds: int | None = None


class BostonSession(ScoredMatch):
    """A session of rounds of one game; every round's pot is a chip movement (RULES.md 0.8)."""

    ruleset_type: type[Any] = SessionRuleset
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    events = {GAME_SCORED: ROUND}

    def __init__(self, game: BostonRules, attainable: frozenset[int], line_words: str) -> None:
        self.kind = game.kind
        self.game = game
        self.attainable = attainable
        self.line_words = line_words  # what a sheet's line adds up, in words

    def sheet_rule(self, ruleset: Mapping[str, Any]) -> str:
        """The rule a sheet's lines follow and how the match ends, in one sentence."""
        tie = (
            " (a tie shares it)" if ruleset.get("boston_tie") == SPLIT else " (a tie is played off)"
        )
        rounds = ruleset.get("session_rounds")
        session = f"a session is {rounds} rounds" if rounds else "a session is one round per player"
        return (
            f"Each line is a round, {self.line_words}: the highest takes the pot{tie}; {session}."
        )

    def rounds(self, state: ScoredMatchState) -> int:
        return int(state.ruleset.session_rounds or state.seats)

    def is_complete(self, state: ScoredMatchState) -> bool:
        return len(state.entries) >= self.rounds(state)

    def standing(self, state: ScoredMatchState) -> list[dict[str, Any]]:
        """Each seat's chips won minus paid over the session, best first."""
        nets, _ = session_chips(state)
        return ranked(
            [
                {
                    "seat": seat,
                    "match_score": net,
                    "bonuses": [],
                    "total": net,
                    "games_won": sum(1 for e in state.entries if seat in e.winners),
                    "rank": 0,
                }
                for seat, net in enumerate(nets)
            ]
        )

    def settlement(self, state: ScoredMatchState) -> dict[str, Any]:
        """The session's nets, the chips losers hand winners, and any remainder left in the pot."""
        nets, left = session_chips(state)
        payments = payments_settlement(_payments(nets), state.seats)["payments"]
        return {"payments": payments, "nets": nets, "pot_left": left}

    def next_game_setup(self, state: ScoredMatchState) -> dict[str, Any]:
        """The lead passes to the left each round; a split's remainder stays in the pot."""
        _, left = session_chips(state)
        return {"first_player": len(state.entries) % state.seats, "carried": left}

    def sheet_issues(self, state: ScoredMatchState, scores: tuple[int, ...]) -> list[IllegalEvent]:
        return [
            IllegalEvent(
                "score.unattainable",
                f"No turn of {self.game.name} scores {score} ({player_at(seat)}, game "
                f"{len(state.entries) + 1}).",
                score=score,
                seat=seat,
            )
            for seat, score in enumerate(scores)
            if score not in self.attainable
        ]

    def extra_handlers(self) -> Mapping[str, Any]:
        return {GAME_SCORED: self._sheet_round}

    def _sheet_round(self, state: ScoredMatchState, move: Move) -> ScoredMatchState:
        """A round from a sheet: every seat's score, and the play-offs of a tie if any."""
        scores = self._scores(state, move)
        number = len(state.entries) + 1
        self._check_sheet_sums(state, move, scores, number)
        playoffs = move.data.get("playoffs", [])
        winners, played = self._sheet_winners(state, scores, playoffs)
        warnings = state.warnings
        for issue in self.sheet_issues(state, (*scores, *played)):
            if state.ruleset.sheet_entry_validation == "strict":
                raise issue
            warnings = (*warnings, EntryWarning(number, issue.code, issue.message))
        report = {"playoffs": playoffs} if playoffs else {}
        entry = GameEntry(number, None, scores, winners, report)
        return dataclasses.replace(state, entries=(*state.entries, entry), warnings=warnings)

    def _sheet_winners(
        self, state: ScoredMatchState, scores: tuple[int, ...], playoffs: Any
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The winners after the play-offs (each lists the tied seats' scores in playing order)."""
        if not isinstance(playoffs, list):
            raise IllegalEvent(
                "event.bad_data", "'playoffs' must list the play-offs' scores.", field="playoffs"
            )
        first = len(state.entries) % state.seats
        top = top_seats(dict(enumerate(scores)), first, state.seats)
        played: tuple[int, ...] = ()
        for extra in playoffs:
            if len(top) == 1 or state.ruleset.boston_tie == SPLIT:
                raise IllegalEvent(
                    "sheet.playoff_not_due", "No tie is played off here, so no play-off is due."
                )
            if isinstance(extra, list) and len(extra) != len(top):
                raise wrong_length("playoffs", extra, len(top), "one score per tied seat")
            if not _is_scores(extra, len(top)):
                raise IllegalEvent(
                    "event.bad_data",
                    f"A play-off lists {len(top)} scores, one for each of {players_at(top)} in "
                    "playing order.",
                    field="playoffs",
                )
            played += tuple(extra)
            top = top_seats(dict(zip(top, extra, strict=True)), first, state.seats)
        if len(top) > 1 and state.ruleset.boston_tie == PLAYOFF:
            raise IllegalEvent(
                "sheet.playoff_missing",
                f"{players_at(top)} tie for the pot: give their play-off scores.",
                seats=list(top),
            )
        return tuple(sorted(top)), played


def _is_scores(value: Any, count: int) -> bool:
    return isinstance(value, list) and len(value) == count and all(map(is_int, value))


def session_chips(state: ScoredMatchState) -> tuple[list[int], int]:
    """Each seat's chip net over the session's rounds, and the chips left in the pot."""
    nets = [0] * state.seats
    left = 0
    for entry in state.entries:
        round_nets, left = _round_chips(state, entry, left)
        nets = [a + b for a, b in zip(nets, round_nets, strict=True)]
    return nets, left


def _round_chips(state: ScoredMatchState, entry: GameEntry, carried: int) -> tuple[list[int], int]:
    """A live round's chips as its own ledger gives them; a sheet round's from its winners."""
    report = entry.report
    nets, left = report.get("nets"), report.get("pot_left")
    if _is_scores(nets, state.seats) and is_int(left):
        return list(nets), int(left)  # type: ignore[arg-type]
    ante = state.ruleset.ante_chips
    shares, left = share_pot(carried + ante * state.seats, len(entry.winners))
    won = dict(zip(entry.winners, shares, strict=True))
    return [won.get(seat, 0) - ante for seat in range(state.seats)], left


def _payments(nets: Sequence[int]) -> list[tuple[int, int, int]]:
    """Who hands whom how many chips: each loser's chips go to the winners in seat order."""
    owed = {seat: -net for seat, net in enumerate(nets) if net < 0}
    payments = []
    for winner, due in ((seat, net) for seat, net in enumerate(nets) if net > 0):
        for loser in owed:
            amount = min(due, owed[loser])
            if amount:
                payments.append((loser, winner, amount))
                owed[loser] -= amount
                due -= amount
    return payments


SUMS = frozenset(range(3, 19))
PRODUCTS = frozenset((a + b) * c for a in range(1, 7) for b in range(1, 7) for c in range(1, 7))
BOSTON_MATCH = BostonSession(
    GOING_TO_BOSTON, SUMS, "every player's three set-aside dice added up (3 to 18)"
)
MULTIPLICATION_MATCH = BostonSession(
    MULTIPLICATION_RULES,
    PRODUCTS,
    "every player's first two set-aside dice times the last (2 to 72)",
)
