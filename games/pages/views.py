"""The live-table pages: a view parses, calls a service, renders (STYLE.md "Pages").

A move comes from the page's script (static/games/table.js) with an event id made in the page
and the version the keeper saw; the answer is the table partial again, with the service's
sentence in the status region when the move is refused. Who may record is the services' check
(games.play.permissions), as for the API; nothing here decides a rule.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ObjectDoesNotExist
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from games.pages import queries
from games.pages.forms import GameStartForm, MoveForm, kinds_left_out
from games.pages.live import following
from games.pages.tables import presenting
from games.play import analysis, representation, services
from games.play.permissions import NotPermitted, is_recorder
from games.play.refusals import REFUSED, refusal_of
from games.play.representation import game_json, game_status
from games.rules.base import Analysable
from games.rules.errors import RuleError
from games.rules.events import UNDO
from games.store import folding
from games.store.journal import StoredEvent
from games.store.models import Stream
from scoring import selectors

TABLE = "games/pages/_table.html"
ADVICE = "games/pages/_advice.html"


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """A keeper's games in progress and a form to start one; everyone's recent results. A
    table code's phone, which records at its table alone, goes back to its table."""
    table = queries.code_table(request.user)
    if table is not None:
        return redirect("scoring-pages:match", pk=table)
    return _home(request, GameStartForm())


def _home(request: HttpRequest, form: GameStartForm, status: int = 200) -> HttpResponse:
    keeper = request.user.is_authenticated
    context = {
        "form": form,
        "left_out": kinds_left_out(),
        "mine": queries.games_in_progress(request.user) if keeper else [],
        "tables": queries.tables_today(request.user) if keeper else [],
        "today": queries.tournaments_today(request.user) if keeper else [],
        "boards": [] if keeper else queries.open_scoreboards(),
        "recent": queries.recent_results(),
        "seasons": queries.current_seasons(request.user),
    }
    return render(request, "games/pages/home.html", context, status=status)


@require_POST
@login_required
def game_new(request: HttpRequest) -> HttpResponse:
    """Start a game of any kind from the home page's form."""
    form = GameStartForm(request.POST)
    if not form.is_valid():
        return _home(request, form, status=400)
    try:
        game = services.game_start(
            kind=form.cleaned_data["kind"], seats=form.cleaned_data["seats"], user=request.user
        )
    except (RuleError, NotPermitted) as error:
        refused = refusal_of(error)
        assert refused is not None
        form.add_error(_refused_field(error), refused.sentence)
        return _home(request, form, status=422)
    return redirect("pages:game", pk=game.pk)


def _refused_field(error: RuleError | NotPermitted) -> str | None:
    """The control a start's refusal is shown beside: the players for a seat count, the game
    for any other rule, the form as a whole for a permission."""
    if isinstance(error, NotPermitted):
        return None
    return "seats" if error.code.endswith("bad_seats") else "kind"


@require_GET
def game_page(request: HttpRequest, pk: uuid.UUID) -> HttpResponse:
    """The whole page of one game."""
    stream = get_object_or_404(Stream, pk=pk, category=Stream.Category.GAME)
    if not _may_read(request, stream):
        return _not_readable(request, "games/pages/login_needed.html")
    context = _table_context(request, stream, folding.load(stream))
    return render(request, "games/pages/game.html", context)


@require_GET
def game_table(request: HttpRequest, pk: uuid.UUID) -> HttpResponse:
    """The table partial, the page's poll: 304 while its tag (``If-None-Match``) still holds,
    so an idle table costs a permission check and one query, and folds nothing."""
    # The snapshot is read only when the table is drawn: a poll answered 304 never needs it.
    polled = Stream.objects.defer("snapshot")
    stream = get_object_or_404(polled, pk=pk, category=Stream.Category.GAME)
    if not _may_read(request, stream):
        return _not_readable(request, "games/pages/_login_needed.html")
    tag = following.stream_tag(stream, request.user)
    if following.unchanged(request, tag):
        return following.not_modified(tag)
    # A take-back made on another device is said here as on the device that made it.
    undone = representation.undone_move(stream.pk)
    return _table(request, stream, folding.load(stream), tag=tag, taken_back=undone)


