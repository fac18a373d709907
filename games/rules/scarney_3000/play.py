"""Scarney 3000's state machine: the state, throws and stands, the end of a turn and of the game.

RULES.md 9.3, 9.4 (D-3000-3): the rule engine (``games.rules.scarney_3000.game``) checks an event
and hands it here; the seating (partner) throws keep their own record in ``Draw``.
"""

from __future__ import annotations

import dataclasses
import itertools
import struct
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from games.rules import base
from games.rules.base import Move
from games.rules.dice import DEAD, read_faces
from games.rules.errors import IllegalEvent, seat_unknown
from games.rules.events import STOOD, THROWN
from games.rules.scarney_3000.throws import (
    BUST,
    DICE,
    MINIMUM,
    UNCONFIRMED,
    Ruleset,
    Throw,
    evaluate,
    hand_name,
    show,
)
from games.rules.wording import player_at

EVENT_KEYS = {THROWN: frozenset({"faces", "seat"}), STOOD: frozenset({"seat"})}

DRAWING, MUST_THROW, MAY_STAND, OVER = "drawing", "must_throw", "may_stand", "over"

# --- the game's state ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Turn:
    """A finished turn: the shooter and the score entered (0 for a bust)."""

    seat: int
    score: int


_TURN = struct.Struct("<Bi")  # a finished turn packed: the shooter's seat, the score entered
TURN_SIZE = _TURN.size
# A bonus hand of an entered turn packed: seat, the seat's turn number, the face (D for dead
# dice), how many dice, the points.
_AWARD = struct.Struct("<BHcBi")
AWARD_SIZE = _AWARD.size


class Turns(Sequence[Turn]):
    """Every finished turn in order, packed five bytes a turn.

    A long game's snapshot stays small and quick to pickle (one bytes object, not a thousand
    small ones); the throws of a turn are in the event stream, the last turn's in the state.
    """

    __slots__ = ("_data",)

    def __init__(self, data: bytes = b"") -> None:
        self._data = data

    def plus(self, seat: int, score: int) -> Turns:
        return Turns(self._data + _TURN.pack(seat, score))

    def count_of(self, seat: int) -> int:
        """How many turns ``seat`` has finished (a bust counts)."""
        return self._data[:: _TURN.size].count(seat)

    @property
    def packed(self) -> bytes:
        """The turns as stored: equal bytes, equal turns."""
        return self._data

    def rows(self) -> Iterator[tuple[int, int]]:
        """Each turn as a plain ``(seat, score)``, the quickest to read."""
        return _TURN.iter_unpack(self._data)

    def __iter__(self) -> Iterator[Turn]:
        return itertools.starmap(Turn, self.rows())

    def __len__(self) -> int:
        return len(self._data) // _TURN.size

    @overload
    def __getitem__(self, index: int) -> Turn: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Turn]: ...

    def __getitem__(self, index: int | slice) -> Turn | Sequence[Turn]:
        if isinstance(index, slice):
            return tuple(self)[index]
        position = range(len(self))[index]  # IndexError as a tuple gives it
        return Turn(*_TURN.unpack_from(self._data, position * _TURN.size))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Turns):
            return NotImplemented
        return self._data == other._data

    def __hash__(self) -> int:
        return hash(self._data)

    def __repr__(self) -> str:
        return f"Turns({list(self)!r})"

    def __reduce__(self) -> tuple[type[Turns], tuple[bytes]]:
        return Turns, (self._data,)


def pack_awards(seat: int, number: int, throws: Sequence[Throw]) -> bytes:
    """The bonus hands of an entered turn, packed; all were confirmed, as no one stands on
    pending (dead-dice hands of three or more, then the number bonus, throw by throw)."""
    packed = b""
    for throw in throws:
        if throw.dead >= 3:
            packed += _AWARD.pack(seat, number, DEAD.encode(), throw.dead, throw.dead_points)
        if throw.bonus_face:
            face = throw.bonus_face.encode()
            packed += _AWARD.pack(seat, number, face, throw.bonus_dice, throw.bonus_points)
    return packed


def award_rows(state: State) -> Iterator[tuple[int, int, str, int, int]]:
    """Each bonus hand awarded so far: ``(seat, turn number, face, dice, points)``."""
    return unpack_awards(state.awards)


def unpack_awards(awards: bytes) -> Iterator[tuple[int, int, str, int, int]]:
    """The rows of ``pack_awards``'s bytes, one after another."""
    for seat, number, face, count, points in _AWARD.iter_unpack(awards):
        yield seat, number, face.decode(), count, points


@dataclass(frozen=True, slots=True)
class DrawThrow:
    """One seating (or partner) throw: the thrower, the faces and their number total."""

    seat: int
    faces: tuple[str, ...]
    total: int


