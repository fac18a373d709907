"""A tournament in the admin: where a director runs the evening (create, enter players, pair,
assign keepers, close the round, settle, print), each step a service call.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html

from games.admin import director_tools, documents, entering
from games.admin.base import (
    ADMIN_META,
    ReadOnlyAdmin,
    ReadOnlyInline,
    events_link,
    form_page,
    refusals,
)
from games.play import permissions, services
from games.rules import registry
from games.store.models import (
    Match,
    Player,
    Stream,
    Tournament,
    TournamentEntry,
    TournamentTable,
)
from games.tournaments import creating, entries, keepers, results, rounds
from games.tournaments.core import state as ts
from games.tournaments.core import tiebreaks
from scoring.documents import labels, tournament_pages

# --- tournaments ------------------------------------------------------------------------------


class TournamentForm(forms.Form):
    """The body of ``POST /tournaments/`` (API.md) as a form; the service checks it."""

    name = forms.CharField(max_length=200, widget=forms.TextInput(attrs={"size": 50}))
    format = forms.ChoiceField(label="Game")
    system = forms.ChoiceField(
        label="Pairing",
        choices=[
            ("swiss", "Swiss (Dutch system)"),
            ("round_robin", "round robin"),
            ("tables", "tables of several players"),
        ],
    )
    rounds = forms.IntegerField(
        min_value=1, max_value=30, required=False, help_text="Leave blank for a round robin."
    )
    table_size = forms.IntegerField(
        min_value=1,
        required=False,
        help_text="Players at a table; blank: 2 (1 for Solitaire).",
    )
    entry = forms.ChoiceField(
        label="Scores kept",
        choices=[("sheet", "sheet: results from the score sheet"), ("live", "live: every move")],
    )
    tiebreaks = forms.CharField(
        label="Tie-breaks",
        required=False,
        initial=", ".join(tiebreaks.labels(tiebreaks.DEFAULT)),
        widget=forms.TextInput(attrs={"size": 60}),
        help_text="In order, separated by commas, from: "
        f"{', '.join(tiebreaks.labels(tiebreaks.TIEBREAKS))}.",
    )
    seeding = forms.ChoiceField(
        choices=[
            ("entry", "entry order"),
            ("random", "at random (the seed is recorded)"),
            ("rating", "by rating (the order is recorded)"),
        ],
        help_text="How the first round of a 'tables' tournament is seated.",
    )
    double = forms.BooleanField(required=False, help_text="Round robin: each pair meets twice.")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The registry loads the rule families lazily: read the formats when the form is made.
        names = sorted(registry.formats(), key=labels.format_name)
        choices = [(f, labels.format_name(f)) for f in names]
        self.fields["format"].choices = choices  # type: ignore[attr-defined]
        if "high-low-scarney" in names:
            self.fields["format"].initial = "high-low-scarney"

    def spec(self) -> dict[str, Any]:
        """The service's spec: blank fields are left out, so the service's defaults apply."""
        values = self.cleaned_data
        spec = {
            key: values[key]
            for key in ("name", "format", "system", "entry", "seeding")
            if values[key] not in (None, "")
        }
        for key in ("rounds", "table_size"):
            if values[key] is not None:
                spec[key] = values[key]
        if values["tiebreaks"].strip():
            spec["tiebreaks"] = [
                _tiebreak_key(t) for t in values["tiebreaks"].split(",") if t.strip()
            ]
        if values["double"]:
            spec["double"] = True
        return spec


def _tiebreak_key(written: str) -> str:
    """A tie-break as written, "Sonneborn-Berger" or "sonneborn_berger", as its key: the director
    writes the names he reads, the service keeps the keys (and refuses a name it does not know)."""
    return "_".join(written.strip().casefold().replace("-", " ").split())


class EnterPlayersForm(forms.Form):
    players = forms.ModelMultipleChoiceField(
        queryset=Player.objects.none(),
        required=False,
        widget=forms.SelectMultiple(attrs={"size": 15}),
        help_text="From the register (hold Ctrl or Cmd to choose several).",
    )
    names = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "cols": 40}),
        help_text="Or names, one a line: a new name is registered; a name that could be more "
        "than one person (two players share it, or one of that name is entered) is asked about "
        "on the next page.",
    )
    reason = forms.CharField(
        max_length=500,
        required=False,
        widget=forms.TextInput(attrs={"size": 60}),
        help_text="Once round 1 is paired a late entry says why (recorded with each entry).",
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The register's players not merged away and not entered yet.
        entered = tournament.entries.values("player_id")
        choices = Player.objects.filter(merged_into=None).exclude(pk__in=entered)
        self.fields["players"].queryset = choices  # type: ignore[attr-defined]

    def specs(self) -> list[tuple[str, dict[str, Any]]]:
        """(label, entry spec) in entry order: the register's players, then the names."""
        chosen = [(p.name, {"player": p.pk}) for p in self.cleaned_data["players"]]
        lines = [line.strip() for line in self.cleaned_data["names"].splitlines()]
        return chosen + [(line, {"name": line}) for line in lines if line]

    def clean(self) -> dict[str, Any]:
        values = super().clean() or {}
        if not values.get("players") and not (values.get("names") or "").strip():
            raise forms.ValidationError("Choose players from the register or write names.")
        return values


