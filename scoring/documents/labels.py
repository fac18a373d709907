"""Words for people in place of the stable ids the API carries (``match_bonus``, ``in_progress``,
``high-low-scarney``): what a printed sheet or report shows."""

from __future__ import annotations

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


# Whole names the rule books spell their own way.
FORMATS = {
    "high-low-scarney": "High-Low Scarney",
    "scarney-put-and-take": "Scarney Put-and-Take",
    "going-to-boston": "Going to Boston",
}


def format_name(kind: str) -> str:
    """``scarney-solitaire`` -> ``Scarney Solitaire``; each word capitalised as a title."""
    if kind in FORMATS:
        return FORMATS[kind]
    return " ".join(
        WORDS.get(word, word.capitalize()) for word in kind.replace("_", "-").split("-")
    )


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
    if "-" in key:  # kinds and formats are the only codes spelt with hyphens
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
