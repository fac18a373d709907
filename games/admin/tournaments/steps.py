"""The director's pages of one tournament in the admin: pairing, closing a round, keepers,
corrections, publication, settling, and the printed table cards and standings. Each step is a
service call of the tournaments context; a refusal is a message, never an error page."""

from __future__ import annotations

import uuid

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html

from games.admin import director_tools
from games.admin.base import ADMIN_META, ReadOnlyAdmin, form_page, refusals
from games.admin.tournaments import confirming
from games.admin.tournaments.forms import KeeperForm, PairAnywayForm, PublicationForm
from games.play import permissions, services
from games.store.models import Match, Stream, Tournament, TournamentTable
from games.tournaments import keepers, results, rounds
from games.tournaments.core import events
from scoring.documents import tournament_pages


class TournamentPages(ReadOnlyAdmin):
    """What every page of one tournament shares: the tournament asked for, and the way back."""

    def _tournament(self, request: HttpRequest, object_id: uuid.UUID) -> Tournament:
        tournament: Tournament | None = self.get_object(request, str(object_id))
        if tournament is None:
            raise Http404("There is no such tournament.")
        if not self.has_view_permission(request, tournament):
            raise PermissionDenied
        return tournament

    def _change_url(self, tournament: Tournament) -> str:
        return reverse("admin:games_tournament_change", args=[tournament.pk])

    def _back(self, tournament: Tournament) -> HttpResponseRedirect:
        return HttpResponseRedirect(self._change_url(tournament))


