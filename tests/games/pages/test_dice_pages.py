"""The dice games entered face by face in a real browser: Straight Scarney Dice and Scarney 3000."""

from __future__ import annotations

from typing import Any

from games.play import services
from tests.games.pages.browsing import check_page, status_text, tap_move, throw


def test_a_straight_scarney_dice_frame_with_a_double_down_is_itemised(
    keeper_page: Any, keeper: Any, axe_script: str
) -> None:
    page = keeper_page
    game = services.game_start(
        kind="straight-scarney-dice", seats=[{"name": "Ann"}, {"name": "Bob"}], user=keeper
    )
    page.goto(f"/games/{game.pk}/")
    assert "Ann to throw 5 dice" in status_text(page)
    # when Ann doubles down, throws a dead die, then four scoring dice, and stands
    tap_move(page, "text=Double down")
    check_page(page, axe_script, "straight-dice-doubled")
    throw(page, ["6", "6", "4", "3", "D"])
    # exactly the dice in the cup: a fifth face is not taken once four are entered
    for face in ["6", "6", "4", "3"]:
        page.click(f'[data-face="{face}"]')
    assert page.locator('[data-face="1"]').is_disabled()
    tap_move(page, '[data-action="throw"]')
    check_page(page, axe_script, "straight-dice-points")
    tap_move(page, "text=Stand")
    # then the frame is scored with each throw itemised, the pot grown by the double down
    assert "Bob to throw 5 dice" in status_text(page)
    frame = page.locator('[data-frame="1"]').first
    assert "Frame 1: 19" in frame.inner_text()
    assert "double down" in frame.inner_text()
    assert "Pot: 3 chips" in page.locator('[data-role="pot"]').inner_text()


def test_a_scarney_3000_turn_asks_for_the_dice_left_and_scores_on_standing(
    keeper_page: Any, keeper: Any, axe_script: str
) -> None:
    page = keeper_page
    game = services.game_start(
        kind="scarney-3000", seats=[{"name": "Ann"}, {"name": "Bob"}], user=keeper
    )
    page.goto(f"/games/{game.pk}/")
    throw(page, ["1", "1", "1", "6", "D"])
    assert "Ann to throw 1 die" in status_text(page)
    assert "three 1s" in page.locator('[data-role="throws"]').inner_text()
    check_page(page, axe_script, "scarney-3000-turn")
    throw(page, ["D"])
    tap_move(page, "text=Stand")
    assert "Bob to throw 5 dice" in status_text(page)
    assert page.locator('[data-role="scores"] tr[data-seat="0"] td.total').inner_text() == "200"
    assert "Ann's last turn: 200" in page.locator(".dice-area").inner_text()
    check_page(page, axe_script, "scarney-3000-next")
