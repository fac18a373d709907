"""Straight Scarney Dice's state machine: frames, rounds, extra frames and the pot ledger.

RULES.md 7.3 to 7.5 and 0.7: the rule engine (``games.rules.straight_dice.game``) checks an event
and hands it here. Written for sides, so the partnership game is the same machine.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.rules.base import Move
from games.rules.dice import PotEntry, read_faces
from games.rules.errors import IllegalEvent, seat_unknown
from games.rules.events import DOUBLE_DOWN, STOOD, THROWN
from games.rules.straight_dice.throws import (
    BIG_SCARNEY,
    CRAP_OUT,
    DICE,
    HOLDS,
    SCORELESS,
    Throw,
    evaluate,
)
from games.rules.wording import player_at

EVENT_TYPES = frozenset({THROWN, STOOD, DOUBLE_DOWN})

FRAMES = 7  # per player, before any extra frame (RULES.md 7.4)

# How a frame ended.
ENDED_STOOD = "stood"
ENDED_CRAPPED_OUT = "crapped_out"
ENDED_BIG_SCARNEY = "big_scarney"

# --- the state -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Frame:
    """One frame of one shooter: its throws, and the frame variables of 7.5."""

    seat: int
    number: int
    throws: tuple[Throw, ...] = ()
    live: int = DICE
    held: int = 0
    double_down: bool = False
    ended: str = ""

    @property
    def holding(self) -> bool:
        """HOLDING: the last throw was a point score (the shooter may stand or hit)."""
        return not self.ended and bool(self.throws) and self.throws[-1].outcome in HOLDS

    @property
    def score(self) -> int:
        return 0 if self.ended == ENDED_CRAPPED_OUT else self.held

    def kept(self) -> tuple[Throw, ...]:
        """The throws whose points make the frame score: those after the last scoreless one."""
        if not self.ended or self.ended == ENDED_CRAPPED_OUT:
            return ()
        kept: list[Throw] = []
        for throw in self.throws:
            kept = [] if throw.outcome == SCORELESS else [*kept, throw]
        return tuple(t for t in kept if t.outcome in HOLDS)


@dataclass(frozen=True, slots=True)
class SeatingThrow:
    seat: int
    faces: tuple[str, ...]
    total: int


@dataclass(frozen=True, slots=True)
class Seating:
    """Seating (or partner) throws in progress: groups of seats best first, ties still open."""

    ranking: tuple[tuple[int, ...], ...]
    group: int  # index in ``ranking`` of the group now throwing
    pending: tuple[int, ...]  # its members still to throw, in seat order
    throws: tuple[SeatingThrow, ...] = ()  # every seating throw so far


@dataclass(frozen=True, slots=True)
class State:
    """A game: the order of play, the sides, every frame shot, the pot ledger."""

    ruleset: Any
    seats: int
    sides: tuple[tuple[int, ...], ...]
    order: tuple[int, ...] = ()  # seats in the order of play, first shooter first
    seating: Seating | None = None
    frames: tuple[Frame, ...] = ()  # every frame in the order shot; the last may be in play
    due: tuple[int, ...] = ()  # seats still to shoot this round after the current frame
    round: int = 0
    ledger: tuple[PotEntry, ...] = ()
    seating_throws: tuple[SeatingThrow, ...] = ()  # the seating (partner) throws, once decided
    big_scarney: int | None = None
    winners: tuple[int, ...] = ()
    over: bool = False

    @property
    def frame(self) -> Frame | None:
        """The frame in play, if any."""
        if self.over or not self.frames or self.frames[-1].ended:
            return None
        return self.frames[-1]


def split_group(seating: Seating) -> tuple[tuple[int, ...], ...]:
    """The ranking with the group just thrown split by its new totals, highest first."""
    group = seating.ranking[seating.group]
    totals = {t.seat: t.total for t in seating.throws[-len(group) :]}
    split = tuple(
        tuple(seat for seat in group if totals[seat] == total)
        for total in sorted(set(totals.values()), reverse=True)
    )
    return (*seating.ranking[: seating.group], *split, *seating.ranking[seating.group + 1 :])


def start_play(state: State, order: tuple[int, ...]) -> State:
    """Everyone antes in turn from the first shooter (RULES.md 7.3); frame 1 begins."""
    antes = tuple(PotEntry("ante", seat, state.ruleset.ante_chips) for seat in order)
    state = dataclasses.replace(state, order=order, ledger=(*state.ledger, *antes))
    return _next_frame(state)


# --- the frame state machine (RULES.md 7.5) ------------------------------------------------------


def apply_double_down(state: State, frame: Frame) -> State:
    if frame.holding:
        raise IllegalEvent(
            "double_down.not_allowed",
            f"{player_at(frame.seat)} holds {frame.held} points: double down only before the first "
            "throw of a frame or after a scoreless throw.",
            seat=frame.seat,
        )
    if frame.double_down:
        raise IllegalEvent(
            "double_down.already_called",
            f"{player_at(frame.seat)} has already doubled down for the next throw of "
            f"{_dice_words(frame.live)}.",
            seat=frame.seat,
        )
    chip = PotEntry("double_down", frame.seat, 1)
    return _replace_frame(
        dataclasses.replace(state, ledger=(*state.ledger, chip)),
        dataclasses.replace(frame, double_down=True),
    )


def apply_stand(state: State, frame: Frame) -> State:
    if not frame.holding:
        why = "before his first throw" if not frame.throws else "after a scoreless throw"
        raise IllegalEvent(
            "stand.no_point_score",
            f"{player_at(frame.seat)} cannot stand {why}: he holds no point score and must throw "
            f"the {_dice_words(frame.live)} again.",
            seat=frame.seat,
        )
    return _end_frame(state, dataclasses.replace(frame, ended=ENDED_STOOD))


def apply_throw(state: State, frame: Frame, data: Mapping[str, Any]) -> State:
    opposite = opposite_flag(data)
    faces = read_faces(data, frame.live)
    if opposite and frame.live != 1:
        raise IllegalEvent(
            "opposite.not_allowed",
            f"Opposite is called only on a single live die; {player_at(frame.seat)} has "
            f"{_dice_words(frame.live)} in the cup.",
            seat=frame.seat,
        )
    throw = evaluate(faces, doubled=frame.double_down, opposite=opposite, ruleset=state.ruleset)
    if throw.outcome in (SCORELESS, CRAP_OUT):
        throw = dataclasses.replace(throw, cancelled=frame.held)
    frame = dataclasses.replace(
        frame, throws=(*frame.throws, throw), live=frame.live - throw.dead, double_down=False
    )
    if throw.outcome == BIG_SCARNEY:
        return _big_scarney(state, dataclasses.replace(frame, ended=ENDED_BIG_SCARNEY))
    if throw.outcome in (SCORELESS, CRAP_OUT):
        frame = dataclasses.replace(frame, held=0)
        if throw.outcome == CRAP_OUT:
            return _end_frame(state, dataclasses.replace(frame, ended=ENDED_CRAPPED_OUT))
        return _replace_frame(state, frame)
    frame = dataclasses.replace(frame, held=frame.held + throw.points)
    if frame.live == 0:  # D-SSD-2 house rule: no die is left, so the shooter stands
        return _end_frame(state, dataclasses.replace(frame, ended=ENDED_STOOD))
    return _replace_frame(state, frame)


def _replace_frame(state: State, frame: Frame) -> State:
    return dataclasses.replace(state, frames=(*state.frames[:-1], frame))


def _end_frame(state: State, frame: Frame) -> State:
    return _next_frame(_replace_frame(state, frame))


def _next_frame(state: State) -> State:
    """The next shooter's frame; after a round, the next round, extra frames, or the end."""
    if not state.due:
        participants = _next_round(state)
        if not participants:
            return _finish(state, _leading_sides(state)[0])
        state = dataclasses.replace(state, round=state.round + 1, due=participants)
    seat, due = state.due[0], state.due[1:]
    return dataclasses.replace(state, frames=(*state.frames, Frame(seat, state.round)), due=due)


