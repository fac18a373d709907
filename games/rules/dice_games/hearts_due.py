"""Hearts Due (``hearts-due``): RULES.md section 15.

Each player in turn rolls six dice lettered H E A R T S (ordinary dice: 1 = H ... 6 = S). The
longest run of the word from its H scores 5, 10, 15, 20, 25 or 35; three H's wipe out the player's
whole total (D-HD-2, D-HD-4). The game runs to ``hearts_due_target`` with the round completed so
everyone has rolled as often (D-HD-3); a tie for the highest total plays extra rounds (RULES.md
0.7). There is no settlement (RULES.md 0.8).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from games.rules.base import Move, SeatScore, SetupWords, check_move, check_seat_count, make_ruleset
from games.rules.dice import ORDINARY_DIE, ORDINARY_FACES, read_faces, recorded, thrown
from games.rules.dice_games import words
from games.rules.dice_games.turns import QueuedThrows
from games.rules.events import THROWN
from games.rules.shapes import SEAT, Boolean, Integer, ListOf, Nullable, Text, record

KIND = "hearts-due"
DICE = 6
LETTERS = "HEARTS"
# The score of a run of the word's first n letters (RULES.md 15.2); index 0: no H.
RUN_SCORES = (0, 5, 10, 15, 20, 25, 35)
EXACTLY_THREE = "exactly_3"
MAX_SEATS = 20


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The house rules of Hearts Due (RULES.md Appendix E)."""

    ALLOWED: ClassVar[Mapping[str, tuple[object, ...]]] = {
        "hearts_due_reset_ones": (3, EXACTLY_THREE),
        "hearts_due_equal_turns": (True, False),
    }
    POSITIVE: ClassVar[Mapping[str, str]] = {"hearts_due_target": ""}  # base.make_ruleset

    hearts_due_reset_ones: int | str = 3
    hearts_due_target: int = 100
    hearts_due_equal_turns: bool = True


@dataclass(frozen=True, slots=True)
class Roll:
    """One roll as the sheet keeps it: the faces, what they scored, and the total after it."""

    seat: int
    faces: tuple[str, ...]
    points: int
    reset: bool
    total: int
    extra: bool

    def as_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "faces": list(self.faces),
            "letters": letters(self.faces),
            "points": self.points,
            "reset": self.reset,
            "total": self.total,
            "extra_round": self.extra,
        }


@dataclass(frozen=True, slots=True)
class State:
    """Every seat's total, the latest rolls, and the seats still to roll in this round.

    ``rolls`` keeps the last round's worth (at most one roll per seat): the state, its snapshot
    and a move's answer stay the same size however long the game runs. Every roll is an event.
    """

    seats: int
    totals: tuple[int, ...]
    queue: tuple[int, ...]
    ruleset: Ruleset = field(default_factory=Ruleset)
    rolls: tuple[Roll, ...] = ()
    rounds: int = 1
    extra: bool = False
    target_reached: bool = False
    winners: tuple[int, ...] = ()

    @property
    def over(self) -> bool:
        return bool(self.winners)


# --- what the game takes and shows (games/rules/shapes.py) -----------------------------------

ROLL = thrown(
    ORDINARY_DIE, DICE, DICE, doc='the six faces rolled, e.g. ["1", "2", "2", "4", "5", "6"]'
)
EVENTS = {
    THROWN: record(
        "A roll of the six dice by the seat on turn.",
        faces=recorded(ORDINARY_DIE, "six, one per die", 'the faces rolled, e.g. ["1", "2", "4"]'),
    )
}
ROLL_VIEW = record(
    "A roll as the sheet keeps it.",
    seat=SEAT,
    faces=ROLL,
    letters=Text(DICE, pattern="^[HEARTS]*$", doc='the letters the faces stand for, e.g. "HEEATS"'),
    points=Integer(0, RUN_SCORES[-1], doc="what the roll scored: 0, 5, 10, 15, 20, 25 or 35"),
    reset=Boolean(doc="three H's: the total is wiped out"),
    total=Integer(0, doc="the seat's total after the roll"),
    extra_round=Boolean(doc="rolled in an extra round to break a tie"),
)
VIEW = record(
    dice=record(
        "Whose roll, the six dice, the round, the target, the last round's rolls.",
        turn=Nullable(SEAT, doc="the seat to roll, null once the game is over"),
        in_cup=Integer(0, DICE),
        round=Integer(1, doc="the round, extra rounds counted"),
        extra_round=Boolean(doc="an extra round to break a tie is on"),
        to_roll=ListOf(SEAT, MAX_SEATS, doc="the seats still to roll this round, the next first"),
        target=Integer(1, doc="the target (hearts_due_target)"),
        target_reached=Boolean(doc="someone has reached the target: the round completes the game"),
        rolls=ListOf(ROLL_VIEW, MAX_SEATS, doc="the latest rolls, at most one round's worth"),
    ),
    totals=ListOf(Integer(0), MAX_SEATS, doc="each seat's total"),
)


