"""Straight Scarney Dice (``straight-scarney-dice``): RULES.md sections 1.3 and 7.

Two or more players each shoot seven frames with five Scarney dice; a frame is a run of throws
(RULES.md 7.5): a point score may be kept ("stand") or risked ("hit"), a throw showing a dead die
cancels the frame's points and puts the dead dice out of play, and five dead dice end the frame
with nothing. Big Scarney (five of a kind) wins the game and the pot at once. Every player antes
before the game; double-downs add a chip each; the winner takes the pot.

The engine is written for *sides*: in the straight game each player is a side of one, which makes
the partnership game (RULES.md 8, ``games.rules.partnership_dice``) the same machine with sides of
two or three. The match format (one game, settled by the pot) and its sheet entry live here too.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from games.rules.base import BonusAward, Move, Result, SeatScore, make_ruleset
from games.rules.dice import DEAD, OPPOSITE, number_total, read_faces
from games.rules.errors import BadRuleset, BadSetup, IllegalEvent
from games.rules.matches import (
    GAME_SCORED,
    EntryWarning,
    GameEntry,
    ScoredMatch,
    ScoredMatchState,
    payments_settlement,
    register_format,
)
from games.rules.registry import register

KIND = "straight-scarney-dice"

THROWN = "dice.thrown"
STOOD = "shooter.stood"
DOUBLE_DOWN = "double_down.called"
EVENT_TYPES = frozenset({THROWN, STOOD, DOUBLE_DOWN})

DICE = 5
FRAMES = 7  # per player, before any extra frame (RULES.md 7.4)

# What a throw was (RULES.md 7.5, "evaluating a throw").
BIG_SCARNEY = "big_scarney"
LITTLE_SCARNEY = "little_scarney"
SCORELESS = "scoreless"
CRAP_OUT = "crap_out"
POINTS = "points"
HOLDS = frozenset({POINTS, LITTLE_SCARNEY})

# How a frame ended.
ENDED_STOOD = "stood"
ENDED_CRAPPED_OUT = "crapped_out"
ENDED_BIG_SCARNEY = "big_scarney"

LITTLE_SCARNEY_POINTS = 25
# The one highest bonus of a live throw (D-SSD-4), best first: (kind, points).
BONUSES = (
    ("four_of_a_kind", 40),
    ("full_house", 30),
    ("three_of_a_kind", 20),
    ("two_pairs", 10),
)


@dataclass(frozen=True, slots=True)
class Ruleset:
    """House rules of the Scarney dice games (RULES.md Appendix E) with their defaults."""

    ALLOWED: ClassVar[Mapping[str, tuple[object, ...]]] = {
        "little_scarney_counts_live_die": (True, False),
        "little_scarney_on_four_dice": (True, False),
        "sheet_entry_validation": ("strict", "lenient"),
    }

    ante_chips: int = 1
    little_scarney_counts_live_die: bool = False
    little_scarney_on_four_dice: bool = False
    sheet_entry_validation: str = "strict"

    def __post_init__(self) -> None:
        # D-SSD-11: any positive whole number of chips, so no closed list of values.
        ante = self.ante_chips
        if not isinstance(ante, int) or isinstance(ante, bool) or ante < 1:
            raise BadRuleset(
                "ruleset.bad_value",
                f"House rule 'ante_chips' must be a positive whole number of chips, not {ante!r}.",
                parameter="ante_chips",
            )


# --- evaluating one throw (RULES.md 7.5) ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Throw:
    """One throw of a frame, itemised: what showed, what counted and why."""

    faces: tuple[str, ...]  # the top faces as recorded
    opposite: bool = False
    scored: tuple[str, ...] = ()  # the faces that count: the bottom ones after "Opposite"
    doubled: bool = False  # a double-down was called for this throw
    outcome: str = POINTS
    numbers: int = 0  # number total before doubling
    doubling: int = 0  # what the double-down added to the number total
    bonus: str = ""
    bonus_points: int = 0
    cancelled: int = 0  # points held before this throw that it wiped out
    dead: int = 0  # dice this throw put out of play

    @property
    def points(self) -> int:
        return self.numbers + self.doubling + self.bonus_points

    def as_dict(self) -> dict[str, Any]:
        return {
            "faces": list(self.faces),
            "opposite": self.opposite,
            "scored_faces": list(self.scored),
            "double_down": self.doubled,
            "outcome": self.outcome,
            "number_total": self.numbers,
            "doubling": self.doubling,
            "bonus": {"kind": self.bonus, "points": self.bonus_points} if self.bonus else None,
            "points": self.points,
            "cancelled": self.cancelled,
            "dead_dice": self.dead,
        }


def evaluate(
    faces: Sequence[str], *, doubled: bool = False, opposite: bool = False, ruleset: Ruleset
) -> Throw:
    """What a throw of ``len(faces)`` live dice is worth (the first rule of 7.5 that matches)."""
    top = tuple(sorted(faces))
    scored = tuple(sorted(OPPOSITE[f] for f in top)) if opposite else top
    throw = Throw(top, opposite, scored, doubled)
    n, dead = len(scored), scored.count(DEAD)
    if n == DICE and len(set(scored)) == 1:
        return dataclasses.replace(throw, outcome=BIG_SCARNEY)
    if n == DICE and dead == DICE - 1:
        return _little_scarney(throw, ruleset)
    if dead == n == DICE - 1 and ruleset.little_scarney_on_four_dice:
        # D-SSD-2 house rule: worth 25, and the frame ends with the shooter standing.
        return dataclasses.replace(
            throw, outcome=LITTLE_SCARNEY, bonus=LITTLE_SCARNEY,
            bonus_points=LITTLE_SCARNEY_POINTS, dead=dead,
        )  # fmt: skip
    if dead:
        return dataclasses.replace(throw, outcome=CRAP_OUT if dead == n else SCORELESS, dead=dead)
    kind, points = bonus_of(scored)
    numbers = number_total(scored)
    return dataclasses.replace(
        throw, numbers=numbers, doubling=doubling(scored) if doubled else 0, bonus=kind,
        bonus_points=points,
    )  # fmt: skip


def _little_scarney(throw: Throw, ruleset: Ruleset) -> Throw:
    """Four dead dice of five: 25, never doubled (D-SSD-1); the live die only by house rule."""
    live = tuple(f for f in throw.scored if f != DEAD)
    numbers = number_total(live) if ruleset.little_scarney_counts_live_die else 0
    extra = doubling(live) if ruleset.little_scarney_counts_live_die and throw.doubled else 0
    return dataclasses.replace(
        throw, outcome=LITTLE_SCARNEY, numbers=numbers, doubling=extra, bonus=LITTLE_SCARNEY,
        bonus_points=LITTLE_SCARNEY_POINTS, dead=DICE - 1,
    )  # fmt: skip


def doubling(faces: Sequence[str]) -> int:
    """Points a double-down adds to a live throw's number total (one die: only a 1 or a 6)."""
    if len(faces) == 1:
        return number_total(faces) if faces[0] in ("1", "6") else 0
    return number_total(faces)


