"""A game's view and a stream's events hold to what its rules declare (games/rules/shapes.py).

The conformance tests call :func:`assert_declared` after every move they record, so every
position of their random play checks the declarations the OpenAPI schema and the pages rely on.
"""

from __future__ import annotations

from typing import Any

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


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) < 1500 else text[:1500] + " ..."
