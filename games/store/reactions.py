"""Reactions across contexts: registered when Django starts, called here, never imported.

The store and play never import what reacts to them (the read side, the tournaments' services,
the webhooks). Each of those registers in its ``AppConfig.ready()``, as a Bus subscriber would:

- ``subscribe(topic, handler)``: ``publish(topic, **facts)`` calls every handler of the topic, in
  the appending transaction, in the order they registered. Topics and their facts:
  ``APPENDED`` (``event``: an event appended by the locked path), ``MATCH_CLOSED`` (``stream``,
  ``folded``, ``data``: a match's closing event, settlement or rating, just appended),
  ``REBUILT`` (no facts: every read model was rebuilt from the events).
- ``answer(question, handler)``: ``ask(question, **facts)`` is the first registered answer that
  is not None. ``DUPLICATE_LAYOUT`` (``match``, ``number``): the layout a tournament's duplicate
  round starts its games on. ``RATINGS`` (``kind``, ``players``): the players' ratings in a game
  kind, ``{player: rating}`` (the read side's; a player without one is left out), which a
  tournament seeded by rating orders its first round by.
- ``register(models)``: the read models kept in step in the appending transaction (the read
  side's ``scoring.projections``), with the SQL pieces the fast path adds to its one statement.
  With no read side installed an append would leave them behind, so it fails loudly instead.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from django.core.exceptions import ImproperlyConfigured

if TYPE_CHECKING:
    from games.store.folding import Folded
    from games.store.journal import StoredEvent
    from games.store.models import Stream

APPENDED = "event.appended"
MATCH_CLOSED = "match.closed"
DUPLICATE_LAYOUT = "match.duplicate_layout"
RATINGS = "players.ratings"
RESULT_CONFIRMED = "result.confirmed"
REBUILT = "read_models.rebuilt"
PUBLICATION = "tournament.publication"

_subscribers: dict[str, list[Callable[..., object]]] = {}
_answers: dict[str, list[Callable[..., Any]]] = {}


def subscribe(topic: str, handler: Callable[..., object]) -> None:
    """Call ``handler(**facts)`` on every ``publish(topic, ...)``; registering twice is once."""
    handlers = _subscribers.setdefault(topic, [])
    if handler not in handlers:
        handlers.append(handler)


def publish(topic: str, **facts: Any) -> None:
    for handler in _subscribers.get(topic, ()):
        handler(**facts)


def answer(question: str, handler: Callable[..., Any]) -> None:
    """Let ``handler(**facts)`` answer ``ask(question, ...)``; registering twice is once."""
    handlers = _answers.setdefault(question, [])
    if handler not in handlers:
        handlers.append(handler)


def ask(question: str, **facts: Any) -> Any:
    for handler in _answers.get(question, ()):
        reply = handler(**facts)
        if reply is not None:
            return reply
    return None


# One piece of the fast path's statement: SQL with named parameters.
Clause = tuple[str, dict[str, Any]]


class ReadModels(Protocol):
    def handle(
        self, stream: Stream, folded: Folded, event: StoredEvent, status_before: str | None
    ) -> None:
        """Update every read model for one event appended to ``stream``."""

    def append_clauses(
        self, folded: Folded, status: str, recorded_at: datetime, before: Folded | None = None
    ) -> list[Clause] | None:
        """The fast path's read-model updates of a game's move, as statement pieces; ``before``
        is the state the move was folded onto, whose rows the statement updates. None: they
        cannot be written in the statement, and the move goes to the locked path."""

    def differences(self) -> list[str]:
        """Every read model row that differs from a re-fold of the events, each as a sentence
        naming the row and the field (``manage.py verify_events --projections``)."""


_registered: list[ReadModels] = []


def register(models: ReadModels) -> None:
    """Called once by the read side's app config; a second call replaces the first."""
    _registered[:] = [models]


def current() -> ReadModels:
    if not _registered:
        raise ImproperlyConfigured("No read side is registered: add 'scoring' to INSTALLED_APPS.")
    return _registered[0]
