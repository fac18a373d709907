"""``verify_events --projections``: every read model row against a re-fold of the events."""

from __future__ import annotations

import io
import random
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.play import services
from scoring.models import BonusAward, GameSummary, MatchStanding, PlayerRecord
from tests.play import play_out, play_random_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    """Finished and unfinished games, and a complete match (settled through the outbox)."""
    games = [play_random_game(seed)[0] for seed in range(6)]
    for seed in range(6, 60):  # until a game ends with a bonus
        if BonusAward.objects.exists():
            break
        games.append(play_random_game(seed)[0])
    unfinished = services.game_start(kind="scarney-solitaire", seats=[{"name": "Una"}])
    rng = random.Random(5)
    match = services.match_start(format="scarney-solitaire", players=[{"name": "Mia"}])
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(5):
            game = services.game_start(kind="scarney-solitaire", seats=None, match_id=match.pk)
            play_out(game.pk, rng, undo_rate=0)
    finished = BonusAward.objects.order_by("id").values_list("game_id", flat=True).first()
    assert finished is not None
    return {"finished": finished, "unfinished": unfinished.pk, "match": match.pk}


def verify_projections_fails() -> str:
    err = io.StringIO()
    with pytest.raises(CommandError) as failed:
        call_command("verify_events", "--projections", stdout=io.StringIO(), stderr=err)
    return f"{failed.value}\n{err.getvalue()}"


def test_every_read_model_equals_a_refold_of_the_events(club: dict[str, Any]) -> None:
    out, err = io.StringIO(), io.StringIO()

    call_command("verify_events", "--projections", stdout=out, stderr=err)

    assert "0 problem(s)" in out.getvalue()
    assert "read model" in out.getvalue()
    assert err.getvalue() == ""


def _scores(game: uuid.UUID) -> None:
    summary = GameSummary.objects.get(pk=game)
    summary.scores[0]["total"] += 10
    GameSummary.objects.filter(pk=game).update(scores=summary.scores)


def _bonus_points(game: uuid.UUID) -> None:
    award = BonusAward.objects.filter(game_id=game).first()
    BonusAward.objects.filter(pk=award.pk).update(points=award.points + 5)


def _record(player: int) -> None:
    PlayerRecord.objects.filter(pk=player).update(points_total=999)


def _standing(match: uuid.UUID) -> None:
    MatchStanding.objects.filter(pk=match).update(rating="grand master")


ALTERATIONS: list[tuple[str, Callable[[dict[str, Any]], Any], str]] = [
    (
        "a summary's scores",
        lambda club: _scores(club["finished"]),
        "game summary {finished}: scores",
    ),
    (
        "a summary's status",
        lambda club: GameSummary.objects.filter(pk=club["unfinished"]).update(status="finished"),
        "game summary {unfinished}: status",
    ),
    (
        "a missing summary",
        lambda club: GameSummary.objects.filter(pk=club["unfinished"]).delete(),
        "game summary {unfinished}: missing",
    ),
    (
        "a bonus award's points",
        lambda club: _bonus_points(club["finished"]),
        "bonus award of game {finished} seat 0",
    ),
    (
        "a missing bonus award",
        lambda club: BonusAward.objects.filter(game_id=club["finished"]).last().delete(),
        "bonus award of game {finished} seat 0",
    ),
    (
        "a match standing's rating",
        lambda club: _standing(club["match"]),
        "match standing {match}: rating",
    ),
    (
        "a player record",
        lambda club: _record(club["player"]),
        "player record {player}: points_total",
    ),
]


@pytest.mark.parametrize(
    ("name", "alter", "expected"), ALTERATIONS, ids=[a[0] for a in ALTERATIONS]
)
def test_an_altered_read_model_row_is_named_with_its_field(
    club: dict[str, Any], name: str, alter: Callable[[dict[str, Any]], Any], expected: str
) -> None:
    club["player"] = GameSummary.objects.get(pk=club["finished"]).game.seats.get().player_id
    call_command("verify_events", "--projections", stdout=io.StringIO())  # clean at first

    alter(club)

    report = verify_projections_fails()
    assert expected.format(**club) in report
    call_command("verify_events", stdout=io.StringIO())  # the events themselves are fine


def test_verify_events_without_projections_does_not_read_the_read_models(club: Any) -> None:
    GameSummary.objects.filter(pk=club["unfinished"]).update(status="finished")

    call_command("verify_events", stdout=io.StringIO())
