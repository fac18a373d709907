"""The tie-breaks a tournament may choose, declared once: their keys, the default order, how a
column heads each, how a sentence names it and what it computes.

Everything else asks this module: the check of a tournament's settings (``check``), the shape of
``tournament.created``, the standings and their ``explain``, the API's default, the admin's form
and the printed documents' headings. Adding or renaming a tie-break is this module and its
computation in ``standings._tiebreak``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.rules.errors import BadSetup


@dataclass(frozen=True, slots=True)
class Tiebreak:
    key: str  # what the API and the events carry
    label: str  # a column's heading, as a person reads it
    named: str  # within a sentence ("Ordered by points, then median Buchholz, ...")
    sentence: str  # how it is computed, shown beside the standings


DECLARED = (
    Tiebreak(
        "buchholz",
        "Buchholz",
        "Buchholz",
        "Buchholz: the sum of the current points of every opponent met (at a multi-player table "
        "each table-mate counts); a bye adds nothing, FIDE's virtual opponent is not used, and "
        "voided tables are left out.",
    ),
    Tiebreak(
        "median_buchholz",
        "Median Buchholz",
        "median Buchholz",
        "Median Buchholz: Buchholz without the highest and the lowest opponent score (with fewer "
        "than three opponents, plain Buchholz).",
    ),
    Tiebreak(
        "sonneborn_berger",
        "Sonneborn-Berger",
        "Sonneborn-Berger",
        "Sonneborn-Berger: for each opponent met, his current points times your result against "
        "him (1 if you finished above him at that table, ½ if level, 0 if below), summed.",
    ),
    Tiebreak(
        "head_to_head",
        "Head to head",
        "head to head",
        "Head to head: the points you scored (1, ½ or 0 a meeting, as in Sonneborn-Berger) "
        "against the players level with you on points; it only separates players level on points.",
    ),
    Tiebreak(
        "points_difference",
        "Points difference",
        "points difference",
        "Points difference: over your tables, your match total minus the average of your "
        "table-mates' totals (two players: yours minus his); at a duplicate Solitaire table, "
        "your total minus the field's average total on that deal.",
    ),
    Tiebreak(
        "net",
        "Net",
        "net",
        "Net: your settlement over the tournament, points or chips received minus paid "
        "(as each game's rules settle a match), voided tables left out.",
    ),
)
BY_KEY = {t.key: t for t in DECLARED}
TIEBREAKS = tuple(BY_KEY)
# A tournament created without its tie-breaks breaks ties by these, in this order.
DEFAULT = ("buchholz", "sonneborn_berger", "points_difference")


def check(tiebreaks: object) -> tuple[str, ...]:
    """``tiebreaks`` as chosen: a list of declared keys, each once, in order (422
    ``tournament.bad_tiebreak`` otherwise)."""
    if (
        not isinstance(tiebreaks, list | tuple)
        or any(t not in BY_KEY for t in tiebreaks)
        or len(set(tiebreaks)) != len(tiebreaks)
    ):
        raise BadSetup(
            "tournament.bad_tiebreak",
            f"tiebreaks lists, in order and each once, some of {', '.join(TIEBREAKS)}.",
            field="tiebreaks",
        )
    return tuple(tiebreaks)


def label(key: str) -> str:
    """A tie-break's column heading (``sonneborn_berger`` -> ``Sonneborn-Berger``)."""
    return BY_KEY[key].label


def labels(keys: Sequence[str]) -> list[str]:
    return [label(key) for key in keys]
