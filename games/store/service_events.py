"""The data of the events the service writes itself (a game's or a match's first event, a game's
end, a settlement, the register's events, a confirmation, a take-back), declared as the game
families declare theirs (games/rules/shapes.py); ``games.store.event_types`` joins them to the
families' declarations.
"""

from __future__ import annotations

from games.rules import registry
from games.rules.base import ReportsToMatch
from games.rules.events import (
    GAME_FINISHED,
    GAME_STARTED,
    MATCH_RATED,
    MATCH_SETTLED,
    MATCH_STARTED,
    REGISTER_OPENED,
    RESULT_CONFIRMED,
    UNDO,
)
from games.rules.shapes import (
    POINTS,
    REASON,
    SEAT,
    SEATS,
    Boolean,
    Integer,
    ListOf,
    Nullable,
    Number,
    Record,
    Shape,
    Text,
    one_of,
    record,
    ruleset_shape,
)

PLAYER_ID = Integer(1, doc="a player's id")
SEAT_HEADER = record(
    "A seat and who sits there.",
    seat=SEAT,
    player=Nullable(PLAYER_ID, doc="the player's id (null for a seat named only)"),
    name=Text(100, doc="the player's name"),
)


def _rulesets() -> Shape:
    shapes = {ruleset_shape(registry.get(kind).ruleset_type) for kind in registry.kinds()}
    shapes |= {ruleset_shape(registry.match_rules(f).ruleset_type) for f in registry.formats()}
    return one_of(*sorted(shapes, key=repr), doc="the effective house rules, every one of them")


def _setups() -> Shape:
    shapes = {registry.get(kind).setup_shape for kind in registry.kinds()}
    return one_of(*sorted(shapes, key=repr), doc="the game's setup, as its kind takes it")


def _reports() -> Shape:
    rules = [registry.get(kind) for kind in registry.kinds()]
    shapes = {r.report_shape for r in rules if isinstance(r, ReportsToMatch)}
    return one_of(*sorted(shapes, key=repr), record("A game that reports only its scores."))


def service_shapes() -> dict[str, Record]:
    """The data of each type the service writes itself."""
    kinds = Text(40, tuple(registry.kinds()), doc="the game kind")
    formats = Text(40, tuple(registry.formats()), doc="the match format")
    return {
        GAME_STARTED: record(
            "The first event of every game: its kind, seats, house rules and setup.",
            kind=kinds,
            seats=ListOf(SEAT_HEADER, 64),
            ruleset=_rulesets(),
            setup=_setups(),
            match=Nullable(Text(36), doc="the match's id, or null"),
            number=Nullable(Integer(1), doc="the game's number in its match, or null"),
        ),
        MATCH_STARTED: record(
            "The first event of every match: its format, players, sides, house rules, entry.",
            optional=("tournament",),
            format=formats,
            players=ListOf(SEAT_HEADER, 64),
            teams=ListOf(SEATS, 8, doc="the sides, each a list of seats (empty: no sides)"),
            ruleset=_rulesets(),
            entry=Text(8, ("live", "sheet"), doc="live games, or a score sheet"),
            tournament=record(
                "The tournament table the match is played at.",
                id=Text(36, doc="the tournament's id"),
                round=Integer(1, doc="round number"),
                table=Integer(1, doc="table number"),
            ),
        ),
        GAME_FINISHED: record(
            "A live game of the match ended (written by the service from the game).",
            optional=("report",),
            game=Text(36, doc="the game's id"),
            scores=ListOf(POINTS, 64, doc="every seat's game total, in seat order"),
            winners=SEATS,
            report=_reports(),
        ),
        MATCH_SETTLED: record(
            "The match's settlement, as its format computes it.",
            optional=("payments", "nets", "left_in_pot", "pot_left", "game_points", "winners"),
            payments=ListOf(
                # ``from`` is a Python word: the fields are given as a mapping.
                Record({"from": SEAT, "to": SEAT, "points": POINTS}, frozenset(), "One payment."),
                1000,
            ),
            nets=ListOf(Number(), 64, doc="each seat's net, in seat order"),
            left_in_pot=Integer(doc="chips left in the pot"),
            pot_left=Integer(doc="chips left in the pot"),
            game_points=ListOf(Number(), 64, doc="each seat's game points"),
            winners=SEATS,
        ),
        MATCH_RATED: record(
            "Solitaire: the match's rating in the book's words.",
            rating=Text(64, doc="the rating"),
            match_score=Integer(doc="the match score"),
        ),
        REGISTER_OPENED: record("The player register's first event."),
        "player.registered": record(
            "A player entered in the register.",
            player=PLAYER_ID,
            name=Text(100, doc="the player's name"),
            member_number=Nullable(Text(32), doc="the club's member number, if any"),
        ),
        "player.merged": record(
            "A player found to be another: seats naming him resolve to ``into`` from then on.",
            player=PLAYER_ID,
            into=PLAYER_ID,
            reason=REASON,
        ),
        RESULT_CONFIRMED: record(
            'A tournament table\'s match: a seat agrees to the result ({"seat": 1}), or a '
            'director confirms it for the table ({"director": true}, with an optional reason).',
            optional=("seat", "director", "reason"),
            seat=SEAT,
            director=Boolean(doc="true: a director confirms the whole table's result"),
            reason=REASON,
        ),
        UNDO: record(
            "A take-back of the last move in force; a director reopening a finished game says why.",
            optional=("reason",),
            reason=Text(500, doc="why"),
        ),
    }
