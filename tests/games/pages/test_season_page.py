"""A season's page (API.md "Seasons": ``/seasons/{id}/``): its standings explained, each player's
evenings with the counted ones marked, the leaders' chart; a season the reader may not read is
not there; the tournament page and the home page link to it. One browser test at a phone's and a
desktop's size."""

from __future__ import annotations

import re
import time
from contextlib import nullcontext
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from games.store.models import Season
from games.tournaments import season_standings, seasons
from tests.games.pages.browsing import check_page
from tests.games.pages.conftest import SIZES, dict_of
from tests.games.tournaments.helpers import client_for, create, enter, high_low_win, pair

SHOTS = Path("/tmp/season-shots")
NAMES = ["Ann", "Bob", "Cid", "Dee"]
# Each evening's two tables, winner first: Ann plays (and wins) twice, loses once.
EVENINGS = [
    [("Ann", "Bob"), ("Cid", "Dee")],
    [("Cid", "Ann"), ("Bob", "Dee")],
    [("Ann", "Dee"), ("Bob", "Cid")],
]


def evening(api: Any, name: str, ids: dict[str, int], tables: Any, capture: Any) -> str:
    """One round of High-Low by sheet, each table's winner as given."""
    made = create(api, name=name, format="high-low-scarney", system="swiss", rounds=1)
    if not ids:
        ids.update(zip(NAMES, enter(api, made["id"], NAMES), strict=True))
    else:
        for player in ids.values():
            answer = api.post(
                f"/api/v1/tournaments/{made['id']}/entries/", {"player": player}, format="json"
            )
            assert answer.status_code == 201, answer.json()
    played = pair(api, made["id"], tables=[[ids[a], ids[b]] for a, b in tables])
    for table, (winner, _loser) in zip(played["tables"], tables, strict=True):
        seat = next(s["seat"] for s in table["seats"] if s["player"] == ids[winner])
        high_low_win(api, table["match"], seat, capture)
    return str(made["id"])


def make_season(capture: Any, published: bool = True) -> dict[str, Any]:
    """Three evenings of four in a season counting each player's best two, field points."""
    director, api = client_for("director", staff=True)
    season = seasons.season_create(
        spec={
            "name": "Winter 2027",
            "format": "high-low-scarney",
            "counting": {"best": 2},
            "points": "field",
            "published": published,
        },
        user=director,
    )
    ids: dict[str, int] = {}
    evenings = []
    for number, tables in enumerate(EVENINGS, start=1):
        tournament = evening(api, f"Evening {number}", ids, tables, capture)
        seasons.tournament_add(season_id=season.pk, tournament_id=tournament, user=director)
        evenings.append(tournament)
    return {"season": season, "director": director, "evenings": evenings, "ids": ids}


