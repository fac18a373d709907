"""REST API of games, and what every stream's view shares (API.md): matches' own views are in
games/api/matches.py. Views parse, call a service, and shape the answer."""

from __future__ import annotations

import re
import uuid
from typing import Any, NoReturn

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import request_bodies as bodies
from games.api.http.conditional import conditional, etag_of
from games.api.http.pagination import CheckedCursorPagination
from games.api.http.query import QueryChecked, bad_value, filtered
from games.api.schema import play_answers
from games.api.schema.openapi import filter_parameters
from games.play import analysis, appending, keepers, pot, services
from games.play.permissions import is_recorder
from games.play.representation import event_json, game_json, game_status
from games.store import folding, journal
from games.store.models import Stream
from scoring import selectors
from scoring.filters import GameFilter
from scoring.models import GameSummary

AT_VERSION = OpenApiParameter(
    "at_version", {"type": "integer", "minimum": 1}, description="State as of version N."
)
CURSOR = OpenApiParameter(
    "cursor",
    {"type": "string", "minLength": 1, "pattern": "^[A-Za-z0-9+/]+={0,2}$"},
    description="From a page's next/previous, as given.",
)
LIMIT = OpenApiParameter(
    "limit", {"type": "integer", "minimum": 1, "maximum": 200}, description="The page size."
)
EVENTS_LIMIT = OpenApiParameter(
    "limit", {"type": "integer", "minimum": 1, "maximum": 1000}, description="The page size."
)


class VersionCursor(CheckedCursorPagination):
    ordering = "version"
    page_size = 100
    page_size_query_param = "limit"
    max_page_size = 1000


class NewestCursor(CheckedCursorPagination):
    ordering = "-updated_at"
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 200


# What every paginated list takes besides its filters.
PAGE_PARAMS = ("cursor", "limit")


class ReadFinishedOrAuthenticated(permissions.BasePermission):
    """Anyone may read a finished public game or match; one in progress (or private) is read by
    its recorders, its seated players and the directors (``selectors.stream_readable``): 401
    without a login, 403 with one. A write needs a login; the services decide the rest."""

    message = (
        "This game or match is in progress or private: only its recorders, its seated players "
        "and the directors may read it."
    )

    def has_permission(self, request: Request, view: Any) -> bool:
        return True

    def has_object_permission(self, request: Request, view: Any, obj: Stream) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return selectors.stream_readable(request.user, obj)
        return bool(request.user and request.user.is_authenticated)


class RecordersReadKeepers(permissions.BasePermission):
    """A stream's keepers are read by its recorders and the directors (``is_recorder``): 401
    without a login, 403 for anyone else, as a hidden game answers. Who may change them is the
    services' check (``permission.not_the_creator``)."""

    message = "Only this game's or match's recorders and the directors may see its keepers."

    def has_permission(self, request: Request, view: Any) -> bool:
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Request, view: Any, obj: Stream) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return is_recorder(request.user, obj.pk)
        return True


class StreamView(APIView):
    permission_classes = [ReadFinishedOrAuthenticated]
    category = Stream.Category.GAME

    def get_stream(self, pk: uuid.UUID) -> Stream:
        # With its tournament (if any): the read rule asks whether it is published.
        found = Stream.objects.select_related("in_tournament")
        stream = get_object_or_404(found, pk=pk, category=self.category)
        self.check_object_permissions(self.request, stream)
        return stream

    def permission_denied(
        self, request: Request, message: Any = None, code: Any = None
    ) -> NoReturn:
        if not request.successful_authenticator and not request.user.is_authenticated:
            raise NotAuthenticated(
                "Log in or send a token to see a game or match in progress or private."
            )
        super().permission_denied(request, message, code)


def at_version(request: Request, stream: Stream) -> int | None:
    raw = request.query_params.get("at_version")
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= stream.version:
        raise bad_value("at_version", f"give a version from 1 to {stream.version}.")
    return int(raw)


