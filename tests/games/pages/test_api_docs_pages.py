"""The API's documentation pages load nothing from another host: they work offline, and a
reader's visit is told to no one else. ReDoc's script asks for its maker's logo on its CDN
whatever its options; the page's Content-Security-Policy stops that request in the browser."""

from __future__ import annotations

from typing import Any

import pytest

from tests.games.pages.conftest import SCREENSHOTS


@pytest.mark.parametrize(
    ("path", "shown"), [("/api/redoc/", "api-content"), ("/api/docs/", "swagger-ui")]
)
def test_the_api_docs_send_no_request_to_another_host(
    page: Any, live_server: Any, path: str, shown: str
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
    page.wait_for_selector(f".{shown}", state="attached", timeout=20000)
    page.wait_for_load_state("networkidle")
    page.screenshot(path=str(SCREENSHOTS / f"api-docs-{shown}.png"))
    assert elsewhere - stopped == set()
    if path == "/api/redoc/":
        assert "img-src 'self' data:" in answer.headers["content-security-policy"]
