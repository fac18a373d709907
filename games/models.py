"""Where Django looks for the models of the ``games`` app: they live in the event store.

Django imports ``<app>.models`` while it loads the apps; the rows are the store's
(``games.store.models``), so this module only names them. App label and tables stay ``games``.
"""

from games.store.models import (
    Checkpoint,
    Event,
    Game,
    GameSeat,
    Match,
    MatchSeat,
    Outbox,
    PastSnapshot,
    Player,
    Stream,
    Tournament,
    TournamentEntry,
    TournamentTable,
)

__all__ = [
    "Checkpoint",
    "Event",
    "Game",
    "GameSeat",
    "Match",
    "MatchSeat",
    "Outbox",
    "PastSnapshot",
    "Player",
    "Stream",
    "Tournament",
    "TournamentEntry",
    "TournamentTable",
]
