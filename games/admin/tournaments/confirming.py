"""A table's result confirmed by the director in the admin: the tournament's page marks each
table whose result awaits its players' agreement and confirms it in one form, with a reason.

The confirmation is the API's director confirmation, ``result.confirmed {"director": true}`` on
the table's match, recorded by the same service call: the service checks that the user is a
director, and the tournament counts it (``table.confirmed``) in the same transaction.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from games.admin.base import ADMIN_META, events_link, form_page, refusals
from games.play import services
from games.rules.errors import IllegalEvent
from games.rules.events import RESULT_CONFIRMED
from games.store.models import Stream, Tournament, TournamentTable
from games.tournaments.core import state as ts
from scoring.documents import tournament_pages

if TYPE_CHECKING:
    from collections.abc import Callable


class ConfirmTableForm(forms.Form):
    reason = forms.CharField(
        max_length=500,
        widget=forms.TextInput(attrs={"size": 40}),
        help_text="Why you confirm it for the players: recorded with the confirmation.",
    )


# --- what the tournament's page shows -----------------------------------------------------------


def awaiting(state: ts.TournamentState) -> list[tuple[int, ts.Table]]:
    """(round, table) of every table whose result awaits confirmation, in open rounds only (a
    closed round's results are final)."""
    return [
        (played.number, table)
        for played in state.rounds
        if not played.closed
        for table in played.tables
        if table.unconfirmed
    ]


def confirm_url(tournament_id: Any, round_number: int, table: int) -> str:
    return reverse("admin:games_tournament_confirm", args=[tournament_id, round_number, table])


def still_to_agree(table: ts.Table, labels: dict[int, str]) -> list[str]:
    """The labels of the seats that have not agreed yet, in seat order."""
    return [
        labels.get(player, str(player))
        for seat, player in enumerate(table.players)
        if seat not in table.confirmed_seats
    ]


def panel(tournament: Tournament) -> dict[str, Any]:
    """The tournament page's "awaiting confirmation" panel: one form a table."""
    state = tournament_pages.tournament_state(tournament)
    labels = state.labels()
    rows = [
        {
            "round": number,
            "table": table.number,
            "waiting_for": ", ".join(still_to_agree(table, labels)),
            "url": confirm_url(tournament.pk, number, table.number),
            "form": ConfirmTableForm(auto_id=f"id_r{number}t{table.number}_%s"),
            "event_id": uuid.uuid4(),
        }
        for number, table in awaiting(state)
    ]
    return {"awaiting": rows}


def _awaiting_of(inline: admin.TabularInline, tournament_id: Any) -> set[tuple[int, int]]:
    """The (round, table) pairs awaiting confirmation, folded once per page of the inline."""
    found = getattr(inline, "_awaiting", None)
    if found is None or found[0] != tournament_id:
        state = tournament_pages.tournament_state(Tournament.objects.get(pk=tournament_id))
        found = (tournament_id, {(n, t.number) for n, t in awaiting(state)})
        inline._awaiting = found  # type: ignore[attr-defined]
    pairs: set[tuple[int, int]] = found[1]
    return pairs


def result_cell(inline: admin.TabularInline, table: TournamentTable) -> str:
    """The result as recorded, marked (and linked to its confirmation) while it awaits one."""
    if not table.result:
        return "still playing"
    key = (table.round_number, table.number)
    if key not in _awaiting_of(inline, table.tournament_id):
        return table.result
    return format_html(
        '{} <strong class="unconfirmed">awaiting confirmation</strong> · <a href="{}">confirm</a>',
        table.result,
        confirm_url(table.tournament_id, *key),
    )


def match_cell(table: TournamentTable) -> str:
    """The table's page first (where it is played and agreed), then its record and events."""
    if table.match_id is None:
        return "-"
    page = reverse("scoring-pages:match", args=[table.match_id])
    record = reverse("admin:games_match_change", args=[table.match_id])
    return format_html(
        '<a href="{}">table\'s page</a> · <a href="{}">record</a> · {}',
        page,
        record,
        events_link(table.match_id),
    )


def table_links(tournament: Tournament, waiting: Iterable[int]) -> SafeString:
    """The current round's waiting tables, "1, 4", each linked to its confirmation."""
    number = tournament.current_round or 0
    return format_html_join(
        ", ", '<a href="{}">{}</a>', ((confirm_url(tournament.pk, number, t), t) for t in waiting)
    )


# --- the confirmation ----------------------------------------------------------------------------


def urls(model_admin: Any) -> list[URLPattern]:
    def view(request: HttpRequest, object_id: uuid.UUID, round: int, table: int) -> HttpResponse:
        return confirm_view(model_admin, request, object_id, round, table)

    wrapped: Callable[..., HttpResponse] = model_admin.admin_site.admin_view(view)
    return [
        path(
            "<uuid:object_id>/rounds/<int:round>/tables/<int:table>/confirm/",
            wrapped,
            name="games_tournament_confirm",
        )
    ]


def confirm_view(
    model_admin: Any, request: HttpRequest, object_id: uuid.UUID, round: int, table: int
) -> HttpResponse:
    """Confirm one table's result as director: the form (GET), the confirmation (POST)."""
    tournament = model_admin._tournament(request, object_id)
    seated = TournamentTable.objects.filter(
        tournament=tournament, round_number=round, number=table
    ).first()
    if seated is None:
        raise Http404("There is no such table.")
    back = HttpResponseRedirect(reverse("admin:games_tournament_change", args=[tournament.pk]))
    form = ConfirmTableForm(request.POST if request.method == "POST" else None)
    event_id = _event_id(request)
    if form.is_bound and form.is_valid():
        _confirm(request, tournament, seated, event_id, form.cleaned_data["reason"])
        return back
    return form_page(
        model_admin,
        request,
        form,
        title=f"Confirm the result of table {table}, round {round}",
        submit="Confirm the result",
        original=tournament,
        intro=_intro(tournament, round, table, seated),
        hidden=[("event_id", event_id)],
    )


def _event_id(request: HttpRequest) -> uuid.UUID:
    """The confirmation's event id, made when its form was drawn: the form sent twice records
    one confirmation. A form without one (or a broken one) gets a new id."""
    try:
        return uuid.UUID(request.POST.get("event_id", ""))
    except ValueError:
        return uuid.uuid4()


def _confirm(
    request: HttpRequest,
    tournament: Tournament,
    table: TournamentTable,
    event_id: uuid.UUID,
    reason: str,
) -> None:
    prefix = f"{tournament}, table {table.number}: "
    if table.match_id is None:
        messages.error(request, f"{prefix}this table has no match to confirm.")
        return
    with refusals(request, prefix=prefix):
        services.event_record(
            category=Stream.Category.MATCH,
            stream_id=table.match_id,
            event_id=event_id,
            type=RESULT_CONFIRMED,
            data={"director": True, "reason": reason},
            meta=ADMIN_META,
            expected_version=None,
            user=request.user,
        )
        messages.success(request, f"{prefix}confirmed by the director: the result stands.")


def _intro(tournament: Tournament, round: int, number: int, table: TournamentTable) -> str:
    state = tournament_pages.tournament_state(tournament)
    try:
        folded = state.round(round).table(number)
    except IllegalEvent:  # a table the tournament's record does not know
        return "This table is not in the tournament's record."
    result = table.result or "still playing"
    if not folded.unconfirmed:
        return f"Result: {result}. Nothing awaits confirmation at this table."
    waiting = ", ".join(still_to_agree(folded, state.labels()))
    return (
        f"Result: {result}. Not agreed yet by {waiting}. Confirming it as director settles it "
        "for the table: the next round can be paired over it."
    )