_MOVE_FIELDS = frozenset(bodies.EventCreate().fields)
_TYPE = re.compile(bodies.EVENT_TYPE)


def _plain_move(body: Any) -> dict[str, Any] | None:
    """A move's body as EventCreate validates it, for the plain body a table sends, without the
    serializer's cost (a tenth of a move's CPU); None for anything else, which the serializer
    then accepts or refuses with its field errors. The service checks the data's fields."""
    if type(body) is not dict or not body.keys() <= _MOVE_FIELDS:
        return None
    event_id, kind = body.get("id"), body.get("type")
    data, meta = body.get("data", {}), body.get("meta", {})
    version = body.get("expected_version")
    if type(event_id) is not str or type(kind) is not str:
        return None
    if len(kind) > 60 or not _TYPE.fullmatch(kind):  # fullmatch: "$" would let a "\n" end it
        return None
    if type(data) is not dict or type(meta) is not dict:
        return None
    if version is not None and (type(version) is not int or version < 0):
        return None
    try:
        parsed = uuid.UUID(event_id)
    except ValueError:
        return None
    return {"id": parsed, "type": kind, "data": data, "expected_version": version, "meta": meta}


def _client_meta(request: Request, meta: dict[str, Any]) -> dict[str, Any]:
    device = request.headers.get("X-Device")
    return {**meta, "device": device} if device else meta


def _game_answer(stream: Stream, folded: folding.Folded) -> dict[str, Any]:
    return game_json(folded, stream_id=stream.pk, status=game_status(stream, folded))


def _record(request: Request, pk: uuid.UUID, category: str) -> appending.Recorded:
    values = _plain_move(request.data)
    if values is None:
        body = bodies.EventCreate(data=request.data)
        body.is_valid(raise_exception=True)
        values = body.validated_data
    return services.event_record(
        category=category,
        stream_id=pk,
        event_id=values["id"],
        type=values["type"],
        data=values["data"],
        expected_version=values.get("expected_version"),
        meta=_client_meta(request, values["meta"]),
        user=request.user,
    )


