"""rebuild_projections rebuilds every read model from the events alone, equal row for row."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.core.management import call_command

from games.play import services
from games.store.models import Player
from scoring import replay
from scoring.models import MatchStanding
from tests.conformance import projection_rows
from tests.play import play_out, play_random_game, random_layout, record

pytestmark = pytest.mark.django_db


def test_rebuild_equals_the_inline_projections_after_random_games(
    django_capture_on_commit_callbacks: Any,
) -> None:
    # given: finished and unfinished games, study positions and a complete rated match
    for seed in range(25):
        play_random_game(seed)
    rng = random.Random(7)
    unfinished = services.game_start(kind="scarney-solitaire", seats=[{"name": "Una"}])
    record(unfinished.pk, random_layout(rng))
    services.game_start(
        kind="scarney-solitaire",
        seats=[{"name": "Stu"}],
        setup={"position": {"C1": "B1", "C2": "R1"}},
    )
    match = services.match_start(format="scarney-solitaire", players=[{"name": "Mia"}])
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(5):
            game = services.game_start(kind="scarney-solitaire", seats=None, match_id=match.pk)
            play_out(game.pk, rng, undo_rate=0)
    Player.objects.create(name="Newcomer")  # no game yet: no record, inline or rebuilt
    inline = projection_rows()
    assert MatchStanding.objects.get(pk=match.pk).rating is not None
    assert len(inline["games"]) == 32 and inline["bonuses"]

    # when
    call_command("rebuild_projections", "--no-progress")

    # then
    assert projection_rows() == inline


@pytest.mark.django_db(transaction=True)
def test_rebuild_in_worker_processes_equals_the_inline_projections(monkeypatch: Any) -> None:
    # given committed games (the workers read through their own connections)
    for seed in range(12):
        play_random_game(seed)
    rng = random.Random(3)
    unfinished = services.game_start(kind="scarney-solitaire", seats=[{"name": "Una"}])
    record(unfinished.pk, random_layout(rng))
    inline = projection_rows()
    ranges: list[Any] = []
    in_workers = replay._in_workers

    def spy(category: str, function: Any, progress: Any, bounds: Any, only: str = "") -> Any:
        if not only:  # the summaries' rebuild (the ratings' folds only the games outside matches)
            ranges.extend(bounds)
        return in_workers(category, function, progress, bounds, only)

    monkeypatch.setattr(replay, "_in_workers", spy)

    # when
    call_command("rebuild_projections", "--no-progress", "--workers", "2")

    # then
    assert len(ranges) == 2
    assert projection_rows() == inline
