"""Steps the browser tests share: tapping the board and the dice, checking and shooting a page."""

from __future__ import annotations

from typing import Any

from games.store.models import Stream
from tests.games.pages.conftest import SCREENSHOTS, SIZES, dict_of


def status_text(page: Any) -> str:
    return str(page.locator('[data-role="status"]').inner_text())


def wait_version(page: Any, version: int) -> None:
    """Wait for the table to show ``version`` (the server's answer has been swapped in)."""
    page.wait_for_selector(f'#table[data-version="{version}"]')


def tap_move(page: Any, selector: str) -> None:
    """Tap something that records a move, and wait for the answer to replace the table."""
    version = int(page.locator("#table").get_attribute("data-version"))
    page.locator(selector).first.click()
    wait_version(page, version + 1)


def stream_version(game_id: Any) -> int:
    return Stream.objects.get(pk=game_id).version


def place(page: Any, pawn: str, circle: str) -> None:
    """Tap a pawn in the tray, then a circle."""
    page.click(f'[data-tray][data-pawn="{pawn}"]')
    page.click(f'[data-circle="{circle}"]')


def throw(page: Any, faces: list[str]) -> None:
    """Enter the faces thrown and record the throw."""
    for face in faces:
        page.click(f'[data-face="{face}"]')
    tap_move(page, '[data-action="throw"]')


# What a finger taps: buttons, fields, a checkbox's label, summaries and stand-alone links (links
# inside a sentence are exempt, as WCAG 2.5.8 has them).
TARGETS = (
    "header a, header button, main button, main .button, main select, main textarea, "
    "main input:not([type=hidden]):not([type=checkbox]), main label.check, main summary, "
    "main table.sheet a, main ul.games a"
)


def check_targets(page: Any, name: str) -> None:
    """Every visible touch target is at least 44 x 44 px at a phone's size."""
    page.set_viewport_size(dict_of(SIZES["phone"]))
    small = page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)]
             .filter(e => e.offsetParent !== null)
             .map(e => [e, e.getBoundingClientRect()])
             .filter(([e, r]) => r.height < 44 || r.width < 44)
             .map(([e, r]) => `${Math.round(r.width)}x${Math.round(r.height)} `
                              + e.outerHTML.slice(0, 80))""",
        TARGETS,
    )
    assert not small, f"{name}: touch targets under 44 px: {small}"


def tab_to(page: Any, selector: str, presses: int = 60) -> None:
    """Press Tab until the element matching ``selector`` has the keyboard focus."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def check_page(page: Any, axe_script: str, name: str) -> None:
    """At a phone's and a desktop's size: no horizontal scrolling, no serious or critical axe
    violation, and a full-page screenshot in var/screenshots/ to look at; at the phone's size,
    touch targets of at least 44 x 44 px."""
    check_targets(page, name)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for size in SIZES.values():
        page.set_viewport_size(dict_of(size))
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{name} scrolls sideways by {overflow}px at {size}"
        if not page.evaluate("typeof window.axe !== 'undefined'"):
            page.evaluate(axe_script)  # from outside the page: its policy refuses inline scripts
        violations = page.evaluate(
            "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
            ".filter(v => v.impact === 'serious' || v.impact === 'critical')"
            ".map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(', '))"
        )
        assert not violations, f"{name} at {size}: {violations}"
        page.screenshot(path=str(SCREENSHOTS / f"{name}-{size[0]}x{size[1]}.png"), full_page=True)
    page.set_viewport_size(dict_of(SIZES["phone"]))


def on_screen(page: Any, locator: Any) -> bool:
    """Whether the element lies wholly within the window, where the eye is."""
    box = locator.bounding_box()
    height = page.evaluate("window.innerHeight")
    return bool(box) and box["y"] >= 0 and box["y"] + box["height"] <= height


def gap_below(upper: Any, lower: Any) -> float:
    """How far below ``upper``'s bottom edge ``lower`` starts, in CSS pixels."""
    above, below = upper.bounding_box(), lower.bounding_box()
    return float(below["y"] - (above["y"] + above["height"]))
