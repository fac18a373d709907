"""A dice page's throws in words and faces: the pieces every dice kind's presenter is made of.

A throw is itemised as the faces shown, those set aside or kept marked (by a frame and by words,
never by colour alone), what it was and what it scored. Read off the game's view only: nothing
here decides a rule (games.pages.tables.dice_turns arranges them kind by kind).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from scoring.documents import labels

NO_THROW = "No throw yet this turn."


def name_of(names: dict[int, str], seat: int) -> str:
    return names.get(seat, f"seat {seat}")


def joined(words: Sequence[str]) -> str:
    """``Ann``, ``Ann and Bob``, ``Ann, Bob and Cy``."""
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def counted(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def faces_said(faces: Iterable[str]) -> str:
    return " ".join(faces)


def dice_of(faces: Sequence[str], aside: Iterable[str] = ()) -> list[dict[str, Any]]:
    """The faces as the template draws them; each of ``aside`` (a multiset) marked once."""
    left = Counter(aside)
    dice = []
    for face in faces:
        marked = left[face] > 0
        left[face] -= marked
        dice.append({"face": face, "aside": marked})
    return dice


def item(
    label: str,
    faces: Sequence[str],
    aside: Iterable[str] = (),
    said: str = "",
    outcome: str = "",
    points: int | None = None,
    notes: Sequence[str] = (),
) -> dict[str, Any]:
    """One throw of the list: who or which, its faces, what it set aside in words, its score."""
    return {
        "label": label,
        "dice": dice_of(faces, aside),
        "said": said,
        "outcome": outcome,
        "points": points,
        "notes": list(notes),
    }


def block(
    title: str,
    items: list[dict[str, Any]],
    empty: str = NO_THROW,
    kept: dict[str, Any] | None = None,
    note: str = "",
) -> dict[str, Any]:
    """This turn's throws as the page lists them (``data-role="throws"``)."""
    return {"title": title, "items": items, "empty": empty, "kept": kept, "note": note}


def kept_line(label: str, faces: Sequence[str], after: str = "") -> dict[str, Any] | None:
    """The dice kept or set aside so far, said as ``label``; none: no line."""
    if not faces:
        return None
    return {"label": label, "dice": dice_of(faces, faces), "after": after}


def seating_items(throws: Sequence[dict[str, Any]], names: dict[int, str]) -> list[dict[str, Any]]:
    """The throws for the order of play: each thrower's faces and their number total."""
    return [item(name_of(names, t["seat"]), t["faces"], said=f"total {t['total']}") for t in throws]


# --- Straight Scarney Dice and Scarney 3000: a throw's outcome, points and notes ------------------


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
        notes.append(f"{counted(dead, 'dead die', 'dead dice')} out of play")
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
    for seat, seat_frames in enumerate(view["frames"]):
        played = [
            {**f, "throws": [throw_line(t) for t in f.get("throws") or []]}
            for f in seat_frames
            if f["score"] is not None
        ]
        rows.append({"name": name_of(names, seat), "frames": played})
    return rows


def last_turn(view: dict[str, Any], names: dict[int, str]) -> dict[str, Any] | None:
    """Scarney 3000: the turn just ended, its throws itemised, while the next one starts."""
    turn = view["last_turn"]
    if turn is None:
        return None
    return {
        "name": name_of(names, turn["seat"]),
        "score": turn["score"],
        "throws": [throw_line(t) for t in turn["throws"]],
    }


def sheet(game: dict[str, Any], names: dict[int, str]) -> list[dict[str, Any]]:
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
