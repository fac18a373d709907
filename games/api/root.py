"""``GET /api/v1/``: the API's front door, a link to every resource a client starts from."""

from __future__ import annotations

from typing import Any

from csp.decorators import csp_update
from django.utils.decorators import method_decorator
from drf_spectacular.utils import OpenApiExample, extend_schema
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerSplitView
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.http.query import QueryChecked

# Paths, not reversed names: the root lists resources whose routes live in other apps (and
# tournaments, whose routes may land later), and a link here must not break the root's import.
RESOURCES = {
    "games": "/api/v1/games/",
    "matches": "/api/v1/matches/",
    "players": "/api/v1/players/",
    "tournaments": "/api/v1/tournaments/",
    "seasons": "/api/v1/seasons/",
    "events": "/api/v1/events/",
    "events_ndjson": "/api/v1/events.ndjson",
    "match_history_csv": "/api/v1/matches/history.csv",
    "nightly_reports": "/api/v1/reports/nightly/",
    "webhooks": "/api/v1/webhooks/",
    "tokens": "/api/v1/tokens/",
    "schema": "/api/schema/",
    "docs": "/api/docs/",
    "redoc": "/api/redoc/",
}


class ApiRootAnswer(serializers.Serializer[Any]):
    """Absolute URLs of the API's resources."""

    games = serializers.URLField()
    matches = serializers.URLField()
    players = serializers.URLField()
    tournaments = serializers.URLField()
    seasons = serializers.URLField(help_text="A club's seasons over its evenings.")
    events = serializers.URLField(help_text="The all-stream feed (needs a login).")
    events_ndjson = serializers.URLField(help_text="The feed as NDJSON (needs a login).")
    match_history_csv = serializers.URLField(help_text="Every match's history as CSV.")
    nightly_reports = serializers.URLField(help_text="The club's nightly reports.")
    webhooks = serializers.URLField(help_text="The webhooks (directors only).")
    tokens = serializers.URLField(help_text="Your own API tokens (needs a login).")
    schema = serializers.URLField(help_text="The OpenAPI schema.")
    docs = serializers.URLField(help_text="Swagger UI.")
    redoc = serializers.URLField(help_text="ReDoc.")


class ApiRoot(QueryChecked, APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="v1_root",
        responses={200: ApiRootAnswer},
        examples=[
            OpenApiExample(
                "The resources",
                value={
                    name: f"https://scores.example.org{path}" for name, path in RESOURCES.items()
                },
                response_only=True,
            )
        ],
    )
    def get(self, request: Request) -> Response:
        """The API's resources, each as an absolute URL."""
        return Response(
            {name: request.build_absolute_uri(path) for name, path in RESOURCES.items()}
        )


# ReDoc injects its styles as style blocks (styled-components) and runs its search in a worker made
# from a blob: the site's policy is widened for its page by those alone. Scripts stay the host's
# files (its start is the <redoc> element, no inline script); fetches stay on this host.
REDOC_ALLOWS = {"style-src": ["'unsafe-inline'"], "worker-src": ["'self'", "blob:"]}


@method_decorator(csp_update(REDOC_ALLOWS), name="get")
class OfflineRedoc(SpectacularRedocView):
    """ReDoc from our own static files, without the web fonts drf-spectacular's page links.

    ReDoc's script draws its maker's logo from its CDN, whatever its options: the page's
    Content-Security-Policy keeps every fetch on this host, so the browser never sends that one
    (the logo then hides itself) and the docs make no request elsewhere.
    """

    template_name = "api_docs/redoc.html"


class OfflineSwagger(SpectacularSwaggerSplitView):
    """Swagger UI from our own static files, its start served as a script of its own
    (``?script``), so that the page runs under the site's policy: no inline script or style."""

    template_name = "api_docs/swagger_ui.html"
