"""The API's documentation pages load nothing from another host: they work offline, and a
reader's visit is told to no one else. ReDoc's script asks for its maker's logo on its CDN
whatever its options; the page's Content-Security-Policy stops that request in the browser. Both
pages run under the site's policy: no inline script (Swagger UI's start is a file of its own)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.games.pages.conftest import SCREENSHOTS


@pytest.mark.parametrize(
    ("path", "shown"), [("/api/redoc/", "api-content"), ("/api/docs/", "swagger-ui")]
)
def test_the_api_docs_send_no_request_to_another_host(
    page: Any, live_server: Any, policy_refused: list[str], path: str, shown: str
) -> None:
    elsewhere: set[str] = set()
    stopped: set[str] = set()

    def asked(request: Any) -> None:
        if not request.url.startswith((live_server.url, "data:", "blob:")):
            elsewhere.add(request.url)

    def failed(request: Any) -> None:
        if request.failure == "csp":  # blocked in the browser: it never left
            stopped.add(request.url)

    page.on("request", asked)
    page.on("requestfailed", failed)
    answer = page.goto(path)
    attached(page, f".{shown}", seconds=20)
    page.wait_for_load_state("networkidle")
    page.screenshot(path=str(SCREENSHOTS / f"api-docs-{shown}.png"))
    assert elsewhere - stopped == set()
    # The only refusals are those requests, stopped: no inline script or style was needed.
    unexpected = [said for said in policy_refused if not any(url in said for url in stopped)]
    assert unexpected == []
    policy_refused.clear()
    if path == "/api/redoc/":
        assert "img-src 'self' data:" in answer.headers["content-security-policy"]


def attached(page: Any, selector: str, seconds: float) -> None:
    """Wait, asking from here, for the selector to match. Playwright's own waits poll inside the
    page, and ReDoc's page starves them: its content is there long before they see it."""
    deadline = time.monotonic() + seconds
    while page.locator(selector).count() == 0:
        assert time.monotonic() < deadline, f"{selector} never appeared"
        page.wait_for_timeout(200)
