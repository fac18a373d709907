"""bench/seasons.py's season, small: its evenings (the tables system, results entered by the
director) are played through the services and count in the season, and the corrections the bench
appends while it measures change the standings an anonymous reader gets."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from bench import seasons as bench_seasons
from bench import seeding
from games.tournaments import season_standings, seasons

pytestmark = [pytest.mark.django_db, pytest.mark.slow]  # two evenings: about 10 s


def test_the_bench_season_counts_its_evenings_and_follows_a_correction() -> None:
    # given the bench's season of two evenings of 12 players, two rounds each
    user = bench_seasons.director()
    players = seeding.players_register(12, user)
    season = seasons.season_create(
        spec={"name": bench_seasons.SEASON_NAME, "format": bench_seasons.FORMAT}, user=user
    )
    for number in (1, 2):
        evening = bench_seasons.evening_play((number, players, 2))
        seasons.tournament_add(season_id=season.pk, tournament_id=evening, user=user)
    reader = AnonymousUser()
    before, answer = season_standings.standings_with_fingerprint(season, reader)
    assert answer["evenings"] == 2 and answer["counted_evenings"] == 2
    assert len(answer["rows"]) == 12
    assert all(row["evenings"] == 2 for row in answer["rows"])

    # when the bench's writer corrects a table of an evening's last round
    bench_seasons.Corrector(season.pk, seed=1).one()

    # then the season reads that evening again: another fingerprint
    after, _ = season_standings.standings_with_fingerprint(season, reader)
    assert after != before
