"""A tournament stream's events, declared: their names, who records each (the service, or a
director's correction), and what each one's data holds (games/rules/shapes.py: the store checks
a director's, the OpenAPI schema and the suite read the same declaration)."""

from __future__ import annotations

from collections.abc import Mapping

from games.rules.events import TOURNAMENT_CREATED
from games.rules.shapes import (
    PAWN,
    REASON,
    Boolean,
    Integer,
    ListOf,
    MapOf,
    Nullable,
    Number,
    Record,
    Text,
    one_of,
    record,
)
from games.tournaments.core import tiebreaks

CREATED = TOURNAMENT_CREATED
ENTERED = "player.entered"
WITHDREW = "player.withdrew"
BYE_REQUESTED = "bye.requested"
PAIRED = "round.paired"
REPAIRED = "round.repaired"
LAID_OUT = "round.laid_out"
KEEPER_ASSIGNED = "keeper.assigned"
RESULT_RECORDED = "result.recorded"
RESULT_ADJUSTED = "result.adjusted"
FORFEIT = "result.forfeited"
VOIDED = "game.voided"
ROUND_CLOSED = "round.closed"
LABELLED = "player.labelled"
CONFIRMED = "table.confirmed"  # the tournament's copy of a match's result.confirmed
PUBLISHED = "tournament.published"
UNPUBLISHED = "tournament.unpublished"

SYSTEMS = ("swiss", "round_robin", "tables")
# Written by the service from its own computation or from a match's settlement.
SERVICE_ONLY = frozenset(
    {CREATED, ENTERED, PAIRED, REPAIRED, KEEPER_ASSIGNED, RESULT_RECORDED, CONFIRMED}
)
# A director's corrections, each with a reason (POST /tournaments/{id}/events/).
CORRECTIONS = frozenset(
    {
        WITHDREW,
        BYE_REQUESTED,
        RESULT_ADJUSTED,
        FORFEIT,
        VOIDED,
        ROUND_CLOSED,
        LABELLED,
        PUBLISHED,
        UNPUBLISHED,
    }
)
EVENT_TYPES = SERVICE_ONLY | CORRECTIONS | {LAID_OUT}

# --- what each event's data holds (games/rules/shapes.py; the store checks a director's) -----

