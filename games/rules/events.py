"""Event type names used by more than one game, or by a game and the service (RULES.md 0.4).

A name that one game alone records stays in that game's module; a name shared is defined here
once, so ``dice.thrown`` or ``move.undone`` has one spelling and one constant in the house.
Schema versions and upcasters belong to the write side (``games.store.event_types``), not to the
rules.
"""

from __future__ import annotations

# Written by the service: the first event of every stream, and what a match is told.
GAME_STARTED = "game.started"
MATCH_STARTED = "match.started"
GAME_FINISHED = "game.finished"
MATCH_RATED = "match.rated"
MATCH_SETTLED = "match.settled"
TOURNAMENT_CREATED = "tournament.created"
REGISTER_OPENED = "register.opened"
SEASON_CREATED = "season.created"

# Recorded at the table, in every game or in a family's games.
UNDO = "move.undone"
GAME_SCORED = "game.scored"
ORDER_DRAWN = "order.drawn"
TAKEN_OFF = "pawn.taken_off"
JUMPED = "pawn.jumped"
REMOVED = "pawns.removed"
SCARNEY_CALLED = "game.scarney_called"
THROWN = "dice.thrown"
STOOD = "shooter.stood"
DOUBLE_DOWN = "double_down.called"
# A seat of a tournament table agrees to its match's result (or a director confirms it).
RESULT_CONFIRMED = "result.confirmed"

# Events a client may never record: the service writes them itself.
SERVICE_ONLY = frozenset(
    {
        GAME_STARTED,
        MATCH_STARTED,
        GAME_FINISHED,
        MATCH_RATED,
        MATCH_SETTLED,
        TOURNAMENT_CREATED,
        REGISTER_OPENED,
        SEASON_CREATED,
    }
)
