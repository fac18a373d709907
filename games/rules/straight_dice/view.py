"""Straight Scarney Dice's scores and views: kept bonuses itemised, the dice, the pot, the pad."""

from __future__ import annotations

from typing import Any

from games.rules.base import BonusAward, SeatScore
from games.rules.dice import LONG, SCARNEY_DIE, choice, pot_view_shape, seating_throw_view, thrown
from games.rules.shapes import SEAT, Boolean, Integer, ListOf, Nullable, Record, record
from games.rules.straight_dice.play import (
    ENDED_BIG_SCARNEY,
    ENDED_CRAPPED_OUT,
    ENDED_STOOD,
    Frame,
    State,
    balance,
    frame_totals,
    nets,
)
from games.rules.straight_dice.throws import (
    BIG_SCARNEY,
    BONUSES,
    CRAP_OUT,
    DICE,
    LITTLE_SCARNEY,
    POINTS,
    SCORELESS,
    Throw,
)


def seat_score(state: State, seat: int) -> SeatScore:
    """Kept number totals as points; bonuses itemised by kind, each throw named in ``why``.

    One award per kind (in the order first earned) keeps a seat's awards distinct by kind, as
    the read side stores them; the dice of a kind earned once are its ``pawns``.
    """
    points = 0
    earned: dict[str, list[tuple[int, Throw]]] = {}
    for frame in state.frames:
        if frame.seat != seat:
            continue
        for throw in frame.kept():
            points += throw.numbers + throw.doubling
            if throw.bonus:
                earned.setdefault(throw.bonus, []).append((frame.number, throw))
    return SeatScore(seat, points, tuple(_award(kind, throws) for kind, throws in earned.items()))


def _award(kind: str, throws: list[tuple[int, Throw]]) -> BonusAward:
    why = "; ".join(f"frame {number}: {' '.join(throw.scored)}" for number, throw in throws)
    dice = throws[0][1].scored if len(throws) == 1 else ()
    return BonusAward(kind, sum(throw.bonus_points for _, throw in throws), why, dice)


def pot_view(state: State) -> dict[str, Any]:
    return {"balance": balance(state.ledger), "nets": nets(state.ledger, state.seats)}


def sides_view(state: State) -> list[dict[str, Any]]:
    if state.seating is not None:
        return []  # partner throws decide the sides
    totals = frame_totals(state)
    return [
        {"seats": list(side), "total": sum(totals[seat] for seat in side)} for side in state.sides
    ]


def dice_view(state: State) -> dict[str, Any]:
    """Whose throw, the dice in the cup, what the shooter may do, every throw itemised."""
    frame = state.frame
    # The frame in play shows its throws in the pad and again below: itemised once for both.
    in_play = [] if frame is None else [throw.as_dict() for throw in frame.throws]
    base: dict[str, Any] = {
        "phase": _phase(state),
        "order": list(state.order),
        "round": state.round,
        "frames": [_seat_frames(state, seat, frame, in_play) for seat in range(state.seats)],
        "big_scarney": state.big_scarney,
        "seating": _seating_view(state),
    }
    if state.seating is not None:
        return {**base, "shooter": state.seating.pending[0], "in_cup": DICE}
    if frame is None:
        return {**base, "shooter": None, "in_cup": 0}
    return {
        **base,
        "shooter": frame.seat,
        "frame": frame.number,
        "in_cup": frame.live,
        "held": frame.held,
        "double_down": frame.double_down,
        "may_stand": frame.holding,
        "may_double_down": not frame.holding and not frame.double_down,
        "may_call_opposite": frame.live == 1,
        "throws": in_play,
    }


def _phase(state: State) -> str:
    if state.over:
        return "over"
    if state.seating is not None:
        return "seating"
    frame = state.frame
    return "holding" if frame is not None and frame.holding else "ready"


