"""The demo club loads on a fresh database, with the sample sheets settled as the books say."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from games.demo import evening as demo_evenings
from games.demo import loading
from games.pages import queries
from games.rules.events import MATCH_SETTLED
from games.store import folding, journal
from games.store.models import Season, Stream, Tournament
from games.tournaments import season_standings

pytestmark = pytest.mark.django_db


def test_the_demo_club_loads_once_with_its_sheets_settled(
    django_capture_on_commit_callbacks: Any, capsys: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        made = loading.load()
    singles, high_low = made["sheets"]
    assert journal.event_data(singles, MATCH_SETTLED)["payments"] == [
        {"from": 0, "to": 2, "points": 185},
        {"from": 1, "to": 2, "points": 105},
    ]
    assert journal.event_data(high_low, MATCH_SETTLED)["payments"] == [
        {"from": 0, "to": 1, "points": 252}
    ]
    assert Stream.objects.get(pk=singles).status == "settled"
    live_match, *games = made["tables"]
    assert Stream.objects.get(pk=live_match).version >= 2  # a game is in
    assert all(Stream.objects.get(pk=g).version > 1 for g in games)
    # The evening: round 1 paired, its first table's result in, the second still playing.
    evening = folding.load(Stream.objects.get(pk=made["tournament"])).state
    first = evening.round(1)
    assert first.tables[0].result is not None and first.missing == (2,)
    # The winter season: last week's evening counts (its one round complete), tonight's not yet.
    season = Season.objects.get(pk=made["season"])
    standings = season_standings.standings_json(season, None)
    assert standings["evenings"] == 2 and standings["counted_evenings"] == 1
    places = sorted(row["place"] for row in standings["rows"])
    assert len(places) == len(loading.PLAYERS) and places[0] == 1
    # Last week's evening, once its round is closed, reads finished and leaves the scoreboards.
    boards = [board["id"] for board in queries.open_scoreboards()]
    assert made["last_week"] in boards and made["tournament"] in boards
    demo = get_user_model().objects.get(username=loading.DEMO_USER)
    assert demo_evenings.close_last_week(demo, made["last_week"])
    assert Tournament.objects.get(pk=made["last_week"]).status == "finished"
    assert [board["id"] for board in queries.open_scoreboards()] == [made["tournament"]]
    assert season_standings.standings_json(season, None)["counted_evenings"] == 1
    call_command("load_demo")
    assert "already loaded" in capsys.readouterr().out
