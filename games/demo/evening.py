"""The demo club's evening: a High-Low Scarney Swiss with its first round played from the sheets,
so the tournament page, its standings and the room's scoreboard have something to show."""

from __future__ import annotations

import uuid
from typing import Any

from games.play import services
from games.store.models import Tournament
from games.tournaments import creating, entries, rounds

NAME = "Tuesday club evening"
HIGH_LOW_WIN = [34, 0]  # a High-Low game won by the first seat (Appendix C.3); three win a match


def load(user: Any, names: list[str]) -> Tournament:
    """Enter ``names``, pair round 1 and finish every table but the last (still playing)."""
    spec = {"name": NAME, "format": "high-low-scarney", "system": "swiss", "rounds": 3}
    tournament = creating.tournament_create(spec=spec, user=user)
    for name in names:
        entries.entry_add(tournament_id=tournament.pk, spec={"name": name}, user=user)
    rounds.round_pair(tournament_id=tournament.pk, user=user)
    tables = list(tournament.tables.order_by("number"))
    for table in tables[:-1]:
        assert table.match_id is not None, "a paired table has its match"
        for _ in range(3):
            services.event_record(
                stream_id=table.match_id,
                event_id=uuid.uuid4(),
                type="game.scored",
                data={"scores": HIGH_LOW_WIN},
                user=user,
            )
    return tournament
