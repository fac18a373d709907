"""Browser tests of the live-table pages: Playwright drives Debian's chromium at a live server.

Never downloads a browser: a missing /usr/bin/chromium fails the tests with how to install it.
axe-core comes from the npm registry into var/axe (made here when missing, as .ci/run does).
Screenshots of every page, at a phone's and a desktop's size, go to var/screenshots/.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ASYNC_UNSAFE = "DJANGO_ALLOW_ASYNC_UNSAFE"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ROOT = Path(__file__).resolve().parents[3]
AXE = ROOT / "var" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
SCREENSHOTS = ROOT / "var" / "screenshots"
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
PASSWORD = "secret-pass-1"
# Every refusal of the page's Content-Security-Policy, reported to the test (an init script and a
# binding run outside the page's policy): a page, the admin or the API docs that needs an inline
# script or style, or anything from another host, fails its test.
WATCH_POLICY = """document.addEventListener("securitypolicyviolation", (e) =>
  window.reportPolicyViolation(`${e.effectiveDirective} refused ${e.blockedURI || "inline"} `
                               + `at ${e.sourceFile}:${e.lineNumber} on ${document.URL}`));"""


# One browser per module: Playwright's event loop lives as long as it does, and the tests of
# other directories must run without one (they keep Django's async guard).
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.fail(
            "The browser tests need Debian's chromium at /usr/bin/chromium: install it with "
            "`apt-get install -y chromium` (.ci/run does). Never `playwright install`.",
            pytrace=False,
        )
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread while the browser lives; the ORM
    # calls of the tests (and the database flush after each) are still plain synchronous calls
    # between browser steps, so Django's async guard has nothing to protect. Set for as long as
    # the browser lives only: the deploy check of another test must not inherit it.
    previous = os.environ.get(ASYNC_UNSAFE)
    os.environ[ASYNC_UNSAFE] = "true"
    try:
        with sync_playwright() as playwright:
            launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            yield launched
            launched.close()
    finally:
        if previous is None:
            os.environ.pop(ASYNC_UNSAFE, None)
        else:
            os.environ[ASYNC_UNSAFE] = previous


@pytest.fixture(scope="session")
def axe_script() -> str:
    """axe-core's script, installed from the npm registry into var/axe when missing."""
    if not AXE.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.fail("The accessibility check needs npm (apt-get install -y npm).", False)
        subprocess.run(
            [npm, "install", "--prefix", str(AXE.parents[2]), "axe-core@4", "--no-audit"],
            check=True,
            capture_output=True,
            timeout=120,
        )
    return AXE.read_text()


@pytest.fixture
def keeper(transactional_db: Any) -> Any:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username="keeper", password=PASSWORD)


@pytest.fixture
def policy_refused() -> list[str]:
    """What the Content-Security-Policy refused in the ``page`` tab (asserted empty after it)."""
    return []


def quiet_database(seconds: float = 10) -> None:
    """Wait until no request of the closed tab is still at work in the database: the test's
    flush (a TRUNCATE of every table) beside a poll still answering deadlocked once on a loaded
    machine. Polled with a deadline; a request that outlives it is the flush's to meet."""
    from django.db import connection

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute(BUSY_BACKENDS)
            if cursor.fetchone()[0] == 0:
                return
        time.sleep(0.05)


BUSY_BACKENDS = """SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()
  AND pid <> pg_backend_pid() AND state IN ('active', 'idle in transaction')"""


@pytest.fixture
def page(browser: Any, live_server: Any, policy_refused: list[str]) -> Iterator[Any]:
    """A fresh browser tab (its own cookies and localStorage), not logged in."""
    context = browser.new_context(base_url=live_server.url, viewport=dict_of(SIZES["phone"]))
    context.set_default_timeout(8000)
    refused = watch_policy(context, policy_refused)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    yield tab
    context.close()
    quiet_database()
    assert not errors, f"script errors in the page: {errors}"
    assert not refused, f"the Content-Security-Policy refused: {refused}"


def watch_policy(context: Any, refused: list[str] | None = None) -> list[str]:
    """Collects, for the context's life, what the pages' Content-Security-Policy refused."""
    refused = [] if refused is None else refused
    context.expose_function("reportPolicyViolation", lambda text: refused.append(text))
    context.add_init_script(WATCH_POLICY)
    context.on(
        "console",
        lambda message: (
            refused.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return refused


@pytest.fixture
def keeper_page(page: Any, keeper: Any, live_server: Any) -> Any:
    """The tab logged in as ``keeper`` through the session cookie Django's client makes."""
    from django.test import Client

    client = Client()
    client.force_login(keeper)
    cookie = client.cookies["sessionid"]
    page.context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])
    return page


def dict_of(size: tuple[int, int]) -> dict[str, int]:
    return {"width": size[0], "height": size[1]}
