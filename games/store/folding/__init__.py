"""From events to state: the stream's header, the rule engine, snapshots and replays.

The first event of every stream (``game.started`` / ``match.started``) carries everything needed
to rebuild it: kind, seats, the effective ruleset and the setup. Folding the rest through the
pure rule engine gives the state (``engines``); the snapshot on the stream row only saves that
work (``snapshots``).

``loading`` is the one module that loads a stream (:func:`load`: its snapshot, then the events
after it) and saves one (:func:`save`: the event appended, the snapshot kept), as a repository
of event-sourced aggregates does; ``games.store.journal`` below it reads and writes the rows.
Every public name of the three is named here for the importers.
"""

from games.store.folding.engines import (
    START_EVENTS,
    Engine,
    Folded,
    GameEngine,
    MatchEngine,
    RegisterEngine,
    TournamentEngine,
    check_start,
    engine_for,
    engine_step,
    fold_events,
    fold_moves,
    fold_on,
    game_rules,
    game_start,
)
from games.store.folding.loading import check_declared, load, refold, save, settlement, state_stack
from games.store.folding.snapshots import (
    SNAPSHOT_FORMAT,
    from_own_snapshot,
    pack,
    unpack,
    unpack_bytes,
    unpack_head,
)

__all__ = [
    "Engine",
    "Folded",
    "GameEngine",
    "MatchEngine",
    "RegisterEngine",
    "SNAPSHOT_FORMAT",
    "START_EVENTS",
    "TournamentEngine",
    "check_declared",
    "check_start",
    "engine_for",
    "engine_step",
    "fold_events",
    "fold_moves",
    "fold_on",
    "from_own_snapshot",
    "game_rules",
    "game_start",
    "load",
    "pack",
    "refold",
    "save",
    "settlement",
    "state_stack",
    "unpack",
    "unpack_bytes",
    "unpack_head",
]
