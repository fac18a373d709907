"""Scarney Singles (``scarney-singles``): RULES.md section 3, one game of the match.

Two to sixteen players take turns as the active player. In each game the active player chooses two
colours and places those eight pawns, alternately with the opponent (the player on his right) who
places the other eight; then the active player alone takes off a low pawn and jumps as in
Solitaire. He may call Scarney at any time after the take-off, ending the game even with jumps
left (D-SGL-3, D-SGL-4). The game scores exactly as Solitaire (RULES.md 2.5), for the active
player only; everyone else scores nothing in that game.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from games.rules.base import GameRules, Move, Result, SeatScore, check_seat_count, make_ruleset
from games.rules.errors import BadSetup, IllegalEvent
from games.rules.events import JUMPED, SCARNEY_CALLED, TAKEN_OFF
from games.rules.scarney_board import placing, shapes
from games.rules.scarney_board.board import (
    ALL_PAWNS,
    EMPTY_BOARD,
    TOTAL_SPOTS,
    Board,
    board_as_dict,
    check_jump,
    check_takeoff,
    has_legal_jump,
    is_low,
    jumped,
    legal_jumps,
    occupied,
    read_circle,
    spots_left,
    with_pawn,
)
from games.rules.scarney_board.placing import CHOOSING, PLACING, Sides
from games.rules.scarney_board.solitaire import final_bonuses
from games.rules.shapes import PAWN, Boolean, ListOf, Nullable, Text, record
from games.rules.wording import player_at

KIND = "scarney-singles"
NAME = "Scarney Singles"

TAKEOFF, JUMPING, OVER = "takeoff", "jumping", "over"

EVENT_TYPES = placing.EVENT_TYPES | {TAKEN_OFF, JUMPED, SCARNEY_CALLED}


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The house rules of Scarney Singles (RULES.md Appendix E) with their defaults."""

    ALLOWED: ClassVar[Mapping[str, tuple[object, ...]]] = {
        "singles_tiebreak_games_count": (True, False),
        "sheet_entry_validation": ("strict", "lenient"),
    }

    # D-SGL-5: a match rule; kept here so a match's games carry the match's ruleset.
    singles_tiebreak_games_count: bool = True
    sheet_entry_validation: str = "strict"


@dataclass(frozen=True, slots=True)
class State:
    """One game: the phase, who is active and who helps place, the board, the pawns removed."""

    phase: str
    seats: int
    sides: Sides  # first: the active player; second: the opponent
    board: Board = EMPTY_BOARD
    removed: tuple[str, ...] = ()
    ruleset: Ruleset = field(default_factory=Ruleset)
    study: bool = False
    called: bool = False  # ended by a Scarney call rather than by the position

    @property
    def active(self) -> int:
        return self.sides.first

    @property
    def opponent(self) -> int:
        return self.sides.second


MAX_SEATS = 16  # D-SGL-7

# --- what the game takes and shows (games/rules/shapes.py) -----------------------------------

SEAT = shapes.seat_shape(MAX_SEATS)
EVENTS = {
    **shapes.PLACING_EVENTS,
    TAKEN_OFF: shapes.TAKEOFF_DATA,
    JUMPED: shapes.JUMP_DATA,
    SCARNEY_CALLED: record(
        "The active player ends his game, jumps left or not: any time after the take-off."
    ),
}
SETUP = record(
    "The game's roles (the match gives them) and an optional study position.",
    optional=("active", "opponent", "position"),
    active=shapes.setup_seat_shape(MAX_SEATS, "the active player (null or left out: seat 0)"),
    opponent=shapes.setup_seat_shape(
        MAX_SEATS, "the opponent: always the seat on the active player's right (D-SGL-1)"
    ),
    position=shapes.STUDY_POSITION,
)
REPORT = record(
    "Who was active in the finished game, and his opponent.",
    active=SEAT,
    opponent=SEAT,
)
VIEW = record(
    board=shapes.BOARD_VIEW,
    phase=Text(
        choices=(CHOOSING, PLACING, TAKEOFF, JUMPING, OVER),
        doc="colours (the active player chooses), placing, takeoff, jumping, or over",
    ),
    roles=record(
        "The active player, who alone scores, and the opponent on his right, who helps place.",
        active=SEAT,
        opponent=SEAT,
    ),
    to_move=Nullable(SEAT, doc="the seat to act, null once the game is over"),
    colours=shapes.colours_view(MAX_SEATS),
    unplaced=shapes.unplaced_view(MAX_SEATS),
    removed=ListOf(PAWN, len(ALL_PAWNS) - 1, doc="the pawns taken off and jumped, in order"),
    credited=ListOf(
        ListOf(PAWN, len(ALL_PAWNS) - 1),
        MAX_SEATS,
        2,
        doc="each seat's pawns: the active player's removed pawns, nothing for the others",
    ),
    called=Boolean(doc="the game was ended by a Scarney call rather than by the position"),
)


