"""How Scarney 3000's throws read on its page (RULES.md 9, 10): this turn's throws, the scoring
dice each set aside, the last turn and the sheet. Reads the view's fields only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.rules import wording as words
from games.rules.wording import block, counted, item, kept_line, name_of


def scarney_3000(game: dict[str, Any], names: Mapping[int, str]) -> dict[str, Any]:
    """This turn's throws, the scoring dice each set aside; the last turn and the sheet."""
    view = game["dice"]
    shown = {"last_turn": last_turn(view, names), "sheet": sheet(game, names)}
    if view["phase"] == "drawing":
        throws = view["draw"]["throws"] if view["draw"] else []
        items = words.seating_items(throws, names)
        return shown | {"turn": block("Throws for the order of play", items, empty="None yet.")}
    if view["shooter"] is None:
        return shown | {"turn": block("Throws", [], empty="The game is over.")}
    items = []
    for n, throw in enumerate(view["throws"], 1):
        line = words.throw_line(throw)
        aside = _scoring_dice(throw)
        said = f"{words.faces_said(aside)} set aside" if aside else "nothing set aside"
        items.append(item(f"Throw {n}", throw["faces"], aside, said, **words.scored(line)))
    title = f"{name_of(names, view['shooter'])}'s throws · turn points {view['turn_points']}"
    if view["pending"]:
        title += f" · pending {view['pending']}"
    in_cup = f"{counted(view['in_cup'], 'die', 'dice')} in the cup"
    return shown | {
        "turn": block(title, items, kept=kept_line("Set aside", view["set_aside"], after=in_cup))
    }


def _scoring_dice(throw: dict[str, Any]) -> list[str]:
    """The dice a throw scored with, which are set aside: its dead dice and its number bonus
    (a bust scores none)."""
    if throw["outcome"] == "bust":
        return []
    hand = throw["number_bonus"]
    return ["D"] * throw["dead_dice"]["count"] + (list(hand["faces"]) if hand else [])


def last_turn(view: dict[str, Any], names: Mapping[int, str]) -> dict[str, Any] | None:
    """Scarney 3000: the turn just ended, its throws itemised, while the next one starts."""
    turn = view["last_turn"]
    if turn is None:
        return None
    return {
        "name": name_of(names, turn["seat"]),
        "score": turn["score"],
        "throws": [words.throw_line(t) for t in turn["throws"]],
    }


def sheet(game: dict[str, Any], names: Mapping[int, str]) -> list[dict[str, Any]]:
    """Scarney 3000: each seat's turn entries and total."""
    return [
        {
            **row,
            "name": name_of(names, row["seat"]),
            "entries": [sheet_entry(e) for e in row["entries"]],
        }
        for row in game["sheet"]
    ]


def sheet_entry(entry: Any) -> str:
    """A turn's line on the sheet: its score and the running total, as the pad writes it."""
    if not isinstance(entry, dict):
        return str(entry)
    score = "–" if entry.get("score") in (None, 0) else str(entry["score"])
    return f"{score} / {entry.get('cumulative')}"