class PairAnywayForm(forms.Form):
    reason = forms.CharField(
        max_length=500,
        widget=forms.TextInput(attrs={"size": 60}),
        help_text="Why the next round is paired before every result is confirmed.",
    )


class PublicationForm(forms.Form):
    """The "published" switch: which way it goes (so a form sent twice, or after another
    director's switch, records nothing the tournament already says), and the reason a
    tournament is taken from the public."""

    publish = forms.BooleanField(required=False, widget=forms.HiddenInput)
    reason = forms.CharField(
        max_length=500,
        required=False,
        widget=forms.TextInput(attrs={"size": 40}),
        help_text="Why it is taken from the public: recorded with the event.",
    )
    event_id = forms.UUIDField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, publish: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["publish"].initial = publish
        self.fields["event_id"].initial = uuid.uuid4()
        if publish:
            del self.fields["reason"]

    def event(self) -> tuple[str, dict[str, Any]]:
        """The event ``POST .../events/`` takes for this switch, and its data."""
        if self.cleaned_data["publish"]:
            return ts.PUBLISHED, {}
        return ts.UNPUBLISHED, {"reason": self.cleaned_data.get("reason", "")}


class KeeperForm(forms.Form):
    round = forms.IntegerField(min_value=1)
    table = forms.IntegerField(min_value=1)
    username = forms.CharField(max_length=150, help_text="The keeper's login name.")


class TournamentEntryInline(ReadOnlyInline):
    model = TournamentEntry
    readonly_fields = ("shown_as", "player", "status", "joined_round")
    fields = readonly_fields

    @admin.display(description="shown as")
    def shown_as(self, entry: TournamentEntry) -> str:
        """The entry's label: two players of one name told apart (folded once a page)."""
        labels = getattr(self, "_labels", None)
        if labels is None:
            tournament = Tournament.objects.get(pk=entry.tournament_id)
            labels = self._labels = tournament_pages.tournament_state(tournament).labels()
        return labels.get(entry.player_id, "")


