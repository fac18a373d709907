"""Put-and-Take's moves: the seating throws (RULES.md 11.2), antes, leaving and joining (11.3,
D-PT-9), a round's double down and throws (11.4-11.6) and the end of the session (D-PT-5)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from games.rules.base import Move
from games.rules.dice import PotEntry, number_total, read_faces
from games.rules.errors import IllegalEvent, is_seat_number, seat_unknown
from games.rules.events import DOUBLE_DOWN, THROWN
from games.rules.put_and_take.state import (
    ANTE,
    ANTED,
    DICE,
    ENDED,
    JOINED,
    LEFT,
    OVER,
    PUT,
    REFILL_AT,
    ROUND_OVER,
    SCARNEY,
    SEATING,
    SEATING_THROWN,
    SHOOTING,
    SPLIT,
    TAKE,
    Ledger,
    Seating,
    State,
    Throw,
    classify,
    left_of,
    round_end_byte,
    seated_from,
    turn_from,
)
from games.rules.wording import player_at, players_at

# --- seating (11.2) ------------------------------------------------------------------------------


def may_throw_for_seats(state: State) -> bool:
    # Seats are thrown for before anything else, by everyone at the table.
    return (
        state.phase in (ANTE, SEATING)
        and state.round == 0
        and not state.away
        and (state.seating is None or state.phase == SEATING)
    )


def seating_thrower(seating: Seating) -> int:
    tied = next(group for group in seating.groups if len(group) > 1)
    thrown = {seat for seat, _ in seating.pending}
    return next(seat for seat in tied if seat not in thrown)


def _seating_throw(state: State, move: Move) -> State:
    if not may_throw_for_seats(state):
        raise IllegalEvent(
            "seating.closed",
            "Seats are thrown for only before the first round, by every player; "
            f"the turn order is {players_at(state.order)}.",
        )
    faces = read_faces(move.data, DICE)
    seating = state.seating or Seating(groups=(tuple(range(state.seats)),))
    seat = seating_thrower(seating)
    seating = dataclasses.replace(
        seating,
        pending=(*seating.pending, (seat, number_total(faces))),
        throws=(*seating.throws, (seat, faces)),
    )
    seating = _settle_throw_off(seating)
    if all(len(group) == 1 for group in seating.groups):
        order = tuple(group[0] for group in seating.groups)
        return dataclasses.replace(
            state, phase=ANTE, seating=seating, order=order, next_first=order[0]
        )
    return dataclasses.replace(state, phase=SEATING, seating=seating)


def _settle_throw_off(seating: Seating) -> Seating:
    """Once every tied player has thrown, split the group by total, highest first."""
    index = next(i for i, group in enumerate(seating.groups) if len(group) > 1)
    tied = seating.groups[index]
    if len(seating.pending) < len(tied):
        return seating
    totals = dict(seating.pending)
    split = tuple(
        tuple(seat for seat in tied if totals[seat] == total)
        for total in sorted(set(totals.values()), reverse=True)
    )
    groups = seating.groups[:index] + split + seating.groups[index + 1 :]
    return dataclasses.replace(seating, groups=groups, pending=())


def seating_incomplete(state: State) -> IllegalEvent:
    assert state.seating is not None
    seat = seating_thrower(state.seating)
    return IllegalEvent(
        "seating.incomplete",
        f"The seating throws are not finished: {player_at(seat)} throws the three dice next "
        "(seating.thrown).",
        seat=seat,
    )


# --- between rounds: antes, leaving and joining (11.3, D-PT-9) ---------------------------------


def _ante(state: State, move: Move) -> State:
    if state.phase == SHOOTING:
        raise IllegalEvent(
            "round.already_anted", f"Round {state.round} is under way: its antes are in."
        )
    seated = turn_from(state, seated_from(state, state.next_first))
    if len(seated) < 2:
        raise IllegalEvent(
            "round.too_few_players",
            f"A round needs two seated players; only {len(seated)} is seated.",
        )
    state = dataclasses.replace(
        state,
        phase=SHOOTING,
        round=state.round + 1,
        first_shooter=seated[0],
        shooter=seated[0],
        doubled=False,
        ledger_start=state.ledger_start + len(state.ledger),
        ledger=Ledger(),  # the last round's movements stay in the events (and on /pot/)
        throws=(),  # the previous round's throws are in the event stream
    )
    return _move_each(state, "ante", seated, state.ruleset.ante_chips)


def _leave(state: State, move: Move) -> State:
    seat = _seat_of(state, move)
    if seat in state.away:
        raise IllegalEvent("player.already_left", f"{player_at(seat)} has already left.", seat=seat)
    return dataclasses.replace(state, away=state.away | {seat})


def _join(state: State, move: Move) -> State:
    seat = _seat_of(state, move)
    if seat not in state.away:
        raise IllegalEvent(
            "player.already_seated", f"{player_at(seat)} is already seated.", seat=seat
        )
    return dataclasses.replace(state, away=state.away - {seat})


def _seat_of(state: State, move: Move) -> int:
    """The seat a join or leave names; only between rounds (D-PT-9)."""
    seat = move.data.get("seat")
    if not is_seat_number(seat):
        raise IllegalEvent(
            "event.bad_data",
            f"'seat' of {move.type} must be a seat number from 0 to {state.seats - 1}.",
            field="seat",
        )
    if not 0 <= seat < state.seats:
        raise seat_unknown(seat, state.seats)
    if state.phase == SHOOTING:
        raise IllegalEvent(
            "player.mid_round",
            f"{player_at(seat)} can join or leave only between rounds; round {state.round} is "
            "under way.",
            seat=seat,
        )
    return seat


# --- a round: double down and throws (11.4-11.6) -------------------------------------------------


def _double_down(state: State, move: Move) -> State:
    _check_round_on(state, move)
    if state.doubled:
        raise IllegalEvent(
            "double_down.already_called",
            f"{player_at(state.shooter)} has already called double down for this throw.",
        )
    return dataclasses.replace(state, doubled=True)


def _throw(state: State, move: Move) -> State:
    _check_round_on(state, move)
    if move.data.get("opposite"):
        raise IllegalEvent(
            "opposite.not_allowed", "Put-and-Take has no Opposite: the three dice count face up."
        )
    faces = read_faces(move.data, DICE)
    assert state.shooter is not None
    kind, chips = classify(faces)
    asked = chips * 2 if state.doubled else chips
    throw = Throw(state.round, state.shooter, faces, kind, state.doubled, asked, 0)
    state = dataclasses.replace(state, doubled=False)
    return _THROW_EFFECTS[kind](state, throw)


def _check_round_on(state: State, move: Move) -> None:
    if state.phase != SHOOTING:
        raise IllegalEvent(
            "round.not_anted",
            f"No round is under way: the antes of round {state.round + 1} come first "
            f"(round.anted), before {move.type}.",
        )


def _scarney(state: State, throw: Throw) -> State:
    """The shooter takes the whole pot and wins the round."""
    pot = state.balance
    state = _move_chips(state, "win", throw.seat, -pot)
    return _end_round(state, throw._replace(chips=-pot), throw.seat, "scarney")


def _put(state: State, throw: Throw) -> State:
    """The shooter pays into the pot and passes the dice to his left."""
    state = _move_chips(state, "put", throw.seat, throw.asked)
    throw = throw._replace(chips=throw.asked)
    return dataclasses.replace(
        state, shooter=left_of(state, throw.seat), throws=(*state.throws, throw)
    )


def _take(state: State, throw: Throw) -> State:
    """The shooter takes from the pot and throws again; a short take ends the round."""
    if throw.asked > state.balance:
        pot = state.balance
        state = _move_chips(state, "take", throw.seat, -pot)
        short = throw._replace(chips=-pot, short=True)
        return _end_round(state, short, throw.seat, "short_take")
    state = _move_chips(state, "take", throw.seat, -throw.asked)
    refill = 0
    if throw.asked > 0 and state.balance <= REFILL_AT:  # D-PT-3: one refill, even if still low
        before = state.balance
        seated = turn_from(state, state.first_shooter)
        state = _move_each(state, "refill", seated, state.ruleset.ante_chips)
        refill = state.balance - before
    throw = throw._replace(chips=-throw.asked, refill=refill)
    return dataclasses.replace(state, throws=(*state.throws, throw))


def _split(state: State, throw: Throw) -> State:
    return dataclasses.replace(state, throws=(*state.throws, throw))


def _move_chips(state: State, kind: str, seat: int, chips: int) -> State:
    return _move_each(state, kind, [seat], chips)


def _move_each(state: State, kind: str, seats: Sequence[int], chips: int) -> State:
    """The same movement for each of ``seats`` in turn; the nets follow the ledger."""
    if chips == 0:
        return state
    ledger, nets = state.ledger, list(state.seat_nets)
    for seat in seats:
        ledger = ledger.plus(PotEntry(kind, seat, chips))
        nets[seat] -= chips
    return dataclasses.replace(
        state,
        balance=state.balance + chips * len(seats),
        ledger=ledger,
        seat_nets=tuple(nets),
    )


def _end_round(state: State, throw: Throw, winner: int, how: str) -> State:
    """The pot is empty (D-PT-8); the next round starts left of the winner (D-PT-2 aside).

    A short take ends the round with no winner (11.6): its shooter is treated as the winner
    only to say who starts the next round (D-PT-2).
    """
    short = how == "short_take"
    stays = short and state.ruleset.put_take_after_short_take == "same_shooter"
    return dataclasses.replace(
        state,
        phase=ROUND_OVER,
        shooter=None,
        next_first=winner if stays else left_of(state, winner),
        throws=(*state.throws, throw),
        round_ends=state.round_ends + round_end_byte(None if short else winner, how),
    )


_THROW_EFFECTS = {SCARNEY: _scarney, PUT: _put, TAKE: _take, SPLIT: _split}


# --- the end of the session (D-PT-5) -------------------------------------------------------------


def _end_session(state: State, move: Move) -> State:
    if state.phase != SHOOTING:
        return dataclasses.replace(state, phase=OVER)
    assert state.shooter is not None
    turn = turn_from(state, state.shooter)
    if state.ruleset.put_take_abandoned_pot == "to_contributors":
        shares = _pro_rata(state, turn)
    else:
        shares = {seat: state.balance // len(turn) for seat in turn}
    leftover = state.balance - sum(shares.values())
    for index in range(leftover):  # remainder chips one each, in turn from the shooter
        shares[turn[index % len(turn)]] += 1
    for seat in turn:
        state = _move_chips(state, "refund", seat, -shares[seat])
    ends = state.round_ends + round_end_byte(None, "abandoned")
    return dataclasses.replace(state, phase=OVER, shooter=None, round_ends=ends)


def _pro_rata(state: State, turn: list[int]) -> dict[int, int]:
    """What each put in this round, scaled down to the pot (whole chips, rounded down)."""
    paid = dict.fromkeys(turn, 0)
    for movement in state.ledger:  # the round's
        if movement.chips > 0 and movement.seat is not None:
            paid[movement.seat] += movement.chips
    total = sum(paid.values())
    return {seat: state.balance * paid[seat] // total for seat in turn}


HANDLERS = {
    SEATING_THROWN: _seating_throw,
    ANTED: _ante,
    DOUBLE_DOWN: _double_down,
    THROWN: _throw,
    LEFT: _leave,
    JOINED: _join,
    ENDED: _end_session,
}
