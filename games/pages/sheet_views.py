"""The scoring pages: a match's score sheet (and its sheet entry), a tournament, the scoreboards.

Views parse, call a builder or a service, render (STYLE.md "Pages"). The figures are the API's
(scoring.documents.reports.match_history, games.play.representation.match_json,
games.api.tournaments); a sheet line is recorded by ``services.event_record`` like any event, and
who may record is its check.
"""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET, require_POST

from games.pages import scoreboard, sheet_presenting, tournament_tables
from games.pages.live import following
from games.pages.players import reading as player_reading
from games.play import services
from games.play.permissions import is_recorder
from games.play.refusals import REFUSED, refusal_of
from games.play.representation import match_json
from games.rules.events import GAME_SCORED
from games.store import folding, shared_cache
from games.store.journal import VersionConflict
from games.store.models import Match, Stream, Tournament
from games.tournaments import reading
from games.tournaments.shapes import (
    round_json,
    settlement_json,
    standings_json,
    tournament_json,
)
from scoring import selectors
from scoring.documents.reports import match_history

MAX_SCORE = 10**7
BOARD_CACHE_S = 120


# --- a match's score sheet ---------------------------------------------------------------------


class LineForm(forms.Form):
    """One game's scores, one number per seat, under an event id the page made."""

    id = forms.UUIDField(widget=forms.HiddenInput)
    expected_version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)

    def __init__(self, *args: Any, names: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for seat, name in enumerate(names):
            self.fields[f"score_{seat}"] = forms.IntegerField(
                label=name,
                min_value=-MAX_SCORE,
                max_value=MAX_SCORE,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "data-seat": seat}),
            )

        self.seats = len(names)
        self.refused: dict[int, str] = {}

    def scores(self) -> list[int]:
        return [self.cleaned_data[f"score_{seat}"] for seat in range(self.seats)]

    def refuse(self, refused: dict[int, str]) -> None:
        """Mark the boxes whose values were refused (``{seat: value typed}``): each names the
        note beside it and the status's refusal (``aria-describedby``)."""
        self.refused = refused
        for seat in refused:
            attrs = self.fields[f"score_{seat}"].widget.attrs
            attrs["aria-invalid"] = "true"
            attrs["aria-describedby"] = f"score_{seat}-note line-refusal"

    def seat_fields(self) -> list[dict[str, Any]]:
        """Each seat's box, with the note on a value refused and cleared from it."""
        return [
            {"field": self[f"score_{seat}"], "note": _cleared_note(self.refused.get(seat))}
            for seat in range(self.seats)
        ]


def _cleared_note(value: str | None) -> str:
    if value is None:
        return ""
    if not value.strip():
        return "A score is needed here."
    return f"{value} was refused; the box is cleared."


@require_GET
def match_page(request: HttpRequest, pk: uuid.UUID) -> HttpResponse:
    """The score sheet of a match, its chart and, for a sheet match, the next game's line."""
    stream = _match_stream(request, pk)
    if isinstance(stream, HttpResponse):
        return stream
    # The page's poll (static/games/live.js): 304 while nothing it shows has moved.
    tag = following.stream_tag(stream, request.user)
    if following.unchanged(request, tag):
        return following.not_modified(tag)
    return following.followed(request, _match(request, stream, tag=tag), tag)


@require_POST
def match_line(request: HttpRequest, pk: uuid.UUID) -> HttpResponse:
    """Record the next game's scores (``game.scored``) through the service."""
    stream = _match_stream(request, pk)
    if isinstance(stream, HttpResponse):
        return stream
    names = [p["name"] for p in folding.load(stream).header["players"]]
    form = LineForm(request.POST, names=names)
    if not form.is_valid():
        unread = [seat for seat in range(len(names)) if f"score_{seat}" in form.errors]
        cleared = _cleared(form, names, unread, stream.version)
        return _match(request, stream, cleared, _form_sentence(form), 400)
    try:
        recorded = services.event_record(
            category=Stream.Category.MATCH,
            stream_id=stream.pk,
            event_id=form.cleaned_data["id"],
            type=GAME_SCORED,
            data={"scores": form.scores()},
            expected_version=form.cleaned_data["expected_version"],
            meta={"device": "page"},
            user=request.user,
        )
    except VersionConflict as error:
        conflict = refusal_of(error, what="line")
        assert conflict is not None
        stream.refresh_from_db()
        again = _again(form, names, error.current_version)
        return _match(request, stream, again, conflict.sentence, conflict.status)
    except REFUSED as error:
        refused = refusal_of(error, what="line")
        assert refused is not None  # every REFUSED error is a refusal
        if refused.status == 422:  # the rules refused the figures: clear the ones refused
            form = _cleared(form, names, _refused_seats(refused.facts, names), stream.version)
        return _match(request, stream, form, f"Not recorded: {refused.sentence}", refused.status)
    except ObjectDoesNotExist:
        raise Http404("There is no such match.") from None
    stream.refresh_from_db()
    number = len(recorded.folded.match_rules.games(recorded.folded.state))
    return _match(request, stream, None, None, 201 if recorded.created else 200, number)


