"""A table page's poll without a browser (API.md "Pages"): 304 from the page's tag while nothing
it shows has moved, a new page when anything of its family has (a move, a line, a take-back, the
tournament taking the result), permission before state; the installable app's files."""

from __future__ import annotations

import json
import re
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.staticfiles import finders
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.play import services
from games.rules.events import UNDO
from tests.games.tournaments.helpers import HL_WIN, client_for, create, enter, pair, sheet_line


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page_tag(html: str, element: str) -> str:
    found = re.search(rf'id="{element}"[^>]*data-etag="([^"]*)"', html, re.S)
    assert found, f"no tag on #{element}"
    return found.group(1).replace("&quot;", '"')


def throw(game: Any, user: Any, faces: list[str]) -> None:
    services.event_record(
        stream_id=game.pk,
        event_id=uuid.uuid4(),
        type="dice.thrown",
        data={"faces": faces},
        user=user,
    )


@pytest.fixture
def game(user: Any) -> Any:
    return services.game_start(kind="scarney-3000", seats=[{"name": "A"}, {"name": "B"}], user=user)


def test_the_tables_poll_is_304_until_a_move_or_a_take_back(user: Any, game: Any) -> None:
    keeper = logged_in(user)
    tag = page_tag(keeper.get(f"/games/{game.pk}/").content.decode(), "table")
    poll = f"/games/{game.pk}/table/"
    idle = keeper.get(poll, HTTP_IF_NONE_MATCH=tag)
    assert idle.status_code == 304 and idle["ETag"] == tag and idle.content == b""
    # another device's move: the next poll draws the table anew, under a new tag
    throw(game, user, ["1", "1", "1", "6", "D"])
    moved = keeper.get(poll, HTTP_IF_NONE_MATCH=tag)
    assert moved.status_code == 200 and moved["ETag"] != tag
    assert moved["X-Table-Version"] == "2"
    assert page_tag(moved.content.decode(), "table") == moved["ETag"]
    assert keeper.get(poll, HTTP_IF_NONE_MATCH=moved["ETag"]).status_code == 304
    # a take-back moves it again, though it makes no new position
    services.event_record(stream_id=game.pk, event_id=uuid.uuid4(), type=UNDO, data={}, user=user)
    undone = keeper.get(poll, HTTP_IF_NONE_MATCH=moved["ETag"])
    assert undone.status_code == 200 and undone["ETag"] not in (tag, moved["ETag"])


def test_an_idle_poll_folds_nothing_and_reads_the_tag_in_one_query(user: Any, game: Any) -> None:
    keeper = logged_in(user)
    poll = f"/games/{game.pk}/table/"
    tag = keeper.get(poll)["ETag"]
    keeper.get(poll, HTTP_IF_NONE_MATCH=tag)  # the session and the user read once
    with CaptureQueriesContext(connection) as queries:
        assert keeper.get(poll, HTTP_IF_NONE_MATCH=tag).status_code == 304
    read = [q["sql"] for q in queries.captured_queries]
    assert not any("games_event" in sql for sql in read), read  # no fold
    assert sum("LEFT JOIN games_stream t" in sql for sql in read) == 1, read
    # the stream's row without its snapshot, the session, the user, the permission, the tag
    assert len(read) <= 5 and not any('"snapshot"' in sql for sql in read), read


def test_the_poll_asks_permission_before_it_says_anything(user: Any, game: Any) -> None:
    tag = logged_in(user).get(f"/games/{game.pk}/table/")["ETag"]
    stranger = get_user_model().objects.create_user(username="stranger", password="x-pass-123")
    # the right tag from someone who may not read the game in progress: never a 304
    assert (
        logged_in(stranger).get(f"/games/{game.pk}/table/", HTTP_IF_NONE_MATCH=tag).status_code
        == 403
    )
    assert Client().get(f"/games/{game.pk}/table/", HTTP_IF_NONE_MATCH=tag).status_code == 401


