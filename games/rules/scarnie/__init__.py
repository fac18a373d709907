"""Scarnie, RULES.md 6: ``game`` the engine of a deal, ``state`` the board and ruleset, ``play``
facing up and removing pawns, ``match`` the game to 100."""

from __future__ import annotations

from games.rules.scarnie.game import SCARNIE
from games.rules.scarnie.match import SCARNIE_MATCH

GAMES = (SCARNIE,)
FORMATS = (SCARNIE_MATCH,)