def _again(form: LineForm, names: list[str], version: int) -> LineForm:
    """The line the keeper typed, under a new event id and expecting the sheet as it is now:
    he reads the sheet and sends it again (or changes it) rather than reloading the page."""
    typed = {f"score_{seat}": score for seat, score in enumerate(form.scores())}
    return LineForm(names=names, initial={**typed, "id": uuid.uuid4(), "expected_version": version})


def _refused_seats(facts: dict[str, Any], names: list[str]) -> list[int]:
    """The seats a rule's refusal names (its ``seat`` fact), or the whole line's."""
    seat = facts.get("seat")
    if isinstance(seat, int) and 0 <= seat < len(names):
        return [seat]
    return list(range(len(names)))


def _cleared(form: LineForm, names: list[str], seats: list[int], version: int) -> LineForm:
    """The line as typed with the refused boxes emptied: a box that kept a refused "999" made
    "99910" of the "10" typed next. The values refused are said beside their boxes."""
    typed = {seat: str(form.data.get(f"score_{seat}", "")) for seat in range(len(names))}
    kept = {f"score_{seat}": value for seat, value in typed.items() if seat not in seats}
    again = LineForm(
        names=names,
        initial={
            **kept,
            "id": form.cleaned_data.get("id") or uuid.uuid4(),
            "expected_version": form.cleaned_data.get("expected_version", version),
        },
    )
    again.refuse({seat: typed[seat] for seat in seats})
    return again


def _match(
    request: HttpRequest,
    stream: Stream,
    form: LineForm | None = None,
    refused: str | None = None,
    status: int = 200,
    recorded: int | None = None,
    tag: str | None = None,
) -> HttpResponse:
    match = Match.objects.select_related("stream").get(pk=stream.pk)
    folded = folding.load(stream)
    shown = match_json(match, folded, folding.settlement(stream.pk, folded))
    sheet = sheet_presenting.sheet(match_history(match), shown)
    can_record = sheet["takes_lines"] and is_recorder(request.user, stream.pk)
    if form is None or recorded is not None:
        form = LineForm(
            names=sheet["names"], initial={"id": uuid.uuid4(), "expected_version": folded.version}
        )
    context = {
        "match": shown,
        "status_label": sheet_presenting.label(shown["status"]),
        "sheet": sheet,
        "form": form if can_record else None,
        "refused": refused,
        "recorded": _recorded(sheet, recorded),
        "tournament": _tournament_of(match),
        "table": tournament_tables.table_panel(request.user, match, shown),
        "follow_tag": tag or following.stream_tag(stream, request.user),
    }
    return render(request, "scoring/pages/match.html", context, status=status)


def _recorded(sheet: dict[str, Any], number: int | None) -> dict[str, Any] | None:
    """What the status says after a line is recorded: the game and any lenient warning."""
    if number is None:
        return None
    row = next((r for r in sheet["rows"] if r["number"] == number), None)
    return {"number": number, "warnings": row["warnings"] if row else []}


def _tournament_of(match: Match) -> dict[str, Any] | None:
    if match.tournament_id is None:
        return None
    return {"id": match.tournament_id, "round": match.round_number, "table": match.table_number}


def _match_stream(request: HttpRequest, pk: uuid.UUID) -> Stream | HttpResponse:
    """The match's stream if the reader may read it (as the API: ``selectors.stream_readable``),
    else the answer: 401 with a way to log in for a visitor, 403 for anyone else."""
    # The snapshot is read only when the sheet is drawn: a poll answered 304 never needs it.
    polled = Stream.objects.defer("snapshot")
    stream = get_object_or_404(polled, pk=pk, category=Stream.Category.MATCH)
    if selectors.stream_readable(request.user, stream):
        return stream
    if request.user.is_authenticated:
        return render(request, "games/pages/not_yours.html", status=403)
    return render(request, "games/pages/login_needed.html", status=401)


def _form_sentence(form: LineForm) -> str:
    for field, errors in form.errors.items():
        name = form.fields[field].label if field in form.fields else field
        return f"Not recorded: the line could not be read ({name}: {errors[0]})"
    return "Not recorded: the line could not be read."


# --- a tournament ------------------------------------------------------------------------------


