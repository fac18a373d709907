"""Kept answers (games/api/answer_cache.py): a repeated read of a player's history or of the match
list is given the body built for the same fingerprint, and any write, or any change of what the
reader may see, gives a body built anew."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.play import services
from games.store.models import Player, Stream
from scoring.projections import rebuild_all
from tests.games.tournaments.helpers import client_for, create, enter
from tests.scoring.test_outbox import finished_match
from tests.scoring.test_player_history import finished_game, sheet_match

pytestmark = pytest.mark.django_db


def read(client: APIClient, path: str, **extra: Any) -> tuple[Any, int]:
    """The answer to ``path`` and how many queries it cost."""
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(path, **extra)
    assert answer.status_code == 200, answer.content
    return answer, len(queries)


def add_game_score(match: uuid.UUID, total: int) -> None:
    services.event_record(
        stream_id=match, event_id=uuid.uuid4(), type="game.scored", data={"scores": [total]}
    )


def test_a_repeated_history_read_is_the_kept_body_and_a_new_game_is_seen(
    api: APIClient, user: Any
) -> None:
    match = sheet_match("Ida", [116], user=user)
    ida = Player.objects.get(name="Ida")
    path = f"/api/v1/players/{ida.pk}/history/"
    first, built = read(api, path)
    again, kept = read(api, path)
    # the same bytes and headers, without the page's statement
    assert again.content == first.content and again["ETag"] == first["ETag"]
    assert again["Content-Type"] == first["Content-Type"]
    assert kept == built - 1
    # a new line on the sheet: the fingerprint moves, the page is built anew
    add_game_score(match, 63)
    after, rebuilt = read(api, path)
    assert after.content != first.content and rebuilt == built
    assert [g["cumulative"] for g in after.json()["results"][0]["games"]] == [[116], [179]]
    # and a later game outside the match
    game = finished_game("Ida", 4)
    newest = read(api, path)[0].json()["results"][0]
    assert (newest["type"], newest["id"]) == ("game", str(game))


def test_readers_who_see_differently_do_not_share_a_kept_history(
    api: APIClient, anon: APIClient, user: Any
) -> None:
    finished_game("Jo", 5)
    sheet_match("Jo", [80], user=user)  # in progress: listed to its recorder only
    jo = Player.objects.get(name="Jo")
    path = f"/api/v1/players/{jo.pk}/history/"
    assert len(read(api, path)[0].json()["results"]) == 2
    assert len(read(anon, path)[0].json()["results"]) == 1
    assert len(read(api, path)[0].json()["results"]) == 2


def test_a_kept_answer_names_the_host_it_was_asked_on(
    api: APIClient, user: Any, settings: Any
) -> None:
    settings.ALLOWED_HOSTS = ["club.example", "scores.example"]
    for _ in range(3):
        sheet_match("Kim", [36], user=user)
    path = "/api/v1/matches/?limit=2"
    here = read(api, path, HTTP_HOST="club.example")[0].json()["next"]
    there = read(api, path, HTTP_HOST="scores.example")[0].json()["next"]
    assert here.startswith("http://club.example/") and there.startswith("http://scores.example/")


def test_a_repeated_match_list_is_the_kept_body_and_any_change_is_seen(
    api: APIClient, anon: APIClient, user: Any
) -> None:
    matches = [sheet_match("Lou", [116, 63, 36, 63, 116]) for _ in range(3)]
    path = "/api/v1/matches/"
    first, built = read(anon, path)
    again, kept = read(anon, path)
    assert again.content == first.content and kept == built - 1
    # a match made private leaves the anonymous list at once
    Stream.objects.filter(pk=matches[0]).update(is_public=False)
    ids = [row["id"] for row in read(anon, path)[0].json()["results"]]
    assert ids == [str(matches[2]), str(matches[1])]
    # a line recorded on a match of the page is seen, and the match comes first
    mine = sheet_match("Lou", [116], user=user)
    read(api, path)
    add_game_score(mine, 36)
    row = read(api, path)[0].json()["results"][0]
    assert row["id"] == str(mine) and row["standing"][0]["total"] == 152


def test_the_browsable_rendering_is_never_kept(anon: APIClient) -> None:
    sheet_match("Mo", [116, 63, 36, 63, 116])
    html = read(anon, "/api/v1/matches/", HTTP_ACCEPT="text/html")[0]
    assert html["Content-Type"].startswith("text/html")
    # the JSON answer after it is built (not the HTML one kept), and the next is kept
    first, built = read(anon, "/api/v1/matches/")
    again, kept = read(anon, "/api/v1/matches/")
    assert first["Content-Type"] == "application/json" and again.content == first.content
    assert kept == built - 1


def test_rebuilding_the_read_models_forgets_kept_answers(anon: APIClient) -> None:
    sheet_match("Ned", [116, 63, 36, 63, 116])
    built = read(anon, "/api/v1/matches/")[1]
    assert read(anon, "/api/v1/matches/")[1] == built - 1
    rebuild_all()
    assert read(anon, "/api/v1/matches/")[1] == built


def test_a_repeated_match_history_is_the_kept_body_and_a_new_line_is_seen(
    api: APIClient, user: Any
) -> None:
    match = sheet_match("Oz", [116, 63], user=user)  # in progress: read by its recorder
    path = f"/api/v1/matches/{match}/history/"
    first, built = read(api, path)
    again, kept = read(api, path)
    assert again.content == first.content and again["ETag"] == first["ETag"]
    assert kept < built
    add_game_score(match, 36)
    after = read(api, path)[0]
    assert after.content != first.content and len(after.json()["games"]) == 3


def test_repeated_standings_are_the_kept_body_and_each_entry_is_seen() -> None:
    director = client_for("director", staff=True)[1]
    made = create(director, format="high-low-scarney", system="swiss", rounds=2)
    path = f"/api/v1/tournaments/{made['id']}/standings/"
    enter(director, made["id"], ["Pat", "Quin"])
    first, built = read(director, path)
    again, kept = read(director, path)
    assert again.content == first.content and kept < built
    enter(director, made["id"], ["Rex"])
    names = [row["name"] for row in read(director, path)[0].json()["rows"]]
    assert sorted(names) == ["Pat", "Quin", "Rex"]


def test_a_kept_history_or_match_report_costs_the_token_and_one_statement(
    api: APIClient,
) -> None:
    # As many round trips as reading one row by its id after the login: the player's row and
    # his fingerprint, or the match's row and its games' fingerprint, are one statement each
    # (a match in progress adds the read rule's query: tests above).
    match = finished_match()
    player = Player.objects.get(name="A")
    for path in (f"/api/v1/players/{player.pk}/history/", f"/api/v1/matches/{match}/history/"):
        first, _ = read(api, path)
        again, kept = read(api, path)
        assert again.content == first.content and again["ETag"] == first["ETag"]
        assert kept == 2, path


def test_a_match_report_and_a_history_of_no_such_row_are_404(api: APIClient) -> None:
    for path in (f"/api/v1/players/{10**9}/history/", f"/api/v1/matches/{uuid.uuid4()}/history/"):
        answer = api.get(path)
        assert answer.status_code == 404 and answer.json()["code"] == "not_found", path
