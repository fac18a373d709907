"""What a real table meets: refusals, undo, a dropped connection, a double tap, a lost race,
and the pages a visitor sees."""

from __future__ import annotations

import time
import uuid
from typing import Any

from games.play import services
from games.rules import registry
from games.store.models import Event, Stream
from tests.games.pages.browsing import (
    check_page,
    gap_below,
    on_screen,
    status_text,
    tap_move,
    throw,
    wait_version,
)
from tests.games.pages.conftest import PASSWORD

STUDY = {"C2": "Y4", "C5": "Y3", "C10": "B2", "C11": "G3", "C14": "B1", "C15": "R4"}


def test_the_new_game_form_names_games_with_their_players_and_refuses_beside_the_players(
    keeper_page: Any, keeper: Any, axe_script: str
) -> None:
    page = keeper_page
    # given a keeper with a dozen games in progress, which put the form far down his home page
    for number in range(12):
        services.game_start(
            kind="scarney-3000", seats=[{"name": f"A{number}"}, {"name": "B"}], user=keeper
        )
    page.goto("/")
    # the games are named as people name them, with their numbers of players
    options = page.locator("#id_kind option").all_inner_texts()
    assert "Manchester Piccadilly — 2 players" in options
    assert "Scarney Singles — 2 to 16 players" in options
    assert "Partnership Scarney 3000 — 4 or 6 players" in options
    assert all(" players" in o or " player" in o for o in options)
    assert not {o.split(" — ")[0] for o in options} & set(registry.kinds())  # no slug shown
    # when four players are named for a two-player game
    page.select_option("#id_kind", "manchester-piccadilly")
    page.fill("#id_seats", "Ann\nBob\nCid\nDee")
    page.click("text=Start the game")
    page.wait_for_url("**/games/new/")
    # then the refusal, in the game's name, is beside the players' box, focused and on screen
    refusal = page.locator("#seats-error")
    assert refusal.inner_text() == "Manchester Piccadilly is played by 2 players; 4 are named."
    assert refusal.get_attribute("role") == "alert"
    assert page.evaluate("document.activeElement.id") == "seats-error"
    assert on_screen(page, refusal)
    assert 0 <= gap_below(page.locator("#id_seats"), refusal) < 24
    assert page.locator("#id_seats").get_attribute("aria-describedby") == "seats-error"
    assert page.locator("#id_seats").input_value() == "Ann\nBob\nCid\nDee"
    check_page(page, axe_script, "table-new-game-refused")


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
    # the refusal is where the eye is: in the status, focused (so announced), on the screen
    refusal = page.locator('[data-role="status"] [data-role="refusal"]')
    assert refusal.get_attribute("role") == "alert"
    assert page.evaluate("document.activeElement.dataset.role") == "refusal"
    assert on_screen(page, refusal)
    check_page(page, axe_script, "solitaire-refused")
    # a legal jump, then its undo with a reason, confirmed in words
    page.click('[data-circle="C11"]')
    tap_move(page, '[data-circle="C9"]')
    assert page.locator('[data-circle="C9"] [data-pawn="G3"]').count() == 1
    page.fill('[data-role="undo-reason"]', "wrong pawn tapped")
    tap_move(page, '[data-action="undo"]')
    assert page.locator('[data-circle="C11"] [data-pawn="G3"]').count() == 1
    assert "Undone: Ann's jump from C11 to C9." in status_text(page)
    undo = Event.objects.filter(stream=game.pk, type="move.undone").get()
    assert undo.data == {"reason": "wrong pawn tapped"}


