"""The demo club's evenings: last week's, played out, and tonight's High-Low Scarney Swiss with
its first round played from the sheets, so the tournament page, its standings and the room's
scoreboard have something to show; both count in the club's winter season."""

from __future__ import annotations

import uuid
from typing import Any

from games.play import services
from games.rules.errors import RuleError
from games.store.models import Season, Tournament
from games.tournaments import creating, entries, results, rounds, seasons
from games.tournaments.core import events

NAME = "Tuesday club evening"
HIGH_LOW_WIN = [34, 0]  # a High-Low game won by the first seat (Appendix C.3); three win a match


SEASON = "Winter season"
LAST_WEEK = "Last Tuesday's evening"


def load(user: Any, names: list[str]) -> Tournament:
    """Enter ``names``, pair round 1 and finish every table but the last (still playing)."""
    tournament = _evening(user, NAME, names, rounds=3)
    _play_round(tournament, user, leave_last=True)
    return tournament


def load_last_week(user: Any, names: list[str]) -> Tournament:
    """Last week's evening: one round, played out."""
    tournament = _evening(user, LAST_WEEK, list(reversed(names)), rounds=1)
    _play_round(tournament, user, leave_last=False)
    return tournament


def close_last_week(user: Any, tournament_id: Any) -> bool:
    """Close last week's one round, so that its evening reads finished and leaves the open
    scoreboards. Its tables' results come in as their matches close, after the load commits:
    called once they have (``load_demo`` waits for them). False when a result is still missing."""
    try:
        results.correction_record(
            tournament_id=tournament_id,
            event_id=uuid.uuid5(uuid.NAMESPACE_URL, f"demo-close:{tournament_id}"),
            type=events.ROUND_CLOSED,
            data={"round": 1},
            user=user,
        )
    except RuleError:
        return False
    return True


def load_season(user: Any, evenings: list[Tournament]) -> Season:
    """The winter season of ``evenings``: each player's best eight count."""
    season = seasons.season_create(
        spec={"name": SEASON, "format": "high-low-scarney", "counting": {"best": 8}}, user=user
    )
    for evening in evenings:
        seasons.tournament_add(season_id=season.pk, tournament_id=evening.pk, user=user)
    return season


def _evening(user: Any, name: str, names: list[str], rounds: int) -> Tournament:
    spec = {"name": name, "format": "high-low-scarney", "system": "swiss", "rounds": rounds}
    tournament = creating.tournament_create(spec=spec, user=user)
    for player in names:
        entries.entry_add(tournament_id=tournament.pk, spec={"name": player}, user=user)
    return tournament


def _play_round(tournament: Tournament, user: Any, *, leave_last: bool) -> None:
    """Pair the next round and win each table for its first seat (the last left playing)."""
    rounds.round_pair(tournament_id=tournament.pk, user=user)
    tables = list(tournament.tables.order_by("number"))
    for table in tables[:-1] if leave_last else tables:
        assert table.match_id is not None, "a paired table has its match"
        for _ in range(3):
            services.event_record(
                stream_id=table.match_id,
                event_id=uuid.uuid4(),
                type="game.scored",
                data={"scores": HIGH_LOW_WIN},
                user=user,
            )
