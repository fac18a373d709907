"""Straight Scarney Dice (``straight-scarney-dice``): RULES.md sections 1.3 and 7.

Two or more players each shoot seven frames with five Scarney dice; a frame is a run of throws
(RULES.md 7.5): a point score may be kept ("stand") or risked ("hit"), a throw showing a dead die
cancels the frame's points and puts the dead dice out of play, and five dead dice end the frame
with nothing. Big Scarney (five of a kind) wins the game and the pot at once. Every player antes
before the game; double-downs add a chip each; the winner takes the pot.

The engine is written for *sides*: in the straight game each player is a side of one, which makes
the partnership game (RULES.md 8, ``partnership``) the same machine with sides of two or three.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from games.rules.base import (
    GameRules,
    Move,
    Result,
    SeatScore,
    SetupWords,
    check_move,
    check_seat_count,
    make_ruleset,
)
from games.rules.dice import (
    LONG,
    SCARNEY_DIE,
    SCARNEY_FACES,
    SEATING_THROWS,
    first_shooter,
    number_total,
    read_faces,
    recorded,
    seat_of,
    setup_first_shooter,
    setup_flag,
)
from games.rules.errors import BadSetup, IllegalEvent
from games.rules.events import DOUBLE_DOWN, STOOD, THROWN
from games.rules.shapes import SEAT, Boolean, Integer, ListOf, Nullable, Record, record
from games.rules.straight_dice import words
from games.rules.straight_dice.play import (
    EVENT_TYPES,
    Seating,
    SeatingThrow,
    State,
    apply_double_down,
    apply_stand,
    apply_throw,
    balance,
    check_named_seat,
    check_seat_field,
    frame_scores,
    nets,
    opposite_flag,
    paid_in,
    split_group,
    start_play,
)
from games.rules.straight_dice.throws import DICE, Ruleset
from games.rules.straight_dice.view import (
    dice_view,
    pot_view,
    seat_score,
    sides_view,
    view_declared,
)
from games.rules.wording import player_at

KIND = "straight-scarney-dice"
MAX_SEATS = 16

# --- what the game takes and shows (games/rules/shapes.py) -----------------------------------


def events_declared(most_seats: int) -> dict[str, Record]:
    """A throw, a stand and a double-down (RULES.md 7.5), each may name its shooter."""
    named_seat = Nullable(
        seat_of(most_seats),
        doc="the shooter's seat, if the table names it: refused unless he is on turn",
    )
    return {
        THROWN: record(
            "A throw of the live dice (the five of a seating or partner throw).",
            optional=("opposite", "seat"),
            faces=recorded(
                SCARNEY_DIE,
                "one per live die: five at a frame's start, then those not dead",
                'the faces thrown, e.g. ["D", "3", "6"]',
            ),
            opposite=Boolean(
                doc="Opposite called on a single live die: its bottom face counts (false when "
                "left out; never on a seating throw)"
            ),
            seat=named_seat,
        ),
        STOOD: record(
            "The shooter stands on the points he holds: the frame ends.",
            optional=("seat",),
            seat=named_seat,
        ),
        DOUBLE_DOWN: record(
            "A double-down (one chip into the pot) for the next throw: before the frame's first "
            "throw or after a scoreless one.",
            optional=("seat",),
            seat=named_seat,
        ),
    }


def report_declared(most_seats: int, most_sides: int) -> Record:
    """What ``match_report`` gives the match of a finished game."""
    return record(
        "The pot, the chips, the pad and the sides of the game.",
        pot=Integer(0, doc="chips paid into the pot: antes and double-downs"),
        nets=ListOf(Integer(doc="chips received minus chips paid"), most_seats),
        left_in_pot=Integer(0, doc="odd chips left in the pot (partnership_odd_chips carry_over)"),
        big_scarney=Nullable(
            seat_of(most_seats), doc="the seat whose Big Scarney ended the game, else null"
        ),
        frames=ListOf(
            ListOf(
                Integer(0, doc="a frame's score"), LONG, doc="the seat's finished frames in order"
            ),
            most_seats,
        ),
        sides=ListOf(
            ListOf(SEAT, most_seats // most_sides, 1, doc="a side's seats"),
            most_sides,
            doc="the sides the game was played by (each player his own in the straight game)",
        ),
    )


# --- the rule engine -----------------------------------------------------------------------------


class StraightDiceRules(GameRules):
    """The rule engine of ``straight-scarney-dice`` (the ``Rules`` protocol of games.rules.base)."""

    kind = KIND
    title = "Straight Scarney Dice"
    dice_faces = SCARNEY_FACES
    most_dice = DICE
    name = "Straight Scarney Dice"
    ruleset_type: type[Any] = Ruleset
    min_seats = 2
    max_seats = MAX_SEATS
    events = events_declared(MAX_SEATS)
    view_shape = view_declared(MAX_SEATS, MAX_SEATS)
    setup_shape = record(
        "Who shoots first: seat 0, first_shooter, or the seating throws of the rules of play.",
        optional=("seating_throws", "first_shooter"),
        seating_throws=SEATING_THROWS,
        first_shooter=first_shooter(MAX_SEATS),
    )
    report_shape = report_declared(MAX_SEATS, MAX_SEATS)
    setup_words = SetupWords("{game}'s setup takes {keys}; {unknown} is unknown.")

    def word_throws(self, game: dict[str, Any], names: Mapping[int, str]) -> dict[str, Any]:
        """This turn's throws, and what its page shows besides, in words (ThrowsDice)."""
        return words.straight_dice(game, names)

    def start(self, setup: Mapping[str, Any], ruleset: Any, seats: int) -> State:
        """Seat 0 shoots first (or ``first_shooter``), unless seating throws are to be recorded."""
        self._check_seats(seats)
        rules = ruleset if isinstance(ruleset, self.ruleset_type) else make_ruleset(
            self.ruleset_type, ruleset
        )  # fmt: skip
        sides = self.sides_of(setup, seats)
        state = State(rules, seats, sides)
        if setup_flag(setup, self.throws_key()):
            if "first_shooter" in setup:
                raise BadSetup(
                    "setup.conflict",
                    f"Give either the first shooter or {self.throws_key()}, not both.",
                )
            everyone = tuple(range(seats))
            return dataclasses.replace(state, seating=Seating((everyone,), 0, everyone))
        first = setup_first_shooter(setup, seats)
        return start_play(state, tuple((first + i) % seats for i in range(seats)))

    def apply(self, state: State, move: Move) -> State:
        """The state after ``move``, or IllegalEvent with a RULES.md 7.5 refusal code."""
        over = "The game is over: no throw can be recorded."
        check_move(move, EVENT_TYPES, self.name, state.over, over)
        if state.seating is not None:
            return self.seating_throw(state, move)
        check_named_seat(state, move)
        frame = state.frame
        assert frame is not None  # a game not over always has a frame in play
        if move.type == DOUBLE_DOWN:
            return apply_double_down(state, frame)
        if move.type == STOOD:
            return apply_stand(state, frame)
        return apply_throw(state, frame, move.data)

    def expected(self, state: State) -> list[str]:
        """Event types the table may record next."""
        frame = state.frame
        if state.seating is not None:
            return [THROWN]
        if frame is None:
            return []
        if frame.holding:
            return [THROWN, STOOD]
        return [THROWN] if frame.double_down else [THROWN, DOUBLE_DOWN]

    def legal_events(self, state: State) -> list[Move] | None:
        """None: the next event is a throw of the dice, not a finite choice."""
        return [] if state.over else None

    def current_player(self, state: State) -> int | None:
        if state.seating is not None:
            return state.seating.pending[0]
        frame = state.frame
        return None if frame is None else frame.seat

    def is_terminal(self, state: State) -> bool:
        return state.over

    def scores(self, state: State) -> tuple[SeatScore, ...]:
        """Each seat's kept number totals as points, and every kept throw's bonus itemised."""
        return tuple(seat_score(state, seat) for seat in range(state.seats))

    def result(self, state: State) -> Result | None:
        if not state.over:
            return None
        return Result(self.scores(state), winners=state.winners)

    def view(self, state: State) -> dict[str, Any]:
        return {
            "dice": dice_view(state),
            "pot": pot_view(state),
            "sides": sides_view(state),
        }

    def pot_ledger(self, state: State) -> list[dict[str, Any]]:
        return [movement.as_dict() for movement in state.ledger]

    def pot_ledger_start(self, state: State) -> int:
        return 0  # a game's ledger keeps every movement: a game is bounded

    def match_report(self, state: State) -> dict[str, Any]:
        """What the match needs of a finished game: the pot, the nets, the frames, the sides."""
        return {
            "pot": paid_in(state.ledger),
            "nets": nets(state.ledger, state.seats),
            "left_in_pot": balance(state.ledger),
            "big_scarney": state.big_scarney,
            "frames": [list(frame_scores(state, seat)) for seat in range(state.seats)],
            "sides": [list(side) for side in state.sides],
        }

    # --- what the partnership game changes ---

    def throws_key(self) -> str:
        return "seating_throws"

    def sides_of(self, setup: Mapping[str, Any], seats: int) -> tuple[tuple[int, ...], ...]:
        """Each player is his own side."""
        return tuple((seat,) for seat in range(seats))

    def needs_rethrow(self, state: State, ranking: tuple[tuple[int, ...], ...], i: int) -> bool:
        """Every tie of the seating throws is thrown again (D-SSD-9)."""
        return len(ranking[i]) > 1

    def seated(self, state: State, ranking: tuple[tuple[int, ...], ...]) -> State:
        """The order of play once the seating throws are decided: highest total first."""
        return start_play(state, tuple(seat for group in ranking for seat in group))

    def _check_seats(self, seats: int) -> None:
        check_seat_count(self, seats, self.name)

    # --- seating throws (RULES.md 7.2, 8.1) ---

    def seating_throw(self, state: State, move: Move) -> State:
        seating = state.seating
        assert seating is not None
        thrower = seating.pending[0]
        if move.type != THROWN:
            raise IllegalEvent(
                "seating.throws_due",
                f"The seating throws come first: {player_at(thrower)} throws the five dice next.",
                seat=thrower,
            )
        check_seat_field(
            move.data, thrower, "throws the five dice for the seating next", state.seats
        )
        if opposite_flag(move.data):
            raise IllegalEvent(
                "opposite.not_allowed",
                "Opposite is called only on a single live die, not on a seating throw of five.",
            )
        faces = read_faces(move.data, DICE)
        throw = SeatingThrow(thrower, faces, number_total(faces))
        seating = dataclasses.replace(
            seating, pending=seating.pending[1:], throws=(*seating.throws, throw)
        )
        if seating.pending:
            return dataclasses.replace(state, seating=seating)
        state = dataclasses.replace(state, seating=seating)
        return self._next_seating_group(state, split_group(seating))

    def _next_seating_group(self, state: State, ranking: tuple[tuple[int, ...], ...]) -> State:
        for i in range(len(ranking)):
            if self.needs_rethrow(state, ranking, i):
                throws = state.seating.throws if state.seating else ()
                seating = Seating(ranking, i, ranking[i], throws)
                return dataclasses.replace(state, seating=seating)
        throws = state.seating.throws if state.seating else ()
        return self.seated(dataclasses.replace(state, seating=None, seating_throws=throws), ranking)


STRAIGHT_DICE = StraightDiceRules()
