"""A director's steps over the API: creating a tournament, entering players, pairing and
re-pairing rounds, table codes, keepers and corrections. The tournaments context checks who may
and refuses what does not fit; these views parse and answer with the tournament's shape.
"""

from __future__ import annotations

import uuid

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from games.api import request_bodies as bodies
from games.api.http.pagination import CheckedCursorPagination
from games.api.players import LIMIT_PARAM  # the lists page alike
from games.api.schema import answers
from games.api.streams import CURSOR, PAGE_PARAMS
from games.api.tournaments.reads import AS_OF_PARAM, TournamentView, codes_shown
from games.store import folding
from games.store.canonical import BadValue
from games.store.models import Event, Tournament
from games.tournaments import creating, entries, keepers, results, rounds, shapes
from games.tournaments.core import state as ts
from scoring import selectors


class NewestFirst(CheckedCursorPagination):
    """The tournaments' pages, newest first."""

    ordering = ("-created_at", "-pk")
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 200


class TournamentList(TournamentView):
    query_names = PAGE_PARAMS

    @extend_schema(
        operation_id="v1_tournaments_list",
        parameters=[CURSOR, LIMIT_PARAM],
        responses={200: answers.TournamentList},
    )
    def get(self, request: Request) -> Response:
        rows = Tournament.objects.filter(selectors.tournament_readable(request.user))
        paginator = NewestFirst()
        page = paginator.paginate_queryset(rows, request, view=self) or []
        return paginator.get_paginated_response([shapes.summary_json(t) for t in page])

    @extend_schema(request=answers.TournamentCreate, responses={201: answers.TournamentAnswer})
    def post(self, request: Request) -> Response:
        tournament = creating.tournament_create(
            spec=bodies.checked_body(request),
            user=request.user,
            meta=bodies.client_meta(request),
        )
        folded = folding.load(tournament.stream)
        return Response(
            shapes.tournament_json(folded, tournament.pk), status=status.HTTP_201_CREATED
        )


class TournamentEntries(TournamentView):
    """``POST {"player": 12}`` (or ``{"name"}``, ``{"member_number"}``): enter a player; a late
    entry, once round 1 is paired, with its ``"reason"``."""

    @extend_schema(request=answers.EntryCreate, responses={201: answers.TournamentAnswer})
    def post(self, request: Request, pk: uuid.UUID) -> Response:
        spec = bodies.checked_body(request, answers.EntryCreate)
        entries.entry_add(
            tournament_id=pk,
            spec=spec,
            reason=spec.pop("reason", None),
            user=request.user,
            meta=bodies.client_meta(request),
        )
        return Response(
            shapes.tournament_json(self.folded(request, pk), pk),
            status=status.HTTP_201_CREATED,
        )


class TournamentRounds(TournamentView):
    """``POST {}`` pairs the next round; ``{"tables": [[12, 7], [3, 9]]}`` pairs it by hand;
    ``{"repair": true, "reason": "..."}`` pairs the current round again."""

    @extend_schema(request=answers.RoundCreate, responses={201: answers.RoundAnswer})
    def post(self, request: Request, pk: uuid.UUID) -> Response:
        body = bodies.checked_body(request, answers.RoundCreate)
        seed = body.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise BadValue("request.bad_seed", "seed is a whole number.")
        if body.get("repair"):
            number = rounds.round_repair(
                tournament_id=pk,
                reason=body.get("reason") or "",
                tables=body.get("tables"),
                user=request.user,
                meta=bodies.client_meta(request),
            )
        else:
            number = rounds.round_pair(
                tournament_id=pk,
                tables=body.get("tables"),
                seed=seed,
                override=bool(body.get("override")),
                reason=body.get("reason"),
                user=request.user,
                meta=bodies.client_meta(request),
            )
        folded = self.folded(request, pk)
        return Response(
            shapes.round_json(folded.state, number, codes_shown(request, pk, number)),
            status=status.HTTP_201_CREATED,
        )


class TournamentTableCode(TournamentView):
    """``POST`` issues the table a new keeper code (the old one stops at once); ``DELETE``
    revokes it. Directors only."""

    @extend_schema(request=None, responses={201: answers.TableAnswer})
    def post(self, request: Request, pk: uuid.UUID, number: int, table: int) -> Response:
        keepers.reissue(tournament_id=pk, round=number, table=table, user=request.user)
        state: ts.TournamentState = self.folded(request, pk).state
        answer = shapes.round_json(state, number, codes_shown(request, pk, number))
        seated = next(t for t in answer["tables"] if t["table"] == table)
        return Response(seated, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: uuid.UUID, number: int, table: int) -> Response:
        keepers.revoke(tournament_id=pk, round=number, table=table, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TournamentKeepers(TournamentView):
    """``POST {"round": 1, "table": 2, "user": "bob"}``: bob keeps score at that table."""

    @extend_schema(request=answers.KeeperAssign, responses={201: answers.RoundAnswer})
    def post(self, request: Request, pk: uuid.UUID) -> Response:
        body = bodies.checked_body(request, answers.KeeperAssign)
        keepers.keeper_assign(
            tournament_id=pk,
            round=body.get("round"),
            table=body.get("table"),
            username=body.get("user"),
            user=request.user,
            meta=bodies.client_meta(request),
        )
        folded = self.folded(request, pk)
        return Response(
            shapes.round_json(folded.state, body["round"]),
            status=status.HTTP_201_CREATED,
        )


class TournamentEvents(TournamentView):
    """``GET`` the stream; ``POST {"id", "type", "data", "expected_version"}`` a correction."""

    @extend_schema(parameters=[AS_OF_PARAM], responses={200: answers.TournamentEvents})
    def get(self, request: Request, pk: uuid.UUID) -> Response:
        self.folded(request, pk)  # the read permission
        rows = Event.objects.filter(stream_id=pk).order_by("version")
        return Response(
            {
                "results": [
                    {
                        "id": str(e.id),
                        "version": e.version,
                        "type": e.type,
                        "data": e.data,
                        "recorded_at": e.recorded_at.isoformat(),
                        "recorded_by": e.meta.get("recorded_by"),
                    }
                    for e in rows
                ]
            }
        )

    @extend_schema(
        request=bodies.EventCreate,
        responses={201: answers.TournamentAnswer, 200: answers.TournamentAnswer},
    )
    def post(self, request: Request, pk: uuid.UUID) -> Response:
        body = bodies.EventCreate(data=request.data)
        body.is_valid(raise_exception=True)
        values = body.validated_data
        folded, created = results.correction_record(
            tournament_id=pk,
            event_id=values["id"],
            type=values["type"],
            data=values["data"],
            expected_version=values.get("expected_version"),
            user=request.user,
            meta=bodies.client_meta(request, values.get("meta")),
        )
        answer = shapes.tournament_json(folded, pk)
        return Response(answer, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)
