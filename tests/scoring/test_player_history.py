"""A player's history (API.md): matches and games, newest first, by kind and date, paged."""

from __future__ import annotations

import datetime as dt
import random
import uuid
from typing import Any

import pytest
from rest_framework.test import APIClient

from games import services
from games.models import Player
from tests.play import play_out

pytestmark = pytest.mark.django_db


def finished_game(name: str, seed: int, user: Any = None) -> uuid.UUID:
    game = services.game_start(kind="scarney-solitaire", seats=[{"name": name}], user=user)
    play_out(game.pk, random.Random(seed), undo_rate=0)
    return game.pk


def sheet_match(name: str, totals: list[int], user: Any = None) -> uuid.UUID:
    # A match in progress is listed to its recorders (and directors): ``user`` creates it.
    match = services.match_start(
        format="scarney-solitaire", players=[{"name": name}], entry="sheet", user=user
    )
    for total in totals:
        services.event_record(
            stream_id=match.pk,
            event_id=uuid.uuid4(),
            type="game.scored",
            data={"scores": [total]},
        )
    return match.pk


def history(client: APIClient, player: Player, **params: Any) -> Any:
    return client.get(f"/api/v1/players/{player.pk}/history/", params)


def test_matches_and_games_are_listed_newest_first_with_the_seats_held(
    api: APIClient, user: Any
) -> None:
    first = finished_game("Ann", 1)
    match = sheet_match("Ann", [116, 63], user=user)
    last = finished_game("Ann", 2)
    finished_game("Bob", 3)  # someone else's
    ann = Player.objects.get(name="Ann")
    body = history(api, ann).json()
    assert body["player"] == {"id": ann.pk, "name": "Ann"}
    assert [(r["type"], r["id"]) for r in body["results"]] == [
        ("game", str(last)),
        ("match", str(match)),
        ("game", str(first)),
    ]
    match_row = body["results"][1]
    assert [g["cumulative"] for g in match_row["games"]] == [[116], [179]]
    assert all(r["seats"] == [0] for r in body["results"])
    assert body["next"] is None


def test_the_history_pages_on_with_a_cursor_and_filters_by_kind_and_date(api: APIClient) -> None:
    games = [finished_game("Cy", seed) for seed in range(5)]
    cy = Player.objects.get(name="Cy")
    seen: list[str] = []
    page = history(api, cy, limit=2).json()
    while True:
        seen += [row["id"] for row in page["results"]]
        if page["next"] is None:
            break
        page = api.get(page["next"]).json()
    assert seen == [str(g) for g in reversed(games)]
    assert history(api, cy, kind="scarney-singles").json()["results"] == []
    today = dt.datetime.now(dt.UTC).date()
    assert len(history(api, cy, since=today.isoformat()).json()["results"]) == 5
    tomorrow = (today + dt.timedelta(days=1)).isoformat()
    assert history(api, cy, since=tomorrow).json()["results"] == []
    yesterday = (today - dt.timedelta(days=1)).isoformat()
    assert history(api, cy, until=yesterday).json()["results"] == []


def test_bad_parameters_are_refused_with_a_sentence(api: APIClient) -> None:
    finished_game("Di", 4)
    di = Player.objects.get(name="Di")
    for params in ({"since": "yesterday"}, {"limit": "0"}, {"limit": "x"}, {"cursor": "@@"}):
        answer = history(api, di, **params)
        assert answer.status_code == 400, params
    assert api.get("/api/v1/players/999999/history/").status_code == 404


def test_without_a_login_only_finished_public_rows_are_listed(
    api: APIClient, anon: APIClient, user: Any
) -> None:
    done = finished_game("Eve", 5)
    # in progress, listed to its creator
    services.game_start(kind="scarney-solitaire", seats=[{"name": "Eve"}], user=user)
    eve = Player.objects.get(name="Eve")
    assert len(history(api, eve).json()["results"]) == 2
    assert [r["id"] for r in history(anon, eve).json()["results"]] == [str(done)]
