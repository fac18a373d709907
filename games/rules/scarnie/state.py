"""Scarnie's board: constants, the ruleset, the state of a deal and the setup a deal starts from.

RULES.md section 6 (6.1 the board, 6.2 partnerships, 6.4 the pawns) and Appendix E's house rules;
the engine is :mod:`games.rules.scarnie.game`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeGuard

from games.rules.errors import BadRuleset, BadSetup
from games.rules.events import REMOVED

KIND = "scarnie"

DEALING, PLAY, OVER = "dealing", "play", "over"
FACED_UP = "deal.faced_up"
DEALER_DRAWN = "dealer.drawn"
EVENT_TYPES = frozenset({FACED_UP, REMOVED})

STATIONS = 4
POSITIONS = 7
PAWN_NUMBERS = range(1, 29)
COLOUR_LIMITS = {"a": 20, "b": 8}
MAX_REMOVED = 3
TARGET = 100  # D-SCN-7

MULTIPLIERS = {"draw": 0, "plain": 1, "double": 2, "triple": 3}
Marks = tuple[tuple[str, ...], ...]
ALL_PLAIN: Marks = tuple(("plain",) * POSITIONS for _ in range(STATIONS))
PARTNERSHIPS = ((0, 2), (1, 3))  # partners sit opposite (6.2)


# --- the ruleset ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The house rules of Scarnie (RULES.md Appendix E) with their defaults.

    ``scarnie_position_marks`` is given as a map (position -> mark, the same on every station,
    with ``"stations": {station: {position: mark}}`` overriding) or as a full 4 x 7 table; it is
    kept as the table, so the ruleset frozen into a stream replays to an equal one.
    """

    ALLOWED: ClassVar[Mapping[str, tuple[object, ...]]] = {
        "scarnie_fill_all_stations": (True, False),
        "scarnie_scorer": ("previous_player", "all_others"),
        "scarnie_settlement": ("none", "difference"),
        "sheet_entry_validation": ("strict", "lenient"),
    }

    scarnie_position_marks: Marks = ALL_PLAIN
    scarnie_fill_all_stations: bool = False
    scarnie_scorer: str = "previous_player"
    scarnie_settlement: str = "none"
    sheet_entry_validation: str = "strict"

    def __post_init__(self) -> None:
        object.__setattr__(self, "scarnie_position_marks", marks_table(self.scarnie_position_marks))

    def mark(self, station: int, position: int) -> str:
        return self.scarnie_position_marks[station - 1][position - 1]

    def multiplier(self, station: int, position: int) -> int:
        return MULTIPLIERS[self.mark(station, position)]


def marks_table(value: Any) -> Marks:
    """The 4 x 7 table of position marks from a map or a table (D-SCN-1); BadRuleset if neither."""
    if value is None:
        return ALL_PLAIN
    if isinstance(value, Mapping):
        return _marks_from_map(value)
    if isinstance(value, list | tuple) and len(value) == STATIONS:
        rows = tuple(_marks_row(row) for row in value)
        if all(row is not None for row in rows):
            return tuple(row for row in rows if row is not None)
    raise _bad_marks("a map from position 1-7 to plain, draw, double or triple")


def _marks_row(row: Any) -> tuple[str, ...] | None:
    if not isinstance(row, list | tuple) or len(row) != POSITIONS:
        return None
    return tuple(row) if all(_is_mark(mark) for mark in row) else None


def _marks_from_map(value: Mapping[Any, Any]) -> Marks:
    common = _position_map(value, allow_stations=True)
    overrides = value.get("stations") or {}
    if not isinstance(overrides, Mapping):
        raise _bad_marks("'stations' to map a station 1-4 to its own marks")
    table = [dict(common) for _ in range(STATIONS)]
    for key, marks in overrides.items():
        station = number_key(key, STATIONS)
        if station is None or not isinstance(marks, Mapping):
            raise _bad_marks(f"station {key!r} to be one of 1-4 with a map of its marks")
        table[station - 1].update(_position_map(marks, allow_stations=False))
    return tuple(tuple(row.get(p, "plain") for p in range(1, POSITIONS + 1)) for row in table)


def _position_map(value: Mapping[Any, Any], *, allow_stations: bool) -> dict[int, str]:
    marks = {}
    for key, mark in value.items():
        if allow_stations and key == "stations":
            continue
        position = number_key(key, POSITIONS)
        if position is None or not _is_mark(mark):
            raise _bad_marks(f"position {key!r} to be 1-7, marked plain, draw, double or triple")
        marks[position] = mark
    return marks


def _bad_marks(wanted: str) -> BadRuleset:
    return BadRuleset(
        "ruleset.bad_value",
        f"House rule 'scarnie_position_marks' needs {wanted}.",
        parameter="scarnie_position_marks",
    )


def number_key(key: Any, highest: int) -> int | None:
    """A JSON object key naming 1..highest ("3" or 3), else None."""
    if isinstance(key, str) and key.isdecimal() and len(key) <= 2:
        key = int(key)
    if is_int(key) and 1 <= key <= highest:
        return int(key)
    return None


def is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_mark(value: Any) -> bool:
    # Checked as a string first: an unhashable JSON value cannot be looked up in a dict.
    return isinstance(value, str) and value in MULTIPLIERS


def is_colour(value: Any) -> TypeGuard[str]:
    return isinstance(value, str) and value in COLOUR_LIMITS


# --- the state -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pawn:
    """A numbered pawn and its colour, as faced up (D-SCN-2)."""

    number: int
    colour: str

    @property
    def label(self) -> str:
        return f"{self.number}{self.colour}"


