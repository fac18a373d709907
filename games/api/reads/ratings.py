"""The read API's ratings (docs/API.md "Ratings"): a player's ratings and a kind's leaderboard."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.http.pagination import BadCursor
from games.api.http.query import (
    QueryChecked,
)
from games.api.reads.queries import CURSOR, check_listed, int_param, next_url, player_of
from games.api.schema import read_answers
from scoring.ratings import reading as ratings

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
        check_listed(request, pk)
        player = player_of(pk)
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
        limit = int_param(request, "limit", ratings.PAGE, 1, ratings.MOST)
        try:
            rows, cursor = ratings.leaderboard(kind, request.query_params.get("cursor"), limit)
        except ratings.BadCursor:
            raise BadCursor() from None
        return Response({"next": next_url(request, cursor), "previous": None, "results": rows})
