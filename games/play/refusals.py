"""What a refused write means to whoever asked: one status, one code, one sentence, its facts.

Every face shows a service's refusal from here: the API answers ``{"code", "detail", ...}`` with
the status (games.api.http.exceptions), the pages put the sentence beside the control that was
refused, the admin shows it as an error message. So a refusal reads the same wherever it is met.

A rule's sentence names seats, never players (games.rules.wording.player_at): the service that
refused a stream's event gives the refusal the stream's labels (:func:`labelled`, the one place
play does so), and :func:`refusal_of` words the sentence with them, "(Ann, game 1)" where the
rules said "(seat 0, game 1)".
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from games.play.permissions import NotPermitted
from games.rules.errors import NotThere, RuleError, StateConflict
from games.rules.shapes import (
    Boolean,
    Integer,
    ListOf,
    MapOf,
    Nullable,
    Number,
    Record,
    Shape,
    ShapeError,
    Text,
    one_of,
)
from games.rules.wording import told_apart
from games.store.canonical import BadValue
from games.store.journal import EventIdReused, VersionConflict

# The facts a refusal may carry beside its code and sentence, each typed once (the OpenAPI
# schema's Error component is made from these; the suite checks every refusal it meets against
# them, CHECK_DECLARED). A fact named by several rules is the union of what they give.
_SCALAR = one_of(Integer(), Number(), Text(500), Boolean(), doc="a number, text or true/false")
_SCALARS = ListOf(Nullable(_SCALAR), 1000, doc="a list of numbers or texts")
_NAMES = ListOf(Text(100), 1000, doc="names")
_ANY_FACT = Nullable(one_of(_SCALAR, _SCALARS, ListOf(_SCALARS, 1000)))


def _messages(depth: int) -> Shape:
    """request.invalid's messages by field, as nested as the body (a seat of a list: by index)."""
    messages = ListOf(Text(1000), 100, doc="the messages")
    if depth == 0:
        return messages
    inner = _messages(depth - 1)
    by_field = MapOf(inner, Text(100), doc="the messages by field (or by index in a list)")
    return one_of(messages, by_field, ListOf(by_field, 100))


FACTS: Mapping[str, Shape] = {
    "current_version": Integer(0, doc="version.conflict: the stream's version now"),
    "id": Text(36, doc="event.id_reused: the event id"),
    "field": Nullable(Text(200), doc="the field of the request the refusal is about"),
    "fields": ListOf(Text(200), 1000, doc="the fields refused"),
    "known": _NAMES,
    "keys": _NAMES,
    "unknown": _NAMES,
    "missing": _ANY_FACT,
    "expected": _ANY_FACT,
    "parameter": Text(100, doc="ruleset.*: the house rule"),
    "parameters": _NAMES,
    "errors": _messages(4),
    "candidates": ListOf(
        Record(
            {"player": Integer(1, doc="a player's id"), "name": Text(100, doc="the name")},
            doc="a player who could be meant",
        ),
        1000,
        doc="player.ambiguous: the players of that name",
    ),
    "settlement": Record(
        {"payments": ListOf(MapOf(Number(), Text(8)), 1000), "nets": ListOf(Number(), 64)},
        frozenset({"payments", "nets"}),
        "match.settlement_mismatch: the settlement the rules give",
    ),
    **{
        name: _ANY_FACT
        for name in (
            "banked blockers card cards categories category choices circle circles "
            "colour colours count cumulative extra faces format frame game hand holder locked "
            "minimum occupant opponent over pawn pawns pending position positions rating round "
            "rule score scores seat seats shooter showing station stations teams totals type "
            "unconfirmed value winner"
        ).split()
    },
}


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
        if settings.CHECK_DECLARED:
            check_facts(self.code, self.facts)
        return {"code": self.code, "detail": self.sentence, **self.facts}


def check_facts(code: str, facts: Mapping[str, Any]) -> None:
    """Assert that a refusal's facts are among :data:`FACTS`, of their declared shapes."""
    for name, value in facts.items():
        assert name in FACTS, f"{code} carries {name!r}, a fact FACTS does not declare"
        try:
            FACTS[name].check(json.loads(json.dumps(value, default=str)), name)
        except ShapeError as error:
            raise AssertionError(f"{code}'s {name!r}: {error.path}: {error.expected}") from None


def refusal_of(error: Exception, *, what: str | None = None) -> Refusal | None:
    """The refusal ``error`` stands for, None if it is not a refusal.

    ``what`` names what the person sent (``"move"``, ``"line"``): a version conflict then says
    that another device recorded one first, which is what happened at a table.
    """
    if isinstance(error, RuleError):
        status = 409 if isinstance(error, StateConflict) else 422
        if isinstance(error, NotThere):
            status = 404
        facts = {k: v for k, v in error.data.items() if k not in ("code", "detail")}
        return Refusal(status, error.code, error.sentence(), facts)
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


# --- the seats' labels -------------------------------------------------------------------------


def labels_of(header: Mapping[str, Any]) -> dict[int, str]:
    """Each seat's label as a stream's header names it (a game's ``seats``, a match's
    ``players``): two players of one name told apart, "Pat (1)" and "Pat (2)"."""
    seated = header.get("seats") or header.get("players") or []
    names = {
        s["seat"]: s["name"]
        for s in seated
        if isinstance(s, Mapping) and isinstance(s.get("seat"), int) and s.get("name")
    }
    return told_apart(names)


@contextmanager
def labelled(header: Mapping[str, Any]) -> Iterator[None]:
    """A refusal raised within names the seats of the stream ``header`` starts (its labels)."""
    try:
        yield
    except RuleError as error:
        if not error.labels:
            error.labels = labels_of(header)
        raise
