"""Best play in the two-player Scarney board games, by minimax with memoisation.

**High-Low Scarney** (RULES.md 5.4-5.5): the game is won or lost on the last pawn, so the search
is plain win/loss. Pawns never move, only leave, so a position is the set of circles still
occupied: a 16-bit mask over the layout the search starts from. The side to move wins if some
removal leaves a position the other side loses; with one pawn left the player who removed the
15th pawn wins on a 3 or 4 and loses on a 1 or 2, so the side to move "wins" on a low last pawn.

**Scarney Doubles** (RULES.md 4.3-4.4): the game is won by the player with more points at the
end (all 40 spots are shared out, so a 20-20 game is drawn). The search maximises the final
margin (the mover's points minus the other's) with both sides doing the same; points already
credited only shift it, so a position's value is the margin still to be made from it. The sign
of the best margin is the game's value under best play: the side to move wins if it is positive,
loses if negative, and the game is drawn at 0 (the winner is then None). A position is one int of
eight 16-bit masks: one per colour (B, R, Y, G) and one per spot value (1-4), bit ``c - 1`` set
for a pawn on circle ``c``; legal jumps are found with shifts over whole masks.

Both take the take-offs of Doubles (D-DBL-1's credit), its premature call (D-DBL-2's house rule)
and the sweep (D-DBL-3) into account; both return a line of best play as recorded ``Move``s.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from games.rules.base import Move
from games.rules.errors import IllegalEvent
from games.rules.events import JUMPED, REMOVED, SCARNEY_CALLED, TAKEN_OFF
from games.rules.scarney_board.board import COLOURS, LINES, Board, colour_of, is_low, spots_of

FIELD = 16
ALL = (1 << FIELD) - 1
_COLOUR_FIELD = {colour: index for index, colour in enumerate(COLOURS)}
_SPOT_BASE = 4 * FIELD  # spot fields follow the four colour fields
_COLOUR_BLOCK = (1 << _SPOT_BASE) - 1
# The same circle in all eight fields: what moves with a pawn.
_EVERY_FIELD = tuple(sum(1 << (FIELD * k + i) for k in range(8)) for i in range(FIELD))


@dataclass(frozen=True, slots=True)
class Duel:
    """The seat that wins with best play by both (None: a drawn Doubles game), and a line."""

    winner: int | None
    line: tuple[Move, ...]
    margin: int | None = None  # Doubles: final points of seat 0 minus seat 1 under best play

    def as_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "line": [{"type": move.type, "data": dict(move.data)} for move in self.line],
        }


# --- High-Low Scarney --------------------------------------------------------------------------


class HighLowSearch:
    """Win/loss of every position reachable from one layout; positions are occupied masks."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.low = {i for i, pawn in enumerate(board) if pawn is not None and is_low(pawn)}
        self.moves = _removals(board)
        self.memo: dict[int, bool] = {}

    def wins(self, mask: int) -> bool:
        """Whether the side to move wins from ``mask`` (at least one pawn on the board)."""
        known = self.memo.get(mask)
        if known is not None:
            return known
        if mask & (mask - 1) == 0:
            result = mask.bit_length() - 1 in self.low  # the other side left a low last pawn
        else:
            result = any(
                group & mask == group and not block & mask and not self.wins(mask ^ group)
                for group, block in self.moves
                if group != mask
            )
        self.memo[mask] = result
        return result

    def legal(self, mask: int) -> list[int]:
        """Every legal removal from ``mask`` as a mask of circles (RULES.md 5.4)."""
        return [
            group
            for group, block in self.moves
            if group & mask == group and not block & mask and group != mask
        ]

    def best(self, mask: int) -> int:
        """A winning removal if there is one, else one that makes the win longest to force."""
        moves = self.legal(mask)
        winning = [group for group in moves if not self.wins(mask ^ group)]
        if winning:
            return winning[0]
        # Every move loses: resist with the one leaving the most pawns.
        return min(moves, key=lambda group: group.bit_count())

    def line(self, mask: int) -> tuple[Move, ...]:
        moves = []
        while mask & (mask - 1):
            group = self.best(mask)
            circles = [i + 1 for i in range(FIELD) if group >> i & 1]
            moves.append(Move(REMOVED, {"circles": circles}))
            mask ^= group
        return tuple(moves)


