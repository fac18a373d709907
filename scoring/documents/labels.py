"""Words for people in place of the stable ids the API carries (``match_bonus``, ``in_progress``,
``high-low-scarney``): what a printed sheet or report shows."""

from __future__ import annotations

from games.rules import registry
from games.rules.wording import phrase as _sentence  # one wording of an id, shared with the pages
from games.tournaments.core import tiebreaks

STATUS = {
    "in_progress": "In progress",
    "finished": "Finished",
    "settled": "Settled",
    "abandoned": "Set aside",
    "unconfirmed": "Played: awaiting its players' confirmation",
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


def label(key: str) -> str:
    """Any code the API carries as a person reads it: a game kind or match format by its book
    name, a status, a tie-break or system, a bonus (``match_bonus`` -> ``Match bonus``)."""
    if key in STATUS:
        return STATUS[key]
    if key in tiebreaks.BY_KEY:
        return tiebreaks.label(key)
    if registry.knows(key):  # every match format is named for its game kind
        return format_name(key)
    return _sentence(key)


def tiebreak(key: str) -> str:
    """A standings column's heading: a tie-break's declared label, else its words (``rank``)."""
    return tiebreaks.label(key) if key in tiebreaks.BY_KEY else _sentence(key)


def rated(rating: str) -> str:
    """A rating band as the books print it, quoted with its own punctuation: ``Try again!`` ->
    ``rated “Try again!”`` (never "Rating: Try again!.")."""
    return f"rated “{rating}”"


def end_sentence(text: str) -> str:
    """``text`` with a full stop, unless it already ends a sentence (a quoted "Try again!")."""
    if text.rstrip("”’\"')").endswith((".", "!", "?")):
        return text
    return f"{text}."


def solo_result(name: str, what: str, facts: list[str], rating: str | None) -> str:
    """A one-player game or match has no winner: "Zoe's game is over: 12 pawns off the board,
    28 points — rated “Try again!”"."""
    said = f"{name}'s {what} is over" + (f": {', '.join(facts)}" if facts else "")
    return end_sentence(f"{said} — {rated(rating)}" if rating else said)
