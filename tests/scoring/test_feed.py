"""The all-stream feed: every event once, and never past an event still being written."""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest
from django.db import connection, transaction
from rest_framework.test import APIClient

from games.play import services
from games.rules.base import Move
from games.store import journal
from games.store.models import Event
from tests.play import record

pytestmark = pytest.mark.django_db(transaction=True)

POSITION = {"C1": "B1", "C2": "R1", "C5": "Y2", "C9": "G4"}


@pytest.fixture
def user(db: Any) -> Any:
    """The feed is the directors' (every stream's events): the ``api`` client's user is staff."""
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(
        username="director", password="secret-pass-1", is_staff=True
    )


def study_game(name: str) -> uuid.UUID:
    game = services.game_start(
        kind="scarney-solitaire", seats=[{"name": name}], setup={"position": POSITION}
    )
    return game.pk


def until(done: Any, value: Any, seconds: float) -> Any:
    """``value()`` once ``done()`` holds, or as it stands when ``seconds`` have passed."""
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        time.sleep(0.1)
    return value()


def read_all(api: APIClient, after: int = 0, limit: int = 3) -> list[int]:
    seen: list[int] = []
    url: str | None = f"/api/v1/events/?after={after}&limit={limit}"
    while url:
        page = api.get(url).json()
        seen += [event["position"] for event in page["results"]]
        url = page["next"]
    return seen


def test_paging_through_the_feed_gives_every_event_exactly_once(api: APIClient) -> None:
    for name in ["Ada", "Ben", "Cy"]:
        record(study_game(name), Move("pawn.jumped", {"from": 1, "to": 3}))
    seen = read_all(api)
    assert sorted(seen) == sorted(Event.objects.values_list("position", flat=True))
    # three games of two events, and the register's: opened, then the three new players
    assert len(seen) == len(set(seen)) == 6 + 4
    assert read_all(api, after=seen[-1]) == []


def test_an_event_committed_behind_one_still_in_flight_waits_for_it(api: APIClient) -> None:
    # given two games, and a reader who has read everything so far
    first, second = study_game("Dee"), study_game("Eli")
    seen = read_all(api)
    written, release = threading.Event(), threading.Event()

    def slow_writer() -> None:
        # an append whose transaction stays open: its event has the lower position
        try:
            with transaction.atomic():
                record(first, Move("pawn.jumped", {"from": 1, "to": 3}))
                written.set()
                # held open until the reader has looked (a deadline, not a pause: on a loaded
                # machine the looking may take long)
                release.wait(120)
        finally:
            connection.close()

    writer = threading.Thread(target=slow_writer)
    writer.start()
    assert written.wait(120)

    # when another append commits first, with a higher position
    record(second, Move("pawn.jumped", {"from": 1, "to": 3}))

    # then the reader is not shown it yet (a position cursor would step past the first)
    assert read_all(api, after=seen[-1]) == []
    release.set()
    writer.join(120)
    assert not writer.is_alive()
    later = until(
        lambda: len(read_all(api, after=seen[-1])) == 2, lambda: read_all(api, after=seen[-1]), 60
    )
    positions = dict(Event.objects.filter(type="pawn.jumped").values_list("stream_id", "position"))
    assert later == [positions[first], positions[second]]
    assert positions[first] < positions[second]


@contextmanager
def write_transaction_in_another_database() -> Iterator[str]:
    """A write transaction (an xid assigned) held open in a throwaway database of the same
    server, as another application's or a migration's would be; its xid, as xid8 text."""
    settings = connection.settings_dict
    server: dict[str, Any] = {
        "host": settings["HOST"] or None,
        "port": settings["PORT"] or None,
        "user": settings["USER"] or None,
        "password": settings["PASSWORD"] or None,
    }
    name = f"feed_foreign_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(dbname=settings["NAME"], autocommit=True, **server) as admin:
        # template0: nobody connects to it, so a copy never waits on another's session
        admin.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
    try:
        with psycopg.connect(dbname=name, **server) as other:  # not autocommit: one transaction
            other.execute("CREATE TABLE scratch (n integer)")
            other.execute("INSERT INTO scratch VALUES (1)")
            row = other.execute("SELECT pg_current_xact_id()::text").fetchone()
            assert row is not None
            yield str(row[0])
            other.rollback()
    finally:
        with psycopg.connect(dbname=settings["NAME"], autocommit=True, **server) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def ndjson_positions(api: APIClient) -> list[int]:
    response: Any = api.get("/api/v1/events.ndjson?after=0")
    assert response.status_code == 200
    lines = b"".join(response.streaming_content).decode().splitlines()
    return [json.loads(line)["position"] for line in lines]


