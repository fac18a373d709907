"""A game's view and a stream's events hold to what its rules declare (games/rules/shapes.py).

The conformance tests call :func:`assert_declared` after every move they record, so every
position of their random play checks the declarations the OpenAPI schema and the pages rely on.
"""

from __future__ import annotations

from typing import Any

from games.rules.base import ReportsToMatch
from games.rules.events import UNDO
from games.rules.shapes import ShapeError
from games.store import folding
from games.store.models import Stream


def assert_declared(folded: folding.Folded) -> None:
    """The folded game's view fits its kind's ``view_shape``, exactly (no field more or less)."""
    if folded.category != Stream.Category.GAME:
        return
    rules = folded.game_rules
    view = rules.view(folded.state)
    try:
        rules.view_shape.check(view)
    except ShapeError as error:
        raise AssertionError(
            f"{rules.kind}'s view does not fit its view_shape at {error.path!r}: expected "
            f"{error.expected} {list(error.unknown) or ''}; the view: {_short(view)}"
        ) from None


def assert_move_declared(folded: folding.Folded, move: Any) -> None:
    """A move the rules took fits the declaration of its type (the game's, or the match's)."""
    if move.type == UNDO:
        return
    rules: Any = folded.game_rules if folded.category == Stream.Category.GAME else None
    if rules is None and folded.category == Stream.Category.MATCH:
        rules = folded.match_rules
    if rules is None:
        return
    declared = rules.events.get(move.type)
    assert declared is not None, f"{rules.kind} takes {move.type} but does not declare it"
    try:
        declared.check(dict(move.data))
    except ShapeError as error:
        raise AssertionError(
            f"{rules.kind}'s {move.type} {dict(move.data)!r} does not fit its declaration at "
            f"{error.path!r}: expected {error.expected} {list(error.unknown) or ''}"
        ) from None
    if folded.category == Stream.Category.GAME and isinstance(rules, ReportsToMatch):
        if rules.is_terminal(folded.state):
            rules.report_shape.check(rules.match_report(folded.state))


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) < 1500 else text[:1500] + " ..."
