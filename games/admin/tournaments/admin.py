"""A tournament in the admin: where a director runs the evening (create, enter players, pair,
assign keepers, close the round, settle, print), each step a service call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import URLPattern, path, reverse

from games.admin import documents
from games.admin.base import ADMIN_META, ReadOnlyInline, events_link, form_page, refusals
from games.admin.tournaments import confirming, season_steps
from games.admin.tournaments.entering import EnteringPages
from games.admin.tournaments.forms import TournamentForm
from games.admin.tournaments.season_steps import SeasonSteps
from games.admin.tournaments.steps import DirectorSteps
from games.play import permissions
from games.store.models import Tournament, TournamentEntry, TournamentTable
from games.tournaments import creating
from scoring.documents import labels, tournament_pages


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
        return confirming.match_cell(table)

    @admin.display(description="keepers")
    def keepers_list(self, table: TournamentTable) -> str:
        return ", ".join(table.keepers) or "-"

    @admin.display(description="result")
    def result_text(self, table: TournamentTable) -> str:
        return confirming.result_cell(self, table)


@admin.register(Tournament)
class TournamentAdmin(EnteringPages, DirectorSteps, SeasonSteps):
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
            context.update(confirming.panel(tournament))
            context.update(season_steps.panel(tournament))
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

    # --- the director's pages (games.admin.tournaments.entering, .steps) ----------

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
            ("season", self.season_view),
            ("leave-season", self.leave_season_view),
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
        return mine + confirming.urls(self) + super().get_urls()

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