Station = tuple[Pawn | None, ...]
EMPTY_STATIONS: tuple[Station, ...] = tuple((None,) * POSITIONS for _ in range(STATIONS))


@dataclass(frozen=True, slots=True)
class Removal:
    """One move: who removed which pawns from which positions of one station."""

    seat: int
    station: int
    positions: tuple[int, ...]
    pawns: tuple[Pawn, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "station": self.station,
            "positions": list(self.positions),
            "pawns": [pawn.label for pawn in self.pawns],
        }


@dataclass(frozen=True, slots=True)
class State:
    """One moment of a deal, with the roles and facts the match handed it."""

    phase: str
    seats: int
    dealer: int
    turn: int
    ruleset: Ruleset = field(default_factory=Ruleset)
    deal: int = 1
    stations: tuple[Station, ...] = EMPTY_STATIONS
    removals: tuple[Removal, ...] = ()
    # Colours of pawns seen in earlier deals of the session, as (number, colour), by number.
    known_colours: tuple[tuple[int, str], ...] = ()
    teams: tuple[tuple[int, ...], ...] = ()
    scores_before: tuple[int, ...] = ()


def at(station: int, position: int) -> str:
    """Position notation of RULES.md 6.1: ``S2P5``."""
    return f"S{station}P{position}"


def pawns_left(state: State) -> list[tuple[int, int, Pawn]]:
    """Every pawn on the board as (station, position, pawn)."""
    return [
        (s, p, pawn)
        for s, station in enumerate(state.stations, start=1)
        for p, pawn in enumerate(station, start=1)
        if pawn is not None
    ]


def stations_in_play(seats: int, ruleset: Ruleset) -> tuple[int, ...]:
    """The stations dealt: the players' own, or all four under scarnie_fill_all_stations."""
    return tuple(range(1, (STATIONS if ruleset.scarnie_fill_all_stations else seats) + 1))


# --- setup ---------------------------------------------------------------------------------------


def state_from_setup(setup: Mapping[str, Any], ruleset: Ruleset, seats: int) -> State:
    """The deal awaiting its pawns, from a setup of the declared keys (games.rules.base)."""
    dealer = _setup_dealer(setup.get("dealer", 0), seats)
    return State(
        DEALING,
        seats,
        dealer=dealer,
        turn=dealer,
        ruleset=ruleset,
        deal=_setup_deal(setup.get("deal", 1)),
        known_colours=read_colours(setup.get("colours")),
        teams=read_teams(setup.get("teams"), seats, "setup.bad_teams"),
        scores_before=_setup_scores(setup.get("scores_before"), seats),
    )


def _setup_dealer(dealer: Any, seats: int) -> int:
    if not is_int(dealer) or not 0 <= dealer < seats:
        raise BadSetup(
            "setup.bad_dealer",
            f"The dealer must be a seat number from 0 to {seats - 1}, not {dealer!r}.",
        )
    return int(dealer)


def _setup_deal(deal: Any) -> int:
    if not is_int(deal) or deal < 1:
        raise BadSetup("setup.bad_deal", f"The deal number must be 1 or more, not {deal!r}.")
    return int(deal)


def _setup_scores(scores: Any, seats: int) -> tuple[int, ...]:
    if scores is None:
        return (0,) * seats
    if (
        not isinstance(scores, list | tuple)
        or len(scores) != seats
        or not all(is_int(s) and s >= 0 for s in scores)
    ):
        raise BadSetup(
            "setup.bad_scores",
            f"'scores_before' must list {seats} whole numbers of 0 or more, one per seat.",
        )
    return tuple(scores)


def read_teams(teams: Any, seats: int, code: str) -> tuple[tuple[int, ...], ...]:
    """No partnerships, or seats 0 and 2 against 1 and 3 among four players (6.2, D-SCN-6)."""
    if teams is None or (isinstance(teams, list | tuple) and not teams):
        return ()
    if (
        seats == 4
        and isinstance(teams, list | tuple)
        and all(isinstance(team, list | tuple) and all(map(is_int, team)) for team in teams)
    ):
        given = sorted(tuple(sorted(team)) for team in teams)
        if given == sorted(PARTNERSHIPS):
            return PARTNERSHIPS
    raise BadSetup(
        code,
        "Scarnie partnerships are for four players, partners sitting opposite: "
        f"[[0, 2], [1, 3]]; {teams!r} with {seats} players is not that.",
    )


def read_colours(colours: Any) -> tuple[tuple[int, str], ...]:
    """Colours seen in earlier deals of the session, ``{"17": "a", ...}``, as sorted pairs."""
    if colours is None:
        return ()
    known = {}
    for number, colour in colours.items() if isinstance(colours, Mapping) else [(None, None)]:
        pawn = number_key(number, max(PAWN_NUMBERS))
        if pawn is None or not is_colour(colour):
            raise BadSetup(
                "setup.bad_colours",
                "'colours' must map pawn numbers 1-28 to their colour, 'a' or 'b'.",
            )
        known[pawn] = colour
    counts = {c: sum(1 for v in known.values() if v == c) for c in COLOUR_LIMITS}
    if any(counts[c] > COLOUR_LIMITS[c] for c in COLOUR_LIMITS):
        raise BadSetup(
            "setup.bad_colours",
            f"'colours' names {counts['a']} pawns a and {counts['b']} pawns b; "
            "there are only 20 a and 8 b.",
        )
    return tuple(sorted(known.items()))
