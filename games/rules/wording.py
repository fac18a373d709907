"""How a game's throws and its sheet's rule read for people: the pieces every family words them
with, and the protocols a family declares them by.

A dice game words its throws for its page (``ThrowsDice.word_throws``): this turn's throws, what
they leave kept or set aside, and what the kind shows besides (frames, a score sheet, the last
turn, a play-off). A match format words the rule its sheet's lines follow
(``MatchRules.sheet_rule``). The pages read these through the registry and arrange nothing by
kind, so a new game touches no page module.

Each throw is itemised as the faces shown, those set aside or kept marked (by a frame and by
words, never by colour alone), what it was and what it scored. Read off the game's view (its JSON)
only: nothing here decides a rule. Pure Python, as every module of games/rules.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

NO_THROW = "No throw yet this turn."

# Names the rule books print that a plain "underscores to spaces" would get wrong.
WORDS = {
    "scarney": "Scarney",
    "scarnie": "Scarnie",
    "solitaire": "Solitaire",
    "hl": "High-Low",
    "3000": "3000",
    "buchholz": "Buchholz",
    "sonneborn": "Sonneborn",
    "berger": "Berger",
}


def phrase(key: str) -> str:
    """A stable id as a person reads it: ``black_single_pawn`` -> ``Black single pawn``."""
    words = key.replace("-", " ").replace("_", " ").split()
    if not words:
        return ""
    text = " ".join(WORDS.get(word, word) for word in words)
    return text[0].upper() + text[1:]


def name_of(names: Mapping[int, str], seat: int) -> str:
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


def seating_items(
    throws: Sequence[Mapping[str, Any]], names: Mapping[int, str]
) -> list[dict[str, Any]]:
    """The throws for the order of play: each thrower's faces and their number total."""
    return [item(name_of(names, t["seat"]), t["faces"], said=f"total {t['total']}") for t in throws]


def throw_line(throw: Mapping[str, Any] | list[str]) -> dict[str, Any]:
    """One throw: its faces, its outcome, its points and what made them."""
    if isinstance(throw, list):  # a game that keeps only the faces of each throw
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


def bonus_notes(throw: Mapping[str, Any]) -> list[str]:
    """A throw's bonus in words: named with its points (unless the outcome already names it),
    or flagged as a bonus hand."""
    bonus = throw.get("bonus")
    if isinstance(bonus, dict):
        kind = str(bonus.get("kind", ""))
        if kind == throw.get("outcome"):
            return []
        return [f"bonus: {phrase(kind)} {bonus.get('points')}"]
    return ["bonus hand"] if bonus is True else []


def scored(line: Mapping[str, Any]) -> dict[str, Any]:
    """A throw line's outcome, points and notes, as :func:`item` takes them."""
    return {"outcome": line["outcome"], "points": line["points"], "notes": line["notes"]}