def test_a_write_transaction_open_in_another_database_does_not_hold_the_feed(
    api: APIClient,
) -> None:
    with write_transaction_in_another_database() as foreign:
        # given events appended after another database's write transaction began
        for name in ["Gus", "Hal", "Ivy"]:
            record(study_game(name), Move("pawn.jumped", {"from": 1, "to": 3}))
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_snapshot_xmin(pg_current_snapshot()) <= %s::xid8", [foreign])
            assert cursor.fetchone()[0], "the foreign transaction holds the server's xmin"
        every = sorted(Event.objects.values_list("position", flat=True))
        assert len(every) == 6 + 4  # three games of two events, the register's opening and three

        # when the feed is paged through while it stays open, then every event comes exactly once
        paged = until(lambda: sorted(read_all(api)) == every, lambda: read_all(api), 30)
        assert sorted(paged) == every and len(paged) == len(set(paged))
        streamed = until(
            lambda: sorted(ndjson_positions(api)) == every, lambda: ndjson_positions(api), 30
        )
        assert sorted(streamed) == every
        assert ndjson_positions(api) == paged  # in the same order


def test_a_reader_paging_beside_eight_writers_gets_every_event_exactly_once() -> None:
    # The mark is read from this database's backends a statement before the page: under real
    # concurrent appends (positions committing out of order) nothing is skipped or doubled.
    stop, errors = threading.Event(), []
    games = [study_game(f"Writer {i}") for i in range(8)]

    def write(game: uuid.UUID) -> None:
        try:
            while not stop.is_set():  # one jump, taken back, again and again
                record(game, Move("pawn.jumped", {"from": 1, "to": 3}))
                record(game, Move("move.undone", {"reason": "again"}))
        except BaseException as error:  # handed to the main thread, which asserts on it
            errors.append(error)
        finally:
            connection.close()

    writers = [threading.Thread(target=write, args=(game,), daemon=True) for game in games]
    for writer in writers:
        writer.start()
    seen: list[int] = []
    deadline = time.monotonic() + 4
    while time.monotonic() < deadline:
        seen += [row.position for row in journal.feed_page(seen[-1] if seen else 0, 7)]
    stop.set()
    for writer in writers:
        writer.join(60)
    assert not any(writer.is_alive() for writer in writers) and not errors, errors
    every = sorted(Event.objects.values_list("position", flat=True))
    while page := journal.feed_page(seen[-1] if seen else 0, 100):
        seen += [row.position for row in page]
    assert len(every) > 100  # the writers wrote while the reader paged
    assert len(seen) == len(set(seen))
    assert sorted(seen) == every


def test_the_feed_streams_as_ndjson(api: APIClient) -> None:
    record(study_game("Flo"), Move("pawn.jumped", {"from": 1, "to": 3}))

    def types() -> list[str]:
        response = api.get("/api/v1/events.ndjson?after=0")
        assert response.status_code == 200
        assert response["Content-Type"] == "application/x-ndjson"
        lines = b"".join(response.streaming_content).decode().splitlines()
        return [json.loads(line)["type"] for line in lines]

    # Flo is new: the register records her first (opened, then registered). The feed shows an
    # event once every transaction of this database older than its own has ended: waited for,
    # with a limit.
    expected = ["register.opened", "player.registered", "game.started", "pawn.jumped"]
    shown = until(lambda: types() == expected, types, 60)
    assert shown == expected


@pytest.mark.parametrize("query", ["after=abc", "after=-1", "after=999999999", "limit=0"])
def test_a_bad_cursor_is_a_400_with_a_code(api: APIClient, query: str) -> None:
    response = api.get(f"/api/v1/events/?{query}")
    assert response.status_code == 400 and response.json()["code"] == "query.bad_value"


def test_the_feed_needs_a_login(anon: Any) -> None:
    assert anon.get("/api/v1/events/").status_code == 401
    assert anon.get("/api/v1/events.ndjson").status_code == 401


def test_the_feed_is_the_directors(db: Any) -> None:
    # a member would read every game in progress, private play and member number through it
    from django.contrib.auth import get_user_model

    from games.access.models import ApiToken

    member = get_user_model().objects.create_user(username="member", password="secret-pass-1")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {ApiToken.objects.issue(member)[1]}")
    for path in ("/api/v1/events/", "/api/v1/events.ndjson"):
        refused = client.get(path)
        assert refused.status_code == 403, path
        assert refused.json()["code"] == "permission.director_only", path
