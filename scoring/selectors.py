"""Read-side queries: the read models the API lists, filtered for who is asking.

Selectors read read models only, never Event rows, and never write; they return querysets or
plain data, and the views shape the HTTP answer (pagination, JSON).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from scoring.models import GameSummary, MatchStanding


def visible(user: Any, prefix: str) -> Q:
    """What ``user`` may list: everything with a login, else finished public streams only."""
    if user is not None and user.is_authenticated:
        return Q()
    return Q(**{f"{prefix}is_public": True}) & ~Q(**{f"{prefix}status": "in_progress"})


def game_rows(user: Any, *, kind: str | None, status: str | None) -> QuerySet[GameSummary]:
    """The game summaries ``user`` may see, by ``kind`` and ``status`` when given."""
    rows = GameSummary.objects.filter(visible(user, "game__stream__"))
    if kind:
        rows = rows.filter(kind=kind)
    if status:
        rows = rows.filter(status=status)
    return rows


def match_rows(user: Any, *, format: str | None) -> QuerySet[MatchStanding]:
    """The match standings ``user`` may see, of ``format`` when given."""
    rows = MatchStanding.objects.filter(visible(user, "match__stream__"))
    if format:
        rows = rows.filter(format=format)
    return rows
