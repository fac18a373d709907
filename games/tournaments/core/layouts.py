"""Duplicate Solitaire's deals: the layouts every player of a round plays (API.md "Tournaments").

A layout is a Solitaire game's ``board.laid_out`` position, ``{"C1": "R3", ...}``: all 16 pawns
on all 16 circles (RULES.md 2.3; ``games.rules.scarney_board.board.parse_position``). Any
arrangement is legal, so a deal is a shuffle. The shuffle is ``random.Random(seed)``'s and the
service records the seed with the layouts in ``round.laid_out``: the deal can be checked, and a
replay reads the layouts and never shuffles again.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.rules.errors import IllegalEvent
from games.rules.scarney_board.board import ALL_PAWNS, CIRCLES, circle_name, parse_position
from games.rules.scarney_board.solitaire_match import SolitaireMatchRules

GAMES = SolitaireMatchRules.GAMES_PER_MATCH  # one layout per game of a round's match


def deal(seed: int, games: int = GAMES) -> list[dict[str, str]]:
    """``games`` layouts shuffled from ``seed``, one per game of the match, in game order."""
    rng = random.Random(seed)
    layouts = []
    for _ in range(games):
        pawns = list(ALL_PAWNS)
        rng.shuffle(pawns)
        layouts.append({circle_name(c): pawn for c, pawn in zip(CIRCLES, pawns, strict=True)})
    return layouts


def check(layouts: Any) -> None:
    """Refuse ``layouts`` unless they are one complete layout per game of the match.

    The codes are Solitaire's own for a bad position (``setup.incomplete_layout`` ...), so the
    director hears it when he records the round, not when the first game of it starts.
    """
    if not isinstance(layouts, Sequence) or isinstance(layouts, str) or len(layouts) != GAMES:
        raise IllegalEvent(
            "round.bad_layouts",
            f"'layouts' lists the position of each of the {GAMES} games of the round's match "
            "(or leave it out, and the server deals them).",
            field="layouts",
        )
    for layout in layouts:
        parse_position(layout, complete=True)
