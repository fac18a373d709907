"""Choosing colours and placing the pawns: the opening of every multi-player Scarney board game.

RULES.md 3.5 (``COLOURS`` and ``PLACING``), used as written by Singles (3.5), Doubles (4.3) and
High-Low Scarney (5.3-5.4). The first side (Singles: the active player; Doubles and High-Low: the
starter) chooses any two colours and so holds those eight pawns; the second side holds the other
eight. They place alternately, the first side first, one pawn of their own on any empty circle, 16
placements in all. The phase is read off the sides and the board, so a game keeps only those two.
The module also holds what the three games share around it: event checks and setup roles. The
placing's events and views and the seat shapes are declared in
:mod:`games.rules.scarney_board.shapes`.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from games.rules.base import Move, check_move
from games.rules.errors import BadSetup, IllegalEvent
from games.rules.scarney_board.board import (
    ALL_PAWNS,
    CIRCLES,
    COLOUR_NAMES,
    COLOURS,
    Board,
    circle_name,
    colour_of,
    occupied,
    parse_pawn,
    parse_position,
    pawn_at,
    read_circle,
    with_pawn,
)
from games.rules.wording import player_at

CHOOSING, PLACING = "colours", "placing"

COLOURS_CHOSEN = "colours.chosen"
PAWN_PLACED = "pawn.placed"
EVENT_TYPES = frozenset({COLOURS_CHOSEN, PAWN_PLACED})

# The six ways of choosing two of the four colours, as colours.chosen lists them.
COLOUR_PAIRS = tuple(combinations(COLOURS, 2))


@dataclass(frozen=True, slots=True)
class Sides:
    """The two seats placing the pawns; ``first`` chooses the colours and places first."""

    first: int
    second: int
    colours: tuple[str, ...] = ()  # the first side's two colours, once chosen

    def owner(self, pawn: str) -> int:
        """The seat holding ``pawn`` once the colours are chosen."""
        return self.first if colour_of(pawn) in self.colours else self.second

    def pawns_of(self, seat: int) -> tuple[str, ...]:
        """The eight pawns ``seat`` places (none for a seat that does not place)."""
        return _pawns_of(self.first, self.second, self.colours, seat)


# Remembered: every answer of a High-Low or Doubles game shows each seat's pawns, and there
# are only a few dozen ways to share the colours between two seats.
@functools.lru_cache(maxsize=256)
def _pawns_of(first: int, second: int, colours: tuple[str, ...], seat: int) -> tuple[str, ...]:
    if not colours or seat not in (first, second):
        return ()
    own = first if seat == first else second
    return tuple(
        pawn for pawn in ALL_PAWNS if (first if colour_of(pawn) in colours else second) == own
    )


def phase(sides: Sides, board: Board) -> str | None:
    """``CHOOSING``, ``PLACING``, or None once all 16 pawns stand on the board."""
    if not sides.colours:
        return CHOOSING
    return PLACING if len(occupied(board)) < len(ALL_PAWNS) else None


def placer(sides: Sides, board: Board) -> int:
    """The seat placing next: the first side places the 1st, 3rd, ... 15th pawns."""
    return sides.first if len(occupied(board)) % 2 == 0 else sides.second


def on_turn(sides: Sides, board: Board) -> int:
    """The seat to act while the colours are chosen or the pawns placed."""
    return sides.first if phase(sides, board) == CHOOSING else placer(sides, board)


def expected(sides: Sides, board: Board) -> list[str]:
    return [COLOURS_CHOSEN] if phase(sides, board) == CHOOSING else [PAWN_PLACED]


def legal_moves(sides: Sides, board: Board) -> list[Move]:
    """All six colour choices, or every unplaced pawn of the side on turn on every empty circle."""
    if phase(sides, board) == CHOOSING:
        return [Move(COLOURS_CHOSEN, {"colours": list(pair)}) for pair in COLOUR_PAIRS]
    empty = [circle for circle in CIRCLES if pawn_at(board, circle) is None]
    unplaced = [pawn for pawn in sides.pawns_of(placer(sides, board)) if pawn not in board]
    return [Move(PAWN_PLACED, {"circle": c, "pawn": p}) for p in unplaced for c in empty]


def apply(sides: Sides, board: Board, move: Move) -> tuple[Sides, Board]:
    """The sides and board after a colour choice or a placement; any other move is refused."""
    current = phase(sides, board)
    if current == CHOOSING and move.type == COLOURS_CHOSEN:
        return dataclasses.replace(sides, colours=read_colours(move.data)), board
    if current == PLACING and move.type == PAWN_PLACED:
        return sides, place(sides, board, move.data)
    raise refusal_while_placing(sides, board, move)


def read_colours(data: Mapping[str, Any]) -> tuple[str, ...]:
    """The two distinct colours of ``colours.chosen``, upper case, in the order of COLOURS."""
    if "colours" not in data:
        raise IllegalEvent(
            "event.bad_data", "colours.chosen needs 'colours' in its data.", field="colours"
        )
    given = data["colours"]
    names = [c.upper() for c in given if isinstance(c, str)] if isinstance(given, list) else []
    if len(names) != 2 or len(given) != 2 or len(set(names)) != 2 or set(names) - set(COLOURS):
        raise IllegalEvent(
            "colours.invalid",
            f"{_printable(given)!r} is not a choice of colours: choose two different colours "
            'of B, R, Y and G, as ["B", "R"].',
            colours=_printable(given),
        )
    return tuple(colour for colour in COLOURS if colour in names)


def place(sides: Sides, board: Board, data: Mapping[str, Any]) -> Board:
    """The board with the pawn of ``pawn.placed`` on its circle, once the placement is legal."""
    circle = _placement_circle(data)
    pawn = _placement_pawn(data)
    seat = placer(sides, board)
    if sides.owner(pawn) != seat:
        raise IllegalEvent(
            "place.not_your_pawn",
            f"It is {player_at(seat)}'s turn to place, and {pawn} is not one of his pawns: "
            f"{player_at(seat)} places the {_colour_words(sides, seat)} pawns.",
            pawn=pawn,
            seat=seat,
        )
    if pawn in board:
        where = circle_name(board.index(pawn) + 1)
        raise IllegalEvent(
            "place.already_placed",
            f"{pawn} is already placed, on {where}.",
            pawn=pawn,
            circle=where,
        )
    taken = pawn_at(board, circle)
    if taken is not None:
        raise IllegalEvent(
            "place.circle_occupied",
            f"{pawn} cannot go on {circle_name(circle)}: {taken} stands there.",
            pawn=pawn,
            circle=circle_name(circle),
            occupant=taken,
        )
    return with_pawn(board, circle, pawn)


def _placement_circle(data: Mapping[str, Any]) -> int:
    try:
        return read_circle(PAWN_PLACED, data, "circle")
    except IllegalEvent as refused:
        if refused.code != "circle.unknown":
            raise
        raise IllegalEvent("setup.unknown_circle", refused.template, **refused.data) from None


def _placement_pawn(data: Mapping[str, Any]) -> str:
    if "pawn" not in data:
        raise IllegalEvent("event.bad_data", "pawn.placed needs 'pawn' in its data.", field="pawn")
    try:
        return parse_pawn(data["pawn"])
    except IllegalEvent as refused:
        raise IllegalEvent("setup.unknown_pawn", refused.template, **refused.data) from None


def refusal_while_placing(sides: Sides, board: Board, move: Move) -> IllegalEvent:
    """Why ``move`` cannot be recorded before all 16 pawns are placed."""
    if phase(sides, board) == CHOOSING:
        return IllegalEvent(
            "colours.required",
            f"{player_at(sides.first)} must first choose two colours (colours.chosen), "
            f"before {move.type}.",
            seat=sides.first,
        )
    if move.type == COLOURS_CHOSEN:
        return IllegalEvent(
            "colours.already_chosen",
            f"The colours are already chosen: {player_at(sides.first)} holds the "
            f"{_colour_words(sides, sides.first)} pawns.",
        )
    left = len(ALL_PAWNS) - len(occupied(board))
    return IllegalEvent(
        "place.required",
        f"All 16 pawns must be placed before {move.type}; {left} still to place, "
        f"{player_at(placer(sides, board))} next.",
        seat=placer(sides, board),
    )


def refusal_after_placing(move: Move, study: bool) -> IllegalEvent:
    """Why a colour choice or a placement comes too late (the board is set)."""
    if study:
        why = "a study position starts with its pawns in place"
    else:
        why = "all 16 pawns are placed"
    if move.type == COLOURS_CHOSEN:
        return IllegalEvent("colours.already_chosen", f"Colours cannot be chosen now: {why}.")
    return IllegalEvent("place.all_placed", f"No pawn can be placed now: {why}.")


def view(sides: Sides, board: Board, seats: int) -> dict[str, Any]:
    """Each seat's colours and the pawns it still has to place (lists by seat)."""
    held = [{colour_of(p) for p in sides.pawns_of(seat)} for seat in range(seats)]
    colours = [[c for c in COLOURS if c in mine] for mine in held]
    unplaced = [[p for p in sides.pawns_of(seat) if p not in board] for seat in range(seats)]
    return {"colours": colours, "unplaced": unplaced}