def _next_round(state: State) -> tuple[int, ...]:
    """Who shoots the next round: everyone up to frame 7; then the tied leading sides (0.7)."""
    if state.round < FRAMES:
        return state.order
    leaders = _leading_sides(state)
    if len(leaders) == 1:
        return ()
    members = {seat for side in leaders for seat in side}
    return tuple(seat for seat in state.order if seat in members)


def _leading_sides(state: State) -> list[tuple[int, ...]]:
    totals = [frame_totals(state)[seat] for seat in range(state.seats)]
    return leading_sides(state.sides, totals)


def leading_sides(sides: Sequence[tuple[int, ...]], totals: Sequence[int]) -> list[tuple[int, ...]]:
    """The sides sharing the highest side total (a side's total is its members' sum)."""
    side_totals = [sum(totals[seat] for seat in side) for side in sides]
    best = max(side_totals)
    return [side for side, total in zip(sides, side_totals, strict=True) if total == best]


def _big_scarney(state: State, frame: Frame) -> State:
    """Big Scarney wins the game and the pot at once, whatever the scores (7.5 rule 1)."""
    state = dataclasses.replace(_replace_frame(state, frame), big_scarney=frame.seat)
    side = next(side for side in state.sides if frame.seat in side)
    return _finish(state, side)


