"""Game kinds by their stable id (RULES.md 0.3)."""

from __future__ import annotations

import importlib
import pkgutil
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


_LOADED: list[bool] = []


def _load() -> None:
    """Import every module of the games.rules package once; each game module registers itself.

    Done lazily, so the registry has no import cycle, and by discovery, so a new game is one new
    module and no list to keep in step.
    """
    if _LOADED:
        return
    import games.rules as package

    for module in pkgutil.iter_modules(package.__path__):
        if not module.name.startswith("_") and module.name not in _NOT_GAMES:
            importlib.import_module(f"{package.__name__}.{module.name}")
    _LOADED.append(True)


# Modules of the package that hold shared machinery rather than a game.
_NOT_GAMES = frozenset(
    {"base", "errors", "registry", "matches", "board", "solve", "dice", "placing", "cards"}
)
