"""The board games played by taps in a real browser: Solitaire, Doubles, High-Low."""

from __future__ import annotations

import re
from typing import Any

from games.play import services
from games.rules.scarney_board.solitaire import TAKEOFF, State
from games.rules.scarney_board.solve.solitaire import best_line
from games.store import folding
from games.store.models import Stream
from tests.games.pages.browsing import check_page, place, status_text, tap_move, wait_version

# A layout whose best line ends with two bonuses (black corner and black), 134 in all.
LAYOUT = "R4 Y2 Y1 B3 R2 G3 G4 B2 B1 R3 B4 G1 G2 Y3 Y4 R1".split()


def test_a_whole_solitaire_game_is_played_by_taps_to_its_score_and_bonuses(
    keeper_page: Any, axe_script: str
) -> None:
    page = keeper_page
    # given the home page's form
    page.goto("/")
    check_page(page, axe_script, "home-keeper")
    page.select_option("#id_kind", "scarney-solitaire")
    page.fill("#id_seats", "Ann")
    page.click("text=Start the game")
    page.wait_for_url(re.compile(r"/games/[0-9a-f-]+/$"))
    assert "Ann to lay out the board" in status_text(page)
    # when the 16 pawns are laid out by taps, a pawn in the tray and then its circle
    for number, pawn in enumerate(LAYOUT, start=1):
        place(page, pawn, f"C{number}")
    check_page(page, axe_script, "solitaire-layout")
    tap_move(page, '[data-action="lay-out"]')
    assert "take off a low pawn" in status_text(page)
    # and the solver's best line is played: the take-off by tapping the pawn, each jump by
    # tapping the pawn and then its landing circle (a legal landing is highlighted)
    line = best_line(State(TAKEOFF, board=tuple(LAYOUT))).line
    taken_off = line[0].data["circle"]
    tap_move(page, f'[data-circle="C{taken_off}"]')
    for number, jump in enumerate(line[1:]):
        page.click(f'[data-circle="C{jump.data["from"]}"]')
        assert page.locator(f'[data-circle="C{jump.data["to"]}"].target').count() == 1
        tap_move(page, f'[data-circle="C{jump.data["to"]}"]')
        if number == 4:
            check_page(page, axe_script, "solitaire-jumping")
    # then the game is over with its points, its bonuses itemised, its total and rating band
    # (a solo game has no winner, and the band keeps its own punctuation)
    assert status_text(page) == (
        "Ann's game is over: 13 pawns off the board, 134 points — rated “Excellent game”."
    )
    scores = page.locator('[data-role="scores"]')
    assert scores.locator('[data-bonus="black_corner"]').count() == 1
    assert scores.locator('[data-bonus="black"]').count() == 1
    assert scores.locator("td.total").inner_text() == "134"
    check_page(page, axe_script, "solitaire-over")


def test_doubles_changes_turns_and_high_low_removes_three_pawns(
    keeper_page: Any, keeper: Any, axe_script: str
) -> None:
    page = keeper_page
    game = services.game_start(
        kind="scarney-doubles", seats=[{"name": "Ann"}, {"name": "Bob"}], user=keeper
    )
    page.goto(f"/games/{game.pk}/")
    # the starter chooses his colours from the legal moves
    assert "Ann to choose two colours" in status_text(page)
    tap_move(page, "text=Choose black and red")
    # the pawns are placed alternately, each from the placer's own tray
    ann = iter("B1 R1 B2 R2 B3 R3 B4 R4".split())
    bob = iter("Y1 G1 Y2 G2 Y3 G3 Y4 G4".split())
    for circle in range(1, 17):
        placer, pawns = ("Ann", ann) if circle % 2 else ("Bob", bob)
        assert f"{placer} to place a pawn" in status_text(page)
        version = int(page.locator("#table").get_attribute("data-version"))
        place(page, next(pawns), f"C{circle}")
        wait_version(page, version + 1)
    check_page(page, axe_script, "doubles-placed")
    # the take-offs (nonstarter, then starter) and jumps change turns as the rules say
    for _ in range(3):
        folded = folding.load(Stream.objects.get(pk=game.pk))
        mover = folded.game_rules.current_player(folded.state)
        legal = folded.game_rules.legal_events(folded.state)
        assert mover is not None and legal
        assert f"{['Ann', 'Bob'][mover]} to" in status_text(page)
        move = legal[0]
        if move.type == "pawn.taken_off":
            tap_move(page, f'[data-circle="C{move.data["circle"]}"]')
        else:
            page.click(f'[data-circle="C{move.data["from"]}"]')
            tap_move(page, f'[data-circle="C{move.data["to"]}"]')
    check_page(page, axe_script, "doubles-jumping")

    # High-Low: three black pawns in a row removed at once
    position = {"C1": "B1", "C2": "B2", "C3": "B3", "C5": "R4", "C9": "Y1", "C16": "G3"}
    high_low = services.game_start(
        kind="high-low-scarney",
        seats=[{"name": "Ann"}, {"name": "Bob"}],
        setup={"position": position, "to_move": 0},
        user=keeper,
    )
    page.goto(f"/games/{high_low.pk}/")
    for name in ("C1", "C2", "C3"):
        page.click(f'[data-circle="{name}"]')
    assert page.locator(".circle.chosen").count() == 3
    check_page(page, axe_script, "high-low-selected")
    tap_move(page, '[data-action="remove"]')
    assert "Bob to remove pawns" in status_text(page)
    for name in ("C1", "C2", "C3"):
        assert page.locator(f'[data-circle="{name}"] [data-pawn]').count() == 0
