"""Scarney 3000's scores and views: bonus hands itemised, the dice, the throws, the sheet."""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from games.rules.base import BonusAward, SeatScore
from games.rules.dice import DEAD, LONG, SCARNEY_DIE, choice, seating_throw_view, thrown
from games.rules.scarney_3000.play import (
    AWARD_SIZE,
    DRAWING,
    MAY_STAND,
    MUST_THROW,
    OVER,
    TURN_SIZE,
    State,
    Turns,
    contestant_totals,
    unpack_awards,
)
from games.rules.scarney_3000.throws import (
    BUST,
    DICE,
    MINIMUM,
    SCORED,
    UNCONFIRMED,
    Throw,
    hand_name,
)
from games.rules.shapes import (
    SEAT,
    Boolean,
    Integer,
    ListOf,
    Nullable,
    Record,
    Shape,
    Text,
    record,
)

SIDE_NAMES = ("We", "They")


def scores_of(state: State) -> tuple[SeatScore, ...]:
    """Every seat's score: points are the turn scores less their bonus hands, which are
    itemised. The kind names the hand (``three_6s``, ``four_dead_dice``): one kind has one value
    in a game, so a seat's awards of one kind are identical rows on the read side; ``why`` names
    the seat's turn that made it. Made once per (totals, awards), which change only as a turn
    ends."""
    return _scores(state.sums, state.awards, state.seats)


# A long game itemises a hundred bonus hands, and its scores stay the same over the throws of a
# turn: each move's answer and summary would unpack them all again. Kept for the few hundred
# games a process serves at once (each entry is one game's scores at one turn).
@functools.lru_cache(maxsize=256)
def _scores(sums: tuple[int, ...], awards: bytes, seats: int) -> tuple[SeatScore, ...]:
    totals = list(sums) if sums else [0] * seats
    return tuple(
        SeatScore(seat, totals[seat] - bonus, bonuses)
        for seat, (bonuses, bonus) in enumerate(_owned(awards, seats))
    )


class _Kept:
    """The last ``size`` values made, by key, for building the next one on them."""

    def __init__(self, size: int) -> None:
        self._values: OrderedDict[Any, Any] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, key: Any) -> Any:
        return self._values.get(key)

    def put(self, key: Any, value: Any) -> None:
        with self._lock:
            self._values[key] = value
            if len(self._values) > self._size:
                self._values.popitem(last=False)


_OWNED = _Kept(256)
_SHEETS = _Kept(256)

Owned = tuple[tuple[tuple[BonusAward, ...], int], ...]


def _owned(awards: bytes, seats: int) -> Owned:
    """Each seat's bonus hands and their sum. A turn appends its awards to those before it: the
    awards are built on those of an earlier turn still kept, so that a turn's end costs its own
    awards, not the game's."""
    found: Owned | None = _OWNED.get((awards, seats))
    if found is not None:
        return found
    base: Owned = tuple(((), 0) for _ in range(seats))
    start = 0
    for rows in range(1, 9):  # a turn's awards: a few rows (the throws' bonus hands)
        cut = len(awards) - rows * AWARD_SIZE
        if cut < 0:
            break
        before = _OWNED.get((awards[:cut], seats))
        if before is not None:
            base, start = before, cut
            break
    added: list[list[BonusAward]] = [[] for _ in range(seats)]
    for owner, number, face, count, points in unpack_awards(awards[start:]):
        added[owner].append(_award(face, count, points, number))
    owned = tuple(
        (bonuses + tuple(more), bonus + sum(award.points for award in more))
        for (bonuses, bonus), more in zip(base, added, strict=True)
    )
    _OWNED.put((awards, seats), owned)
    return owned


def _award(face: str, count: int, points: int, number: int) -> BonusAward:
    name = hand_name(face, count)
    confirmed = "" if face == DEAD else " confirmed"
    why = f"{name}{confirmed}, turn {number}"
    return BonusAward(name.replace(" ", "_"), points, why, (face,) * count)


