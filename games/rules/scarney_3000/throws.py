"""Scarney 3000's dice: what one throw scores (RULES.md 9.2, 9.3) and the house rules.

A throw's dead dice, its number bonus and whether a dead die confirms it: the one thing the
state machine (``play``), the views and the sheet checks all ask of the dice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from games.rules.dice import DEAD

SCORED, UNCONFIRMED, BUST = "scored", "unconfirmed", "bust"

DICE = 5
DEAD_DIE_POINTS = 50
MINIMUM = 200

# Bonus hands (RULES.md 9.2): points by the number and how many dice show it.
DEAD_BONUS = {3: 200, 4: 400, 5: 3000}
PRINTED_TABLE: Mapping[str, Mapping[int, int]] = {
    "1": {3: 100, 4: 200, 5: 3000},
    "3": {3: 300, 4: 900, 5: 3000},
    "4": {3: 400, 4: 800, 5: 3000},
    "6": {3: 900, 4: 1200, 5: 3000},
}
# D-3000-1 variant: 100 x face for three, double for four (three 6s 600, four 3s 600).
PATTERN_TABLE: Mapping[str, Mapping[int, int]] = {
    **PRINTED_TABLE,
    "3": {3: 300, 4: 600, 5: 3000},
    "6": {3: 600, 4: 1200, 5: 3000},
}
BONUS_TABLES = {"as_printed": PRINTED_TABLE, "pattern": PATTERN_TABLE}
COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The house rules of Scarney 3000 and its partnership game (RULES.md Appendix E)."""

    ALLOWED: ClassVar[Mapping[str, tuple[object, ...]]] = {
        "s3000_bonus_table": ("as_printed", "pattern"),
        "s3000_equal_turns": (False, True),
        "sheet_entry_validation": ("strict", "lenient"),
    }
    POSITIVE: ClassVar[Mapping[str, str]] = {"s3000_target": ""}  # games.rules.base.make_ruleset

    s3000_bonus_table: str = "as_printed"
    s3000_target: int = 3000
    s3000_equal_turns: bool = False
    sheet_entry_validation: str = "strict"


# --- one throw -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Throw:
    """One throw, itemised: its dead dice, its number bonus, what it confirmed, and its outcome."""

    faces: tuple[str, ...]
    dead_points: int
    bonus_face: str | None
    bonus_dice: int
    bonus_points: int
    confirmed: int
    outcome: str

    @property
    def dead(self) -> int:
        return self.faces.count(DEAD)

    @property
    def scoring_faces(self) -> tuple[str, ...]:
        """The dice set aside after the throw: dead dice and the number bonus (D-3000-4)."""
        if self.outcome == BUST:
            return ()
        return (DEAD,) * self.dead + (self.bonus_face or "",) * self.bonus_dice

    @property
    def points(self) -> int:
        """What the throw adds to the turn's confirmed points."""
        if self.outcome != SCORED:
            return 0
        return self.dead_points + self.bonus_points + self.confirmed


def evaluate(faces: Sequence[str], pending: int = 0, table: str = "as_printed") -> Throw:
    """A throw per RULES.md 9.3: A confirms (a dead die), B is unconfirmed, C busts."""
    faces = tuple(sorted(faces, key=_book_order))
    dead = faces.count(DEAD)
    bonus_face, bonus_dice = _number_bonus(faces)
    bonus_points = BONUS_TABLES[table][bonus_face][bonus_dice] if bonus_face else 0
    if dead:
        outcome = SCORED
    else:
        outcome = UNCONFIRMED if bonus_face else BUST
    return Throw(
        faces=faces,
        dead_points=dead_points(dead),
        bonus_face=bonus_face,
        bonus_dice=bonus_dice,
        bonus_points=bonus_points,
        confirmed=pending if outcome == SCORED else 0,
        outcome=outcome,
    )


def dead_points(dead: int) -> int:
    """50 a dead die for one or two; three or more are a bonus hand instead (D-3000-9)."""
    return DEAD_BONUS[dead] if dead >= 3 else DEAD_DIE_POINTS * dead


def _number_bonus(faces: tuple[str, ...]) -> tuple[str | None, int]:
    """The number shown three or more times and how often (at most one can on five dice)."""
    for face, count in Counter(faces).items():
        if face != DEAD and count >= 3:
            return face, count
    return None, 0


def show(faces: Sequence[str]) -> str:
    """A throw as the book writes it: dead dice first (``D 3 4 6 6``)."""
    return " ".join(sorted(faces, key=_book_order))


def _book_order(face: str) -> tuple[bool, str]:
    return (face != DEAD, face)


def hand_name(face: str, count: int) -> str:
    noun = "dead dice" if face == DEAD else f"{face}s"
    return f"{COUNT_WORDS[count]} {noun}"