class DirectorSteps(TournamentPages):
    """The evening's steps after entering: pair, close, keepers, corrections, publication,
    settle, and the pages printed from the tournament."""

    def pair_view(self, request: HttpRequest, object_id: uuid.UUID) -> HttpResponse:
        tournament = self._tournament(request, object_id)
        if request.method != "POST":
            return self._back(tournament)
        waiting = _unconfirmed(tournament)
        if not waiting:
            self._pair(request, tournament)
            return self._back(tournament)
        # A result the players have not confirmed: say which, and pair only with a reason.
        form = PairAnywayForm(request.POST if "reason" in request.POST else None)
        if form.is_bound and form.is_valid():
            self._pair(request, tournament, reason=form.cleaned_data["reason"])
            return self._back(tournament)
        title = f"Pair the next round of {tournament} over unconfirmed results?"
        return self._over_unconfirmed(request, tournament, form, waiting, title, "Pair anyway")

    def _over_unconfirmed(
        self,
        request: HttpRequest,
        tournament: Tournament,
        form: forms.Form,
        waiting: tuple[int, ...],
        title: str,
        submit: str,
    ) -> TemplateResponse:
        return form_page(
            self,
            request,
            form,
            title=title,
            submit=submit,
            original=tournament,
            intro=format_html(
                "The result at table(s) {} is not confirmed by its players yet. Have them "
                "confirm it on the table's page (or confirm it yourself as director: follow the "
                "table's number), or go on and say why: the reason is recorded with the round's "
                "closing.",
                confirming.table_links(tournament, waiting),
            ),
        )

    def _pair(self, request: HttpRequest, tournament: Tournament, reason: str = "") -> None:
        with refusals(request, prefix=f"{tournament}: "):
            number = rounds.round_pair(
                tournament_id=tournament.pk,
                user=request.user,
                override=bool(reason),
                reason=reason or None,
                meta=ADMIN_META,
            )
            tables = TournamentTable.objects.filter(tournament=tournament, round_number=number)
            messages.success(
                request, f"{tournament}: round {number} is paired at {tables.count()} table(s)."
            )

    def close_round_view(self, request: HttpRequest, object_id: uuid.UUID) -> HttpResponse:
        tournament = self._tournament(request, object_id)
        if request.method != "POST":
            return self._back(tournament)
        waiting = _unconfirmed(tournament)
        form = PairAnywayForm(request.POST if "reason" in request.POST else None)
        if not waiting or (form.is_bound and form.is_valid()):
            reason = form.cleaned_data["reason"] if waiting else ""
            self._close_round(request, tournament, reason)
            return self._back(tournament)
        title = f"Close round {tournament.current_round} of {tournament} over unconfirmed results?"
        return self._over_unconfirmed(request, tournament, form, waiting, title, "Close anyway")

    def _close_round(self, request: HttpRequest, tournament: Tournament, reason: str = "") -> None:
        number = tournament.current_round
        if not number:
            messages.error(request, f"{tournament}: no round is paired yet.")
            return
        with refusals(request, prefix=f"{tournament}: "):
            results.correction_record(
                tournament_id=tournament.pk,
                event_id=uuid.uuid4(),
                type=events.ROUND_CLOSED,
                data={"round": number, **({"reason": reason} if reason else {})},
                user=request.user,
                meta=ADMIN_META,
            )
            messages.success(request, f"{tournament}: round {number} is closed.")

    def keepers_view(self, request: HttpRequest, object_id: uuid.UUID) -> HttpResponse:
        tournament = self._tournament(request, object_id)
        form = KeeperForm(request.POST or None, initial={"round": tournament.current_round or 1})
        if request.method == "POST" and form.is_valid():
            values = form.cleaned_data
            with refusals(request):
                keepers.keeper_assign(
                    tournament_id=tournament.pk,
                    round=values["round"],
                    table=values["table"],
                    username=values["username"],
                    user=request.user,
                    meta=ADMIN_META,
                )
                messages.success(
                    request,
                    f"{values['username']} keeps score at table {values['table']} "
                    f"of round {values['round']}.",
                )
                return self._back(tournament)
        return form_page(
            self,
            request,
            form,
            title=f"Assign a keeper in {tournament}",
            submit="Assign",
            original=tournament,
            intro="The keeper may record in that table's match and its games, nowhere else.",
        )

    def corrections_view(self, request: HttpRequest, object_id: uuid.UUID) -> HttpResponse:
        """Every correction's form on one page; a POST names its ``tool`` and fills that one."""
        tournament = self._tournament(request, object_id)
        state = tournament_pages.tournament_state(tournament)
        tool = request.POST.get("tool", "") if request.method == "POST" else ""
        bound = (tool, request.POST) if tool in director_tools.TOOLS else None
        tools = director_tools.forms_for(state, bound)
        for form in tools:
            if form.slug == tool and form.is_valid():
                with refusals(request, prefix=f"{form.title}: "):
                    done = form.record(tournament, request.user)
                    messages.success(request, f"{tournament}: {done}")
                    page = reverse("admin:games_tournament_corrections", args=[tournament.pk])
                    return HttpResponseRedirect(page)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": tournament,
            "title": f"Corrections in {tournament}",
            "tools": tools,
            **tournament_pages.corrections_summary(state),
        }
        return TemplateResponse(request, "admin/games/tournament/corrections.html", context)

    def publication_view(self, request: HttpRequest, object_id: uuid.UUID) -> HttpResponse:
        """The "published" switch: ``tournament.published`` or ``tournament.unpublished``
        (with its reason), recorded by the service as ``POST .../events/`` records it."""
        tournament = self._tournament(request, object_id)
        publish = not tournament.published
        if request.method == "POST":
            publish = request.POST.get("publish") in ("True", "true", "on", "1")
        form = PublicationForm(request.POST or None, publish=publish)
        if request.method == "POST" and form.is_valid():
            type, data = form.event()
            with refusals(request, prefix=f"{tournament}: "):
                results.correction_record(
                    tournament_id=tournament.pk,
                    event_id=form.cleaned_data["event_id"],
                    type=type,
                    data=data,
                    user=request.user,
                    meta=ADMIN_META,
                )
                shown = "public" if publish else "private: its own people read it"
                messages.success(request, f"{tournament} is {shown}.")
                return self._back(tournament)
        if publish:
            title, submit = f"Publish {tournament}", "Publish"
            intro = "Anyone will read the tournament and its matches, games and players' play."
        else:
            title, submit = f"Take {tournament} from the public", "Unpublish"
            intro = (
                "Only its creator, its keepers, its entrants linked to their accounts and the "
                "directors will read the tournament and the play at its tables."
            )
        return form_page(
            self, request, form, title=title, submit=submit, original=tournament, intro=intro
        )

    def settle_view(self, request: HttpRequest, object_id: uuid.UUID) -> HttpResponse:
        tournament = self._tournament(request, object_id)
        if request.method == "POST":
            self._settle(request, tournament)
        return self._back(tournament)

    def _settle(self, request: HttpRequest, tournament: Tournament) -> None:
        """Close every finished match of the tournament whose close task has not run yet
        (a broker outage, a lost task): the same idempotent close the task would record."""
        with refusals(request, prefix=f"{tournament}: ") as check:
            # match_close is the service's own act (no user): the director check is made here.
            permissions.check_director(request.user)
        if check.refused:
            return
        finished = Match.objects.filter(
            tournament=tournament, stream__status=Stream.Status.FINISHED
        ).values_list("pk", flat=True)
        closed = 0
        for match_id in finished:
            # One transaction a match: a refusal of one leaves the others closed.
            with refusals(request, prefix=f"{tournament}, match {match_id}: "):
                if services.match_close(match_id=match_id):
                    closed += 1
        messages.success(request, f"{tournament}: {closed} finished match(es) settled now.")

    def cards_view(self, request: HttpRequest, object_id: uuid.UUID) -> HttpResponse:
        tournament = self._tournament(request, object_id)
        state = tournament_pages.tournament_state(tournament)
        number = _round_param(request, len(state.rounds))
        if number is None:
            messages.error(request, f"{tournament}: no round is paired yet.")
            return self._back(tournament)
        links = {
            table: request.build_absolute_uri(keepers.keeper_url(code.replace("-", "")))
            for table, code in keepers.live_codes(tournament.pk, number).items()
        }
        page = tournament_pages.table_cards(state, number, links)
        context = {"tournament": tournament, "back": self._change_url(tournament), **page}
        return TemplateResponse(request, "admin/games/tournament/table_cards.html", context)

    def standings_view(self, request: HttpRequest, object_id: uuid.UUID) -> HttpResponse:
        tournament = self._tournament(request, object_id)
        state = tournament_pages.tournament_state(tournament)
        upto = _round_param(request, state.last_complete)
        page = tournament_pages.standings_page(state, upto)
        context = {"tournament": tournament, "back": self._change_url(tournament), **page}
        return TemplateResponse(request, "admin/games/tournament/standings.html", context)


def _unconfirmed(tournament: Tournament) -> tuple[int, ...]:
    """The current round's tables whose result awaits confirmation (none once it is closed)."""
    current = tournament_pages.tournament_state(tournament).current
    if current is None or current.missing:
        return ()  # nothing to pair over yet: the service says why
    return current.unconfirmed


def _round_param(request: HttpRequest, last: int) -> int | None:
    """``?round=N`` when it names a paired round, else the latest (None before round 1)."""
    text = request.GET.get("round", "")
    if text.isascii() and text.isdigit() and 1 <= int(text) <= last:
        return int(text)
    return last or None
