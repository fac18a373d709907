"""The scoring pages in a real browser: a sheet match entered on its page, a small Swiss's page,
the room's scoreboard following the API, and the keeper's and the visitor's home page.

Each page is checked at a phone's and a desktop's size (no sideways scroll, axe, screenshots in
var/screenshots/) and its touch targets measured.
"""

from __future__ import annotations

import re
import time
import uuid
from contextlib import nullcontext
from typing import Any

import pytest
from django.test import Client

from games.play import services
from games.store.models import Event, Stream
from tests.games.pages.browsing import check_page, check_targets, on_screen, status_text
from tests.games.tournaments.helpers import client_for, create, enter, high_low_win, pair
from tests.games.tournaments.helpers import sheet_line as api_sheet_line

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]


def enter_line(page: Any, scores: list[int]) -> None:
    for seat, score in enumerate(scores):
        page.fill(f'[data-role="line-form"] input[data-seat="{seat}"]', str(score))
    page.click('[data-action="record-line"]')
    page.wait_for_load_state()


def points_of(page: Any, seat: int) -> int:
    return int(page.locator(f'[data-role="chart"] .series[data-seat="{seat}"] .point').count())


def test_a_sheet_match_is_entered_on_its_page_with_a_refusal_and_its_chart(
    keeper_page: Any, keeper: Any, axe_script: str
) -> None:
    page = keeper_page
    match = services.match_start(
        format="high-low-scarney",
        players=[{"name": "Ann"}, {"name": "Bob"}],
        entry="sheet",
        user=keeper,
    )
    page.goto(f"/matches/{match.pk}/")
    assert "Game 1 is next" in status_text(page)
    # the form says the rule its lines follow
    assert page.locator('[data-role="rule"]').inner_text() == (
        "Only the winner of a game scores (the other 0); the first to reach 100 wins the match."
    )
    # a score no High-Low game gives: refused beside the boxes, focused, and its box cleared
    enter_line(page, [999, 0])
    assert "Not recorded: 999 is not a possible High-Low Scarney score (Ann, game 1)" in (
        status_text(page)
    )
    form_card = page.locator('section:has([data-role="line-form"])')
    assert form_card.locator('[data-role="status"] [data-role="refusal"]').count() == 1
    assert page.evaluate("document.activeElement.id") == "line-refusal"
    assert on_screen(page, page.locator("#line-refusal"))
    ann, bob = (page.locator(f'[data-role="line-form"] input[data-seat="{s}"]') for s in (0, 1))
    assert ann.input_value() == "" and bob.input_value() == "0"
    assert ann.get_attribute("aria-invalid") == "true"
    assert form_card.locator('[data-role="cleared"]').inner_text() == (
        "999 was refused; the box is cleared."
    )
    check_page(page, axe_script, "table-sheet-refused")
    ann.click()
    ann.press_sequentially("10")
    assert ann.input_value() == "10"  # not "99910"
    # a line the strict sheet check refuses: the service's sentence, nothing recorded
    enter_line(page, [5, 7])
    assert "Not recorded: Exactly one player, the winner, scores" in status_text(page)
    assert Stream.objects.get(pk=match.pk).version == 1
    check_page(page, axe_script, "match-sheet-refused")
    # two valid lines: the sheet writes "score – cumulative", the chart has a point per game
    enter_line(page, [34, 0])
    assert "Game 1 recorded" in status_text(page)
    enter_line(page, [0, 34])
    assert "Game 2 recorded" in status_text(page)
    sheet = page.locator('[data-role="sheet"]')
    assert "34 – 34" in sheet.locator('tr[data-game="2"]').inner_text()
    assert points_of(page, 0) == 2 and points_of(page, 1) == 2
    assert page.locator('[data-role="chart"] .series[data-marker="circle"]').count() == 1
    assert page.locator('[data-role="chart"] .series[data-marker="square"]').count() == 1
    assert page.locator("ul.legend li").count() == 2
    check_page(page, axe_script, "match-sheet")
    check_targets(page, "match-sheet")
    # the third win ends the match: bonuses itemised with their labels, payments
    enter_line(page, [34, 0])
    enter_line(page, [34, 0])
    assert "The match is over: Ann wins" in status_text(page) or "Game 4 recorded" in status_text(
        page
    )
    page.goto(f"/matches/{match.pk}/")
    footer = page.locator('[data-role="sheet"] tfoot').inner_text()
    assert "Match bonus 100" in footer and "match_bonus" not in footer
    assert "Bob pays Ann" in page.locator('[data-role="payments"]').inner_text()
    assert points_of(page, 0) == 4
    assert page.locator('[data-role="line-form"]').count() == 0
    check_page(page, axe_script, "match-sheet-settled")