def _removals(board: Board) -> list[tuple[int, int]]:
    """(circles removed, circles that must be empty) of every removal the layout can ever allow.

    Singles anywhere; pairs and triples of one colour in one line, blocked by a pawn of another
    colour strictly between the outermost chosen pawns (D-HL-2, D-HL-3). Pawns never move, so the
    layout fixes which circles could block; a blocker that has left no longer blocks.
    """
    triples: list[tuple[int, int]] = []
    pairs: list[tuple[int, int]] = []
    for line in LINES:
        for colour in COLOURS:
            mine = [i for i, c in enumerate(line) if _colour_at(board, c) == colour]
            for size, out in ((3, triples), (2, pairs)):
                for chosen in combinations(mine, size):
                    between = line[chosen[0] + 1 : chosen[-1]]
                    block = sum(
                        1 << (c - 1) for c in between if _colour_at(board, c) not in (None, colour)
                    )
                    out.append((sum(1 << (line[i] - 1) for i in chosen), block))
    singles = [(1 << i, 0) for i, pawn in enumerate(board) if pawn is not None]
    return triples + pairs + singles


def _colour_at(board: Board, circle: int) -> str | None:
    pawn = board[circle - 1]
    return None if pawn is None else colour_of(pawn)


def occupied_mask(board: Board) -> int:
    return sum(1 << i for i, pawn in enumerate(board) if pawn is not None)


def solve_high_low(board: Board, to_move: int) -> Duel:
    """Who wins with best play from ``board`` with ``to_move`` to remove (two or more pawns)."""
    search = HighLowSearch(board)
    mask = occupied_mask(board)
    if mask & (mask - 1) == 0:
        raise IllegalEvent("analysis.game_over", "One pawn is left: the game is over.")
    winner = to_move if search.wins(mask) else 1 - to_move
    return Duel(winner, search.line(mask))


# --- Scarney Doubles ---------------------------------------------------------------------------


def pack(board: Board) -> int:
    """The eight masks of ``board`` as one int (colours, then spots 1-4)."""
    packed = 0
    for i, pawn in enumerate(board):
        if pawn is not None:
            packed |= 1 << (FIELD * _COLOUR_FIELD[colour_of(pawn)] + i)
            packed |= 1 << (_SPOT_BASE + FIELD * (spots_of(pawn) - 1) + i)
    return packed


def unpack(packed: int) -> Board:
    cells: list[str | None] = [None] * FIELD
    for i in range(FIELD):
        colour = next((c for c, k in _COLOUR_FIELD.items() if packed >> (FIELD * k + i) & 1), None)
        if colour is not None:
            cells[i] = f"{colour}{_spots_at(packed, i)}"
    return tuple(cells)


def _occupied(packed: int) -> int:
    c = packed & _COLOUR_BLOCK
    return (c | c >> 16 | c >> 32 | c >> 48) & ALL


def _spots_at(packed: int, i: int) -> int:
    for k in range(4):
        if packed >> (_SPOT_BASE + FIELD * k + i) & 1:
            return k + 1
    return 0


def board_spots(packed: int) -> int:
    return sum((k + 1) * ((packed >> (_SPOT_BASE + FIELD * k)) & ALL).bit_count() for k in range(4))


def _starts(columns: range | None = None, rows: range | None = None) -> int:
    return sum(
        1 << (4 * r + c)
        for r in (rows if rows is not None else range(4))
        for c in (columns if columns is not None else range(4))
    )


# (shift to the jumped circle, circles a jump in that direction can start from)
_DIRECTIONS = (
    (1, _starts(columns=range(0, 2))),
    (-1, _starts(columns=range(2, 4))),
    (4, _starts(rows=range(0, 2))),
    (-4, _starts(rows=range(2, 4))),
)


