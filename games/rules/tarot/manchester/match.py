"""Manchester's game of hands: a match of ``mp_hands`` hands (RULES.md 20.1, 20.4, D-MP-6).

The formats are registered by :mod:`games.rules.tarot.manchester.game`, the games' entry point;
the events of a match are declared in ``shapes``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.rules.errors import IllegalEvent
from games.rules.matches import ScoredMatch, ScoredMatchState, ranked
from games.rules.tarot.manchester.shapes import MATCH_EVENTS
from games.rules.tarot.manchester.state import PICCADILLY, TRUFFLE, Ruleset, TruffleRuleset


class ManchesterMatch(ScoredMatch):
    """A game of ``mp_hands`` hands, the dealer alternating from seat 0; game points add up and
    the higher total wins; equal totals are a draw (RULES.md 20.4, 0.8)."""

    min_seats = 2
    max_seats = 2
    events = MATCH_EVENTS

    def sheet_rule(self, ruleset: Mapping[str, Any]) -> str:
        """The rule a sheet's lines follow and how the match ends, in one sentence."""
        return (
            "Each line is a hand: only its winner scores, the difference of the hand totals (the "
            f"other 0); after {ruleset.get('mp_hands')} hands the higher total wins, equal totals "
            "draw."
        )

    def __init__(self, kind: str, ruleset_type: type[Any]) -> None:
        self.kind = kind
        self.ruleset_type = ruleset_type

    def is_complete(self, state: ScoredMatchState) -> bool:
        return len(state.entries) >= int(state.ruleset.mp_hands)

    def standing(self, state: ScoredMatchState) -> list[dict[str, Any]]:
        totals = [sum(e.scores[s] for e in state.entries) for s in (0, 1)]
        rows = [
            {
                "seat": s,
                "match_score": totals[s],
                "bonuses": [],
                "total": totals[s],
                "games_won": sum(1 for e in state.entries if e.scores[s] > 0),
                "rank": 0,
            }
            for s in (0, 1)
        ]
        return ranked(rows)

    def games(self, state: ScoredMatchState) -> list[dict[str, Any]]:
        """The game row, with the hand's sheet as the game view's ``hand_sheet`` shows it (start
        values, first and second scores, hand totals, game points: 20.2-20.4); a hand entered
        from a sheet has none (null)."""
        rows = super().games(state)
        for row, entry in zip(rows, state.entries, strict=True):
            sheet = {key: value for key, value in entry.report.items() if key != "dealer"}
            row["hand_sheet"] = sheet or None
        return rows

    def settlement(self, state: ScoredMatchState) -> dict[str, Any]:
        """Game points are scores, not payments: the totals and the winner (a draw: both)."""
        totals = [sum(e.scores[s] for e in state.entries) for s in (0, 1)]
        winners = [s for s in (0, 1) if totals[s] == max(totals)]
        return {"payments": [], "nets": [0, 0], "game_points": totals, "winners": winners}

    def next_game_setup(self, state: ScoredMatchState) -> dict[str, Any]:
        return {"dealer": len(state.entries) % 2}

    def sheet_issues(self, state: ScoredMatchState, scores: tuple[int, ...]) -> list[IllegalEvent]:
        """Only the hand's winner scores game points, never a negative number."""
        if min(scores) < 0 or min(scores) > 0:
            return [
                IllegalEvent(
                    "score.unattainable",
                    f"A hand gives game points {list(scores)}: only the winner scores, "
                    "the difference of the hand totals, and the other 0.",
                    scores=list(scores),
                )
            ]
        return []


PICCADILLY_MATCH = ManchesterMatch(PICCADILLY, Ruleset)
TRUFFLE_MATCH = ManchesterMatch(TRUFFLE, TruffleRuleset)
