"""A database connection that went away (PostgreSQL restarted, a restore ended the sessions) is
never a 500: a read is run once more on a new connection, anything else is 503 with
``Retry-After`` (games/api/http/exceptions.py ``RetryDroppedConnection``).

The test's own session is ended by PostgreSQL (``pg_terminate_backend`` from another
connection) between two requests, as a restore does to a web process's idle connections."""

from __future__ import annotations

import uuid
from typing import Any

import psycopg
import pytest
from django.db import connection
from django.test import Client
from rest_framework.test import APIClient

from tests.scoring.test_player_history import sheet_match

pytestmark = pytest.mark.django_db(transaction=True)


def end_this_session() -> None:
    """PostgreSQL ends the test's connection, as ``pg_terminate_backend`` does in a restore."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    settings = connection.settings_dict
    other = psycopg.connect(
        host=settings["HOST"] or "127.0.0.1",
        port=settings["PORT"] or 5432,
        user=settings["USER"],
        password=settings["PASSWORD"] or None,
        dbname=settings["NAME"],
        autocommit=True,
    )
    with other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


def test_a_read_meeting_a_dropped_connection_is_answered_from_a_new_one(
    api: APIClient, user: Any
) -> None:
    # given a match, and the connection ended by the server since the last request
    match = sheet_match("Ann", [116, 63], user=user)
    before = api.get(f"/api/v1/matches/{match}/history/")
    assert before.status_code == 200
    end_this_session()
    # when the match and its history are read
    for url in (f"/api/v1/matches/{match}/", f"/api/v1/matches/{match}/history/"):
        answer = api.get(url)
        # then the read was run again on a new connection and answered
        assert answer.status_code == 200, (url, answer.content)
        end_this_session()
    assert api.get(f"/api/v1/matches/{match}/history/").json() == before.json()


def test_a_write_meeting_a_dropped_connection_is_503_with_retry_after(
    api: APIClient, user: Any
) -> None:
    # given a match, and the connection ended by the server since the last request
    match = sheet_match("Ann", [116], user=user)
    end_this_session()
    # when a score is posted
    event = {"id": str(uuid.uuid4()), "type": "game.scored", "data": {"scores": [36]}}
    answer = api.post(f"/api/v1/matches/{match}/events/", event, format="json")
    # then it is refused for now in the house's shape, never run twice behind the client's back
    assert answer.status_code == 503
    assert answer["Retry-After"] == "2"
    assert answer.json()["code"] == "service.database_unavailable"
    # and sent again, it is recorded once
    again = api.post(f"/api/v1/matches/{match}/events/", event, format="json")
    assert again.status_code == 201, again.json()
    assert api.get(f"/api/v1/matches/{match}/").json()["version"] == 3


def test_a_page_meeting_a_dropped_connection_is_read_again_or_503_in_html(user: Any) -> None:
    # given a player's page and a logged-in keeper
    sheet_match("Ann", [116], user=user)
    from games.store.models import Player

    page = f"/players/{Player.objects.get(name='Ann').pk}/"
    browser = Client()
    browser.force_login(user)
    end_this_session()
    # when the page is read after the server ended the connection, then it is shown
    assert browser.get(page).status_code == 200
    # and a form posted after it is answered 503 in HTML, with Retry-After
    end_this_session()
    answer = browser.post("/games/new/", {"kind": "scarney-solitaire"})
    assert answer.status_code == 503
    assert answer["Retry-After"] == "2"
    assert answer["Content-Type"].startswith("text/html")


def test_a_second_drop_on_the_read_run_again_is_503(api: APIClient, user: Any) -> None:
    # given a match, and a connection that drops on every request
    match = sheet_match("Ann", [116], user=user)
    from games.api.http import exceptions

    calls = 0
    original = exceptions.RetryDroppedConnection.process_exception

    def dropping(self: Any, request: Any, exc: Exception) -> Any:
        nonlocal calls
        calls += 1
        answer = original(self, request, exc)
        if calls == 1:
            end_this_session()  # the new connection is ended too before the second run
        return answer

    exceptions.RetryDroppedConnection.process_exception = dropping  # type: ignore[method-assign]
    try:
        end_this_session()
        answer = api.get(f"/api/v1/matches/{match}/history/")
    finally:
        exceptions.RetryDroppedConnection.process_exception = original  # type: ignore[method-assign]
    # then it is run once more only, and answered 503
    assert calls == 2
    assert answer.status_code == 503 and answer.json()["code"] == "service.database_unavailable"


def test_a_drop_met_outside_the_views_is_503_not_500() -> None:
    # given the connection ended by the server, met where no view runs (a middleware's
    # response step), which Django answers with handler500
    from django.test import RequestFactory

    from games.api.http import errors

    end_this_session()
    request = RequestFactory().get("/api/v1/matches/")
    answer = None
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception:  # noqa: BLE001 - handler500 is called while the error is handled
        answer = errors.server_error(request)
    # then the answer is the 503, and the next statement has a new connection
    assert answer is not None and answer.status_code == 503 and answer["Retry-After"] == "2"
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
