"""A Scarnie deal played by taps in a real browser: the pawns faced up on their stations, then
removals from a station, a refused removal with the service's sentence, and the turn passing."""

from __future__ import annotations

from typing import Any

from games.play import services
from games.store.models import Stream
from tests.games.pages.browsing import check_page, status_text, tap_move, wait_version

# Station 1 (Ann's) and station 2 (Bob's): the pawns faced up on positions 1-7.
DEAL = {
    1: ["1a", "2a", "3b", "4a", "5a", "6b", "7a"],
    2: ["8a", "9a", "10a", "11b", "12a", "13a", "14a"],
}


def enter_pawn(page: Any, pawn: str) -> None:
    """Choose the pawn's colour, then tap its number: it goes on the next position."""
    page.click(f'[data-deal-colour="{pawn[-1]}"]')
    page.click(f'[data-number="{pawn[:-1]}"]')


def slot_text(page: Any, slot: str) -> str:
    return str(page.locator(f'[data-slot="{slot}"] [data-role="slot-pawn"]').inner_text())


def test_a_scarnie_deal_is_faced_up_and_pawns_are_removed_from_a_station_by_taps(
    keeper_page: Any, keeper: Any, axe_script: str
) -> None:
    page = keeper_page
    game = services.game_start(
        kind="scarnie", seats=[{"name": "Ann"}, {"name": "Bob"}], user=keeper
    )
    page.goto(f"/games/{game.pk}/")
    assert "Ann to face up the deal" in status_text(page)
    # given the deal entered position by position, S1P1 first, the next position highlighted
    assert page.locator('[data-slot="S1P1"].active').count() == 1
    for pawn in DEAL[1]:
        enter_pawn(page, pawn)
    assert slot_text(page, "S1P3") == "3b"
    assert page.locator('[data-number="3"]').is_hidden()  # a number is dealt once
    # a mistaken pawn is taken back by tapping its position, and entered again
    enter_pawn(page, "9b")
    page.click('[data-slot="S2P1"]')
    assert slot_text(page, "S2P1") == "–"
    assert page.locator('[data-action="face-up"]').is_disabled()
    for pawn in DEAL[2]:
        enter_pawn(page, pawn)
    check_page(page, axe_script, "scarnie-deal")
    # when the deal is faced up, the dealer moves first
    tap_move(page, '[data-action="face-up"]')
    assert "Ann to remove pawns" in status_text(page)
    assert slot_text(page, "S2P4") == "11b"
    # and Ann removes two pawns of one colour from her station
    page.click('[data-slot="S1P1"]')
    page.click('[data-slot="S1P2"]')
    assert page.locator(".slot.chosen").count() == 2
    assert "1a on S1P1, 2a on S1P2" in page.locator('[data-role="selection"]').inner_text()
    tap_move(page, '[data-action="remove-pawns"]')
    assert "Bob to remove pawns" in status_text(page)
    assert slot_text(page, "S1P1") == "–" and slot_text(page, "S1P2") == "–"
    # then Bob's removal of two colours at once is refused with the service's sentence
    page.click('[data-slot="S2P3"]')
    page.click('[data-slot="S2P4"]')
    page.click('[data-action="remove-pawns"]')
    page.wait_for_selector('[data-role="status"].refused')
    assert "of two colours" in status_text(page)
    wait_version(page, 3)
    # and his removal of the lone b pawn is recorded, passing the turn back to Ann
    page.click('[data-slot="S2P4"]')
    tap_move(page, '[data-action="remove-pawns"]')
    assert "Ann to remove pawns" in status_text(page)
    assert "Bob removed 11b from S2P4" in page.locator(".removals").inner_text()
    assert Stream.objects.get(pk=game.pk).version == 4
    check_page(page, axe_script, "scarnie-play")
