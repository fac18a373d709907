"""The Double Cameroon match: one game, winner and totals only, and its finished sheet.

RULES.md 0.8 gives Double Cameroon no settlement; 12.4 makes equal highest totals shared wins. A
sheet (RULES.md 0.6) lists every seat's ten category boxes: each category is used exactly once
(12.3), a group that does not qualify scoring 0 there (D-DC-2), so all ten are on the sheet. Each
box is checked against Appendix C.5 (the scores five dice can make in it, D-DC-3's house rule
included) and the totals are derived.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from typing import Any, ClassVar

from games.rules.base import Move
from games.rules.dice import ORDINARY_FACES
from games.rules.dice_games.double_cameroon import DOUBLE_CAMEROON, KIND, Ruleset
from games.rules.dice_games.double_cameroon_scoring import CATEGORIES, GROUP_SIZE, category_points
from games.rules.dice_games.shapes import MAX_SEATS
from games.rules.errors import IllegalEvent, wrong_length
from games.rules.events import GAME_SCORED
from games.rules.matches import EntryWarning, GameEntry, OneGameMatch, ScoredMatchState, no_payments
from games.rules.shapes import Integer, ListOf, Nullable, Record, record
from games.rules.wording import player_at

SHEET_KEYS = ("boxes", "cumulative", "scores")

Boxes = tuple[Mapping[str, int], ...]

# --- what a table records on the match (games/rules/shapes.py) ------------------------------

BOX = Integer(doc="the box's score (a lenient sheet warns of one five dice cannot make)")
SEAT_SHEET = Record(
    dict.fromkeys(CATEGORIES, BOX),
    doc="A seat's sheet: every category's score, each category filled once (0 if the group did "
    "not qualify).",
)

LEAST_SEATS = DOUBLE_CAMEROON.min_seats
SHEET = record(
    "A finished sheet: every seat's ten boxes; the totals are derived.",
    optional=("cumulative", "scores"),
    boxes=ListOf(SEAT_SHEET, MAX_SEATS, LEAST_SEATS, doc="each seat's sheet, in seat order"),
    cumulative=Nullable(
        ListOf(
            Integer(), MAX_SEATS, LEAST_SEATS, doc="the running totals after this game, per seat"
        )
    ),
    scores=Nullable(
        ListOf(
            Integer(), MAX_SEATS, LEAST_SEATS, doc="the sheet's totals, checked against the boxes"
        )
    ),
)


@dataclass(frozen=True, slots=True)
class MatchRuleset(Ruleset):
    """The game's house rules, and how strictly a sheet is checked (RULES.md 0.6)."""

    ALLOWED: ClassVar[Mapping[str, tuple[object, ...]]] = {
        **Ruleset.ALLOWED,
        "sheet_entry_validation": ("strict", "lenient"),
    }

    sheet_entry_validation: str = "strict"


@cache
def attainable(category: str, five_counts_as_full_house: bool) -> frozenset[int]:
    """Every score five dice can make in ``category`` (Appendix C.5), by the game's own scoring.

    E.g. ``full_house``: 0 and 3x + 2y for x != y, plus 5x when five of a kind counts (D-DC-3).
    """
    ruleset = Ruleset(cameroon_five_counts_as_full_house=five_counts_as_full_house)
    return frozenset(
        category_points(category, dice, ruleset)
        for dice in combinations_with_replacement(ORDINARY_FACES, GROUP_SIZE)
    )


