"""A match's history and score sheet (API.md): derived figures, bonuses, links, warnings."""

from __future__ import annotations

import csv
import io
import random
import uuid
from typing import Any

import pytest
from rest_framework.test import APIClient

from games import services
from tests.play import play_out

pytestmark = pytest.mark.django_db


def sheet_match(api: APIClient, totals: list[int], **ruleset: Any) -> str:
    body = {"format": "scarney-solitaire", "players": [{"name": "Sid"}], "entry": "sheet"}
    match = api.post("/api/v1/matches/", {**body, "ruleset": ruleset}, format="json").json()
    for total in totals:
        event = {"id": str(uuid.uuid4()), "type": "game.scored", "data": {"scores": [total]}}
        answer = api.post(f"/api/v1/matches/{match['id']}/events/", event, format="json")
        assert answer.status_code == 201, answer.json()
    return str(match["id"])


def test_the_history_lists_every_game_with_its_cumulative_score_and_its_warnings(
    api: APIClient,
) -> None:
    match = sheet_match(api, [116, 45, 94], sheet_entry_validation="lenient")
    history = api.get(f"/api/v1/matches/{match}/history/").json()
    assert [(g["number"], g["scores"], g["cumulative"]) for g in history["games"]] == [
        (1, [116], [116]),
        (2, [45], [161]),
        (3, [94], [255]),
    ]
    assert [g["game"] for g in history["games"]] == [None, None, None]
    assert history["games"][0]["warnings"] == [] and history["games"][2]["warnings"] == []
    (warning,) = history["games"][1]["warnings"]
    assert warning["code"] == "score.unattainable" and "45" in warning["message"]
    assert history["warnings"] == [warning]
    assert history["standing"][0]["match_score"] == 255 and history["settlement"] is None


def test_the_score_sheet_renders_as_csv_and_html_with_the_warnings(api: APIClient) -> None:
    match = sheet_match(api, [116, 45], sheet_entry_validation="lenient")
    answer = api.get(f"/api/v1/matches/{match}/score-sheet.csv")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(answer.content.decode())))
    assert rows[0] == ["Game", "Sid", "Warnings"]
    assert rows[1] == ["1", "116 - 116", ""]
    assert rows[2][:2] == ["2", "45 - 161"] and rows[2][2].startswith("score.unattainable: ")
    assert ["Match score", "161"] in rows and ["Total", "161"] in rows
    page = api.get(f"/api/v1/matches/{match}/score-sheet.html")
    assert page.status_code == 200 and page["Content-Type"].startswith("text/html")
    html = page.content.decode()
    assert "116 &ndash; 116" in html and "45 &ndash; 161" in html
    assert "Warning, game 2" in html and "score.unattainable" in html


def test_live_games_link_to_their_streams_and_carry_their_bonuses(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    match = services.match_start(format="scarney-solitaire", players=[{"name": "Liv"}])
    rng = random.Random(11)
    with django_capture_on_commit_callbacks(execute=True):
        games = []
        for _ in range(5):
            game = services.game_start(kind="scarney-solitaire", seats=None, match_id=match.pk)
            games.append((game.pk, play_out(game.pk, rng, undo_rate=0)))
    history = api.get(f"/api/v1/matches/{match.pk}/history/").json()
    for row, (game_id, folded) in zip(history["games"], games, strict=True):
        assert row["game"] == str(game_id) and row["url"] == f"/api/v1/games/{game_id}/"
        expected = [
            {"seat": 0, "kind": b.kind, "points": b.points}
            for b in folded.engine.rules.scores(folded.state)[0].bonuses
        ]
        assert row["bonuses"] == expected
    assert history["rating"] is not None


def test_reports_of_an_unknown_match_or_of_a_game_are_not_found(api: APIClient) -> None:
    game = api.post(
        "/api/v1/games/", {"kind": "scarney-solitaire", "seats": [{"name": "G"}]}, format="json"
    ).json()
    for url in (
        f"/api/v1/matches/{uuid.uuid4()}/history/",
        f"/api/v1/matches/{game['id']}/history/",
        f"/api/v1/matches/{uuid.uuid4()}/score-sheet.csv",
        f"/api/v1/matches/{game['id']}/score-sheet.html",
    ):
        assert api.get(url).status_code == 404, url


def test_an_unfinished_match_needs_a_login_to_be_read(api: APIClient, anon: APIClient) -> None:
    match = sheet_match(api, [116])
    answer = anon.get(f"/api/v1/matches/{match}/score-sheet.csv")
    assert answer.status_code == 401