def test_a_resent_line_records_once_and_a_lenient_sheet_shows_its_warning(
    user: Any,
) -> None:
    match = services.match_start(
        format="scarney-solitaire",
        players=[{"name": "Sid"}],
        entry="sheet",
        ruleset={"sheet_entry_validation": "lenient"},
        user=user,
    )
    keeper = Client()
    keeper.force_login(user)
    form = keeper.get(f"/matches/{match.pk}/").content.decode()
    event_id = re.search(r'name="id" value="([^"]+)"', form).group(1)  # type: ignore[union-attr]
    line = {"id": event_id, "expected_version": "1", "score_0": "45"}
    first = keeper.post(f"/matches/{match.pk}/lines/", line)
    again = keeper.post(f"/matches/{match.pk}/lines/", line)
    assert first.status_code == 201 and again.status_code == 200
    assert Event.objects.filter(stream=match.pk, type="game.scored").count() == 1
    assert "Accepted with a warning" in first.content.decode()
    assert "score.unattainable" in again.content.decode()
    stale = keeper.post(f"/matches/{match.pk}/lines/", {**line, "id": str(uuid.uuid4())})
    assert stale.status_code == 409 and "Another device recorded a line first" in stale.text
    unread = keeper.post(f"/matches/{match.pk}/lines/", {**line, "score_0": "lots"})
    assert unread.status_code == 400 and "could not be read (Sid" in unread.text
    assert Client().get(f"/matches/{match.pk}/").status_code == 401
    assert Client().post(f"/matches/{match.pk}/lines/", line).status_code == 401
    assert Client().get(f"/matches/{uuid.uuid4()}/").status_code == 404


def test_a_line_that_loses_a_race_can_be_sent_again_from_the_page_it_answers(user: Any) -> None:
    match = services.match_start(
        format="high-low-scarney",
        players=[{"name": "Ann"}, {"name": "Bob"}],
        entry="sheet",
        user=user,
    )
    keeper = Client()
    keeper.force_login(user)
    page = keeper.get(f"/matches/{match.pk}/").content.decode()
    # given another device records game 1 first
    api_line = {"id": str(uuid.uuid4()), "expected_version": "1", "score_0": "34", "score_1": "0"}
    assert keeper.post(f"/matches/{match.pk}/lines/", api_line).status_code == 201
    # when this page sends its line on the sheet it saw
    mine = {"id": form_value(page, "id"), "expected_version": "1", "score_0": "0", "score_1": "34"}
    lost = keeper.post(f"/matches/{match.pk}/lines/", mine)
    assert lost.status_code == 409
    assert "Another device recorded a line first" in lost.text
    # then the form it answers expects the sheet as it is now, so sending it again records it
    assert form_value(lost.text, "expected_version") == "2"
    again = {**mine, "id": form_value(lost.text, "id"), "expected_version": "2"}
    assert keeper.post(f"/matches/{match.pk}/lines/", again).status_code == 201
    assert Event.objects.filter(stream=match.pk, type="game.scored").count() == 2


