"""The season's page: a view parses, asks the tournaments context, renders (STYLE.md "Pages").

Who may read a season, and which of its evenings count for this reader, is the context's answer
(``season_standings``); a season the reader may not read is not there (404).
"""

from __future__ import annotations

import uuid

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from games.pages.live import following
from games.pages.players import reading as player_reading
from games.pages.seasons import presenting
from games.store.models import Season
from games.tournaments import reading, season_standings


@require_GET
def season_page(request: HttpRequest, pk: uuid.UUID) -> HttpResponse:
    """Standings explained, each player's evenings with the counted ones marked, and the chart
    of the leaders' season; 304 while nothing it shows has moved (its standings' fingerprint)."""
    season = get_object_or_404(Season, pk=pk)
    if reading.season_hidden(request.user, season):
        raise Http404("There is no such season.")
    fingerprint, answer = season_standings.standings_with_fingerprint(season, request.user)
    tag = following.season_tag(fingerprint, request.user)
    if following.unchanged(request, tag):
        return following.not_modified(tag)
    heads = season_standings.readable_evenings(request.user, season_standings.evening_heads(season))
    rows = presenting.standings(answer, heads)
    context = {
        "season": presenting.facts(season),
        "explain": answer["explain"],
        "evenings": presenting.columns(heads),
        "rows": rows,
        "linked": player_reading.listed_ids(request.user, [r["player"] for r in rows]),
        "chart": presenting.chart(answer, heads, season),
        "follow_tag": tag,
    }
    return following.tagged(render(request, "scoring/pages/season.html", context), tag)
