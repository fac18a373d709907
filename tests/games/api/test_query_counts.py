"""No N+1 queries: every list endpoint answers in as many queries with five rows as with two.

Each test measures a list with a few rows, adds rows of the same kind, and asserts that the
longer list takes no more queries (``django_assert_max_num_queries``) than the short one did,
and that the short one stays within a small fixed bound.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.store.models import Player
from games.tournaments import creating, entries, rounds
from tests.api_seed import SHEET, finished_game, sheet_match, tournament
from tests.games.tournaments.helpers import client_for

pytestmark = pytest.mark.django_db

FEED_BOUND = 5
BOUND = 20  # a generous fixed ceiling; what matters is that rows add none


@pytest.fixture
def director() -> tuple[Any, APIClient]:
    return client_for("director", staff=True)


def flat(
    api: APIClient, url: str, add: Callable[[], None], assert_max: Any, rows: Callable[[Any], int]
) -> None:
    """``url`` takes no more queries after ``add()`` than before, and lists more rows."""
    with assert_max(BOUND) as before:
        first = api.get(url)
    assert first.status_code == 200, first.content
    add()
    with assert_max(len(before.captured_queries)):
        second = api.get(url)
    assert second.status_code == 200, second.content
    assert rows(second.json()) > rows(first.json()) >= 2, (rows(first.json()), url)


def results(body: Any) -> int:
    return len(body["results"])


def test_games(director: Any, django_assert_max_num_queries: Any) -> None:
    user, api = director
    for seed in (1, 2):
        finished_game(f"P{seed}", seed, user)
    flat(
        api,
        "/api/v1/games/",
        lambda: [finished_game(f"Q{seed}", seed, user) for seed in (3, 4, 5)] and None,
        django_assert_max_num_queries,
        results,
    )


def test_matches_and_the_history_csv(
    director: Any, django_assert_max_num_queries: Any, django_capture_on_commit_callbacks: Any
) -> None:
    user, api = director

    def matches(count: int) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            for _ in range(count):
                sheet_match(["Ann", "Bob", "Cid"], SHEET, user)

    matches(2)
    flat(api, "/api/v1/matches/", lambda: matches(3), django_assert_max_num_queries, results)

    with django_assert_max_num_queries(BOUND) as before:
        b"".join(api.get("/api/v1/matches/history.csv").streaming_content)
    matches(3)
    with django_assert_max_num_queries(len(before.captured_queries)):
        lines = b"".join(api.get("/api/v1/matches/history.csv").streaming_content).splitlines()
    assert len(lines) == 1 + 8 * 3  # a header, and three seats of eight matches


def test_player_history_and_plays(
    director: Any, django_assert_max_num_queries: Any, django_capture_on_commit_callbacks: Any
) -> None:
    user, api = director

    def play(count: int) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            for seed in range(count):
                finished_game("Ann", seed, user)
                sheet_match(["Ann", "Bob", "Cid"], SHEET, user)

    play(1)
    ann = Player.objects.get(name="Ann").pk
    flat(
        api,
        f"/api/v1/players/{ann}/history/",
        lambda: play(2),
        django_assert_max_num_queries,
        results,
    )
    flat(
        api,
        f"/api/v1/players/{ann}/plays.json",
        lambda: play(2),
        django_assert_max_num_queries,
        lambda body: len(body["plays"]),
    )


def test_player_register(director: Any, django_assert_max_num_queries: Any) -> None:
    user, api = director
    for name in ("Ann", "Bob"):
        finished_game(name, 1, user)
    flat(
        api,
        "/api/v1/players/",
        lambda: [finished_game(name, 1, user) for name in ("Cid", "Dee", "Eve")] and None,
        django_assert_max_num_queries,
        results,
    )


def test_tournaments_rounds_and_standings(
    director: Any, django_assert_max_num_queries: Any
) -> None:
    user, api = director
    for number in range(2):
        tournament(user, [f"A{number}", f"B{number}", f"C{number}", f"D{number}"])
    flat(
        api,
        "/api/v1/tournaments/",
        lambda: [tournament(user, [f"E{n}", f"F{n}"]) for n in range(3)] and None,
        django_assert_max_num_queries,
        results,
    )
    # a round and the standings with four players, then with ten
    small = tournament(user, ["G", "H", "I", "J"])
    big = creating.tournament_create(
        spec={
            "name": "Big",
            "format": "high-low-scarney",
            "system": "swiss",
            "entry": "sheet",
            "rounds": 3,
        },
        user=user,
    )
    for name in "KLMNOPQRST":
        entries.entry_add(tournament_id=big.pk, spec={"name": name}, user=user)
    rounds.round_pair(tournament_id=big.pk, user=user)
    for path in ("rounds/1/", "standings/"):
        with django_assert_max_num_queries(BOUND) as before:
            assert api.get(f"/api/v1/tournaments/{small}/{path}").status_code == 200
        with django_assert_max_num_queries(len(before.captured_queries)):
            answer = api.get(f"/api/v1/tournaments/{big.pk}/{path}").json()
        assert len(answer.get("tables", answer.get("rows", []))) >= 5, path


def test_a_tournaments_events_export(director: Any, django_assert_max_num_queries: Any) -> None:
    user, api = director
    small = tournament(user, ["A", "B"])  # one table
    big = tournament(user, ["C", "D", "E", "F", "G", "H"])  # three tables

    def lines(pk: Any) -> int:
        answer = api.get(f"/api/v1/tournaments/{pk}/events.ndjson")
        assert answer.status_code == 200
        return len(b"".join(answer.streaming_content).splitlines())

    with django_assert_max_num_queries(BOUND) as before:
        few = lines(small)
    with django_assert_max_num_queries(len(before.captured_queries)):
        many = lines(big)
    assert many > few >= 2


def test_match_history(
    director: Any, django_assert_max_num_queries: Any, django_capture_on_commit_callbacks: Any
) -> None:
    user, api = director
    with django_capture_on_commit_callbacks(execute=True):
        short = sheet_match(["Ann", "Bob", "Cid"], SHEET[:2], user)
        long = sheet_match(["Ann", "Bob", "Cid"], SHEET, user)
    with django_assert_max_num_queries(BOUND) as before:
        assert api.get(f"/api/v1/matches/{short}/history/").status_code == 200
    # One more for the long match only: it is complete and settled, so its settlement is read
    # (the short one's fold says it has none, and no query is made for it).
    with django_assert_max_num_queries(len(before.captured_queries) + 1):
        answer = api.get(f"/api/v1/matches/{long}/history/").json()
    assert len(answer["games"]) == 5 and answer["settlement"] is not None


def caught_up(api: APIClient, count: int) -> None:
    """Wait until the feed shows ``count`` events: it reads below the oldest transaction in
    flight in this database, which another client's may hold back for a moment."""
    deadline = time.monotonic() + 20
    while len(api.get("/api/v1/events/?limit=1000").json()["results"]) < count:
        assert time.monotonic() < deadline, "the feed did not catch up within 20 s"
        time.sleep(0.2)


