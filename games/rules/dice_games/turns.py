"""The engine methods shared by the dice games whose seats throw in turn from a queue and whose
state names its winners once over: Going to Boston and Multiplication (``boston``), Hearts Due
(``hearts_due``). Each game's one move is ``dice.thrown``; its state has ``over``, ``queue``
(the seats still to throw, the next first) and ``winners``."""

from __future__ import annotations

from typing import Any

from games.rules.base import GameRules, Move, Result, SeatScore
from games.rules.events import THROWN


class QueuedThrows(GameRules):
    """A game of throws in turn: what is expected, who is on turn, when it is over, its result."""

    def expected(self, state: Any) -> list[str]:
        return [] if state.over else [THROWN]

    def legal_events(self, state: Any) -> list[Move] | None:
        """Throws are chance: no list, until the game is over."""
        return [] if state.over else None

    def current_player(self, state: Any) -> int | None:
        return None if state.over else int(state.queue[0])

    def is_terminal(self, state: Any) -> bool:
        return bool(state.over)

    def scores(self, state: Any) -> tuple[SeatScore, ...]:
        raise NotImplementedError

    def result(self, state: Any) -> Result | None:
        if not state.over:
            return None
        return Result(self.scores(state), winners=state.winners)