@require_GET
def tournament_page(request: HttpRequest, pk: uuid.UUID) -> HttpResponse:
    """Rounds with their tables, who still plays, standings explained, who owes whom."""
    board_tag = _tag_or_404(request, pk)  # the tournament's readers, as _tournament's
    tag = following.tournament_tag(board_tag, request.user)
    if following.unchanged(request, tag):
        return following.not_modified(tag)
    tournament = _tournament(request, pk)
    folded = folding.load(tournament.stream)
    state = folded.state
    shown = tournament_json(folded, pk)
    standings = standings_json(state)
    rounds = [
        sheet_presenting.tournament_round(round_json(state, number), standings)
        for number in range(len(state.rounds), 0, -1)
    ]
    context = {
        "tournament": {
            **shown,
            "format_label": sheet_presenting.label(shown["format"]),
            "system_label": sheet_presenting.label(shown["system"]),
            "status_label": sheet_presenting.label(shown["status"]),
        },
        "rounds": rounds,
        "standings": sheet_presenting.standings_table(standings, shown["tiebreaks"]),
        "linked": player_reading.listed_ids(request.user, [r["player"] for r in standings["rows"]]),
        "settlement": settlement_json(state),
        "season": _season_of(request, tournament),
        "follow_tag": tag,
    }
    return following.followed(
        request, render(request, "scoring/pages/tournament.html", context), tag
    )


def _season_of(request: HttpRequest, tournament: Tournament) -> dict[str, Any] | None:
    """The season the evening counts in, when the reader may read it (its page opens)."""
    season = tournament.season
    if season is None or reading.season_hidden(request.user, season):
        return None
    return {"id": season.pk, "name": season.name}


def _tournament(request: HttpRequest, pk: uuid.UUID) -> Tournament:
    """As the API: a published tournament for anyone, the others for their creator, keepers,
    linked entrants and the directors; one the reader may not read is not there (404)."""
    tournament = get_object_or_404(Tournament.objects.select_related("stream", "season"), pk=pk)
    if selectors.tournament_hidden(request.user, pk, tournament.published):
        raise Http404("There is no such tournament.")
    return tournament


# --- the room's scoreboards --------------------------------------------------------------------


@require_GET
def scoreboard_page(request: HttpRequest, pk: uuid.UUID) -> HttpResponse:
    """The room's board; ``?turn=S`` turns its pages every S seconds (1 to 120, else 12)."""
    tag = _tag_or_404(request, pk)
    context = {
        **scoreboard.board(pk),
        "tag": tag,
        "board_url": request.path + "board/",
        "turn": _turn_seconds(request.GET.get("turn", "")),
    }
    return render(request, "scoring/pages/scoreboard.html", context)


def _turn_seconds(text: str) -> int:
    if text.isascii() and text.isdigit() and 1 <= int(text) <= 120:
        return int(text)
    return scoreboard.TURN_SECONDS


@require_GET
def scoreboard_board(request: HttpRequest, pk: uuid.UUID) -> HttpResponse:
    """The board fragment; 304 while nothing was recorded since the screen's tag."""
    tag = _tag_or_404(request, pk)
    if _unchanged(request, tag):
        return _not_modified(tag)
    html = _rendered(f"board:{pk}:{tag}", "scoring/pages/_board.html", lambda: scoreboard.board(pk))
    return _fragment(html, tag)


@require_GET
def table_page(request: HttpRequest, pk: uuid.UUID, number: int) -> HttpResponse:
    tag = _tag_or_404(request, pk)
    context = {**_table_or_404(pk, number), "tag": tag, "board_url": request.path + "board/"}
    return render(request, "scoring/pages/scoreboard_table.html", context)


@require_GET
def table_board(request: HttpRequest, pk: uuid.UUID, number: int) -> HttpResponse:
    tag = _tag_or_404(request, pk)
    if _unchanged(request, tag):
        return _not_modified(tag)
    html = _rendered(
        f"board:{pk}:{number}:{tag}",
        "scoring/pages/_table_board.html",
        lambda: _table_or_404(pk, number),
    )
    return _fragment(html, tag)


def _tag_or_404(request: HttpRequest, pk: uuid.UUID) -> str:
    tag = scoreboard.change_tag(pk, request.user)
    if tag is None:
        raise Http404("There is no such tournament.")
    return tag


def _table_or_404(pk: uuid.UUID, number: int) -> dict[str, Any]:
    found = scoreboard.table_board(pk, number)
    if found is None:
        raise Http404("The current round has no such table.")
    return found


def _unchanged(request: HttpRequest, tag: str) -> bool:
    sent = request.headers.get("If-None-Match", "")
    return tag in [part.strip() for part in sent.split(",")]


def _not_modified(tag: str) -> HttpResponse:
    answer = HttpResponse(status=304)
    answer["ETag"] = tag
    answer["Cache-Control"] = "no-cache"
    return answer


def _rendered(key: str, template: str, context: Any) -> str:
    """The fragment for this tag, drawn once and shared by every screen that asks for it.

    A tag names the versions of every stream the board shows, so the same tag always draws the
    same board: a cached copy can be stale for no one, in this process or another.
    """
    html = shared_cache.kept(key)  # a cache that cannot answer only costs a render
    if html is None:
        html = render_to_string(template, context())
        shared_cache.keep(key, html, BOARD_CACHE_S)
    return str(html)


def _fragment(html: str, tag: str) -> HttpResponse:
    answer = HttpResponse(html)
    answer["ETag"] = tag
    answer["Cache-Control"] = "no-cache"
    return answer
