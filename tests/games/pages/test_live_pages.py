"""Table pages that follow their stream, and survive the room's network, in real browsers (API.md
"Pages"): two phones at one table see each other's moves, take-backs, the match's end with its
agree buttons and the confirmations within 2 s, with no reload; an idle page's polls are answered
304; a page opened once reloads with no network, queues a tap, and sends it once when the
network is back."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from games.play import services
from games.store.models import Event, Stream
from tests.games.pages.browsing import status_text, tap_move, throw
from tests.games.pages.conftest import SCREENSHOTS, SIZES, dict_of, watch_policy
from tests.games.tournaments.helpers import HL_WIN, client_for, create, enter, pair

SHOWN_WITHIN_MS = 2000  # the figure: another device's change shows within 2 s
# Set once the page has loaded; a reload would lose it.
MARK = "window.openedOnce = true"
NOT_RELOADED = "window.openedOnce === true"


class Phones:
    """Browser contexts logged in as one user, each with its own storage, its policy watched
    and its script errors kept; closed, and both asserted empty, at the end."""

    def __init__(self, browser: Any, live_server: Any, user: Any) -> None:
        self.browser, self.live_server, self.user = browser, live_server, user
        self.contexts: list[Any] = []
        self.refused: list[str] = []
        self.errors: list[str] = []

    def open(self, path: str) -> Any:
        client = Client()
        client.force_login(self.user)
        context = self.browser.new_context(
            base_url=self.live_server.url, viewport=dict_of(SIZES["phone"])
        )
        context.set_default_timeout(8000)
        watch_policy(context, self.refused)
        cookie = client.cookies["sessionid"].value
        context.add_cookies([{"name": "sessionid", "value": cookie, "url": self.live_server.url}])
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.goto(path)
        page.evaluate(MARK)
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()
        assert not self.errors, f"script errors in the pages: {self.errors}"
        assert not self.refused, f"the Content-Security-Policy refused: {self.refused}"


@pytest.fixture
def phones(browser: Any, live_server: Any, keeper: Any) -> Iterator[Phones]:
    made = Phones(browser, live_server, keeper)
    yield made
    made.close()


def polls(page: Any, path: str) -> Counter[int]:
    """The statuses of the page's polls of ``path``, counted as they are answered."""
    answered: Counter[int] = Counter()
    page.on("response", lambda r: answered.update([r.status]) if r.url.endswith(path) else None)
    return answered