@pytest.mark.django_db(transaction=True)
def test_the_feed(director: Any, django_assert_max_num_queries: Any) -> None:
    # committed rows: the feed reads below the oldest transaction in flight
    user, api = director
    finished_game("Ann", 1, user)
    caught_up(api, 2)
    # A fixed small bound, below the number of events listed: an N+1 would break it.
    with django_assert_max_num_queries(FEED_BOUND):
        first = api.get("/api/v1/events/?limit=1000").json()["results"]
    for seed in (2, 3, 4):
        finished_game("Ann", seed, user)
    caught_up(api, len(first) + 3)
    with django_assert_max_num_queries(FEED_BOUND):
        second = api.get("/api/v1/events/?limit=1000").json()["results"]
    assert len(second) > len(first) > FEED_BOUND


def test_webhooks_and_their_deliveries(director: Any, django_assert_max_num_queries: Any) -> None:
    from games.webhooks import services as webhooks

    user, api = director

    def hooks(count: int) -> None:
        for n in range(count):
            webhooks.webhook_create(
                spec={"url": f"http://127.0.0.1:9/hooks/{n}", "events": ["round.paired"]},
                user=user,
            )

    hooks(2)
    flat(api, "/api/v1/webhooks/", lambda: hooks(3), django_assert_max_num_queries, results)
    # every round.paired event is due to every webhook: a delivery each
    hook = api.get("/api/v1/webhooks/").json()["results"][0]["id"]
    tournament(user, ["A", "B", "C", "D"])
    tournament(user, ["E", "F", "G", "H"])
    flat(
        api,
        f"/api/v1/webhooks/{hook}/deliveries/",
        lambda: [tournament(user, [f"I{n}", f"J{n}"]) for n in range(3)] and None,
        django_assert_max_num_queries,
        results,
    )


def test_the_streams_event_lists(
    director: Any, django_assert_max_num_queries: Any, django_capture_on_commit_callbacks: Any
) -> None:
    user, api = director
    from games.store.models import Stream

    games = [finished_game(name, seed, user) for name, seed in (("Ann", 1), ("Bob", 2), ("Cy", 3))]
    by_length = sorted(games, key=lambda pk: Stream.objects.get(pk=pk).version)
    short, long = by_length[0], by_length[-1]
    with django_capture_on_commit_callbacks(execute=True):
        few = sheet_match(["Ann", "Bob", "Cid"], SHEET[:2], user)
        many = sheet_match(["Ann", "Bob", "Cid"], SHEET, user)
    small = tournament(user, ["A", "B"])
    big = tournament(user, ["C", "D", "E", "F", "G", "H"])
    for fewer, more, base in ((short, long, "games"), (few, many, "matches"),
                              (small, big, "tournaments")):  # fmt: skip
        with django_assert_max_num_queries(BOUND) as before:
            first = api.get(f"/api/v1/{base}/{fewer}/events/")
        with django_assert_max_num_queries(len(before.captured_queries)):
            second = api.get(f"/api/v1/{base}/{more}/events/")
        assert first.status_code == second.status_code == 200, (base, second.content)
        assert results(second.json()) > results(first.json()) >= 2, base
