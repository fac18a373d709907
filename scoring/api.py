"""The read API: the all-stream feed (in an order no reader skips) and the match reports."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import store
from games.api import StreamView
from games.models import Player, Stream
from games.representation import event_json
from games.store import read
from scoring import history, reports, selectors

AFTER = OpenApiParameter(
    "after", OpenApiTypes.INT, description="The position of the last event you have (0: start)."
)
LIMIT = OpenApiParameter("limit", OpenApiTypes.INT, description="Events per page, 1 to 1000.")
MAX_LIMIT = 1000


def _int_param(request: Request, name: str, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not (raw.isascii() and raw.isdigit()) or not low <= int(raw) <= high:
        raise ValidationError({name: f"Give a whole number from {low} to {high}."})
    return int(raw)


def _page(after: int, limit: int) -> list[dict[str, Any]]:
    try:
        return [event_json(read(row)) for row in store.feed_page(after, limit)]
    except store.UnknownPosition:
        raise ValidationError({"after": f"No event has position {after}."}) from None


class EventFeed(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(parameters=[AFTER, LIMIT], responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request) -> Response:
        """Events of every stream after ``after``; page on with ``next`` until it is null.

        The order is that of the writing transactions, so it may differ from position order; it
        never skips an event that commits later.
        """
        after = _int_param(request, "after", 0, 0, 2**62)
        limit = _int_param(request, "limit", 100, 1, MAX_LIMIT)
        results = _page(after, limit)
        next_url = None
        if len(results) == limit:
            last = results[-1]["position"]
            next_url = request.build_absolute_uri(f"?after={last}&limit={limit}")
        return Response({"next": next_url, "previous": None, "results": results})


class EventFeedNdjson(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(parameters=[AFTER], responses={200: OpenApiTypes.STR})
    def get(self, request: Request) -> StreamingHttpResponse:
        """The feed after ``after`` as NDJSON, one event a line, up to the present."""
        after = _int_param(request, "after", 0, 0, 2**62)
        first = _page(after, MAX_LIMIT)  # refuses an unknown position before streaming starts
        return StreamingHttpResponse(_lines(first), content_type="application/x-ndjson")


def _lines(page: list[dict[str, Any]]) -> Iterator[str]:
    while page:
        for event in page:
            yield json.dumps(event, separators=(",", ":")) + "\n"
        if len(page) < MAX_LIMIT:
            return
        page = _page(page[-1]["position"], MAX_LIMIT)


class MatchHistory(StreamView):
    category = Stream.Category.MATCH

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, pk: uuid.UUID) -> Response:
        """Every game with each seat's score and cumulative score, bonuses, links, warnings."""
        stream = self.get_stream(pk)
        return Response(reports.match_history(stream.match))


class MatchScoreSheet(StreamView):
    category = Stream.Category.MATCH
    renderings = {
        "csv": (reports.score_sheet_csv, "text/csv; charset=utf-8"),
        "html": (reports.score_sheet_html, "text/html; charset=utf-8"),
    }

    @extend_schema(responses={200: OpenApiTypes.STR})
    def get(self, request: Request, pk: uuid.UUID, rendering: str) -> HttpResponse:
        """The score sheet as the rule books print it (CSV or HTML)."""
        stream = self.get_stream(pk)
        render, content_type = self.renderings[rendering]
        answer = HttpResponse(render(reports.match_history(stream.match)), content_type)
        if rendering == "csv":
            answer["Content-Disposition"] = f'attachment; filename="score-sheet-{pk}.csv"'
        return answer


KIND = OpenApiParameter("kind", OpenApiTypes.STR, description="Only this game kind.")
SINCE = OpenApiParameter("since", OpenApiTypes.DATE, description="Last played on or after.")
UNTIL = OpenApiParameter("until", OpenApiTypes.DATE, description="Last played on or before.")
CURSOR = OpenApiParameter("cursor", OpenApiTypes.STR, description="From a page's 'next'.")


class PlayerHistory(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[KIND, SINCE, UNTIL, CURSOR, LIMIT], responses={200: OpenApiTypes.OBJECT}
    )
    def get(self, request: Request, pk: int) -> Response:
        """The player's matches and games outside matches, newest first.

        Without a login, only finished public ones are listed.
        """
        if not selectors.player_listed(request.user, pk):
            raise Http404
        player = get_object_or_404(Player, pk=pk)
        try:
            query = history.read_query(request.query_params)
        except history.BadQuery as error:
            raise ValidationError({"detail": str(error)}) from None
        page = history.player_history(
            player,
            query,
            selectors.visible(request.user, "game__stream__"),
            selectors.visible(request.user, "match__stream__"),
        )
        if page["next"] is not None:
            params = request.query_params.copy()
            params["cursor"] = page["next"]
            page["next"] = request.build_absolute_uri(f"?{params.urlencode()}")
        return Response(
            {
                "player": page["player"],
                "next": page["next"],
                "previous": None,
                "results": page["results"],
            }
        )
