"""A table code opens one table, nothing else (API.md "Table codes and confirmed results"): its
browser records there, and whatever an account does is refused to it; wrong codes are counted
before they are looked up, so guesses sent at once get no more looks than the limit."""

from __future__ import annotations

import threading
import urllib.error
import urllib.request
import uuid
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client, override_settings

from games.access.models import ApiToken
from games.pages import tournament_tables
from games.store import shared_cache
from games.store.models import TableCode
from tests.games.tournaments.helpers import HL_WIN, client_for, create, enter, pair

NAMES = ["Ann", "Bob", "Cid", "Dee"]
REDIS_CACHE = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": settings.TEST_REDIS_URL,
        "KEY_PREFIX": "table-code-test",
    }
}


@pytest.fixture(autouse=True)
def no_misses_remembered() -> Iterator[None]:
    cache.clear()
    shared_cache.forget_outage()
    yield
    cache.clear()


def phone_at_a_table(db: Any) -> tuple[Client, dict[str, Any], dict[str, Any], Any]:
    """A browser that opened its table's card: the client, its CSRF headers, the table, and
    the director's client."""
    director = client_for("director", staff=True)[1]
    made = create(director, format="high-low-scarney", system="swiss", rounds=2)
    enter(director, made["id"], NAMES)
    table = pair(director, made["id"])["tables"][0]
    phone = Client(enforce_csrf_checks=True)
    assert phone.get(table["keeper_url"]).status_code == 302
    headers: dict[str, Any] = {"HTTP_X_CSRFTOKEN": phone.cookies["csrftoken"].value}
    return phone, headers, table, director


def test_a_table_codes_browser_makes_no_token_and_does_nothing_an_account_does(db: Any) -> None:
    phone, headers, table, director = phone_at_a_table(db)
    keeper = TableCode.objects.get(code=table["code"].replace("-", "")).keeper
    _other, other_api = client_for("sam")
    their_token = other_api.post("/api/v1/tokens/", {"name": "x", "scope": "read"}, format="json")
    json: dict[str, Any] = {"content_type": "application/json", **headers}
    refused = {
        "make a token": phone.post("/api/v1/tokens/", {"name": "mine", "scope": "write"}, **json),
        "list tokens": phone.get("/api/v1/tokens/"),
        "revoke a token": phone.delete(f"/api/v1/tokens/{their_token.json()['id']}/", **headers),
        "start a game": phone.post(
            "/api/v1/games/",
            {"kind": "high-low-scarney", "seats": [{"name": "A"}, {"name": "B"}]},
            **json,
        ),
        "start a match": phone.post(
            "/api/v1/matches/",
            {"format": "high-low-scarney", "players": [{"name": "A"}, {"name": "B"}]},
            **json,
        ),
        "name a keeper at its table": phone.post(
            f"/api/v1/matches/{table['match']}/keepers/", {"user": "sam"}, **json
        ),
    }
    for what, answer in refused.items():
        assert answer.status_code == 403, (what, answer.content)
        assert answer.json()["code"] == "permission.not_your_table", what
    assert not ApiToken.objects.filter(user=keeper).exists()
    # the game form of the home page says the same, on the page
    page = phone.post("/games/new/", {"kind": "high-low-scarney", "seats": "A\nB"}, **headers)
    assert page.status_code == 422 and b"one tournament table by its code" in page.content
    # and at its own table it records, and reads what it records
    line = {"id": str(uuid.uuid4()), "type": "game.scored", "data": {"scores": HL_WIN}}
    recorded = phone.post(f"/api/v1/matches/{table['match']}/events/", line, **json)
    assert recorded.status_code == 201, recorded.content
    assert phone.get(f"/api/v1/matches/{table['match']}/").status_code == 200
    assert phone.get(f"/matches/{table['match']}/").status_code == 200
    # an account's tokens are still its own business
    assert director.get("/api/v1/tokens/").status_code == 200


def test_a_table_codes_keeper_is_named_keeper_nowhere_else(db: Any) -> None:
    phone, headers, table, director = phone_at_a_table(db)
    keeper = TableCode.objects.get(code=table["code"].replace("-", "")).keeper.get_username()
    # given a member's own game, and the tournament's other table
    _member, member = client_for("sam")
    game = member.post(
        "/api/v1/games/",
        {"kind": "high-low-scarney", "seats": [{"name": "A"}, {"name": "B"}]},
        format="json",
    ).json()
    tid = TableCode.objects.get(keeper__username=keeper).tournament_id
    # when the code's keeper is named keeper of either
    named = member.post(f"/api/v1/games/{game['id']}/keepers/", {"user": keeper}, format="json")
    assigned = director.post(
        f"/api/v1/tournaments/{tid}/keepers/",
        {"round": 1, "table": 2, "user": keeper},
        format="json",
    )
    # then both are refused, and neither is opened to the card's code
    for answer in (named, assigned):
        assert answer.status_code == 422, answer.content
        assert answer.json()["code"] == "keeper.table_code"
    assert member.get(f"/api/v1/games/{game['id']}/keepers/").json()["keepers"] == []
    other_table = TableCode.objects.exclude(keeper__username=keeper).get(tournament_id=tid)
    line = {"id": str(uuid.uuid4()), "type": "game.scored", "data": {"scores": HL_WIN}}
    json: dict[str, Any] = {"content_type": "application/json", **headers}
    refused = phone.post(f"/api/v1/matches/{other_table.match_id}/events/", line, **json)
    assert refused.status_code == 403, refused.content


def guess_at_once(base_url: str, guesses: int, threads: int) -> Counter[int]:
    """``guesses`` wrong codes sent from ``threads`` threads released together: the statuses."""
    statuses: Counter[int] = Counter()
    lock, start = threading.Lock(), threading.Barrier(threads)

    def guesser(number: int) -> None:
        start.wait(timeout=30)
        for n in range(number, guesses, threads):
            code = f"ZZZZ{n:04d}".replace("0", "2").replace("1", "3")  # well formed, unknown
            try:
                with urllib.request.urlopen(f"{base_url}/t/{code}/", timeout=30) as answer:
                    status = answer.status
            except urllib.error.HTTPError as refused:
                status = refused.code
            with lock:
                statuses[status] += 1

    workers = [threading.Thread(target=guesser, args=(i,)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
    assert not any(worker.is_alive() for worker in workers)
    return statuses


@pytest.mark.parametrize("shared", [False, True], ids=["process", "redis"])
def test_wrong_codes_sent_at_once_get_exactly_the_allowed_looks(
    live_server: Any, shared: bool
) -> None:
    # given a live server and its count, in the process or in Redis
    with override_settings(CACHES=REDIS_CACHE) if shared else override_settings():
        cache.clear()
        # when 16 guessers send 48 wrong codes at once from one address
        statuses = guess_at_once(live_server.url, guesses=48, threads=16)
        cache.clear()
    # then exactly the allowed number were looked up (404), and every other was refused unlooked
    allowed = tournament_tables.WRONG_CODES_ALLOWED
    assert statuses == Counter({404: allowed, 429: 48 - allowed})