def bonus_of(faces: Sequence[str]) -> tuple[str, int]:
    """The single highest bonus of a throw of numbers, or ``("", 0)`` (D-SSD-4)."""
    counts = sorted(Counter(faces).values(), reverse=True) + [0]
    if counts[0] == 4:
        return BONUSES[0]
    if counts[0] == 3:
        return BONUSES[1] if counts[1] == 2 else BONUSES[2]
    if counts[0] == counts[1] == 2:
        return BONUSES[3]
    return "", 0


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
class Movement:
    """One entry of the pot ledger: chips into the pot positive, out of it negative."""

    kind: str
    seat: int | None
    chips: int

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "chips": self.chips}


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
    ledger: tuple[Movement, ...] = ()
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


# --- the rule engine -----------------------------------------------------------------------------


class StraightDiceRules:
    """The rule engine of ``straight-scarney-dice`` (the ``Rules`` protocol of games.rules.base)."""

    kind = KIND
    name = "Straight Scarney Dice"
    ruleset_type: type[Any] = Ruleset
    min_seats = 2
    max_seats = 16
    SETUP_KEYS: ClassVar[frozenset[str]] = frozenset({"seating_throws", "first_shooter"})

    def initial_state(self, setup: Mapping[str, Any], ruleset: Any, seats: int) -> State:
        """Seat 0 shoots first (or ``first_shooter``), unless seating throws are to be recorded."""
        self._check_seats(seats)
        rules = ruleset if isinstance(ruleset, self.ruleset_type) else make_ruleset(
            self.ruleset_type, ruleset
        )  # fmt: skip
        setup = _setup_object(setup, self.SETUP_KEYS, self.name)
        sides = self.sides_of(setup, seats)
        state = State(rules, seats, sides)
        if _flag(setup, self.throws_key()):
            if "first_shooter" in setup:
                raise BadSetup(
                    "setup.conflict",
                    f"Give either the first shooter or {self.throws_key()}, not both.",
                )
            everyone = tuple(range(seats))
            return dataclasses.replace(state, seating=Seating((everyone,), 0, everyone))
        first = _first_shooter(setup, seats)
        return start_play(state, tuple((first + i) % seats for i in range(seats)))

    def apply(self, state: State, move: Move) -> State:
        """The state after ``move``, or IllegalEvent with a RULES.md 7.5 refusal code."""
        if not isinstance(move.type, str) or move.type not in EVENT_TYPES:
            raise IllegalEvent(
                "event.unknown_type", f"{move.type!r} is not an event of {self.name}.",
                type=move.type,
            )  # fmt: skip
        if not isinstance(move.data, Mapping):
            raise IllegalEvent("event.bad_data", f"The data of {move.type} must be an object.")
        if state.over:
            raise IllegalEvent("game.over", "The game is over: no throw can be recorded.")
        if state.seating is not None:
            return self.seating_throw(state, move)
        _check_named_seat(state, move)
        frame = state.frame
        assert frame is not None  # a game not over always has a frame in play
        if move.type == DOUBLE_DOWN:
            return _double_down(state, frame)
        if move.type == STOOD:
            return _stand(state, frame)
        return _throw(state, frame, move.data)

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
        return tuple(_seat_score(state, seat) for seat in range(state.seats))

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
        if not self.min_seats <= seats <= self.max_seats:
            raise BadSetup(
                "game.bad_seats",
                f"{self.name} is played by {self.min_seats} to {self.max_seats} players, "
                f"not {seats}.",
                seats=seats,
            )

    # --- seating throws (RULES.md 7.2, 8.1) ---

    def seating_throw(self, state: State, move: Move) -> State:
        seating = state.seating
        assert seating is not None
        thrower = seating.pending[0]
        if move.type != THROWN:
            raise IllegalEvent(
                "seating.throws_due",
                f"The seating throws come first: seat {thrower} throws the five dice next.",
                seat=thrower,
            )
        _check_seat_field(move.data, thrower, "throws the five dice for the seating next")
        if _opposite_flag(move.data):
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
        return self._next_seating_group(state, _split_group(seating))

    def _next_seating_group(self, state: State, ranking: tuple[tuple[int, ...], ...]) -> State:
        for i in range(len(ranking)):
            if self.needs_rethrow(state, ranking, i):
                throws = state.seating.throws if state.seating else ()
                seating = Seating(ranking, i, ranking[i], throws)
                return dataclasses.replace(state, seating=seating)
        throws = state.seating.throws if state.seating else ()
        return self.seated(dataclasses.replace(state, seating=None, seating_throws=throws), ranking)