def text_of(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


@pytest.fixture
def season(db: Any, django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    return make_season(django_capture_on_commit_callbacks)


def test_the_season_page_shows_its_standings_counted_evenings_and_chart(
    season: dict[str, Any],
) -> None:
    # given the season's standings as the API gives them
    shown = Season.objects.get(pk=season["season"].pk)
    answer = season_standings.standings_json(shown, None)
    assert len(answer["rows"]) == 4 and answer["evenings"] == 3
    # when a visitor opens its page
    response = Client().get(f"/seasons/{shown.pk}/")
    # then it shows every row with its place, label, points, evenings played / counted
    assert response.status_code == 200
    html = response.content.decode()
    text = text_of(html)
    for row in answer["rows"]:
        found = re.search(rf'<tr data-player="{row["player"]}"><td>(\d+)</td>.*?</tr>', html)
        assert found and int(found.group(1)) == row["place"]
        points = f"{row['points']:g}"
        assert f"<strong>{points}</strong></td><td>{row['evenings']} / {row['counted']}" in (
            found.group(0)
        )
    assert "Winter 2027" in text and "High-Low Scarney" in text
    assert answer["explain"]["counted"] in text and answer["explain"]["points"] in text
    # Ann played three evenings and two count: one cell of hers is marked "not counted"
    counted = sum(row["counted"] for row in answer["rows"])
    assert html.count('data-counted="true"') == counted
    played = sum(row["evenings"] for row in answer["rows"])
    assert html.count('data-counted="false"') == played - counted > 0
    assert "Bold with a tick" in text  # the legend says what the mark means
    assert html.count('class="series"') == 4  # the leaders' lines: the top rows, at most 5
    assert f'href="/api/v1/seasons/{shown.pk}/standings.pdf"' in html
    assert f'href="/api/v1/seasons/{shown.pk}/standings.csv"' in html
    # a conditional request while nothing moved is answered 304
    again = Client().get(f"/seasons/{shown.pk}/", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304


def test_the_tournament_page_and_the_home_page_link_the_season(season: dict[str, Any]) -> None:
    link = f'href="/seasons/{season["season"].pk}/"'
    tournament = Client().get(f"/tournaments/{season['evenings'][0]}/")
    assert tournament.status_code == 200 and link in tournament.content.decode()
    home = Client().get("/")
    assert home.status_code == 200 and link in home.content.decode()


def test_an_open_tournament_page_follows_its_evening_into_and_out_of_the_season(
    season: dict[str, Any],
) -> None:
    # given a visitor's open page of an evening of the season, and its tag
    page = f"/tournaments/{season['evenings'][0]}/"
    link = f'href="/seasons/{season["season"].pk}/"'
    first = Client().get(page, HTTP_IF_NONE_MATCH='W/"none"')  # a poll: answered with its tag
    assert link in first.content.decode()
    # when the evening leaves the season
    seasons.tournament_remove(
        season_id=season["season"].pk, tournament_id=season["evenings"][0], user=season["director"]
    )
    # then his next poll (the board's figures are kept half a second) is a new page, unlinked
    deadline = time.monotonic() + 10
    again = Client().get(page, HTTP_IF_NONE_MATCH=first["ETag"])
    while again.status_code == 304 and time.monotonic() < deadline:
        again = Client().get(page, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and link not in again.content.decode()


def test_an_open_season_page_follows_its_standings(season: dict[str, Any]) -> None:
    # given a visitor's open season page: its followed part names its own poll and tag
    url = f"/seasons/{season['season'].pk}/"
    first = Client().get(url)
    html = first.content.decode()
    assert f'data-follow-url="{url}"' in html
    assert f'data-etag="{unescape(first["ETag"])}"' in unescape(html)
    # while nothing moves, the page's poll (live.js, If-None-Match) is answered 304
    assert Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    # when an evening leaves the season, the next poll draws the standings anew
    seasons.tournament_remove(
        season_id=season["season"].pk, tournament_id=season["evenings"][0], user=season["director"]
    )
    deadline = time.monotonic() + 10
    again = Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    while again.status_code == 304 and time.monotonic() < deadline:
        again = Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and again["ETag"] != first["ETag"]
    assert 'id="followed"' in again.content.decode()


def test_a_closed_season_is_not_listed_on_the_home_page(season: dict[str, Any]) -> None:
    seasons.season_close(season_id=season["season"].pk, user=season["director"])
    home = Client().get("/").content.decode()
    assert f'href="/seasons/{season["season"].pk}/"' not in home
    assert Client().get(f"/seasons/{season['season'].pk}/").status_code == 200


def test_an_unpublished_season_is_not_there_for_a_visitor(
    db: Any, django_capture_on_commit_callbacks: Any
) -> None:
    made = make_season(django_capture_on_commit_callbacks, published=False)
    url = f"/seasons/{made['season'].pk}/"
    assert Client().get(url).status_code == 404
    assert f'href="{url}"' not in Client().get("/").content.decode()
    tournament = Client().get(f"/tournaments/{made['evenings'][0]}/").content.decode()
    assert f'href="{url}"' not in tournament  # the evening is public, its season is not
    director = Client()
    director.force_login(made["director"])
    assert director.get(url).status_code == 200


def test_the_season_page_in_a_browser_at_a_phones_and_a_desktops_size(
    page: Any, transactional_db: Any, axe_script: str
) -> None:
    made = make_season(lambda execute: nullcontext())
    page.goto(f"/seasons/{made['season'].pk}/")
    rows = page.locator('[data-role="season-standings"] tbody tr')
    assert rows.count() == 4
    assert page.locator('[data-role="evenings"] td[data-counted="true"] strong').count() == 8
    assert "✓" in page.locator('[data-role="evenings"] td[data-counted="true"]').first.inner_text()
    assert page.locator('[data-role="chart"]').count() == 1
    check_page(page, axe_script, "season")
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in SIZES.values():
        page.set_viewport_size(dict_of((width, height)))
        # the evenings' grid scrolls within its box: the page itself never widens
        grid = page.locator('[data-role="evenings"]').locator("xpath=..")
        box = grid.bounding_box()
        assert box is not None and box["x"] + box["width"] <= width
        page.screenshot(path=str(SHOTS / f"season-{width}.png"), full_page=True)
