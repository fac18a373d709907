"""Scarney Doubles (``scarney-doubles``): RULES.md section 4, one game of the match.

Two players on one board. The starter chooses two colours and places first; the nonstarter places
second and moves first. Each takes off one low pawn (nonstarter, then starter; both credited per
D-DBL-1), then they jump in turn with any pawn, each capture credited to the jumper. When no jump
is left, the last jumper calls Scarney and sweeps every pawn still on the board (nobody jumped:
the starter, who moved last, D-DBL-3). All 16 pawns are credited to someone, so the two game
scores always total 40 (RULES.md 4.4). No bonuses.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from games.rules.base import GameRules, Move, Result, SeatScore, highest_wins, make_ruleset
from games.rules.errors import BadSetup, IllegalEvent
from games.rules.events import JUMPED, SCARNEY_CALLED, TAKEN_OFF
from games.rules.scarney_board import placing, shapes
from games.rules.scarney_board.board import (
    ALL_PAWNS,
    EMPTY_BOARD,
    Board,
    board_as_dict,
    circle_name,
    has_legal_jump,
    legal_jumps,
    occupied,
    spots_of,
)
from games.rules.scarney_board.placing import CHOOSING, PLACING, Sides
from games.rules.scarney_board.singles import (
    jump,
    jump_moves,
    take_off,
    takeoff_already_made,
    takeoff_moves,
    takeoff_required,
)
from games.rules.scarney_board.solve import duel
from games.rules.shapes import PAWN, ListOf, Nullable, Text, record

KIND = "scarney-doubles"
NAME = "Scarney Doubles"

TAKEOFF_1, TAKEOFF_2, JUMPING, OVER = "takeoff_1", "takeoff_2", "jumping", "over"

EVENT_TYPES = placing.EVENT_TYPES | {TAKEN_OFF, JUMPED, SCARNEY_CALLED}


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The house rules of Scarney Doubles (RULES.md Appendix E) with their defaults."""

    ALLOWED: ClassVar[Mapping[str, tuple[object, ...]]] = {
        "doubles_second_takeoff_credit": ("nonstarter", "remover"),
        "doubles_allow_premature_call": (True, False),
        "doubles_next_starter": ("alternate", "loser"),
        "sheet_entry_validation": ("strict", "lenient"),
    }

    doubles_second_takeoff_credit: str = "nonstarter"  # D-DBL-1, literal
    doubles_allow_premature_call: bool = False  # D-DBL-2
    doubles_next_starter: str = "alternate"  # D-DBL-4: a match rule, carried by its games
    sheet_entry_validation: str = "strict"


@dataclass(frozen=True, slots=True)
class State:
    """One game: phase, roles, board, each seat's credited pawns, whose jump, and the sweep."""

    phase: str
    sides: Sides  # first: the starter; second: the nonstarter
    board: Board = EMPTY_BOARD
    credited: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    taken_off: tuple[str, ...] = ()
    to_move: int = 0  # the seat to jump (JUMPING only)
    last_jumper: int | None = None
    sweeper: int | None = None
    sweep: tuple[str, ...] = ()
    ruleset: Ruleset = field(default_factory=Ruleset)
    study: bool = False

    @property
    def starter(self) -> int:
        return self.sides.first

    @property
    def nonstarter(self) -> int:
        return self.sides.second


# --- what the game takes and shows (games/rules/shapes.py) -----------------------------------

SEAT = shapes.seat_shape(2)
EVENTS = {
    **shapes.PLACING_EVENTS,
    TAKEN_OFF: shapes.TAKEOFF_DATA,
    JUMPED: shapes.JUMP_DATA,
    SCARNEY_CALLED: record(
        "A premature call by the player who has just jumped: he sweeps the board. Only under "
        "doubles_allow_premature_call (with no jump left the game ends by itself)."
    ),
}
SETUP = record(
    "The starter (the match gives him) and an optional study position with the player to jump.",
    optional=("starter", "position", "to_move"),
    starter=shapes.setup_seat_shape(2, "the starter (null or left out: seat 0)"),
    position=shapes.STUDY_POSITION,
    to_move=shapes.setup_seat_shape(
        2, "the seat to jump first in a study position (only with one; default the nonstarter)"
    ),
)
VIEW = record(
    board=shapes.BOARD_VIEW,
    phase=Text(
        choices=(CHOOSING, PLACING, TAKEOFF_1, TAKEOFF_2, JUMPING, OVER),
        doc="colours (the starter chooses), placing, takeoff_1 (the nonstarter's), takeoff_2 "
        "(the starter's), jumping, or over",
    ),
    roles=record("The starter and the nonstarter.", starter=SEAT, nonstarter=SEAT),
    to_move=Nullable(SEAT, doc="the seat to act, null once the game is over"),
    colours=shapes.colours_view(2),
    unplaced=shapes.unplaced_view(2),
    taken_off=ListOf(PAWN, 2, doc="the pawns taken off: the nonstarter's, then the starter's"),
    credited=ListOf(
        ListOf(PAWN, len(ALL_PAWNS)),
        2,
        2,
        doc="each seat's pawns: its take-offs (D-DBL-1), its captures, then its sweep",
    ),
    sweep=Nullable(
        record(
            "Who swept the pawns left at the end, and which.",
            seat=SEAT,
            pawns=ListOf(PAWN, len(ALL_PAWNS), doc="the pawns swept, in circle order"),
        ),
        doc="null until the game is over",
    ),
)


