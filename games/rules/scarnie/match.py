"""Scarnie's game to 100: the match of deals, its standing, settlement, sheet (RULES.md 6.3, 6.7).

The format is registered by :mod:`games.rules.scarnie.game`, the game's entry point.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from games.rules.base import Move
from games.rules.errors import IllegalEvent
from games.rules.events import GAME_SCORED
from games.rules.matches import (
    ScoredMatch,
    ScoredMatchState,
    cumulative,
    payments_settlement,
    ranked,
)
from games.rules.scarnie.state import (
    DEALER_DRAWN,
    KIND,
    MULTIPLIERS,
    PAWN_NUMBERS,
    TARGET,
    Ruleset,
    is_int,
    read_teams,
)
from games.rules.shapes import Integer, ListOf, Nullable, record
from games.rules.wording import player_at


class ScarnieMatch(ScoredMatch):
    """Deals until one player or partnership leads alone with 100 or more (6.7, D-SCN-7).

    The dealer of the first deal is seat 0 (0.5) unless the match records the draw of 6.3
    (``dealer.drawn``: each seat's pawn number, lowest deals); the deal then passes left.
    """

    kind = KIND
    ruleset_type: type[Any] = Ruleset
    min_seats = 2
    max_seats = 4
    events = {
        GAME_SCORED: record(
            "One deal of a score sheet: pawn number x multiplier to the scorers, 0 to the others "
            "(Appendix C.5).",
            optional=("cumulative",),
            scores=ListOf(
                Integer(doc="a seat's points in the deal"),
                max_seats,
                min_seats,
                doc="one whole number per seat, in seat order",
            ),
            cumulative=Nullable(
                ListOf(Integer(), max_seats, min_seats),
                doc="the running totals after this deal, per seat: checked if given (null: not "
                "given)",
            ),
        ),
        DEALER_DRAWN: record(
            "The draw for the first dealer (6.3): each seat's pawn; the lowest number deals.",
            pawns=ListOf(
                Integer(min(PAWN_NUMBERS), max(PAWN_NUMBERS), doc="a pawn's number, 1-28"),
                max_seats,
                min_seats,
                doc="one different pawn number per seat, in seat order",
            ),
        ),
    }

    def sheet_rule(self, ruleset: Mapping[str, Any]) -> str:
        """The rule a sheet's lines follow and how the match ends, in one sentence."""
        return (
            "Only a deal's scorer scores (the last pawn's number × its position's multiplier; the "
            f"others 0); the first to reach {TARGET} alone wins."
        )

    def check_teams(self, teams: Any, seats: int) -> tuple[tuple[int, ...], ...]:
        return read_teams(teams, seats, "match.bad_teams")

    def is_complete(self, state: ScoredMatchState) -> bool:
        return bool(match_winners(state))

    def standing(self, state: ScoredMatchState) -> list[dict[str, Any]]:
        """Each seat with its side's score (a partnership's is the sum of its seats)."""
        own = cumulative(state)
        rows = []
        for seat in range(state.seats):
            side = next(side for side in sides(state) if seat in side)
            total = sum(own[s] for s in side)
            won = sum(1 for entry in state.entries if seat in entry.winners)
            rows.append(
                {
                    "seat": seat,
                    "match_score": total,
                    "bonuses": [],
                    "total": total,
                    "games_won": won,
                    "rank": 0,
                    "points_scored": own[seat],
                }
            )
        return ranked(rows)

    def settlement(self, state: ScoredMatchState) -> dict[str, Any]:
        """None by default; under ``difference`` the winner collects the difference (D-SCN-8)."""
        if state.ruleset.scarnie_settlement == "none":
            return {"payments": [], "nets": [0] * state.seats}
        return payments_settlement(difference_payments(state), state.seats)

    def next_game_setup(self, state: ScoredMatchState) -> dict[str, Any]:
        """The next deal's dealer, number, scores so far, partnerships and known colours."""
        return {
            "dealer": next_dealer(state),
            "deal": len(state.entries) + 1,
            "scores_before": cumulative(state),
            "teams": [list(team) for team in state.teams],
            "colours": colours_of_match(state),
        }

    def sheet_issues(self, state: ScoredMatchState, scores: tuple[int, ...]) -> list[IllegalEvent]:
        """A deal's scores: pawn number x multiplier (Appendix C.5), only the scorers non-zero."""
        number = len(state.entries) + 1
        possible = attainable_deal_scores(state.ruleset)
        issues = [
            IllegalEvent(
                "score.unattainable",
                f"{player_at(seat)} cannot score {score} in deal {number}: a deal scores a pawn "
                "number 1-28 times its position's multiplier, or 0.",
                score=score,
                seat=seat,
                game=number,
            )
            for seat, score in enumerate(scores)
            if score not in possible
        ]
        pattern = _sheet_pattern_issue(state, scores)
        return issues if pattern is None else [*issues, pattern]

    def sheet_winners(self, state: ScoredMatchState, scores: tuple[int, ...]) -> tuple[int, ...]:
        """The seats that scored (with their partners); a deal of 0 points names none."""
        scored = {seat for seat, score in enumerate(scores) if score > 0}
        return tuple(seat for side in sides(state) if scored & set(side) for seat in side)

    def extra_handlers(self) -> Mapping[str, Any]:
        return {DEALER_DRAWN: _dealer_drawn}


def sides(state: ScoredMatchState) -> tuple[tuple[int, ...], ...]:
    """The partnerships, or every player on his own."""
    return state.teams or tuple((seat,) for seat in range(state.seats))


def side_totals(state: ScoredMatchState) -> list[int]:
    own = cumulative(state)
    return [sum(own[seat] for seat in side) for side in sides(state)]


def match_winners(state: ScoredMatchState) -> tuple[int, ...]:
    """The seats of the side leading alone with 100 or more; () while dealing goes on."""
    totals = side_totals(state)
    best = max(totals)
    if best < TARGET or totals.count(best) > 1:
        return ()  # equal leaders past 100 deal on: a full deal, not 0.7's extra play
    return sides(state)[totals.index(best)]


def difference_payments(state: ScoredMatchState) -> list[tuple[int, int, int]]:
    """Each loser pays the winner the difference; partners pair off with opponents (6.7)."""
    winners = match_winners(state)
    if not winners:
        return []  # no winner yet: nobody owes anything
    totals = side_totals(state)
    won = totals[sides(state).index(winners)]
    losing = [(s, t) for s, t in zip(sides(state), totals, strict=True) if s != winners]
    if state.teams:
        ((side, total),) = losing
        return [(loser, winner, won - total) for loser, winner in zip(side, winners, strict=True)]
    return [(side[0], winners[0], won - total) for side, total in losing]


def next_dealer(state: ScoredMatchState) -> int:
    """Left of the last deal's dealer; before any live deal, the drawn dealer or seat 0."""
    for back, entry in enumerate(reversed(state.entries)):
        dealer = entry.report.get("dealer")
        if is_int(dealer) and 0 <= dealer < state.seats:
            return (dealer + back + 1) % state.seats
    first = int(state.extra.get("first_dealer", 0))
    return (first + len(state.entries)) % state.seats


def colours_of_match(state: ScoredMatchState) -> dict[str, str]:
    """The colour of every pawn faced up in the match's live deals so far."""
    seen: dict[str, str] = {}
    for entry in state.entries:
        colours = entry.report.get("colours")
        if isinstance(colours, Mapping):
            seen.update(colours)
    return seen


def attainable_deal_scores(ruleset: Ruleset) -> frozenset[int]:
    multipliers = {MULTIPLIERS[mark] for row in ruleset.scarnie_position_marks for mark in row}
    return frozenset({0} | {n * m for n in PAWN_NUMBERS for m in multipliers})


def _sheet_pattern_issue(state: ScoredMatchState, scores: tuple[int, ...]) -> IllegalEvent | None:
    number = len(state.entries) + 1
    scored = [score for score in scores if score]
    if not scored:
        return None  # the last pawn stood on a Draw position
    all_others = state.ruleset.scarnie_scorer == "all_others"
    if state.seats == 2 or state.teams or not all_others:
        if len(scored) == 1:
            return None
        why = "only one seat scores a deal"
    elif len(scored) == state.seats - 1 and len(set(scored)) == 1:
        return None
    else:
        why = "every player but the killer scores the same points (scarnie_scorer all_others)"
    return IllegalEvent(
        "score.unattainable",
        f"Deal {number} cannot score {list(scores)}: {why}.",
        scores=list(scores),
        game=number,
    )


def _dealer_drawn(state: ScoredMatchState, move: Move) -> ScoredMatchState:
    """The draw for the first dealer (6.3): each seat's pawn number; the lowest deals."""
    if state.entries:
        raise IllegalEvent(
            "draw.too_late",
            f"The first dealer is drawn before the first deal; {len(state.entries)} deals are in.",
        )
    if "first_dealer" in state.extra:
        raise IllegalEvent(
            "draw.already_made",
            f"The dealer is already drawn: {player_at(state.extra['first_dealer'])} deals first.",
        )
    pawns = move.data.get("pawns")
    if isinstance(pawns, list) and len(pawns) != state.seats:
        raise IllegalEvent(
            "draw.wrong_count",
            f"Each seat draws one pawn: {state.seats} pawns, not {len(pawns)}.",
            field="pawns",
            count=len(pawns),
            expected=state.seats,
        )
    if not isinstance(pawns, list) or not all(is_int(n) and n in PAWN_NUMBERS for n in pawns):
        raise IllegalEvent(
            "event.bad_data",
            f"'pawns' of {DEALER_DRAWN} must list {state.seats} pawn numbers 1-28, one per seat.",
            field="pawns",
        )
    twice = sorted({n for n in pawns if pawns.count(n) > 1})
    if twice:
        raise IllegalEvent(
            "draw.duplicate_pawn",
            f"Pawn {twice[0]} is drawn by two seats; each draws a different pawn.",
            pawn=twice[0],
        )
    first = pawns.index(min(pawns))
    extra = {**state.extra, "first_dealer": first, "draw": tuple(pawns)}
    return dataclasses.replace(state, extra=extra)


SCARNIE_MATCH = ScarnieMatch()
