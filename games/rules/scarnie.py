"""Scarnie (``scarnie``): RULES.md section 6, with conventions 0.5-0.8.

Four stations of seven positions, one in front of each seat; 28 pawns numbered 1-28, twenty of
colour ``a`` and eight of colour ``b``. Players take turns removing one to three pawns of one colour
from one station; whoever removes ("kills") the last pawn loses the deal, and the deal's scorer
receives the last pawn's number times the multiplier of the position it stood on.

Structure (RULES.md 0.2: a *deal* is one board, the *game* the series of deals to 100): one game
stream of this kind is one deal, following the state machine of 6.5 (DEALING -> PLAY -> OVER); the
series to 100 is a match of format ``scarnie`` (:class:`ScarnieMatch`), complete once one player or
partnership leads alone with 100 or more. The match gives each deal its roles through
``next_game_setup``: the dealer (rotating left, 6.3), the deal number, the scores so far, the
partnerships and the colours of the pawns seen in earlier deals (a number's colour never changes
within a session, 6.4).

Scores at seat level: the deal's points go to the seat that scores (D-SCN-5). With partnerships
they go to the seat that moved before the killer, which always belongs to the opposing
partnership; a partnership's score is the sum of its two seats, so partners never count twice.

Events: ``deal.faced_up {"stations": {"1": [{"position", "pawn", "colour"}, ...], ...}}`` (6.4's
suggested name), ``pawns.removed {"station": 2, "positions": [1, 4]}`` (positions may also be
written ``"S2P1"``); on the match, ``dealer.drawn {"pawns": [n per seat]}`` (6.3, optional).
Refusals: ``deal.bad_station``, ``deal.duplicate_pawn``, ``deal.colour_changed``,
``deal.colour_count``, ``remove.count``, ``remove.duplicate``, ``remove.empty_position``,
``remove.two_stations``, ``remove.mixed_colours``, ``remove.empties_board``, plus the state
machine's own ``deal.required`` / ``deal.already_made`` and the draw's ``draw.*``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, ClassVar, TypeGuard

from games.rules.base import Move, Result, SeatScore, make_ruleset
from games.rules.errors import BadRuleset, BadSetup, IllegalEvent
from games.rules.matches import (
    ScoredMatch,
    ScoredMatchState,
    cumulative,
    payments_settlement,
    ranked,
    register_format,
)
from games.rules.registry import register

KIND = "scarnie"

DEALING, PLAY, OVER = "dealing", "play", "over"
FACED_UP = "deal.faced_up"
REMOVED = "pawns.removed"
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

_AT_TEXT = re.compile(r"S([1-4])P([1-7])")


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
        station = _number_key(key, STATIONS)
        if station is None or not isinstance(marks, Mapping):
            raise _bad_marks(f"station {key!r} to be one of 1-4 with a map of its marks")
        table[station - 1].update(_position_map(marks, allow_stations=False))
    return tuple(tuple(row.get(p, "plain") for p in range(1, POSITIONS + 1)) for row in table)


def _position_map(value: Mapping[Any, Any], *, allow_stations: bool) -> dict[int, str]:
    marks = {}
    for key, mark in value.items():
        if allow_stations and key == "stations":
            continue
        position = _number_key(key, POSITIONS)
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


def _number_key(key: Any, highest: int) -> int | None:
    """A JSON object key naming 1..highest ("3" or 3), else None."""
    if isinstance(key, str) and key.isdecimal() and len(key) <= 2:
        key = int(key)
    if _is_int(key) and 1 <= key <= highest:
        return int(key)
    return None


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_mark(value: Any) -> bool:
    # Checked as a string first: an unhashable JSON value cannot be looked up in a dict.
    return isinstance(value, str) and value in MULTIPLIERS


def _is_colour(value: Any) -> TypeGuard[str]:
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


# --- the rule engine -----------------------------------------------------------------------------


class ScarnieRules:
    """The rule engine of one Scarnie deal (the ``Rules`` protocol of games.rules.base)."""

    kind = KIND
    ruleset_type: type[Any] = Ruleset
    min_seats = 2
    max_seats = 4

    def initial_state(self, setup: Mapping[str, Any], ruleset: Any, seats: int) -> State:
        """The deal awaiting its pawns; the setup gives the match's roles (or a table's own)."""
        if not self.min_seats <= seats <= self.max_seats:
            raise BadSetup(
                "game.bad_seats", f"Scarnie is played by 2 to 4 players, not {seats}.", seats=seats
            )
        rules = ruleset if isinstance(ruleset, Ruleset) else make_ruleset(Ruleset, ruleset)
        return _state_from_setup(setup, rules, seats)

    def apply(self, state: State, move: Move) -> State:
        """The state after ``move``, or IllegalEvent with a RULES.md 6.4/6.5 refusal code."""
        if not isinstance(move.type, str) or move.type not in EVENT_TYPES:
            raise IllegalEvent(
                "event.unknown_type", f"{move.type!r} is not an event of Scarnie.", type=move.type
            )
        if not isinstance(move.data, Mapping):
            raise IllegalEvent("event.bad_data", f"The data of {move.type} must be an object.")
        if state.phase == OVER:
            raise IllegalEvent("game.over", f"The deal is over: {_kill_sentence(state)}.")
        if state.phase == DEALING:
            return _in_dealing(state, move)
        return _in_play(state, move)

    def expected(self, state: State) -> list[str]:
        return {DEALING: [FACED_UP], PLAY: [REMOVED]}.get(state.phase, [])

    def legal_events(self, state: State) -> list[Move] | None:
        """Every legal removal; None while the deal (a chance event) is awaited."""
        if state.phase == DEALING:
            return None
        if state.phase == OVER:
            return []
        return [
            Move(REMOVED, {"station": station, "positions": list(positions)})
            for station, positions in legal_removals(state)
        ]

    def current_player(self, state: State) -> int | None:
        """The dealer while the deal is awaited (he calls "Play"), then the player on turn."""
        return None if state.phase == OVER else state.turn

    def is_terminal(self, state: State) -> bool:
        return state.phase == OVER

    def scores(self, state: State) -> tuple[SeatScore, ...]:
        """The deal's points per seat (all 0 until the last pawn is killed)."""
        return tuple(SeatScore(seat, points) for seat, points in enumerate(deal_points(state)))

    def result(self, state: State) -> Result | None:
        """Once the last pawn is killed: the points, and the scorers (or partnership) as winners."""
        if state.phase != OVER:
            return None
        return Result(self.scores(state), winners=deal_winners(state))

    def view(self, state: State) -> dict[str, Any]:
        """The four stations with their pawns and marks, whose turn, the deal and the scores."""
        points = deal_points(state)
        so_far = [before + now for before, now in zip(state.scores_before, points, strict=True)]
        return {
            "stations": {str(s): _station_view(state, s) for s in range(1, STATIONS + 1)},
            "phase": state.phase,
            "deal": state.deal,
            "dealer": state.dealer,
            "on_turn": self.current_player(state),
            "pawns_left": len(pawns_left(state)),
            "removals": [removal.as_dict() for removal in state.removals],
            "last_pawn": last_pawn(state),
            "scores_so_far": so_far,
            "partnerships": [
                {"seats": list(team), "score": sum(so_far[s] for s in team)} for team in state.teams
            ],
            "target": TARGET,
        }

    def match_report(self, state: State) -> dict[str, Any]:
        """What the match needs: the dealer (for the rotation), the kill, the colours seen."""
        return {
            "deal": state.deal,
            "dealer": state.dealer,
            "last_pawn": last_pawn(state),
            "colours": _colours_seen(state),
        }


