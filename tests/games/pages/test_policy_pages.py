"""The site's Content-Security-Policy in a real browser: the login forms, the admin, the browsable
API and a printed document work under it with nothing refused (the ``page`` fixture fails a test
on any refusal), and a guessed password is answered on the form's own page."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tests.games.pages.conftest import PASSWORD
from tests.scoring.test_reports import sheet_match

pytestmark = pytest.mark.django_db(transaction=True)

FORMS = ["/accounts/login/", "/admin/login/", "/api-auth/login/"]


@pytest.fixture
def director(transactional_db: Any) -> Any:
    return get_user_model().objects.create_superuser("director", "", PASSWORD)


def log_in(page: Any, form: str, username: str, password: str) -> Any:
    page.goto(form)
    page.fill('input[name="username"]', username)
    page.fill('input[name="password"]', password)
    with page.expect_navigation():
        page.locator('[type="submit"]').first.click()
    return page


def policy_of(page: Any, path: str) -> str:
    return str(page.goto(path).headers["content-security-policy"])


@pytest.mark.parametrize("form", FORMS)
def test_a_login_form_works_and_tells_a_guesser_to_wait(
    page: Any, director: Any, form: str
) -> None:
    policy = policy_of(page, form)
    assert "script-src 'self';" in policy + ";" and "unsafe-inline" not in policy
    for _ in range(settings.LOGIN_FAILURES_PER_ACCOUNT):
        log_in(page, form, "director", "not-the-password")
    assert "Too many wrong passwords for this account" in page.locator("body").inner_text()
    log_in(page, form, "director", PASSWORD)  # the right one, refused while the lock holds
    assert "Too many wrong passwords" in page.locator("body").inner_text()
    assert page.url.endswith(form)


def test_the_admin_and_the_browsable_api_work_under_the_policy(page: Any, director: Any) -> None:
    log_in(page, "/admin/login/", "director", PASSWORD)
    for path in [
        "/admin/",
        "/admin/auth/user/",
        "/admin/auth/user/add/",
        "/admin/games/tournament/",
    ]:
        answer = page.goto(path)
        assert answer.status == 200, path
        assert "unsafe-inline" not in answer.headers["content-security-policy"]
    page.goto("/api/v1/")
    assert page.locator(".response-info").count() == 1


def test_a_printed_document_keeps_its_own_styles_and_no_other(page: Any, director: Any) -> None:
    api = APIClient()
    api.force_authenticate(director)
    match = sheet_match(api, [116, 45], sheet_entry_validation="lenient")
    log_in(page, "/accounts/login/", "director", PASSWORD)
    answer = page.goto(f"/api/v1/matches/{match}/score-sheet.html")
    assert answer.status == 200
    policy = answer.headers["content-security-policy"]
    assert "'sha256-" in policy and "unsafe-inline" not in policy
    # Its style block applied: the sheet's page is 60rem wide at most, as its stylesheet says.
    assert page.evaluate("getComputedStyle(document.body).maxWidth") == "960px"
