"""The read API: the all-stream feed (in an order no reader skips) and the match reports."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from django.db import connection
from django.http import Http404, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.answer_cache import cached
from games.api.http.conditional import conditional, etag_of
from games.api.http.pagination import BadCursor
from games.api.http.query import (
    BAD_VALUE,
    QueryChecked,
    QueryError,
    bad_value,
    filtered,
    read_time,
)
from games.api.http.renderers import (
    BrowsableAPIRenderer,
    CsvRenderer,
    JSONRenderer,
    JsonTextRenderer,
    NdjsonRenderer,
)
from games.api.schema import read_answers
from games.api.schema.openapi import filter_parameters
from games.api.streams import StreamView
from games.play import permissions as game_permissions
from games.play.representation import event_json
from games.rules import registry
from games.store import journal
from games.store.journal import read
from games.store.models import Player, Stream, Tournament
from scoring import selectors
from scoring.documents import reports
from scoring.filters import MatchFilter
from scoring.history import exports, feed, stats, timeline
from scoring.ratings import reading as ratings

AFTER = OpenApiParameter(
    "after",
    {"type": "integer", "minimum": 0, "maximum": 2**62},
    description="The position of the last event you have (0: start).",
)
LIMIT = OpenApiParameter(
    "limit", {"type": "integer", "minimum": 1, "maximum": 1000}, description="Events per page."
)
MAX_LIMIT = 1000


def _int_param(request: Request, name: str, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not (raw.isascii() and raw.isdigit()) or not low <= int(raw) <= high:
        raise bad_value(name, f"give a whole number from {low} to {high}.")
    return int(raw)


def _page(after: int, limit: int) -> list[dict[str, Any]]:
    try:
        return [event_json(read(row)) for row in journal.feed_page(after, limit)]
    except journal.UnknownPosition:
        raise bad_value("after", f"no event has position {after}.") from None


class EventFeed(QueryChecked, APIView):
    # Every event of every stream (games in progress, private ones, unpublished tournaments,
    # the register's member numbers): the directors' (the services answer 401/403).
    permission_classes = [permissions.AllowAny]
    query_names = ("after", "limit")

    @extend_schema(parameters=[AFTER, LIMIT], responses={200: read_answers.FeedPage})
    def get(self, request: Request) -> Response:
        """Events of every stream after ``after``; page on with ``next`` until it is null.

        The order is that of the writing transactions, so it may differ from position order; it
        never skips an event that commits later. Directors only.
        """
        game_permissions.check_director(request.user)
        after = _int_param(request, "after", 0, 0, 2**62)
        limit = _int_param(request, "limit", 100, 1, MAX_LIMIT)
        results = _page(after, limit)
        next_url = None
        if len(results) == limit:
            last = results[-1]["position"]
            next_url = request.build_absolute_uri(f"?after={last}&limit={limit}")
        return Response({"next": next_url, "previous": None, "results": results})


NDJSON = {(200, "application/x-ndjson"): OpenApiTypes.STR}


class EventFeedNdjson(QueryChecked, APIView):
    permission_classes = [permissions.AllowAny]  # the directors' (EventFeed)
    renderer_classes = [JSONRenderer, NdjsonRenderer]
    query_names = ("after",)

    @extend_schema(parameters=[AFTER], responses=NDJSON)
    def get(self, request: Request) -> StreamingHttpResponse:
        """The feed after ``after`` as NDJSON, one event a line, up to the present. Directors
        only."""
        game_permissions.check_director(request.user)
        after = _int_param(request, "after", 0, 0, 2**62)
        try:
            feed.position_known(after)  # refuses an unknown position before streaming starts
        except journal.UnknownPosition:
            raise bad_value("after", f"no event has position {after}.") from None
        return StreamingHttpResponse(feed.lines(after), content_type="application/x-ndjson")


def match_etag(stream: Stream, *more: Any, games: tuple[int, int, str] | None = None) -> str:
    """The tag of a match report: the match's version and head and its games' (whose bonuses
    it shows); ``games``: their ``selectors.games_fingerprint`` if read already."""
    return etag_of(
        "match-report",
        stream.pk,
        stream.version,
        str(stream.status),
        stream.head_hash,
        games if games is not None else selectors.games_fingerprint(stream.pk),
        *more,
    )


class MatchHistory(QueryChecked, StreamView):
    category = Stream.Category.MATCH
    renderer_classes = [JsonTextRenderer, BrowsableAPIRenderer]

    @extend_schema(responses={200: read_answers.MatchHistoryAnswer})
    def get(self, request: Request, pk: uuid.UUID) -> Response:
        """Every game with each seat's score and cumulative score, bonuses, links, warnings."""
        found = selectors.match_with_games(pk)  # one statement before a kept answer
        if found is None:
            raise Http404
        stream, games = found
        self.check_object_permissions(request, stream)  # before anything is kept or given
        etag = match_etag(stream, games=games)

        def page() -> tuple[Response, bool]:
            return Response(reports.match_history(stream.match)), True

        return conditional(request, etag, lambda: cached(request, etag, page))


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


def _player_and_query(request: Request, pk: int) -> tuple[Player, timeline.Query]:
    """The player (404 if the reader may not see him) and the history query's parameters."""
    _check_listed(request, pk)
    return _player(pk), _history_query(request)


def _check_listed(request: Request, pk: int) -> None:
    if not selectors.player_listed(request.user, pk):
        raise Http404


