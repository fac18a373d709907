"""Double Cameroon's score sheet: RULES.md 12.3 and 12.4 (D-DC-2, D-DC-3, D-DC-5).

Each player's sheet has ten category boxes, each filled exactly once with a group of five dice.
:func:`category_points` is what five dice score in a category (0 when they do not qualify,
D-DC-2); a player's total is the sum of his boxes (12.4).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

GROUP_SIZE = 5
NUMBER_CATEGORIES = {
    "aces": "1",
    "twos": "2",
    "threes": "3",
    "fours": "4",
    "fives": "5",
    "sixes": "6",
}
CATEGORIES = (
    "five_of_a_kind",
    "large_cameroon",
    "little_cameroon",
    "full_house",
    "sixes",
    "fives",
    "fours",
    "threes",
    "twos",
    "aces",
)


class FullHouseRule(Protocol):
    """The house rule scoring needs (the game's and the match's rulesets have it: D-DC-3)."""

    @property
    def cameroon_five_counts_as_full_house(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class Box:
    """A category box filled: the five dice put there and what they scored."""

    category: str
    dice: tuple[str, ...]
    points: int

    def as_dict(self) -> dict[str, Any]:
        return {"category": self.category, "dice": list(self.dice), "points": self.points}


def category_points(
    category: str, dice: Sequence[str], ruleset: FullHouseRule | None = None
) -> int:
    """What five dice score in a category (RULES.md 12.3); 0 when they do not qualify (D-DC-2)."""
    values = sorted(int(face) for face in dice)
    counts = sorted(Counter(values).values())
    if category == "five_of_a_kind":
        return 50 if counts == [5] else 0
    if category == "large_cameroon":
        return 30 if values == [2, 3, 4, 5, 6] else 0
    if category == "little_cameroon":
        return 21 if values == [1, 2, 3, 4, 5] else 0
    if category == "full_house":
        # Off by default (D-DC-3), as the game's Ruleset has it.
        five_counts = ruleset is not None and ruleset.cameroon_five_counts_as_full_house
        # D-DC-5: a full house scores all five dice; D-DC-3: five of a kind only by house rule.
        return sum(values) if counts == [2, 3] or (five_counts and counts == [5]) else 0
    face = int(NUMBER_CATEGORIES[category])
    return sum(value for value in values if value == face)


def unused_categories(sheet: Sequence[Box]) -> tuple[str, ...]:
    used = {box.category for box in sheet}
    return tuple(category for category in CATEGORIES if category not in used)


def sheets_view(sheets: Sequence[Sequence[Box]]) -> list[dict[str, Any]]:
    """Every player's sheet: his filled boxes by category and his total (12.4)."""
    return [
        {
            "seat": seat,
            "boxes": {box.category: box.as_dict() for box in sheet},
            "total": sum(box.points for box in sheet),
        }
        for seat, sheet in enumerate(sheets)
    ]
