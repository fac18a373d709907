"""Controls a keeper reaches by keyboard and a screen reader hears: a jump picked up and landed
with Tab and Enter (offline, so the board shows it waiting), a Straight Scarney Dice hit with
Opposite by keyboard, the "Scarney!" call, and logging out."""

from __future__ import annotations

import uuid
from typing import Any

from games.play import services
from games.store.models import Event, Stream
from tests.games.pages.browsing import check_page, status_text, tab_to, tap_move, wait_version
from tests.games.pages.test_table_pages import STUDY


def test_a_jump_is_made_by_keyboard_its_pawn_pressed_and_its_landing_said(
    keeper_page: Any, keeper: Any, axe_script: str
) -> None:
    page = keeper_page
    game = services.game_start(
        kind="scarney-solitaire", seats=[{"name": "Ann"}], setup={"position": STUDY}, user=keeper
    )
    page.goto(f"/games/{game.pk}/")
    g3 = page.locator('[data-circle="C11"]')
    assert g3.get_attribute("aria-pressed") == "false"
    # when the keeper picks up G3 with Tab and Enter, offline
    page.context.set_offline(True)
    tab_to(page, '[data-circle="C11"]')
    page.keyboard.press("Enter")
    # then it is pressed, and its landing circle says it is one (not by colour alone)
    assert g3.get_attribute("aria-pressed") == "true"
    landing = page.get_by_role("button", name="legal landing circle")
    assert landing.count() == 1
    assert landing.get_attribute("data-circle") == "C9"
    check_page(page, axe_script, "solitaire-selected")
    # and lands it with Tab and Space: the board shows the jump waiting, taking no other tap
    tab_to(page, '[data-circle="C9"]')
    page.keyboard.press("Space")
    queue = page.locator('[data-role="queue"]')
    queue.locator("li").wait_for()
    assert queue.locator("li").all_inner_texts() == ["Jump from C11 to C9"]
    assert "1 move waiting to be sent; the table will update when it is recorded" in (
        queue.inner_text()
    )
    assert page.locator('[data-circle="C9"].pending [data-pawn="G3"]').count() == 1
    assert page.locator('[data-circle="C10"] [data-pawn]').count() == 0  # B2, jumped over
    assert page.locator('[data-circle="C14"]').is_disabled()
    check_page(page, axe_script, "solitaire-waiting")
    page.context.set_offline(False)
    wait_version(page, 2)
    assert page.locator('[data-circle="C9"] [data-pawn="G3"]').count() == 1
    assert not page.locator('[data-circle="C14"]').is_disabled()


def test_a_hit_with_opposite_is_recorded_by_keyboard(
    keeper_page: Any, keeper: Any, axe_script: str
) -> None:
    page = keeper_page
    game = services.game_start(
        kind="straight-scarney-dice", seats=[{"name": "Ann"}, {"name": "Bob"}], user=keeper
    )
    # given a Little Scarney: 25 held, one die live
    services.event_record(
        stream_id=game.pk,
        event_id=uuid.uuid4(),
        type="dice.thrown",
        data={"faces": ["D", "D", "D", "D", "6"]},
        expected_version=1,
        user=keeper,
    )
    page.goto(f"/games/{game.pk}/")
    assert "Ann to throw 1 die" in status_text(page)
    hit = page.locator('[data-action="throw"]')
    assert hit.inner_text() == "Hit: record the throw"  # the rule book's word for it
    assert page.locator('[data-role="throws"]').inner_text().count("little scarney 25") == 1
    assert "{" not in page.locator('[data-role="throws"]').inner_text()  # no raw bonus data
    check_page(page, axe_script, "straight-dice-hit")
    # when the keeper enters a 3, calls Opposite and hits, by keyboard only
    tab_to(page, '[data-face="3"]')
    page.keyboard.press("Space")
    tab_to(page, '[data-role="opposite"]')
    page.keyboard.press("Space")
    tab_to(page, '[data-action="throw"]')
    page.keyboard.press("Enter")
    wait_version(page, 3)
    # then the bottom face, 4, is scored
    thrown = Event.objects.filter(stream=game.pk, type="dice.thrown").order_by("version").last()
    assert thrown is not None and thrown.data == {"faces": ["3"], "opposite": True}
    last = page.locator('[data-role="throws"] li').last.inner_text()
    assert "Opposite" in last and "4" in last


def test_the_scarney_call_ends_a_singles_game_and_the_keeper_logs_out(
    keeper_page: Any, keeper: Any
) -> None:
    page = keeper_page
    game = services.game_start(
        kind="scarney-singles",
        seats=[{"name": "Ann"}, {"name": "Bob"}],
        setup={"position": STUDY},
        user=keeper,
    )
    playing = services.game_start(
        kind="scarney-3000", seats=[{"name": "Ann"}, {"name": "Bob"}], user=keeper
    )
    page.goto(f"/games/{game.pk}/")
    # the call ends the game with jumps still left
    tap_move(page, "button:text-is('Scarney!')")
    assert "Game over" in status_text(page)
    assert Event.objects.filter(stream=game.pk, type="game.scarney_called").count() == 1
    assert Stream.objects.get(pk=game.pk).status == Stream.Status.FINISHED
    # logging out goes home as a visitor, and a game in play asks him to log in
    page.click("header >> button:has-text('Log out')")
    page.wait_for_url("**/")
    assert page.locator("header a:has-text('Log in')").count() == 1
    page.goto(f"/games/{playing.pk}/")
    assert "log in" in status_text(page).lower()
