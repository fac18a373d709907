"""Scarney Solitaire (``scarney-solitaire``), the one-player Scarney board game: RULES.md section 2.

The player lays out the 16 pawns, takes off one low pawn, then jumps pawns over pawns of another
colour until no jump is left. The game scores the spots removed (``40 - spots left``) plus at most
one bonus judged on the final position (RULES.md 2.5); ratings follow the tables of RULES.md 2.6.
A study position (the books' end games) starts straight in the jumping phase. What the game takes
and shows (its declarations, games/rules/shapes.py), with its phases and ``board.laid_out``, is in
:mod:`games.rules.scarney_board.shapes`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations
from typing import Any, ClassVar

from games.rules.base import (
    BonusAward,
    GameRules,
    Move,
    Result,
    SeatScore,
    SetupWords,
    check_move,
    make_ruleset,
)
from games.rules.errors import BadSetup, IllegalEvent
from games.rules.events import JUMPED, SCARNEY_CALLED, TAKEN_OFF
from games.rules.scarney_board.board import (
    ALL_PAWNS,
    CIRCLES,
    COLOUR_NAMES,
    CORNERS,
    EMPTY_BOARD,
    TOTAL_SPOTS,
    Board,
    board_as_dict,
    check_jump,
    check_takeoff,
    colour_of,
    describe,
    has_legal_jump,
    is_low,
    jumped,
    legal_jumps,
    occupied,
    parse_position,
    read_circle,
    spots_left,
    spots_of,
    with_pawn,
)
from games.rules.scarney_board.shapes import (
    JUMPING,
    LAID_OUT,
    LAYOUT,
    OVER,
    SOLITAIRE_EVENTS,
    SOLITAIRE_SETUP,
    SOLITAIRE_VIEW,
    TAKEOFF,
)

KIND = "scarney-solitaire"

EVENT_TYPES = frozenset({LAID_OUT, TAKEN_OFF, JUMPED, SCARNEY_CALLED})

# Lowest total of each band, best first (RULES.md 2.6); below the last band see D-SOL-7.
GAME_RATINGS = (
    (150, "Perfect game"),
    (125, "Excellent game"),
    (95, "Par game"),
    (75, "Good game"),
    (55, "Fair game"),
    (35, "Average game"),
    (30, "Poor game"),
    (20, "Try again!"),
)
MATCH_RATINGS = (
    (700, "Perfect match"),
    (625, "Excellent match"),
    (475, "Par match"),
    (375, "Good match"),
    (275, "Fair match"),
    (175, "Average match"),
    (150, "Poor match"),
    (100, "Try again!"),
)
LOWEST_MATCH_RATING = "You need practice!"


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The house rules of Scarney Solitaire (RULES.md Appendix E) with their defaults."""

    ALLOWED: ClassVar[Mapping[str, tuple[object, ...]]] = {
        "solitaire_allow_scarney_call": (True, False),
        "solitaire_rating_below_20": ("Try again!", None),
        "sheet_entry_validation": ("strict", "lenient"),
    }

    solitaire_allow_scarney_call: bool = False
    solitaire_rating_below_20: str | None = "Try again!"
    sheet_entry_validation: str = "strict"


@dataclass(frozen=True, slots=True)
class State:
    """One moment of a game: the phase, the board, and the pawns removed so far in order."""

    phase: str
    board: Board = EMPTY_BOARD
    removed: tuple[str, ...] = ()
    ruleset: Ruleset = field(default_factory=Ruleset)
    study: bool = False