def dice_view(state: State) -> dict[str, Any]:
    """Whose throw, the dice in the cup and set aside, the turn's points, every throw itemised."""
    over = state.phase == OVER
    return {
        "phase": state.phase,
        "shooter": None if over else state.shooter,
        "in_cup": 0 if over else state.in_cup,
        "set_aside": list(set_aside(state.throws)),
        "may_stand": state.phase == MAY_STAND,
        "must_throw": state.phase == MUST_THROW,
        "turn_points": state.banked,
        "pending": state.pending,
        "minimum": MINIMUM,
        "throws": throws_view(state.throws),
        "closing": None if state.closing is None else list(state.closing),
        "order": list(state.order),
        "draw": draw_view(state),
        "last_turn": last_turn_view(state),
    }


def last_turn_view(state: State) -> dict[str, Any] | None:
    """The turn just ended, so the table sees how a bust (or a stand) came about."""
    if not state.turns:
        return None
    turn = state.turns[-1]
    return {"seat": turn.seat, "score": turn.score, "throws": throws_view(state.last_throws)}


def draw_view(state: State) -> dict[str, Any] | None:
    """The seating (partner) throws: every throw, and while they go on, who throws and why."""
    draw = state.draw
    throws = draw.throws if draw is not None else state.draw_throws
    if draw is None and not throws:
        return None
    return {
        "throws": [{"seat": t.seat, "faces": list(t.faces), "total": t.total} for t in throws],
        "ranking": None if draw is None else [list(group) for group in draw.ranking],
        "throwing": None if draw is None else list(draw.pending),
    }


def report_of(state: State) -> dict[str, Any]:
    """What the match keeps of a game: every turn (busts 0), the order of play, the sides."""
    return {
        "turns": [[seat, score] for seat, score in state.turns.rows()],
        "order": list(state.order),
        "sides": [list(team) for team in state.teams],
    }


def set_aside(throws: Sequence[Throw]) -> tuple[str, ...]:
    """The scoring dice put aside since the cup was last full (all five scored: all go back)."""
    aside: tuple[str, ...] = ()
    for throw in throws:
        aside = (*aside, *throw.scoring_faces)
        if len(aside) == DICE:
            aside = ()
    return aside


def throws_view(throws: Sequence[Throw]) -> list[dict[str, Any]]:
    """Each throw's parts: dead dice, bust numbers, the number bonus, what it confirmed."""
    rows = []
    banked = pending = 0
    for throw in throws:
        banked = banked + throw.points if throw.outcome == SCORED else banked
        pending = pending + throw.bonus_points if throw.outcome == UNCONFIRMED else 0
        if throw.outcome == BUST:
            banked = 0
        rows.append(throw_view(throw, banked, pending))
    return rows


def throw_view(throw: Throw, banked: int, pending: int) -> dict[str, Any]:
    bonus_status = {SCORED: "confirmed", UNCONFIRMED: "pending", BUST: "lost"}[throw.outcome]
    numbers = [f for f in throw.faces if f != DEAD and f != throw.bonus_face]
    return {
        "faces": list(throw.faces),
        "outcome": throw.outcome,
        "dead_dice": {
            "count": throw.dead,
            "points": throw.dead_points,
            "bonus": throw.dead >= 3,
        },
        "numbers": {"faces": numbers, "points": 0},
        "number_bonus": None
        if throw.bonus_face is None
        else {
            "hand": hand_name(throw.bonus_face, throw.bonus_dice),
            "faces": [throw.bonus_face] * throw.bonus_dice,
            "points": throw.bonus_points,
            "status": bonus_status,
        },
        "confirmation": throw.confirmed,
        "points": throw.points,
        "turn_points": banked,
        "pending": pending,
    }