class TournamentTableInline(ReadOnlyInline):
    model = TournamentTable
    verbose_name = "table"
    verbose_name_plural = "rounds and tables"
    readonly_fields = (
        "round_number",
        "number",
        "seated",
        "match_link",
        "keepers_list",
        "result_text",
    )
    fields = readonly_fields

    @admin.display(description="players (seat 1 starts)")
    def seated(self, table: TournamentTable) -> str:
        return ", ".join(table.players)

    @admin.display(description="match")
    def match_link(self, table: TournamentTable) -> str:
        if table.match_id is None:
            return "-"
        match_url = reverse("admin:games_match_change", args=[table.match_id])
        return format_html('<a href="{}">match</a> · {}', match_url, events_link(table.match_id))

    @admin.display(description="keepers")
    def keepers_list(self, table: TournamentTable) -> str:
        return ", ".join(table.keepers) or "-"

    @admin.display(description="result")
    def result_text(self, table: TournamentTable) -> str:
        return table.result or "still playing"


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    """Tournaments read-only, with the director's tools as actions and buttons."""

    list_display = ["name", "game", "pairing", "state", "current_round", "created_at"]
    list_filter = ["status", "system", "format"]
    search_fields = ["name"]
    fields = [
        "name",
        "game",
        "pairing",
        "state",
        "current_round",
        "published",
        "created_at",
        "stream_events",
    ]
    readonly_fields = ["game", "pairing", "state", "stream_events"]
    inlines = [TournamentEntryInline, TournamentTableInline]
    actions = [
        "pair_next_round",
        "close_current_round",
        "settle_now",
        "enter_players",
        "assign_keepers",
        "print_table_cards",
        "print_standings",
    ]

    def has_add_permission(self, request: HttpRequest) -> bool:
        # The add page calls tournament_create, which checks the user itself.
        return permissions.is_director(request.user)

    @admin.display(description="events")
    def stream_events(self, tournament: Tournament) -> str:
        return events_link(tournament.pk, "the tournament's events")

    # The stored keys ("high-low-scarney", "swiss", "running") as the club says them.
    @admin.display(description="game", ordering="format")
    def game(self, tournament: Tournament) -> str:
        return labels.label(tournament.format)

    @admin.display(description="pairing", ordering="system")
    def pairing(self, tournament: Tournament) -> str:
        return labels.label(tournament.system)

    @admin.display(description="status", ordering="status")
    def state(self, tournament: Tournament) -> str:
        return labels.label(tournament.status)

    def render_change_form(
        self, request: HttpRequest, context: dict[str, Any], *args: Any, **kwargs: Any
    ) -> HttpResponse:
        tournament = kwargs.get("obj")
        if isinstance(tournament, Tournament):
            # Every document and screen of the evening, under the tournament's fields.
            state = tournament_pages.tournament_state(tournament)
            context["documents"] = documents.links(tournament, state)
        return super().render_change_form(request, context, *args, **kwargs)

    # --- adding: through the service, never a model save ----------------------------------

    def add_view(
        self, request: HttpRequest, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = TournamentForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            with refusals(request):
                tournament = creating.tournament_create(
                    spec=form.spec(), user=request.user, meta=ADMIN_META
                )
                messages.success(request, f"{tournament.name} is created: enter its players.")
                return HttpResponseRedirect(self._change_url(tournament))
        return form_page(self, request, form, title="New tournament", submit="Create")

    # --- the director's pages -------------------------------------------------------------

    def get_urls(self) -> list[URLPattern]:
        pages: list[tuple[str, Callable[..., HttpResponse]]] = [
            ("enter", self.enter_view),
            ("pair", self.pair_view),
            ("close-round", self.close_round_view),
            ("keepers", self.keepers_view),
            ("corrections", self.corrections_view),
            ("publication", self.publication_view),
            ("settle", self.settle_view),
            ("cards", self.cards_view),
            ("standings", self.standings_view),
        ]
        mine = [
            path(
                f"<uuid:object_id>/{slug}/",
                self.admin_site.admin_view(view),
                name=f"games_tournament_{slug.replace('-', '_')}",
            )
            for slug, view in pages
        ]
        # Before the default ones: their "<path:object_id>/" would swallow these.
        return mine + super().get_urls()

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

    def enter_view(self, request: HttpRequest, object_id: uuid.UUID) -> HttpResponse:
        tournament = self._tournament(request, object_id)
        if request.method == "POST" and request.POST.get("step") == "who":
            return self._who_is_who(request, tournament)
        form = EnterPlayersForm(request.POST or None, tournament=tournament)
        if request.method == "POST" and form.is_valid():
            lines = entering.lines_of(form.cleaned_data["names"])
            chosen = [p.pk for p in form.cleaned_data["players"]]
            reason = form.cleaned_data["reason"] or ""
            asked = entering.unclear(tournament, lines)
            if asked:
                return self._who_page(request, tournament, (lines, chosen, reason), asked)
            specs = [(line, {"name": line}) for line in lines]
            self._enter(request, tournament, _picked(chosen) + specs, reason or None)
            return self._back(tournament)
        return form_page(
            self,
            request,
            form,
            title=f"Enter players in {tournament}",
            submit="Enter",
            original=tournament,
            intro="Late entries join from the next round.",
        )

    def _who_is_who(self, request: HttpRequest, tournament: Tournament) -> HttpResponse:
        """The second page's answer: each unclear name said to be someone, then all entered."""
        typed = _typed(request)
        if typed is None:
            messages.error(request, "The names were lost on the way: type them again.")
            return HttpResponseRedirect(
                reverse("admin:games_tournament_enter", args=[tournament.pk])
            )
        lines, chosen, reason = typed
        asked = entering.unclear(tournament, lines)
        entered = set(tournament.entries.values_list("player_id", flat=True))
        form = entering.WhoIsWhoForm(request.POST, lines=lines, asked=asked, entered=entered)
        if not form.is_valid():
            return self._who_page(request, tournament, typed, asked, form)
        self._enter(request, tournament, _picked(chosen) + form.specs(lines, asked), reason or None)
        return self._back(tournament)

    def _who_page(
        self,
        request: HttpRequest,
        tournament: Tournament,
        typed: tuple[list[str], list[int], str],
        asked: dict[int, list[Player]],
        form: forms.Form | None = None,
    ) -> TemplateResponse:
        lines, chosen, reason = typed
        entered = set(tournament.entries.values_list("player_id", flat=True))
        if form is None:
            form = entering.WhoIsWhoForm(lines=lines, asked=asked, entered=entered)
        hidden = [("step", "who"), ("lines", json.dumps(lines)), ("reason", reason)]
        hidden += [("players", str(pk)) for pk in chosen]
        return form_page(
            self,
            request,
            form,
            title=f"Who is who? Enter players in {tournament}",
            submit="Enter",
            original=tournament,
            hidden=hidden,
            intro="Some names could be more than one person: say who each one is. The other "
            "names are entered as they are.",
        )

    def _enter(
        self,
        request: HttpRequest,
        tournament: Tournament,
        specs: list[tuple[str, Any]],
        reason: str | None,
    ) -> None:
        # One entry at a time: a refused name does not undo the others.
        entered = 0
        for label, spec in specs:
            with refusals(request, prefix=f"{label}: "):
                entries.entry_add(
                    tournament_id=tournament.pk,
                    spec=spec,
                    reason=reason,
                    user=request.user,
                    meta=ADMIN_META,
                )
                entered += 1
        if entered:
            messages.success(request, f"{tournament}: {entered} player(s) entered.")

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
        tables = ", ".join(str(n) for n in waiting)
        return form_page(
            self,
            request,
            form,
            title=title,
            submit=submit,
            original=tournament,
            intro=f"The result at table(s) {tables} is not confirmed by its players yet. Have "
            "them confirm it on the table's page (or confirm it there yourself as director), "
            "or go on and say why: the reason is recorded with the round's closing.",
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
                type=ts.ROUND_CLOSED,
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

    # --- the changelist's actions ---------------------------------------------------------

    @admin.action(description="Pair the next round")
    def pair_next_round(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for tournament in queryset:
            self._pair(request, tournament)

    @admin.action(description="Close the current round")
    def close_current_round(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for tournament in queryset:
            self._close_round(request, tournament)

    @admin.action(description="Settle now (close finished matches)")
    def settle_now(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for tournament in queryset:
            self._settle(request, tournament)

    @admin.action(description="Enter players")
    def enter_players(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> Any:
        return self._one_page(request, queryset, "enter")

    @admin.action(description="Assign keepers")
    def assign_keepers(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> Any:
        return self._one_page(request, queryset, "keepers")

    @admin.action(description="Print table cards")
    def print_table_cards(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> Any:
        return self._one_page(request, queryset, "cards")

    @admin.action(description="Print standings")
    def print_standings(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> Any:
        return self._one_page(request, queryset, "standings")

    def _one_page(
        self, request: HttpRequest, queryset: QuerySet[Tournament], page: str
    ) -> HttpResponseRedirect | None:
        """These work on one tournament at a time: go to its page."""
        if queryset.count() != 1:
            messages.warning(request, "Choose one tournament for this.")
            return None
        tournament = queryset.get()
        return HttpResponseRedirect(reverse(f"admin:games_tournament_{page}", args=[tournament.pk]))


def _unconfirmed(tournament: Tournament) -> tuple[int, ...]:
    """The current round's tables whose result awaits confirmation (none once it is closed)."""
    current = tournament_pages.tournament_state(tournament).current
    if current is None or current.missing:
        return ()  # nothing to pair over yet: the service says why
    return current.unconfirmed


def _picked(players: list[int]) -> list[tuple[str, Any]]:
    """The register's players chosen, as (what to call them in a message, entry spec)."""
    names = dict(Player.objects.filter(pk__in=players).values_list("pk", "name"))
    return [(names.get(pk, f"Player {pk}"), {"player": pk}) for pk in players]


def _typed(request: HttpRequest) -> tuple[list[str], list[int], str] | None:
    """The first page's names, players and reason, carried by the second page; None if they
    did not come back whole."""
    try:
        lines = json.loads(request.POST.get("lines", ""))
        players = [int(pk) for pk in request.POST.getlist("players")]
    except ValueError:
        return None
    if not isinstance(lines, list) or not all(isinstance(x, str) and x for x in lines):
        return None
    return [x[:100] for x in lines[:500]], players, request.POST.get("reason", "")[:500]


def _round_param(request: HttpRequest, last: int) -> int | None:
    """``?round=N`` when it names a paired round, else the latest (None before round 1)."""
    text = request.GET.get("round", "")
    if text.isascii() and text.isdigit() and 1 <= int(text) <= last:
        return int(text)
    return last or None