def _station_view(state: State, station: int) -> list[dict[str, Any]]:
    return [
        {
            "position": p,
            "at": at(station, p),
            "mark": state.ruleset.mark(station, p),
            "pawn": None if pawn is None else pawn.number,
            "colour": None if pawn is None else pawn.colour,
            "label": None if pawn is None else pawn.label,
        }
        for p, pawn in enumerate(state.stations[station - 1], start=1)
    ]


# --- setup ---------------------------------------------------------------------------------------

_SETUP_KEYS = frozenset({"dealer", "deal", "scores_before", "teams", "colours"})


def _state_from_setup(setup: Any, ruleset: Ruleset, seats: int) -> State:
    if setup is None:
        setup = {}
    if not isinstance(setup, Mapping):
        raise BadSetup("setup.not_an_object", "The setup must be a JSON object.")
    unknown = sorted(str(key) for key in setup if key not in _SETUP_KEYS)
    if unknown:
        raise BadSetup(
            "setup.unknown_key",
            f"Scarnie's setup takes {', '.join(sorted(_SETUP_KEYS))}; "
            f"{', '.join(unknown)} is unknown.",
            keys=unknown,
        )
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
    if not _is_int(dealer) or not 0 <= dealer < seats:
        raise BadSetup(
            "setup.bad_dealer", f"The dealer must be a seat 0 to {seats - 1}, not {dealer!r}."
        )
    return int(dealer)


