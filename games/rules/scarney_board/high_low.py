"""High-Low Scarney (``high-low-scarney``): RULES.md section 5, one game of the match.

Two players. The starter chooses two colours and places first (as in Singles), then moves first.
In turn each removes a single pawn, or a pair or triple of one colour lying in one row or column
with no pawn of another colour between them, never the last pawn on the board (5.4). When one
pawn is left the game is over: a 3- or 4-spot last pawn wins for the player who moved last, a 1-
or 2-spot pawn loses for him (5.5). The winner scores the spots he removed, doubled if the last
pawn is black; the loser scores 0 (5.6).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, ClassVar

from games.rules.base import GameRules, Move, Result, SeatScore, make_ruleset
from games.rules.errors import BadSetup, IllegalEvent
from games.rules.events import REMOVED
from games.rules.scarney_board import placing, shapes
from games.rules.scarney_board.board import (
    ALL_PAWNS,
    CIRCLES,
    COLOURS,
    EMPTY_BOARD,
    LINES,
    TOTAL_SPOTS,
    Board,
    board_as_dict,
    circle_name,
    colour_of,
    occupied,
    parse_circle,
    pawn_at,
    spots_of,
)
from games.rules.scarney_board.placing import CHOOSING, PLACING, Sides
from games.rules.scarney_board.solve import duel
from games.rules.shapes import CIRCLE, PAWN, Boolean, Integer, ListOf, Nullable, Text, record

KIND = "high-low-scarney"
NAME = "High-Low Scarney"

PLAY, OVER = "play", "over"

EVENT_TYPES = placing.EVENT_TYPES | {REMOVED}

MOST_AT_ONCE = 3  # a single, a pair or a triple
HIGH_LOW_MIN = 3  # an undoubled winner's score is 3 to 34 (5.6, C.3)
HIGH_LOW_UNDOUBLED_MAX = 34
HIGH_LOW_DOUBLED_MAX = 2 * HIGH_LOW_UNDOUBLED_MAX  # doubled: even, 6 to 68


@dataclass(frozen=True, slots=True)
class Ruleset:
    """High-Low Scarney has no house rule of its own (RULES.md Appendix E) but the sheet check."""

    ALLOWED: ClassVar[Mapping[str, tuple[object, ...]]] = {
        "sheet_entry_validation": ("strict", "lenient"),
    }

    sheet_entry_validation: str = "strict"


@dataclass(frozen=True, slots=True)
class State:
    """One game: phase, roles, board, each seat's pile of removed pawns, and whose turn."""

    phase: str
    sides: Sides  # first: the starter
    board: Board = EMPTY_BOARD
    piles: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    to_move: int = 0  # the seat to remove (PLAY only)
    last_mover: int | None = None
    ruleset: Ruleset = field(default_factory=Ruleset)
    study: bool = False

    @property
    def starter(self) -> int:
        return self.sides.first

    @property
    def last_pawn(self) -> str | None:
        """The pawn left on the board once the game is over."""
        left = occupied(self.board)
        return left[0][1] if self.phase == OVER and len(left) == 1 else None


# --- what the game takes and shows (games/rules/shapes.py) -----------------------------------

