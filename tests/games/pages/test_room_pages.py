"""The room's screen and the director's way in a real browser (issue 27).

The scoreboard on a 1920 x 1080 screen holds an 8-player evening whole, in type read from across
the room, and shows 64 players in pages that turn by themselves (every second here: ``?turn=1``).
A director finds today's tournament on the home page and, on its admin page, every document and
screen of the evening, each of which answers with what it says it is.
"""

from __future__ import annotations

import time
from typing import Any

from django.test import Client

from tests.games.pages.browsing import check_page
from tests.games.pages.conftest import SCREENSHOTS
from tests.games.tournaments.helpers import client_for, create, enter, high_low_win, pair

ROOM = {"width": 1920, "height": 1080}
EIGHT = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
FIRST = ["Alexandra", "Bartholomew", "Cid", "Dee", "Evangeline", "Fay", "Gus", "Hal"]
LAST = ["Smith", "Jones", "Brown", "Taylor", "Wilson", "Davies", "Evans", "Thomas"]

# The rows (or cells) of ``selector`` drawn wholly inside the window: displayed, not cut.
INSIDE = """(selector) => [...document.querySelectorAll(selector)]
  .filter(e => e.offsetParent !== null)
  .map(e => [e, e.getBoundingClientRect()])
  .filter(([e, r]) => r.height > 0 && r.top >= 0 && r.left >= 0
          && r.bottom <= window.innerHeight && r.right <= window.innerWidth)
  .map(([e, r]) => e.textContent.trim())"""
TURNED = "(was) => document.querySelector('[data-role=\"scoreboard\"]').dataset.page !== was"
STANDING_NAMES = '[data-role="standings"] tbody th'
SEATED = "[data-table] th.board-name"


def evening(names: list[str]) -> tuple[Any, dict[str, Any]]:
    """A High-Low Swiss by sheet with ``names`` entered and round 1 paired, by a director."""
    _director, api = client_for("director", staff=True)
    made = create(api, name="Friday Swiss", format="high-low-scarney", system="swiss", rounds=3)
    enter(api, made["id"], names)
    pair(api, made["id"])
    return api, made


def px(page: Any, selector: str, css: str) -> float:
    """The smallest computed ``css`` (in px) of the displayed elements of ``selector``."""
    return float(
        page.evaluate(
            """([selector, css]) => Math.min(...[...document.querySelectorAll(selector)]
                 .filter(e => e.offsetParent !== null)
                 .map(e => parseFloat(getComputedStyle(e)[css])))""",
            [selector, css],
        )
    )


def test_an_eight_player_evening_fits_the_rooms_screen_whole(page: Any, axe_script: str) -> None:
    _api, made = evening(EIGHT)
    board = f"/tournaments/{made['id']}/scoreboard/"
    page.goto(board)
    check_page(page, axe_script, "scoreboard-8")  # a phone and a desktop: no sideways scroll, axe

    page.set_viewport_size(ROOM)
    page.goto(board)
    # every standings row and every seated player drawn inside the screen, nothing to scroll
    assert sorted(page.evaluate(INSIDE, STANDING_NAMES)) == sorted(EIGHT)
    assert sorted(page.evaluate(INSIDE, SEATED)) == sorted(EIGHT)
    assert page.evaluate("document.documentElement.scrollHeight") <= ROOM["height"]
    assert page.locator('[data-role="paging"]').count() == 0  # one page: nothing turns
    # in type read from across the room: rows of at least 80 px, names of at least 48 px
    assert px(page, STANDING_NAMES, "fontSize") >= 48
    assert px(page, '[data-role="standings"] tbody tr', "height") >= 80
    page.screenshot(path=str(SCREENSHOTS / "scoreboard-8-1920x1080.png"))


