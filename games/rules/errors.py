"""Errors raised by the rule engines.

Every refusal carries a stable dotted ``code`` (documented in RULES.md and docs/ERRORS.md), a
sentence for a person, and the data fields that name what was involved.
"""

from __future__ import annotations

from typing import Any


class RuleError(Exception):
    """Base of every error a rule engine raises."""

    def __init__(self, code: str, message: str, **data: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

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