SEAT = shapes.seat_shape(2)
LAST_MOVER = Nullable(SEAT, doc="the seat that removed last, null before the first removal")
LAST_PAWN = Nullable(PAWN, doc="the pawn left on the board once the game is over, else null")
EVENTS = {
    **shapes.PLACING_EVENTS,
    REMOVED: record(
        "A single pawn, or a pair or triple of one colour in one row or column with no pawn "
        "of another colour between them; never the last pawn on the board.",
        # How many is the rules' to judge (remove.count, RULES.md 5.4): bounded by the board.
        circles=ListOf(
            CIRCLE,
            len(CIRCLES),
            doc='the circles emptied, e.g. ["C5", 6]: one to three (another count is remove.count)',
        ),
    ),
}
SETUP = record(
    "The starter (the match gives him) and an optional study position (two pawns or more) "
    "with the player to move.",
    optional=("starter", "position", "to_move"),
    starter=shapes.setup_seat_shape(2, "the starter (null or left out: seat 0)"),
    position=shapes.STUDY_POSITION,
    to_move=shapes.setup_seat_shape(
        2, "the seat to move first in a study position (only with one; default the starter)"
    ),
)
VIEW = record(
    board=shapes.BOARD_VIEW,
    phase=Text(
        choices=(CHOOSING, PLACING, PLAY, OVER),
        doc="colours (the starter chooses), placing, play, or over",
    ),
    roles=record("The starter, who chooses the colours and moves first.", starter=SEAT),
    to_move=Nullable(SEAT, doc="the seat to act, null once the game is over"),
    colours=shapes.colours_view(2),
    unplaced=shapes.unplaced_view(2),
    credited=ListOf(
        ListOf(PAWN, len(ALL_PAWNS) - 1),
        2,
        2,
        doc="each seat's pile of the pawns it removed, in order",
    ),
    spots_removed=ListOf(Integer(0, TOTAL_SPOTS - 1), 2, 2, doc="the spots of each seat's pile"),
    last_mover=LAST_MOVER,
    last_pawn=LAST_PAWN,
    doubled=Boolean(doc="the last pawn is black: the winner's score is doubled"),
)


class HighLowRules(GameRules):
    """The rule engine of ``high-low-scarney`` (the ``Rules`` protocol of games.rules.base)."""

    kind = KIND
    title = "High-Low Scarney"
    ruleset_type: type[Any] = Ruleset
    events = EVENTS
    setup_shape = SETUP
    view_shape = VIEW
    report_shape = record(
        "The starter, the last pawn and who moved last (the match needs them, 5.3 and 5.5).",
        starter=SEAT,
        last_pawn=LAST_PAWN,
        last_mover=LAST_MOVER,
    )
    min_seats = 2
    max_seats = 2

    def start(self, setup: Mapping[str, Any], ruleset: Any, seats: int) -> State:
        """The starter's colour choice, or a study position (a trap) with the player to move."""
        placing.check_two_seats(seats, NAME)
        rules = ruleset if isinstance(ruleset, Ruleset) else make_ruleset(Ruleset, ruleset)
        given = setup
        starter = placing.setup_seat(given, "starter", 0, 2)
        sides = Sides(starter, 1 - starter)
        # A game ends with one pawn left, so a position needs two for a move to be made.
        position = placing.setup_position(given, fewest=2)
        if position is None:
            if given.get("to_move") is not None:
                raise BadSetup(
                    "setup.to_move_without_position",
                    "'to_move' is given only with a study position; a placed game starts with "
                    "the starter.",
                )
            return State(CHOOSING, sides, ruleset=rules)
        to_move = placing.setup_seat(given, "to_move", starter, 2)
        return State(PLAY, sides, position, to_move=to_move, ruleset=rules, study=True)

    def apply(self, state: State, move: Move) -> State:
        """The state after ``move``, or IllegalEvent with a RULES.md 5.4 refusal code."""
        placing.check_event(move, EVENT_TYPES, NAME, state.phase == OVER)
        if state.phase in (CHOOSING, PLACING):
            sides, board = placing.apply(state.sides, state.board, move)
            phase = placing.phase(sides, board) or PLAY
            # Play alternates, starter first (5.3).
            return dataclasses.replace(
                state, phase=phase, sides=sides, board=board, to_move=state.starter
            )
        if move.type != REMOVED:
            raise placing.refusal_after_placing(move, state.study)
        return _remove(state, read_circles(move.data))

    def expected(self, state: State) -> list[str]:
        if state.phase in (CHOOSING, PLACING):
            return placing.expected(state.sides, state.board)
        return [REMOVED] if state.phase == PLAY else []

    def legal_events(self, state: State) -> list[Move]:
        """Every colour choice, placement, or removal of a single, a pair or a triple."""
        if state.phase in (CHOOSING, PLACING):
            return placing.legal_moves(state.sides, state.board)
        if state.phase == PLAY:
            return [Move(REMOVED, {"circles": list(c)}) for c in legal_removals(state.board)]
        return []

    def current_player(self, state: State) -> int | None:
        if state.phase in (CHOOSING, PLACING):
            return placing.on_turn(state.sides, state.board)
        return state.to_move if state.phase == PLAY else None

    def is_terminal(self, state: State) -> bool:
        return state.phase == OVER

    def scores(self, state: State) -> tuple[SeatScore, ...]:
        """Nothing until the end; then the winner's pile, doubled on a black last pawn (5.6)."""
        winner = game_winner(state)
        return tuple(
            SeatScore(seat, winner_score(state) if seat == winner else 0) for seat in (0, 1)
        )

    def result(self, state: State) -> Result | None:
        winner = game_winner(state)
        if winner is None:
            return None
        return Result(self.scores(state), winners=(winner,))

    def analyse(self, states: Sequence[State]) -> dict[str, Any]:
        """Who wins from the position with best play, and a line (Analysable)."""
        return duel.analyse(self, states[-1])

    def view(self, state: State) -> dict[str, Any]:
        last = state.last_pawn
        return {
            "board": board_as_dict(state.board),
            "phase": state.phase,
            "roles": {"starter": state.starter},
            "to_move": self.current_player(state),
            **placing.view(state.sides, state.board, 2),
            "credited": [list(pile) for pile in state.piles],
            "spots_removed": [sum(spots_of(p) for p in pile) for pile in state.piles],
            "last_mover": state.last_mover,
            "last_pawn": last,
            "doubled": last is not None and colour_of(last) == "B",
        }

    def match_report(self, state: State) -> dict[str, Any]:
        """The starter, the last pawn and who moved last (the match needs them, 5.3 and 5.5)."""
        return {
            "starter": state.starter,
            "last_pawn": state.last_pawn,
            "last_mover": state.last_mover,
        }


