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

import re
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


# --- seats in a rule's sentence ----------------------------------------------------------------
#
# The rules know seats, never names. A sentence names a seat (or a group of seats) through
# :func:`seat` / :func:`seats`: a marker the faces replace with the players' labels
# (:func:`worded`, which games.play.refusals calls with the stream's labels). Without labels (a
# rules test, a log) the marker reads "seat 2", "seats 0 and 1"; at the start of a sentence
# "Seat 2". The markers are private-use characters no person types, so none is mistaken.

_OPEN, _CLOSE = "\ue000", "\ue001"
_MARKER = re.compile(f"{_OPEN}([-0-9,]*){_CLOSE}")
_SENTENCE_START = re.compile(r"(?:^|[.!?]\s+)$")


def player_at(number: Any) -> str:
    """The seat ``number`` in a sentence: its player's label where the face knows it (what is
    not a seat number, as a seat a state has not set, is said as it is)."""
    if not isinstance(number, int) or isinstance(number, bool):
        return f"seat {number}"
    return f"{_OPEN}{number}{_CLOSE}"


def players_at(numbers: Iterable[int]) -> str:
    """Several seats in a sentence: "Ann and Bob", without labels "seats 0 and 1"."""
    return f"{_OPEN}{','.join(str(int(n)) for n in numbers)}{_CLOSE}"


def seats_named(text: str) -> tuple[int, ...]:
    """The seats a sentence names, in order, each once."""
    found: dict[int, None] = {}
    for match in _MARKER.finditer(text):
        found.update((int(n), None) for n in match.group(1).split(",") if n)
    return tuple(found)


def worded(text: str, labels: Mapping[int, str] | None = None) -> str:
    """``text`` with each seat it names said by its label (``labels``), or by its number where
    there is none."""
    labels = labels or {}

    def said(match: re.Match[str]) -> str:
        numbers = [int(n) for n in match.group(1).split(",") if n]
        if numbers and all(n in labels for n in numbers):
            return joined([labels[n] for n in numbers])
        numbered = joined([str(n) for n in numbers])
        words = f"seat {numbered}" if len(numbers) == 1 else f"seats {numbered}"
        starts = _SENTENCE_START.search(text, 0, match.start()) is not None
        return words[0].upper() + words[1:] if starts else words

    return _MARKER.sub(said, text)


def told_apart(names: Mapping[int, str]) -> dict[int, str]:
    """Each key's label: its name, or for namesakes the name numbered in key order, "Pat (2)"."""
    by_name: dict[str, list[int]] = {}
    for key in sorted(names):
        by_name.setdefault(names[key].casefold(), []).append(key)
    labels = {}
    for keys in by_name.values():
        for number, key in enumerate(keys, start=1):
            labels[key] = names[key] if len(keys) == 1 else f"{names[key]} ({number})"
    return labels


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
