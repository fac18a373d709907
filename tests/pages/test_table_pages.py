"""What a real table meets: refusals, undo, a dropped connection, a double tap, a lost race,
and the pages a visitor sees."""

from __future__ import annotations

import time
import uuid
from typing import Any

from games import services
from games.models import Event, Stream
from tests.pages.browsing import check_page, status_text, tap_move, throw, wait_version
from tests.pages.conftest import PASSWORD

STUDY = {"C2": "Y4", "C5": "Y3", "C10": "B2", "C11": "G3", "C14": "B1", "C15": "R4"}


def test_an_illegal_jump_shows_its_sentence_and_an_undo_takes_back_a_jump(
    keeper_page: Any, keeper: Any, axe_script: str
) -> None:
    page = keeper_page
    game = services.game_start(
        kind="scarney-solitaire", seats=[{"name": "Ann"}], setup={"position": STUDY}, user=keeper
    )
    page.goto(f"/games/{game.pk}/")
    # an illegal jump: B1 on C14 onto C6, no jump at all
    page.click('[data-circle="C14"]')
    page.click('[data-circle="C6"]')
    page.wait_for_selector('[data-role="status"].refused')
    assert "Not recorded" in status_text(page)
    assert Stream.objects.get(pk=game.pk).version == 1
    check_page(page, axe_script, "solitaire-refused")
    # a legal jump, then its undo with a reason
    page.click('[data-circle="C11"]')
    tap_move(page, '[data-circle="C9"]')
    assert page.locator('[data-circle="C9"] [data-pawn="G3"]').count() == 1
    page.fill('[data-role="undo-reason"]', "wrong pawn tapped")
    tap_move(page, '[data-action="undo"]')
    assert page.locator('[data-circle="C11"] [data-pawn="G3"]').count() == 1
    undo = Event.objects.filter(stream=game.pk, type="move.undone").get()
    assert undo.data == {"reason": "wrong pawn tapped"}


def test_a_move_made_offline_is_sent_on_reconnect_and_a_double_tap_records_once(
    keeper_page: Any, keeper: Any
) -> None:
    page = keeper_page
    game = services.game_start(
        kind="scarney-3000", seats=[{"name": "Ann"}, {"name": "Bob"}], user=keeper
    )
    page.goto(f"/games/{game.pk}/")
    # offline: the throw waits in the queue, and the page says so
    page.context.set_offline(True)
    for face in ["D", "D", "D", "1", "1"]:
        page.click(f'[data-face="{face}"]')
    page.click('[data-action="throw"]')
    queue = page.locator('[data-role="queue"]')
    queue.locator("li").wait_for()
    assert "Offline" in queue.inner_text()
    assert Stream.objects.get(pk=game.pk).version == 1
    # back online: it is sent, and the queue empties
    page.context.set_offline(False)
    wait_version(page, 2)
    assert queue.is_hidden()
    # a slow answer and a double tap on Stand: one event recorded
    page.route("**/moves/", slowly)
    page.locator("text=Stand").dblclick()
    wait_version(page, 3)
    page.unroute("**/moves/")
    assert Event.objects.filter(stream=game.pk, type="shooter.stood").count() == 1
    assert "Bob to throw 5 dice" in status_text(page)


def slowly(route: Any) -> None:
    """A slow connection: the answer comes after the keeper has tapped again."""
    time.sleep(0.4)
    route.continue_()


def test_a_move_that_loses_a_race_shows_what_happened_and_the_game_now(
    keeper_page: Any, keeper: Any
) -> None:
    page = keeper_page
    game = services.game_start(
        kind="straight-scarney-dice", seats=[{"name": "Ann"}, {"name": "Bob"}], user=keeper
    )
    page.goto(f"/games/{game.pk}/")
    # another device records Ann's throw first
    services.event_record(
        stream_id=game.pk,
        event_id=uuid.uuid4(),
        type="dice.thrown",
        data={"faces": ["1", "3", "4", "6", "6"]},
        expected_version=1,
        user=keeper,
    )
    throw(page, ["6", "6", "4", "3", "1"])
    assert "Another device recorded a move first" in status_text(page)
    assert page.locator('[data-role="throws"]').inner_text().count("1 3 4 6 6") == 1
    assert Stream.objects.get(pk=game.pk).version == 2


def test_a_visitor_sees_results_and_read_only_games_and_logs_in(
    page: Any, keeper: Any, axe_script: str
) -> None:
    finished = services.game_start(
        kind="scarney-solitaire", seats=[{"name": "Ann"}], setup={"position": STUDY}, user=keeper
    )
    for frm, to in ((11, 9), (9, 1), (1, 3), (14, 16)):
        services.event_record(
            stream_id=finished.pk,
            event_id=uuid.uuid4(),
            type="pawn.jumped",
            data={"from": frm, "to": to},
            user=keeper,
        )
    playing = services.game_start(kind="scarney-3000", seats=[{"name": "A"}, {"name": "B"}])
    page.goto("/")
    assert "Scarney Solitaire" in page.locator("#recent-title + ul").inner_text()
    check_page(page, axe_script, "home-visitor")
    page.goto(f"/games/{finished.pk}/")
    assert "Game over" in status_text(page)
    assert page.locator('[data-action="undo"]').count() == 0
    assert page.locator('[data-circle="C3"]').is_disabled()
    check_page(page, axe_script, "solitaire-read-only")
    page.goto(f"/games/{playing.pk}/")
    assert "log in" in status_text(page).lower()
    page.click("main a.button:has-text('Log in')")
    check_page(page, axe_script, "login")
    page.fill("#id_username", "keeper")
    page.fill("#id_password", PASSWORD)
    page.click("main >> button:has-text('Log in')")
    page.wait_for_url(f"**/games/{playing.pk}/")
    assert "to throw 5 dice" in status_text(page)
