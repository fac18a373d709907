"""Double Cameroon (``double-cameroon``): RULES.md section 12, a Yacht with ten dice.

A turn is up to three throws of ten dice, keeping any dice between throws (D-DC-1), then the ten
dice are split into two groups of five, each scored in a different unused category of the
player's ten. Each player has five turns; the highest total wins, ties are shared (D-DC-4).
There is no settlement (RULES.md 0.8). The ten categories and what five dice score in them
(12.3) are in :mod:`games.rules.dice_games.double_cameroon_scoring`; what the game takes and
shows (its declarations, games/rules/shapes.py) in :mod:`games.rules.dice_games.shapes`.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, ClassVar

from games.rules.base import (
    GameRules,
    Move,
    Result,
    SeatScore,
    SetupWords,
    check_move,
    check_seat_count,
    highest_wins,
    make_ruleset,
)
from games.rules.dice import ORDINARY_FACES, read_faces
from games.rules.dice_games import words
from games.rules.dice_games.double_cameroon_scoring import (
    CATEGORIES,
    GROUP_SIZE,
    Box,
    category_points,
    sheets_view,
    unused_categories,
)
from games.rules.dice_games.shapes import (
    DICE,
    EVENTS,
    GROUP,
    GROUPED,
    KEEP,
    KEPT,
    MAX_SEATS,
    OVER,
    SETUP,
    THROW_1,
    THROW_N,
    THROWS,
    TURNS,
    VIEW,
)
from games.rules.errors import IllegalEvent
from games.rules.events import THROWN
from games.rules.wording import player_at

KIND = "double-cameroon"
EVENT_TYPES = frozenset({THROWN, KEPT, GROUPED})
# Above this many groupings the choice is left to the table (legal_events is None).
MAX_LISTED_GROUPINGS = 256


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The house rules of Double Cameroon (RULES.md Appendix E)."""

    ALLOWED: ClassVar[Mapping[str, tuple[object, ...]]] = {
        "cameroon_kept_dice_locked": (True, False),
        "cameroon_five_counts_as_full_house": (True, False),
    }

    cameroon_kept_dice_locked: bool = False
    cameroon_five_counts_as_full_house: bool = False


@dataclass(frozen=True, slots=True)
class Turn:
    """A finished turn: its throws, the dice kept before throws 2 and 3, and its two boxes."""

    seat: int
    throws: tuple[tuple[str, ...], ...]
    keeps: tuple[tuple[str, ...], ...]
    boxes: tuple[Box, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "throws": [list(t) for t in self.throws],
            "kept": [list(k) for k in self.keeps],
            "boxes": [box.as_dict() for box in self.boxes],
            "points": sum(box.points for box in self.boxes),
        }


@dataclass(frozen=True, slots=True)
class State:
    """The phase of the turn on hand, the dice on the table, and every player's sheet."""

    seats: int
    sheets: tuple[tuple[Box, ...], ...]
    ruleset: Ruleset = field(default_factory=Ruleset)
    phase: str = THROW_1
    turn: int = 0  # turns begun, counted over all players; the seat is turn % seats
    showing: tuple[str, ...] = ()
    kept: tuple[str, ...] = ()
    throws: tuple[tuple[str, ...], ...] = ()
    keeps: tuple[tuple[str, ...], ...] = ()
    turns: tuple[Turn, ...] = ()

    @property
    def seat(self) -> int:
        return self.turn % self.seats


class DoubleCameroonRules(GameRules):
    """The rule engine of ``double-cameroon``."""

    kind = KIND
    title = "Double Cameroon"
    dice_faces = ORDINARY_FACES
    most_dice = DICE
    ruleset_type: type[Any] = Ruleset
    min_seats = 1
    max_seats = MAX_SEATS
    events = EVENTS
    view_shape = VIEW
    setup_shape = SETUP
    setup_words = SetupWords("{game} takes no setup.", names_keys=False)

    def word_throws(self, game: dict[str, Any], names: Mapping[int, str]) -> dict[str, Any]:
        """This turn's throws, and what its page shows besides, in words (ThrowsDice)."""
        return words.double_cameroon(game, names)

    def start(self, setup: Mapping[str, Any], ruleset: Any, seats: int) -> State:
        """Seat 0 throws first (RULES.md 0.5); every sheet is empty."""
        check_seat_count(self, seats, "Double Cameroon")
        rules = ruleset if isinstance(ruleset, Ruleset) else make_ruleset(Ruleset, ruleset)
        return State(seats=seats, sheets=((),) * seats, ruleset=rules)

    def apply(self, state: State, move: Move) -> State:
        """The state after a throw, a keep or a grouping, or IllegalEvent (RULES.md 12.2)."""
        over = "The game is over: every box is filled."
        check_move(move, EVENT_TYPES, "Double Cameroon", state.phase == OVER, over)
        return _PHASES[state.phase](state, move)

    def expected(self, state: State) -> list[str]:
        return {
            THROW_1: [THROWN],
            KEEP: [KEPT, GROUPED],
            THROW_N: [THROWN],
            GROUP: [GROUPED],
        }.get(state.phase, [])

    def legal_events(self, state: State) -> list[Move] | None:
        """Every grouping when there are few; throws and keeps are left to the table."""
        if state.phase == OVER:
            return []
        if state.phase != GROUP:
            return None
        unused = unused_categories(state.sheets[state.seat])
        # Each split of the dice is counted once per half, each category pair once per order.
        count = len(_halves(state.showing)) * len(unused) * (len(unused) - 1) // 2
        return groupings(state.showing, unused) if count <= MAX_LISTED_GROUPINGS else None

    def current_player(self, state: State) -> int | None:
        return None if state.phase == OVER else state.seat

    def is_terminal(self, state: State) -> bool:
        return state.phase == OVER

    def scores(self, state: State) -> tuple[SeatScore, ...]:
        return tuple(
            SeatScore(seat, sum(box.points for box in sheet))
            for seat, sheet in enumerate(state.sheets)
        )

    def result(self, state: State) -> Result | None:
        """The highest total wins; equal highest totals share the win (D-DC-4)."""
        if state.phase != OVER:
            return None
        return highest_wins(self.scores(state))

    def view(self, state: State) -> dict[str, Any]:
        """What the table records next, the dice on the table, and every sheet itemised."""
        return {"dice": _dice_view(state), "sheets": sheets_view(state.sheets)}


