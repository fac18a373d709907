"""The read API's feed and histories: the all-stream feed (in an order no reader skips), a
match's history and a player's.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.http import Http404, StreamingHttpResponse
from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.answer_cache import cached
from games.api.http.conditional import conditional, etag_of
from games.api.http.query import (
    QueryChecked,
    bad_value,
)
from games.api.http.renderers import (
    BrowsableAPIRenderer,
    JSONRenderer,
    JsonTextRenderer,
    NdjsonRenderer,
)
from games.api.reads.queries import (
    AFTER,
    CURSOR,
    HISTORY_LIMIT,
    KIND,
    LIMIT,
    MAX_LIMIT,
    NDJSON,
    SINCE,
    UNTIL,
    check_listed,
    history_query,
    int_param,
    next_url,
)
from games.api.schema import read_answers
from games.api.streams import StreamView
from games.play import permissions as game_permissions
from games.play.representation import event_json
from games.store import journal
from games.store.journal import read
from games.store.models import Player, Stream
from scoring import selectors
from scoring.documents import reports
from scoring.history import feed, timeline


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
        after = int_param(request, "after", 0, 0, 2**62)
        limit = int_param(request, "limit", 100, 1, MAX_LIMIT)
        results = _page(after, limit)
        next_url = None
        if len(results) == limit:
            last = results[-1]["position"]
            next_url = request.build_absolute_uri(f"?after={last}&limit={limit}")
        return Response({"next": next_url, "previous": None, "results": results})


class EventFeedNdjson(QueryChecked, APIView):
    permission_classes = [permissions.AllowAny]  # the directors' (EventFeed)
    renderer_classes = [JSONRenderer, NdjsonRenderer]
    query_names = ("after",)

    @extend_schema(parameters=[AFTER], responses=NDJSON)
    def get(self, request: Request) -> StreamingHttpResponse:
        """The feed after ``after`` as NDJSON, one event a line, up to the present. Directors
        only."""
        game_permissions.check_director(request.user)
        after = int_param(request, "after", 0, 0, 2**62)
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
        check_listed(request, pk)
        found = timeline.player_and_fingerprint(pk, request.user)  # one statement before a hit
        if found is None:
            raise Http404
        player, fingerprint = found
        query = history_query(request)
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
                "next": next_url(request, page["next"]),
                "previous": None,
                "results": page["results"],
            }
        )
