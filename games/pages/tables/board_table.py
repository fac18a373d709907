"""A Scarney board as a game page draws it, read off the game's JSON: the circles in rows, the
pawns with their colour and spots (so colour is never the only cue), the tray of pawns still to
place, and the tap mode the game expects next."""

from __future__ import annotations

from typing import Any

COLOUR_NAMES = {"B": "black", "R": "red", "Y": "yellow", "G": "green"}
CORNERS = frozenset({1, 4, 13, 16})

# The board's tap mode, from the first of these the game expects next.
BOARD_MODES = (
    ("board.laid_out", "layout"),
    ("pawn.placed", "place"),
    ("pawn.taken_off", "takeoff"),
    ("pawn.jumped", "jump"),
    ("pawns.removed", "remove"),
)
BOARD_HINTS = {
    "layout": "Tap a pawn in the tray, then the circle it stands on; lay out all 16.",
    "place": "Tap a pawn in the tray, then an empty circle.",
    "takeoff": "Tap the low pawn (1 or 2 spots) to take off.",
    "jump": "Tap the pawn that jumps, then the circle it lands on.",
    "remove": "Select one to three pawns of one colour in a line, then Remove.",
}


def pawn_json(pawn: str | None) -> dict[str, Any] | None:
    """A pawn as the templates draw it: colour and spots, so colour is never the only cue."""
    if pawn is None:
        return None
    colour = COLOUR_NAMES[pawn[0]]
    spots = int(pawn[1])
    return {
        "name": pawn,
        "colour": colour,
        "spots": spots,
        "dots": range(spots),
        "label": f"{colour} {spots}-spot",
    }


def board(game: dict[str, Any]) -> dict[str, Any]:
    """The 4 x 4 board as rows of circles, the tray of pawns to place, and the tap mode."""
    cells = game["board"]
    rows = []
    for row in range(4):
        rows.append([circle(n, cells.get(f"C{n}")) for n in range(row * 4 + 1, row * 4 + 5)])
    mode = next((m for t, m in BOARD_MODES if t in game["expected"]), "none")
    if game["status"] != "in_progress":
        mode = "none"
    return {
        "rows": rows,
        "mode": mode,
        # A tap selects (a pawn to jump, pawns to remove): the circles are toggle buttons.
        "toggles": mode in ("jump", "remove"),
        "hint": BOARD_HINTS.get(mode, ""),
        "tray": [pawn_json(p) for p in tray(game, mode)],
        "removed": [pawn_json(p) for p in game.get("removed", [])],
    }


def circle(number: int, pawn: str | None) -> dict[str, Any]:
    drawn = pawn_json(pawn)
    corner = number in CORNERS
    label = f"C{number}{' corner' if corner else ''}: {drawn['label'] if drawn else 'empty'}"
    return {"name": f"C{number}", "number": number, "pawn": drawn, "corner": corner, "label": label}


def tray(game: dict[str, Any], mode: str) -> list[str]:
    """The pawns still to put on the board: all 16 at the layout, else the placer's own."""
    if mode == "layout":
        return [colour + str(spots) for colour in "BRYG" for spots in range(1, 5)]
    if mode == "place":
        unplaced = game.get("unplaced") or []
        seat = game.get("to_move", game["turn"])
        return list(unplaced[seat]) if seat is not None and seat < len(unplaced) else []
    return []