def _history_query(request: Request) -> timeline.Query:
    try:
        return timeline.read_query(request.query_params)
    except timeline.BadQuery as error:
        raise QueryError(BAD_VALUE, str(error)) from None


def _player(pk: int) -> Player:
    """The player's id and name (all a history shows of him) by a prepared statement, or 404:
    the ORM would compile a queryset for each request. His other fields load if asked for."""
    rows = journal.prepared_rows("SELECT id, name FROM games_player WHERE id = %s", [pk])
    if not rows:
        raise Http404
    return Player.from_db(connection.alias, ["id", "name"], rows[0])


def _next_url(request: Request, cursor: str | None) -> str | None:
    """The URL of the next page: this query with ``cursor`` in place."""
    if cursor is None:
        return None
    params = request.query_params.copy()
    params["cursor"] = cursor
    return request.build_absolute_uri(f"?{params.urlencode()}")


class PlayerHistory(QueryChecked, APIView):
    permission_classes = [permissions.AllowAny]
    renderer_classes = [JsonTextRenderer, BrowsableAPIRenderer]
    query_names = ("kind", "since", "until", "cursor", "limit")

    @extend_schema(
        parameters=[KIND, SINCE, UNTIL, CURSOR, HISTORY_LIMIT],
        responses={200: read_answers.PlayerHistoryAnswer},
    )
    def get(self, request: Request, pk: int) -> Response:
        """The player's matches and games outside matches, newest first.

        Without a login, only finished public ones are listed.
        """
        _check_listed(request, pk)
        found = timeline.player_and_fingerprint(pk, request.user)  # one statement before a hit
        if found is None:
            raise Http404
        player, fingerprint = found
        query = _history_query(request)
        etag = etag_of(
            "player-history",
            player.pk,
            player.name,
            request.user.pk,
            fingerprint,
            request.query_params.urlencode(),
        )
        return conditional(
            request,
            etag,
            lambda: cached(request, etag, lambda: (self.page(request, player, query), True)),
        )

    def page(self, request: Request, player: Player, query: timeline.Query) -> Response:
        page = timeline.reader_history(player, query, request.user)
        return Response(
            {
                "player": page["player"],
                "next": _next_url(request, page["next"]),
                "previous": None,
                "results": page["results"],
            }
        )


# --- exports (docs/API.md "Exports") ---------------------------------------------------------


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
        """The player's finished games, one a line in the order they finished: each as
        ``GET /api/v1/games/{id}/`` shows it, with its ``events`` as its event list shows them.
        The games you may see, as his history and statistics count them (without a login,
        finished public ones)."""
        _check_listed(request, pk)
        player = _player(pk)
        kind = request.query_params.get("kind")
        if kind is not None and kind not in registry.kinds():
            raise bad_value("kind", "not a game kind (GET /api/v1/games/ lists them by kind).")
        ids = exports.player_game_ids(
            player.pk,
            selectors.visible(request.user, "game__stream__"),
            kind=kind,
            since=_time_param(request, "since"),
            until=_time_param(request, "until"),
            most=_int_param(request, "max", 1000, 1, EXPORT_MAX),
        )
        renderer = JSONRenderer()
        lines = (
            b"".join(renderer.render(game) + b"\n" for game in batch)
            for batch in exports.games_with_events(ids)
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
        player, query = _player_and_query(request, pk)
        answer = exports.player_plays(
            player,
            query,
            selectors.visible(request.user, "game__stream__"),
            selectors.visible(request.user, "match__stream__"),
        )
        return Response({**answer, "next": _next_url(request, answer["next"])})


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


# --- ratings (docs/API.md "Ratings") ----------------------------------------------------------

BOARD_LIMIT = OpenApiParameter(
    "limit", {"type": "integer", "minimum": 1, "maximum": ratings.MOST}, description="Rows (50)."
)
RATED_KIND = OpenApiParameter(
    "kind",
    {"type": "string", "enum": ratings.rated_kinds()},
    OpenApiParameter.PATH,
    description="A game kind played by two or more (solo Solitaire is not rated).",
)


class PlayerRatings(QueryChecked, APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: read_answers.PlayerRatingAnswer(many=True)})
    def get(self, request: Request, pk: int) -> Response:
        """The player's rating in each game kind, with its history, oldest first (the kinds in
        which you may see some of his rated play: without a login, finished public play)."""
        _check_listed(request, pk)
        player = _player(pk)
        return Response(ratings.player_ratings(player.pk, request.user))


class Leaderboard(QueryChecked, APIView):
    permission_classes = [permissions.AllowAny]
    query_names = ("cursor", "limit")

    @extend_schema(
        parameters=[RATED_KIND, CURSOR, BOARD_LIMIT],
        responses={200: read_answers.LeaderboardPage},
    )
    def get(self, request: Request, kind: str) -> Response:
        """The kind's established ratings, best first, of players of finished public play; 404
        ``rating.unknown_kind`` for a kind that is not rated."""
        if kind not in ratings.rated_kinds():
            return Response(
                {
                    "code": "rating.unknown_kind",
                    "detail": f"No game kind {kind[:60]!r} is rated; rated kinds: "
                    f"{', '.join(ratings.rated_kinds())}.",
                },
                status=404,
            )
        limit = _int_param(request, "limit", ratings.PAGE, 1, ratings.MOST)
        try:
            rows, cursor = ratings.leaderboard(kind, request.query_params.get("cursor"), limit)
        except ratings.BadCursor:
            raise BadCursor() from None
        return Response({"next": _next_url(request, cursor), "previous": None, "results": rows})