def _split_group(seating: Seating) -> tuple[tuple[int, ...], ...]:
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
    antes = tuple(Movement("ante", seat, state.ruleset.ante_chips) for seat in order)
    state = dataclasses.replace(state, order=order, ledger=(*state.ledger, *antes))
    return _next_frame(state)


# --- the frame state machine (RULES.md 7.5) ------------------------------------------------------


def _double_down(state: State, frame: Frame) -> State:
    if frame.holding:
        raise IllegalEvent(
            "double_down.not_allowed",
            f"Seat {frame.seat} holds {frame.held} points: double down only before the first "
            "throw of a frame or after a scoreless throw.",
            seat=frame.seat,
        )
    if frame.double_down:
        raise IllegalEvent(
            "double_down.already_called",
            f"Seat {frame.seat} has already doubled down for the next throw of "
            f"{_dice_words(frame.live)}.",
            seat=frame.seat,
        )
    chip = Movement("double_down", frame.seat, 1)
    return _replace_frame(
        dataclasses.replace(state, ledger=(*state.ledger, chip)),
        dataclasses.replace(frame, double_down=True),
    )


def _stand(state: State, frame: Frame) -> State:
    if not frame.holding:
        why = "before his first throw" if not frame.throws else "after a scoreless throw"
        raise IllegalEvent(
            "stand.no_point_score",
            f"Seat {frame.seat} cannot stand {why}: he holds no point score and must throw "
            f"the {_dice_words(frame.live)} again.",
            seat=frame.seat,
        )
    return _end_frame(state, dataclasses.replace(frame, ended=ENDED_STOOD))


