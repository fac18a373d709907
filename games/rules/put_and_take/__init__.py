"""Scarney Put-and-Take Dice, RULES.md 11: ``game`` the engine, ``state`` the session and its
ledger, ``play`` the moves, ``match`` the session's settlement."""

from __future__ import annotations

from games.rules.put_and_take.game import PUT_AND_TAKE
from games.rules.put_and_take.match import PUT_AND_TAKE_MATCH

GAMES = (PUT_AND_TAKE,)
FORMATS = (PUT_AND_TAKE_MATCH,)
