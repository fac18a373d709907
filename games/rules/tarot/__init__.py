"""The tarot games, RULES.md 16-21: ``cards`` the 78-card pack and the trick rules they share;
``recording`` the recording mode (16.3-16.4) of the rule modules Courtship Rules, Tontine and the
Last Laugh (``last_laugh``, its Butt's cases in ``butt``), and ``shapes`` what those modules take
and show; ``manchester`` the two-player games Manchester Piccadilly and Truffle."""

from __future__ import annotations

from games.rules.tarot.courtship import COURTSHIP_RULES
from games.rules.tarot.last_laugh import LAST_LAUGH_RULES
from games.rules.tarot.manchester.game import PICCADILLY_RULES, TRUFFLE_RULES
from games.rules.tarot.manchester.match import PICCADILLY_MATCH, TRUFFLE_MATCH
from games.rules.tarot.tontine import TONTINE_MATCH, TONTINE_RULES

GAMES = (
    COURTSHIP_RULES,
    TONTINE_RULES,
    LAST_LAUGH_RULES,
    PICCADILLY_RULES,
    TRUFFLE_RULES,
)
FORMATS = (
    TONTINE_MATCH,
    PICCADILLY_MATCH,
    TRUFFLE_MATCH,
)