def _throw(state: State, frame: Frame, data: Mapping[str, Any]) -> State:
    opposite = _opposite_flag(data)
    faces = read_faces(data, frame.live)
    if opposite and frame.live != 1:
        raise IllegalEvent(
            "opposite.not_allowed",
            f"Opposite is called only on a single live die; seat {frame.seat} has "
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
    payout = tuple(Movement("win", seat, -chips) for seat, chips in shares if chips)
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


def _opposite_flag(data: Mapping[str, Any]) -> bool:
    opposite = data.get("opposite", False)
    if not isinstance(opposite, bool):
        raise IllegalEvent("event.bad_data", "'opposite' must be true or false.", field="opposite")
    return opposite


def _check_named_seat(state: State, move: Move) -> None:
    """An event may name its shooter (``"seat"``); it must be the shooter of the frame in play."""
    frame = state.frame
    assert frame is not None
    finished = [f for f in state.frames if f.ended]
    if finished and move.data.get("seat") == finished[-1].seat != frame.seat:
        last = finished[-1]
        raise IllegalEvent(
            "frame.over",
            f"Seat {last.seat}'s frame {last.number} is over ({last.ended.replace('_', ' ')}, "
            f"{last.score} points); seat {frame.seat} shoots now.",
            seat=last.seat,
        )
    _check_seat_field(move.data, frame.seat, f"shoots frame {frame.number} now")


def _check_seat_field(data: Mapping[str, Any], seat: int, doing: str) -> None:
    named = data.get("seat")
    if named is None:
        return
    if not isinstance(named, int) or isinstance(named, bool):
        raise IllegalEvent("event.bad_data", "'seat' must be a seat number.", field="seat")
    if named != seat:
        raise IllegalEvent(
            "turn.not_your_turn", f"Seat {named} is not on turn: seat {seat} {doing}.", seat=seat
        )


def _dice_words(count: int) -> str:
    return f"{count} {'die' if count == 1 else 'dice'}"


# --- setup ---------------------------------------------------------------------------------------


def _setup_object(setup: Any, keys: frozenset[str], name: str) -> Mapping[str, Any]:
    if setup is None:
        return {}
    if not isinstance(setup, Mapping):
        raise BadSetup("setup.not_an_object", "The setup must be a JSON object.")
    unknown = sorted(str(key) for key in setup if key not in keys)
    if unknown:
        raise BadSetup(
            "setup.unknown_key",
            f"{name}'s setup takes {', '.join(sorted(keys))}; {', '.join(unknown)} is unknown.",
            keys=unknown,
        )
    return setup


def _flag(setup: Mapping[str, Any], key: str) -> bool:
    value = setup.get(key, False)
    if not isinstance(value, bool):
        raise BadSetup("setup.bad_value", f"{key!r} must be true or false.", key=key)
    return value


def _first_shooter(setup: Mapping[str, Any], seats: int) -> int:
    first = setup.get("first_shooter", 0)
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < seats:
        raise BadSetup(
            "setup.bad_value",
            f"'first_shooter' must be a seat from 0 to {seats - 1}, not {first!r}.",
            key="first_shooter",
        )
    return first


# --- scores, pot and view ------------------------------------------------------------------------


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


def _seat_score(state: State, seat: int) -> SeatScore:
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


def paid_in(ledger: Sequence[Movement]) -> int:
    return sum(m.chips for m in ledger if m.chips > 0)


def balance(ledger: Sequence[Movement]) -> int:
    return sum(m.chips for m in ledger)


def nets(ledger: Sequence[Movement], seats: int) -> list[int]:
    """Each seat's chips received minus chips paid in."""
    result = [0] * seats
    for movement in ledger:
        if movement.seat is not None:
            result[movement.seat] -= movement.chips
    return result


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
    base: dict[str, Any] = {
        "phase": _phase(state),
        "order": list(state.order),
        "round": state.round,
        "frames": [_seat_frames(state, seat) for seat in range(state.seats)],
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
        "throws": [throw.as_dict() for throw in frame.throws],
    }


def _phase(state: State) -> str:
    if state.over:
        return "over"
    if state.seating is not None:
        return "seating"
    frame = state.frame
    return "holding" if frame is not None and frame.holding else "ready"


def _seat_frames(state: State, seat: int) -> list[dict[str, Any]]:
    rows, running = [], 0
    for frame in state.frames:
        if frame.seat != seat:
            continue
        running += frame.score if frame.ended else 0
        rows.append(
            {
                "frame": frame.number,
                "score": frame.score if frame.ended else None,
                "cumulative": running if frame.ended else None,
                "ended": frame.ended or None,
                "throws": [throw.as_dict() for throw in frame.throws],
            }
        )
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


# --- the match: one game, settled by the pot (RULES.md 0.8) --------------------------------------


class StraightDiceMatch(ScoredMatch):
    """A Straight Scarney Dice match is one game: the winner (side) takes the pot.

    A live game reports its pot through ``match_report``; a sheet game (``game.scored``) gives
    every seat's frame scores, ``{"frames": [[10, 12, ...], ...]}``, from which the service derives
    the totals, checks the frames of extra play (0.7) and works out the pot: ``ante_chips`` from
    everyone plus the optional ``double_downs`` (chips per seat). Optional ``scores`` (the game
    scores) and ``cumulative`` (each seat's running totals, frame by frame) are checked against
    the derived figures; ``big_scarney`` names the seat whose Big Scarney ended the game.
    """

    kind = KIND
    ruleset_type: type[Any] = Ruleset
    min_seats = 2
    max_seats = 16

    def sides(self, state: ScoredMatchState) -> tuple[tuple[int, ...], ...]:
        return tuple((seat,) for seat in range(state.seats))

    def is_complete(self, state: ScoredMatchState) -> bool:
        return len(state.entries) >= 1

    def next_game_setup(self, state: ScoredMatchState) -> dict[str, Any]:
        return {}

    def standing(self, state: ScoredMatchState) -> list[dict[str, Any]]:
        """Winners first (a Big Scarney wins whatever the scores), then by side total."""
        entry = state.entries[0] if state.entries else None
        totals = list(entry.scores) if entry else [0] * state.seats
        winners = set(entry.winners) if entry else set()
        chips = list(entry.report.get("nets", [])) if entry else []
        rows: list[dict[str, Any]] = []
        for number, side in enumerate(self.sides(state)):
            side_total = sum(totals[seat] for seat in side)
            for seat in side:
                rows.append(
                    {
                        "seat": seat,
                        "match_score": totals[seat],
                        "bonuses": [],
                        "total": totals[seat],
                        "games_won": 1 if seat in winners else 0,
                        "side": number,
                        "side_total": side_total,
                        "chips": chips[seat] if len(chips) == state.seats else 0,
                    }
                )
        return _ranked(rows, winners)

    def games(self, state: ScoredMatchState) -> list[dict[str, Any]]:
        """The game row, with the score pad's frames: "frame score - cumulative" per seat."""
        rows = super().games(state)
        for row, entry in zip(rows, state.entries, strict=True):
            frames = entry.report.get("frames", [])
            row["frames"] = [
                [[score, sum(seat_frames[: i + 1])] for i, score in enumerate(seat_frames)]
                for seat_frames in frames
            ]
            row["pot"] = entry.report.get("pot")
            row["big_scarney"] = entry.report.get("big_scarney")
        return rows

    def settlement(self, state: ScoredMatchState) -> dict[str, Any]:
        """Every loser's chips paid to the winners: payments from each net, nets summing to 0."""
        report = state.entries[0].report
        return pot_settlement(list(report["nets"]), int(report.get("left_in_pot", 0)))

    def extra_handlers(self) -> Mapping[str, Any]:
        return {GAME_SCORED: self._sheet_game}

    def _sheet_game(self, state: ScoredMatchState, move: Move) -> ScoredMatchState:
        """A finished score pad, frame by frame (RULES.md 0.6, Appendix B.5, C.5)."""
        sheet = read_sheet(move.data, state.seats)
        sides = self.sides(state)
        count_issue = frame_count_issue(sheet.frames, sides, sheet.big_scarney)
        if count_issue:
            raise IllegalEvent("sheet.frame_count", count_issue)
        totals = [sum(frames) for frames in sheet.frames]
        _check_sheet_figures(move.data, sheet.frames, totals)
        warnings = state.warnings
        for issue in _frame_issues(sheet.frames):
            if state.ruleset.sheet_entry_validation == "strict":
                raise issue
            warnings = (*warnings, EntryWarning(1, issue.code, issue.message))
        side = _sheet_winning_side(sides, totals, sheet.big_scarney)
        winners = tuple(sorted(side))
        report = sheet_report(sheet, totals, winners, state.ruleset, sides)
        entry = GameEntry(1, None, tuple(totals), winners, report)
        return dataclasses.replace(state, entries=(entry,), warnings=warnings)


def _ranked(rows: list[dict[str, Any]], winners: set[int]) -> list[dict[str, Any]]:
    def key(row: dict[str, Any]) -> tuple[bool, int]:
        return (row["seat"] in winners, row["side_total"])

    for row in rows:
        row["rank"] = 1 + sum(1 for other in rows if key(other) > key(row))
    return sorted(rows, key=lambda row: (row["rank"], row["seat"]))


def pot_settlement(chip_nets: list[int], left_in_pot: int = 0) -> dict[str, Any]:
    """Payments of chips from the seats that lost chips to those that won them, in seat order.

    Chips left in the pot (``partnership_odd_chips = carry_over``) are paid by no one: the nets
    are then the pot's own, summing to minus what stays in the pot.
    """
    debtors = [[seat, -net] for seat, net in enumerate(chip_nets) if net < 0]
    payments = []
    for payee, owed in ((seat, net) for seat, net in enumerate(chip_nets) if net > 0):
        for debtor in debtors:
            paid = min(owed, debtor[1])
            if paid:
                payments.append((debtor[0], payee, paid))
                debtor[1] -= paid
                owed -= paid
    settlement = payments_settlement(payments, len(chip_nets))
    if left_in_pot:
        settlement["nets"] = list(chip_nets)
        settlement["left_in_pot"] = left_in_pot
    return settlement


@dataclass(frozen=True, slots=True)
class Sheet:
    frames: tuple[tuple[int, ...], ...]
    big_scarney: int | None
    double_downs: tuple[int, ...]


def read_sheet(data: Mapping[str, Any], seats: int) -> Sheet:
    """The frames (and optional Big Scarney, double-downs) of a sheet game, or event.bad_data."""
    frames = data.get("frames")
    if (
        not isinstance(frames, list)
        or len(frames) != seats
        or not all(isinstance(row, list) and row and all(map(_is_int, row)) for row in frames)
    ):
        raise IllegalEvent(
            "event.bad_data",
            f"'frames' of game.scored must list, for each of the {seats} seats in seat order, "
            "that seat's frame scores (whole numbers, seven or more).",
            field="frames",
        )
    big = data.get("big_scarney")
    if big is not None and not (_is_int(big) and 0 <= big < seats):
        raise IllegalEvent(
            "event.bad_data",
            f"'big_scarney' must be the seat (0 to {seats - 1}) whose Big Scarney ended the game.",
            field="big_scarney",
        )
    downs = data.get("double_downs", [0] * seats)
    if (
        not isinstance(downs, list)
        or len(downs) != seats
        or not all(_is_int(n) and n >= 0 for n in downs)
    ):
        raise IllegalEvent(
            "event.bad_data",
            f"'double_downs' must give each of the {seats} seats its number of double-downs.",
            field="double_downs",
        )
    return Sheet(tuple(tuple(row) for row in frames), big, tuple(downs))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def frame_count_issue(
    frames: Sequence[Sequence[int]], sides: Sequence[tuple[int, ...]], big_scarney: int | None
) -> str:
    """Why the number of frames per seat is not what play gives (7.4, 0.7, 7.5 rule 1), or "".

    Play is replayed round by round from seat 0: seven frames each, then one more for the members
    of the tied leading sides until the tie is broken; a Big Scarney (the named seat's last frame)
    stops the game at once.
    """
    seats = len(frames)
    played, totals = [0] * seats, [0] * seats
    for number in range(1, max(map(len, frames)) + 2):
        if number <= FRAMES:
            shooters = list(range(seats))
        else:
            leaders = leading_sides(sides, totals)
            if len(leaders) == 1:
                break
            shooters = sorted(seat for side in leaders for seat in side)
        for seat in shooters:
            if played[seat] == len(frames[seat]):
                return f"Seat {seat}'s frame {number} is missing: play was not over."
            totals[seat] += frames[seat][played[seat]]
            played[seat] += 1
            if seat == big_scarney and played[seat] == len(frames[seat]):
                return _extra_frames(frames, played)
    return _extra_frames(frames, played)


def _extra_frames(frames: Sequence[Sequence[int]], played: list[int]) -> str:
    for seat, row in enumerate(frames):
        if len(row) > played[seat]:
            return (
                f"Seat {seat} has {len(row)} frames, but play ends after {played[seat]} "
                "(seven each, then extra frames only for tied leaders, and none after a "
                "Big Scarney)."
            )
    return ""


def _check_sheet_figures(
    data: Mapping[str, Any], frames: Sequence[Sequence[int]], totals: list[int]
) -> None:
    """A sheet's own running and total figures, if sent, must be the derived ones (0.6)."""
    running = [[sum(row[: i + 1]) for i in range(len(row))] for row in frames]
    sent = data.get("cumulative")
    if sent is not None and sent != running:
        seat, i = _first_difference(sent, running)
        raise IllegalEvent(
            "sheet.cumulative_mismatch",
            f"Seat {seat}'s cumulative score after frame {i + 1} is {running[seat][i]}, "
            "not what the sheet shows.",
            cumulative=running,
        )
    scores = data.get("scores")
    if scores is not None and scores != totals:
        raise IllegalEvent(
            "sheet.total_mismatch",
            f"The game scores are {totals} (the sums of the frame scores), not {scores}.",
            scores=totals,
        )


def _first_difference(sent: Any, running: list[list[int]]) -> tuple[int, int]:
    for seat, row in enumerate(running):
        given = sent[seat] if isinstance(sent, list) and seat < len(sent) else None
        for i, value in enumerate(row):
            if not isinstance(given, list) or i >= len(given) or given[i] != value:
                return seat, i
    return 0, 0


def _frame_issues(frames: Sequence[Sequence[int]]) -> list[IllegalEvent]:
    """A frame score is any whole number of 0 or more (Appendix C.5)."""
    return [
        IllegalEvent(
            "score.unattainable",
            f"No frame can score {score} (seat {seat}, frame {i + 1}): a frame scores 0 or more.",
            seat=seat,
            frame=i + 1,
            score=score,
        )
        for seat, row in enumerate(frames)
        for i, score in enumerate(row)
        if score < 0
    ]


def _sheet_winning_side(
    sides: Sequence[tuple[int, ...]], totals: list[int], big_scarney: int | None
) -> tuple[int, ...]:
    if big_scarney is not None:
        return next(side for side in sides if big_scarney in side)
    return leading_sides(sides, totals)[0]


def sheet_report(
    sheet: Sheet,
    totals: list[int],
    winners: tuple[int, ...],
    ruleset: Any,
    sides: Sequence[tuple[int, ...]],
) -> dict[str, Any]:
    """The pot of a sheet game: everyone's ante and double-downs, shared by the winners."""
    seats = len(totals)
    ledger = [Movement("ante", seat, ruleset.ante_chips) for seat in range(seats)]
    ledger += [Movement("double_down", seat, 1) for seat in range(seats)
               for _ in range(sheet.double_downs[seat])]  # fmt: skip
    shares = divide_pot(balance(ledger), winners, totals, ruleset)
    ledger += [Movement("win", seat, -chips) for seat, chips in shares if chips]
    return {
        "pot": paid_in(ledger),
        "nets": nets(ledger, seats),
        "left_in_pot": balance(ledger),
        "big_scarney": sheet.big_scarney,
        "frames": [list(row) for row in sheet.frames],
        "sides": [list(side) for side in sides],
    }


register(StraightDiceRules())
register_format(StraightDiceMatch())
