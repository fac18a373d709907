"""API tokens: kept hashed, expiring, refused at once by every process once revoked."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone
from rest_framework.request import Request
from rest_framework.test import APIClient, APIRequestFactory

from games.access.models import ApiToken
from games.api.http.authentication import HashedTokenAuthentication

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]
BODY = {"kind": "scarney-solitaire", "seats": [{"name": "Tia"}]}


def client_for(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def refused(response: Any) -> bool:
    return (
        response.status_code == 401 and response.json()["code"] == "request.authentication_failed"
    )


def test_a_token_costs_one_query(user: Any, django_assert_num_queries: Any) -> None:
    token, key = ApiToken.objects.issue(user)
    request = Request(APIRequestFactory().get("/", HTTP_AUTHORIZATION=f"Token {key}"))
    with django_assert_num_queries(1) as captured:  # the token with its user
        found_user, found_token = HashedTokenAuthentication().authenticate(request)
        assert (found_user, found_token) == (user, token)
        assert found_token.user is found_user  # no second query for the user
    (query,) = captured.captured_queries
    assert "t.digest = " in query["sql"]  # unique: an index lookup
    # every field as the ORM reads it: typed, time-zone aware
    assert found_token.expires == token.expires and found_token.expires.tzinfo is not None
    assert (found_user.username, found_user.is_active, found_user.date_joined) == (
        user.username,
        user.is_active,
        user.date_joined,
    )


def test_the_database_holds_no_usable_key(user: Any) -> None:
    token, key = ApiToken.objects.issue(user)
    dump = io.StringIO()
    call_command("dumpdata", stdout=dump)
    assert key not in dump.getvalue()
    assert token.digest in dump.getvalue()  # what is stored is the hash ...
    assert refused(client_for(token.digest).post("/api/v1/games/", BODY, format="json"))  # useless
    assert client_for(key).post("/api/v1/games/", BODY, format="json").status_code == 201


def test_a_revoked_token_is_refused_at_once(user: Any) -> None:
    token, key = ApiToken.objects.issue(user)
    client = client_for(key)
    assert client.post("/api/v1/games/", BODY, format="json").status_code == 201
    token.delete()
    assert refused(client.post("/api/v1/games/", BODY, format="json"))


@pytest.mark.django_db(transaction=True)
def test_a_token_revoked_by_another_process_is_refused_at_once(user: Any) -> None:
    _token, key = ApiToken.objects.issue(user)
    client = client_for(key)
    assert client.post("/api/v1/games/", BODY, format="json").status_code == 201
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "scarney_site.settings", "DATABASE_URL": url}
    revoke = subprocess.run(
        [sys.executable, "manage.py", "revoke_tokens", user.username],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert revoke.returncode == 0 and "Revoked 1 token" in revoke.stdout, revoke.stderr
    assert refused(client.post("/api/v1/games/", BODY, format="json"))


def test_an_expired_token_is_refused(user: Any) -> None:
    token, key = ApiToken.objects.issue(user, lifetime=timedelta(minutes=5))
    client = client_for(key)
    assert client.get("/api/v1/games/").status_code == 200
    ApiToken.objects.filter(pk=token.pk).update(expires=timezone.now() - timedelta(seconds=1))
    response = client.post("/api/v1/games/", BODY, format="json")
    assert refused(response) and response.json()["detail"] == "The token has expired."


def test_a_deactivated_user_is_refused_at_once(user: Any) -> None:
    _token, key = ApiToken.objects.issue(user)
    client = client_for(key)
    assert client.post("/api/v1/games/", BODY, format="json").status_code == 201
    user.is_active = False
    user.save()
    assert refused(client.post("/api/v1/games/", BODY, format="json"))


def test_an_unknown_key_is_refused(db: Any) -> None:
    assert refused(client_for("no-such-key").post("/api/v1/games/", BODY, format="json"))


def test_revoke_tokens_revokes_every_token_of_the_user(user: Any, capsys: Any) -> None:
    keys = [ApiToken.objects.issue(user)[1] for _ in range(2)]
    call_command("revoke_tokens", user.username)
    assert "Revoked 2 token(s)" in capsys.readouterr().out
    for key in keys:
        assert refused(client_for(key).post("/api/v1/games/", BODY, format="json"))
