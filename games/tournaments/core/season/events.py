"""A season stream's events, declared: their names and what each one's data holds
(games/rules/shapes.py: the store checks them, the OpenAPI schema and the suite read them)."""

from __future__ import annotations

from collections.abc import Mapping

from games.rules.events import SEASON_CREATED
from games.rules.shapes import (
    REASON,
    Boolean,
    Integer,
    ListOf,
    Nullable,
    Number,
    Record,
    Text,
    one_of,
    record,
)

CREATED = SEASON_CREATED
ADDED = "tournament.added"
REMOVED = "tournament.removed"
CLOSED = "season.closed"

EVENT_TYPES = frozenset({CREATED, ADDED, REMOVED, CLOSED})

# The longest place-points table a season takes: a club evening's field is rarely past 60.
LONGEST_TABLE = 200
MOST_BEST = 1000

_TOURNAMENT = Text(36, doc="the evening's tournament id")

EVENT_SHAPES: Mapping[str, Record] = {
    CREATED: record(
        'A season\'s settings (API.md "Seasons").',
        name=Text(200, doc="the season's name"),
        format=Nullable(Text(40), doc="the one match format its evenings play, or null: any"),
        best=Nullable(
            Integer(1, MOST_BEST), doc="how many of a player's evenings count (null: all)"
        ),
        points=one_of(
            Text(8, ("field",), doc="n - place + 1 in an evening of n players"),
            ListOf(Number(0, 1000), LONGEST_TABLE, 1, doc="points by place, 0 past its end"),
            doc="how an evening's place becomes season points",
        ),
        published=Boolean(doc="whether the public sees the season"),
    ),
    ADDED: record(
        "An evening (a tournament) joins the season.",
        optional=("reason",),
        tournament=_TOURNAMENT,
        reason=REASON,
    ),
    REMOVED: record(
        "An evening leaves the season: its results no longer count.",
        optional=("reason",),
        tournament=_TOURNAMENT,
        reason=REASON,
    ),
    CLOSED: record(
        "The season is over: no evening joins or leaves it any more.",
        optional=("reason",),
        reason=REASON,
    ),
}