def test_sixty_four_players_show_in_pages_that_turn_by_themselves(page: Any) -> None:
    names = [f"{first} {last}" for first in FIRST for last in LAST]
    _api, made = evening(names)
    page.set_viewport_size(ROOM)
    page.goto(f"/tournaments/{made['id']}/scoreboard/?turn=1")
    pages = int(page.locator('[data-role="board"]').get_attribute("data-pages"))
    assert pages >= 2
    paging = page.locator('[data-role="paging"]')
    assert paging.is_visible() and paging.inner_text() == f"Page 1 of {pages}"

    # watch the screen until every page has shown, each page in turn within its second
    seen: set[str] = set()
    seated: set[str] = set()
    shown: list[int] = []
    deadline = time.monotonic() + 3 * pages + 5
    while len(set(shown)) < pages and time.monotonic() < deadline:
        number = int(page.locator('[data-role="scoreboard"]').get_attribute("data-page"))
        assert paging.inner_text() == f"Page {number} of {pages}"
        shown.append(number)
        seen.update(page.evaluate(INSIDE, STANDING_NAMES))
        seated.update(page.evaluate(INSIDE, SEATED))
        if number == 2:
            page.screenshot(path=str(SCREENSHOTS / "scoreboard-64-page-2-1920x1080.png"))
        page.wait_for_function(TURNED, arg=str(number), timeout=3000)
    # then every page was shown, and on them every player of the standings and every seat, whole
    assert sorted(set(shown)) == list(range(1, pages + 1)), shown
    assert seen == set(names)
    assert seated == set(names)
    # in type still read across the room: rows of 50 px, figures of 30 px
    assert px(page, '[data-role="board-page"].current tbody tr', "height") >= 50
    assert px(page, '[data-role="board-page"].current td.num', "fontSize") >= 30


def test_a_director_finds_the_evening_and_every_document_of_it(
    page: Any, live_server: Any, axe_script: str, django_capture_on_commit_callbacks: Any
) -> None:
    # given tonight's evening, its first table played, and the director logged in
    director, api = client_for("director", staff=True)
    made = create(api, name="Friday Swiss", format="high-low-scarney", system="swiss", rounds=3)
    enter(api, made["id"], ["Ann", "Bob", "Cid", "Dee"])
    played = pair(api, made["id"])
    high_low_win(api, played["tables"][0]["match"], 0, django_capture_on_commit_callbacks)
    client = Client()
    client.force_login(director)
    session = client.cookies["sessionid"].value
    page.context.add_cookies([{"name": "sessionid", "value": session, "url": live_server.url}])

    # the home page lists it, with its page, its scoreboard and the admin
    page.goto("/")
    today = page.locator('[data-role="today"]')
    assert "Friday Swiss" in today.inner_text()
    assert today.locator(f'a[href="/tournaments/{made["id"]}/scoreboard/"]').count() == 1
    check_page(page, axe_script, "home-director")
    today.locator('[data-link="admin"]').click()
    page.wait_for_selector('[data-role="documents"]')
    page.screenshot(path=str(SCREENSHOTS / "director-tournament-1280.png"), full_page=True)

    # every document and screen is linked: the room's two, the standings' three, the round's
    # cards (three) and its two tables' sheets (two each), and four players' slips (two each)
    links = page.locator('[data-role="documents"] a[data-document]')
    found = [(a.get_attribute("data-document"), a.get_attribute("href")) for a in links.all()]
    assert len(found) == 2 + 3 + 3 + 2 * 2 + 4 * 2
    # and each answers with what it is: a PDF, or a page (the 202 page while a file renders)
    for kind, href in found:
        answer = page.request.get(href, headers={"Accept": "text/html,application/pdf,*/*"})
        media = answer.headers["content-type"].split(";")[0]
        assert answer.status in (200, 202), (href, answer.status)
        wanted = "application/pdf" if kind == "pdf" and answer.status == 200 else "text/html"
        assert media == wanted, (href, answer.status, media)
        if media == "application/pdf":
            assert answer.body().startswith(b"%PDF")
