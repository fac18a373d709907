"""The Scarney board and its pawns, shared by every Scarney board game (RULES.md 1.1, 1.2).

Sixteen circles C1..C16 in a 4 x 4 square numbered row by row from the top left; circles are the
ints 1..16 here and ``"C7"`` only at the edges. Adjacency is orthogonal, jumps go straight over an
adjacent circle to the next one in the same row or column (D-SOL-1, D-SOL-2). A board is a
16-tuple indexed by ``circle - 1`` holding a pawn name (``"B4"``) or None. How events, setups and
views give circles, pawns and boards is declared in :mod:`games.rules.scarney_board.shapes`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from itertools import pairwise
from typing import Any

from games.rules.errors import IllegalEvent, RuleError

Board = tuple[str | None, ...]

SIZE = 4
CIRCLES = tuple(range(1, SIZE * SIZE + 1))
CORNERS = frozenset({1, 4, 13, 16})
COLOURS = ("B", "R", "Y", "G")
COLOUR_NAMES = {"B": "black", "R": "red", "Y": "yellow", "G": "green"}
ALL_PAWNS = tuple(f"{colour}{spots}" for colour in COLOURS for spots in range(1, 5))
TOTAL_SPOTS = 40
EMPTY_BOARD: Board = (None,) * len(CIRCLES)

_CIRCLE_TEXT = re.compile(r"[Cc]([1-9]|1[0-6])")
_PAWN_TEXT = re.compile(r"[BRYGbryg][1-4]")


def row_of(circle: int) -> int:
    return (circle - 1) // SIZE + 1


def column_of(circle: int) -> int:
    return (circle - 1) % SIZE + 1


def _circle_at(row: int, column: int) -> int:
    return (row - 1) * SIZE + column


ROWS = tuple(tuple(_circle_at(r, c) for c in range(1, SIZE + 1)) for r in range(1, SIZE + 1))
COLUMNS = tuple(tuple(_circle_at(r, c) for r in range(1, SIZE + 1)) for c in range(1, SIZE + 1))
LINES = ROWS + COLUMNS


def _jumps_along(line: tuple[int, ...]) -> Iterator[tuple[int, int, int]]:
    for i in range(len(line) - 2):
        yield line[i], line[i + 1], line[i + 2]
        yield line[i + 2], line[i + 1], line[i]


# Every (from, over, to): 2 starting places x 2 directions in each of the 8 lines = 32.
JUMPS: tuple[tuple[int, int, int], ...] = tuple(
    triple for line in LINES for triple in _jumps_along(line)
)
_OVER = {(frm, to): over for frm, over, to in JUMPS}

# Adjacent circles are consecutive in a row or a column (the board's connecting lines).
_STEPS = tuple(step for line in LINES for step in pairwise(line))
NEIGHBOURS: Mapping[int, frozenset[int]] = {
    circle: frozenset(b for a, b in _STEPS if a == circle)
    | frozenset(a for a, b in _STEPS if b == circle)
    for circle in CIRCLES
}


def is_adjacent(a: int, b: int) -> bool:
    return b in NEIGHBOURS[a]


def jump_over(frm: int, to: int) -> int | None:
    """The circle jumped when going from ``frm`` to ``to``, or None if that is no jump."""
    return _OVER.get((frm, to))


def circle_name(circle: int) -> str:
    return f"C{circle}"


def parse_circle(value: Any) -> int:
    """A circle given as ``"C7"``, ``"c7"`` or ``7``; IllegalEvent ``circle.unknown`` otherwise."""
    if isinstance(value, int) and not isinstance(value, bool) and value in CIRCLES:
        return value
    if isinstance(value, str) and _CIRCLE_TEXT.fullmatch(value):
        return int(value[1:])
    raise IllegalEvent(
        "circle.unknown",
        f"{value!r} is not a circle of the board; circles are C1 to C16.",
        circle=_printable(value),
    )


def parse_pawn(value: Any) -> str:
    """A pawn given as ``"B4"`` (any case); IllegalEvent ``pawn.unknown`` otherwise."""
    if isinstance(value, str) and _PAWN_TEXT.fullmatch(value):
        return value.upper()
    raise IllegalEvent(
        "pawn.unknown",
        f"{value!r} is not a pawn; pawns are a colour B, R, Y or G and 1 to 4 spots, as in B4.",
        pawn=_printable(value),
    )


def _printable(value: Any) -> Any:
    # Error data goes out as JSON: keep plain scalars, describe anything else.
    return value if isinstance(value, str | int | float | bool) or value is None else repr(value)


def colour_of(pawn: str) -> str:
    return pawn[0]


def spots_of(pawn: str) -> int:
    return int(pawn[1])


def is_low(pawn: str) -> bool:
    """A low pawn has 1 or 2 spots: the only pawns that may be taken off."""
    return spots_of(pawn) <= 2


def describe(pawn: str) -> str:
    """``"black 4-spot"`` for B4, for sentences."""
    return f"{COLOUR_NAMES[colour_of(pawn)]} {spots_of(pawn)}-spot"


def pawn_at(board: Board, circle: int) -> str | None:
    return board[circle - 1]


def with_pawn(board: Board, circle: int, pawn: str | None) -> Board:
    """A copy of ``board`` with ``circle`` holding ``pawn`` (None empties it)."""
    cells = list(board)
    cells[circle - 1] = pawn
    return tuple(cells)


def occupied(board: Board) -> list[tuple[int, str]]:
    """The (circle, pawn) pairs of the pawns on the board, in circle order."""
    return [(i + 1, pawn) for i, pawn in enumerate(board) if pawn is not None]


def spots_left(board: Board) -> int:
    return sum(spots_of(pawn) for _, pawn in occupied(board))


def board_as_dict(board: Board) -> dict[str, str | None]:
    """``{"C1": "B3", "C2": None, ...}`` with all 16 circles, as the API shows a board."""
    return {circle_name(i + 1): pawn for i, pawn in enumerate(board)}


def parse_position(
    position: Any, *, error: type[RuleError] = IllegalEvent, complete: bool = False
) -> Board:
    """A board from ``{"C7": "B4", ...}``; a None value leaves its circle empty.

    Refusals use ``error`` (IllegalEvent for an event, BadSetup for a game's setup) with the codes
    of RULES.md 2.4: ``setup.unknown_circle``, ``setup.unknown_pawn``, ``setup.duplicate_pawn``,
    ``setup.duplicate_circle`` (one circle named twice, as "C7" and 7), and with ``complete``
    ``setup.incomplete_layout`` unless all 16 pawns are placed.
    """
    if not isinstance(position, Mapping):
        raise error("setup.bad_position", "The position must be an object of circle: pawn.")
    cells: list[str | None] = list(EMPTY_BOARD)
    named: set[int] = set()
    for key, value in position.items():
        circle = _setup_circle(key, error)
        if circle in named:
            raise error(
                "setup.duplicate_circle",
                f"{circle_name(circle)} is named twice in the position.",
                circle=circle_name(circle),
            )
        named.add(circle)
        if value is not None:
            cells[circle - 1] = _setup_pawn(value, circle, cells, error)
    board = tuple(cells)
    if complete:
        _check_complete(board, error)
    return board


def _setup_circle(key: Any, error: type[RuleError]) -> int:
    try:
        return parse_circle(key)
    except IllegalEvent as refused:
        raise error("setup.unknown_circle", refused.template, **refused.data) from None


def _setup_pawn(
    value: Any, circle: int, cells: Sequence[str | None], error: type[RuleError]
) -> str:
    try:
        pawn = parse_pawn(value)
    except IllegalEvent as refused:
        message = f"{circle_name(circle)}: {refused.template}"
        raise error(
            "setup.unknown_pawn", message, circle=circle_name(circle), **refused.data
        ) from None
    if pawn in cells:
        where = circle_name(cells.index(pawn) + 1)
        raise error(
            "setup.duplicate_pawn",
            f"{pawn} is placed twice, on {where} and on {circle_name(circle)}.",
            pawn=pawn,
            circles=[where, circle_name(circle)],
        )
    return pawn


def _check_complete(board: Board, error: type[RuleError]) -> None:
    empty = [circle_name(i + 1) for i, pawn in enumerate(board) if pawn is None]
    if empty:
        missing = [pawn for pawn in ALL_PAWNS if pawn not in board]
        raise error(
            "setup.incomplete_layout",
            f"A layout puts all 16 pawns on the 16 circles; {', '.join(empty)} "
            f"{'is' if len(empty) == 1 else 'are'} empty and {', '.join(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} missing.",
            empty=empty,
            missing=missing,
        )


# --- moves shared by the jumping games (RULES.md 2.4; Singles and Doubles play "as Solitaire") ---


def is_legal_jump(board: Board, frm: int, over: int, to: int) -> bool:
    """``(frm, over, to)`` is a jump triple the pawns on ``board`` allow right now."""
    jumper, victim = board[frm - 1], board[over - 1]
    return (
        jumper is not None
        and victim is not None
        and board[to - 1] is None
        and colour_of(jumper) != colour_of(victim)
    )


def legal_jumps(board: Board) -> list[tuple[int, int, int]]:
    """Every legal (from, over, to) on ``board``, in the order of JUMPS."""
    return [triple for triple in JUMPS if is_legal_jump(board, *triple)]


# JUMPS as board indexes (circle - 1), for the end check below.
_JUMP_INDEXES = tuple((frm - 1, over - 1, to - 1) for frm, over, to in JUMPS)


def has_legal_jump(board: Board) -> bool:
    """``bool(legal_jumps(board))``, stopping at the first legal jump.

    The end check runs after every jump of every game and of every replay, so it skips building
    the list and the per-triple calls of is_legal_jump (same test, written inline).
    """
    for frm, over, to in _JUMP_INDEXES:
        jumper = board[frm]
        if jumper is None or board[to] is not None:
            continue
        victim = board[over]
        if victim is not None and jumper[0] != victim[0]:
            return True
    return False


def read_circle(event_type: str, data: Mapping[str, Any], name: str) -> int:
    """The circle in ``data[name]``: ``event.bad_data`` if absent or not text or a whole number."""
    if name not in data:
        raise IllegalEvent(
            "event.bad_data", f"{event_type} needs {name!r} in its data.", field=name
        )
    value = data[name]
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise IllegalEvent(
            "event.bad_data",
            f'{name!r} of {event_type} must be a circle such as "C7" or 7.',
            field=name,
        )
    return parse_circle(value)


def check_takeoff(board: Board, circle: int) -> str:
    """The pawn to take off from ``circle``, once it is found to be a low pawn."""
    pawn, where = pawn_at(board, circle), circle_name(circle)
    if pawn is None:
        raise IllegalEvent(
            "takeoff.empty_circle", f"There is no pawn on {where} to take off.", circle=where
        )
    if not is_low(pawn):
        raise IllegalEvent(
            "takeoff.not_low_pawn",
            f"{pawn} on {where} cannot be taken off: only a 1- or 2-spot pawn may be.",
            pawn=pawn,
            circle=where,
        )
    return pawn


def check_jump(board: Board, frm: int, to: int, said_over: int | None = None) -> int:
    """The jumped circle, once the jump ``frm`` -> ``to`` is found legal (RULES.md 2.4).

    ``said_over`` is the ``over`` circle the event gave, if it gave one.
    """
    jumper = pawn_at(board, frm)
    if jumper is None:
        raise IllegalEvent(
            "jump.empty_from",
            f"There is no pawn on {circle_name(frm)} to jump with.",
            circle=circle_name(frm),
        )
    over = jump_over(frm, to)
    if over is None:
        raise _not_straight(jumper, frm, to)
    if said_over is not None and said_over != over:
        raise _over_mismatch(frm, to, over, said_over)
    if not is_legal_jump(board, frm, over, to):
        raise _blocked_jump(board, jumper, frm, over, to)
    return over


def jumped(board: Board, frm: int, over: int, to: int) -> Board:
    """The board after the pawn on ``frm`` jumps the pawn on ``over`` and lands on ``to``."""
    cells = list(board)
    cells[to - 1], cells[frm - 1], cells[over - 1] = cells[frm - 1], None, None
    return tuple(cells)


def _not_straight(jumper: str, frm: int, to: int) -> IllegalEvent:
    return IllegalEvent(
        "jump.not_straight",
        f"{jumper} on {circle_name(frm)} cannot jump to {circle_name(to)}: a jump goes over "
        "one adjacent circle to the next circle in the same row or column.",
        pawn=jumper,
        circles=[circle_name(frm), circle_name(to)],
    )


def _over_mismatch(frm: int, to: int, over: int, said_over: int) -> IllegalEvent:
    return IllegalEvent(
        "jump.over_mismatch",
        f"A jump from {circle_name(frm)} to {circle_name(to)} goes over {circle_name(over)}, "
        f"not {circle_name(said_over)}.",
        circles=[circle_name(frm), circle_name(over), circle_name(to)],
        over=circle_name(said_over),
    )


def _blocked_jump(board: Board, jumper: str, frm: int, over: int, to: int) -> IllegalEvent:
    """Why a straight jump is refused: nothing to jump, same colour, or the landing taken."""
    victim, lander = pawn_at(board, over), pawn_at(board, to)
    start = f"{jumper} on {circle_name(frm)}"
    circles = [circle_name(frm), circle_name(over), circle_name(to)]
    if victim is None:
        return IllegalEvent(
            "jump.nothing_to_jump",
            f"{start} cannot jump to {circle_name(to)}: there is no pawn on {circle_name(over)}.",
            pawn=jumper,
            circles=circles,
        )
    jump = f"{start} cannot jump {victim} on {circle_name(over)}"
    if colour_of(victim) == colour_of(jumper):
        return IllegalEvent(
            "jump.same_colour",
            f"{jump}: pawns of one colour.",
            pawns=[jumper, victim],
            circles=circles,
        )
    return IllegalEvent(
        "jump.landing_occupied",
        f"{jump}: {circle_name(to)} is taken by {lander}.",
        pawns=[jumper, victim, lander],
        circles=circles,
    )