class GameList(QueryChecked, StreamView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    query_names = PAGE_PARAMS
    filterset_class = GameFilter

    @extend_schema(request=bodies.GameCreate, responses={201: play_answers.GameAnswer})
    def post(self, request: Request) -> Response:
        """Create a game; the server records its first event, ``game.started``."""
        body = bodies.GameCreate(data=request.data)
        body.is_valid(raise_exception=True)
        values = body.validated_data
        game = services.game_start(
            kind=values["kind"],
            seats=values.get("seats"),
            ruleset=values["ruleset"],
            setup=values["setup"],
            match_id=values.get("match"),
            user=request.user,
        )
        stream = Stream.objects.get(pk=game.pk)
        return Response(_game_answer(stream, folding.load(stream)), status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="v1_games_list",
        parameters=[*filter_parameters(GameFilter), CURSOR, LIMIT],
        responses={200: play_answers.GamePage},
    )
    def get(self, request: Request) -> Response:
        """Finished public games and those you record in, newest first."""
        rows = filtered(GameFilter, request, selectors.game_rows(request.user))
        paginator = NewestCursor()
        page = paginator.paginate_queryset(rows, request, view=self) or []
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


def stream_etag(stream: Stream, *more: Any) -> str:
    """The tag of an answer that changes only with the stream (its status comes with events).
    Its head (the last event's chain hash) proves the content: a version alone is reached again
    by other events after a restore from a backup."""
    return etag_of(
        stream.category, stream.pk, stream.version, str(stream.status), stream.head_hash, *more
    )


class GameDetail(QueryChecked, StreamView):
    query_names = ("at_version",)

    @extend_schema(parameters=[AT_VERSION], responses={200: play_answers.GameAnswer})
    def get(self, request: Request, pk: uuid.UUID) -> Response:
        """The game's current state, or its state as of ``at_version``."""
        stream = self.get_stream(pk)
        at = at_version(request, stream)
        return conditional(
            request,
            stream_etag(stream, at),
            lambda: Response(_game_answer(stream, folding.load(stream, at))),
        )


class GameEvents(QueryChecked, StreamView):
    query_names = PAGE_PARAMS

    @extend_schema(parameters=[CURSOR, EVENTS_LIMIT], responses={200: play_answers.EventPage})
    def get(self, request: Request, pk: uuid.UUID) -> Response:
        """The stream in version order."""
        stream = self.get_stream(pk)
        etag = stream_etag(stream, "events", request.query_params.urlencode())
        return conditional(request, etag, lambda: self.page(request, stream))

    def page(self, request: Request, stream: Stream) -> Response:
        paginator = VersionCursor()
        page = paginator.paginate_queryset(journal.events_of(stream.pk), request, view=self) or []
        return paginator.get_paginated_response([event_json(journal.read(row)) for row in page])

    @extend_schema(
        request=bodies.EventCreate,
        responses={201: play_answers.RecordedAnswer, 200: play_answers.RecordedAnswer},
    )
    def post(self, request: Request, pk: uuid.UUID) -> Response:
        """Record what happened at the table (idempotent by the client's event id)."""
        if not request.user.is_authenticated:
            raise NotAuthenticated("Log in or send a token to record events.")
        recorded = _record(request, pk, self.category)
        # The key as plain text: a TextChoices key would send the renderer to DRF's encoder.
        key = str(self.category)
        return Response(
            {"event": event_json(recorded.event), key: self.stream_json(pk, recorded)},
            status=status.HTTP_201_CREATED if recorded.created else status.HTTP_200_OK,
        )

    def stream_json(self, pk: uuid.UUID, recorded: appending.Recorded) -> dict[str, Any]:
        return game_json(recorded.folded, stream_id=pk, status=recorded.status)


class GameAnalysis(QueryChecked, StreamView):
    @extend_schema(responses={200: play_answers.AnalysisAnswer})
    def get(self, request: Request, pk: uuid.UUID) -> Response:
        """Best total reachable from here, a line reaching it, and the best from the start."""
        stream = self.get_stream(pk)
        return Response(analysis.analyse(stream))


class GamePot(QueryChecked, StreamView):
    @extend_schema(responses={200: play_answers.PotLedger})
    def get(self, request: Request, pk: uuid.UUID) -> Response:
        """The pot's balance, each seat's net, and every chip movement with its event."""
        stream = self.get_stream(pk)
        return Response(pot.ledger(stream))


class StreamKeepers(QueryChecked, StreamView):
    """The score-keepers of a game (or, below, of a match)."""

    permission_classes = [RecordersReadKeepers]

    @extend_schema(responses={200: bodies.Keepers})
    def get(self, request: Request, pk: uuid.UUID) -> Response:
        """Who records here besides the directors: the creator and the keepers."""
        stream = self.get_stream(pk)
        return Response(keepers.recorders(stream_id=stream.pk))

    @extend_schema(request=bodies.KeeperAdd, responses={200: bodies.Keepers})
    def post(self, request: Request, pk: uuid.UUID) -> Response:
        """Name a score-keeper (the creator or a director only); he may then record here."""
        stream = self.get_stream(pk)
        body = bodies.KeeperAdd(data=request.data)
        body.is_valid(raise_exception=True)
        answer = keepers.keepers_change(
            stream_id=stream.pk, add=[body.validated_data["user"]], user=request.user
        )
        return Response(answer)


class StreamKeeper(QueryChecked, StreamView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: bodies.Keepers})
    def delete(self, request: Request, pk: uuid.UUID, username: str) -> Response:
        """Drop a score-keeper (the creator or a director only)."""
        stream = self.get_stream(pk)
        answer = keepers.keepers_change(stream_id=stream.pk, remove=[username], user=request.user)
        return Response(answer)