def wait_until(page: Any, condition: Any, seconds: float, said: str) -> None:
    """Wait for ``condition`` with a deadline, letting the browser's events in between (the
    sync API delivers them only while it is called)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, said
        page.wait_for_timeout(50)


def test_a_game_on_two_phones_follows_each_move_and_take_back_and_idles_on_304(
    phones: Phones, keeper: Any
) -> None:
    game = services.game_start(
        kind="scarney-3000", seats=[{"name": "Ann"}, {"name": "Bob"}], user=keeper
    )
    one = phones.open(f"/games/{game.pk}/")
    other = phones.open(f"/games/{game.pk}/")
    answered = polls(other, f"/games/{game.pk}/table/")
    # The other phone, idle, polls with its tag and is answered 304, nothing drawn again.
    wait_until(other, lambda: answered[304] >= 2, 5, f"no idle polls answered 304: {answered}")
    assert set(answered) == {304}, answered
    # A throw tapped on one phone shows on the other within 2 s.
    throw(one, ["1", "1", "1", "6", "D"])
    other.wait_for_selector('#table[data-version="2"]', timeout=SHOWN_WITHIN_MS)
    assert "three 1s" in other.locator('[data-role="throws"]').inner_text()
    # A take-back too.
    tap_move(one, '[data-action="undo"]')
    other.wait_for_selector('#table[data-version="3"]', timeout=SHOWN_WITHIN_MS)
    assert other.locator('[data-role="throws"] li').count() == 0
    assert status_text(other) == status_text(one)
    assert other.evaluate(NOT_RELOADED)
    assert answered[200] == 2  # one new table for each change, every other poll a 304


def test_a_tournament_tables_end_shows_its_agree_buttons_on_the_other_phone(
    phones: Phones, keeper: Any
) -> None:
    _director, api = client_for("director", staff=True)
    made = create(api, format="high-low-scarney", rounds=1)
    enter(api, made["id"], ["Ann", "Bob"])
    match = pair(api, made["id"])["tables"][0]["match"]
    assigned = api.post(
        f"/api/v1/tournaments/{made['id']}/keepers/",
        {"round": 1, "table": 1, "user": keeper.username},
        format="json",
    )
    assert assigned.status_code == 201, assigned.json()
    one = phones.open(f"/matches/{match}/")
    other = phones.open(f"/matches/{match}/")
    # Each line entered on one phone shows on the other; the third ends the match, and the
    # other phone shows the result and the agree buttons without a reload.
    for number in (1, 2, 3):
        for seat, score in enumerate(HL_WIN):
            one.fill(f'[data-role="line-form"] input[data-seat="{seat}"]', str(score))
        one.click('[data-action="record-line"]')
        other.wait_for_selector(f'tr[data-game="{number}"]', timeout=SHOWN_WITHIN_MS)
    agree = 'button[data-action="confirm"][data-seat="1"]'
    other.wait_for_selector(agree, timeout=SHOWN_WITHIN_MS)
    # A seat's agreement on one phone shows on the other.
    one.click('button[data-action="confirm"][data-seat="0"]')
    other.wait_for_selector('[data-seat="0"] [data-agreed="true"]', timeout=SHOWN_WITHIN_MS)
    assert other.locator(agree).is_visible()
    assert other.evaluate(NOT_RELOADED)


def kept_offline(page: Any) -> bool:
    """Whether the service worker controls the page and the page is kept for a reload."""
    return bool(
        page.evaluate(
            """async () => !!navigator.serviceWorker.controller
                 && !!(await caches.match(location.pathname))"""
        )
    )


def test_a_table_page_reloads_offline_queues_a_tap_and_sends_it_once_back_online(
    phones: Phones, keeper: Any
) -> None:
    game = services.game_start(
        kind="scarney-3000", seats=[{"name": "Ann"}, {"name": "Bob"}], user=keeper
    )
    page = phones.open(f"/games/{game.pk}/")
    wait_until(page, lambda: kept_offline(page), 8, "the page was never kept by the service worker")
    shoot(page, "live-table-online")
    # The room's network goes: the page reloads from the worker, said to be offline.
    page.context.set_offline(True)
    (worker,) = page.context.service_workers
    assert worker.evaluate("fetch('/healthz').then(() => 'up', () => 'down')") == "down"
    reloaded = page.reload()
    assert reloaded is not None and reloaded.from_service_worker
    page.locator('[data-role="offline"]').wait_for()
    assert page.locator("#table").get_attribute("data-version") == "1"
    # A throw tapped offline waits in the queue, on this device only.
    for face in ["1", "1", "1", "6", "D"]:
        page.click(f'[data-face="{face}"]')
    page.click('[data-action="throw"]')
    page.locator("[data-queued]").wait_for()
    assert page.locator("[data-queued]").count() == 1
    shoot(page, "live-table-offline")
    assert Event.objects.filter(stream=game.pk, type="dice.thrown").count() == 0
    # The network is back: the throw is sent once, and the page shows the server's table.
    page.context.set_offline(False)
    page.wait_for_selector('#table[data-version="2"]')
    page.locator('[data-role="offline"]').wait_for(state="hidden")
    assert page.locator("[data-queued]").count() == 0
    wait_until(
        page,
        lambda: page.evaluate(
            "localStorage.length === 0 || !Object.keys(localStorage).some("
            "k => k.startsWith('scarney.queue.') && localStorage[k] !== '[]')"
        ),
        5,
        "the queue was never emptied",
    )
    assert Event.objects.filter(stream=game.pk, type="dice.thrown").count() == 1
    assert Stream.objects.get(pk=game.pk).version == 2
    assert "three 1s" in page.locator('[data-role="throws"]').inner_text()
    # Logging out forgets the pages kept: the next keeper finds none of them offline.
    page.click("text=Log out")
    page.wait_for_url("**/")
    forgotten = f"async () => !(await caches.match('/games/{game.pk}/'))"
    wait_until(page, lambda: page.evaluate(forgotten), 5, "the game's page is still kept")


def shoot(page: Any, name: str) -> None:
    """The page at a phone's and a desktop's width, to look at."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for size in SIZES.values():
        page.set_viewport_size(dict_of(size))
        page.screenshot(path=str(SCREENSHOTS / f"{name}-{size[0]}.png"), full_page=True)
    page.set_viewport_size(dict_of(SIZES["phone"]))
