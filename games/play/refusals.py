"""What a refused write means to whoever asked: one status, one code, one sentence, its facts.

Every face shows a service's refusal from here: the API answers ``{"code", "detail", ...}`` with
the status (games.api.http.exceptions), the pages put the sentence beside the control that was
refused, the admin shows it as an error message. So a refusal reads the same wherever it is met.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.play.permissions import NotPermitted
from games.rules.errors import RuleError, StateConflict
from games.store.canonical import BadValue
from games.store.journal import EventIdReused, VersionConflict

# What the services raise to refuse a write; anything else that escapes them is a bug.
REFUSED: tuple[type[Exception], ...] = (
    RuleError,
    NotPermitted,
    BadValue,
    VersionConflict,
    EventIdReused,
)


@dataclass(frozen=True)
class Refusal:
    """A refused write: the HTTP status, the stable code, a sentence for a person, and the facts
    a client needs beyond them (``current_version`` of a conflict, the rule's own fields)."""

    status: int
    code: str
    sentence: str
    facts: dict[str, Any] = field(default_factory=dict)

    def answer(self) -> dict[str, Any]:
        """The API's body (docs/API.md "Errors")."""
        return {"code": self.code, "detail": self.sentence, **self.facts}


def refusal_of(error: Exception, *, what: str | None = None) -> Refusal | None:
    """The refusal ``error`` stands for, None if it is not a refusal.

    ``what`` names what the person sent (``"move"``, ``"line"``): a version conflict then says
    that another device recorded one first, which is what happened at a table.
    """
    if isinstance(error, RuleError):
        status = 409 if isinstance(error, StateConflict) else 422
        facts = {k: v for k, v in error.data.items() if k not in ("code", "detail")}
        return Refusal(status, error.code, error.message, facts)
    if isinstance(error, NotPermitted):
        status = 401 if error.code == "permission.login_required" else 403
        return Refusal(status, error.code, error.message)
    if isinstance(error, VersionConflict):
        return Refusal(
            409,
            "version.conflict",
            _conflict_sentence(error.current_version, what),
            {"current_version": error.current_version},
        )
    if isinstance(error, EventIdReused):
        return Refusal(409, "event.id_reused", str(error), {"id": str(error.event_id)})
    if isinstance(error, BadValue):
        return Refusal(400, error.code, error.message)
    return None


def _conflict_sentence(version: int, what: str | None) -> str:
    if what is None:
        return f"The stream moved on: it is at version {version}."
    return (
        f"Another device recorded a {what} first, so this one was not recorded. "
        f"Here it is as it stands now (version {version})."
    )