def sheet_view(state: State) -> list[dict[str, Any]]:
    """Each seat's column as on the book's sheet: scoring turns, "score - cumulative".

    Made once per turn (the sheet changes only as one ends), on the sheet before that turn when
    it is still kept; shared: callers must not change it."""
    turns, seats = state.turns.packed, state.seats
    found: list[dict[str, Any]] | None = _SHEETS.get((turns, seats))
    if found is not None:
        return found
    before = _SHEETS.get((turns[:-TURN_SIZE], seats)) if turns else None
    sheet = _sheet(turns, seats) if before is None else _sheet_after(before, turns)
    _SHEETS.put((turns, seats), sheet)
    return sheet


def _sheet(turns: bytes, seats: int) -> list[dict[str, Any]]:
    columns: list[list[dict[str, int]]] = [[] for _ in range(seats)]
    running = [0] * seats
    for seat, score in Turns(turns).rows():
        if score:
            running[seat] += score
            columns[seat].append({"score": score, "cumulative": running[seat]})
    return [
        {"seat": seat, "entries": entries, "total": running[seat]}
        for seat, entries in enumerate(columns)
    ]


def _sheet_after(before: list[dict[str, Any]], turns: bytes) -> list[dict[str, Any]]:
    """The sheet ``before`` with the last of ``turns`` entered (a bust is not written)."""
    seat, score = next(Turns(turns[-TURN_SIZE:]).rows())
    if not score:
        return before
    column = before[seat]
    total = column["total"] + score
    sheet = list(before)
    entry = {"score": score, "cumulative": total}
    sheet[seat] = {"seat": seat, "entries": [*column["entries"], entry], "total": total}
    return sheet


def sides_view(state: State) -> list[dict[str, Any]]:
    """The "We" and "They" columns: each side's seats and total."""
    return [
        {"name": name, "seats": list(group), "total": total}
        for name, group, total in zip(
            SIDE_NAMES, state.teams, contestant_totals(state), strict=True
        )
    ]


# --- what the views give (games/rules/shapes.py) ----------------------------------------------

# The turns of a game: a sheet's entries, a report's turns. No count is fixed (the target is a
# house rule, and busts enter nothing): ample for any game a table plays.
MOST_TURNS = 100_000

THROW_VIEW = record(
    "One throw of a turn, itemised: its dead dice, its number bonus, what it confirmed.",
    faces=thrown(SCARNEY_DIE, DICE, doc="the faces thrown, dead dice first"),
    outcome=choice(
        SCORED,
        UNCONFIRMED,
        BUST,
        doc="scored (a dead die), unconfirmed (a bonus awaiting a dead die) or bust",
    ),
    dead_dice=record(
        "The throw's dead dice.",
        count=Integer(0, DICE),
        points=Integer(0, doc="50 a die for one or two; three or more are a bonus hand"),
        bonus=Boolean(doc="three or more dead dice: a bonus hand"),
    ),
    numbers=record(
        "The numbers that score nothing of themselves.",
        faces=ListOf(SCARNEY_DIE, DICE),
        points=Integer(0, 0, doc="always 0: numbers score only as a bonus hand"),
    ),
    number_bonus=Nullable(
        record(
            "Three or more of a number.",
            hand=Text(16, doc='the hand, e.g. "three 6s"'),
            faces=ListOf(SCARNEY_DIE, DICE, 3),
            points=Integer(0),
            status=choice("confirmed", "pending", "lost"),
        ),
        doc="the number bonus, null if none",
    ),
    confirmation=Integer(0, doc="pending bonus points this throw's dead die confirmed"),
    points=Integer(0, doc="what the throw added to the turn's confirmed points"),
    turn_points=Integer(0, doc="the turn's confirmed points after the throw"),
    pending=Integer(0, doc="bonus points awaiting a dead die after the throw"),
)