def test_moves_made_offline_are_listed_in_words_and_sent_in_order_and_a_double_tap_records_once(
    keeper_page: Any, keeper: Any, axe_script: str
) -> None:
    page = keeper_page
    game = services.game_start(
        kind="scarney-3000", seats=[{"name": "Ann"}, {"name": "Bob"}], user=keeper
    )
    page.goto(f"/games/{game.pk}/")
    # offline: the throw waits in the queue, in words, and the page says so
    page.context.set_offline(True)
    for face in ["1", "1", "1", "6", "D"]:
        page.click(f'[data-face="{face}"]')
    page.click('[data-action="throw"]')
    queue = page.locator('[data-role="queue"]')
    queue.locator("li").wait_for()
    # one status, which says what waits and what comes next; the last answer ("Ann to throw 5
    # dice") is no longer shown beside it
    assert status_text(page).startswith("Offline: 1 move waiting to be sent. Next: enter each")
    assert "Ann to throw" not in status_text(page)
    assert page.locator('[role="status"]:visible').count() == 1
    # the cup still takes the next throw: any count, checked when it is sent
    page.click('[data-face="D"]')
    assert "checked when sent" in page.locator('[data-role="cup"]').inner_text()
    page.click('[data-action="throw"]')
    assert queue.locator("li").all_inner_texts() == ["Throw 1, 1, 1, 6, D", "Throw D"]
    assert "Offline: 2 moves waiting to be sent" in status_text(page)
    assert Stream.objects.get(pk=game.pk).version == 1
    check_page(page, axe_script, "table-offline")
    # back online: both are sent, in order, the queue empties and the status is the table's
    page.context.set_offline(False)
    wait_version(page, 3)
    assert queue.is_hidden()
    assert "Offline" not in status_text(page) and "to throw" in status_text(page)
    thrown = Event.objects.filter(stream=game.pk, type="dice.thrown").order_by("version")
    assert [e.data["faces"] for e in thrown] == [["1", "1", "1", "6", "D"], ["D"]]
    # a slow answer and a double tap on Stand: one event recorded
    page.route("**/moves/", slowly)
    page.locator("text=Stand").dblclick()
    wait_version(page, 4)
    page.unroute("**/moves/")
    assert Event.objects.filter(stream=game.pk, type="shooter.stood").count() == 1
    assert "Bob to throw 5 dice" in status_text(page)


def test_a_move_answered_by_a_csrf_page_stays_queued_and_is_sent_on_retry(
    keeper_page: Any, keeper: Any
) -> None:
    page = keeper_page
    game = services.game_start(
        kind="straight-scarney-dice", seats=[{"name": "Ann"}, {"name": "Bob"}], user=keeper
    )
    page.goto(f"/games/{game.pk}/")
    # given the keeper logged in elsewhere: Django answers the page's token with its 403 page
    page.route("**/moves/", csrf_failure)
    for face in ["6", "6", "4", "3", "1"]:
        page.click(f'[data-face="{face}"]')
    page.click('[data-action="throw"]')
    # then the move is not dropped: listed as not sent, with what to do
    queue = page.locator('[data-role="queue"]')
    queue.locator('[data-role="not-sent"]').wait_for()
    assert "Reload the page, or log in again" in queue.inner_text()
    assert queue.locator("li").all_inner_texts() == ["Throw 6, 6, 4, 3, 1"]
    assert Stream.objects.get(pk=game.pk).version == 1
    # and once the login is put right, Try again sends it
    page.unroute("**/moves/")
    page.click('[data-queue-action="retry"]')
    wait_version(page, 2)
    assert queue.is_hidden()
    assert Event.objects.filter(stream=game.pk, type="dice.thrown").count() == 1


def csrf_failure(route: Any) -> None:
    route.fulfill(
        status=403,
        content_type="text/html",
        body="<h1>Forbidden (403)</h1><p>CSRF verification failed. Request aborted.</p>",
    )


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
    # in progress: the visitor is asked to log in; the keeper, its recorder, then reads it
    playing = services.game_start(
        kind="scarney-3000", seats=[{"name": "A"}, {"name": "B"}], user=keeper
    )
    page.goto("/")
    assert "Scarney Solitaire" in page.locator("#recent-title + ul").inner_text()
    check_page(page, axe_script, "home-visitor")
    page.goto(f"/games/{finished.pk}/")
    assert "Ann's game is over" in status_text(page)
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