@dataclass(frozen=True, slots=True)
class Draw:
    """Seating or partner throws in progress: groups of seats best first, one group throwing."""

    ranking: tuple[tuple[int, ...], ...]
    group: int  # index in ``ranking`` of the group throwing (again)
    pending: tuple[int, ...]  # its members still to throw, in seat order
    throws: tuple[DrawThrow, ...] = ()


@dataclass(frozen=True, slots=True)
class State:
    """A moment of the game: the turn in play (RULES.md 9.3 variables) and every finished turn.

    ``turns`` keeps each finished turn's seat and score, ``sums`` each seat's total (empty
    before the first turn), ``awards`` the bonus hands entered (packed, ``award_rows``) and
    ``last_throws`` the throws of the turn just ended, so the table sees how it came about.

    ``teams`` is empty when each plays for himself, else the two sides ("We" first). ``order``
    is the order of play, first shooter first. ``closing`` lists the seats still due before the
    final comparison under ``s3000_equal_turns`` (the rest of the round, then tie-break turns),
    the shooter first; None while no one has reached the target. While seating (partner) throws
    are recorded, ``draw`` holds them and ``shooter`` is the seat throwing.
    """

    seats: int
    ruleset: Ruleset = field(default_factory=Ruleset)
    teams: tuple[tuple[int, ...], ...] = ()
    order: tuple[int, ...] = ()
    draw: Draw | None = None
    draw_throws: tuple[DrawThrow, ...] = ()
    shooter: int = 0
    phase: str = MUST_THROW
    banked: int = 0
    pending: int = 0
    in_cup: int = DICE
    throws: tuple[Throw, ...] = ()
    turns: Turns = field(default_factory=Turns)
    sums: tuple[int, ...] = ()
    awards: bytes = b""
    last_throws: tuple[Throw, ...] = ()
    closing: tuple[int, ...] | None = None
    winners: tuple[int, ...] = ()


def totals(state: State) -> list[int]:
    """Each seat's cumulative score (the sum of his entered turns)."""
    return list(state.sums) if state.sums else [0] * state.seats


def contestants(state: State) -> tuple[tuple[int, ...], ...]:
    """Who competes: the two sides, or each seat for himself."""
    return state.teams or tuple((seat,) for seat in range(state.seats))


def contestant_totals(state: State) -> list[int]:
    seat_totals = totals(state)
    return [sum(seat_totals[seat] for seat in group) for group in contestants(state)]


def _group_of(state: State, seat: int) -> tuple[int, ...]:
    return next(group for group in contestants(state) if seat in group)


def end_turn(state: State, score: int, throws: tuple[Throw, ...] = ()) -> State:
    """Enter the shooter's turn score (0 for a bust) and pass the dice (RULES.md 9.3, 9.4)."""
    shooter = state.shooter
    sums = totals(state)
    sums[shooter] += score
    awards = state.awards
    if score:  # the bonus hands of a bust are lost with it
        awards += pack_awards(shooter, state.turns.count_of(shooter) + 1, throws)
    after = dataclasses.replace(
        state,
        phase=MUST_THROW,
        banked=0,
        pending=0,
        in_cup=DICE,
        throws=(),
        turns=state.turns.plus(shooter, score),
        sums=tuple(sums),
        awards=awards,
        last_throws=throws,
    )
    group = _group_of(after, shooter)
    reached = score > 0 and sum(sums[seat] for seat in group) >= state.ruleset.s3000_target
    if not state.ruleset.s3000_equal_turns:
        if reached:
            return _over(after, group)  # D-3000-3: the game ends at once
        return dataclasses.replace(after, shooter=_left_of(after, shooter))
    return _pass_for_equal_turns(after, reached)


def _left_of(state: State, seat: int) -> int:
    """The next shooter: play passes to the left, in the order of play."""
    return state.order[(state.order.index(seat) + 1) % len(state.order)]


def _pass_for_equal_turns(state: State, reached: bool) -> State:
    """D-3000-3 variant: the round is completed, then ties are broken per RULES.md 0.7."""
    if state.closing is None:
        if not reached:
            return dataclasses.replace(state, shooter=_left_of(state, state.shooter))
        # The round began with the first shooter, so it ends with the last in the order of play.
        due = state.order[state.order.index(state.shooter) + 1 :]
    else:
        due = state.closing[1:]
    if due:
        return dataclasses.replace(state, closing=due, shooter=due[0])
    return _compare(state)


def _compare(state: State) -> State:
    """The highest total wins; tied leaders (only they) shoot one more turn each, in order."""
    scores = contestant_totals(state)
    best = max(scores)
    groups = zip(contestants(state), scores, strict=True)
    leaders = [group for group, score in groups if score == best]
    if len(leaders) == 1:
        return _over(state, leaders[0])
    tied = tuple(seat for seat in state.order if any(seat in group for group in leaders))
    return dataclasses.replace(state, closing=tied, shooter=tied[0])


