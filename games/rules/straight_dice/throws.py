"""Straight Scarney Dice's dice: what one throw is worth (RULES.md 7.5) and the house rules.

Shared by the straight and the partnership game (``games.rules.straight_dice.partnership``).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from games.rules.dice import DEAD, OPPOSITE, number_total

DICE = 5

# What a throw was (RULES.md 7.5, "evaluating a throw").
BIG_SCARNEY = "big_scarney"
LITTLE_SCARNEY = "little_scarney"
SCORELESS = "scoreless"
CRAP_OUT = "crap_out"
POINTS = "points"
HOLDS = frozenset({POINTS, LITTLE_SCARNEY})

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
    # D-SSD-11: any count of chips from 1, so no closed list (games.rules.base).
    POSITIVE: ClassVar[Mapping[str, str]] = {"ante_chips": "chips"}

    ante_chips: int = 1
    little_scarney_counts_live_die: bool = False
    little_scarney_on_four_dice: bool = False
    sheet_entry_validation: str = "strict"


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
