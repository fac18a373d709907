"""What a dice game's page shows, read off the game's JSON: the faces to enter and how many, the
stand, hit and double-down choices, and the kind's throws as its rules word them
(``ThrowsDice.word_throws``).

Arranged for the templates only (as games.pages.tables.presenting): what may be recorded comes from
the game's ``expected``, and the service judges every throw.
"""

from __future__ import annotations

from typing import Any

from games.rules import registry
from games.rules.base import ThrowsDice


def dice(game: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """The faces to enter, how many, the stand and double-down choices, the throws itemised."""
    view = game["dice"]
    rules = registry.get(game["kind"])  # an unknown kind is refused here, never drawn by guess
    if not isinstance(rules, ThrowsDice):
        raise TypeError(f"{game['kind']} is not a dice game.")
    shown = rules.word_throws(game, names)
    throwing = "dice.thrown" in game["expected"] and game["status"] == "in_progress"
    in_cup = view["in_cup"]
    return {
        "faces": rules.dice_faces,
        "in_cup": in_cup,
        # While moves wait to be sent, the cup takes up to the most the game throws at once.
        "most": max(in_cup, rules.most_dice),
        # A throw while a point score may be kept is the rule books' "hit".
        "hit": throwing and "shooter.stood" in game["expected"],
        "throwing": throwing,
        # Straight Scarney Dice's alone, and only while a frame is in play.
        "may_call_opposite": bool(view.get("may_call_opposite")),
        "choosing": choosing(game, view),
        **shown,
    }


def choosing(game: dict[str, Any], view: dict[str, Any]) -> dict[str, Any] | None:
    """Double Cameroon between throws: the ten dice showing, to keep some of or to group into
    two fives, and the player's open categories."""
    expected = game["expected"] if game["status"] == "in_progress" else []
    if "dice.kept" not in expected and "dice.grouped" not in expected:
        return None
    return {
        "showing": list(view["showing"]),
        "may_keep": "dice.kept" in expected,
        "may_group": "dice.grouped" in expected,
        "categories": [{"name": c, "label": c.replace("_", " ")} for c in view["open_categories"]],
    }