def _over(state: State, winners: tuple[int, ...]) -> State:
    return dataclasses.replace(state, phase=OVER, winners=tuple(sorted(winners)), closing=None)


def start_play(state: State, order: tuple[int, ...]) -> State:
    """The first shooter in the order of play takes the five dice."""
    return dataclasses.replace(state, order=order, shooter=order[0], phase=MUST_THROW)


def split_group(draw: Draw) -> tuple[tuple[int, ...], ...]:
    """The ranking with the group just thrown split by its new number totals, highest first."""
    group = draw.ranking[draw.group]
    latest = {throw.seat: throw.total for throw in draw.throws[-len(group) :]}
    split = tuple(
        tuple(seat for seat in group if latest[seat] == total)
        for total in sorted(set(latest.values()), reverse=True)
    )
    return (*draw.ranking[: draw.group], *split, *draw.ranking[draw.group + 1 :])


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --- moves ---------------------------------------------------------------------------------------


def check_move(state: State, move: Move, name: str) -> None:
    over = "The game is over: no throw or stand can be recorded."
    base.check_move(move, EVENT_KEYS, name, state.phase == OVER, over)
    unknown = sorted(str(key) for key in move.data if key not in EVENT_KEYS[move.type])
    if unknown:
        raise IllegalEvent(
            "event.bad_data",
            f"{move.type} takes {', '.join(sorted(EVENT_KEYS[move.type])) or 'nothing'}; "
            f"{', '.join(unknown)} is unknown (Scarney 3000 has no Opposite or double down).",
            fields=unknown,
        )
    if "seat" in move.data:
        _check_shooter(state, move.data["seat"])


def _check_shooter(state: State, seat: Any) -> None:
    """An event naming its shooter is checked: a finished (or future) turn takes no dice."""
    if not is_int(seat):
        raise IllegalEvent(
            "event.bad_data", f"'seat' must be a seat number from 0 to {state.seats - 1}."
        )
    if not 0 <= seat < state.seats:
        raise seat_unknown(seat, state.seats)
    if seat == state.shooter:
        return
    last = state.turns[-1] if state.turns else None
    if last is not None and last.seat == seat:
        how = f"stood on {last.score}" if last.score else "bust"
        raise IllegalEvent(
            "turn.over",
            f"{player_at(seat)}'s turn is over ({how}); {player_at(state.shooter)} is the shooter.",
            seat=seat,
            shooter=state.shooter,
        )
    doing = "throws for the draw" if state.draw else "is the shooter"
    raise IllegalEvent(
        "turn.not_your_turn",
        f"{player_at(seat)} is not on turn: {player_at(state.shooter)} {doing}.",
        seat=seat,
        shooter=state.shooter,
    )


def apply_throw(state: State, move: Move) -> State:
    faces = read_faces(move.data, state.in_cup)
    throw = evaluate(faces, state.pending, state.ruleset.s3000_bonus_table)
    throws = (*state.throws, throw)
    if throw.outcome == BUST:
        return end_turn(state, 0, throws)  # C: banked and pending are lost
    in_cup = state.in_cup - len(throw.scoring_faces) or DICE
    if throw.outcome == UNCONFIRMED:
        pending = state.pending + throw.bonus_points
        return dataclasses.replace(
            state, phase=MUST_THROW, pending=pending, in_cup=in_cup, throws=throws
        )
    banked = state.banked + throw.points
    phase = MAY_STAND if banked >= MINIMUM else MUST_THROW
    return dataclasses.replace(
        state, phase=phase, banked=banked, pending=0, in_cup=in_cup, throws=throws
    )


def apply_stand(state: State) -> State:
    if state.phase == MAY_STAND:
        return end_turn(state, state.banked, state.throws)
    last = state.throws[-1] if state.throws else None
    if last is not None and last.outcome == UNCONFIRMED:
        raise IllegalEvent(
            "stand.unconfirmed_bonus",
            f"{player_at(state.shooter)} cannot stand on an unconfirmed bonus: "
            f"{hand_name(last.bonus_face or '', last.bonus_dice)} on {show(last.faces)} "
            f"({state.pending} points pending) need a dead die on the next throw of "
            f"{_dice(state.in_cup)}.",
            pending=state.pending,
            banked=state.banked,
        )
    raise IllegalEvent(
        "stand.below_minimum",
        f"{player_at(state.shooter)} holds {state.banked} confirmed points"
        f"{_thrown(state.throws)}; a turn needs {MINIMUM} to stand, so the "
        f"{_dice(state.in_cup)} must be thrown.",
        banked=state.banked,
        minimum=MINIMUM,
    )


def _dice(count: int) -> str:
    return f"{count} {'die' if count == 1 else 'dice'}"


def _thrown(throws: tuple[Throw, ...]) -> str:
    if not throws:
        return " (nothing thrown yet)"
    return " (thrown: " + "; ".join(show(t.faces) for t in throws) + ")"
