"""The tournament and player-register endpoints (API.md "Players", "Tournaments").

Views parse and answer; the services decide and check who may write. Every answer is the
tournament's state folded from its stream, as of now, of a round (``?round=``) or of a time
(``?as_of=``).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from django.db.models import Q
from django.http import Http404
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions as drf_permissions
from rest_framework import serializers, status
from rest_framework.renderers import BrowsableAPIRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import request_bodies as bodies
from games.api.answer_cache import cached
from games.api.http.conditional import conditional, etag_of
from games.api.http.pagination import CheckedCursorPagination
from games.api.http.query import QueryChecked
from games.api.http.renderers import JsonTextRenderer
from games.api.schema import answers
from games.api.streams import CURSOR, PAGE_PARAMS
from games.play import permissions, register
from games.store import folding
from games.store.canonical import BadValue
from games.store.models import Event, Player, Tournament
from games.tournaments import creating, entries, keepers, results, rounds, shapes
from games.tournaments.core import state as ts
from scoring import selectors

# The query parameters, for the schema (the views read them below).
Q_PARAM = OpenApiParameter(
    "q",
    {"type": "string", "minLength": 1},
    description="Names containing this, or this exact member number.",
)
LIMIT_PARAM = OpenApiParameter(
    "limit", {"type": "integer", "minimum": 1, "maximum": 200}, description="Rows (default 50)."
)
AS_OF_PARAM = OpenApiParameter(
    "as_of",
    {"type": "string", "format": "date-time"},
    description="The tournament as it stood at this ISO time.",
)
ROUND_PARAM = OpenApiParameter(
    "round", {"type": "integer", "minimum": 0}, description="Standings after this round."
)


class ByName(CheckedCursorPagination):
    """The register's pages, alphabetical (the id breaks a tie between namesakes)."""

    ordering = ("name", "pk")
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 200


class NewestFirst(CheckedCursorPagination):
    """The tournaments' pages, newest first."""

    ordering = ("-created_at", "-pk")
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 200


# --- players ----------------------------------------------------------------------------------


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
        body = _body(request, answers.PlayerCreate)
        player = register.player_register(
            name=body.get("name"),
            member_number=body.get("member_number"),
            user=request.user,
            meta=client_meta(request),
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
        body = _body(request, answers.PlayerMerge)
        player = register.player_merge(
            player=pk,
            into=body.get("into"),
            reason=body.get("reason"),
            user=request.user,
            meta=client_meta(request),
        )
        return Response(player_json(player, request.user))


# --- tournaments ------------------------------------------------------------------------------


class TournamentView(QueryChecked, APIView):
    """Published tournaments are read by anyone; the others by their creator, the keepers of
    their tables, their entrants (a register record linked to the user) and the directors
    (``selectors.tournament_readable``). A hidden one is not there: 404, as for anonymous
    readers before. Every read takes ``?as_of=`` and no other parameter unless it says so."""

    permission_classes = [drf_permissions.AllowAny]
    renderer_classes = [JsonTextRenderer, BrowsableAPIRenderer]  # reads are kept (answer_cache)
    query_names: tuple[str, ...] = ("as_of",)

    def folded(self, request: Request, pk: uuid.UUID) -> folding.Folded:
        tournament = Tournament.objects.select_related("stream").get(pk=pk)
        if selectors.tournament_hidden(request.user, pk, tournament.published):
            raise Tournament.DoesNotExist
        return folding.load(tournament.stream, at_version=_as_of_version(request, pk))

    def answer(
        self, request: Request, pk: uuid.UUID, build: Callable[[folding.Folded], Any]
    ) -> Response:
        """``build(folded)``'s answer, or 304 while the client holds it: the tag is the
        stream's version and head and the query, read in one small query without a fold."""
        row = (
            Tournament.objects.filter(pk=pk)
            .values_list("stream__version", "published", "stream__head_hash")
            .first()
        )
        if row is None or selectors.tournament_hidden(request.user, pk, row[1]):
            raise Tournament.DoesNotExist
        etag = etag_of("tournament", pk, row[0], row[2], request.GET.urlencode())

        def page() -> tuple[Response, bool]:
            return Response(build(self.folded(request, pk))), True

        return conditional(request, etag, lambda: cached(request, etag, page))


def _as_of_version(request: Request, pk: uuid.UUID) -> int | None:
    """The stream's version at ``?as_of=`` (ISO time), or None for now."""
    text = request.query_params.get("as_of")
    if text is None:
        return None
    when = _utc(text)
    if when is None:
        raise BadValue("query.bad_value", f"as_of must be an ISO date and time, not {text!r}.")
    events = Event.objects.filter(stream_id=pk, recorded_at__lte=when)
    version = events.order_by("-version").values_list("version", flat=True).first()
    if version is None:
        raise BadValue("query.bad_value", f"The tournament did not exist yet at {text}.")
    return int(version)


def _aware(when: datetime) -> datetime:
    return when if timezone.is_aware(when) else timezone.make_aware(when)


def _utc(text: str) -> datetime | None:
    """``text`` as a UTC time, or None if it is not one: a well-formed but impossible date
    (``2026-13-45T00:00``) or an offset PostgreSQL cannot hold (``+16:34``) is a 400, not a 500."""
    try:
        when = parse_datetime(text)
        return None if when is None else _aware(when).astimezone(UTC)
    except (ValueError, OverflowError):
        return None


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
            spec=_body(request), user=request.user, meta=client_meta(request)
        )
        folded = folding.load(tournament.stream)
        return Response(
            shapes.tournament_json(folded, tournament.pk), status=status.HTTP_201_CREATED
        )


