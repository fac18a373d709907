"""Game kinds and match formats by their stable ids (RULES.md 0.3).

The registry imports exactly the family packages of :data:`FAMILIES`, once, on first use. Each
family's ``__init__`` lists what it keeps: ``GAMES`` (rule engines) and ``FORMATS`` (match
formats). A new family is one new package and one new name here; a new game in a family is one
more entry in its ``GAMES`` (and ``FORMATS``, if it has a match).
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Iterator
from types import ModuleType
from typing import Any

from games.rules.base import Rules
from games.rules.errors import BadSetup
from games.rules.matches import MatchRules

# The family packages under games.rules, each with its ``GAMES`` and ``FORMATS``.
FAMILIES = (
    "scarney_board",
    "scarnie",
    "straight_dice",
    "scarney_3000",
    "put_and_take",
    "dice_games",
    "tarot",
)

_RULES: dict[str, Rules[Any]] = {}
_FORMATS: dict[str, MatchRules] = {}


def get(kind: str) -> Rules[Any]:
    """The rule engine of ``kind``, or BadSetup with code ``game.unknown_kind``."""
    _load()
    try:
        return _RULES[kind]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_RULES))
        raise BadSetup(
            "game.unknown_kind", f"{kind!r} is not a game this service keeps; known: {known}."
        ) from None


def knows(kind: str) -> bool:
    """Whether ``kind`` is a game kind this service keeps (every match format is named for one)."""
    _load()
    return kind in _RULES


def kinds() -> list[str]:
    """Every game kind, by id."""
    _load()
    return sorted(_RULES)


def match_rules(format: str) -> MatchRules:
    """The rules of the match format ``format``, or BadSetup ``match.unknown_format``."""
    _load()
    try:
        return _FORMATS[format]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_FORMATS))
        raise BadSetup(
            "match.unknown_format",
            f"{format!r} is not a match format this service keeps; known: {known}.",
            format=format,
        ) from None


def formats() -> list[str]:
    """Every match format, by name."""
    _load()
    return sorted(_FORMATS)


@contextlib.contextmanager
def including(family: ModuleType) -> Iterator[None]:
    """``family``'s games and formats (a package as :data:`FAMILIES` names, kept elsewhere: a
    made-up game of a test) kept while the block runs, and forgotten after it."""
    _load()
    added: list[tuple[dict[str, Any], str, Any]] = [(_RULES, r.kind, r) for r in family.GAMES]
    added += [(_FORMATS, match.kind, match) for match in family.FORMATS]
    for table, kind, entry in added:
        _add(table, kind, entry)
    try:
        yield
    finally:
        for table, kind, _ in added:
            table.pop(kind, None)


def _load() -> None:
    # Lazily, so that importing one game module never imports every family.
    if _RULES:
        return
    for family in FAMILIES:
        package = importlib.import_module(f"{__package__}.{family}")
        for rules in package.GAMES:
            _add(_RULES, rules.kind, rules)
        for match in package.FORMATS:
            _add(_FORMATS, match.kind, match)


def _add(table: dict[str, Any], kind: str, entry: Any) -> None:
    if kind in table:
        raise RuntimeError(f"two families declare {kind!r}")  # a packaging bug, not user input
    table[kind] = entry