def _seat_frames(
    state: State, seat: int, in_play: Frame | None, in_play_throws: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The seat's column of the pad: each frame's score and running total, with the throws of
    his latest finished frame and of a frame in play only (earlier frames' throws are in the
    event stream), so the answer to a move stays the size of a round, not of the game."""
    mine = [frame for frame in state.frames if frame.seat == seat]
    latest = next((frame for frame in reversed(mine) if frame.ended), None)
    rows, running = [], 0
    for frame in mine:
        running += frame.score if frame.ended else 0
        row: dict[str, Any] = {
            "frame": frame.number,
            "score": frame.score if frame.ended else None,
            "cumulative": running if frame.ended else None,
            "ended": frame.ended or None,
        }
        if frame is in_play:
            row["throws"] = in_play_throws
        elif not frame.ended or frame is latest:
            row["throws"] = [throw.as_dict() for throw in frame.throws]
        rows.append(row)
    return rows


def _seating_view(state: State) -> dict[str, Any] | None:
    """The seating throws: those in progress, or those that decided the order of play."""
    seating = state.seating
    throws = seating.throws if seating is not None else state.seating_throws
    if seating is None and not throws:
        return None
    return {
        "ranking": [list(group) for group in seating.ranking] if seating else None,
        "throwing": list(seating.ranking[seating.group]) if seating else [],
        "pending": list(seating.pending) if seating else [],
        "throws": [{"seat": t.seat, "faces": list(t.faces), "total": t.total} for t in throws],
    }


# --- what the views give (games/rules/shapes.py) ----------------------------------------------

THROW_VIEW = record(
    "One throw of a frame, itemised (Throw.as_dict).",
    faces=thrown(SCARNEY_DIE, DICE, doc="the top faces as recorded"),
    opposite=Boolean(doc="Opposite was called: the bottom face counts"),
    scored_faces=thrown(SCARNEY_DIE, DICE, doc="the faces that count (the bottom one on Opposite)"),
    double_down=Boolean(doc="a double-down was called for this throw"),
    outcome=choice(
        BIG_SCARNEY, LITTLE_SCARNEY, SCORELESS, CRAP_OUT, POINTS, doc="what the throw was (7.5)"
    ),
    number_total=Integer(0, doc="the number total, before doubling"),
    doubling=Integer(0, doc="what the double-down added to the number total"),
    bonus=Nullable(
        record(
            "The throw's one bonus.",
            kind=choice(*(kind for kind, _ in BONUSES), LITTLE_SCARNEY),
            points=Integer(0),
        ),
        doc="the throw's bonus, null if none",
    ),
    points=Integer(0, doc="number total, doubling and bonus"),
    cancelled=Integer(0, doc="points held before a scoreless throw that it wiped out"),
    dead_dice=Integer(0, DICE, doc="dice the throw put out of play"),
)
PAD_ROW = record(
    "A frame on the seat's column of the pad.",
    optional=("throws",),
    frame=Integer(1, doc="the frame's number (8 on: extra frames)"),
    score=Nullable(Integer(0), doc="the frame's score, null while it is in play"),
    cumulative=Nullable(Integer(0), doc="the running total, null while the frame is in play"),
    ended=Nullable(
        choice(ENDED_STOOD, ENDED_CRAPPED_OUT, ENDED_BIG_SCARNEY),
        doc="how the frame ended, null while it is in play",
    ),
    throws=ListOf(
        THROW_VIEW,
        LONG,
        doc="the frame's throws: only for the frame in play and the seat's latest finished frame",
    ),
)
IN_PLAY = ("frame", "held", "double_down", "may_stand", "may_double_down", "may_call_opposite")


def view_declared(most_seats: int, most_sides: int) -> Record:
    """The view of Straight Scarney Dice (``most_sides`` sides of one) or of its partnership game.

    The fields of the frame in play (``frame``, ``held`` ... ``throws``) are there only while a
    frame is in play: not during the seating throws nor once the game is over.
    """
    seating = record(
        "The seating (partner) throws: those in progress, or those that decided the order of play.",
        ranking=Nullable(
            ListOf(ListOf(SEAT, most_seats, 1), most_seats),
            doc="groups of seats, best total first (a group of several is tied), null once decided",
        ),
        throwing=ListOf(
            SEAT, most_seats, doc="the tied group throwing (again), empty once decided"
        ),
        pending=ListOf(SEAT, most_seats, doc="its seats still to throw, the next first"),
        throws=ListOf(seating_throw_view(SCARNEY_DIE, DICE), LONG, doc="every seating throw"),
    )
    dice = record(
        "Whose throw, the dice in the cup, what the shooter may do, the pad.",
        optional=(*IN_PLAY, "throws"),
        phase=choice("seating", "ready", "holding", "over", doc="where the game is"),
        order=ListOf(SEAT, most_seats, doc="the order of play, empty during the seating throws"),
        round=Integer(
            0, doc="the round of frames in play (8 on: extra frames), 0 before the first"
        ),
        frames=ListOf(
            ListOf(PAD_ROW, LONG, doc="the seat's frames"), most_seats, doc="the pad, per seat"
        ),
        big_scarney=Nullable(SEAT, doc="the seat whose Big Scarney won the game, else null"),
        seating=Nullable(seating, doc="the seating throws, null if none were recorded"),
        shooter=Nullable(SEAT, doc="the seat to throw, null once the game is over"),
        in_cup=Integer(0, DICE, doc="live dice in the cup"),
        frame=Integer(1, doc="the frame in play's number"),
        held=Integer(0, doc="the points the shooter holds in the frame"),
        double_down=Boolean(doc="a double-down is called for the next throw"),
        may_stand=Boolean(doc="the shooter holds a point score and may stand"),
        may_double_down=Boolean(doc="the shooter may double down for the next throw"),
        may_call_opposite=Boolean(doc="one live die: the shooter may call Opposite"),
        throws=ListOf(THROW_VIEW, LONG, doc="the frame in play's throws"),
    )
    side = record(
        "A side: its seats and their total.",
        seats=ListOf(SEAT, most_seats // most_sides, 1),
        total=Integer(0, doc="the side's total so far"),
    )
    return record(
        dice=dice,
        pot=pot_view_shape(most_seats),
        sides=ListOf(side, most_sides, doc="the sides, none while partner throws decide them"),
    )