# --- the groupings of ten dice -------------------------------------------------------------------


def groupings(showing: Sequence[str], unused: Sequence[str]) -> list[Move]:
    """Every distinct ``dice.grouped`` of ten dice into two fives in two unused categories."""
    halves = _halves(showing)
    seen: set[frozenset[tuple[str, tuple[str, ...]]]] = set()
    moves = []
    for half in sorted(halves):
        rest = _minus(showing, half)
        assert rest is not None
        for first in unused:
            for second in unused:
                key = frozenset({(first, half), (second, rest)})
                if first == second or key in seen:
                    continue
                seen.add(key)
                groups = [
                    {"category": first, "dice": list(half)},
                    {"category": second, "dice": list(rest)},
                ]
                moves.append(Move(GROUPED, {"groups": groups}))
    return moves


def _halves(showing: Sequence[str]) -> set[tuple[str, ...]]:
    """Every distinct group of five of the ten dice showing."""
    return {tuple(sorted(showing[i] for i in picked)) for picked in combinations(range(DICE), 5)}


# --- moves by phase ------------------------------------------------------------------------------


def _in_throw_1(state: State, move: Move) -> State:
    if move.type != THROWN:
        raise _throw_required(state, move)
    faces = read_faces(move.data, DICE, ORDINARY_FACES)
    return dataclasses.replace(state, phase=KEEP, showing=faces, throws=(faces,))


def _in_keep(state: State, move: Move) -> State:
    if move.type == THROWN:
        raise IllegalEvent(
            "keep.required",
            f"Before throw {len(state.throws) + 1} record the dice kept (dice.kept, possibly "
            f"none) from {_named(state.showing)}.",
        )
    if move.type == GROUPED:
        kept = dataclasses.replace(state, kept=state.showing, keeps=(*state.keeps, state.showing))
        return _group(kept, move)
    kept_dice = _read_dice(move.data, "faces", KEPT)
    _check_keep(state, kept_dice)
    after = dataclasses.replace(state, kept=kept_dice, keeps=(*state.keeps, kept_dice))
    if len(kept_dice) == DICE:
        return dataclasses.replace(after, phase=GROUP)
    return dataclasses.replace(after, phase=THROW_N)


def _in_throw_n(state: State, move: Move) -> State:
    if move.type != THROWN:
        raise _throw_required(state, move)
    faces = read_faces(move.data, DICE - len(state.kept), ORDINARY_FACES)
    showing = tuple(sorted(state.kept + faces))
    throws = (*state.throws, faces)
    phase = GROUP if len(throws) == THROWS else KEEP
    return dataclasses.replace(state, phase=phase, showing=showing, throws=throws)


def _in_group(state: State, move: Move) -> State:
    if move.type == THROWN:
        raise IllegalEvent(
            "throw.too_many",
            f"Three throws are made; group the ten dice {_named(state.showing)} into two fives.",
        )
    if move.type == KEPT:
        raise IllegalEvent(
            "keep.no_throw_left",
            f"No throw is left to keep dice for; group {_named(state.showing)} into two fives.",
        )
    return _group(state, move)


def _throw_required(state: State, move: Move) -> IllegalEvent:
    cup = DICE - len(state.kept)
    return IllegalEvent(
        "throw.required",
        f"{move.type} cannot come now: throw {len(state.throws) + 1} of the {cup} dice in the "
        "cup is due.",
        expected=cup,
    )


def _check_keep(state: State, kept: tuple[str, ...]) -> None:
    if _minus(state.showing, kept) is None:
        raise IllegalEvent(
            "keep.not_showing",
            f"{_named(kept)} are not all among the dice showing ({_named(state.showing)}).",
            faces=list(kept),
        )
    if state.ruleset.cameroon_kept_dice_locked and _minus(kept, state.kept) is None:
        raise IllegalEvent(
            "keep.dropped_locked_die",
            f"Dice once kept stay kept (cameroon_kept_dice_locked): {_named(kept)} leaves out "
            f"some of {_named(state.kept)}.",
            locked=list(state.kept),
        )


