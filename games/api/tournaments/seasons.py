"""A club's seasons over the API (API.md "Seasons"): made, their evenings added and removed,
closed, and read with their standings.

The tournaments context checks who may write (directors) and refuses what does not fit
(games.tournaments.seasons); who may read a season is its answer too
(games.tournaments.reading: ``season_readable``, ``season_hidden``: a hidden season is
not there, 404). These views parse and answer with the season's shape.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions as drf_permissions
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import request_bodies as bodies
from games.api.answer_cache import cached
from games.api.http.conditional import conditional, etag_of
from games.api.http.query import QueryChecked
from games.api.http.renderers import BrowsableAPIRenderer, JsonTextRenderer
from games.api.players import LIMIT_PARAM
from games.api.schema import seasons as season_answers
from games.api.streams import CURSOR, PAGE_PARAMS
from games.api.tournaments.directing import NewestFirst
from games.rules.errors import IllegalEvent
from games.store.models import Season
from games.tournaments import reading, seasons, shapes
from games.tournaments import season_standings as reads

# The service's refusal of an evening that is not in the season: for a DELETE of that evening's
# URL, a thing that is not there (404).
NOT_IN_SEASON = "season.no_such_tournament"
# A season's standings name every evening of every player: 40 evenings of 60 players are about
# 370 KB. Over answer_cache's usual bound they would be rendered anew on every request, ~10 ms of
# a core each, and the read's p99 was 60x the bare get-by-pk view's (docs/BENCHMARKS.md,
# "bench/seasons.py"). One body per season and fingerprint: kept up to this size.
STANDINGS_BODY = 4 * 1024 * 1024


class SeasonView(QueryChecked, APIView):
    """Published seasons are read by anyone, the others by their creator and the directors;
    writes are the directors' (the services check both)."""

    permission_classes = [drf_permissions.AllowAny]
    renderer_classes = [JsonTextRenderer, BrowsableAPIRenderer]  # standings are kept (answer_cache)

    def readable(self, request: Request, pk: uuid.UUID) -> Season:
        season = Season.objects.get(pk=pk)
        if reading.season_hidden(request.user, season):
            raise Season.DoesNotExist
        return season

    def season_answer(self, request: Request, pk: uuid.UUID, status_code: int) -> Response:
        """The season after a write (the writer, a director, reads any season)."""
        season = Season.objects.get(pk=pk)
        return Response(shapes.season_json(season, request.user), status=status_code)


class SeasonList(SeasonView):
    query_names = PAGE_PARAMS

    @extend_schema(
        operation_id="v1_seasons_list",
        parameters=[CURSOR, LIMIT_PARAM],
        responses={200: season_answers.SeasonList},
    )
    def get(self, request: Request) -> Response:
        rows = Season.objects.filter(reading.season_readable(request.user))
        paginator = NewestFirst()
        page = paginator.paginate_queryset(rows, request, view=self) or []
        return paginator.get_paginated_response([shapes.season_summary_json(s) for s in page])

    @extend_schema(
        request=season_answers.SeasonCreate, responses={201: season_answers.SeasonAnswer}
    )
    def post(self, request: Request) -> Response:
        season = seasons.season_create(
            spec=bodies.checked_body(request), user=request.user, meta=bodies.client_meta(request)
        )
        return self.season_answer(request, season.pk, status.HTTP_201_CREATED)


class SeasonDetail(SeasonView):
    @extend_schema(responses={200: season_answers.SeasonAnswer})
    def get(self, request: Request, pk: uuid.UUID) -> Response:
        season = self.readable(request, pk)
        return Response(shapes.season_json(season, request.user))


class SeasonStandings(SeasonView):
    """The season's standings over the evenings the reader may read, tagged by their
    fingerprint (every head they read): 304 while the client holds them. The answer is the one
    kept per fingerprint, rendered once per URL (answer_cache), never rebuilt per request: a
    kept answer costs one statement (the season's row and every head it depends on)."""

    @extend_schema(responses={200: season_answers.SeasonStandingsAnswer})
    def get(self, request: Request, pk: uuid.UUID) -> Response:
        found = reads.standings_for(pk, request.user)
        if found is None:
            raise Season.DoesNotExist
        fingerprint, answer = found
        etag = etag_of("season", fingerprint)

        def page() -> tuple[Response, bool]:
            return Response(answer), True

        return conditional(
            request, etag, lambda: cached(request, etag, page, max_body=STANDINGS_BODY)
        )


class SeasonTournaments(SeasonView):
    """``POST {"tournament": "<id>", "reason"?}``: an evening joins the season."""

    @extend_schema(
        request=season_answers.SeasonTournamentAdd, responses={201: season_answers.SeasonAnswer}
    )
    def post(self, request: Request, pk: uuid.UUID) -> Response:
        body = bodies.checked_body(request, season_answers.SeasonTournamentAdd)
        seasons.tournament_add(
            season_id=pk,
            tournament_id=body["tournament"],
            user=request.user,
            reason=body.get("reason"),
            meta=bodies.client_meta(request),
        )
        return self.season_answer(request, pk, status.HTTP_201_CREATED)


class SeasonTournament(SeasonView):
    """``DELETE``: the evening leaves the season (404 if it is not one of its evenings)."""

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: uuid.UUID, tournament: uuid.UUID) -> Response:
        try:
            seasons.tournament_remove(
                season_id=pk,
                tournament_id=tournament,
                user=request.user,
                meta=bodies.client_meta(request),
            )
        except IllegalEvent as refused:
            if refused.code == NOT_IN_SEASON:
                raise Http404(refused.message) from None
            raise
        return Response(status=status.HTTP_204_NO_CONTENT)


class SeasonClose(SeasonView):
    """``POST {"reason"?}``: the season is over; its evenings stay as they are."""

    @extend_schema(request=season_answers.SeasonClose, responses={200: season_answers.SeasonAnswer})
    def post(self, request: Request, pk: uuid.UUID) -> Response:
        body: dict[str, Any] = bodies.checked_body(request, season_answers.SeasonClose)
        seasons.season_close(
            season_id=pk,
            user=request.user,
            reason=body.get("reason"),
            meta=bodies.client_meta(request),
        )
        return self.season_answer(request, pk, status.HTTP_200_OK)