class DoubleCameroonMatch(OneGameMatch):
    """A Double Cameroon match is one game: the highest total wins (shared on a tie), nothing
    is paid (RULES.md 0.8, 12.4)."""

    kind = KIND
    ruleset_type: type[Any] = MatchRuleset
    min_seats = DOUBLE_CAMEROON.min_seats
    max_seats = MAX_SEATS
    events = {GAME_SCORED: SHEET}

    def sheet_rule(self, ruleset: Mapping[str, Any]) -> str:
        """The rule a sheet's lines follow and how the match ends, in one sentence."""
        return (
            "A match is one game: each player fills his ten boxes and the highest total wins (a "
            "tie shares the win); nothing is paid."
        )

    def settlement(self, state: ScoredMatchState) -> dict[str, Any]:
        return no_payments(state.seats)

    def extra_handlers(self) -> Mapping[str, Any]:
        return {GAME_SCORED: self._sheet_game}

    def _sheet_game(self, state: ScoredMatchState, move: Move) -> ScoredMatchState:
        """A finished sheet: every seat's ten boxes, checked, and their totals derived."""
        boxes = read_boxes(move.data, state.seats)
        number = len(state.entries) + 1
        warnings = state.warnings
        for issue in box_issues(boxes, state.ruleset.cameroon_five_counts_as_full_house):
            if state.ruleset.sheet_entry_validation == "strict":
                raise issue
            warnings = (*warnings, EntryWarning(number, issue.code, issue.message))
        scores = tuple(sum(sheet.values()) for sheet in boxes)
        self._check_sheet_sums(state, move, scores, number)
        printed = move.data.get("scores")
        if printed is not None and printed != list(scores):
            raise IllegalEvent(
                "sheet.total_mismatch",
                f"The totals are {list(scores)} as the boxes add up, not {printed}.",
                totals=list(scores),
                game=number,
            )
        entry = GameEntry(number, None, scores, self.sheet_winners(state, scores))
        return dataclasses.replace(state, entries=(*state.entries, entry), warnings=warnings)


# --- the sheet (RULES.md 0.6, 12.3, Appendix C.5) ------------------------------------------------


def read_boxes(data: Mapping[str, Any], seats: int) -> Boxes:
    """``boxes``: per seat, ``{category: points}`` with each of the ten categories once."""
    unknown = sorted(str(key) for key in data if key not in SHEET_KEYS)
    if unknown:
        raise IllegalEvent(
            "event.bad_data",
            f"A Double Cameroon sheet takes boxes, cumulative and scores; {', '.join(unknown)} "
            "is unknown.",
            fields=unknown,
        )
    boxes = data.get("boxes")
    if isinstance(boxes, list) and len(boxes) != seats:
        raise wrong_length("boxes", boxes, seats, "one sheet of boxes per seat")
    if not isinstance(boxes, list) or not all(
        isinstance(sheet, Mapping) and all(map(_is_int, sheet.values())) for sheet in boxes
    ):
        raise IllegalEvent(
            "event.bad_data",
            f"'boxes' must list {seats} objects, one per seat in seat order, each giving the "
            "whole-number score of every category.",
            field="boxes",
        )
    for seat, sheet in enumerate(boxes):
        _check_categories(seat, sheet)
    return tuple(dict(sheet) for sheet in boxes)


def _check_categories(seat: int, sheet: Mapping[str, int]) -> None:
    strange = sorted(str(key) for key in sheet if key not in CATEGORIES)
    if strange:
        raise IllegalEvent(
            "group.unknown_category",
            f"{player_at(seat)}'s sheet has {', '.join(strange)}: not a category; the ten are "
            f"{', '.join(CATEGORIES)}.",
            seat=seat,
            category=strange[0],
        )
    missing = [category for category in CATEGORIES if category not in sheet]
    if missing:
        raise IllegalEvent(
            "sheet.category_missing",
            f"{player_at(seat)}'s sheet lacks {', '.join(missing)}: every category is filled "
            "exactly once (a group that does not qualify scores 0 there).",
            seat=seat,
            categories=missing,
        )


def box_issues(boxes: Boxes, five_counts_as_full_house: bool) -> list[IllegalEvent]:
    """Why written boxes are impossible (Appendix C.5): one refusal per box, in seat order."""
    issues = []
    for seat, sheet in enumerate(boxes):
        for category in CATEGORIES:
            points = sheet[category]
            allowed = attainable(category, five_counts_as_full_house)
            if points not in allowed:
                issues.append(
                    IllegalEvent(
                        "score.unattainable",
                        f"No five dice score {points} in {category} ({player_at(seat)}); possible: "
                        f"{', '.join(map(str, sorted(allowed)))}.",
                        score=points,
                        seat=seat,
                        category=category,
                    )
                )
    return issues


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


DOUBLE_CAMEROON_MATCH = DoubleCameroonMatch()
