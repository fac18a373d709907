"""Test settings: the project's settings on PostgreSQL, with Redis for the Celery tests.

The suite runs on the real services at their localhost defaults; DATABASE_URL and
TEST_REDIS_URL override them. Tasks run eagerly unless a test starts a real worker.
"""

import os

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/scarney")

from scarney_site.settings import *  # noqa: E402,F403

TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# One test client sends thousands of requests (the fuzz and property tests), all from 127.0.0.1;
# tests/games/api/test_throttling.py sets low rates where it needs them.
REST_FRAMEWORK = {  # noqa: F405
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": {"token": "1000000/m", "address": "1000000/m"},
}

# Eager tasks run in the committing thread: a test sees their effect when its append returns.
OUTBOX_INLINE = True

STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # noqa: F405  (whitenoise warns otherwise)
CHECK_DECLARED = True  # every saved event and game view checked against its declaration
