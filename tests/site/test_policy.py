"""The Content-Security-Policy each answer carries (the browser tests in tests/games/pages run the
pages, the admin and the API docs under it and fail on any refusal)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

SITE = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "object-src": "'none'",
    "base-uri": "'self'",
    "frame-ancestors": "'none'",
    "form-action": "'self'",
}


def directives(answer: Any) -> dict[str, str]:
    policy = answer["Content-Security-Policy"]
    return dict(part.strip().split(" ", 1) for part in policy.split(";"))


@pytest.mark.parametrize(
    "path", ["/", "/accounts/login/", "/admin/login/", "/api-auth/login/", "/api/docs/"]
)
def test_the_pages_allow_no_inline_script_and_nothing_from_elsewhere(path: str) -> None:
    answer = Client().get(path)
    assert answer.status_code == 200
    assert directives(answer) == SITE


def test_swagger_uis_start_is_a_script_of_this_host() -> None:
    page = Client().get("/api/docs/").content.decode()
    assert "<script>" not in page and "<style>" not in page
    start = Client().get("/api/docs/?script=")
    assert start.status_code == 200 and start["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in start.content.decode()


def test_redoc_alone_is_allowed_inline_styles_and_its_worker() -> None:
    policy = directives(Client().get("/api/redoc/"))
    assert policy == {
        **SITE,
        "style-src": "'self' 'unsafe-inline'",
        "worker-src": "'self' blob:",
    }


def test_a_json_answer_goes_without_the_policy() -> None:
    answer = Client().get("/api/v1/", HTTP_ACCEPT="application/json")
    assert answer.status_code == 200
    assert "Content-Security-Policy" not in answer