class SolitaireRules(GameRules):
    """The rule engine of ``scarney-solitaire`` (the ``Rules`` protocol of games.rules.base)."""

    kind = KIND
    title = "Scarney Solitaire"
    ruleset_type: type[Any] = Ruleset
    events = SOLITAIRE_EVENTS
    setup_shape = SOLITAIRE_SETUP
    setup_words = SetupWords("{game}'s setup takes only 'position'; {unknown} is unknown.")
    view_shape = SOLITAIRE_VIEW
    min_seats = 1
    max_seats = 1

    def start(self, setup: Mapping[str, Any], ruleset: Any, seats: int) -> State:
        """The empty board awaiting the layout, or a study position ready for jumps."""
        if seats != 1:
            raise BadSetup(
                "game.bad_seats", f"Scarney Solitaire has one player, not {seats}.", seats=seats
            )
        rules = ruleset if isinstance(ruleset, Ruleset) else make_ruleset(Ruleset, ruleset)
        position = _study_position(setup)
        if position is None:
            return State(LAYOUT, ruleset=rules)
        return _end_check(State(JUMPING, board=position, ruleset=rules, study=True))

    def apply(self, state: State, move: Move) -> State:
        """The state after ``move``, or IllegalEvent with a RULES.md 2.4 refusal code."""
        check_move(move, EVENT_TYPES, "Scarney Solitaire", state.phase == OVER)
        return _PHASES[state.phase](state, move)

    def expected(self, state: State) -> list[str]:
        """Event types the table may record next."""
        if state.phase == JUMPING and state.ruleset.solitaire_allow_scarney_call:
            return [JUMPED, SCARNEY_CALLED]
        return {LAYOUT: [LAID_OUT], TAKEOFF: [TAKEN_OFF], JUMPING: [JUMPED]}.get(state.phase, [])

    def legal_events(self, state: State) -> list[Move] | None:
        """Every legal take-off or jump; None while the board awaits its layout."""
        if state.phase == LAYOUT:
            return None
        if state.phase == TAKEOFF:
            low = [c for c, pawn in occupied(state.board) if is_low(pawn)]
            return [Move(TAKEN_OFF, {"circle": circle}) for circle in low]
        if state.phase == JUMPING:
            jumps = [Move(JUMPED, {"from": f, "to": t}) for f, _, t in legal_jumps(state.board)]
            if state.ruleset.solitaire_allow_scarney_call:
                jumps.append(Move(SCARNEY_CALLED, {}))
            return jumps
        return []

    def current_player(self, state: State) -> int | None:
        return None if state.phase == OVER else 0

    def is_terminal(self, state: State) -> bool:
        return state.phase == OVER

    def scores(self, state: State) -> tuple[SeatScore, ...]:
        """Game points so far; the bonus is itemised once the game is over."""
        if state.phase == LAYOUT:
            return (SeatScore(0, 0),)
        bonuses = final_bonuses(state.board) if state.phase == OVER else ()
        return (SeatScore(0, TOTAL_SPOTS - spots_left(state.board), bonuses),)

    def result(self, state: State) -> Result | None:
        """The total and its rating once the game is over."""
        if state.phase != OVER:
            return None
        scores = self.scores(state)
        return Result(scores, winners=(0,), rating=game_rating(scores[0].total, state.ruleset))

    def view(self, state: State) -> dict[str, Any]:
        return {
            "board": board_as_dict(state.board),
            "phase": state.phase,
            "removed": list(state.removed),
        }


# --- setup ---------------------------------------------------------------------------------------


def _study_position(setup: Mapping[str, Any]) -> Board | None:
    """The study position of ``setup``, or None when the player lays out the board himself."""
    if setup.get("position") is None:
        return None
    board = parse_position(setup["position"], error=BadSetup)
    if not occupied(board):
        raise BadSetup("setup.empty_position", "A study position needs at least one pawn.")
    return board


# --- moves by phase ------------------------------------------------------------------------------


def _in_layout(state: State, move: Move) -> State:
    if move.type != LAID_OUT:
        raise IllegalEvent(
            "setup.layout_required",
            f"The board must be laid out (board.laid_out) before {move.type}.",
        )
    position = move.data.get("position")
    if not isinstance(position, Mapping):
        raise IllegalEvent(
            "event.bad_data",
            "'position' of board.laid_out must be an object of circle: pawn.",
            field="position",
        )
    board = parse_position(position, complete=True)
    return dataclasses.replace(state, phase=TAKEOFF, board=board)