class DoublesRules(GameRules):
    """The rule engine of ``scarney-doubles`` (the ``Rules`` protocol of games.rules.base)."""

    kind = KIND
    title = "Scarney Doubles"
    ruleset_type: type[Any] = Ruleset
    events = EVENTS
    setup_shape = SETUP
    view_shape = VIEW
    report_shape = record("The starter of the finished game.", starter=SEAT)
    min_seats = 2
    max_seats = 2

    def start(self, setup: Mapping[str, Any], ruleset: Any, seats: int) -> State:
        """The starter's colour choice, or a study position with the player to jump."""
        placing.check_two_seats(seats, NAME)
        rules = ruleset if isinstance(ruleset, Ruleset) else make_ruleset(Ruleset, ruleset)
        given = setup
        starter = placing.setup_seat(given, "starter", 0, 2)
        sides = Sides(starter, 1 - starter)
        position = placing.setup_position(given)
        if position is None:
            if given.get("to_move") is not None:
                raise _to_move_without_position()
            return State(CHOOSING, sides, ruleset=rules)
        # A study position starts with jumps, no take-off, nobody credited yet.
        to_move = placing.setup_seat(given, "to_move", sides.second, 2)
        state = State(JUMPING, sides, position, to_move=to_move, ruleset=rules, study=True)
        return _end_check(state)

    def apply(self, state: State, move: Move) -> State:
        """The state after ``move``, or IllegalEvent with a RULES.md 4.3 refusal code."""
        placing.check_event(move, EVENT_TYPES, NAME, state.phase == OVER)
        return _PHASES[state.phase](state, move)

    def expected(self, state: State) -> list[str]:
        """Event types the table may record next."""
        if state.phase in (CHOOSING, PLACING):
            return placing.expected(state.sides, state.board)
        if state.phase in (TAKEOFF_1, TAKEOFF_2):
            return [TAKEN_OFF]
        if state.phase == JUMPING:
            return [JUMPED, SCARNEY_CALLED] if _call_allowed(state) else [JUMPED]
        return []

    def legal_events(self, state: State) -> list[Move]:
        """Every colour choice, placement, take-off or jump, and the call where the rules let it."""
        if state.phase in (CHOOSING, PLACING):
            return placing.legal_moves(state.sides, state.board)
        if state.phase in (TAKEOFF_1, TAKEOFF_2):
            return takeoff_moves(state.board)
        if state.phase == JUMPING:
            call = [Move(SCARNEY_CALLED, {})] if _call_allowed(state) else []
            return [*jump_moves(state.board), *call]
        return []

    def current_player(self, state: State) -> int | None:
        if state.phase in (CHOOSING, PLACING):
            return placing.on_turn(state.sides, state.board)
        return {TAKEOFF_1: state.nonstarter, TAKEOFF_2: state.starter, JUMPING: state.to_move}.get(
            state.phase
        )

    def is_terminal(self, state: State) -> bool:
        return state.phase == OVER

    def scores(self, state: State) -> tuple[SeatScore, ...]:
        """Spots of every pawn credited to each seat: take-offs, captures and the sweep."""
        return tuple(SeatScore(seat, _spots(credited_pawns(state, seat))) for seat in (0, 1))

    def result(self, state: State) -> Result | None:
        """Both scores; the higher wins (a 20-20 game has two winners)."""
        if state.phase != OVER:
            return None
        return highest_wins(self.scores(state))

    def analyse(self, states: Sequence[State]) -> dict[str, Any]:
        """Who wins from the position with best play, and a line (Analysable)."""
        return duel.analyse(self, states[-1])

    def view(self, state: State) -> dict[str, Any]:
        sweep = None
        if state.sweeper is not None:
            sweep = {"seat": state.sweeper, "pawns": list(state.sweep)}
        return {
            "board": board_as_dict(state.board),
            "phase": state.phase,
            "roles": {"starter": state.starter, "nonstarter": state.nonstarter},
            "to_move": self.current_player(state),
            **placing.view(state.sides, state.board, 2),
            "taken_off": list(state.taken_off),
            "credited": [list(credited_pawns(state, seat)) for seat in (0, 1)],
            "sweep": sweep,
        }

    def match_report(self, state: State) -> dict[str, Any]:
        """The starter of the finished game (the match decides the next one's, D-DBL-4)."""
        return {"starter": state.starter}


