"""How Straight Scarney Dice's throws read on its page (RULES.md 7, 8): the frame in play's
throws, each dead die put out of play, and the pad's frames. Reads the view's fields only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.rules import wording as words
from games.rules.wording import block, counted, item, kept_line, name_of


def straight_dice(game: dict[str, Any], names: Mapping[int, str]) -> dict[str, Any]:
    """The frame in play's throws, each dead die put out of play; the pad's frames."""
    view = game["dice"]
    shown = {"frames": frames(view, names)}
    if view["phase"] == "seating":
        throws = view["seating"]["throws"] if view["seating"] else []
        items = words.seating_items(throws, names)
        return shown | {"turn": block("Throws for the order of play", items, empty="None yet.")}
    if view["shooter"] is None:
        return shown | {"turn": block("Throws", [], empty="The game is over.")}
    items = []
    dead = 0
    # A frame is in play: its fields are in the view (they are not during the seating throws nor
    # once the game is over).
    for n, throw in enumerate(view["throws"], 1):
        line = words.throw_line(throw)
        dead += throw["dead_dice"]
        aside = ["D"] * throw["dead_dice"]
        items.append(item(f"Throw {n}", throw["faces"], aside, **words.scored(line)))
    title = f"{name_of(names, view['shooter'])}'s throws · frame {view['frame']}"
    if view["held"]:
        title += f" · holding {view['held']}"
    if view["double_down"]:
        title += " · doubled down"
    live = f"{counted(view['in_cup'], 'die', 'dice')} live"
    out = kept_line("Out of play", ["D"] * dead, after=live)
    return shown | {"turn": block(title, items, kept=out)}


def frames(view: dict[str, Any], names: Mapping[int, str]) -> list[dict[str, Any]]:
    """Straight Scarney Dice: each seat's frames with their scores and cumulative totals."""
    rows = []
    for seat, seat_frames in enumerate(view["frames"]):
        played = [
            {**f, "throws": [words.throw_line(t) for t in f.get("throws") or []]}
            for f in seat_frames
            if f["score"] is not None
        ]
        rows.append({"name": name_of(names, seat), "frames": played})
    return rows
