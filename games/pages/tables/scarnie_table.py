"""What a Scarnie deal's page shows, read off the game's JSON: the stations and their pawns, the
pawns to face up while the deal is awaited, and the removals made (RULES.md section 6).

A station is a row of seven positions in front of its seat (station 1 before seat 0). While the
deal is awaited the keeper enters each position's pawn from a pad of the 28 numbers and a colour
switch; in play he selects one to three pawns of one station and removes them. Like
``presenting``, nothing here decides a rule: the service judges every move (mixed colours, two
stations, the last pawns together) and its sentence is what the page shows.
"""

from __future__ import annotations

from typing import Any

FACED_UP = "deal.faced_up"
REMOVED = "pawns.removed"
PAWN_NUMBERS = range(1, 29)
POSITIONS = 7
STATIONS = 4
COLOURS = {"a": "colour a", "b": "colour b"}
MARK_WORDS = {"draw": "Draw ×0", "double": "Double ×2", "triple": "Triple ×3"}
HINTS = {
    "deal": "Choose the colour, then tap each pawn's number: it goes on the highlighted "
    "position (tap a position to choose it, or to take its pawn back).",
    "remove": "Select one to three pawns of one colour on one station, then Remove.",
}


def mode_of(game: dict[str, Any]) -> str:
    """What a tap does: enter the deal, select pawns to remove, or nothing."""
    if game["status"] != "in_progress":
        return "none"
    if FACED_UP in game["expected"]:
        return "deal"
    return "remove" if REMOVED in game["expected"] else "none"


def stations_in_play(game: dict[str, Any]) -> int:
    """The stations dealt: one per seat, or all four under scarnie_fill_all_stations."""
    fill_all = bool((game.get("ruleset") or {}).get("scarnie_fill_all_stations"))
    return STATIONS if fill_all else len(game["seats"])


def table(game: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """Everything the Scarnie area of a game page draws."""
    mode = mode_of(game)
    dealt = stations_in_play(game)
    return {
        "mode": mode,
        "hint": HINTS.get(mode, ""),
        "stations": [
            station(number, game["stations"].get(str(number)) or [], names)
            for number in range(1, dealt + 1)
        ],
        "numbers": list(PAWN_NUMBERS) if mode == "deal" else [],
        "pawns_left": game.get("pawns_left"),
        "removals": [removal_line(r, names) for r in game.get("removals") or []][::-1],
        "last_pawn": last_pawn_line(game.get("last_pawn"), names),
    }


def station(number: int, positions: list[dict[str, Any]], names: dict[int, str]) -> dict[str, Any]:
    seat = number - 1
    owner = names.get(seat)
    return {
        "number": number,
        "title": f"Station {number}" + (f" · {owner}" if owner else " · no player"),
        "positions": [position(number, p) for p in positions],
    }


def position(number: int, found: dict[str, Any]) -> dict[str, Any]:
    """A position of a station as its button shows it: ``P3``, its mark, and its pawn."""
    mark = MARK_WORDS.get(found.get("mark") or "plain", "")
    pawn = pawn_json(found.get("pawn"), found.get("colour"))
    said = f"{found['at']}{', ' + mark if mark else ''}: {pawn['said'] if pawn else 'empty'}"
    return {
        "at": found["at"],
        "position": found["position"],
        "mark": mark,
        "pawn": pawn,
        "said": said,
    }


def pawn_json(number: Any, colour: Any) -> dict[str, Any] | None:
    """A pawn shown by its number and colour letter, so colour is never the only cue."""
    if number is None:
        return None
    return {
        "number": number,
        "colour": colour,
        "label": f"{number}{colour}",
        "said": f"pawn {number}, {COLOURS.get(colour, colour)}",
    }


def removal_line(removal: dict[str, Any], names: dict[int, str]) -> str:
    who = names.get(removal["seat"], f"seat {removal['seat']}")
    spots = ", ".join(
        f"{pawn} from S{removal['station']}P{p}"
        for pawn, p in zip(removal["pawns"], removal["positions"], strict=False)
    )
    return f"{who} removed {spots}."


def last_pawn_line(last: dict[str, Any] | None, names: dict[int, str]) -> str | None:
    """The kill and what it scored, as the table says it."""
    if not last:
        return None
    killer = names.get(last["killer"], f"seat {last['killer']}")
    scorers = " and ".join(names.get(s, f"seat {s}") for s in last.get("scorers") or [])
    sentence = f"{killer} killed {last['label']} on {last['at']}"
    sentence += f" ({last['mark']}, ×{last['multiplier']}): {last['points']} points"
    return sentence + (f" to {scorers}." if scorers else ".")


def move_label(move: dict[str, Any], game: dict[str, Any]) -> str:
    """A legal removal as its button says it: ``Remove 17a (S1P1), 3a (S1P4)``."""
    data = move["data"]
    if move["type"] != REMOVED or "station" not in data:
        return str(move["type"])
    row = game["stations"].get(str(data["station"])) or []
    by_position = {p["position"]: p for p in row}
    named = []
    for p in data["positions"]:
        found = by_position.get(p) or {}
        spot = f"S{data['station']}P{p}"
        named.append(f"{found['label']} ({spot})" if found.get("label") else spot)
    return "Remove " + ", ".join(named)