class SinglesRules(GameRules):
    """The rule engine of ``scarney-singles`` (the ``Rules`` protocol of games.rules.base)."""

    kind = KIND
    title = "Scarney Singles"
    ruleset_type: type[Any] = Ruleset
    events = EVENTS
    setup_shape = SETUP
    view_shape = VIEW
    report_shape = REPORT
    min_seats = 2
    max_seats = MAX_SEATS

    def start(self, setup: Mapping[str, Any], ruleset: Any, seats: int) -> State:
        """The colour choice of the active player, or a study position ready for jumps."""
        check_seat_count(self, seats, NAME)
        rules = ruleset if isinstance(ruleset, Ruleset) else make_ruleset(Ruleset, ruleset)
        given = setup
        sides = _roles(given, seats)
        position = placing.setup_position(given)
        if position is None:
            return State(CHOOSING, seats, sides, ruleset=rules)
        # A study position skips the colours, the placing and the take-off (RULES.md 3.5).
        return _end_check(State(JUMPING, seats, sides, position, ruleset=rules, study=True))

    def apply(self, state: State, move: Move) -> State:
        """The state after ``move``, or IllegalEvent with a RULES.md 3.5 refusal code."""
        placing.check_event(move, EVENT_TYPES, NAME, state.phase == OVER)
        return _PHASES[state.phase](state, move)

    def expected(self, state: State) -> list[str]:
        """Event types the table may record next."""
        if state.phase in (CHOOSING, PLACING):
            return placing.expected(state.sides, state.board)
        return {TAKEOFF: [TAKEN_OFF], JUMPING: [JUMPED, SCARNEY_CALLED]}.get(state.phase, [])

    def legal_events(self, state: State) -> list[Move]:
        """Every colour choice, placement, take-off or jump, and the call once it is due."""
        if state.phase in (CHOOSING, PLACING):
            return placing.legal_moves(state.sides, state.board)
        if state.phase == TAKEOFF:
            return takeoff_moves(state.board)
        if state.phase == JUMPING:
            return [*jump_moves(state.board), Move(SCARNEY_CALLED, {})]
        return []

    def current_player(self, state: State) -> int | None:
        if state.phase in (CHOOSING, PLACING):
            return placing.on_turn(state.sides, state.board)
        return None if state.phase == OVER else state.active

    def is_terminal(self, state: State) -> bool:
        return state.phase == OVER

    def scores(self, state: State) -> tuple[SeatScore, ...]:
        """The active player's score as in Solitaire (bonus once over); 0 for everyone else."""
        return tuple(
            _active_score(state) if seat == state.active else SeatScore(seat, 0)
            for seat in range(state.seats)
        )

    def result(self, state: State) -> Result | None:
        if state.phase != OVER:
            return None
        return Result(self.scores(state), winners=(state.active,))

    def view(self, state: State) -> dict[str, Any]:
        credited = [list(state.removed) if s == state.active else [] for s in range(state.seats)]
        return {
            "board": board_as_dict(state.board),
            "phase": state.phase,
            "roles": {"active": state.active, "opponent": state.opponent},
            "to_move": self.current_player(state),
            **placing.view(state.sides, state.board, state.seats),
            "removed": list(state.removed),
            "credited": credited,
            "called": state.called,
        }

    def match_report(self, state: State) -> dict[str, Any]:
        """Who was active in the finished game (the match rotates the role)."""
        return {"active": state.active, "opponent": state.opponent}


# --- setup ---------------------------------------------------------------------------------------


def _roles(setup: Mapping[str, Any], seats: int) -> Sides:
    """The active player (default seat 0) and the opponent, always the seat on his right."""
    active = placing.setup_seat(setup, "active", 0, seats)
    right = (active - 1) % seats
    opponent = placing.setup_seat(setup, "opponent", right, seats)
    if opponent == active:
        raise BadSetup(
            "setup.same_seat",
            f"{player_at(active)} cannot be both the active player and the opponent.",
            seat=active,
        )
    if opponent != right:
        # D-SGL-1 is fixed: the match names the opponent only to state it, never to choose.
        raise BadSetup(
            "setup.bad_opponent",
            f"The opponent of {player_at(active)}, the active player, is {player_at(right)}, the "
            f"player on his right (D-SGL-1), not {player_at(opponent)}.",
            opponent=right,
        )
    return Sides(active, opponent)