@require_POST
def game_move(request: HttpRequest, pk: uuid.UUID) -> HttpResponse:
    """Record one move through the service; answer the table as it now stands."""
    stream = get_object_or_404(Stream, pk=pk, category=Stream.Category.GAME)
    if not _may_read(request, stream):
        return _not_readable(request, "games/pages/_login_needed.html")
    form = MoveForm(request.POST)
    if not form.is_valid():
        return _refused(request, stream, _first_error(form), 400)
    move = form.cleaned_data
    try:
        recorded = services.event_record(
            category=Stream.Category.GAME,
            stream_id=stream.pk,
            event_id=move["id"],
            type=move["type"],
            data=move["payload"],
            expected_version=move["expected_version"],
            meta={"device": "page"},
            user=request.user,
        )
    except REFUSED as error:
        refused = refusal_of(error, what="move")
        assert refused is not None  # every REFUSED error is a refusal
        return _refused(request, stream, refused.sentence, refused.status)
    except ObjectDoesNotExist:
        return HttpResponse("There is no such game.", status=404, content_type="text/plain")
    # A resent move (created False) answers with the game as it stands now, not as it was then.
    stream.refresh_from_db()
    status = 201 if recorded.created else 200
    undo = move["type"] == UNDO and recorded.created
    return _table(request, stream, folding.load(stream), status=status, undo=undo)


def _refused(request: HttpRequest, stream: Stream, sentence: str, status: int) -> HttpResponse:
    stream.refresh_from_db()
    return _table(request, stream, folding.load(stream), status=status, refusal=sentence)


def _table(
    request: HttpRequest,
    stream: Stream,
    folded: folding.Folded,
    status: int = 200,
    refusal: str | None = None,
    undo: bool = False,
    tag: str | None = None,
    taken_back: StoredEvent | None = None,
) -> HttpResponse:
    context = _table_context(request, stream, folded, refusal, tag)
    if undo:  # the answer to a take-back confirms it in words
        taken_back = representation.undone_move(stream.pk)
        move = (taken_back.type, taken_back.data) if taken_back else None
        context["undone"] = presenting.undone_sentence(context["game"], move)
    elif taken_back is not None:  # the last event took this move back
        move = (taken_back.type, taken_back.data)
        context["undone"] = presenting.undone_sentence(context["game"], move)
    response = render(request, TABLE, context, status=status)
    # The page's script swaps in only answers that carry this header (not a proxy's error page).
    response["X-Table-Version"] = str(folded.version)
    following.tagged(response, context["follow_tag"])
    return response


def _table_context(
    request: HttpRequest,
    stream: Stream,
    folded: folding.Folded,
    refusal: str | None = None,
    tag: str | None = None,
) -> dict[str, Any]:
    game = game_json(folded, stream_id=stream.pk, status=game_status(stream, folded))
    return {
        # The page's poll sends it back (static/games/live.js): 304 until the stream moves.
        "follow_tag": tag or following.stream_tag(stream, request.user),
        **presenting.page(game),
        "refusal": refusal,
        # Only a hint for what to draw: the service makes the real check on every move.
        "can_record": stream.status == Stream.Status.IN_PROGRESS
        and is_recorder(request.user, stream.pk),
        "advice_offered": advice_offered(folded),
    }


def advice_offered(folded: folding.Folded) -> bool:
    """The solver's advice is offered for study positions only, so it spoils no live game."""
    setup = folded.header.get("setup") or {}
    study = isinstance(setup, dict) and bool(setup.get("position"))
    return study and isinstance(folded.game_rules, Analysable)


@require_GET
def game_advice(request: HttpRequest, pk: uuid.UUID) -> HttpResponse:
    """The solver's best line from the position on the table (the analysis endpoint's answer),
    rendered on request into the page; a position it cannot solve gets its sentence."""
    stream = get_object_or_404(Stream, pk=pk, category=Stream.Category.GAME)
    if not _may_read(request, stream):
        return _not_readable(request, "games/pages/_login_needed.html")
    folded = folding.load(stream)
    if not advice_offered(folded):
        # Answered 200 with a sentence: htmx swaps only successful answers into the page.
        return render(request, ADVICE, {"refusal": "Advice is given for study positions only."})
    try:
        found = analysis.analyse(stream)
    except RuleError as error:
        return render(request, ADVICE, {"refusal": error.sentence()})
    names = {seat["seat"]: seat["name"] for seat in folded.header["seats"]}
    return render(request, ADVICE, presenting.advice(found, names))


def _may_read(request: HttpRequest, stream: Stream) -> bool:
    """As the API (``selectors.stream_readable``): a finished public game for anyone; one in
    progress or private for its recorders, its seated players and the directors."""
    return selectors.stream_readable(request.user, stream)


def _not_readable(request: HttpRequest, login_template: str) -> HttpResponse:
    """401 with a way to log in for a visitor; 403 saying whose it is for anyone else."""
    if request.user.is_authenticated:
        return render(request, login_template.replace("login_needed", "not_yours"), status=403)
    return render(request, login_template, status=401)


def _first_error(form: MoveForm) -> str:
    for field, errors in form.errors.items():
        return f"The move could not be read ({field}: {errors[0]})."
    return "The move could not be read."
