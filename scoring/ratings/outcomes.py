"""What a rating counts (docs/DESIGN.md "Ratings"): a stream's result as sides and places.

A match counts once, by its final ranks, when it is played out (finished or settled): it is the
contest a club settles and a tournament ranks, where a game of Scarnie or of the tarot games is
one deal. A game played outside any match counts once too, as a match of that one game would
rank it (its format's standing and sides), or, for a kind without a format, by its result:
winners first, then by total. Partners make one side, whichever way the format knows them (its
``sides``, or the match's teams). A result of fewer than two sides (solo Solitaire, a game of one
player), or that seats a player twice, is not rated. A tournament's match counts while the
tournament keeps it at a table whose result is not voided.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from games.rules import registry
from games.rules.base import Move, ReportsToMatch, make_ruleset
from games.rules.errors import RuleError
from games.rules.events import GAME_FINISHED, MATCH_RATED, MATCH_SETTLED, RESULT_CONFIRMED
from games.rules.matches import ScoredMatchState
from games.store.folding import Folded
from games.tournaments.core.state import TournamentState

RATED = ("finished", "settled")
# What a played-out match records after the event that decided it: its closing event and the
# table's agreements. They change no result, so they do not move it in the order of rating.
AFTER_THE_RESULT = frozenset({MATCH_SETTLED, MATCH_RATED, RESULT_CONFIRMED})


@dataclass(frozen=True)
class Outcome:
    """A rated result: the players of each side in seat order, and each side's place."""

    kind: str
    sides: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]

    def players(self) -> list[int]:
        return [player for side in self.sides for player in side]


@runtime_checkable
class HasSides(Protocol):
    """A match format that says who plays together (the partnership formats)."""

    def sides(self, state: Any) -> tuple[tuple[int, ...], ...]: ...


def of_match(folded: Folded, status: str) -> Outcome | None:
    """A played-out match's result by its standing's ranks; None while it is not one."""
    if status not in RATED:
        return None
    rules = folded.match_rules
    if rules.next_game_number(folded.state) is not None:
        # Taken back after its close: the stream's status still says settled until the next
        # close, but the match is not played out, so it has no result to rate.
        return None
    players = [seat["player"] for seat in folded.header["players"]]
    ranks = {row["seat"]: row["rank"] for row in rules.standing(folded.state)}
    return _outcome(folded.header["format"], players, sides_of(rules, folded.state), ranks)


def of_game(folded: Folded, status: str) -> Outcome | None:
    """A finished game outside any match; None for any other game."""
    header = folded.header
    if status != "finished" or header.get("match") or len(header["seats"]) < 2:
        return None
    players = [seat["player"] for seat in header["seats"]]
    try:
        state, rules = _as_one_game_match(folded)
    except RuleError:
        # No format of the kind (last-laugh, courtship-rules), or one that does not take this
        # game alone: its own result ranks it.
        return _outcome(header["kind"], players, (), _ranks_of_result(folded))
    ranks = {row["seat"]: row["rank"] for row in rules.standing(state)}
    return _outcome(header["kind"], players, sides_of(rules, state), ranks)


def _as_one_game_match(folded: Folded) -> tuple[Any, Any]:
    """The state of a match of the kind's format after this one game, as the service would have
    reported it to a match (games.play.appending)."""
    header = folded.header
    rules = registry.match_rules(header["kind"])
    teams = (header.get("setup") or {}).get("teams") or None
    ruleset = make_ruleset(rules.ruleset_type, header.get("ruleset"))
    state = rules.initial_state(ruleset, len(header["seats"]), teams)
    result = folded.result
    data: dict[str, Any] = {
        "game": str(uuid.UUID(int=0)),  # the match's only game; the format asks for an id
        "scores": [score.total for score in result.scores],
        "winners": list(result.winners),
    }
    game_rules = folded.game_rules
    if isinstance(game_rules, ReportsToMatch):
        data["report"] = game_rules.match_report(folded.state)
    return rules.apply(state, Move(GAME_FINISHED, data)), rules


def _ranks_of_result(folded: Folded) -> dict[int, int]:
    """Winners first, then by total, equal totals sharing a place."""
    result = folded.result
    keys = {s.seat: (s.seat not in result.winners, -s.total) for s in result.scores}
    return {
        seat: 1 + sum(1 for other in keys.values() if other < key) for seat, key in keys.items()
    }


def sides_of(rules: Any, state: Any) -> tuple[tuple[int, ...], ...]:
    """The seats playing together: the format's sides, else the match's teams; () when each
    plays for himself."""
    if isinstance(rules, HasSides):
        found = rules.sides(state)
        if found:
            return tuple(tuple(side) for side in found)
    if isinstance(state, ScoredMatchState) and state.teams:
        return state.teams
    return ()


def _outcome(
    kind: str,
    players: Sequence[int],
    sides: Sequence[Sequence[int]],
    ranks: Mapping[int, int],
) -> Outcome | None:
    seats = range(len(players))
    groups = [tuple(sorted(side)) for side in sides] or [(seat,) for seat in seats]
    # Every seat once, each in one side: else the format's sides are not a partition of the
    # table, and each plays for himself.
    if sorted(seat for side in groups for seat in side) != list(seats):
        groups = [(seat,) for seat in seats]
    groups.sort()
    if len(groups) < 2 or len(set(players)) != len(players):
        return None
    return Outcome(
        kind=kind,
        sides=tuple(tuple(players[seat] for seat in side) for side in groups),
        ranks=tuple(min(ranks[seat] for seat in side) for side in groups),
    )


def kept_by_tournament(state: TournamentState, match_id: str, round: int, table: int) -> bool:
    """Whether the tournament still has the match at its table (a re-pairing sets the round's
    matches aside) with a result that is not voided."""
    for played in state.rounds:
        if played.number != round:
            continue
        for seated in played.tables:
            if seated.number == table and seated.match == match_id:
                return seated.result is None or seated.result.how != "voided"
    return False
