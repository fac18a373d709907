"""A whole club evening in real browsers (API.md "Tournaments", "Table codes and confirmed
results"): the director enters eight players, two of them called Pat, pairs and prints the table
cards with their QR codes; a keeper with no account opens his table's link on a phone and records
its match; the players confirm; round 2 is refused while a table's result is unconfirmed, then
paired; the standings, the cards and the room's scoreboard tell the two Pats apart."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.store import folding
from games.store.models import Stream
from games.tournaments import creating
from tests.games.pages.browsing import check_page, on_screen
from tests.games.pages.conftest import PASSWORD, SIZES, dict_of, watch_policy
from tests.games.tournaments.helpers import HL_WIN, client_for, play_sheet

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Pat", "Pat", "Kim"]
REFUSED: list[list[str]] = []  # what the policy refused, per browser of the evening


def logged_in(browser: Any, live_server: Any, user: Any, size: tuple[int, int]) -> Any:
    client = Client()
    client.force_login(user)
    context = browser.new_context(base_url=live_server.url, viewport=dict_of(size))
    context.set_default_timeout(8000)
    REFUSED.append(watch_policy(context))
    cookie = client.cookies["sessionid"].value
    context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_server.url}])
    return context.new_page()


def said(page: Any) -> str:
    return str(page.locator("ul.messagelist").inner_text())


@pytest.mark.django_db(transaction=True)
def test_a_whole_evening_from_entries_to_round_two(
    browser: Any, live_server: Any, axe_script: str, django_capture_on_commit_callbacks: Any
) -> None:
    director = get_user_model().objects.create_user(
        "director", password=PASSWORD, is_staff=True, is_superuser=True
    )
    tournament = creating.tournament_create(
        spec={"name": "Friday Swiss", "format": "high-low-scarney", "rounds": 3, "entry": "sheet"},
        user=director,
    )
    admin = f"/admin/games/tournament/{tournament.pk}"
    desk = logged_in(browser, live_server, director, SIZES["desktop"])

    # Eight names, Pat twice: the second Pat is asked about, entered new with a label.
    desk.goto(f"{admin}/enter/")
    desk.fill("textarea[name=names]", "\n".join(NAMES))
    desk.click("input[type=submit]")
    assert desk.locator("h1").inner_text().startswith("Who is who?")
    desk.check('input[name="who_6"][value="new"]')
    desk.fill('input[name="label_6"]', "Pat B.")
    desk.click("input[type=submit]")
    assert "8 player(s) entered" in said(desk)

    # Pair round 1, print its table cards: one QR code per table, the Pats told apart.
    desk.click("text=Pair the next round")
    assert "round 1 is paired at 4 table(s)" in said(desk)
    desk.goto(f"{admin}/cards/?round=1")
    cards = desk.locator('[data-role="keeper-link"]')
    assert cards.count() == 4 and desk.locator(".card svg").count() == 4
    seated = desk.locator(".card ol li").all_inner_texts()
    assert "Pat" in seated and "Pat B." in seated

    # A phone with no account opens table 1's link and records its match.
    link = cards.first.locator("strong").first.inner_text()
    phone_context = browser.new_context(viewport=dict_of(SIZES["phone"]))
    REFUSED.append(watch_policy(phone_context))
    phone = phone_context.new_page()
    phone.set_default_timeout(8000)
    phone.goto(link)
    assert phone.url.endswith(f"/matches/{table_match(tournament.pk, 1)}/")
    for _ in range(3):
        for seat, score in enumerate(HL_WIN):
            phone.fill(f'[data-role="line-form"] input[data-seat="{seat}"]', str(score))
        phone.click('[data-action="record-line"]')
        phone.wait_for_load_state()
    panel = phone.locator('[data-role="table-panel"]')
    panel.locator('[data-role="confirmation"][data-confirmed="false"]').wait_for()
    check_page(phone, axe_script, "evening-keeper-confirm")

    # The other tables: two entered by the director, one by a keeper and left unconfirmed.
    _keeper, keeper_api = client_for("bob")
    director_api = client_for("dora", staff=True)[1]
    director_api.post(
        f"/api/v1/tournaments/{tournament.pk}/keepers/",
        {"round": 1, "table": 4, "user": "bob"},
        format="json",
    )
    for number, api in ((2, director_api), (3, director_api), (4, keeper_api)):
        play_sheet(api, table_match(tournament.pk, number), [HL_WIN] * 3, nullcontext_capture)

    # Round 2 waits for tables 1 and 4.
    desk.goto(f"{admin}/change/")
    desk.click("text=Pair the next round")
    assert "table(s) 1, 4 is not confirmed" in desk.locator("#content-main").inner_text()
    # The players of table 1 agree on the keeper's phone, one tap each.
    for seat in (0, 1):
        phone.click(f'[data-action="confirm"][data-seat="{seat}"]')
        phone.locator(f'[data-seat="{seat}"] [data-agreed="true"]').wait_for()
    assert "agrees to the result" in panel.locator('[data-role="table-said"]').inner_text()
    panel.locator('[data-role="confirmation"][data-confirmed="true"]').wait_for()
    # Table 4's players have gone home: the director pairs anyway, saying why.
    desk.goto(f"{admin}/change/")
    desk.click("text=Pair the next round")
    desk.fill("input[name=reason]", "Table 4 left before confirming; the sheet is clear")
    desk.click("input[type=submit]")
    assert "round 2 is paired" in said(desk)
    assert Client().get(link.replace(live_server.url, "")).status_code == 410

    # The standings, the round-2 cards and the room's scoreboard show both Pats.
    visitor = browser.new_context(base_url=live_server.url, viewport=dict_of((1920, 1080)))
    REFUSED.append(watch_policy(visitor))
    board = visitor.new_page()
    board.goto(f"/tournaments/{tournament.pk}/")
    title = board.locator("#standings-title").inner_text()
    assert "after round 1" in title and "round 2 in play" in title
    ranked = board.locator('[data-role="standings"] tbody th').all_inner_texts()
    assert "Pat" in ranked and "Pat B." in ranked
    board.goto(f"/tournaments/{tournament.pk}/scoreboard/")
    rows = board.locator('[data-role="standings"] tbody tr')
    rows.first.wait_for()
    assert rows.count() == 8
    assert all(on_screen(board, rows.nth(i)) for i in range(8))
    shown = board.locator('[data-role="standings"] .board-name').all_inner_texts()
    assert "Pat" in shown and "Pat B." in shown
    board.screenshot(path="var/screenshots/evening-scoreboard-1920x1080.png")
    desk.goto(f"{admin}/cards/?round=2")
    assert desk.locator('[data-role="keeper-link"]').count() == 4
    # The admin, the printed cards, the keeper's phone and the room's screen ran under the site's
    # Content-Security-Policy without a refusal.
    assert [refusal for browser_refused in REFUSED for refusal in browser_refused] == []
    assert "Pat B." in desk.locator(".card ol li").all_inner_texts()


class _Nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> None:
        return None


def nullcontext_capture(**_kwargs: Any) -> _Nothing:
    # On a live server's database the appends commit for real, and their close runs then.
    return _Nothing()


def table_match(tournament_id: Any, number: int) -> str:
    state = folding.load(Stream.objects.get(pk=tournament_id)).state
    return str(state.current.table(number).match)