def credited_pawns(state: State, seat: int) -> tuple[str, ...]:
    """The pawns credited to ``seat``: take-offs, captures, then the sweep."""
    swept = state.sweep if state.sweeper == seat else ()
    return state.credited[seat] + swept


def _spots(pawns: tuple[str, ...]) -> int:
    return sum(spots_of(pawn) for pawn in pawns)


def _credit(state: State, seat: int, pawn: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    mine = (*state.credited[seat], pawn)
    return (mine, state.credited[1]) if seat == 0 else (state.credited[0], mine)


# --- moves by phase ------------------------------------------------------------------------------


def _while_placing(state: State, move: Move) -> State:
    if move.type == SCARNEY_CALLED:
        raise _scarney_not_due("the pawns are still being placed")
    sides, board = placing.apply(state.sides, state.board, move)
    phase = placing.phase(sides, board) or TAKEOFF_1
    return dataclasses.replace(state, phase=phase, sides=sides, board=board)


def _in_takeoff(state: State, move: Move) -> State:
    if move.type == TAKEN_OFF:
        return _take_off(state, move)
    if move.type == SCARNEY_CALLED:
        raise _scarney_not_due("both take-offs come first")
    if move.type == JUMPED:
        raise takeoff_required()
    raise placing.refusal_after_placing(move, state.study)


def _take_off(state: State, move: Move) -> State:
    """The nonstarter's take-off, credited to him; then the starter's, credited per D-DBL-1."""
    board, pawn = take_off(state.board, move)
    taken_off = (*state.taken_off, pawn)
    if state.phase == TAKEOFF_1:
        credited = _credit(state, state.nonstarter, pawn)
        return dataclasses.replace(
            state, phase=TAKEOFF_2, board=board, credited=credited, taken_off=taken_off
        )
    by_remover = state.ruleset.doubles_second_takeoff_credit == "remover"
    credited = _credit(state, state.starter if by_remover else state.nonstarter, pawn)
    after = dataclasses.replace(
        state,
        phase=JUMPING,
        board=board,
        credited=credited,
        taken_off=taken_off,
        to_move=state.nonstarter,  # the nonstarter moves first in play
    )
    return _end_check(after)


def _in_jumping(state: State, move: Move) -> State:
    if move.type == JUMPED:
        board, victim = jump(state.board, move)
        jumper = state.to_move
        after = dataclasses.replace(
            state,
            board=board,
            credited=_credit(state, jumper, victim),
            to_move=1 - jumper,
            last_jumper=jumper,
        )
        return _end_check(after)
    if move.type == SCARNEY_CALLED:
        return _call(state)
    if move.type == TAKEN_OFF:
        raise takeoff_already_made(state.taken_off, state.study)
    raise placing.refusal_after_placing(move, state.study)


def _call(state: State) -> State:
    """A premature call (house rule): the player who just jumped sweeps the board."""
    if not state.ruleset.doubles_allow_premature_call:
        f, o, t = legal_jumps(state.board)[0]  # JUMPING always has one (end check)
        jumper, victim = state.board[f - 1], state.board[o - 1]
        raise _scarney_not_due(
            f"jumps remain ({jumper} on {circle_name(f)} can still jump {victim} on "
            f"{circle_name(o)} to {circle_name(t)}); the game ends only when none is left "
            "(house rule doubles_allow_premature_call is off)"
        )
    if state.last_jumper is None:
        raise _scarney_not_due("only the player who has just jumped may call, and nobody has")
    return _swept(state, state.last_jumper)


def _end_check(state: State) -> State:
    """No jump left: the last jumper sweeps; if nobody jumped, the last mover does (D-DBL-3)."""
    if state.phase != JUMPING or has_legal_jump(state.board):
        return state
    # In a full game the last mover before any jump is the starter, by his take-off.
    last_mover = state.last_jumper if state.last_jumper is not None else 1 - state.to_move
    return _swept(state, last_mover)


def _swept(state: State, sweeper: int) -> State:
    sweep = tuple(pawn for _, pawn in occupied(state.board))
    return dataclasses.replace(state, phase=OVER, sweeper=sweeper, sweep=sweep)


def _call_allowed(state: State) -> bool:
    return state.ruleset.doubles_allow_premature_call and state.last_jumper is not None


_PHASES = {
    CHOOSING: _while_placing,
    PLACING: _while_placing,
    TAKEOFF_1: _in_takeoff,
    TAKEOFF_2: _in_takeoff,
    JUMPING: _in_jumping,
}


def _scarney_not_due(why: str) -> IllegalEvent:
    return IllegalEvent("game.scarney_not_due", f"Scarney cannot be called now: {why}.")


def _to_move_without_position() -> BadSetup:
    return BadSetup(
        "setup.to_move_without_position",
        "'to_move' is given only with a study position; a placed game starts with the nonstarter.",
    )


DOUBLES = DoublesRules()
