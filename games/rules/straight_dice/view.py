"""Straight Scarney Dice's scores and views: kept bonuses itemised, the dice, the pot, the pad."""

from __future__ import annotations

from typing import Any

from games.rules.base import BonusAward, SeatScore
from games.rules.straight_dice.play import Frame, State, balance, frame_totals, nets
from games.rules.straight_dice.throws import DICE, Throw


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
