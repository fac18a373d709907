"""The player register's endpoints (API.md "Players"): list and search, add, read, merge.

Views parse and answer; the register's services decide and check who may write."""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions as drf_permissions
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import request_bodies as bodies
from games.api.http.pagination import CheckedCursorPagination
from games.api.http.query import QueryChecked
from games.api.schema import answers
from games.api.streams import CURSOR, PAGE_PARAMS
from games.play import permissions, register
from games.store.models import Player
from scoring import selectors

Q_PARAM = OpenApiParameter(
    "q",
    {"type": "string", "minLength": 1},
    description="Names containing this, or this exact member number.",
)
LIMIT_PARAM = OpenApiParameter(
    "limit", {"type": "integer", "minimum": 1, "maximum": 200}, description="Rows (default 50)."
)


class ByName(CheckedCursorPagination):
    """The register's pages, alphabetical (the id breaks a tie between namesakes)."""

    ordering = ("name", "pk")
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 200


def player_json(player: Player, reader: Any) -> dict[str, Any]:
    """The register's row; its member number for the directors and the player himself only."""
    shown = selectors.member_number_shown(reader, player)
    return {
        "id": player.pk,
        "name": player.name,
        "member_number": player.member_number if shown else None,
        "merged_into": player.merged_into_id,
    }


class PlayerList(QueryChecked, APIView):
    """The player register: ``?q=`` searches names (and, for directors, member numbers);
    directors add players. Without a login it lists only the players of finished public games
    and matches, as a player's history does, so that the register is not a list of members."""

    permission_classes = [drf_permissions.AllowAny]
    query_names = ("q", *PAGE_PARAMS)

    @extend_schema(
        operation_id="v1_players_list",
        parameters=[Q_PARAM, CURSOR, LIMIT_PARAM],
        responses={200: answers.PlayerList},
    )
    def get(self, request: Request) -> Response:
        query = request.query_params.get("q", "").strip()
        user = request.user
        rows = Player.objects.filter(selectors.players_listed(user), merged_into=None)
        if query:
            found = Q(name__icontains=query)
            if permissions.is_director(user):  # a number is searched by who may see numbers
                found |= Q(member_number__iexact=query)
            rows = rows.filter(found)
        paginator = ByName()
        page = paginator.paginate_queryset(rows, request, view=self) or []
        return paginator.get_paginated_response([player_json(p, user) for p in page])

    @extend_schema(request=answers.PlayerCreate, responses={201: answers.PlayerAnswer})
    def post(self, request: Request) -> Response:
        body = bodies.checked_body(request, answers.PlayerCreate)
        player = register.player_register(
            name=body.get("name"),
            member_number=body.get("member_number"),
            user=request.user,
            meta=bodies.client_meta(request),
        )
        return Response(player_json(player, request.user), status=status.HTTP_201_CREATED)


class PlayerDetail(APIView):
    """One player: without a login, only one who played a finished public game or match (404
    otherwise, as his history)."""

    permission_classes = [drf_permissions.AllowAny]

    @extend_schema(responses={200: answers.PlayerAnswer})
    def get(self, request: Request, pk: int) -> Response:
        player = Player.objects.filter(selectors.players_listed(request.user), pk=pk).get()
        return Response(player_json(player, request.user))


class PlayerMerge(APIView):
    """``POST {"into": id, "reason": "..."}``: this record is the same person as ``into``."""

    @extend_schema(request=answers.PlayerMerge, responses={200: answers.PlayerAnswer})
    def post(self, request: Request, pk: int) -> Response:
        body = bodies.checked_body(request, answers.PlayerMerge)
        player = register.player_merge(
            player=pk,
            into=body.get("into"),
            reason=body.get("reason"),
            user=request.user,
            meta=bodies.client_meta(request),
        )
        return Response(player_json(player, request.user))
