"""A tournament table on the pages: its keeper link, its result confirmed, its next game.

``/t/{code}/`` is a table's keeper link, opened on a phone with no account (API.md "Pages").

The code is checked by the service (games.tournaments.keepers); a good one logs this browser in
as the code's keeper and opens the table's match. A wrong code counts against the address: past
``WRONG_CODES_ALLOWED`` in ``WRONG_CODES_WINDOW`` seconds the link answers 429 without looking
the code up, so 40 bits cannot be walked through from one address. Every code is counted before
it is looked up, in one atomic step, and a code that was issued gives its count back: guesses
sent at once cannot all read the count before any of them adds to it, so at most
``WRONG_CODES_ALLOWED`` wrong codes are ever looked up. The count is shared by the processes in
Redis, and kept by each process while Redis cannot be reached (games.store.shared_cache).
"""

from __future__ import annotations

import uuid
from typing import Any, cast

from django.contrib import messages
from django.contrib.auth import login, logout
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST
from rest_framework.throttling import BaseThrottle

from games.play import permissions, services
from games.play.refusals import REFUSED, refusal_of
from games.rules.events import RESULT_CONFIRMED
from games.store import folding, shared_cache
from games.store.models import Game, Match, Stream
from games.tournaments import keepers

WRONG_CODES_ALLOWED = 30  # a club's phones may share one address: room for typos
WRONG_CODES_WINDOW = 600  # seconds
PAGE = "games/pages/table_code.html"


@require_http_methods(["GET", "POST"])
def keeper_link(request: HttpRequest, code: str) -> HttpResponse:
    """Open the table of ``code`` for this browser; a POST confirms leaving another login."""
    key = f"table-code-misses:{_address(request)}"
    if shared_cache.count(key, WRONG_CODES_WINDOW) > WRONG_CODES_ALLOWED:
        return _refused(request, "code.throttled", _TOO_MANY, 429)
    try:
        found = keepers.opened(code)
    except keepers.CodeRefused as refused:
        if refused.code != "code.unknown":
            shared_cache.uncount(key)  # a code that was issued (revoked, expired) is no guess
        return _refused(request, refused.code, refused.message, refused.status)
    shared_cache.uncount(key)  # the right code is no guess
    user = request.user
    if user.is_authenticated and user.pk == found.keeper_id:
        return redirect("scoring-pages:match", pk=found.match_id)
    if user.is_authenticated and request.method != "POST":
        # Someone logged in (a director trying the card): ask before logging him out.
        context = {"found": found, "shown": keepers.shown(found.code), "switch": True}
        return render(request, PAGE, context)
    if user.is_authenticated:
        logout(request)
    login(request, found.keeper, backend="django.contrib.auth.backends.ModelBackend")
    return redirect("scoring-pages:match", pk=found.match_id)


_TOO_MANY = (
    "Too many wrong table codes from this address: wait ten minutes, then type the code from "
    "the table card again."
)


def _address(request: HttpRequest) -> str:
    """The client's address, trusting as many fronts as the API's throttles do (DRF's)."""
    return str(BaseThrottle().get_ident(cast(Any, request)))  # it reads request.META alone


def _refused(request: HttpRequest, code: str, message: str, status: int) -> HttpResponse:
    return render(request, PAGE, {"code": code, "message": message}, status=status)


# --- the match page's table panel -------------------------------------------------------------


def table_panel(user: Any, match: Match, shown: dict[str, Any]) -> dict[str, Any] | None:
    """What the match page shows at a tournament table: each seat's agreement to the result and
    the buttons to give it; at a live table, the game to play next. None elsewhere."""
    if match.tournament_id is None:
        return None
    recorder = permissions.is_recorder(user, match.pk) if user.is_authenticated else False
    panel: dict[str, Any] = {"match": match.pk, "recorder": recorder}
    if match.entry == "live" and recorder:
        panel["game"] = _game_to_play(match, shown)
    if shown["status"] in (Stream.Status.FINISHED, Stream.Status.SETTLED):
        panel["confirm"] = _agreement(user, match)
    return panel


