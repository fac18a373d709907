"""Put-and-Take's match: one session, settled by the nets (RULES.md 0.8 "running pot").

The format is registered by :mod:`games.rules.put_and_take.game`, the game's entry point.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.rules.errors import IllegalEvent
from games.rules.events import GAME_SCORED
from games.rules.matches import (
    OneGameMatch,
    ScoredMatchState,
    cumulative,
    payments_settlement,
)
from games.rules.put_and_take.state import KIND, MAX_SEATS, Ruleset
from games.rules.shapes import Integer, ListOf, Nullable, record

NETS = ListOf(
    Integer(doc="a seat's net chips"),
    MAX_SEATS,
    2,
    doc="each seat's chips received minus paid over the session, in seat order; they sum to 0 "
    "(a lenient sheet warns otherwise)",
)


class PutAndTakeMatch(OneGameMatch):
    """A Put-and-Take match is one session (one game stream); it settles each player's net."""

    kind = KIND
    ruleset_type: type[Any] = Ruleset
    min_seats = 2
    max_seats = MAX_SEATS
    events = {
        GAME_SCORED: record(
            "A session from a sheet: every seat's net chips.",
            optional=("cumulative",),
            scores=NETS,
            cumulative=Nullable(NETS, doc="the sheet's running totals: the nets again"),
        )
    }

    def sheet_rule(self, ruleset: Mapping[str, Any]) -> str:
        """The rule a sheet's lines follow and how the match ends, in one sentence."""
        return (
            "A match is one session: each line is every player's net chips, and the nets sum to 0."
        )

    def settlement(self, state: ScoredMatchState) -> dict[str, Any]:
        """The nets as payments: each loser, in seat order, pays the winners in seat order."""
        return payments_settlement(transfers(cumulative(state)), state.seats)

    def sheet_issues(self, state: ScoredMatchState, scores: tuple[int, ...]) -> list[IllegalEvent]:
        """Chips only change hands, so a session's nets sum to zero."""
        if sum(scores) == 0:
            return []
        return [
            IllegalEvent(
                "score.nets_not_zero",
                f"The nets {list(scores)} sum to {sum(scores)}; a session's nets sum to 0.",
                scores=list(scores),
            )
        ]


def transfers(net: Sequence[int]) -> list[tuple[int, int, int]]:
    """Payments ``(payer, payee, chips)`` giving ``net``: losers pay winners, in seat order."""
    owed = [[seat, -amount] for seat, amount in enumerate(net) if amount < 0]
    due = [[seat, amount] for seat, amount in enumerate(net) if amount > 0]
    payments = []
    while owed and due:
        chips = min(owed[0][1], due[0][1])
        payments.append((owed[0][0], due[0][0], chips))
        for side in (owed, due):
            side[0][1] -= chips
            if side[0][1] == 0:
                side.pop(0)
    return payments


PUT_AND_TAKE_MATCH = PutAndTakeMatch()
