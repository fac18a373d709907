"""Request rates per token and per anonymous address: over the rate, 429 with Retry-After."""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from django.conf import settings
from django.core.cache import cache
from django.test import override_settings
from rest_framework.test import APIClient

from games.access.models import ApiToken
from games.store import shared_cache

pytestmark = pytest.mark.django_db

LOW = {"token": "3/m", "address": "2/m"}


def rates(num_proxies: int = 0, **given: str) -> Any:
    return override_settings(
        REST_FRAMEWORK={
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": given,
            "NUM_PROXIES": num_proxies,
        }
    )


@pytest.fixture(autouse=True)
def fresh_counts() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def by_token(user: Any) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {ApiToken.objects.issue(user)[1]}")
    return client


def assert_throttled(response: Any) -> None:
    assert response.status_code == 429, response.content
    assert response.json()["code"] == "request.throttled"
    assert 1 <= int(response["Retry-After"]) <= 60


def test_a_token_over_its_rate_is_answered_429_with_retry_after(user: Any) -> None:
    first, second = by_token(user), by_token(user)
    with rates(**LOW):
        for _ in range(3):
            assert first.get("/api/v1/games/").status_code == 200
        assert_throttled(first.get("/api/v1/games/"))
        assert_throttled(first.post("/api/v1/games/", {}, format="json"))
        # the count is the token's: the same user's other device, same address, goes on
        assert second.get("/api/v1/games/").status_code == 200


def test_an_anonymous_address_over_its_rate_is_answered_429_with_retry_after(db: Any) -> None:
    anon = APIClient()
    with rates(**LOW):
        for _ in range(2):
            assert anon.get("/api/v1/games/", REMOTE_ADDR="203.0.113.7").status_code == 200
        assert_throttled(anon.get("/api/v1/games/", REMOTE_ADDR="203.0.113.7"))
        assert anon.get("/api/v1/games/", REMOTE_ADDR="203.0.113.8").status_code == 200


def test_a_token_is_not_counted_against_its_address(user: Any) -> None:
    anon, device = APIClient(), by_token(user)
    with rates(**LOW):
        for _ in range(2):
            assert anon.get("/api/v1/games/").status_code == 200
        assert_throttled(anon.get("/api/v1/games/"))
        assert device.get("/api/v1/games/").status_code == 200  # same address 127.0.0.1


def test_behind_the_front_the_forwarded_address_is_counted(db: Any) -> None:
    front = APIClient()
    with rates(num_proxies=1, **LOW):
        for _ in range(2):
            assert (
                front.get("/api/v1/games/", HTTP_X_FORWARDED_FOR="198.51.100.1").status_code == 200
            )
        assert_throttled(front.get("/api/v1/games/", HTTP_X_FORWARDED_FOR="198.51.100.1"))
        # the front appends the address it saw; a client's own X-Forwarded-For is not believed
        spoofed = "198.51.100.9, 198.51.100.1"
        assert_throttled(front.get("/api/v1/games/", HTTP_X_FORWARDED_FOR=spoofed))
        assert front.get("/api/v1/games/", HTTP_X_FORWARDED_FOR="198.51.100.2").status_code == 200


def test_the_counts_are_shared_through_redis(user: Any) -> None:
    redis_cache = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": settings.TEST_REDIS_URL,
            "KEY_PREFIX": "throttle-test",
        }
    }
    client = by_token(user)
    with override_settings(CACHES=redis_cache), rates(**LOW):
        cache.clear()
        for _ in range(3):
            assert client.get("/api/v1/games/").status_code == 200
        assert_throttled(client.get("/api/v1/games/"))
        keys = redis.Redis.from_url(settings.TEST_REDIS_URL).keys("throttle-test:*throttle:token:*")
        assert len(keys) == 1
        cache.clear()


def test_without_a_rate_nothing_is_throttled(user: Any) -> None:
    client = by_token(user)
    with rates(token="", address=""):
        for _ in range(5):
            assert client.get("/api/v1/games/").status_code == 200


def test_without_redis_each_process_counts_and_the_log_says_so_once(
    user: Any, caplog: Any, monkeypatch: Any
) -> None:
    # given a cache on a port where nothing listens, asked again on every request
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    unreachable = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{port}/0",
        }
    }
    monkeypatch.setattr(shared_cache, "RETRY_AFTER", 0)
    caplog.set_level(logging.WARNING, logger=shared_cache.log.name)
    client, anon = by_token(user), APIClient()
    shared_cache.forget_outage()
    try:
        with override_settings(CACHES=unreachable), rates(**LOW):
            # then the rates hold, counted in this process, and nothing answers 500
            for _ in range(3):
                assert client.get("/api/v1/games/").status_code == 200
            assert_throttled(client.get("/api/v1/games/"))
            for _ in range(2):
                assert anon.get("/api/v1/games/", REMOTE_ADDR="203.0.113.30").status_code == 200
            assert_throttled(anon.get("/api/v1/games/", REMOTE_ADDR="203.0.113.30"))
    finally:
        shared_cache.forget_outage()
    lost = [r for r in caplog.records if r.name == shared_cache.log.name]
    assert [r.levelno for r in lost] == [logging.WARNING]
    assert "cannot be reached" in lost[0].getMessage()
