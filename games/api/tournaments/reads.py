"""A tournament's reads: the tournament, a round, its standings and its settlement.

Every answer is the tournament's state folded from its stream, as of now, of a round
(``?round=``) or of a time (``?as_of=``), and read only by whom the tournaments context lets
read it (``selectors.tournament_hidden``: a hidden one is not there, 404).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from django.http import Http404
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions as drf_permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.answer_cache import cached
from games.api.http.conditional import conditional, etag_of
from games.api.http.query import QueryChecked
from games.api.http.renderers import BrowsableAPIRenderer, JsonTextRenderer
from games.api.schema import answers
from games.play import permissions
from games.store import folding
from games.store.canonical import BadValue
from games.store.models import Event, Tournament
from games.tournaments import keepers, shapes
from games.tournaments.core import state as ts
from scoring import selectors

AS_OF_PARAM = OpenApiParameter(
    "as_of",
    {"type": "string", "format": "date-time"},
    description="The tournament as it stood at this ISO time.",
)
ROUND_PARAM = OpenApiParameter(
    "round", {"type": "integer", "minimum": 0}, description="Standings after this round."
)


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


class TournamentDetail(TournamentView):
    @extend_schema(parameters=[AS_OF_PARAM], responses={200: answers.TournamentAnswer})
    def get(self, request: Request, pk: uuid.UUID) -> Response:
        return self.answer(request, pk, lambda folded: shapes.tournament_json(folded, pk))


class TournamentRound(TournamentView):
    @extend_schema(parameters=[AS_OF_PARAM], responses={200: answers.RoundAnswer})
    def get(self, request: Request, pk: uuid.UUID, number: int) -> Response:
        state: ts.TournamentState = self.folded(request, pk).state
        if not 1 <= number <= len(state.rounds):
            raise Http404(f"Round {number} is not paired (yet).")
        return Response(shapes.round_json(state, number, codes_shown(request, pk, number)))


def codes_shown(request: Request, pk: uuid.UUID, number: int) -> dict[int, str] | None:
    """The round's table codes for a director; None (not shown) for anyone else. Not for a
    read-only token either: a code opens a table to write at, which such a token may not."""
    if not permissions.is_director(request.user) or getattr(request.auth, "read_only", False):
        return None
    return keepers.live_codes(pk, number)


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


def _int_param(request: Request, name: str, default: int, low: int, high: int) -> int:
    text = request.query_params.get(name)
    if text is None:
        return default
    if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        raise BadValue("query.bad_value", f"{name} must be a whole number from {low} to {high}.")
    return int(text)
