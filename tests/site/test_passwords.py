"""Passwords are checked by Django's four validators wherever one is chosen: the admin's forms
refuse a common, a numeric or a too-short password, or one like the account's name."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.test import Client

from games.demo.loading import DEMO_PASSWORD, DEMO_USER

pytestmark = pytest.mark.django_db

REFUSED = {
    "password": "too common",
    "12345678": "entirely numeric",
    "hanna-2": "too short",
    "hannalindqvist": "too similar to the username",
}


@pytest.fixture
def director(db: Any) -> Client:
    admin = get_user_model().objects.create_superuser("director", "", "secret-pass-1")
    client = Client()
    client.force_login(admin)
    return client


@pytest.mark.parametrize(("password", "reason"), REFUSED.items())
def test_the_admin_refuses_a_weak_password_for_a_new_account(
    director: Client, password: str, reason: str
) -> None:
    form = {"username": "hannalindqvist", "password1": password, "password2": password}
    answer = director.post("/admin/auth/user/add/", {**form, "usable_password": "true"})
    assert answer.status_code == 200
    assert reason in answer.content.decode()
    assert not get_user_model().objects.filter(username="hannalindqvist").exists()


@pytest.mark.parametrize(("password", "reason"), REFUSED.items())
def test_the_admin_refuses_a_weak_password_for_an_account(
    director: Client, password: str, reason: str
) -> None:
    hanna = get_user_model().objects.create_user("hannalindqvist", password="secret-pass-1")
    form = {"password1": password, "password2": password, "usable_password": "true"}
    answer = director.post(f"/admin/auth/user/{hanna.pk}/password/", form)
    assert answer.status_code == 200
    assert reason in answer.content.decode()
    hanna.refresh_from_db()
    assert hanna.check_password("secret-pass-1")


@pytest.mark.parametrize("password", ["password", "12345678", "director1"])
def test_a_director_changing_his_own_password_cannot_choose_a_weak_one(
    director: Client, password: str
) -> None:
    form = {"old_password": "secret-pass-1", "new_password1": password, "new_password2": password}
    answer = director.post("/admin/password_change/", form)
    assert answer.status_code == 200
    assert "errorlist" in answer.content.decode()
    assert get_user_model().objects.get(username="director").check_password("secret-pass-1")


def test_a_good_password_is_taken_and_the_demos_passes() -> None:
    validate_password(DEMO_PASSWORD, get_user_model()(username=DEMO_USER))
    validate_password("secret-pass-1", get_user_model()(username="keeper"))