def _game_to_play(match: Match, shown: dict[str, Any]) -> dict[str, Any] | None:
    playing = (
        Game.objects.filter(match=match, stream__status=Stream.Status.IN_PROGRESS)
        .values_list("stream_id", "number")
        .first()
    )
    if playing is not None:
        return {"continue": playing[0], "number": playing[1]}
    if shown.get("next_game"):
        return {"start": True, "number": shown["next_game"]}
    return None


def _agreement(user: Any, match: Match) -> dict[str, Any] | None:
    assert match.tournament_id is not None  # table_panel asks only at a tournament's table
    state = folding.load(Stream.objects.get(pk=match.tournament_id)).state
    played = state.round(match.round_number)
    table = played.table(match.table_number)
    if table.match != str(match.pk) or table.result is None:
        return None  # the tournament has not taken the result yet (its close is on its way)
    labels = state.labels()
    seats = [
        {
            "seat": i,
            "label": labels.get(p, str(p)),
            "agreed": i in table.confirmed_seats,
            "id": uuid.uuid4(),  # the event's id: a form sent twice records it once
        }
        for i, p in enumerate(table.players)
    ]
    return {
        "seats": seats if table.result.how == "played" else [],
        "decided": table.result.how != "played",  # adjusted, forfeited or voided by a director
        "done": not table.unconfirmed or played.closed,
        "director": permissions.is_director(user),
        "by_director": table.director_confirmed or table.result.by_director,
    }


@require_POST
def confirm(request: HttpRequest, pk: uuid.UUID) -> HttpResponse:
    """A seat agrees to the table's result (or a director confirms it): ``result.confirmed``."""
    match = get_object_or_404(Match, pk=pk)
    seat = request.POST.get("seat")
    data: dict[str, Any] = {"director": True}  # the director's button sends no seat
    if seat is not None:
        if not (seat.isascii() and seat.isdigit() and len(seat) < 3):
            messages.error(request, f"Not confirmed: {seat[:10]!r} is not a seat of this table.")
            return redirect("scoring-pages:match", pk=match.pk)
        data = {"seat": int(seat)}
    try:
        event_id = uuid.UUID(request.POST.get("id", ""))
    except ValueError:
        event_id = uuid.uuid4()
    try:
        services.event_record(
            category=Stream.Category.MATCH,
            stream_id=match.pk,
            event_id=event_id,
            type=RESULT_CONFIRMED,
            data=data,
            meta={"device": "page"},
            user=request.user,
        )
    except REFUSED as error:
        refused = refusal_of(error)
        assert refused is not None
        messages.error(request, f"Not confirmed: {refused.sentence}")
    else:
        messages.success(request, _confirmed_sentence(match, data))
    return redirect("scoring-pages:match", pk=match.pk)


def _confirmed_sentence(match: Match, data: dict[str, Any]) -> str:
    if "seat" not in data:
        return "Confirmed by the director: the result stands."
    seats = folding.load(Stream.objects.get(pk=match.pk)).header["players"]
    seat = data["seat"]
    who = seats[seat]["name"] if seat < len(seats) else f"Seat {seat}"  # as the table shows him
    return f"{who} agrees to the result."


@require_POST
def next_game(request: HttpRequest, pk: uuid.UUID) -> HttpResponse:
    """Start the table's next game (a live match) and open it."""
    match = get_object_or_404(Match, pk=pk)
    try:
        game = services.game_start(
            kind=match.format, seats=None, match_id=match.pk, user=request.user
        )
    except REFUSED as error:
        refused = refusal_of(error)
        assert refused is not None
        messages.error(request, f"Not started: {refused.sentence}")
        return redirect("scoring-pages:match", pk=match.pk)
    except Stream.DoesNotExist:
        raise Http404("There is no such match.") from None
    return redirect("pages:game", pk=game.pk)
