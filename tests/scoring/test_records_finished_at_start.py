"""A game over at its start (a study position with no jump left) counts as finished in its
players' records, inline as in the rebuild; the rows it left behind are repaired by migration."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model

from games.play import services
from games.store import reactions
from games.store.models import Stream
from scoring.models import PlayerRecord

NO_JUMP = {"position": {"C1": "B4", "C16": "G3"}}  # two pawns far apart: nothing can jump


@pytest.fixture
def finished_at_start(db: Any) -> Any:
    user = get_user_model().objects.create_user(username="keeper", password="pass-word-1")
    game = services.game_start(
        kind="scarney-solitaire", seats=[{"name": "Ann"}], setup=NO_JUMP, user=user
    )
    return game


def test_a_game_finished_by_its_start_is_counted_as_finished(finished_at_start: Any) -> None:
    stream = Stream.objects.get(pk=finished_at_start.stream_id)
    assert (stream.status, stream.version) == ("finished", 1)
    total = finished_at_start.summary.scores[0]["total"]
    record = PlayerRecord.objects.get(player__name="Ann")
    assert (record.games_played, record.games_finished) == (1, 1)
    assert (record.points_total, record.best_total) == (total, total)
    assert reactions.current().differences() == []


def test_the_migration_repairs_the_records_such_a_game_left_behind(finished_at_start: Any) -> None:
    # given the record as the projection left it before the fix
    PlayerRecord.objects.filter(player__name="Ann").update(
        games_finished=0, points_total=0, best_total=None
    )
    assert reactions.current().differences() != []
    # when the data migration runs
    migration = importlib.import_module(
        "scoring.migrations.0004_records_of_games_finished_at_start"
    )
    migration.recompute_records(apps, None)
    # then the record is the rebuild's again
    assert reactions.current().differences() == []
    assert PlayerRecord.objects.get(player__name="Ann").games_finished == 1
