"""Suite-wide fixtures. The services are checked first: a missing one stops the run, loudly."""

from __future__ import annotations

import os
import uuid
from typing import Any

import psycopg
import pytest
import redis
from django.conf import settings
from hypothesis import settings as hypothesis_settings
from rest_framework.test import APIClient

# On CI the property tests draw the same examples every run, so a landing never hangs on luck;
# a local run draws new ones each time and so keeps looking for the next counterexample.
hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")

START_POSTGRES = "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start"
START_REDIS = 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no'


def pytest_sessionstart(session: pytest.Session) -> None:
    _require_postgres()
    _require_redis()


def _require_postgres() -> None:
    db = settings.DATABASES["default"]
    if db["ENGINE"] != "django.db.backends.postgresql":
        pytest.exit(f"The suite runs on PostgreSQL; DATABASE_URL points at {db['ENGINE']}.", 3)
    try:
        psycopg.connect(
            host=db["HOST"] or "127.0.0.1",
            port=db["PORT"] or 5432,
            user=db["USER"],
            password=db["PASSWORD"] or None,
            dbname="postgres",
            connect_timeout=3,
        ).close()
    except psycopg.Error as error:
        pytest.exit(
            f"PostgreSQL is not reachable at {db['HOST']}:{db['PORT']} ({error}).\n"
            f"Start it with: {START_POSTGRES}\nor set DATABASE_URL to a running server.",
            3,
        )


def _require_redis() -> None:
    try:
        redis.Redis.from_url(settings.TEST_REDIS_URL, socket_connect_timeout=3).ping()
    except redis.RedisError as error:
        pytest.exit(
            f"Redis is not reachable at {settings.TEST_REDIS_URL} ({error}).\n"
            f"Start it with: {START_REDIS}\nor set TEST_REDIS_URL to a running server.",
            3,
        )


@pytest.fixture
def user(db: Any) -> Any:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username="keeper", password="secret-pass-1")


@pytest.fixture
def api(user: Any) -> APIClient:
    """An API client logged in by token, as a score-keeper's device would be."""
    from games.access.models import ApiToken

    _token, key = ApiToken.objects.issue(user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


@pytest.fixture
def anon(db: Any) -> APIClient:
    return APIClient()


def new_id() -> str:
    return str(uuid.uuid4())


@pytest.fixture(autouse=True)
def _fresh_answers() -> None:
    """Each test starts with no kept answers (games/api/answer_cache.py is per process)."""
    from games.api.answer_cache import forget_all

    forget_all()
