"""The read API's shared parts: the query parameters its reads take, and the player a read
is about (404 for a reader who may not see him).
"""

from __future__ import annotations

from django.db import connection
from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.request import Request

from games.api.http.query import (
    BAD_VALUE,
    QueryError,
    bad_value,
)
from games.store import journal
from games.store.models import Player
from scoring import selectors
from scoring.history import timeline

AFTER = OpenApiParameter(
    "after",
    {"type": "integer", "minimum": 0, "maximum": 2**62},
    description="The position of the last event you have (0: start).",
)
LIMIT = OpenApiParameter(
    "limit", {"type": "integer", "minimum": 1, "maximum": 1000}, description="Events per page."
)
MAX_LIMIT = 1000


def int_param(request: Request, name: str, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not (raw.isascii() and raw.isdigit()) or not low <= int(raw) <= high:
        raise bad_value(name, f"give a whole number from {low} to {high}.")
    return int(raw)


NDJSON = {(200, "application/x-ndjson"): OpenApiTypes.STR}


KIND = OpenApiParameter(
    "kind", {"type": "string", "minLength": 1}, description="Only this game kind."
)
SINCE = OpenApiParameter("since", OpenApiTypes.DATE, description="Last played on or after.")
UNTIL = OpenApiParameter("until", OpenApiTypes.DATE, description="Last played on or before.")
CURSOR = OpenApiParameter(
    "cursor", {"type": "string", "minLength": 1}, description="From a page's 'next', as given."
)
HISTORY_LIMIT = OpenApiParameter(
    "limit", {"type": "integer", "minimum": 1, "maximum": 200}, description="Rows per page."
)


def player_and_query(request: Request, pk: int) -> tuple[Player, timeline.Query]:
    """The player (404 if the reader may not see him) and the history query's parameters."""
    check_listed(request, pk)
    return player_of(pk), history_query(request)


def check_listed(request: Request, pk: int) -> None:
    if not selectors.player_listed(request.user, pk):
        raise Http404


def history_query(request: Request) -> timeline.Query:
    try:
        return timeline.read_query(request.query_params)
    except timeline.BadQuery as error:
        raise QueryError(BAD_VALUE, str(error)) from None


def player_of(pk: int) -> Player:
    """The player's id and name (all a history shows of him) by a prepared statement, or 404:
    the ORM would compile a queryset for each request. His other fields load if asked for."""
    rows = journal.prepared_rows("SELECT id, name FROM games_player WHERE id = %s", [pk])
    if not rows:
        raise Http404
    return Player.from_db(connection.alias, ["id", "name"], rows[0])


def next_url(request: Request, cursor: str | None) -> str | None:
    """The URL of the next page: this query with ``cursor`` in place."""
    if cursor is None:
        return None
    params = request.query_params.copy()
    params["cursor"] = cursor
    return request.build_absolute_uri(f"?{params.urlencode()}")
