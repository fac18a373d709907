"""What a dice game's page shows, read off the game's JSON: the faces to enter and how many, the
stand, hit and double-down choices, each throw itemised, the frames or the score sheet.

Arranged for the templates only (as games.pages.tables.presenting): what may be recorded comes from
the game's ``expected``, and the service judges every throw.
"""

from __future__ import annotations

from typing import Any

from games.rules import registry
from games.rules.base import ThrowsDice
from scoring.documents import labels


def dice(game: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """The faces to enter, how many, the stand and double-down choices, each throw itemised."""
    view = game["dice"]
    rules = registry.get(game["kind"])  # an unknown kind is refused here, never drawn by guess
    if not isinstance(rules, ThrowsDice):
        raise TypeError(f"{game['kind']} is not a dice game.")
    throwing = "dice.thrown" in game["expected"] and game["status"] == "in_progress"
    shooter = view.get("shooter", view.get("turn"))
    in_cup = view.get("in_cup") or 0
    return {
        "faces": rules.dice_faces,
        "in_cup": in_cup,
        # While moves wait to be sent, the cup takes up to the most the game throws at once.
        "most": max(in_cup, rules.most_dice),
        # A throw while a point score may be kept is the rule books' "hit".
        "hit": throwing and "shooter.stood" in game["expected"],
        "throwing": throwing,
        "may_call_opposite": bool(view.get("may_call_opposite")),
        "shooter": names.get(shooter) if isinstance(shooter, int) else None,
        "turn_points": view.get("turn_points"),
        "double_down": view.get("double_down"),
        "throws": [throw_line(t) for t in view.get("throws") or []],
        "frames": frames(view, names),
        "last_turn": last_turn(view, names),
        "sheet": sheet(game, names),
        "choosing": choosing(game, view),
    }


def choosing(game: dict[str, Any], view: dict[str, Any]) -> dict[str, Any] | None:
    """Double Cameroon between throws: the ten dice showing, to keep some of or to group into
    two fives, and the player's open categories."""
    expected = game["expected"] if game["status"] == "in_progress" else []
    if "dice.kept" not in expected and "dice.grouped" not in expected:
        return None
    return {
        "showing": list(view.get("showing") or []),
        "may_keep": "dice.kept" in expected,
        "may_group": "dice.grouped" in expected,
        "categories": [
            {"name": c, "label": c.replace("_", " ")} for c in view.get("open_categories") or []
        ],
    }


def throw_line(throw: dict[str, Any] | list[str]) -> dict[str, Any]:
    """One throw: its faces, its outcome, its points and what made them."""
    if isinstance(throw, list):  # Double Cameroon keeps only the faces of each throw
        return {"faces": throw, "outcome": "", "points": None, "notes": []}
    notes = []
    if throw.get("double_down"):
        notes.append("double down")
    if throw.get("opposite"):
        notes.append("Opposite")
    dead = throw.get("dead_dice")
    if isinstance(dead, dict) and dead.get("count"):
        notes.append(f"{dead['count']} dead: {dead.get('points', 0)}")
    elif isinstance(dead, int) and dead:
        notes.append(f"{dead} dead")
    numbers = throw.get("numbers")
    if isinstance(numbers, dict) and numbers.get("points"):
        notes.append(f"numbers {' '.join(numbers.get('faces', []))}: {numbers['points']}")
    hand = throw.get("number_bonus")
    if isinstance(hand, dict):
        notes.append(f"{hand.get('hand')}: {hand.get('points')} ({hand.get('status')})")
    notes.extend(bonus_notes(throw))
    return {
        "faces": throw.get("faces", []),
        "outcome": str(throw.get("outcome", "")).replace("_", " "),
        "points": throw.get("points"),
        "notes": notes,
    }


def bonus_notes(throw: dict[str, Any]) -> list[str]:
    """A throw's bonus in words: Straight Scarney Dice names it with its points (unless the
    outcome already does), Scarney 3000 flags a bonus hand."""
    bonus = throw.get("bonus")
    if isinstance(bonus, dict):
        kind = str(bonus.get("kind", ""))
        if kind == throw.get("outcome"):
            return []
        return [f"bonus: {labels.bonus(kind)} {bonus.get('points')}"]
    return ["bonus hand"] if bonus is True else []


def frames(view: dict[str, Any], names: dict[int, str]) -> list[dict[str, Any]]:
    """Straight Scarney Dice: each seat's frames with their scores and cumulative totals."""
    rows = []
    for seat, seat_frames in enumerate(view.get("frames") or []):
        played = [
            {**f, "throws": [throw_line(t) for t in f.get("throws") or []]}
            for f in seat_frames
            if f.get("score") is not None
        ]
        rows.append({"name": names.get(seat, ""), "frames": played})
    return rows


def last_turn(view: dict[str, Any], names: dict[int, str]) -> dict[str, Any] | None:
    """Scarney 3000: the turn just ended, its throws itemised, while the next one starts."""
    turn = view.get("last_turn")
    if not isinstance(turn, dict):
        return None
    return {
        "name": names.get(turn.get("seat"), ""),  # type: ignore[arg-type]
        "score": turn.get("score"),
        "throws": [throw_line(t) for t in turn.get("throws") or []],
    }


def sheet(game: dict[str, Any], names: dict[int, str]) -> list[dict[str, Any]]:
    """Scarney 3000: each seat's turn entries and total."""
    return [
        {
            **row,
            "name": names.get(row["seat"], ""),
            "entries": [sheet_entry(e) for e in row["entries"]],
        }
        for row in game.get("sheet") or []
        if isinstance(row, dict)
    ]


def sheet_entry(entry: Any) -> str:
    """A turn's line on the sheet: its score and the running total, as the pad writes it."""
    if not isinstance(entry, dict):
        return str(entry)
    score = "–" if entry.get("score") in (None, 0) else str(entry["score"])
    return f"{score} / {entry.get('cumulative')}"
