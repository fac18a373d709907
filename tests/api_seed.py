"""Rows for the API's contract tests: a finished Solitaire game, a live game, a settled sheet
match, a match in progress, a paired tournament and a season holding it, so that list and detail
endpoints answer real rows (tests/games/api/test_schemathesis.py,
tests/games/api/test_query_counts.py)."""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass
from typing import Any

from games.play import services
from games.tournaments import creating, entries, rounds, seasons
from tests.play import play_out

SHEET = [[32, 19, 6], [24, 77, 34], [13, 29, 27], [38, 53, 110], [21, 30, 36]]


@dataclass(frozen=True)
class Seeded:
    game: uuid.UUID
    live_game: uuid.UUID
    match: uuid.UUID
    open_match: uuid.UUID
    player: int
    tournament: uuid.UUID
    season: uuid.UUID


def finished_game(name: str, seed: int, user: Any = None) -> uuid.UUID:
    game = services.game_start(kind="scarney-solitaire", seats=[{"name": name}], user=user)
    play_out(game.pk, random.Random(seed), undo_rate=0)
    return game.pk


def sheet_match(names: list[str], lines: list[list[int]], user: Any = None) -> uuid.UUID:
    """A Scarney singles match entered from a score sheet (lenient, so any line is taken)."""
    match = services.match_start(
        format="scarney-singles",
        players=[{"name": name} for name in names],
        entry="sheet",
        ruleset={"sheet_entry_validation": "lenient"},
        user=user,
    )
    for scores in lines:
        services.event_record(
            stream_id=match.pk,
            event_id=uuid.uuid4(),
            type="game.scored",
            data={"scores": scores},
            user=user,
        )
    return match.pk


def tournament(user: Any, names: list[str]) -> uuid.UUID:
    """A published Swiss tournament of High-Low Scarney with its first round paired."""
    made = creating.tournament_create(
        spec={
            "name": "Tuesday club evening",
            "format": "high-low-scarney",
            "system": "swiss",
            "entry": "sheet",
            "rounds": 3,
            "published": True,
        },
        user=user,
    )
    for name in names:
        entries.entry_add(tournament_id=made.pk, spec={"name": name}, user=user)
    rounds.round_pair(tournament_id=made.pk, tables=None, seed=None, user=user)
    return made.pk


def seed(user: Any) -> Seeded:
    """``user`` (a director) creates everything, so every row is readable by him."""
    game = finished_game("Ann", 1, user)
    live = services.game_start(kind="scarney-solitaire", seats=[{"name": "Ann"}], user=user)
    match = sheet_match(["Ann", "Bob", "Cid"], SHEET, user)
    open_match = sheet_match(["Ann", "Bob", "Cid"], SHEET[:2], user)
    from games.store.models import Player

    ann = Player.objects.get(name="Ann").pk
    cup = tournament(user, ["Dee", "Eve", "Fay", "Gus"])
    winter = seasons.season_create(spec={"name": "Winter", "counting": {"best": 8}}, user=user)
    seasons.tournament_add(season_id=winter.pk, tournament_id=cup, user=user)
    return Seeded(game, live.pk, match, open_match, ann, cup, winter.pk)