class HeartsDueRules(QueuedThrows):
    """The rule engine of ``hearts-due``."""

    kind = KIND
    title = "Hearts Due"
    dice_faces = ORDINARY_FACES
    most_dice = DICE
    ruleset_type: type[Any] = Ruleset
    min_seats = 2
    max_seats = MAX_SEATS
    events = EVENTS
    view_shape = VIEW
    setup_shape = record("Hearts Due takes no setup: seat 0 rolls first.")
    setup_words = SetupWords("{game} takes no setup.", names_keys=False)

    def word_throws(self, game: dict[str, Any], names: Mapping[int, str]) -> dict[str, Any]:
        """This turn's throws, and what its page shows besides, in words (ThrowsDice)."""
        return words.hearts_due(game, names)

    def start(self, setup: Mapping[str, Any], ruleset: Any, seats: int) -> State:
        """Seat 0 rolls first (RULES.md 0.5); every total starts at 0."""
        check_seat_count(self, seats, "Hearts Due")
        rules = ruleset if isinstance(ruleset, Ruleset) else make_ruleset(Ruleset, ruleset)
        return State(seats=seats, totals=(0,) * seats, queue=tuple(range(seats)), ruleset=rules)

    def apply(self, state: State, move: Move) -> State:
        """The state after a roll, or IllegalEvent (RULES.md 15.2)."""
        over, hint = "The game is over: no roll can be recorded.", "; a roll is dice.thrown"
        check_move(move, (THROWN,), "Hearts Due", state.over, over, hint)
        faces = read_faces(move.data, DICE, ORDINARY_FACES)
        return _after_roll(state, faces)

    def scores(self, state: State) -> tuple[SeatScore, ...]:
        return tuple(SeatScore(seat, total) for seat, total in enumerate(state.totals))

    def view(self, state: State) -> dict[str, Any]:
        """Whose roll it is, with six dice in the cup, and the last round's rolls itemised.

        At most one roll per seat, the latest: a move's answer stays the same size however long
        the game runs (the whole game is at /events/ and /history/).
        """
        return {
            "dice": {
                "turn": self.current_player(state),
                "in_cup": 0 if state.over else DICE,
                "round": state.rounds,
                "extra_round": state.extra,
                "to_roll": list(state.queue),
                "target": state.ruleset.hearts_due_target,
                "target_reached": state.target_reached,
                "rolls": [roll.as_dict() for roll in state.rolls[-state.seats :]],
            },
            "totals": list(state.totals),
        }


# --- scoring a roll ------------------------------------------------------------------------------


def letters(faces: Sequence[str]) -> str:
    """The letters the faces stand for (1 = H ... 6 = S), in the order given."""
    return "".join(LETTERS[int(face) - 1] for face in faces)


def resets(faces: Sequence[str], ruleset: Ruleset) -> bool:
    """Three H's cancel the total: three or more by default, exactly three as a house rule."""
    ones = list(faces).count("1")
    if ruleset.hearts_due_reset_ones == EXACTLY_THREE:
        return ones == 3
    return ones >= 3


def run_length(faces: Sequence[str]) -> int:
    """How many letters of HEARTS, from the H, the roll shows (a repeated letter counts once)."""
    run = 0
    while run < DICE and str(run + 1) in faces:
        run += 1
    return run


def roll_points(faces: Sequence[str]) -> int:
    """The score of a roll that does not reset (RULES.md 15.2; D-HD-1 reads H-E-A-R-T as 1-5)."""
    return RUN_SCORES[run_length(faces)]


# --- the turn and the end ------------------------------------------------------------------------


def _after_roll(state: State, faces: tuple[str, ...]) -> State:
    reset = resets(faces, state.ruleset)
    return enter_roll(state, faces, 0 if reset else roll_points(faces), reset)


def enter_roll(state: State, faces: tuple[str, ...], points: int, reset: bool) -> State:
    """Score a roll of the seat on turn and pass the turn; a sheet's roll comes without faces."""
    seat = state.queue[0]
    # D-HD-4: three H's wipe out the cumulative total, not only the roll.
    total = 0 if reset else state.totals[seat] + points
    totals = tuple(total if s == seat else t for s, t in enumerate(state.totals))
    roll = Roll(seat, faces, points, reset, total, state.extra)
    reached = state.target_reached or (not state.extra and total >= state.ruleset.hearts_due_target)
    after = dataclasses.replace(
        state,
        totals=totals,
        rolls=(*state.rolls, roll)[-state.seats :],
        queue=state.queue[1:],
        target_reached=reached,
    )
    return _next_roll(after)


def _next_roll(state: State) -> State:
    """Decide the game at the end of a round (or at once without equal turns), else go on."""
    if state.target_reached and not state.extra and not state.ruleset.hearts_due_equal_turns:
        return _decide(state)
    if state.queue:
        return state
    if state.extra or state.target_reached:
        return _decide(state)
    return dataclasses.replace(state, queue=tuple(range(state.seats)), rounds=state.rounds + 1)


def _decide(state: State) -> State:
    """The highest total wins; if it is shared, the tied players roll again (RULES.md 0.7)."""
    best = max(state.totals)
    top = tuple(seat for seat, total in enumerate(state.totals) if total == best)
    if len(top) == 1:
        return dataclasses.replace(state, queue=(), winners=top)
    return dataclasses.replace(state, queue=top, extra=True, rounds=state.rounds + 1)


HEARTS_DUE = HeartsDueRules()