def _in_takeoff(state: State, move: Move) -> State:
    if move.type == TAKEN_OFF:
        return _take_off(state, move)
    if move.type == SCARNEY_CALLED and not state.ruleset.solitaire_allow_scarney_call:
        raise _scarney_not_allowed()
    if move.type == LAID_OUT:
        raise _already_laid_out()
    raise IllegalEvent(
        "takeoff.required",
        "A 1- or 2-spot pawn must be taken off before the first jump.",
    )


def _in_jumping(state: State, move: Move) -> State:
    if move.type == JUMPED:
        return _jump(state, move)
    if move.type == SCARNEY_CALLED:
        if not state.ruleset.solitaire_allow_scarney_call:
            raise _scarney_not_allowed()
        return dataclasses.replace(state, phase=OVER)
    if move.type == TAKEN_OFF:
        raise _already_taken_off(state)
    raise _already_laid_out()


def _take_off(state: State, move: Move) -> State:
    circle = read_circle(move.type, move.data, "circle")
    pawn = check_takeoff(state.board, circle)
    board = with_pawn(state.board, circle, None)
    removed = (*state.removed, pawn)
    return _end_check(dataclasses.replace(state, phase=JUMPING, board=board, removed=removed))


def _jump(state: State, move: Move) -> State:
    frm = read_circle(move.type, move.data, "from")
    to = read_circle(move.type, move.data, "to")
    # "over" is optional and only checked when given (API: null counts as not given).
    given = move.data.get("over") is not None
    said_over = read_circle(move.type, move.data, "over") if given else None
    over = check_jump(state.board, frm, to, said_over)
    victim = state.board[over - 1]
    assert victim is not None  # check_jump refuses a jump over an empty circle
    board = jumped(state.board, frm, over, to)
    return _end_check(dataclasses.replace(state, board=board, removed=(*state.removed, victim)))


def _end_check(state: State) -> State:
    """The game is over as soon as no jump is legal (RULES.md 2.4, end check)."""
    if state.phase == JUMPING and not has_legal_jump(state.board):
        return dataclasses.replace(state, phase=OVER)
    return state


_PHASES = {LAYOUT: _in_layout, TAKEOFF: _in_takeoff, JUMPING: _in_jumping}


# --- refusals particular to Solitaire ------------------------------------------------------------


def _already_taken_off(state: State) -> IllegalEvent:
    if state.study:
        message = "A study position starts with jumps: no take-off is due."
    else:
        message = f"Only one pawn is taken off, and {state.removed[0]} already was."
    return IllegalEvent("takeoff.already_made", message)


def _already_laid_out() -> IllegalEvent:
    return IllegalEvent("setup.already_laid_out", "The board is already laid out.")


def _scarney_not_allowed() -> IllegalEvent:
    return IllegalEvent(
        "game.scarney_not_allowed",
        "Scarney cannot be called in Solitaire: the game ends only when no jump is left "
        "(house rule solitaire_allow_scarney_call is off).",
    )


# --- scoring -------------------------------------------------------------------------------------


def final_bonuses(board: Sequence[str | None]) -> tuple[BonusAward, ...]:
    """The bonus of a final position, itemised (RULES.md 2.5); at most one row applies."""
    left = occupied(tuple(board))
    pawns = [pawn for _, pawn in left]
    if len(pawns) == 1:
        return (_single_pawn_bonus(pawns[0]),)
    if not 2 <= len(pawns) <= 4:
        return ()  # D-SOL-6: five or more pawns never earn a bonus
    colours = {colour_of(pawn) for pawn in pawns}
    if colours == {"B"}:
        return _per_pawn_bonus(left, "black", 20, "all black")
    if len(colours) == 1:
        return _per_pawn_bonus(left, "colour", 10, f"all {COLOUR_NAMES[colours.pop()]}")
    if len({spots_of(pawn) for pawn in pawns}) == 1:
        return _per_pawn_bonus(left, "number", 10, f"all {spots_of(pawns[0])}-spots")
    return ()