def view_declared(most_seats: int, sides: bool) -> Record:
    """The view of Scarney 3000, or with ``sides`` of its partnership game: ``sides`` is there
    once the sides are known (not while partner throws decide them)."""
    seats = ListOf(SEAT, most_seats)
    draw = record(
        "The seating (partner) throws: every throw, and while they go on, who throws.",
        throws=ListOf(seating_throw_view(SCARNEY_DIE, DICE), LONG),
        ranking=Nullable(
            ListOf(ListOf(SEAT, most_seats, 1), most_seats),
            doc="groups of seats, best total first (several: tied), null once decided",
        ),
        throwing=Nullable(seats, doc="the seats still to throw, null once decided"),
    )
    dice = record(
        "Whose throw, the dice in the cup and set aside, the turn's points, every throw.",
        phase=choice(DRAWING, MUST_THROW, MAY_STAND, OVER, doc="drawing: seating (partner) throws"),
        shooter=Nullable(SEAT, doc="the seat to throw, null once the game is over"),
        in_cup=Integer(0, DICE, doc="dice in the cup"),
        set_aside=ListOf(
            SCARNEY_DIE, DICE - 1, doc="scoring dice set aside since the cup was full"
        ),
        may_stand=Boolean(doc="the shooter holds the minimum confirmed and may stand"),
        must_throw=Boolean(doc="the shooter must throw (no stand now)"),
        turn_points=Integer(0, doc="the turn's confirmed points"),
        pending=Integer(0, doc="bonus points awaiting a dead die"),
        minimum=Integer(MINIMUM, MINIMUM, doc="the confirmed points a shooter needs to stand"),
        throws=ListOf(THROW_VIEW, LONG, doc="the turn's throws"),
        closing=Nullable(
            seats,
            doc="with s3000_equal_turns, the seats still due before the final comparison; "
            "null while no one has reached the target",
        ),
        order=ListOf(SEAT, most_seats, doc="the order of play (the seats while drawing)"),
        draw=Nullable(draw, doc="the seating (partner) throws, null if none were recorded"),
        last_turn=Nullable(
            record(
                "The turn just ended: how a bust or a stand came about.",
                seat=SEAT,
                score=Integer(0, doc="the score entered, 0 for a bust"),
                throws=ListOf(THROW_VIEW, LONG),
            ),
            doc="null before the first turn ends",
        ),
    )
    column = record(
        "A seat's column of the sheet.",
        seat=SEAT,
        entries=ListOf(
            record(
                "A scoring turn: its score and the running total.",
                score=Integer(MINIMUM),
                cumulative=Integer(MINIMUM),
            ),
            MOST_TURNS,
            doc="the seat's scoring turns (a bust is not written)",
        ),
        total=Integer(0),
    )
    fields: dict[str, Shape] = {
        "dice": dice,
        "target": Integer(1, doc="the target (s3000_target)"),
        "totals": ListOf(Integer(0), most_seats, doc="each seat's total"),
        "sheet": ListOf(column, most_seats, doc="the sheet, a column per seat"),
    }
    if not sides:
        return Record(fields)
    side = record(
        'A side: "We" or "They", its seats and its total.',
        name=choice(*SIDE_NAMES),
        seats=ListOf(SEAT, most_seats // 2, 2),
        total=Integer(0),
    )
    fields["sides"] = ListOf(side, 2, 2, doc="the two sides, once known")
    return Record(fields, frozenset({"sides"}))


def report_declared(most_seats: int, sides: bool) -> Record:
    """What ``match_report`` gives the match."""
    return record(
        "Every turn in order (busts as 0), the order of play and the sides.",
        turns=ListOf(
            ListOf(Integer(0), 2, 2, doc="[seat, score entered]"),
            MOST_TURNS,
            doc="every finished turn: [seat, score], 0 for a bust",
        ),
        order=ListOf(SEAT, most_seats, doc="the order of play"),
        sides=ListOf(
            ListOf(SEAT, most_seats // 2, 2),
            2 if sides else 0,
            doc='the two sides, "We" first' if sides else "none: each plays for himself",
        ),
    )
