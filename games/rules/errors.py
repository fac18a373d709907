"""Errors raised by the rule engines.

Every refusal carries a stable dotted ``code`` (documented in RULES.md and docs/ERRORS.md), a
sentence for a person, and the data fields that name what was involved.

The rules know seats, not names: a sentence names a seat through ``wording.player_at``, and the
error keeps that sentence (``template``) with the seats it names (``seats_named``). The service
that refused a stream's event gives it the stream's labels (``labels``), and the faces word it
with them (games.play.refusals); ``message`` is the sentence with seat numbers, for a log.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeGuard

from games.rules.wording import seats_named, worded


class RuleError(Exception):
    """Base of every error a rule engine raises."""

    def __init__(self, code: str, message: str, **data: Any) -> None:
        self.template = message
        self.message = worded(message)
        super().__init__(self.message)
        self.code = code
        self.data = data
        self.seats_named = seats_named(message)
        # Each seat's label, given by the service that knows the stream (empty: numbers).
        self.labels: Mapping[int, str] = {}

    def sentence(self, labels: Mapping[int, str] | None = None) -> str:
        """The sentence with each seat it names said by ``labels`` (else by its own)."""
        return worded(self.template, self.labels if labels is None else labels)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class IllegalEvent(RuleError):
    """The rules forbid this event in this state (HTTP 422 at the boundary)."""


class BadRuleset(RuleError):
    """A house-rule override names an unknown parameter or gives a bad value."""


class BadSetup(RuleError):
    """The game's setup (seats, study position, ...) cannot start a game."""


class StateConflict(IllegalEvent):
    """The event fits, but not yet: what it waits for is still under way (HTTP 409), as a round
    that cannot be paired while a table of the last one still plays."""


class NotThere(RuleError):
    """What the request's address names is not there (HTTP 404 with its code), as a keeper to
    drop who is not one: a thing of the path, where one of the body is the rules' 422."""


def seat_unknown(seat: Any, seats: int, field: str | None = "seat") -> IllegalEvent:
    """A seat number the table has not got: an event's declaration takes any seat up to the
    family's largest table, this table has ``seats``."""
    return IllegalEvent(
        "seat.unknown",
        f"This table has {seats} seats, numbered 0 to {seats - 1}: there is no seat {seat}.",
        field=field,
        seat=seat,
    )


def is_seat_number(value: Any) -> TypeGuard[int]:
    """A whole number (not true or false) that could name a seat; whether the table has it is
    :func:`seat_unknown`'s question."""
    return isinstance(value, int) and not isinstance(value, bool)


def wrong_length(field: str, rows: Any, expected: int, what: str) -> IllegalEvent:
    """A sheet's row (or rows) of the wrong length: ``what`` says what its ``expected`` items
    are ("one score per seat")."""
    return IllegalEvent(
        "sheet.wrong_length",
        f"'{field}' must list {what}: {expected}, not {len(rows)}.",
        field=field,
        count=len(rows),
        expected=expected,
    )


def check_row_lengths(field: str, rows: Any, expected: int, what: str) -> None:
    """Each row of a sheet's grid (a list of lists) has ``expected`` cells, or it is
    :func:`wrong_length`; what is not such a grid is the caller's to refuse."""
    if not isinstance(rows, list | tuple):
        return
    for row in rows:
        if isinstance(row, list | tuple) and len(row) != expected:
            raise wrong_length(field, row, expected, what)
