"""The analysis endpoint: best play from the current position and from the game's start."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from games import folding
from games.models import Stream
from games.rules.errors import IllegalEvent
from games.rules.solve import duel
from games.rules.solve import solitaire as solitaire_solver

SOLVERS = {"scarney-solitaire": solitaire_solver.best_line}
# Two-player games: ``solve(rules, state) -> {"winner", "line"}``.
DUEL_SOLVERS = {"scarney-doubles": duel.analyse, "high-low-scarney": duel.analyse}


def analyse(stream: Stream) -> dict[str, Any]:
    solve = SOLVERS.get(stream.kind)
    if solve is None:
        return _analyse_two_player(stream)
    return _analyse_one_player(stream, solve)


def _analyse_two_player(stream: Stream) -> dict[str, Any]:
    """A two-player game: ``{"winner", "line"}`` from games.rules.solve.duel, or from the rule
    engine's own ``analyse(state)`` where it has one."""
    folded = folding.load(stream)
    rules = folded.engine.rules
    solve = DUEL_SOLVERS.get(stream.kind)
    if solve is not None:
        return dict(solve(rules, folded.state))
    analyse_state = getattr(rules, "analyse", None)
    if analyse_state is None:
        raise IllegalEvent("analysis.unavailable", f"There is no solver for {stream.kind}.")
    return dict(analyse_state(folded.state))


def _analyse_one_player(stream: Stream, solve: Any) -> dict[str, Any]:
    header, states = folding.state_stack(stream)
    rules = folding.engine_for(stream.category, header).rules
    start = next((s for s in states if rules.legal_events(s) is not None), None)
    if start is None:
        raise IllegalEvent("analysis.no_position", "Lay out the board before asking for analysis.")
    now = solve(states[-1])
    return {
        "value": now.value,
        "line": [{"type": m.type, "data": dict(m.data)} for m in now.line],
        "from_start": _best_value(solve, start),
    }


@lru_cache(maxsize=256)
def _best_value(solve: Any, start: Any) -> int:
    # States are immutable and hashable: a game's start is solved once per process.
    return int(solve(start).value)
