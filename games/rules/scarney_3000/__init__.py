"""Scarney 3000 and Partnership Scarney 3000, RULES.md 9-10: ``game`` the engines, ``play``
the turn machine, ``scoring`` one throw's worth, ``view`` the views, ``match`` the formats."""

from __future__ import annotations

from games.rules.scarney_3000.game import PARTNERSHIP_SCARNEY_3000, SCARNEY_3000
from games.rules.scarney_3000.match import PARTNERSHIP_SCARNEY_3000_MATCH, SCARNEY_3000_MATCH

GAMES = (
    SCARNEY_3000,
    PARTNERSHIP_SCARNEY_3000,
)
FORMATS = (
    SCARNEY_3000_MATCH,
    PARTNERSHIP_SCARNEY_3000_MATCH,
)
