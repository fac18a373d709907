"""The write side's rows: players, streams (games and matches), the append-only event store and
a tournament's rows, by purpose in the modules of this package; named here for every importer.
"""

from games.store.models.events import Checkpoint, Event, ImmutableRowError, Outbox, PastSnapshot
from games.store.models.streams import Game, GameSeat, Match, MatchSeat, Player, Stream
from games.store.models.tournaments import (
    Season,
    TableCode,
    Tournament,
    TournamentEntry,
    TournamentTable,
)

__all__ = [
    "Checkpoint",
    "Event",
    "Game",
    "GameSeat",
    "ImmutableRowError",
    "Match",
    "MatchSeat",
    "Outbox",
    "PastSnapshot",
    "Player",
    "Season",
    "Stream",
    "TableCode",
    "Tournament",
    "TournamentEntry",
    "TournamentTable",
]
