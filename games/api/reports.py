"""The printed documents over HTTP: score sheets, a round's table cards, the standings, a player's
evening slip (CSV, HTML, PDF), a season's standings (CSV, PDF), and the club's nightly reports
(docs/API.md "Printed reports", "Seasons").

A fresh stored rendering is answered as it is; otherwise the render is asked of a worker and the
answer is 202 with ``Retry-After``: a page that reloads itself then, for a browser (one that
prefers ``text/html``), and the house JSON for every other client. Without a broker (eager mode)
the request renders the file itself and answers 200 at once. Whatever was asked, an answer that is
not the document (the 202, an error) is labelled as what it is, never as a PDF or a page.
"""

from __future__ import annotations

import base64
import hashlib
import re
import uuid
from datetime import date
from typing import Any, cast

from csp.decorators import csp_update
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.template.loader import render_to_string
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.http.query import QueryChecked
from games.api.http.renderers import CsvRenderer, HtmlRenderer, JSONRenderer
from games.api.streams import StreamView
from games.store.models import Season, Stream, Tournament
from games.tournaments import reading
from scoring import selectors
from scoring.documents import printing


class PdfRenderer(JSONRenderer):
    """Lets a client ask ``Accept: application/pdf`` (rather than be refused with 406); what is
    not the document itself is answered as JSON, labelled so (:class:`HonestLabels`)."""

    media_type = "application/pdf"
    format = "pdf"


class RenderingAnswer(serializers.Serializer[Any]):
    """A document being rendered: ask again after ``retry_after`` seconds."""

    status = serializers.CharField(help_text="Always `rendering`.")
    detail = serializers.CharField()
    retry_after = serializers.IntegerField(help_text="Seconds to wait, as the Retry-After header.")


class NightlyLink(serializers.Serializer[Any]):
    date = serializers.DateField()
    html = serializers.URLField(help_text="The report as a page.")
    pdf = serializers.URLField(help_text="The report as a PDF.")


class NightlyPage(serializers.Serializer[Any]):
    results = NightlyLink(many=True, help_text="Latest first.")


RENDERING = "Being rendered: ask again after `Retry-After` seconds."


def _responses(*fmts: str, renders: bool = True) -> dict[Any, Any]:
    """The document in each of its formats (the schema hook keeps the one of each path), and the
    202 while it renders: a page that reloads itself for a browser, JSON for the rest."""
    shown: dict[Any, Any] = {
        (200, printing.MEDIA_TYPES[fmt].split(";")[0]): OpenApiTypes.BINARY for fmt in fmts
    }
    if renders:
        shown[(202, "application/json")] = OpenApiResponse(RenderingAnswer, description=RENDERING)
        shown[(202, "text/html")] = OpenApiResponse(OpenApiTypes.STR, description=RENDERING)
    return shown


class HonestLabels:
    """An answer built as data (an error, the 202) is JSON labelled ``application/json``, even
    when the client asked for the document's media type: the CSV, HTML and PDF renderers are
    there to accept those ``Accept`` headers, not to label JSON as a PDF."""

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        if isinstance(response, Response) and getattr(request, "accepted_renderer", None):
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = JSONRenderer.media_type
        return super().finalize_response(request, response, *args, **kwargs)  # type: ignore[misc,no-any-return]


class DocumentMixin(HonestLabels, QueryChecked):
    renderer_classes: Any = [JSONRenderer, CsvRenderer, HtmlRenderer, PdfRenderer]

    def serve(
        self, request: Request, document: printing.Document, fmt: str, filename: str
    ) -> HttpResponseBase:
        found = printing.open_fresh(document, fmt)
        if found is None and printing.eager():
            printing.store(document, fmt)
            found = printing.open_fresh(document, fmt)
        if found is None:
            printing.request_render(document)
            return rendering(request, document.title)
        answer = _file_answer(found, fmt)
        disposition = "attachment" if fmt == "csv" else "inline"
        answer["Content-Disposition"] = f'{disposition}; filename="{filename}.{fmt}"'
        return answer


def _file_answer(found: Any, fmt: str) -> HttpResponse:
    # Documents are small (a sheet's PDF is tens of kB): read whole, answered with a length.
    with found:
        answer = HttpResponse(found.read(), content_type=printing.MEDIA_TYPES[fmt])
    return own_styles(answer) if fmt == "html" else answer


STYLE_BLOCK = re.compile(rb"<style>(.*?)</style>", re.DOTALL)


def own_styles(answer: HttpResponse) -> HttpResponse:
    """A document carries its own stylesheet (one file for the screen, print and the PDF, kept
    as rendered): the site's Content-Security-Policy admits exactly its style blocks, by their
    hashes, and still no other inline style and no script."""
    hashes = [
        f"'sha256-{base64.b64encode(hashlib.sha256(block).digest()).decode()}'"
        for block in STYLE_BLOCK.findall(answer.content)
    ]
    if not hashes:
        return answer

    @csp_update({"style-src": hashes})
    def admitted(request: HttpRequest) -> HttpResponse:
        return answer

    return cast(HttpResponse, admitted(HttpRequest()))