def test_the_tag_names_its_reader(user: Any, game: Any) -> None:
    director = get_user_model().objects.create_user(
        "director", password="x-pass-123", is_staff=True
    )
    mine = logged_in(user).get(f"/games/{game.pk}/table/")["ETag"]
    theirs = logged_in(director).get(f"/games/{game.pk}/table/")["ETag"]
    assert mine != theirs  # each draws other controls: one's copy is never the other's 304


def test_a_match_page_follows_its_lines_and_a_navigation_is_never_answered_304(user: Any) -> None:
    match = services.match_start(
        format="high-low-scarney",
        players=[{"name": "Ann"}, {"name": "Bob"}],
        entry="sheet",
        user=user,
    )
    keeper = logged_in(user)
    opened = keeper.get(f"/matches/{match.pk}/")
    # the tag is in the page, not in a header a browser would revalidate a reload with
    assert "ETag" not in opened
    tag = page_tag(opened.content.decode(), "followed")
    assert keeper.get(f"/matches/{match.pk}/", HTTP_IF_NONE_MATCH=tag).status_code == 304
    line = {"id": str(uuid.uuid4()), "expected_version": "1", "score_0": "34", "score_1": "0"}
    assert logged_in(user).post(f"/matches/{match.pk}/lines/", line).status_code == 201
    moved = keeper.get(f"/matches/{match.pk}/", HTTP_IF_NONE_MATCH=tag)
    assert moved.status_code == 200 and moved["ETag"] != tag
    assert 'data-game="1"' in moved.content.decode()


@pytest.mark.django_db
def test_the_pages_are_an_installable_app(client: Client) -> None:
    home = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in home
    assert "{#" not in home and "{%" not in home  # no template comment shown as text
    assert re.search(r'<meta name="description" content="[^"]{50,}">', home)
    manifest = client.get("/manifest.webmanifest")
    assert manifest["Content-Type"] == "application/manifest+json"
    shown = json.loads(manifest.content)
    assert shown["display"] == "standalone" and shown["start_url"] == "/" and shown["name"]
    sizes = {icon["sizes"] for icon in shown["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in shown["icons"]:
        assert found_static(icon["src"]).read_bytes()[:4] == b"\x89PNG", icon
    worker = client.get("/sw.js")
    assert worker.status_code == 200
    assert worker["Content-Type"].startswith("text/javascript")
    assert worker["Service-Worker-Allowed"] == "/"
    assert "/static/games/table.js" in worker.content.decode()


@pytest.mark.django_db
def test_the_favicon_is_there_for_every_page_the_admins_too(client: Client) -> None:
    answer = client.get("/favicon.ico")
    assert answer.status_code == 302
    assert found_static(answer["Location"]).read_bytes()[:4] == b"\x00\x00\x01\x00"  # an ICO


def found_static(url: str) -> Path:
    """The static file a URL names, as the static storage finds it."""
    path = finders.find(url.removeprefix(settings.STATIC_URL).removeprefix("/static/"))
    assert path, f"no static file at {url}"
    return Path(path)


@pytest.mark.django_db
def test_a_tournament_page_follows_its_current_round() -> None:
    director, api = client_for("director", staff=True)
    made = create(api, format="high-low-scarney", rounds=1)
    enter(api, made["id"], ["Ann", "Bob"])
    match = pair(api, made["id"])["tables"][0]["match"]
    reader = logged_in(director)
    page = f"/tournaments/{made['id']}/"
    tag = page_tag(reader.get(page).content.decode(), "followed")
    assert reader.get(page, HTTP_IF_NONE_MATCH=tag).status_code == 304
    assert sheet_line(api, match, HL_WIN).status_code == 201
    # the scoreboard's tag, kept for half a second in the shared cache, moves within 2 s
    deadline = time.monotonic() + 2
    while (answer := reader.get(page, HTTP_IF_NONE_MATCH=tag)).status_code == 304:
        assert time.monotonic() < deadline, "the tournament's page never moved"
    assert answer.status_code == 200 and answer["ETag"] != tag
