"""Game kinds by their stable id (RULES.md 0.3)."""

from __future__ import annotations

from typing import Any

from games.rules.base import Rules
from games.rules.errors import BadSetup

_RULES: dict[str, Rules[Any]] = {}


def register(rules: Rules[Any]) -> Rules[Any]:
    _RULES[rules.kind] = rules
    return rules


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


def kinds() -> list[str]:
    _load()
    return sorted(_RULES)


def _load() -> None:
    # Importing the game modules registers them; done lazily so the registry has no import cycle.
    from games.rules import solitaire  # noqa: F401