# --- reading and checking a removal (RULES.md 5.4) ----------------------------------------------


def read_circles(data: Mapping[str, Any]) -> tuple[int, ...]:
    """The circles of ``pawns.removed``, each given as ``"C7"`` or ``7``."""
    given = data.get("circles")
    if not isinstance(given, list):
        raise IllegalEvent(
            "event.bad_data",
            "pawns.removed needs 'circles', a list of circles such as [\"C5\", 6].",
            field="circles",
        )
    if any(isinstance(c, bool) or not isinstance(c, int | str) for c in given):
        raise IllegalEvent(
            "event.bad_data",
            "Each of 'circles' of pawns.removed must be a circle such as \"C7\" or 7.",
            field="circles",
        )
    return tuple(parse_circle(c) for c in given)


def check_removal(board: Board, circles: Sequence[int]) -> tuple[str, ...]:
    """The pawns on ``circles``, once their removal is found legal; else the refusal of 5.4."""
    names = [circle_name(c) for c in circles]
    if not 1 <= len(circles) <= MOST_AT_ONCE:
        raise IllegalEvent(
            "remove.count",
            f"A move removes one, two or three pawns, not {len(circles)}.",
            circles=names,
        )
    twice = sorted({c for c in circles if circles.count(c) > 1})
    if twice:
        where = circle_name(twice[0])
        raise IllegalEvent(
            "remove.duplicate", f"{where} is named twice in one removal.", circle=where
        )
    empty = [c for c in circles if pawn_at(board, c) is None]
    if empty:
        where = circle_name(empty[0])
        raise IllegalEvent(
            "remove.empty_circle", f"There is no pawn on {where} to remove.", circle=where
        )
    pawns = tuple(p for c in circles if (p := pawn_at(board, c)) is not None)
    if len(circles) > 1:
        _check_group(board, circles, pawns)
    if len(pawns) == len(occupied(board)):
        raise IllegalEvent(
            "remove.last_pawn",
            f"Removing {_listed(pawns)} would leave no pawn: the last pawn always remains.",
            pawns=list(pawns),
        )
    return pawns


