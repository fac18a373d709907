"""Tried at the table (issue 36, item 4), in a real browser where a layout is the point: the
Solitaire tray's rows at a phone's width, its undo before any move, and the room's scoreboard
read on a phone, every letter of it at 12 px or more (Lighthouse's legible size)."""

from __future__ import annotations

from typing import Any

from django.test import Client

from games.play import services
from tests.games.pages.browsing import place, tap_move
from tests.games.pages.conftest import SCREENSHOTS
from tests.games.tournaments.helpers import client_for, create, enter, high_low_win, pair

LAYOUT = "R4 Y2 Y1 B3 R2 G3 G4 B2 B1 R3 B4 G1 G2 Y3 Y4 R1".split()

# The space between one row of the tray's pawns and the next, in px (the rows' own tops).
ROW_GAPS = """() => {
  const boxes = [...document.querySelectorAll('[data-tray]')].map(e => e.getBoundingClientRect());
  const rows = [...new Set(boxes.map(b => Math.round(b.top)))].sort((a, b) => a - b);
  const bottom = (top) =>
    Math.max(...boxes.filter(b => Math.round(b.top) === top).map(b => b.bottom));
  return rows.slice(1).map((top, i) => top - bottom(rows[i]));
}"""

# Every displayed text's font size in px, with how many characters it holds (Lighthouse's
# font-size audit weighs text so).
TEXT_SIZES = """() => {
  const sizes = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, text = node.textContent.trim();
    const parent = node.parentElement;
    if (!text || !parent || parent.closest('script, style, [hidden]')) continue;
    const box = parent.getBoundingClientRect();
    if (!box.width || !box.height || getComputedStyle(parent).visibility === 'hidden') continue;
    sizes.push([parseFloat(getComputedStyle(parent).fontSize), text.length, text.slice(0, 30)]);
  }
  return sizes;
}"""


def test_the_solitaire_tray_rows_sit_close_and_undo_waits_for_a_move(
    keeper_page: Any, keeper: Any
) -> None:
    page = keeper_page  # 390 px wide
    game = services.game_start(kind="scarney-solitaire", seats=[{"name": "Ann"}], user=keeper)
    page.goto(f"/games/{game.pk}/")
    # the sixteen pawns wrap onto rows about as far apart as the pawns are side by side
    gaps = page.evaluate(ROW_GAPS)
    assert len(gaps) >= 2, gaps
    assert all(0 <= gap <= 10 for gap in gaps), gaps
    page.screenshot(path=str(SCREENSHOTS / "solitaire-tray-390.png"), full_page=True)
    # before any move there is nothing to take back: no undo shown
    assert not page.locator('[data-action="undo"]').is_visible()
    for number, pawn in enumerate(LAYOUT, start=1):
        place(page, pawn, f"C{number}")
    assert not page.locator('[data-action="undo"]').is_visible()
    tap_move(page, '[data-action="lay-out"]')
    # once the layout is recorded, it can be taken back
    assert page.locator('[data-action="undo"]').is_visible()


def test_the_scoreboard_on_a_phone_has_no_text_under_12_px(
    page: Any, django_capture_on_commit_callbacks: Any
) -> None:
    _director, api = client_for("director", staff=True)
    made = create(api, name="Friday Swiss", format="high-low-scarney", system="swiss", rounds=3)
    enter(api, made["id"], ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"])
    played = pair(api, made["id"])
    # one table finished (its state and result shown), two still playing
    high_low_win(api, played["tables"][0]["match"], 0, django_capture_on_commit_callbacks)
    page.goto(f"/tournaments/{made['id']}/scoreboard/")  # 390 x 844
    page.locator('[data-role="standings"]').wait_for()
    sizes = page.evaluate(TEXT_SIZES)
    assert sizes
    small = [(size, text) for size, _count, text in sizes if size < 12]
    assert small == [], small
    page.screenshot(path=str(SCREENSHOTS / "scoreboard-phone-390.png"), full_page=True)


def test_the_keepers_table_panel_says_play_goes_on_instead_of_an_empty_box(db: Any) -> None:
    """Not in a browser: what the panel says is the point, not how it is laid out."""
    _director, api = client_for("dora", staff=True)
    made = create(api, format="high-low-scarney", system="swiss", rounds=2)
    enter(api, made["id"], ["Ann", "Bob"])
    match = pair(api, made["id"])["tables"][0]["match"]
    keeper_user, _keeper = client_for("bob")
    api.post(
        f"/api/v1/tournaments/{made['id']}/keepers/",
        {"round": 1, "table": 1, "user": "bob"},
        format="json",
    )
    keeper = Client()
    keeper.force_login(keeper_user)
    html = keeper.get(f"/matches/{match}/").content.decode()
    panel = html[html.index('data-role="table-panel"') :]
    panel = panel[: panel.index("</section>")]
    assert "Table 1, round 1" in panel
    assert 'data-role="table-playing"' in panel
    assert "Play goes on at this table" in panel
