"""The dice games entered face by face in a real browser: Straight Scarney Dice, Scarney 3000,
and Going to Boston's turn and play-off (Multiplication's play-off too)."""

from __future__ import annotations

import uuid
from typing import Any

from games.play import services
from tests.games.pages.browsing import check_page, status_text, tap_move, throw

# Ann's and Bob's turns both set aside 6, 5 and 4: 15 each, a tie.
FIFTEEN = [["6", "1", "1"], ["5", "1"], ["4"]]


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


def record_throw(game: Any, keeper: Any, faces: list[str]) -> None:
    """A throw recorded through the service, as another device at the table would."""
    services.event_record(
        stream_id=game.pk,
        event_id=uuid.uuid4(),
        type="dice.thrown",
        data={"faces": faces},
        user=keeper,
    )


def said(page: Any, selector: str) -> list[str]:
    """The items of a list as read, each on one line."""
    return [" ".join(text.split()) for text in page.locator(selector).all_inner_texts()]


def test_a_boston_turn_lists_each_die_set_aside_and_a_tie_is_played_off(
    keeper_page: Any, keeper: Any, axe_script: str
) -> None:
    page = keeper_page
    game = services.game_start(
        kind="going-to-boston", seats=[{"name": "Ann"}, {"name": "Bob"}], user=keeper
    )
    page.goto(f"/games/{game.pk}/")
    throws = '[data-role="throws"] li'
    # when Ann throws 6 2 1, then 4 3, each throw is listed whole with the die it set aside
    first, second = "Throw 1: 1 2 6 · 6 set aside", "Throw 2: 3 4 · 4 set aside"
    throw(page, ["6", "2", "1"])
    assert said(page, throws) == [first]
    throw(page, ["4", "3"])
    assert said(page, throws) == [first, second]
    check_page(page, axe_script, "boston-turn")
    # and still after a reload
    page.reload()
    assert said(page, throws) == [first, second]
    # then her last die ends her turn, listed whole with its sum
    throw(page, ["5"])
    assert said(page, '[data-role="turns"] li') == [
        "Ann: 15 · set aside 6, 4, 5: 6 + 4 + 5 = 15 1 2 6 3 4 5"
    ]
    assert said(page, '[data-role="throws"] p') == ["No throw yet this turn."]
    # when Bob ties on 15, the page names the play-off and who throws again
    for faces in FIFTEEN:
        throw(page, faces)
    playoff = page.locator('[data-role="playoff"]')
    assert "Play-off 1: Ann and Bob tied on 15 and throw again." in playoff.inner_text()
    assert "To throw again: Ann and Bob." in playoff.inner_text()
    assert page.locator("#throws-title").inner_text() == "Ann's throws · play-off 1"
    # and after Ann's play-off turn (3 + 2 + 1), her total and Bob still to throw
    for faces in (["3", "2", "1"], ["2", "1"], ["1"]):
        throw(page, faces)
    assert said(page, '[data-role="playoff"] li') == [
        "Ann: 6 · 3 + 2 + 1 = 6",
        "Bob: still to throw",
    ]
    assert "To throw again: Bob." in playoff.inner_text()
    check_page(page, axe_script, "boston-playoff")
    # when Bob's first play-off throw is recorded on another device, the page's poll shows it
    record_throw(game, keeper, ["4", "2", "1"])
    # (the poll asks every 5 s)
    page.wait_for_selector('[data-role="throws"] li[data-throw="1"]', timeout=15_000)
    assert said(page, throws) == ["Throw 1: 1 2 4 · 4 set aside"]
    # then his 4 + 2 + 1 wins the play-off and the pot
    for faces in (["2", "1"], ["1"]):
        throw(page, faces)
    assert "Bob wins the round and takes the pot." in playoff.inner_text()
    assert "Won by Bob" in status_text(page)
    assert said(page, '[data-role="turns"] h3') == ["The round", "Play-off 1"]


def test_a_multiplication_tie_is_played_off_with_the_products_said(
    keeper_page: Any, keeper: Any, axe_script: str
) -> None:
    page = keeper_page
    game = services.game_start(
        kind="multiplication", seats=[{"name": "Ann"}, {"name": "Bob"}], user=keeper
    )
    # given (6 + 5) × 4 = 44 each, and Ann's play-off turn (5 + 5) × 5 = 50
    for faces in [*FIFTEEN, *FIFTEEN, ["5", "1", "1"], ["5", "1"], ["5"]]:
        record_throw(game, keeper, faces)
    page.goto(f"/games/{game.pk}/")
    playoff = page.locator('[data-role="playoff"]')
    assert "Play-off 1: Ann and Bob tied on 44 and throw again." in playoff.inner_text()
    assert said(page, '[data-role="playoff"] li') == [
        "Ann: 50 · (5 + 5) × 5 = 50",
        "Bob: still to throw",
    ]
    assert "Bob to throw 3 dice." in status_text(page)
    check_page(page, axe_script, "multiplication-playoff")