def rendering(request: Request, title: str) -> HttpResponseBase:
    """202 with ``Retry-After``: for a browser, a page that asks again by itself after that
    many seconds (and a link to ask now); for any other client, the house JSON."""
    wait = settings.REPORTS_RETRY_AFTER
    answer: HttpResponseBase
    if request.get_preferred_type(["application/json", "text/html"]) == "text/html":
        page = render_to_string(
            "scoring/reports/rendering.html",
            {"title": title, "wait": wait, "again": request.get_full_path()},
        )
        answer = own_styles(HttpResponse(page, status=202, content_type="text/html; charset=utf-8"))
    else:
        detail = f"Rendering {title}; ask again in {wait} s."
        answer = Response(
            {"status": "rendering", "detail": detail, "retry_after": wait}, status=202
        )
    answer["Retry-After"] = str(wait)
    # The body depends on Accept, and a 202 is never the answer to keep.
    patch_vary_headers(answer, ["Accept"])
    add_never_cache_headers(answer)
    return answer


class MatchScoreSheet(DocumentMixin, StreamView):
    category = Stream.Category.MATCH

    @extend_schema(responses=_responses("csv", "html", "pdf"))
    def get(self, request: Request, pk: uuid.UUID, rendering: str) -> HttpResponseBase:
        """The score sheet as the rule books print it: CSV, HTML or PDF (with its chart)."""
        self.get_stream(pk)
        return self.serve(request, printing.ScoreSheet(pk), rendering, f"score-sheet-{pk}")


class TournamentDocument(DocumentMixin, APIView):
    """A tournament's documents are read as the tournament is (``selectors.tournament_hidden``):
    by anyone once published, else by its creator, its keepers, its linked entrants and the
    directors; 404 for everyone else."""

    permission_classes = [permissions.AllowAny]

    def check_tournament(self, request: Request, pk: uuid.UUID) -> None:
        published = Tournament.objects.filter(pk=pk).values_list("published", flat=True).first()
        if published is None or selectors.tournament_hidden(request.user, pk, published):
            raise Http404


def _or_404(make: Any, *args: Any) -> printing.Document:
    try:
        document: printing.Document = make(*args)
    except printing.UnknownDocument:
        raise Http404 from None
    return document


class RoundCards(TournamentDocument):
    @extend_schema(responses=_responses("html", "pdf"))
    def get(self, request: Request, pk: uuid.UUID, number: int, rendering: str) -> HttpResponseBase:
        """A round's pairings (by table and by name) and one card per table."""
        self.check_tournament(request, pk)
        document = _or_404(printing.RoundCards, pk, number)
        return self.serve(request, document, rendering, f"round-{number}-cards")


class Standings(TournamentDocument):
    @extend_schema(responses=_responses("html", "pdf"))
    def get(self, request: Request, pk: uuid.UUID, rendering: str) -> HttpResponseBase:
        """The standings after the latest round, its tie-breaks explained, and the payments."""
        self.check_tournament(request, pk)
        return self.serve(request, _or_404(printing.Standings, pk), rendering, "standings")


class PlayerSlip(TournamentDocument):
    @extend_schema(responses=_responses("html", "pdf"))
    def get(self, request: Request, pk: uuid.UUID, player: int, rendering: str) -> HttpResponseBase:
        """A player's evening: his tables, results, points and net, whom he pays, who pays him."""
        self.check_tournament(request, pk)
        document = _or_404(printing.Slip, pk, player)
        return self.serve(request, document, rendering, f"slip-{player}")


class SeasonStandings(DocumentMixin, APIView):
    """A season's standings, read as the season is (``reading.season_hidden``): 404
    for a reader who may not read it. The paper counts the published evenings only, whoever
    reads it: one stored file serves all its readers."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=_responses("csv", "pdf"))
    def get(self, request: Request, pk: uuid.UUID, rendering: str) -> HttpResponseBase:
        """The season's standings, how they count, and each player's evenings (counted ones
        marked), from its published evenings."""
        season = Season.objects.filter(pk=pk).first()
        if season is None or reading.season_hidden(request.user, season):
            raise Http404
        document = _or_404(printing.SeasonStandings, pk)
        return self.serve(request, document, rendering, "season-standings")


# --- the nightly report ------------------------------------------------------------------------


class NightlyList(QueryChecked, APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: NightlyPage})
    def get(self, request: Request) -> Response:
        """The club's nightly reports, latest first, each with its HTML and PDF links."""
        results = [
            {
                "date": day.isoformat(),
                "html": request.build_absolute_uri(f"{day.isoformat()}.html"),
                "pdf": request.build_absolute_uri(f"{day.isoformat()}.pdf"),
            }
            for day in printing.nightly_days()
        ]
        return Response({"results": results})


class NightlyFile(HonestLabels, QueryChecked, APIView):
    """Rendered by the nightly task before it is listed: stored, or 404; never 202."""

    permission_classes = [permissions.AllowAny]
    renderer_classes = [JSONRenderer, HtmlRenderer, PdfRenderer]

    @extend_schema(responses=_responses("html", "pdf", renders=False))
    def get(self, request: Request, day: str, rendering: str) -> HttpResponseBase:
        """One night's report, as stored by the nightly task."""
        try:
            when = date.fromisoformat(day)
        except ValueError:
            raise Http404 from None
        found = printing.open_stored(f"{printing.NIGHTLY}/{when.isoformat()}.{rendering}")
        if found is None:
            raise Http404
        answer = _file_answer(found, rendering)
        answer["Content-Disposition"] = f'inline; filename="nightly-{when}.{rendering}"'
        return answer
