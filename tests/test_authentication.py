"""Token authentication, cached per process, still refuses a revoked token."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

BODY = {"kind": "scarney-solitaire", "seats": [{"name": "Tia"}]}


def test_a_token_works_again_without_a_lookup(user: Any, django_assert_num_queries: Any) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    assert client.get("/api/v1/games/").status_code == 200
    with django_assert_num_queries(1):  # the page of games only
        assert client.get("/api/v1/games/").status_code == 200


def test_a_deleted_token_is_refused_at_once(user: Any) -> None:
    token = Token.objects.create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.post("/api/v1/games/", BODY, format="json").status_code == 201
    token.delete()
    response = client.post("/api/v1/games/", BODY, format="json")
    assert (
        response.status_code == 401 and response.json()["code"] == "request.authentication_failed"
    )


def test_a_deactivated_user_is_refused_at_once(user: Any) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    assert client.post("/api/v1/games/", BODY, format="json").status_code == 201
    user.is_active = False
    user.save()
    assert client.post("/api/v1/games/", BODY, format="json").status_code == 401