def _toward(mask: int, d: int) -> int:
    """Bit ``i`` of the result is bit ``i + d`` of ``mask``."""
    return mask >> d if d > 0 else mask << -d


def doubles_jumps(packed: int) -> list[tuple[int, int, int]]:
    """Every legal jump (from, over, to) as circle indexes 0-15 (RULES.md 2.4)."""
    occ = _occupied(packed)
    colours = packed & _COLOUR_BLOCK
    jumps = []
    for d, starts in _DIRECTIONS:
        same = colours & _toward(colours, d)
        same = (same | same >> 16 | same >> 32 | same >> 48) & ALL
        ready = starts & occ & _toward(occ, d) & ~_toward(occ, 2 * d) & ~same
        while ready:
            low = ready & -ready
            f = low.bit_length() - 1
            jumps.append((f, f + d, f + 2 * d))
            ready ^= low
    return jumps


def _jumped(packed: int, f: int, o: int, t: int) -> int:
    moved = packed & _EVERY_FIELD[f]
    rest = packed & ~(_EVERY_FIELD[f] | _EVERY_FIELD[o])
    return rest | (moved << (t - f) if t > f else moved >> (f - t))


def _taken_off(packed: int, i: int) -> int:
    return packed & ~_EVERY_FIELD[i]


def _low_circles(packed: int) -> list[int]:
    lows = ((packed >> _SPOT_BASE) | (packed >> (_SPOT_BASE + FIELD))) & ALL
    return [i for i in range(FIELD) if lows >> i & 1]


# A step of the best line: ("jump", f, t, call afterwards) or ("takeoff", circle index).
Step = tuple[Any, ...]


