"""The best total reachable in Scarney Solitaire (RULES.md 2.7), by exhaustive search.

From a position every sequence of jumps is tried until none is legal, and the best total game score
(game points plus the final bonus) is kept. Positions are memoised: a board is encoded as 16 bytes,
one per circle, 0 for an empty circle and 1..16 for a pawn. Even a full layout reaches only some
10,000 distinct positions, because every jump needs pawns of two colours.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from games.rules.base import Move
from games.rules.errors import IllegalEvent
from games.rules.events import JUMPED, SCARNEY_CALLED, TAKEN_OFF
from games.rules.scarney_board.board import ALL_PAWNS, CIRCLES, JUMPS, Board, colour_of, is_low
from games.rules.scarney_board.shapes import LAYOUT, OVER, TAKEOFF
from games.rules.scarney_board.solitaire import SolitaireRules, State, total_score

Cells = bytes

# Indexed by pawn code (0 = no pawn): what the search needs to know of each pawn.
_PAWN_OF: tuple[str | None, ...] = (None, *ALL_PAWNS)
_COLOUR_OF = tuple(None if pawn is None else colour_of(pawn) for pawn in _PAWN_OF)
_CODE_OF = {pawn: code for code, pawn in enumerate(_PAWN_OF) if pawn is not None}
# Jump triples as 0-based indices into the cells.
_JUMPS = tuple((frm - 1, over - 1, to - 1) for frm, over, to in JUMPS)
_CALL = (-1, -1)  # the step "call Scarney and stop", where the house rule allows it


@dataclass(frozen=True, slots=True)
class Analysis:
    """The best total reachable and one line of play that reaches it."""

    value: int
    line: tuple[Move, ...]


def best_line(state: State) -> Analysis:
    """The best total reachable from ``state``, choosing the take-off too if it is still due."""
    if state.phase == LAYOUT:
        raise IllegalEvent(
            "analysis.no_board", "The board is not laid out yet: there is nothing to analyse."
        )
    if state.phase == OVER:
        return Analysis(total_score(state.board), ())
    search = _Search(allow_call=state.ruleset.solitaire_allow_scarney_call)
    cells = encode(state.board)
    if state.phase == TAKEOFF:
        return search.best_with_takeoff(cells)
    return Analysis(search.value(cells), search.line(cells))


def encode(board: Board) -> Cells:
    return bytes(0 if pawn is None else _CODE_OF[pawn] for pawn in board)


def decode(cells: Cells) -> Board:
    return tuple(_PAWN_OF[code] for code in cells)


class _Search:
    """One exhaustive search; the memo maps cells to (value, best step, cells after it)."""

    def __init__(self, *, allow_call: bool) -> None:
        self.allow_call = allow_call
        self.memo: dict[Cells, tuple[int, tuple[int, int] | None, Cells | None]] = {}

    def value(self, cells: Cells) -> int:
        """The best total reachable from ``cells`` with jumps to be made."""
        known = self.memo.get(cells)
        if known is not None:
            return known[0]
        best, step, after = -1, None, None
        for frm, over, to in _JUMPS:
            mover, victim = cells[frm], cells[over]
            if mover and victim and not cells[to] and _COLOUR_OF[mover] != _COLOUR_OF[victim]:
                child = _jumped(cells, frm, over, to)
                value = self.value(child)
                if value > best:
                    best, step, after = value, (frm + 1, to + 1), child
        if step is None or self.allow_call:
            stop = total_score(decode(cells))
            if stop > best:
                # With no jump left the game simply ends; with jumps left stopping is a call.
                best, step, after = stop, (None if step is None else _CALL), None
        self.memo[cells] = (best, step, after)
        return best

    def line(self, cells: Cells) -> tuple[Move, ...]:
        """The moves of the best line found from ``cells`` (call ``value`` first)."""
        moves: list[Move] = []
        _, step, after = self.memo[cells]
        while step is not None:
            if step == _CALL:
                moves.append(Move(SCARNEY_CALLED, {}))
            else:
                moves.append(Move(JUMPED, {"from": step[0], "to": step[1]}))
            if after is None:
                break
            _, step, after = self.memo[after]
        return tuple(moves)

    def best_with_takeoff(self, cells: Cells) -> Analysis:
        """The best take-off (any low pawn, RULES.md D-SOL-11) and the line after it."""
        best: Analysis | None = None
        for circle in CIRCLES:
            pawn = _PAWN_OF[cells[circle - 1]]
            if pawn is None or not is_low(pawn):
                continue
            child = cells[: circle - 1] + b"\0" + cells[circle:]
            value = self.value(child)
            if best is None or value > best.value:
                takeoff = Move(TAKEN_OFF, {"circle": circle})
                best = Analysis(value, (takeoff, *self.line(child)))
        if best is None:
            raise IllegalEvent("analysis.no_takeoff", "No 1- or 2-spot pawn is left to take off.")
        return best


def _jumped(cells: Cells, frm: int, over: int, to: int) -> Cells:
    after = bytearray(cells)
    after[to], after[frm], after[over] = cells[frm], 0, 0
    return bytes(after)


def analyse(states: Sequence[State]) -> dict[str, Any]:
    """The analysis endpoint's answer for the game whose moves in force led to ``states``: the
    best total from now and a line reaching it, and the best total from the game's first
    position (its layout), so a player sees what his play has cost."""
    start = next((s for s in states if s.phase != LAYOUT), None)
    if start is None:
        raise IllegalEvent("analysis.no_position", "Lay out the board before asking for analysis.")
    now = best_line(states[-1])
    return {
        "value": now.value,
        "line": [{"type": m.type, "data": dict(m.data)} for m in now.line],
        "from_start": _best_from(start),
    }


@lru_cache(maxsize=256)
def _best_from(start: State) -> int:
    # States are immutable and hashable: a game's first position is solved once per process.
    return best_line(start).value


class AnalysedSolitaireRules(SolitaireRules):
    """Scarney Solitaire with its solver's analysis (``Analysable``). The solver builds on the
    game, so the analysis joins the game here, above both, and the family registers this one."""

    def analyse(self, states: Sequence[State]) -> dict[str, Any]:
        """The solver's best line from now and the best total from the layout."""
        return analyse(states)


ANALYSED_SOLITAIRE = AnalysedSolitaireRules()
