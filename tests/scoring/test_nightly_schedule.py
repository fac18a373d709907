"""The club's nightly report (issue 13): beat's entry names the task that renders it, at the hour
the settings give, and the report's figures for a small evening worked out by hand from RULES.md.
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from celery.schedules import crontab
from django.conf import settings
from django.utils import timezone

from games.play import services
from scarney_site.celery import app
from scoring import tasks
from scoring.documents import nightly

# RULES.md B.3, High-Low Scarney: A (Ann) wins game 2 only, B (Bob) the other four.
HIGH_LOW_B3 = [[0, 21], [22, 0], [0, 44], [0, 26], [0, 23]]
# Study positions of one jump, C1 over C2 to C3, each leaving one pawn (RULES.md 2.5).
LONE_B1 = {"position": {"C1": "B1", "C2": "R2"}}
LONE_R3 = {"position": {"C1": "R3", "C2": "B1"}}


def test_beat_runs_the_nightly_report_task_a_quarter_past_midnight() -> None:
    # given the tasks the worker registers
    app.loader.import_default_modules()
    entry = settings.CELERY_BEAT_SCHEDULE["nightly-report"]
    # then beat's entry names the report's task, which exists, at 00:15 every day
    assert entry["task"] == tasks.nightly_report.name == "scoring.nightly_report"
    assert entry["task"] in app.tasks
    assert entry["schedule"] == crontab(hour=0, minute=15)
    assert not entry.get("args")  # beat leaves the day out: the task reports yesterday


def test_every_beat_entry_names_a_task_the_worker_has() -> None:
    app.loader.import_default_modules()
    for name, entry in settings.CELERY_BEAT_SCHEDULE.items():
        assert entry["task"] in app.tasks, name


@pytest.mark.django_db
def test_the_task_run_by_beat_reports_yesterday(settings: Any, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    yesterday = timezone.localdate() - timedelta(days=1)
    names = tasks.nightly_report()
    assert [name.rsplit("/", 1)[1] for name in names] == [
        f"{yesterday.isoformat()}.html",
        f"{yesterday.isoformat()}.pdf",
    ]


def study_game(name: str, setup: dict[str, Any]) -> None:
    game = services.game_start(kind="scarney-solitaire", seats=[{"name": name}], setup=setup)
    services.event_record(
        stream_id=game.pk, event_id=uuid.uuid4(), type="pawn.jumped", data={"from": 1, "to": 3}
    )


def high_low_b3() -> None:
    match = services.match_start(
        format="high-low-scarney", players=[{"name": "Ann"}, {"name": "Bob"}], entry="sheet"
    )
    for scores in HIGH_LOW_B3:
        services.event_record(
            stream_id=match.pk,
            event_id=uuid.uuid4(),
            type="game.scored",
            data={"scores": scores},
        )


@pytest.mark.django_db
def test_the_report_lists_the_evenings_best_scores_and_bonuses_as_worked_by_hand() -> None:
    # given an evening: two Solitaire studies of one jump each, and RULES.md B.3's match
    study_game("Sol", LONE_B1)  # lone B1: 40 - 1 = 39, black single pawn 20 x 1: 59
    study_game("Tia", LONE_R3)  # lone R3: 40 - 3 = 37, single pawn 10 x 3: 67
    # Ann: 22 + one game bonus 20 = 42; Bob: 21 + 44 + 26 + 23 = 114, four game bonuses 80 and
    # the match bonus 100 (no shutout: Ann scored) = 294
    high_low_b3()

    # when tonight's report is made
    report = nightly.report(timezone.localdate())

    # then the best scores are every game's and match's total, highest first
    assert [(row["name"], row["total"]) for row in report["best"]] == [
        ("Bob", 294),
        ("Tia", 67),
        ("Sol", 59),
        ("Ann", 42),
    ]
    assert [row["what"] for row in report["best"]] == [
        "High-Low Scarney match",
        "Scarney Solitaire game",
        "Scarney Solitaire game",
        "High-Low Scarney match",
    ]
    # and each kind of bonus scored: how often, its points, and by whom, by points
    bonuses = {row["label"]: (row["count"], row["points"], row["by"]) for row in report["bonuses"]}
    assert bonuses == {
        "Game bonus": (2, 20 + 80, "Ann, Bob"),
        "Match bonus": (1, 100, "Bob"),
        "Single pawn": (1, 30, "Tia"),
        "Black single pawn": (1, 20, "Sol"),
    }
    assert [row["points"] for row in report["bonuses"]] == [100, 100, 30, 20]
    # and the match's line names its winner and both totals
    (line,) = report["matches"]
    assert (line["winners"], line["totals"]) == ("Bob", "Bob 294, Ann 42")
    assert report["games_played"] == 2