def _group(state: State, move: Move) -> State:
    boxes = _read_groups(state, move.data)
    sheets = tuple(
        (*sheet, *boxes) if seat == state.seat else sheet for seat, sheet in enumerate(state.sheets)
    )
    turn = Turn(state.seat, state.throws, state.keeps, boxes)
    nxt = state.turn + 1
    phase = OVER if nxt == TURNS * state.seats else THROW_1
    return State(
        seats=state.seats,
        sheets=sheets,
        ruleset=state.ruleset,
        phase=phase,
        turn=nxt,
        turns=(*state.turns, turn),
    )


def _read_groups(state: State, data: Mapping[str, Any]) -> tuple[Box, ...]:
    """The two groups of a ``dice.grouped``, checked against the dice and the sheet."""
    groups = data.get("groups")
    if not isinstance(groups, list) or len(groups) != 2:
        raise IllegalEvent(
            "event.bad_data",
            '\'groups\' of dice.grouped must list two groups, each {"category", "dice"}.',
            field="groups",
        )
    read = [_read_group(group) for group in groups]
    together = tuple(sorted(read[0][1] + read[1][1]))
    if any(len(dice) != GROUP_SIZE for _, dice in read) or together != state.showing:
        raise IllegalEvent(
            "group.wrong_dice",
            f"The two groups must be five dice each and together exactly the dice showing "
            f"({_named(state.showing)}), not {_named(read[0][1])} and {_named(read[1][1])}.",
            showing=list(state.showing),
        )
    (first, _), (second, _) = read
    if first == second:
        raise IllegalEvent(
            "group.same_category",
            f"Both groups name {first}: each group goes to a different category.",
            category=first,
        )
    _check_unused(state, first, second)
    return tuple(Box(c, d, category_points(c, d, state.ruleset)) for c, d in read)


def _read_group(group: Any) -> tuple[str, tuple[str, ...]]:
    if not isinstance(group, Mapping):
        raise IllegalEvent(
            "event.bad_data",
            'Each group of dice.grouped is an object {"category", "dice"}.',
            field="groups",
        )
    category = group.get("category")
    if not isinstance(category, str) or category not in CATEGORIES:
        raise IllegalEvent(
            "group.unknown_category",
            f"{category!r} is not a category; the ten are {', '.join(CATEGORIES)}.",
            category=category if isinstance(category, str) else None,
        )
    return category, _read_dice(group, "dice", GROUPED)


def _check_unused(state: State, *categories: str) -> None:
    unused = unused_categories(state.sheets[state.seat])
    for category in categories:
        if category not in unused:
            raise IllegalEvent(
                "group.category_used",
                f"{player_at(state.seat)} has already filled {category}; still open: "
                f"{', '.join(unused)}.",
                category=category,
            )


def _read_dice(data: Mapping[str, Any], key: str, type: str) -> tuple[str, ...]:
    """The dice named, sorted. Only their form is checked here: how many and which faces are
    judged against the dice showing, with RULES.md's codes (keep.not_showing, group.wrong_dice)."""
    dice = data.get(key)
    if not isinstance(dice, list) or not all(isinstance(f, str) for f in dice):
        raise IllegalEvent(
            "event.bad_data",
            f"'{key}' of {type} must list faces, each one of 1 2 3 4 5 6.",
            field=key,
        )
    return tuple(sorted(dice))


def _minus(whole: Sequence[str], part: Sequence[str]) -> tuple[str, ...] | None:
    """``whole`` less the dice of ``part``, or None when ``part`` is not among them."""
    rest = Counter(whole)
    rest.subtract(Counter(part))
    if any(count < 0 for count in rest.values()):
        return None
    return tuple(sorted(rest.elements()))


def _named(dice: Sequence[str]) -> str:
    return " ".join(dice) if dice else "no dice"


_PHASES = {THROW_1: _in_throw_1, KEEP: _in_keep, THROW_N: _in_throw_n, GROUP: _in_group}


# --- the public view ------------------------------------------------------------------------------


def _dice_view(state: State) -> dict[str, Any]:
    over = state.phase == OVER
    in_cup = DICE - len(state.kept) if state.phase in (THROW_1, THROW_N) else 0
    return {
        "turn": None if over else state.seat,
        "turn_of_player": None if over else state.turn // state.seats + 1,
        "phase": state.phase,
        "next_throw": len(state.throws) + 1 if state.phase in (THROW_1, THROW_N) else None,
        "in_cup": in_cup,
        "showing": list(state.showing),
        "kept": list(state.kept),
        "locked": list(state.kept) if state.ruleset.cameroon_kept_dice_locked else [],
        "may_keep": state.phase == KEEP,
        "may_group": state.phase in (KEEP, GROUP),
        "open_categories": [] if over else list(unused_categories(state.sheets[state.seat])),
        "throws": [list(t) for t in state.throws],
        "turns": [turn.as_dict() for turn in state.turns],
    }


DOUBLE_CAMEROON = DoubleCameroonRules()
