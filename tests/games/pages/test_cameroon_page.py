"""Double Cameroon in a real browser: the dice kept between throws and the ten grouped into two
fives by tapping the dice showing (the steps the legal-move list could not enter)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.play import services
from games.store.models import Event
from tests.games.pages.browsing import check_page, status_text, tap_move, throw


def showing_indexes(page: Any, wanted: Callable[[str], bool]) -> list[int]:
    """The places of the dice showing whose face is ``wanted`` (the game orders them)."""
    faces = page.locator("[data-showing]").evaluate_all("nodes => nodes.map(n => n.dataset.die)")
    return [index for index, face in enumerate(faces) if wanted(face)]


def test_a_double_cameroon_turn_keeps_dice_and_groups_the_ten_by_taps(
    keeper_page: Any, keeper: Any, axe_script: str
) -> None:
    page = keeper_page
    game = services.game_start(
        kind="double-cameroon", seats=[{"name": "Ann"}, {"name": "Bob"}], user=keeper
    )
    page.goto(f"/games/{game.pk}/")
    throw(page, ["6", "6", "6", "6", "2", "3", "4", "5", "1", "1"])
    # keep the four sixes and the straight 2-5; the two aces go back into the cup
    for index in showing_indexes(page, lambda face: face != "1"):
        page.click(f'[data-showing="{index}"]')
    check_page(page, axe_script, "cameroon-keep")
    tap_move(page, '[data-action="keep"]')
    kept = Event.objects.get(stream=game.pk, type="dice.kept")
    assert sorted(kept.data["faces"]) == sorted(["6", "6", "6", "6", "2", "3", "4", "5"])
    assert "Ann to throw 2 dice" in status_text(page)
    throw(page, ["6", "1"])
    # the five sixes for five of a kind, the other five (1 2 3 4 5) a little Cameroon
    sixes = showing_indexes(page, lambda face: face == "6")
    assert len(sixes) == 5
    for index in sixes:
        page.click(f'[data-showing="{index}"]')
    page.select_option('[data-role="group-first"]', "five_of_a_kind")
    page.select_option('[data-role="group-second"]', "little_cameroon")
    check_page(page, axe_script, "cameroon-group")
    tap_move(page, '[data-action="group"]')
    grouped = Event.objects.get(stream=game.pk, type="dice.grouped")
    categories = [group["category"] for group in grouped.data["groups"]]
    assert categories == ["five_of_a_kind", "little_cameroon"]
    assert "Bob to throw 10 dice" in status_text(page)
    total = page.locator('[data-role="scores"] tr[data-seat="0"] td.total').inner_text()
    assert int(total) > 0
