"""A stream's moves hold to what their own game or format declares (games/rules/shapes.py).

Every saved event and every game view after it is checked against the declarations by the store
in the test suite (``CHECK_DECLARED``, games/store/folding.py); the conformance tests also call
:func:`assert_move_declared` after every move they record, which holds a move to its own game's
declaration (stricter than the union of every game's the store checks) and a finished game's
report to its ``report_shape``.
"""

from __future__ import annotations

from typing import Any

from games.rules.base import ReportsToMatch
from games.rules.events import UNDO
from games.rules.shapes import ShapeError
from games.store import folding
from games.store.models import Stream


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
