"""What the engines of the rule modules Courtship Rules (``courtship``), the Last Laugh
(``last_laugh``) and Tontine (``tontine``) share: a hand of a base game recorded trick by trick
(RULES.md 16.4, ``recording``), started, viewed and scored the same way; each module adds its own
events, state and view on top."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.rules.base import GameRules, Result, SeatScore
from games.rules.tarot import recording, shapes
from games.rules.tarot.recording import MOST_SEATS, Table


class RecordedHandRules(GameRules):
    """One hand of a rule module in recording mode. The module's state holds the ``table`` and
    the ``ruleset`` and says when it is ``over``; ``state_type(table, ruleset)`` builds it."""

    ruleset_type: type[Any]
    state_type: Callable[[Table, Any], Any]
    seats_verb: str  # how the refusal of a seat count words it: "is kept for", "is recorded for"
    setup_shape = shapes.SETUP
    min_seats = 2
    max_seats = MOST_SEATS

    def start(self, setup: Mapping[str, Any], ruleset: Any, seats: int) -> Any:
        """The hand before its deal; ``setup["leader"]`` (seat 0 by default) leads."""
        rules, table = recording.start_hand(
            self, setup, ruleset, seats, self.title, self.seats_verb
        )
        return self.state_type(table, rules)

    def current_player(self, state: Any) -> int | None:
        return recording.table_player(state.table)

    def is_terminal(self, state: Any) -> bool:
        return bool(state.over)

    def scores(self, state: Any) -> tuple[SeatScore, ...]:
        """Card points and scoring belong to the base game (18.4, 19.3): none is computed here."""
        return tuple(SeatScore(s, 0) for s in range(state.table.seats))

    def result(self, state: Any) -> Result | None:
        return Result(self.scores(state), ()) if state.over else None

    def view(self, state: Any) -> dict[str, Any]:
        """The recorded table, the base game, then what the module shows of its own."""
        table = {**state.table.as_dict(), "base_game": state.ruleset.base_game}
        return table | self.module_view(state)

    def module_view(self, state: Any) -> dict[str, Any]:
        raise NotImplementedError