def _finish(state: State, side: tuple[int, ...]) -> State:
    winners = tuple(seat for seat in state.order if seat in side)
    totals = frame_totals(state)
    shares = divide_pot(balance(state.ledger), winners, totals, state.ruleset)
    payout = tuple(PotEntry("win", seat, -chips) for seat, chips in shares if chips)
    return dataclasses.replace(
        state, ledger=(*state.ledger, *payout), winners=winners, over=True, due=()
    )


def divide_pot(
    pot: int, winners: Sequence[int], totals: Sequence[int], ruleset: Any
) -> list[tuple[int, int]]:
    """Each winner's chips: equal shares; odd chips by individual total (D-PSD-3) or kept.

    ``winners`` are in the order of play from the first shooter, which breaks equal totals.
    """
    share, odd = divmod(pot, len(winners))
    by_score = sorted(winners, key=lambda seat: -totals[seat])
    if getattr(ruleset, "partnership_odd_chips", "by_individual_score") != "by_individual_score":
        odd = 0  # "carry_over": the odd chips stay in the pot for the next game
    extra = set(by_score[:odd])
    return [(seat, share + (1 if seat in extra else 0)) for seat in winners]


# --- refusals shared by the events ---------------------------------------------------------------


def opposite_flag(data: Mapping[str, Any]) -> bool:
    opposite = data.get("opposite", False)
    if not isinstance(opposite, bool):
        raise IllegalEvent("event.bad_data", "'opposite' must be true or false.", field="opposite")
    return opposite


def check_named_seat(state: State, move: Move) -> None:
    """An event may name its shooter (``"seat"``); it must be the shooter of the frame in play."""
    frame = state.frame
    assert frame is not None
    finished = [f for f in state.frames if f.ended]
    if finished and move.data.get("seat") == finished[-1].seat != frame.seat:
        last = finished[-1]
        raise IllegalEvent(
            "frame.over",
            f"{player_at(last.seat)}'s frame {last.number} is over "
            f"({last.ended.replace('_', ' ')}, "
            f"{last.score} points); {player_at(frame.seat)} shoots now.",
            seat=last.seat,
        )
    check_seat_field(move.data, frame.seat, f"shoots frame {frame.number} now", state.seats)


def check_seat_field(data: Mapping[str, Any], seat: int, doing: str, seats: int) -> None:
    named = data.get("seat")
    if named is None:
        return
    if not isinstance(named, int) or isinstance(named, bool):
        raise IllegalEvent("event.bad_data", "'seat' must be a seat number.", field="seat")
    if not 0 <= named < seats:
        raise seat_unknown(named, seats)
    if named != seat:
        raise IllegalEvent(
            "turn.not_your_turn",
            f"{player_at(named)} is not on turn: {player_at(seat)} {doing}.",
            seat=seat,
        )


def _dice_words(count: int) -> str:
    return f"{count} {'die' if count == 1 else 'dice'}"


# --- frame scores and the pot ledger -------------------------------------------------------------


def frame_scores(state: State, seat: int) -> tuple[int, ...]:
    """The seat's finished frame scores, in order."""
    return tuple(f.score for f in state.frames if f.seat == seat and f.ended)


def frame_totals(state: State) -> list[int]:
    """Each seat's game total so far (the sum of its finished frame scores)."""
    totals = [0] * state.seats
    for frame in state.frames:
        if frame.ended:
            totals[frame.seat] += frame.score
    return totals


def paid_in(ledger: Sequence[PotEntry]) -> int:
    return sum(m.chips for m in ledger if m.chips > 0)


def balance(ledger: Sequence[PotEntry]) -> int:
    return sum(m.chips for m in ledger)


def nets(ledger: Sequence[PotEntry], seats: int) -> list[int]:
    """Each seat's chips received minus chips paid in."""
    result = [0] * seats
    for movement in ledger:
        if movement.seat is not None:
            result[movement.seat] -= movement.chips
    return result
