"""The read models the write side keeps in step, as the read side registers them.

The write side never imports ``scoring``: the scoring app registers, when Django starts, an object
(its ``scoring.projections`` package) that updates the read models of one appended event in the
appending transaction, and gives the SQL pieces the fast path adds to its one statement. With no
read side installed, an append would leave the read models behind, so it fails loudly instead.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from django.core.exceptions import ImproperlyConfigured

if TYPE_CHECKING:
    from games.store.folding import Folded
    from games.store.journal import StoredEvent
    from games.store.models import Stream

# One piece of the fast path's statement: SQL with named parameters.
Clause = tuple[str, dict[str, Any]]


class ReadModels(Protocol):
    def handle(
        self, stream: Stream, folded: Folded, event: StoredEvent, status_before: str | None
    ) -> None:
        """Update every read model for one event appended to ``stream``."""

    def append_clauses(
        self, folded: Folded, status: str, recorded_at: datetime, before: Folded | None = None
    ) -> list[Clause]:
        """The fast path's read-model updates of a game's move, as statement pieces; ``before``
        is the state the move was folded onto, whose rows the statement updates."""

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