# --- moves by phase ------------------------------------------------------------------------------


def _while_placing(state: State, move: Move) -> State:
    if move.type == SCARNEY_CALLED:
        raise _scarney_not_due()
    sides, board = placing.apply(state.sides, state.board, move)
    phase = placing.phase(sides, board) or TAKEOFF
    return dataclasses.replace(state, phase=phase, sides=sides, board=board)


def _in_takeoff(state: State, move: Move) -> State:
    if move.type == TAKEN_OFF:
        board, pawn = take_off(state.board, move)
        after = dataclasses.replace(state, phase=JUMPING, board=board, removed=(pawn,))
        return _end_check(after)
    if move.type == SCARNEY_CALLED:
        raise _scarney_not_due()
    if move.type == JUMPED:
        raise takeoff_required()
    raise placing.refusal_after_placing(move, state.study)


def _in_jumping(state: State, move: Move) -> State:
    if move.type == JUMPED:
        board, victim = jump(state.board, move)
        return _end_check(dataclasses.replace(state, board=board, removed=(*state.removed, victim)))
    if move.type == SCARNEY_CALLED:
        # D-SGL-3: the call ends the game even with jumps left.
        return dataclasses.replace(state, phase=OVER, called=True)
    if move.type == TAKEN_OFF:
        raise takeoff_already_made(state.removed[:1], state.study)
    raise placing.refusal_after_placing(move, state.study)


def _end_check(state: State) -> State:
    """No legal jump left: the game ends (the call is implied)."""
    if state.phase == JUMPING and not has_legal_jump(state.board):
        return dataclasses.replace(state, phase=OVER)
    return state


_PHASES = {
    CHOOSING: _while_placing,
    PLACING: _while_placing,
    TAKEOFF: _in_takeoff,
    JUMPING: _in_jumping,
}


def _active_score(state: State) -> SeatScore:
    if state.phase in (CHOOSING, PLACING):
        return SeatScore(state.active, 0)
    bonuses = final_bonuses(state.board) if state.phase == OVER else ()
    return SeatScore(state.active, TOTAL_SPOTS - spots_left(state.board), bonuses)


def _scarney_not_due() -> IllegalEvent:
    return IllegalEvent(
        "game.scarney_not_due",
        "Scarney cannot be called before the take-off: a 1- or 2-spot pawn must come off first.",
    )


# --- the take-off and the jump, shared with Scarney Doubles (both play "as Solitaire") ---------


def take_off(board: Board, move: Move) -> tuple[Board, str]:
    """The board without the low pawn ``pawn.taken_off`` names, and that pawn."""
    circle = read_circle(move.type, move.data, "circle")
    pawn = check_takeoff(board, circle)
    return with_pawn(board, circle, None), pawn


def jump(board: Board, move: Move) -> tuple[Board, str]:
    """The board after the jump ``pawn.jumped`` gives, once legal, and the pawn jumped."""
    frm = read_circle(move.type, move.data, "from")
    to = read_circle(move.type, move.data, "to")
    # "over" is optional and only checked when given (API: null counts as not given).
    given = move.data.get("over") is not None
    said_over = read_circle(move.type, move.data, "over") if given else None
    over = check_jump(board, frm, to, said_over)
    victim = board[over - 1]
    assert victim is not None  # check_jump refuses a jump over an empty circle
    return jumped(board, frm, over, to), victim


def takeoff_moves(board: Board) -> list[Move]:
    return [Move(TAKEN_OFF, {"circle": c}) for c, pawn in occupied(board) if is_low(pawn)]


def jump_moves(board: Board) -> list[Move]:
    return [Move(JUMPED, {"from": f, "to": t}) for f, _, t in legal_jumps(board)]


def takeoff_required() -> IllegalEvent:
    return IllegalEvent(
        "takeoff.required", "A 1- or 2-spot pawn must be taken off before the first jump."
    )


def takeoff_already_made(taken: tuple[str, ...], study: bool) -> IllegalEvent:
    if study:
        message = "A study position starts with jumps: no take-off is due."
    else:
        message = f"The take-off is made ({', '.join(taken)}); no more pawns are taken off."
    return IllegalEvent("takeoff.already_made", message)


SINGLES = SinglesRules()