def _setup_deal(deal: Any) -> int:
    if not _is_int(deal) or deal < 1:
        raise BadSetup("setup.bad_deal", f"The deal number must be 1 or more, not {deal!r}.")
    return int(deal)


def _setup_scores(scores: Any, seats: int) -> tuple[int, ...]:
    if scores is None:
        return (0,) * seats
    if (
        not isinstance(scores, list | tuple)
        or len(scores) != seats
        or not all(_is_int(s) and s >= 0 for s in scores)
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
        and all(isinstance(team, list | tuple) and all(map(_is_int, team)) for team in teams)
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
        pawn = _number_key(number, max(PAWN_NUMBERS))
        if pawn is None or not _is_colour(colour):
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


# --- the deal (6.4) ------------------------------------------------------------------------------


def _in_dealing(state: State, move: Move) -> State:
    if move.type != FACED_UP:
        raise IllegalEvent(
            "deal.required",
            f"The pawns must be dealt and faced up ({FACED_UP}) before any is removed.",
        )
    stations = _read_deal(state, move.data.get("stations"))
    _check_pawns(state, stations)
    return dataclasses.replace(state, phase=PLAY, stations=stations, turn=state.dealer)


def _read_deal(state: State, given: Any) -> tuple[Station, ...]:
    if not isinstance(given, Mapping):
        raise IllegalEvent(
            "event.bad_data",
            "'stations' of deal.faced_up must map each station to its seven pawns.",
            field="stations",
        )
    wanted = stations_in_play(state.seats, state.ruleset)
    board = list(EMPTY_STATIONS)
    for key, entries in given.items():
        station = _number_key(key, STATIONS)
        if station is None or station not in wanted:
            raise _station_not_dealt(key, wanted, state.seats)
        if board[station - 1] != EMPTY_STATIONS[0]:
            raise IllegalEvent(
                "deal.bad_station", f"Station {station} is given twice.", station=station
            )
        board[station - 1] = _read_station(station, entries)
    missing = [s for s in wanted if board[s - 1] == EMPTY_STATIONS[0]]
    if missing:
        names = ", ".join(str(s) for s in missing)
        raise IllegalEvent(
            "deal.bad_station",
            f"Station {names} has no pawns; every station in play gets seven.",
            station=missing[0],
        )
    return tuple(board)


def _station_not_dealt(key: Any, wanted: tuple[int, ...], seats: int) -> IllegalEvent:
    if _number_key(key, STATIONS) is None:
        why = "the board has stations 1-4"
    else:
        why = f"with {seats} players only stations 1-{wanted[-1]} are dealt "
        why += "(scarnie_fill_all_stations is off)"
    return IllegalEvent(
        "deal.bad_station", f"Station {key} cannot be dealt: {why}.", station=str(key)
    )


def _read_station(station: int, entries: Any) -> Station:
    if not isinstance(entries, list | tuple):
        raise IllegalEvent(
            "event.bad_data",
            f"Station {station} must list its pawns as {{position, pawn, colour}} objects.",
            station=station,
        )
    if len(entries) != POSITIONS:
        raise IllegalEvent(
            "deal.bad_station",
            f"Station {station} holds {len(entries)} pawns; each station in play gets exactly "
            "seven, on positions 1-7.",
            station=station,
        )
    slots: list[Pawn | None] = [None] * POSITIONS
    for entry in entries:
        position, pawn = _read_entry(station, entry)
        if slots[position - 1] is not None:
            raise IllegalEvent(
                "deal.bad_station",
                f"{at(station, position)} is given two pawns; each position holds one.",
                station=station,
                position=position,
            )
        slots[position - 1] = pawn
    return tuple(slots)


def _read_entry(station: int, entry: Any) -> tuple[int, Pawn]:
    if not isinstance(entry, Mapping):
        raise IllegalEvent(
            "event.bad_data",
            f"Each pawn of station {station} is an object {{position, pawn, colour}}.",
            station=station,
        )
    position, number, colour = entry.get("position"), entry.get("pawn"), entry.get("colour")
    if not _is_int(position) or not 1 <= position <= POSITIONS:
        raise IllegalEvent(
            "deal.bad_station",
            f"Station {station} has positions 1-7, not {position!r}.",
            station=station,
        )
    if not _is_int(number) or number not in PAWN_NUMBERS:
        raise IllegalEvent(
            "event.bad_data",
            f"The pawn on {at(station, position)} must be a number 1-28, not {number!r}.",
            station=station,
            position=position,
        )
    if not _is_colour(colour):
        raise IllegalEvent(
            "event.bad_data",
            f"Pawn {number} on {at(station, position)} must be of colour 'a' or 'b', "
            f"not {colour!r}.",
            station=station,
            position=position,
        )
    return position, Pawn(number, colour)


def _check_pawns(state: State, stations: tuple[Station, ...]) -> None:
    """Numbers distinct; colours as seen before in the session, within 20 a and 8 b (6.4)."""
    placed = pawns_left(dataclasses.replace(state, stations=stations))
    where: dict[int, str] = {}
    for s, p, pawn in placed:
        if pawn.number in where:
            raise IllegalEvent(
                "deal.duplicate_pawn",
                f"Pawn {pawn.number} is dealt on both {where[pawn.number]} and {at(s, p)}; "
                "each of the 28 pawns is dealt once.",
                pawn=pawn.number,
            )
        where[pawn.number] = at(s, p)
    known = dict(state.known_colours)
    seen = dict(known)
    for s, p, pawn in placed:
        before = known.get(pawn.number)
        if before is not None and before != pawn.colour:
            raise IllegalEvent(
                "deal.colour_changed",
                f"Pawn {pawn.label} on {at(s, p)} was {pawn.number}{before} in an earlier deal; "
                "a pawn's colour never changes.",
                pawn=pawn.number,
                colour=before,
            )
        seen[pawn.number] = pawn.colour
    for colour, limit in COLOUR_LIMITS.items():
        count = sum(1 for c in seen.values() if c == colour)
        if count > limit:
            raise IllegalEvent(
                "deal.colour_count",
                f"{count} different pawns of colour {colour} have been seen; the set has only "
                "20 pawns a and 8 pawns b.",
                colour=colour,
                count=count,
            )


def _colours_seen(state: State) -> dict[str, str]:
    """Every colour known after this deal, earlier deals' included, for the next deal's check."""
    seen = dict(state.known_colours)
    seen.update((pawn.number, pawn.colour) for pawn in _all_dealt(state))
    return {str(number): colour for number, colour in sorted(seen.items())}


def _all_dealt(state: State) -> Iterator[Pawn]:
    yield from (pawn for _, _, pawn in pawns_left(state))
    for removal in state.removals:
        yield from removal.pawns


# --- play (6.5) ----------------------------------------------------------------------------------


def _in_play(state: State, move: Move) -> State:
    if move.type == FACED_UP:
        raise IllegalEvent(
            "deal.already_made", f"Deal {state.deal} is already faced up; play goes on."
        )
    station, positions = _read_removal(state, move.data)
    pawns = _check_removal(state, station, positions)
    return _removed(state, station, positions, pawns)


def _read_removal(state: State, data: Mapping[str, Any]) -> tuple[int, tuple[int, ...]]:
    """The station and positions named, from ints with "station" or ``S2P5`` texts."""
    given = data.get("positions")
    if not isinstance(given, list | tuple):
        raise IllegalEvent(
            "event.bad_data",
            "'positions' of pawns.removed must list the positions 1-7 emptied.",
            field="positions",
        )
    station = data.get("station")
    if station is not None and _number_key(station, STATIONS) != station:
        raise IllegalEvent(
            "event.bad_data", f"'station' must be 1 to 4, not {station!r}.", field="station"
        )
    named = [_read_position(station, item) for item in given]
    places = [_place(state, s, p) for s, p in named]
    if not 1 <= len(named) <= MAX_REMOVED:
        listed = f" ({', '.join(places)})" if places else ""
        raise IllegalEvent(
            "remove.count",
            f"A move removes one to three pawns, not {len(named)}{listed}.",
            count=len(named),
            positions=[at(s, p) for s, p in named],
        )
    stations = sorted({s for s, _ in named})
    if len(stations) > 1:
        raise IllegalEvent(
            "remove.two_stations",
            f"{', '.join(places)} are on stations {' and '.join(map(str, stations))}; "
            "one move removes pawns from one station only.",
            stations=stations,
            positions=[at(s, p) for s, p in named],
        )
    return stations[0], tuple(p for _, p in named)


def _place(state: State, station: int, position: int) -> str:
    """A position and the pawn on it, for a refusal's sentence: ``8a on S2P1``, or ``S2P1``."""
    pawn = state.stations[station - 1][position - 1]
    return at(station, position) if pawn is None else f"{pawn.label} on {at(station, position)}"


def _read_position(station: Any, item: Any) -> tuple[int, int]:
    if isinstance(item, str) and (found := _AT_TEXT.fullmatch(item)):
        return int(found[1]), int(found[2])
    if _is_int(item) and 1 <= item <= POSITIONS:
        if station is None:
            raise IllegalEvent(
                "event.bad_data",
                f"Position {item} needs its station: give 'station' or write S<station>P{item}.",
                field="station",
            )
        return int(station), int(item)
    raise IllegalEvent(
        "event.bad_data",
        f"{item!r} is not a position: positions are 1-7 on the station named, or like S2P5.",
        field="positions",
    )


def _check_removal(state: State, station: int, positions: tuple[int, ...]) -> tuple[Pawn, ...]:
    twice = sorted({p for p in positions if positions.count(p) > 1})
    if twice:
        places = ", ".join(at(station, p) for p in positions)
        raise IllegalEvent(
            "remove.duplicate",
            f"{_place(state, station, twice[0])} is named twice in {places}; "
            "each pawn is removed once.",
            station=station,
            positions=list(positions),
        )
    row = state.stations[station - 1]
    empty = [p for p in positions if row[p - 1] is None]
    if empty:
        raise IllegalEvent(
            "remove.empty_position",
            f"No pawn stands on {', '.join(at(station, p) for p in empty)}"
            f"{_removed_from(state, station, empty[0])}.",
            station=station,
            positions=empty,
        )
    pawns = tuple(pawn for pawn in (row[p - 1] for p in positions) if pawn is not None)
    named = ", ".join(
        f"{pawn.label} on {at(station, p)}" for p, pawn in zip(positions, pawns, strict=True)
    )
    if len({pawn.colour for pawn in pawns}) > 1:
        raise IllegalEvent(
            "remove.mixed_colours",
            f"{named} are of two colours; pawns removed together must be of one colour.",
            station=station,
            positions=list(positions),
            pawns=[pawn.label for pawn in pawns],
        )
    if len(pawns) > 1 and len(pawns) == len(pawns_left(state)):
        raise IllegalEvent(
            "remove.empties_board",
            f"{named} are the last pawns on the board; they cannot go together, or no last pawn "
            "would be killed: remove fewer (D-SCN-4).",
            station=station,
            positions=list(positions),
            pawns=[pawn.label for pawn in pawns],
        )
    return pawns


def _removed_from(state: State, station: int, position: int) -> str:
    for removal in state.removals:
        if removal.station == station and position in removal.positions:
            pawn = removal.pawns[removal.positions.index(position)]
            return f" ({pawn.label} was removed from it by seat {removal.seat})"
    if station not in stations_in_play(state.seats, state.ruleset):
        return f" (station {station} has no player and is not dealt)"
    return ""


def _removed(
    state: State, station: int, positions: tuple[int, ...], pawns: tuple[Pawn, ...]
) -> State:
    old = state.stations[station - 1]
    row = tuple(None if p in positions else pawn for p, pawn in enumerate(old, start=1))
    stations = tuple(row if s == station else r for s, r in enumerate(state.stations, start=1))
    removal = Removal(state.turn, station, positions, pawns)
    after = dataclasses.replace(state, stations=stations, removals=(*state.removals, removal))
    if not pawns_left(after):
        return dataclasses.replace(after, phase=OVER)
    return dataclasses.replace(after, turn=(state.turn + 1) % state.seats)


def legal_removals(state: State) -> list[tuple[int, tuple[int, ...]]]:
    """Every (station, positions): 1-3 pawns of one colour on one station, never all the last."""
    left = len(pawns_left(state))
    moves: list[tuple[int, tuple[int, ...]]] = []
    for station, row in enumerate(state.stations, start=1):
        for colour in COLOUR_LIMITS:
            same = [p for p, pawn in enumerate(row, start=1) if pawn and pawn.colour == colour]
            for size in range(1, min(MAX_REMOVED, len(same)) + 1):
                if size > 1 and size == left:
                    continue  # D-SCN-4: a multiple removal may not empty the board
                moves.extend((station, chosen) for chosen in combinations(same, size))
    return moves


# --- scoring a deal (6.6) ------------------------------------------------------------------------


def killer(state: State) -> int | None:
    return state.removals[-1].seat if state.phase == OVER else None


def forcer(state: State) -> int | None:
    """The player who moved just before the killer (his right-hand neighbour)."""
    seat = killer(state)
    return None if seat is None else (seat - 1) % state.seats


def last_pawn(state: State) -> dict[str, Any] | None:
    """The killed pawn, where it stood, its mark and what it is worth, and who killed it."""
    if state.phase != OVER:
        return None
    removal = state.removals[-1]
    pawn, station, position = removal.pawns[0], removal.station, removal.positions[0]
    multiplier = state.ruleset.multiplier(station, position)
    return {
        "pawn": pawn.number,
        "colour": pawn.colour,
        "label": pawn.label,
        "station": station,
        "position": position,
        "at": at(station, position),
        "mark": state.ruleset.mark(station, position),
        "multiplier": multiplier,
        "points": pawn.number * multiplier,
        "killer": removal.seat,
        "scorers": list(scoring_seats(state)),
    }


def scoring_seats(state: State) -> tuple[int, ...]:
    """The seats credited with the deal's points (6.6, D-SCN-5); a partnership's is the forcer."""
    seat, before = killer(state), forcer(state)
    if seat is None or before is None:
        return ()
    if state.seats == 2 or state.teams or state.ruleset.scarnie_scorer == "previous_player":
        return (before,)
    return tuple(s for s in range(state.seats) if s != seat)


def deal_winners(state: State) -> tuple[int, ...]:
    """The scorers, or the whole partnership opposing the killer."""
    seat = killer(state)
    if seat is None:
        return ()
    if state.teams:
        return next(team for team in state.teams if seat not in team)
    return scoring_seats(state)


def deal_points(state: State) -> tuple[int, ...]:
    """Each seat's points of this deal: number x multiplier to the scorers, 0 to the others."""
    pawn = last_pawn(state)
    points = 0 if pawn is None else int(pawn["points"])
    scorers = scoring_seats(state)
    return tuple(points if seat in scorers else 0 for seat in range(state.seats))


def _kill_sentence(state: State) -> str:
    pawn = last_pawn(state)
    assert pawn is not None
    return f"seat {pawn['killer']} killed {pawn['label']} on {pawn['at']}"


# --- the game to 100: a match of deals (6.3, 6.7) ------------------------------------------------


class ScarnieMatch(ScoredMatch):
    """Deals until one player or partnership leads alone with 100 or more (6.7, D-SCN-7).

    The dealer of the first deal is seat 0 (0.5) unless the match records the draw of 6.3
    (``dealer.drawn``: each seat's pawn number, lowest deals); the deal then passes left.
    """

    kind = KIND
    ruleset_type: type[Any] = Ruleset
    min_seats = 2
    max_seats = 4

    def check_teams(self, teams: Any, seats: int) -> tuple[tuple[int, ...], ...]:
        return read_teams(teams, seats, "match.bad_teams")

    def is_complete(self, state: ScoredMatchState) -> bool:
        return bool(match_winners(state))

    def standing(self, state: ScoredMatchState) -> list[dict[str, Any]]:
        """Each seat with its side's score (a partnership's is the sum of its seats)."""
        own = cumulative(state)
        rows = []
        for seat in range(state.seats):
            side = next(side for side in sides(state) if seat in side)
            total = sum(own[s] for s in side)
            won = sum(1 for entry in state.entries if seat in entry.winners)
            rows.append(
                {
                    "seat": seat,
                    "match_score": total,
                    "bonuses": [],
                    "total": total,
                    "games_won": won,
                    "rank": 0,
                    "points_scored": own[seat],
                }
            )
        return ranked(rows)

    def settlement(self, state: ScoredMatchState) -> dict[str, Any]:
        """None by default; under ``difference`` the winner collects the difference (D-SCN-8)."""
        if state.ruleset.scarnie_settlement == "none":
            return {"payments": [], "nets": [0] * state.seats}
        return payments_settlement(difference_payments(state), state.seats)

    def next_game_setup(self, state: ScoredMatchState) -> dict[str, Any]:
        """The next deal's dealer, number, scores so far, partnerships and known colours."""
        return {
            "dealer": next_dealer(state),
            "deal": len(state.entries) + 1,
            "scores_before": cumulative(state),
            "teams": [list(team) for team in state.teams],
            "colours": colours_of_match(state),
        }

    def sheet_issues(self, state: ScoredMatchState, scores: tuple[int, ...]) -> list[IllegalEvent]:
        """A deal's scores: pawn number x multiplier (Appendix C.5), only the scorers non-zero."""
        number = len(state.entries) + 1
        possible = attainable_deal_scores(state.ruleset)
        issues = [
            IllegalEvent(
                "score.unattainable",
                f"Seat {seat} cannot score {score} in deal {number}: a deal scores a pawn "
                "number 1-28 times its position's multiplier, or 0.",
                score=score,
                seat=seat,
                game=number,
            )
            for seat, score in enumerate(scores)
            if score not in possible
        ]
        pattern = _sheet_pattern_issue(state, scores)
        return issues if pattern is None else [*issues, pattern]

    def sheet_winners(self, state: ScoredMatchState, scores: tuple[int, ...]) -> tuple[int, ...]:
        """The seats that scored (with their partners); a deal of 0 points names none."""
        scored = {seat for seat, score in enumerate(scores) if score > 0}
        return tuple(seat for side in sides(state) if scored & set(side) for seat in side)

    def extra_handlers(self) -> Mapping[str, Any]:
        return {DEALER_DRAWN: _dealer_drawn}


def sides(state: ScoredMatchState) -> tuple[tuple[int, ...], ...]:
    """The partnerships, or every player on his own."""
    return state.teams or tuple((seat,) for seat in range(state.seats))


def side_totals(state: ScoredMatchState) -> list[int]:
    own = cumulative(state)
    return [sum(own[seat] for seat in side) for side in sides(state)]


def match_winners(state: ScoredMatchState) -> tuple[int, ...]:
    """The seats of the side leading alone with 100 or more; () while dealing goes on."""
    totals = side_totals(state)
    best = max(totals)
    if best < TARGET or totals.count(best) > 1:
        return ()  # equal leaders past 100 deal on: a full deal, not 0.7's extra play
    return sides(state)[totals.index(best)]


def difference_payments(state: ScoredMatchState) -> list[tuple[int, int, int]]:
    """Each loser pays the winner the difference; partners pair off with opponents (6.7)."""
    winners = match_winners(state)
    if not winners:
        return []  # no winner yet: nobody owes anything
    totals = side_totals(state)
    won = totals[sides(state).index(winners)]
    losing = [(s, t) for s, t in zip(sides(state), totals, strict=True) if s != winners]
    if state.teams:
        ((side, total),) = losing
        return [(loser, winner, won - total) for loser, winner in zip(side, winners, strict=True)]
    return [(side[0], winners[0], won - total) for side, total in losing]


def next_dealer(state: ScoredMatchState) -> int:
    """Left of the last deal's dealer; before any live deal, the drawn dealer or seat 0."""
    for back, entry in enumerate(reversed(state.entries)):
        dealer = entry.report.get("dealer")
        if _is_int(dealer) and 0 <= dealer < state.seats:
            return (dealer + back + 1) % state.seats
    first = int(state.extra.get("first_dealer", 0))
    return (first + len(state.entries)) % state.seats


def colours_of_match(state: ScoredMatchState) -> dict[str, str]:
    """The colour of every pawn faced up in the match's live deals so far."""
    seen: dict[str, str] = {}
    for entry in state.entries:
        colours = entry.report.get("colours")
        if isinstance(colours, Mapping):
            seen.update(colours)
    return seen


def attainable_deal_scores(ruleset: Ruleset) -> frozenset[int]:
    multipliers = {MULTIPLIERS[mark] for row in ruleset.scarnie_position_marks for mark in row}
    return frozenset({0} | {n * m for n in PAWN_NUMBERS for m in multipliers})


def _sheet_pattern_issue(state: ScoredMatchState, scores: tuple[int, ...]) -> IllegalEvent | None:
    number = len(state.entries) + 1
    scored = [score for score in scores if score]
    if not scored:
        return None  # the last pawn stood on a Draw position
    all_others = state.ruleset.scarnie_scorer == "all_others"
    if state.seats == 2 or state.teams or not all_others:
        if len(scored) == 1:
            return None
        why = "only one seat scores a deal"
    elif len(scored) == state.seats - 1 and len(set(scored)) == 1:
        return None
    else:
        why = "every player but the killer scores the same points (scarnie_scorer all_others)"
    return IllegalEvent(
        "score.unattainable",
        f"Deal {number} cannot score {list(scores)}: {why}.",
        scores=list(scores),
        game=number,
    )


def _dealer_drawn(state: ScoredMatchState, move: Move) -> ScoredMatchState:
    """The draw for the first dealer (6.3): each seat's pawn number; the lowest deals."""
    if state.entries:
        raise IllegalEvent(
            "draw.too_late",
            f"The first dealer is drawn before the first deal; {len(state.entries)} deals are in.",
        )
    if "first_dealer" in state.extra:
        raise IllegalEvent(
            "draw.already_made",
            f"The dealer is already drawn: seat {state.extra['first_dealer']} deals first.",
        )
    pawns = move.data.get("pawns")
    if (
        not isinstance(pawns, list)
        or len(pawns) != state.seats
        or not all(_is_int(n) and n in PAWN_NUMBERS for n in pawns)
    ):
        raise IllegalEvent(
            "event.bad_data",
            f"'pawns' of {DEALER_DRAWN} must list {state.seats} pawn numbers 1-28, one per seat.",
            field="pawns",
        )
    twice = sorted({n for n in pawns if pawns.count(n) > 1})
    if twice:
        raise IllegalEvent(
            "draw.duplicate_pawn",
            f"Pawn {twice[0]} is drawn by two seats; each draws a different pawn.",
            pawn=twice[0],
        )
    first = pawns.index(min(pawns))
    extra = {**state.extra, "first_dealer": first, "draw": tuple(pawns)}
    return dataclasses.replace(state, extra=extra)


SCARNIE = ScarnieRules()
register(SCARNIE)
register_format(ScarnieMatch())
