"""The other dice games of the rule books, RULES.md 12-15: Double Cameroon (``double_cameroon``,
its categories in ``double_cameroon_scoring``, what it takes and shows in ``shapes``), Going to
Boston and Multiplication (``boston``), Hearts Due; each with its match format (``*_match``)."""

from __future__ import annotations

from games.rules.dice_games.boston import GOING_TO_BOSTON, MULTIPLICATION_RULES
from games.rules.dice_games.boston_match import BOSTON_MATCH, MULTIPLICATION_MATCH
from games.rules.dice_games.double_cameroon import DOUBLE_CAMEROON
from games.rules.dice_games.double_cameroon_match import DOUBLE_CAMEROON_MATCH
from games.rules.dice_games.hearts_due import HEARTS_DUE
from games.rules.dice_games.hearts_due_match import HEARTS_DUE_MATCH

GAMES = (
    DOUBLE_CAMEROON,
    GOING_TO_BOSTON,
    MULTIPLICATION_RULES,
    HEARTS_DUE,
)
FORMATS = (
    DOUBLE_CAMEROON_MATCH,
    BOSTON_MATCH,
    MULTIPLICATION_MATCH,
    HEARTS_DUE_MATCH,
)