def form_value(html: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', html)
    assert found, f"no {name} in the form"
    return found.group(1)


@pytest.fixture
def swiss(keeper: Any) -> dict[str, Any]:
    """Five players, two rounds of High-Low by sheet: round 1 paired, table 1 played, keeper
    assigned to table 2."""
    _director, api = client_for("director", staff=True)
    made = create(api, format="high-low-scarney", system="swiss", rounds=2)
    enter(api, made["id"], NAMES)
    played = pair(api, made["id"])
    high_low_win(api, played["tables"][0]["match"], 0, lambda execute: nullcontext())
    assigned = api.post(
        f"/api/v1/tournaments/{made['id']}/keepers/",
        {"round": 1, "table": 2, "user": keeper.username},
        format="json",
    )
    assert assigned.status_code == 201, assigned.json()
    return {"id": made["id"], "api": api, "round": played}


def test_the_tournament_page_shows_rounds_standings_and_who_owes_whom(
    keeper_page: Any, swiss: dict[str, Any], axe_script: str
) -> None:
    page = keeper_page
    # the keeper's home page: his table today, linked to its score sheet
    page.goto("/")
    mine = page.locator('[data-role="my-tables"]')
    table_two = swiss["round"]["tables"][1]
    assert "round 1, table 2" in mine.inner_text()
    assert mine.locator(f'a[href="/matches/{table_two["match"]}/"]').count() == 1
    check_page(page, axe_script, "home-keeper-tables")
    page.goto(f"/tournaments/{swiss['id']}/")
    text = page.locator("main").inner_text()
    assert "Swiss" in text and "High-Low Scarney" in text and "Running" in text
    rows = page.locator('[data-role="standings"] tbody tr')
    assert (
        rows.count() == 5
        and rows.first.locator("th").inner_text() == swiss["round"]["tables"][0]["seats"][0]["name"]
    )
    assert "Buchholz" in page.locator('[data-role="standings"] thead').inner_text()
    page.click('[data-role="explain"] summary')
    assert "Buchholz: the sum" in page.locator('[data-role="explain"]').inner_text()
    still = page.locator('[data-role="missing"]').inner_text()
    assert " v ".join(s["name"] for s in table_two["seats"]) in still
    assert "kept by keeper" in page.locator('[data-table="2"]').inner_text()
    assert "Byes:" in page.locator('[data-role="byes"]').inner_text()
    assert " pays " in page.locator('[data-role="settlement"]').inner_text()
    check_page(page, axe_script, "tournament")
    check_targets(page, "tournament")
    page.click(f'a[href="/matches/{table_two["match"]}/"]')
    assert page.locator('[data-role="line-form"]').count() == 1  # the keeper may enter it


def test_the_scoreboards_follow_a_result_recorded_by_another_client_within_two_seconds(
    page: Any, swiss: dict[str, Any], axe_script: str
) -> None:
    # a visitor's home page lists the open scoreboard
    page.goto("/")
    page.locator('[data-role="scoreboards"] a').first.click()
    page.wait_for_selector('[data-role="scoreboard"] [data-table="2"]')
    check_page(page, axe_script, "scoreboard")
    table_two = swiss["round"]["tables"][1]
    totals = page.locator('[data-role="scoreboard"] [data-table="2"] [data-role="total"]')
    assert totals.all_inner_texts() == ["0", "0"]
    board = page.context.new_page()
    board.goto(f"/tournaments/{swiss['id']}/scoreboard/table/2/")
    check_page(board, axe_script, "scoreboard-table")
    # another client records a game of table 2 over the API
    answer = api_sheet_line(swiss["api"], table_two["match"], [34, 0])
    assert answer.status_code == 201, answer.json()
    recorded = time.monotonic()
    page.wait_for_function(
        '() => document.querySelector(\'[data-table="2"] [data-role="total"]\')'
        ".textContent.trim() === '34'",
        timeout=2000,
    )
    board.wait_for_function(
        "() => document.querySelector('[data-role=\"games\"]') !== null", timeout=2000
    )
    assert time.monotonic() - recorded < 2.0
    assert "34 – 34" in board.locator('[data-role="games"]').inner_text()
    assert page.locator("header.site").is_hidden()  # no controls on the room's screen


def test_a_live_move_at_a_table_shows_on_its_scoreboard_within_two_seconds(
    page: Any, axe_script: str
) -> None:
    # given a live High-Low tournament's table, its game three pawns from the end
    director, api = client_for("director", staff=True)
    made = create(api, format="high-low-scarney", system="swiss", rounds=1, entry="live")
    enter(api, made["id"], ["Ann", "Bob"])
    match = pair(api, made["id"])["tables"][0]["match"]
    position = {"C1": "B1", "C2": "B2", "C16": "R4"}
    game = services.game_start(
        kind="high-low-scarney",
        seats=[{"name": "Ann"}, {"name": "Bob"}],
        setup={"position": position, "to_move": 0},
        match_id=uuid.UUID(match),
        user=director,
    )
    page.goto(f"/tournaments/{made['id']}/scoreboard/table/1/")
    totals = page.locator('[data-role="scoreboard"] [data-role="total"]')
    assert totals.all_inner_texts() == ["0", "0"]
    check_page(page, axe_script, "scoreboard-live-table")
    # when another client records the pair's removal over the API, ending the game on the R4
    body = {"id": str(uuid.uuid4()), "type": "pawns.removed", "data": {"circles": [1, 2]}}
    answer = api.post(f"/api/v1/games/{game.pk}/events/", body, format="json")
    assert answer.status_code == 201, answer.json()
    recorded = time.monotonic()
    # then the table's screen shows the mover's 3 spots within 2 s, without a reload
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-role=\"total\"]')]"
        ".some(cell => cell.textContent.trim() === '3')",
        timeout=2000,
    )
    assert time.monotonic() - recorded < 2.0
