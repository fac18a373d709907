"""The card games and the solver's advice in a real browser: a hand of Manchester Piccadilly
entered by taps from the deal to its figures, and the advice shown for a study position."""

from __future__ import annotations

import json
from typing import Any

from games.play import analysis, services
from games.play.representation import game_json
from games.rules.tarot.cards import PACK
from games.store import folding
from games.store.models import Event, Stream
from tests.games.pages.browsing import check_page, status_text, tap_move
from tests.games.pages.test_table_pages import STUDY

# Two hands of 13 that the rules' own tests deal (tests/games/rules/tarot/test_manchester.py):
# the dealer (seat 0) and Opposite (seat 1), the Fool among Opposite's cards.
DEALER_13 = ["Ks", "Qs", "Cs", "Js", "10s", "9s", "8s", "T21", "T20", "T2", "Kb", "2b", "3b"]
OPPOSITE_13 = ["7s", "6s", "5s", "4s", "T1", "T5", "T3", "FOOL", "Qb", "Cb", "2c", "3c", "4c"]
# Part two: the 52 cards left, in pack order, as seat 0's two hands and then seat 1's two.
STOCK = [card for card in PACK if card not in DEALER_13 + OPPOSITE_13]
PART_TWO = [STOCK[i : i + 13] for i in range(0, 52, 13)]


def legal_moves(page: Any) -> list[dict[str, Any]]:
    """The legal events the page was drawn with (the game's own ``legal_events``)."""
    return json.loads(page.locator("#legal-events").inner_text()) or []


def deal_by_taps(page: Any, hands: list[list[str]]) -> None:
    """Tap each hand's cards in the picker (the next hand is chosen as each one fills)."""
    for target, hand in enumerate(hands):
        page.click(f'[data-deal-target="{target}"]')
        for card in hand:
            page.click(f'[data-role="pack"] [data-card="{card}"]')
    tap_move(page, '[data-action="deal"]')


def discard_by_taps(page: Any, move: dict[str, Any]) -> None:
    for card in move["data"]["cards"]:
        page.click(f'[data-role="discard-pick"] [data-card="{card}"]')
    tap_move(page, '[data-action="discard"]')


def assert_touch_targets(page: Any, selector: str) -> None:
    sizes = page.eval_on_selector_all(
        selector,
        "nodes => nodes.filter(n => n.offsetParent).map(n => n.getBoundingClientRect())"
        ".map(r => [r.width, r.height])",
    )
    assert sizes and all(w >= 44 and h >= 44 for w, h in sizes), sizes


def play_step(page: Any, moves: list[dict[str, Any]]) -> str:
    """Record the first legal move of the position by the page's own control for it; part
    two's deal, which the game leaves to the table (no legal list), by the picker."""
    kind = moves[0]["type"] if moves else "cards.dealt"
    if kind == "card.played":
        tap_move(page, f'.hand [data-card="{moves[0]["data"]["card"]}"][data-move]')
    elif kind == "trick.won":
        tap_move(page, "[data-won]")
    elif kind == "cards.discarded":
        discard_by_taps(page, moves[0])
    elif kind == "cards.dealt":
        deal_by_taps(page, PART_TWO)
    else:  # value.announced, dummy.chosen, fool.paid: the labelled legal moves
        tap_move(page, ".legal-list button")
    return str(kind)


def test_a_manchester_piccadilly_hand_is_entered_by_taps_from_the_deal_to_its_figures(
    keeper_page: Any, keeper: Any, axe_script: str
) -> None:
    page = keeper_page
    game = services.game_start(
        kind="manchester-piccadilly",
        seats=[{"name": "Ann"}, {"name": "Bob"}],
        setup={"dealer": 0},
        user=keeper,
    )
    page.goto(f"/games/{game.pk}/")
    assert "Ann to deal" in status_text(page)
    # the picker: 78 named cards grouped by suit, each a big enough target, no sideways scroll
    assert page.locator('[data-role="pack"] [data-card]').count() == 78
    assert page.locator('[data-role="pack"] [data-card="Kc"]').inner_text().startswith("K♥")
    assert "King of cups" in page.locator('[data-role="pack"] [data-card="Kc"] .sr').inner_text()
    assert_touch_targets(page, '[data-role="pack"] [data-card]')
    check_page(page, axe_script, "piccadilly-deal")
    # when the deal of part one is tapped in, seat by seat, it goes as one event
    deal_by_taps(page, [DEALER_13, OPPOSITE_13])
    dealt = Event.objects.get(stream=game.pk, type="cards.dealt")
    assert dealt.data == {"hands": [DEALER_13, OPPOSITE_13]}
    # and every later step is entered by its control until the hand is over
    done: list[str] = []
    while "Game over" not in status_text(page):
        moves = legal_moves(page)
        if done.count("card.played") == 1:
            # a legal card of the hand on turn is highlighted; a card of the other hand is not
            assert page.locator(".hand-box.on-turn .card-face.legal").count() >= 1
            check_page(page, axe_script, "piccadilly-trick")
        if moves and moves[0]["type"] == "dummy.chosen" and "dummy.chosen" not in done:
            # each choice names its hand by its card points and cards, not only "hand 1"
            label = page.locator(".legal-list button").first.inner_text()
            assert "hand 1 becomes the dummy (" in label and " card points: " in label
            check_page(page, axe_script, "piccadilly-dummy-choice")
        done.append(play_step(page, moves))
        if done[-1] == "dummy.chosen" and done.count("dummy.chosen") == 2:
            assert page.locator(".hand-box").count() == 4
            check_page(page, axe_script, "piccadilly-part-two")
    # then the hand's figures are shown as the API's game JSON gives them
    assert done.count("cards.dealt") == 1 and done.count("card.played") == 20 + 52
    assert done.count("trick.won") == 10 + 13
    stream = Stream.objects.get(pk=game.pk)
    sheet = game_json(folding.load(stream), stream_id=stream.pk, status="finished")["hand_sheet"]
    figures = page.locator('[data-role="figures"]')
    assert "The hand's figures" in figures.inner_text()
    for label, key in (("Hand total", "hand_totals"), ("Game points", "game_points")):
        row = figures.locator("tr", has_text=label).locator("td").all_inner_texts()
        assert row == [str(value) for value in sheet[key]]
    assert "Game over" in status_text(page)
    check_page(page, axe_script, "piccadilly-over")


def test_the_solvers_advice_is_shown_on_request_for_a_study_position_only(
    keeper_page: Any, keeper: Any, axe_script: str
) -> None:
    page = keeper_page
    study = services.game_start(
        kind="scarney-solitaire", seats=[{"name": "Ann"}], setup={"position": STUDY}, user=keeper
    )
    expected = analysis.analyse(Stream.objects.get(pk=study.pk))
    page.goto(f"/games/{study.pk}/")
    # hidden by default: nothing of the solver's answer is on the page until asked for
    advice = page.locator('[data-role="advice"]')
    assert advice.get_attribute("open") is None
    assert "Best total" not in page.content()
    advice.locator("summary").click()
    page.wait_for_selector('[data-role="advice-text"]')
    assert f"Best total from here: {expected['value']}" in advice.inner_text()
    assert page.locator('[data-role="advice-line"] li').count() == len(expected["line"])
    check_page(page, axe_script, "solitaire-advice")
    # a live game (no study position) offers no advice
    live = services.game_start(kind="scarney-solitaire", seats=[{"name": "Bo"}], user=keeper)
    page.goto(f"/games/{live.pk}/")
    assert page.locator('[data-role="advice"]').count() == 0