class TournamentDetail(TournamentView):
    @extend_schema(parameters=[AS_OF_PARAM], responses={200: answers.TournamentAnswer})
    def get(self, request: Request, pk: uuid.UUID) -> Response:
        return self.answer(request, pk, lambda folded: shapes.tournament_json(folded, pk))


class TournamentEntries(TournamentView):
    """``POST {"player": 12}`` (or ``{"name"}``, ``{"member_number"}``): enter a player; a late
    entry, once round 1 is paired, with its ``"reason"``."""

    @extend_schema(request=answers.EntryCreate, responses={201: answers.TournamentAnswer})
    def post(self, request: Request, pk: uuid.UUID) -> Response:
        spec = _body(request, answers.EntryCreate)
        entries.entry_add(
            tournament_id=pk,
            spec=spec,
            reason=spec.pop("reason", None),
            user=request.user,
            meta=client_meta(request),
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
        body = _body(request, answers.RoundCreate)
        seed = body.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise BadValue("request.bad_seed", "seed is a whole number.")
        if body.get("repair"):
            number = rounds.round_repair(
                tournament_id=pk,
                reason=body.get("reason") or "",
                tables=body.get("tables"),
                user=request.user,
                meta=client_meta(request),
            )
        else:
            number = rounds.round_pair(
                tournament_id=pk,
                tables=body.get("tables"),
                seed=seed,
                override=bool(body.get("override")),
                reason=body.get("reason"),
                user=request.user,
                meta=client_meta(request),
            )
        folded = self.folded(request, pk)
        return Response(
            shapes.round_json(folded.state, number, _codes(request, pk, number)),
            status=status.HTTP_201_CREATED,
        )


class TournamentRound(TournamentView):
    @extend_schema(parameters=[AS_OF_PARAM], responses={200: answers.RoundAnswer})
    def get(self, request: Request, pk: uuid.UUID, number: int) -> Response:
        state: ts.TournamentState = self.folded(request, pk).state
        if not 1 <= number <= len(state.rounds):
            raise Http404(f"Round {number} is not paired (yet).")
        return Response(shapes.round_json(state, number, _codes(request, pk, number)))


def _codes(request: Request, pk: uuid.UUID, number: int) -> dict[int, str] | None:
    """The round's table codes for a director; None (not shown) for anyone else. Not for a
    read-only token either: a code opens a table to write at, which such a token may not."""
    if not permissions.is_director(request.user) or getattr(request.auth, "read_only", False):
        return None
    return keepers.live_codes(pk, number)


class TournamentTableCode(TournamentView):
    """``POST`` issues the table a new keeper code (the old one stops at once); ``DELETE``
    revokes it. Directors only."""

    @extend_schema(request=None, responses={201: answers.TableAnswer})
    def post(self, request: Request, pk: uuid.UUID, number: int, table: int) -> Response:
        keepers.reissue(tournament_id=pk, round=number, table=table, user=request.user)
        state: ts.TournamentState = self.folded(request, pk).state
        answer = shapes.round_json(state, number, _codes(request, pk, number))
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
        body = _body(request, answers.KeeperAssign)
        keepers.keeper_assign(
            tournament_id=pk,
            round=body.get("round"),
            table=body.get("table"),
            username=body.get("user"),
            user=request.user,
            meta=client_meta(request),
        )
        folded = self.folded(request, pk)
        return Response(
            shapes.round_json(folded.state, body["round"]),
            status=status.HTTP_201_CREATED,
        )


class TournamentStandings(TournamentView):
    """``?round=N`` (default: the last round with every result in; ``in_play`` names the round
    being played), ``?as_of=`` a time."""

    query_names = ("round", "as_of")

    @extend_schema(parameters=[ROUND_PARAM, AS_OF_PARAM], responses={200: answers.StandingsAnswer})
    def get(self, request: Request, pk: uuid.UUID) -> Response:
        def build(folded: folding.Folded) -> dict[str, Any]:
            state: ts.TournamentState = folded.state
            upto = _int_param(request, "round", state.last_complete, 0, len(state.rounds))
            return shapes.standings_json(state, upto)

        return self.answer(request, pk, build)


class TournamentSettlement(TournamentView):
    """Who owes whom tonight: each player's net over his matches, paid with fewest transfers."""

    @extend_schema(parameters=[AS_OF_PARAM], responses={200: answers.SettlementAnswer})
    def get(self, request: Request, pk: uuid.UUID) -> Response:
        return self.answer(request, pk, lambda folded: shapes.settlement_json(folded.state))


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
            meta=client_meta(request, values.get("meta")),
        )
        answer = shapes.tournament_json(folded, pk)
        return Response(answer, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


# --- helpers ----------------------------------------------------------------------------------


def client_meta(request: Request, meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """The client's meta for a director's event, as a game event's (``games.api.streams``): the
    body's ``meta`` where the body has one (a correction's), and the ``X-Device`` header as its
    device.
    The services check it (``meta.*``) and store it beside who recorded the event."""
    device = request.headers.get("X-Device")
    meta = dict(meta or {})
    return {**meta, "device": device} if device else meta


def _body(
    request: Request, shape: type[serializers.Serializer[Any]] | None = None
) -> dict[str, Any]:
    """The request's JSON object, checked against its documented ``shape`` where one is given
    (400 ``request.invalid`` with the fields at fault); the services check the rest."""
    if not isinstance(request.data, dict):
        raise BadValue("request.not_an_object", "The request body must be a JSON object.")
    if shape is None:
        return dict(request.data)
    body = shape(data=request.data)
    body.is_valid(raise_exception=True)
    return dict(body.validated_data)


def _int_param(request: Request, name: str, default: int, low: int, high: int) -> int:
    text = request.query_params.get(name)
    if text is None:
        return default
    if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        raise BadValue("query.bad_value", f"{name} must be a whole number from {low} to {high}.")
    return int(text)
