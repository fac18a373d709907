"""The read API's exports (docs/API.md "Exports"): event lists as NDJSON, the match history as
CSV, a player's games, plays and stats.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from django.http import Http404, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.http.conditional import conditional
from games.api.http.query import (
    QueryChecked,
    bad_value,
    filtered,
    read_time,
)
from games.api.http.renderers import CsvRenderer, JSONRenderer, NdjsonRenderer
from games.api.reads.history import match_etag
from games.api.reads.queries import (
    CURSOR,
    HISTORY_LIMIT,
    KIND,
    NDJSON,
    SINCE,
    UNTIL,
    check_listed,
    int_param,
    next_url,
    player_and_query,
    player_of,
)
from games.api.schema import read_answers
from games.api.schema.openapi import filter_parameters
from games.api.streams import StreamView
from games.rules import registry
from games.store.models import Player, Stream, Tournament
from scoring import selectors
from scoring.filters import MatchFilter
from scoring.history import exports, stats


class MatchEventsNdjson(QueryChecked, StreamView):
    category = Stream.Category.MATCH
    renderer_classes = [JSONRenderer, NdjsonRenderer]

    @extend_schema(responses=NDJSON)
    def get(self, request: Request, pk: uuid.UUID) -> Any:
        """The match's events and its games' events in position order, as NDJSON."""
        stream = self.get_stream(pk)
        return conditional(
            request,
            match_etag(stream, "events.ndjson"),
            lambda: StreamingHttpResponse(
                exports.match_event_lines(stream.pk), content_type="application/x-ndjson"
            ),
        )


class TournamentEventsNdjson(QueryChecked, APIView):
    permission_classes = [permissions.AllowAny]
    renderer_classes = [JSONRenderer, NdjsonRenderer]

    @extend_schema(responses=NDJSON)
    def get(self, request: Request, pk: uuid.UUID) -> StreamingHttpResponse:
        """The tournament's events and its matches' and their games' in position order, as
        NDJSON; a match still playing only for whoever may read it (its recorders, the
        directors). 404 for a tournament you may not read."""
        published = Tournament.objects.filter(pk=pk).values_list("published", flat=True).first()
        if published is None or selectors.tournament_hidden(request.user, pk, published):
            raise Http404
        lines = exports.tournament_event_lines(pk, selectors.visible(request.user, "stream__"))
        return StreamingHttpResponse(lines, content_type="application/x-ndjson")


GAME_KIND = OpenApiParameter(
    "kind", {"type": "string", "enum": registry.kinds()}, description="Only games of this kind."
)
FINISHED_SINCE = OpenApiParameter(
    "since",
    OpenApiTypes.DATETIME,
    description="Only games finished at or after this time (ISO 8601; UTC if no offset).",
)
FINISHED_UNTIL = OpenApiParameter(
    "until",
    OpenApiTypes.DATETIME,
    description="Only games finished at or before this time (ISO 8601; UTC if no offset).",
)
EXPORT_MAX = 10_000
GAMES_MAX = OpenApiParameter(
    "max",
    {"type": "integer", "minimum": 1, "maximum": EXPORT_MAX},
    description="At most this many games, the first to finish first (1000).",
)


class PlayerGamesNdjson(QueryChecked, APIView):
    permission_classes = [permissions.AllowAny]
    renderer_classes = [JSONRenderer, NdjsonRenderer]
    query_names = ("since", "until", "kind", "max")

    @extend_schema(
        parameters=[FINISHED_SINCE, FINISHED_UNTIL, GAME_KIND, GAMES_MAX], responses=NDJSON
    )
    def get(self, request: Request, pk: int) -> StreamingHttpResponse:
        """Every game the player played, one JSON object a line in the order they finished: a
        game played live as ``GET /api/v1/games/{id}/`` shows it, with its ``events`` as its
        event list shows them; a game entered as a line of a sheet match (no game of its own)
        with the same fields, ``id``, ``version``, ``turn`` and ``legal_events`` null, no
        position fields, ``scores`` without itemised bonuses, and its own ``game`` (its number),
        ``entry`` ("sheet"), ``finished_at`` (when the line was entered), ``players``, ``winner``
        and ``events`` (the line's ``game.scored``). The games you may see, as his statistics
        count them (without a login, those of finished public games and matches)."""
        check_listed(request, pk)
        player = player_of(pk)
        kind = request.query_params.get("kind")
        if kind is not None and kind not in registry.kinds():
            raise bad_value("kind", "not a game kind (GET /api/v1/games/ lists them by kind).")
        games = exports.player_games(
            player.pk,
            selectors.visible(request.user, "game__stream__"),
            selectors.visible(request.user, "match__stream__"),
            kind=kind,
            since=_time_param(request, "since"),
            until=_time_param(request, "until"),
            most=int_param(request, "max", 1000, 1, EXPORT_MAX),
        )
        renderer = JSONRenderer()
        lines = (
            b"".join(renderer.render(game) + b"\n" for game in batch)
            for batch in exports.games_with_events(games)
        )
        return StreamingHttpResponse(lines, content_type="application/x-ndjson")


def _time_param(request: Request, name: str) -> dt.datetime | None:
    """An ISO 8601 time (``query.read_time``); anything else is 400 query.bad_value."""
    raw = request.query_params.get(name)
    if raw is None:
        return None
    value = read_time(raw)
    if value is None:
        raise bad_value(name, "give an ISO 8601 time, such as 2026-05-01T19:00:00Z.")
    return value


class MatchHistoryCsv(QueryChecked, APIView):
    permission_classes = [permissions.AllowAny]
    renderer_classes = [JSONRenderer, CsvRenderer]
    filterset_class = MatchFilter

    @extend_schema(
        parameters=filter_parameters(MatchFilter), responses={(200, "text/csv"): OpenApiTypes.STR}
    )
    def get(self, request: Request) -> StreamingHttpResponse:
        """The matches you may see (filtered as the match list), one CSV row per seat."""
        rows = filtered(MatchFilter, request, selectors.match_rows(request.user))
        answer = StreamingHttpResponse(
            exports.history_csv_lines(rows), content_type="text/csv; charset=utf-8"
        )
        answer["Content-Disposition"] = 'attachment; filename="match-timeline.csv"'
        return answer


class PlayerPlays(QueryChecked, APIView):
    permission_classes = [permissions.AllowAny]
    query_names = ("kind", "since", "until", "cursor", "limit")

    @extend_schema(
        parameters=[KIND, SINCE, UNTIL, CURSOR, HISTORY_LIMIT],
        responses={200: read_answers.PlaysAnswer},
    )
    def get(self, request: Request, pk: int) -> Response:
        """The player's finished games and matches as plays, for play-logging apps."""
        player, query = player_and_query(request, pk)
        answer = exports.player_plays(
            player,
            query,
            selectors.visible(request.user, "game__stream__"),
            selectors.visible(request.user, "match__stream__"),
        )
        return Response({**answer, "next": next_url(request, answer["next"])})


class PlayerStats(QueryChecked, APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: read_answers.PlayerStatsAnswer})
    def get(self, request: Request, pk: int) -> Response:
        """Per game kind: games and matches played and won, average and best totals, bonuses
        scored, Solitaire ratings, and head to head against each opponent
        (scoring/history/stats.py).

        Without a login, only finished public games and matches count.
        """
        if not selectors.player_listed(request.user, pk):
            raise Http404
        player = get_object_or_404(Player, pk=pk)
        return Response(
            stats.player_stats(
                player,
                selectors.visible(request.user, "game__stream__"),
                selectors.visible(request.user, "match__stream__"),
            )
        )
