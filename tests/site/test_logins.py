"""Passwords cannot be guessed at speed: every login form counts failures per account and per
address (games/access/logins.py), answers a locked login with its own page, 429 and
Retry-After, and logs each failure, lock and refusal. API tokens are untouched."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from rest_framework.test import APIClient

from games.access.logins import client_address
from games.access.models import ApiToken

pytestmark = pytest.mark.django_db

PASSWORD = "secret-pass-1"
ROOM = "203.0.113.7"  # a club's phones, all behind one address
ELSEWHERE = "198.51.100.9"
FORMS = ["/accounts/login/", "/admin/login/", "/api-auth/login/"]


@pytest.fixture
def accounts(db: Any) -> list[Any]:
    """Two accounts; staff, so that the admin's form lets them in too."""
    make = get_user_model().objects.create_user
    return [make(username=name, password=PASSWORD, is_staff=True) for name in ("keeper", "tia")]


def attempt(form: str, username: str, password: str, address: str = ROOM) -> Any:
    client = Client(REMOTE_ADDR=address)
    client.get(form)  # a visitor opens the form first
    response = client.post(form, {"username": username, "password": password})
    response.logged_in = "_auth_user_id" in client.session  # type: ignore[attr-defined]
    return response


def guess(form: str, username: str, times: int, address: str = ROOM) -> list[Any]:
    return [attempt(form, username, "not-the-password", address) for _ in range(times)]


def assert_locked(response: Any, sentence: str) -> None:
    lock = settings.LOGIN_LOCK_MINUTES * 60
    assert response.status_code == 429
    assert not response.logged_in
    assert 0 < int(response["Retry-After"]) <= lock
    page = response.content.decode()
    assert sentence in page
    assert 'name="password"' in page  # the form's own page, to try again later


@pytest.mark.parametrize("form", FORMS)
def test_sixty_wrong_passwords_lock_the_account_not_the_room(accounts: Any, form: str) -> None:
    limit = settings.LOGIN_FAILURES_PER_ACCOUNT
    answers = guess(form, "keeper", 60)
    assert [r.status_code for r in answers[: limit - 1]] == [200] * (limit - 1)
    assert {r.status_code for r in answers[limit - 1 :]} == {429}
    # The sixty-first, right password is refused all the same, from here or from anywhere.
    assert_locked(attempt(form, "keeper", PASSWORD), "Too many wrong passwords for this account")
    assert_locked(attempt(form, "keeper", PASSWORD, ELSEWHERE), "for this account")
    # Another account of the same room logs in.
    assert attempt(form, "tia", PASSWORD).logged_in


@pytest.mark.parametrize("form", FORMS)
def test_a_lock_lapses_when_its_retry_after_says(accounts: Any, form: str) -> None:
    guess(form, "keeper", settings.LOGIN_FAILURES_PER_ACCOUNT)
    from axes.models import AccessAttempt  # noqa: PLC0415  (an app of the settings)

    refused = attempt(form, "keeper", PASSWORD)
    assert refused.status_code == 429
    # The span passes (its failures age by the Retry-After given): the right password works.
    waited = timedelta(seconds=int(refused["Retry-After"]) + 1)
    for row in AccessAttempt.objects.all():
        AccessAttempt.objects.filter(pk=row.pk).update(attempt_time=row.attempt_time - waited)
    assert attempt(form, "keeper", PASSWORD).logged_in


def test_an_address_guessing_at_every_account_is_locked_and_no_other(accounts: Any) -> None:
    names = [f"member{n}" for n in range(settings.LOGIN_FAILURES_PER_ADDRESS)]
    answers = [attempt("/accounts/login/", name, "password1") for name in names]
    assert answers[-1].status_code == 429
    assert_locked(attempt("/admin/login/", "tia", PASSWORD), "from this address")
    assert attempt("/api-auth/login/", "tia", PASSWORD, ELSEWHERE).logged_in


def test_failures_locks_and_refusals_are_logged(
    accounts: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    guess("/admin/login/", "keeper", settings.LOGIN_FAILURES_PER_ACCOUNT)
    attempt("/admin/login/", "keeper", PASSWORD)
    lines = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    failures = [line for line in lines if "login failure by" in line and '"keeper"' in line]
    assert len(failures) == settings.LOGIN_FAILURES_PER_ACCOUNT
    assert all(ROOM in line and "/admin/login/" in line for line in failures)
    assert any("Locking out" in line and '"keeper"' in line for line in lines)
    assert any("login refused (locked)" in line and "'keeper'" in line for line in lines)


def test_a_locked_accounts_api_token_still_works(accounts: Any) -> None:
    _token, key = ApiToken.objects.issue(accounts[0])
    guess("/api-auth/login/", "keeper", settings.LOGIN_FAILURES_PER_ACCOUNT)
    api = APIClient(REMOTE_ADDR=ROOM)
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    answer = api.post(
        "/api/v1/games/", {"kind": "scarney-solitaire", "seats": [{"name": "Tia"}]}, format="json"
    )
    assert answer.status_code == 201


def test_behind_a_front_each_client_counts_for_itself(accounts: Any) -> None:
    fronted = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    with override_settings(REST_FRAMEWORK=fronted):
        client = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=f"10.0.0.1, {ROOM}")
        request = client.get("/accounts/login/").wsgi_request
        assert client_address(request) == ROOM
    # Without a trusted front, a client's own X-Forwarded-For is ignored.
    client = Client(REMOTE_ADDR=ELSEWHERE, HTTP_X_FORWARDED_FOR=ROOM)
    assert client_address(client.get("/accounts/login/").wsgi_request) == ELSEWHERE
