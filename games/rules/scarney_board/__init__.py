"""The Scarney board games, RULES.md 1-5: Solitaire, Singles, Doubles and High-Low Scarney.

``board`` (the 4 x 4 board and its pawns) and ``placing`` (choosing colours, placing pawns) are
shared by the games; ``shapes`` declares what they share of events and views, the formats' events
and Solitaire's; ``draws`` is the first-player draw of the matches; ``matches`` holds the Singles,
Doubles and High-Low formats, ``solitaire_match`` the Solitaire match; ``solve`` the solvers (best
Solitaire line, two-player minimax).
"""

from __future__ import annotations

from games.rules.scarney_board.doubles import DOUBLES
from games.rules.scarney_board.high_low import HIGH_LOW
from games.rules.scarney_board.matches import DOUBLES_MATCH, HIGH_LOW_MATCH, SINGLES_MATCH
from games.rules.scarney_board.singles import SINGLES
from games.rules.scarney_board.solitaire_match import SOLITAIRE_MATCH
from games.rules.scarney_board.solve.solitaire import ANALYSED_SOLITAIRE

GAMES = (
    ANALYSED_SOLITAIRE,
    SINGLES,
    DOUBLES,
    HIGH_LOW,
)
FORMATS = (
    SOLITAIRE_MATCH,
    SINGLES_MATCH,
    DOUBLES_MATCH,
    HIGH_LOW_MATCH,
)
