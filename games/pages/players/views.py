"""``/players/{id}/``: a player's page. Parses, reads through ``reading``, words through
``presenting``, renders (STYLE.md "Pages"); who may see what is the read side's rule."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.pages.players import presenting, reading
from scoring import selectors


@require_GET
def player_page(request: HttpRequest, pk: int) -> HttpResponse:
    """His ratings with their charts, recent play, tournaments and head to head, as far as the
    reader may see them; 404 for a player the reader may not see at all."""
    user = request.user
    player = reading.listed_player(user, pk)
    recent = reading.recent_play(player, user)
    stats = reading.statistics(player, user)
    entered = reading.tournaments_entered(player, user)
    context = {
        "player": player,
        "heading": presenting.heading(player.name, entered),
        "member_number": player.member_number
        if selectors.member_number_shown(user, player)
        else None,
        "kinds": presenting.by_kind(reading.player_ratings(player, user), stats),
        "recent": presenting.recent_rows(recent, reading.seat_names(recent)),
        "tournaments": presenting.tournaments(entered, player.pk),
        "head_to_head": presenting.head_to_head(stats),
        "scale": presenting.SCALE,
    }
    return render(request, "scoring/pages/player.html", context)
