"""Read-side queries for the API: lists and lookups over read models and the event table.

Selectors never write.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db import connection
from django.db.models import Q
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response

from games.models import Event, Stream
from games.representation import event_json
from games.store import read
from scoring.models import GameSummary, MatchStanding


class VersionCursor(CursorPagination):
    ordering = "version"
    page_size = 100


class NewestCursor(CursorPagination):
    ordering = "-updated_at"
    page_size = 50


def visible(request: Request, prefix: str) -> Q:
    if request.user and request.user.is_authenticated:
        return Q()
    return Q(**{f"{prefix}is_public": True}) & ~Q(**{f"{prefix}status": "in_progress"})


def event_page(request: Request, view: Any, stream: Stream) -> Response:
    paginator = VersionCursor()
    rows = Event.objects.filter(stream=stream)
    page = paginator.paginate_queryset(rows, request, view=view)
    return paginator.get_paginated_response([event_json(read(row)) for row in page or []])


def game_page(request: Request, view: Any) -> Response:
    rows = GameSummary.objects.filter(visible(request, "game__stream__"))
    if kind := request.query_params.get("kind"):
        rows = rows.filter(kind=kind)
    if status := request.query_params.get("status"):
        rows = rows.filter(status=status)
    paginator = NewestCursor()
    page = paginator.paginate_queryset(rows, request, view=view) or []
    return paginator.get_paginated_response([_summary_json(row) for row in page])


def _summary_json(row: GameSummary) -> dict[str, Any]:
    return {
        "id": str(row.game_id),
        "kind": row.kind,
        "status": row.status,
        "version": row.version,
        "match": None if row.match_id is None else str(row.match_id),
        "number": row.number,
        "scores": row.scores,
        "rating": row.rating,
        "updated_at": row.updated_at,
    }


def match_page(request: Request, view: Any) -> Response:
    rows = MatchStanding.objects.filter(visible(request, "match__stream__"))
    if format_ := request.query_params.get("format"):
        rows = rows.filter(format=format_)
    paginator = NewestCursor()
    page = paginator.paginate_queryset(rows, request, view=view) or []
    return paginator.get_paginated_response(
        [
            {
                "id": str(row.match_id),
                "format": row.format,
                "status": row.status,
                "standing": row.standing,
                "winner": row.winner,
                "rating": row.rating,
                "warnings": row.warnings,
                "updated_at": row.updated_at,
            }
            for row in page
        ]
    )


def settlement(match_id: uuid.UUID) -> dict[str, Any] | None:
    """The data of the match's ``match.settled`` event, or None until settlement has run."""
    row = Event.objects.filter(stream_id=match_id, type="match.settled").first()
    return None if row is None else read(row).data


# The all-stream feed in an order no reader can skip through (see games migration 0005): only
# events of finished transactions, in (transaction id, position) order, resuming after the
# event the reader saw last.
_FEED_SQL = """
    SELECT e.position, e.id, e.stream_id, e.version, e.type, e.schema_version, e.data, e.meta,
        e.recorded_at, e.hash
    FROM games_event e
    WHERE (e.txid, e.position) > (%(txid)s::xid8, %(after)s)
        AND e.txid < pg_snapshot_xmin(pg_current_snapshot())
    ORDER BY e.txid, e.position
    LIMIT %(limit)s
"""


class UnknownPosition(Exception):
    pass


def feed_page(after: int, limit: int) -> list[Event]:
    """Up to ``limit`` events of the all-stream feed after the event at position ``after``."""
    if connection.vendor != "postgresql":
        # One writer at a time (SQLite): positions commit in order.
        return list(Event.objects.filter(position__gt=after).order_by("position")[:limit])
    txid = _txid_of(after)
    return list(Event.objects.raw(_FEED_SQL, {"txid": txid, "after": after, "limit": limit}))


def _txid_of(position: int) -> str:
    if position == 0:
        return "0"
    with connection.cursor() as cursor:
        cursor.execute("SELECT txid::text FROM games_event WHERE position = %s", [position])
        row = cursor.fetchone()
    if row is None:
        raise UnknownPosition(position)
    return str(row[0])