def _check_group(board: Board, circles: Sequence[int], pawns: tuple[str, ...]) -> None:
    """A pair or triple: one colour, one line, no other colour between the outermost (5.4)."""
    described = f"{_listed(pawns)} on {_listed(tuple(circle_name(c) for c in circles))}"
    if len({colour_of(p) for p in pawns}) > 1:
        raise IllegalEvent(
            "remove.mixed_colours",
            f"{described} cannot go together: a pair or triple is of one colour.",
            pawns=list(pawns),
        )
    line = next((line for line in LINES if set(circles) <= set(line)), None)
    if line is None:
        raise IllegalEvent(
            "remove.not_in_line",
            f"{described} are not in one row or column.",
            pawns=list(pawns),
        )
    blockers = _blockers(board, line, circles)
    if blockers:
        between = _listed(tuple(f"{pawn_at(board, c)} on {circle_name(c)}" for c in blockers))
        raise IllegalEvent(
            "remove.blocked",
            f"{described} cannot be removed together: another colour lies between them "
            f"({between}).",
            pawns=list(pawns),
            blockers=[circle_name(c) for c in blockers],
        )


def _blockers(board: Board, line: tuple[int, ...], circles: Sequence[int]) -> list[int]:
    """Circles strictly between the outermost chosen ones holding a pawn of another colour."""
    colour = colour_of(pawn_at(board, circles[0]) or "")
    places = sorted(line.index(c) for c in circles)
    inside = line[places[0] + 1 : places[-1]]
    return [c for c in inside if (p := pawn_at(board, c)) is not None and colour_of(p) != colour]


def legal_removals(board: Board) -> list[tuple[int, ...]]:
    """Every legal removal: each single, then each unblocked pair and triple, line by line."""
    left = occupied(board)
    if len(left) < 2:
        return []
    moves: list[tuple[int, ...]] = [(circle,) for circle, _ in left]
    largest = min(MOST_AT_ONCE, len(left) - 1)
    for line in LINES:
        # Each colour's circles on the line, in line order, sorted out in one pass.
        by_colour: dict[str, list[int]] = {}
        for c in line:
            if p := pawn_at(board, c):
                by_colour.setdefault(colour_of(p), []).append(c)
        for colour in COLOURS:
            ours = by_colour.get(colour, [])
            for size in range(2, min(largest, len(ours)) + 1):
                moves += [g for g in combinations(ours, size) if not _blockers(board, line, g)]
    return moves


def _remove(state: State, circles: tuple[int, ...]) -> State:
    pawns = check_removal(state.board, circles)
    cells = list(state.board)
    for circle in circles:
        cells[circle - 1] = None
    board = tuple(cells)
    mover = state.to_move
    pile = (*state.piles[mover], *pawns)
    piles = (pile, state.piles[1]) if mover == 0 else (state.piles[0], pile)
    phase = OVER if len(occupied(board)) == 1 else PLAY
    return dataclasses.replace(
        state, phase=phase, board=board, piles=piles, to_move=1 - mover, last_mover=mover
    )


def _listed(items: tuple[str, ...]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


# --- the end (RULES.md 5.5, 5.6) ----------------------------------------------------------------


def game_winner(state: State) -> int | None:
    """A high last pawn wins for the last mover, a low one loses for him; None while playing."""
    last = state.last_pawn
    if last is None or state.last_mover is None:
        return None
    return state.last_mover if spots_of(last) >= 3 else 1 - state.last_mover


def winner_score(state: State) -> int:
    """The spots the winner removed, doubled if the last pawn is black."""
    winner, last = game_winner(state), state.last_pawn
    if winner is None or last is None:
        return 0
    spots = sum(spots_of(pawn) for pawn in state.piles[winner])
    return 2 * spots if colour_of(last) == "B" else spots


def high_low_score_possible(score: int) -> bool:
    """A winner's game score C.3 allows: 3-34 undoubled, or even 6-68 doubled (black last pawn).

    The match's check of a sheet's line (:mod:`games.rules.scarney_board.matches`)."""
    if HIGH_LOW_MIN <= score <= HIGH_LOW_UNDOUBLED_MAX:
        return True
    return score % 2 == 0 and score <= HIGH_LOW_DOUBLED_MAX and score >= 2 * HIGH_LOW_MIN


HIGH_LOW = HighLowRules()
