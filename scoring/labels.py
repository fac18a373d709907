"""Words for people in place of the stable ids the API carries (``match_bonus``, ``in_progress``,
``high-low-scarney``): what a printed sheet or report shows."""

from __future__ import annotations

STATUS = {"in_progress": "In progress", "finished": "Finished", "settled": "Settled"}

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
FORMATS = {"high-low-scarney": "High-Low Scarney"}


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


TIEBREAKS = {"sonneborn_berger": "Sonneborn-Berger"}


def tiebreak(key: str) -> str:
    return TIEBREAKS.get(key) or _sentence(key)


def _sentence(key: str) -> str:
    words = key.replace("-", " ").replace("_", " ").split()
    if not words:
        return ""
    text = " ".join(WORDS.get(word, word) for word in words)
    return text[0].upper() + text[1:]
