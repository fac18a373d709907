"""How Put-and-Take's throws read on its page (RULES.md 11): the round's throws, each with what
it put in or took from the pot. Reads the view's fields only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.rules import wording as words
from games.rules.wording import block, counted, item, name_of


def put_and_take(game: dict[str, Any], names: Mapping[int, str]) -> dict[str, Any]:
    """The round's throws, each with what it put in or took from the pot."""
    view = game["dice"]
    if view["throwing_for"] == "seating":
        throws = view["seating"]["throws"] if view["seating"] else []
        items = words.seating_items(throws, names)
        return {"turn": block("Throws for the order of play", items, empty="None yet.")}
    items = [item(name_of(names, t["seat"]), t["faces"], said=pot_said(t)) for t in view["throws"]]
    title = f"Round {view['round']} throws" if view["round"] else "Throws"
    if view["double_down"]["called"]:
        title += " · doubled down"
    note = "Every throw is of all three dice: none is kept or set aside."
    return {"turn": block(title, items, empty="No throw yet this round.", note=note)}


def pot_said(throw: dict[str, Any]) -> str:
    """A throw's class and what it did to the pot, in words (RULES.md 11.4, 11.6)."""
    chips = counted(throw["asked"], "chip", "chips")
    kind = f"doubled {throw['class']}" if throw["doubled"] else throw["class"]
    match throw["class"]:
        case "scarney":
            return "Scarney: the whole pot"
        case "put":
            return f"{kind}: {chips} into the pot"
        case "take" if throw["push"]:
            return f"{kind} 0 (push): nothing moves"
        case "take" if throw["short"]:
            return f"{kind} {throw['asked']}, more than the pot holds: the whole pot"
        case "take":
            refill = f"; the pot is refilled ({throw['refill']})" if throw["refill"] else ""
            return f"{kind}: {chips} from the pot{refill}"
    return f"{kind}: nothing moves"
