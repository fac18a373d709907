"""The API's matches: the list, a match's answer, its events and its keepers."""

from __future__ import annotations

import uuid
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response

from games.api import request_bodies as bodies
from games.api.answer_cache import cached
from games.api.http.conditional import conditional
from games.api.http.query import QueryChecked, filter_values
from games.api.http.renderers import BrowsableAPIRenderer, JsonTextRenderer
from games.api.schema import play_answers
from games.api.schema.openapi import filter_parameters
from games.api.streams import (
    AT_VERSION,
    CURSOR,
    LIMIT,
    PAGE_PARAMS,
    GameEvents,
    NewestCursor,
    StreamKeeper,
    StreamKeepers,
    StreamView,
    at_version,
    stream_etag,
)
from games.play import appending, services
from games.play.representation import match_json
from games.store import folding
from games.store.models import Match, Stream
from scoring.filters import MatchFilter
from scoring.history import match_list
from scoring.models import MatchStanding


class MatchKeepers(StreamKeepers):
    category = Stream.Category.MATCH


class MatchKeeper(StreamKeeper):
    category = Stream.Category.MATCH


class MatchList(QueryChecked, StreamView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    renderer_classes = [JsonTextRenderer, BrowsableAPIRenderer]
    category = Stream.Category.MATCH
    query_names = PAGE_PARAMS
    filterset_class = MatchFilter

    @extend_schema(request=bodies.MatchCreate, responses={201: play_answers.MatchAnswer})
    def post(self, request: Request) -> Response:
        """Create a match; ``entry`` is ``live`` (games recorded move by move) or ``sheet``."""
        body = bodies.MatchCreate(data=request.data)
        body.is_valid(raise_exception=True)
        values = body.validated_data
        match = services.match_start(
            format=values["format"],
            players=values["players"],
            teams=values["teams"],
            ruleset=values["ruleset"],
            entry=values["entry"],
            user=request.user,
        )
        return Response(_match_answer(match.stream), status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="v1_matches_list",
        parameters=[*filter_parameters(MatchFilter), CURSOR, LIMIT],
        responses={200: play_answers.MatchPage},
    )
    def get(self, request: Request) -> Response:
        """Finished public matches and those you record in, newest first."""
        paginator = NewestCursor()
        # The page's keys (each row's id, version and time), then its body as kept for them
        # (games.api.answer_cache) or its rows by a prepared statement, their JSON passed through.
        # The keys by one prepared statement, the filters' values read by the FilterSet (built
        # only when a filter is given: the list as most read has none).
        given = any(name in request.query_params for name in MatchFilter.base_filters)
        values = filter_values(MatchFilter, request, MatchStanding) if given else {}
        keyed: Any = match_list.VisibleStandings(request.user, filters=values)
        keys = paginator.paginate_queryset(keyed, request, view=self) or []
        links = (paginator.get_next_link(), paginator.get_previous_link())
        return cached(request, (keys, links), lambda: _standings_page(paginator, keys))


def _standings_page(paginator: NewestCursor, keys: list[dict[str, Any]]) -> tuple[Response, bool]:
    """The page of ``keys``, and whether it may be kept under them (not if a row is newer)."""
    rows, current = match_list.rows_of(keys)
    return paginator.get_paginated_response([_standing_json(row) for row in rows]), current


def _standing_json(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": str(row["match_id"]),
        "format": row["format"],
        "status": row["status"],
        "standing": row["standing"],
        "winner": row["winner"],
        "rating": row["rating"],
        "warnings": row["warnings"],
        "updated_at": row["updated_at"],
    }


def _match_answer(stream: Stream, folded: folding.Folded | None = None) -> dict[str, Any]:
    match = Match.objects.select_related("stream").get(pk=stream.pk)
    folded = folded or folding.load(stream)
    return match_json(match, folded, folding.settlement(stream.pk, folded))


class MatchDetail(QueryChecked, StreamView):
    category = Stream.Category.MATCH
    query_names = ("at_version",)

    @extend_schema(parameters=[AT_VERSION], responses={200: play_answers.MatchAnswer})
    def get(self, request: Request, pk: uuid.UUID) -> Response:
        """The match: its games, standing, winner and settlement (as of ``at_version``)."""
        stream = self.get_stream(pk)
        at = at_version(request, stream)
        return conditional(
            request,
            stream_etag(stream, at),
            lambda: Response(_match_answer(stream, folding.load(stream, at))),
        )


class MatchEvents(GameEvents):
    category = Stream.Category.MATCH

    def stream_json(self, pk: uuid.UUID, recorded: appending.Recorded) -> dict[str, Any]:
        return _match_answer(Stream.objects.get(pk=pk), recorded.folded)