_PLAYER = Integer(1, doc="a player's id")
_ROUND = Integer(1, doc="round number")
_TABLE = Integer(1, doc="table number")
_LABEL = Text(40, doc="how the entry is shown: unique within the tournament")
_POSITION = MapOf(
    PAWN,
    Text(3, pattern="^C([1-9]|1[0-6])$"),
    16,
    doc='a board position, {circle: pawn}, e.g. {"C1": "B4"}',
)
_PAIRED_TABLE = record(
    "A table of the round: its players in seat order and its match.",
    optional=("match",),
    table=_TABLE,
    players=ListOf(_PLAYER, 64, 1),
    match=Text(36, doc="the table's match id"),
)
_BYE = record(
    "A player without a table this round.",
    optional=("requested",),
    player=_PLAYER,
    points=Number(0, 1, doc="the points the bye gives"),
    requested=Boolean(doc="true for a bye the player asked for"),
)
_PAIRING = {
    "round": _ROUND,
    "tables": ListOf(_PAIRED_TABLE, 1000),
    "byes": ListOf(_BYE, 1000),
    "seed": Integer(0, 2**31 - 1, doc="the draw's seed, where one was drawn"),
    "layouts": ListOf(_POSITION, 16, doc="a duplicate round's deal: one layout per game"),
    "seeds": ListOf(
        _PLAYER, 1000, doc="the first round's initial order (top seed first), where it is by rating"
    ),
}
EVENT_SHAPES: Mapping[str, Record] = {
    CREATED: record(
        'A tournament\'s settings (API.md "Tournaments").',
        optional=("confirm_results",),
        name=Text(200, doc="the tournament's name"),
        format=Text(40, doc="the match format played at every table"),
        system=Text(16, SYSTEMS, doc="how rounds are paired"),
        rounds=Nullable(Integer(1, 1000), doc="the rounds planned (null: as many as run)"),
        table_size=Integer(1, 64, doc="players per table"),
        entry=Text(8, ("live", "sheet"), doc="games played live, or entered from sheets"),
        ruleset=MapOf(
            one_of(Boolean(), Integer(), Text(64), doc="a house rule's value"),
            doc="the matches' house rules, as given (the format's own names)",
        ),
        tiebreaks=ListOf(Text(32, tiebreaks.TIEBREAKS), 8, doc="the tie-breaks, in order"),
        double=Boolean(doc="every pairing played twice (double round robin)"),
        seeding=Text(16, doc="how the first round is seeded"),
        published=Boolean(doc="whether the public sees the tournament"),
        confirm_results=Boolean(doc="results played at the tables wait for confirmation"),
    ),
    ENTERED: record(
        "A player entered (late, with a reason); ``label`` when the director typed one.",
        optional=("reason", "label"),
        player=_PLAYER,
        name=Text(100, doc="the player's name"),
        label=_LABEL,
        reason=REASON,
    ),
    LABELLED: record(
        "A director names an entry otherwise (two players of one name told apart).",
        optional=("reason",),
        player=_PLAYER,
        label=_LABEL,
        reason=REASON,
    ),
    CONFIRMED: record(
        "A seat agreed to its table's result (result.confirmed on the table's match), or a "
        "director confirmed it for the table (saying why, where he did).",
        optional=("seat", "director", "reason"),
        round=_ROUND,
        table=_TABLE,
        seat=Integer(0, 63, doc="the seat that agreed"),
        director=Boolean(doc="true: a director confirmed the whole table's result"),
        reason=REASON,
    ),
    PAIRED: record(
        "A round's pairing, whole.",
        optional=("seed", "layouts", "seeds"),
        **_PAIRING,
    ),
    REPAIRED: record(
        "The current round paired again, with why.",
        optional=("seed", "layouts", "seeds"),
        reason=REASON,
        **_PAIRING,
    ),
    KEEPER_ASSIGNED: record(
        "A user keeps score at a table this round.",
        round=_ROUND,
        table=_TABLE,
        user=Text(150, doc="the keeper's username"),
    ),
    RESULT_RECORDED: record(
        "A table's match closed: its ranks, scores and nets, by seat.",
        optional=("rating", "confirmed"),
        round=_ROUND,
        table=_TABLE,
        match=Text(36, doc="the match's id"),
        ranks=ListOf(Integer(1), 64),
        scores=ListOf(Number(), 64),
        net=ListOf(Number(), 64),
        rating=Nullable(Text(64), doc="the match's rating, where the format rates"),
        confirmed=Boolean(doc="true: entered by a director, so confirmed by its entry"),
    ),
    WITHDREW: record("A player leaves the tournament.", player=_PLAYER, reason=REASON),
    BYE_REQUESTED: record(
        "A player sits out a round, for the points given.",
        player=_PLAYER,
        round=_ROUND,
        points=Number(0, 1, doc="0, 0.5 or 1"),
        reason=REASON,
    ),
    RESULT_ADJUSTED: record(
        "A director sets a table's match points.",
        round=_ROUND,
        table=_TABLE,
        points=ListOf(Number(0, 1), 64, doc="match points per seat, 0 to 1"),
        reason=REASON,
    ),
    FORFEIT: record(
        "A player forfeits his table's match.",
        round=_ROUND,
        table=_TABLE,
        player=_PLAYER,
        reason=REASON,
    ),
    VOIDED: record("A table's game is void.", round=_ROUND, table=_TABLE, reason=REASON),
    ROUND_CLOSED: record(
        "A round closed (by a director, with a reason; or before the next is paired).",
        optional=("reason",),
        round=_ROUND,
        reason=REASON,
    ),
    PUBLISHED: record(
        "A director makes the tournament public: anyone reads it and its play from now on."
    ),
    UNPUBLISHED: record(
        "A director takes the tournament from the public: from now on only its creator, "
        "keepers, linked entrants and the directors read it and its play.",
        reason=REASON,
    ),
    LAID_OUT: record(
        "A duplicate round's layouts: one position per game of the round's matches; a director "
        "who gives none has them dealt by the service, which records its seed.",
        optional=("layouts", "seed"),
        round=_ROUND,
        layouts=ListOf(_POSITION, 16, 1),
        seed=Integer(0, 2**31 - 1, doc="the seed of a deal made by the service"),
    ),
}