class DoublesSearch:
    """Best margins of Doubles positions; ``memo`` maps a packed board to (value, best step)."""

    def __init__(
        self, *, call_allowed: bool = False, second_takeoff_to_remover: bool = False
    ) -> None:
        self.call_allowed = call_allowed
        self.second_to_remover = second_takeoff_to_remover
        self.memo: dict[int, tuple[int, Step | None]] = {}

    def jumping(self, packed: int) -> int:
        """The best margin still to be made by the side to jump (no call pending)."""
        known = self.memo.get(packed)
        if known is not None:
            return known[0]
        best, step = -board_spots(packed), None  # no jump: the previous mover sweeps
        jumps = doubles_jumps(packed)
        if jumps:
            best = -99
            for f, o, t in jumps:
                child = _jumped(packed, f, o, t)
                gain, call = self._after_jump(child)
                value = _spots_at(packed, o) + gain
                if value > best:
                    best, step = value, ("jump", f, t, call)
        self.memo[packed] = (best, step)
        return best

    def _after_jump(self, child: int) -> tuple[int, bool]:
        """What the jumper makes after his jump: let play go on, or call and sweep (D-DBL-2)."""
        play_on = -self.jumping(child)
        if self.call_allowed and doubles_jumps(child):
            sweep = board_spots(child)
            if sweep > play_on:
                return sweep, True
        return play_on, False

    def second_takeoff(self, packed: int) -> tuple[int, Step | None]:
        """The starter's take-off (credit per D-DBL-1), then the nonstarter jumps first."""
        options = []
        for i in _low_circles(packed):
            spots = _spots_at(packed, i)
            credit = spots if self.second_to_remover else -spots
            options.append((credit - self.jumping(_taken_off(packed, i)), ("takeoff", i)))
        return max(options, key=lambda option: option[0], default=(0, None))

    def first_takeoff(self, packed: int) -> tuple[int, Step | None]:
        """The nonstarter's take-off, credited to him; then the starter's."""
        options = [
            (_spots_at(packed, i) - self.second_takeoff(_taken_off(packed, i))[0], ("takeoff", i))
            for i in _low_circles(packed)
        ]
        return max(options, key=lambda option: option[0], default=(0, None))

    def line(self, packed: int, takeoffs: int) -> tuple[Move, ...]:
        """Moves of best play from ``packed`` with ``takeoffs`` (0-2) take-offs still due."""
        moves: list[Move] = []
        while takeoffs:
            _, step = (self.first_takeoff if takeoffs == 2 else self.second_takeoff)(packed)
            if step is None:
                return tuple(moves)
            moves.append(Move(TAKEN_OFF, {"circle": step[1] + 1}))
            packed, takeoffs = _taken_off(packed, step[1]), takeoffs - 1
        while True:
            self.jumping(packed)
            step = self.memo[packed][1]
            if step is None:
                return tuple(moves)
            _, f, t, call = step
            moves.append(Move(JUMPED, {"from": f + 1, "to": t + 1}))
            packed = _jumped(packed, f, (f + t) // 2, t)
            if call:
                moves.append(Move(SCARNEY_CALLED, {}))
                return tuple(moves)


def solve_doubles(
    board: Board,
    to_move: int,
    points: tuple[int, int] = (0, 0),
    *,
    takeoffs: int = 0,
    call_pending: bool = False,
    call_allowed: bool = False,
    second_takeoff_to_remover: bool = False,
) -> Duel:
    """Best play from ``board`` with ``to_move`` on turn and ``points`` already credited.

    ``takeoffs``: 2 before the nonstarter's take-off, 1 before the starter's, 0 in play.
    ``call_pending``: the other player has just jumped and may still call Scarney (D-DBL-2).
    """
    search = DoublesSearch(
        call_allowed=call_allowed, second_takeoff_to_remover=second_takeoff_to_remover
    )
    packed = pack(board)
    if takeoffs == 2:
        value = search.first_takeoff(packed)[0]
    elif takeoffs == 1:
        value = search.second_takeoff(packed)[0]
    else:
        value = search.jumping(packed)
    line = search.line(packed, takeoffs)
    if call_pending and -board_spots(packed) < value:
        # The player who has just jumped calls at once: it is better for him.
        value, line = -board_spots(packed), (Move(SCARNEY_CALLED, {}),)
    margin = points[to_move] - points[1 - to_move] + value
    winner = None if margin == 0 else (to_move if margin > 0 else 1 - to_move)
    return Duel(winner, line, margin if to_move == 0 else -margin)


# --- from a game's state -----------------------------------------------------------------------


def analyse(rules: Any, state: Any) -> dict[str, Any]:
    """``{"winner", "line"}`` for a Doubles or High-Low state (the analysis endpoint's answer)."""
    result = rules.result(state)
    if result is not None:
        winners = list(result.winners)
        return {"winner": winners[0] if len(winners) == 1 else None, "line": []}
    expected = rules.expected(state)
    if "colours.chosen" in expected or "pawn.placed" in expected:
        raise IllegalEvent(
            "analysis.no_position", "The pawns are not all placed yet: there is nothing to solve."
        )
    view = rules.view(state)
    board = _board(view["board"])
    to_move = int(rules.current_player(state))
    if rules.kind == "high-low-scarney":
        return solve_high_low(board, to_move).as_dict()
    ruleset = getattr(state, "ruleset", None)
    takeoffs = _TAKEOFFS_DUE.get(view.get("phase"), 0) if TAKEN_OFF in expected else 0
    scores = rules.scores(state)
    duel = solve_doubles(
        board,
        to_move,
        (scores[0].points, scores[1].points),
        takeoffs=takeoffs,
        call_pending=SCARNEY_CALLED in expected,
        call_allowed=bool(getattr(ruleset, "doubles_allow_premature_call", False)),
        second_takeoff_to_remover=getattr(ruleset, "doubles_second_takeoff_credit", "")
        == "remover",
    )
    return duel.as_dict()


# Take-offs still due in each phase of the Doubles engine (RULES.md 4.3).
_TAKEOFFS_DUE = {"takeoff_1": 2, "takeoff_2": 1}


def _credit_to_remover(ruleset: Any) -> bool:
    return getattr(ruleset, "doubles_second_takeoff_credit", "nonstarter") == "remover"


def _board(shown: Mapping[str, str | None]) -> Board:
    return tuple(shown.get(f"C{c}") for c in range(1, FIELD + 1))