def _colour_words(sides: Sides, seat: int) -> str:
    names = sorted({COLOUR_NAMES[colour_of(pawn)] for pawn in sides.pawns_of(seat)})
    return " and ".join(names)


def _printable(value: Any) -> Any:
    # Error data goes out as JSON: keep plain values, describe anything else.
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, list) and all(isinstance(v, str | int | float | bool) for v in value):
        return value
    return repr(value)


# --- what the three games share besides the placing: events and setups ------------------------


def check_event(move: Move, types: frozenset[str], game: str, over: bool) -> None:
    """Refuse an unknown event type, data that is not an object, and any move after the end."""
    check_move(move, types, game, over)


def check_two_seats(seats: int, game: str) -> None:
    """Refuse a seat count other than two (Doubles and High-Low are two-player games)."""
    if seats != 2:
        raise BadSetup("game.bad_seats", f"{game} has two players, not {seats}.", seats=seats)


def setup_seat(setup: Mapping[str, Any], key: str, default: int, seats: int) -> int:
    """The seat ``setup[key]`` names (absent or null: ``default``), checked against the table."""
    value = setup.get(key)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
        raise BadSetup(
            "setup.bad_seat",
            f"{key!r} must be a seat number from 0 to {seats - 1}, not {_printable(value)!r}.",
            key=key,
        )
    return int(value)


def setup_position(setup: Mapping[str, Any], fewest: int = 1) -> Board | None:
    """The study position of ``setup``, or None when the pawns are to be placed at the table."""
    if setup.get("position") is None:
        return None
    board = parse_position(setup["position"], error=BadSetup)
    count = len(occupied(board))
    if count < fewest:
        raise BadSetup(
            "setup.empty_position" if count == 0 else "setup.too_few_pawns",
            f"A study position of this game needs at least {fewest} "
            f"pawn{'s' if fewest > 1 else ''}; this one has {count}.",
            pawns=count,
        )
    return board
