"""Scarnie's deal and play: pawns faced up (RULES.md 6.4) and removed (6.5), and their refusals."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Mapping
from itertools import combinations
from typing import Any

from games.rules.base import Move
from games.rules.errors import IllegalEvent
from games.rules.scarnie.state import (
    COLOUR_LIMITS,
    EMPTY_STATIONS,
    FACED_UP,
    MAX_REMOVED,
    OVER,
    PAWN_NUMBERS,
    PLAY,
    POSITIONS,
    STATIONS,
    Pawn,
    Removal,
    State,
    Station,
    at,
    is_colour,
    is_int,
    number_key,
    pawns_left,
    stations_in_play,
)
from games.rules.wording import player_at

_AT_TEXT = re.compile(r"S([1-4])P([1-7])")


# --- the deal (6.4) ------------------------------------------------------------------------------


def in_dealing(state: State, move: Move) -> State:
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
        station = number_key(key, STATIONS)
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
    if number_key(key, STATIONS) is None:
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
    if not is_int(position) or not 1 <= position <= POSITIONS:
        raise IllegalEvent(
            "deal.bad_station",
            f"Station {station} has positions 1-7, not {position!r}.",
            station=station,
        )
    if not is_int(number) or number not in PAWN_NUMBERS:
        raise IllegalEvent(
            "event.bad_data",
            f"The pawn on {at(station, position)} must be a number 1-28, not {number!r}.",
            station=station,
            position=position,
        )
    if not is_colour(colour):
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


def colours_seen(state: State) -> dict[str, str]:
    """Every colour known after this deal, earlier deals' included, for the next deal's check."""
    seen = dict(state.known_colours)
    seen.update((pawn.number, pawn.colour) for pawn in _all_dealt(state))
    return {str(number): colour for number, colour in sorted(seen.items())}


def _all_dealt(state: State) -> Iterator[Pawn]:
    yield from (pawn for _, _, pawn in pawns_left(state))
    for removal in state.removals:
        yield from removal.pawns


# --- play (6.5) ----------------------------------------------------------------------------------


def in_play(state: State, move: Move) -> State:
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
    if station is not None and number_key(station, STATIONS) != station:
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
    # 'station' names a station too: S2P1 under "station": 1 names two stations (6.5).
    stations = sorted({s for s, _ in named} | ({station} if station is not None else set()))
    if len(stations) > 1:
        also = "" if station is None else f" (the move names station {station})"
        raise IllegalEvent(
            "remove.two_stations",
            f"{', '.join(places)} are on stations {' and '.join(map(str, stations))}{also}; "
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
    if is_int(item) and 1 <= item <= POSITIONS:
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
            return f" ({pawn.label} was removed from it by {player_at(removal.seat)})"
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
