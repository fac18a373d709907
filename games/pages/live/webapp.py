"""The pages as an installable web app: the service worker, the manifest, the site's icon.

The worker is served from the site's root (``/sw.js``) so that its scope covers every page; it
is a template, to name the static files it keeps by their URLs as the static storage gives
them. The manifest names the app, its icons and the page it opens on.
"""

from __future__ import annotations

import hashlib
import json

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.views.decorators.http import require_GET

NAME = "Scarney Scorekeeper"
DESCRIPTION = (
    "Score-keeping for Scarney and other table games: live tables, score sheets, tournaments."
)
THEME = "#0b5394"  # pages.css --accent
BACKGROUND = "#fbfaf7"  # pages.css --paper
ICONS = (
    ("games/icons/icon-192.png", "192x192", "any"),
    ("games/icons/icon-512.png", "512x512", "any"),
    ("games/icons/icon-maskable-512.png", "512x512", "maskable"),
)
# What a table page loads: kept when the worker is installed, so the first reload with no
# network finds them all.
PRECACHE = (
    "games/pages.css",
    "scoring/pages.css",
    "games/table.js",
    "games/live.js",
    "django_htmx/htmx-2.min.js",
    "games/icons/icon-192.png",
)


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    urls = [static(path) for path in PRECACHE]
    # A new list of files (a deployment) is a new worker, whose install keeps them anew.
    version = hashlib.sha256(json.dumps(urls).encode()).hexdigest()[:12]
    context = {
        "version": version,
        "precache": json.dumps(urls),
        "static_prefix": static(""),
    }
    body = render_to_string("games/pages/sw.js", context)
    answer = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    answer["Service-Worker-Allowed"] = "/"
    # The browser checks for a new worker on each load: it must never be kept stale.
    answer["Cache-Control"] = "no-cache"
    return answer


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    body = {
        "name": NAME,
        "short_name": "Scarney",
        "description": DESCRIPTION,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": [
            {"src": static(path), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for path, sizes, purpose in ICONS
        ],
    }
    answer = JsonResponse(body, content_type="application/manifest+json")
    answer["Cache-Control"] = "public, max-age=3600"
    return answer


@require_GET
def favicon(request: HttpRequest) -> HttpResponseRedirect:
    """Browsers ask for ``/favicon.ico`` on every page, the admin's too, whatever the page says."""
    answer = HttpResponseRedirect(static("games/icons/favicon.ico"))
    answer["Cache-Control"] = "public, max-age=86400"
    return answer
