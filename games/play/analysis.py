"""The analysis endpoint: best play from the current position, where the game has a solver."""

from __future__ import annotations

from typing import Any

from games.play.refusals import labelled
from games.rules.base import Analysable
from games.rules.errors import IllegalEvent
from games.store import folding
from games.store.models import Stream


def analyse(stream: Stream) -> dict[str, Any]:
    """The game's solver's answer for its moves in force (RULES.md's solvers, Analysable)."""
    header, states = folding.state_stack(stream)
    rules = folding.game_rules(header)
    if not isinstance(rules, Analysable):
        raise IllegalEvent("analysis.unavailable", f"There is no solver for {stream.kind}.")
    with labelled(header):
        return rules.analyse(states)