def _single_pawn_bonus(pawn: str) -> BonusAward:
    # D-SOL-4: a lone pawn earns no corner bonus, wherever it stands.
    rate, kind = (20, "black_single_pawn") if colour_of(pawn) == "B" else (10, "single_pawn")
    why = f"lone {describe(pawn)}: {rate} a spot"
    return BonusAward(kind, rate * spots_of(pawn), why, (pawn,))


def _per_pawn_bonus(
    left: list[tuple[int, str]], kind: str, rate: int, why: str
) -> tuple[BonusAward, ...]:
    """The corner and off-corner pawns of a bonus as two awards, corners first."""
    on_corner = tuple(pawn for circle, pawn in left if circle in CORNERS)
    elsewhere = tuple(pawn for circle, pawn in left if circle not in CORNERS)
    awards = []
    if on_corner:
        corner_why = f"{why}, on a corner: {2 * rate} a pawn"
        awards.append(
            BonusAward(f"{kind}_corner", 2 * rate * len(on_corner), corner_why, on_corner)
        )
    if elsewhere:
        awards.append(BonusAward(kind, rate * len(elsewhere), f"{why}: {rate} a pawn", elsewhere))
    return tuple(awards)


def total_score(board: Board) -> int:
    """Game points plus the bonus, were the game to end on ``board``."""
    bonus = sum(award.points for award in final_bonuses(board))
    return TOTAL_SPOTS - spots_left(board) + bonus


def game_rating(total: int, ruleset: Ruleset | None = None) -> str | None:
    """The game rating of a total game score (RULES.md 2.6; below 20: D-SOL-7)."""
    for lowest, rating in GAME_RATINGS:
        if total >= lowest:
            return rating
    return (ruleset or Ruleset()).solitaire_rating_below_20


def match_rating(match_score: int) -> str:
    """The rating of a complete five-game match score (RULES.md 2.6, D-SOL-9)."""
    for lowest, rating in MATCH_RATINGS:
        if match_score >= lowest:
            return rating
    return LOWEST_MATCH_RATING


# --- attainable totals (RULES.md Appendix C.1) ---------------------------------------------------

_LOW_PAWNS = frozenset(pawn for pawn in ALL_PAWNS if is_low(pawn))
_OFF_CORNERS = tuple(circle for circle in CIRCLES if circle not in CORNERS)


@cache
def attainable_totals() -> frozenset[int]:
    """Every total of a final position: pawns left lacking a low pawn, up to four on corners."""
    totals: set[int] = set()
    for size in range(1, len(ALL_PAWNS)):
        for pawns in combinations(ALL_PAWNS, size):
            if _LOW_PAWNS <= set(pawns):
                continue  # the take-off removed a low pawn, so one is always missing
            totals.update(_totals_of(pawns))
    return frozenset(totals)


def _totals_of(pawns: tuple[str, ...]) -> set[int]:
    game_points = TOTAL_SPOTS - sum(spots_of(pawn) for pawn in pawns)
    if len(pawns) > 4 or not final_bonuses(_final_board((), pawns)):
        return {game_points}  # no bonus, wherever the pawns stand
    # Where the pawns stand matters only through which of them are on corners.
    return {
        total_score(_final_board(on_corners, pawns))
        for count in range(len(pawns) + 1)
        for on_corners in combinations(pawns, count)
    }


def _final_board(on_corners: tuple[str, ...], pawns: tuple[str, ...]) -> Board:
    elsewhere = [pawn for pawn in pawns if pawn not in on_corners]
    board = EMPTY_BOARD
    for circle, pawn in zip(sorted(CORNERS), on_corners, strict=False):
        board = with_pawn(board, circle, pawn)
    for circle, pawn in zip(_OFF_CORNERS, elsewhere, strict=False):
        board = with_pawn(board, circle, pawn)
    return board


SOLITAIRE = SolitaireRules()
