"""Straight Scarney Dice and its partnership form, RULES.md 7-8: ``game`` the engine, ``play``
the frame machine and pot, ``scoring`` one throw's worth, ``view`` the views, ``match`` the format,
``partnership`` the partnership game and format."""

from __future__ import annotations

from games.rules.straight_dice.game import STRAIGHT_DICE
from games.rules.straight_dice.match import STRAIGHT_DICE_MATCH
from games.rules.straight_dice.partnership import PARTNERSHIP_DICE, PARTNERSHIP_DICE_MATCH

GAMES = (
    STRAIGHT_DICE,
    PARTNERSHIP_DICE,
)
FORMATS = (
    STRAIGHT_DICE_MATCH,
    PARTNERSHIP_DICE_MATCH,
)
