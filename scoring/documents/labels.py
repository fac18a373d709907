"""Words for people in place of the stable ids the API carries (``match_bonus``, ``in_progress``,
``high-low-scarney``): what a printed sheet or report shows."""

from __future__ import annotations

from games.rules import registry

STATUS = {
    "in_progress": "In progress",
    "finished": "Finished",
    "settled": "Settled",
    "abandoned": "Set aside",
}

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


def status(value: str) -> str:
    return STATUS.get(value, _sentence(value))


def format_name(kind: str) -> str:
    """A game kind or match format by its book name (its rules' ``title``: every format is
    named for its game); ``game.unknown_kind`` for a kind the rules do not keep."""
    return registry.get(kind).title


def bonus(kind: str) -> str:
    """``black_single_pawn`` -> ``Black single pawn``; ``match_bonus`` -> ``Match bonus``."""
    return _sentence(kind)


TIEBREAKS = {"sonneborn_berger": "Sonneborn-Berger", "round_robin": "Round robin"}


def label(key: str) -> str:
    """Any code the API carries as a person reads it: a game kind or match format by its book
    name, a status, a tie-break or system, a bonus (``match_bonus`` -> ``Match bonus``)."""
    if key in STATUS:
        return STATUS[key]
    if key in TIEBREAKS:
        return TIEBREAKS[key]
    if registry.knows(key):  # every match format is named for its game kind
        return format_name(key)
    return _sentence(key)


def tiebreak(key: str) -> str:
    return TIEBREAKS.get(key) or _sentence(key)


def _sentence(key: str) -> str:
    words = key.replace("-", " ").replace("_", " ").split()
    if not words:
        return ""
    text = " ".join(WORDS.get(word, word) for word in words)
    return text[0].upper() + text[1:]
