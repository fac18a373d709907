"""A club's season in the admin (API.md "Seasons"): the list, a season's page with its evenings,
its standings and its documents, a new season, and its close. Every write is a service call of
the tournaments context (``games.tournaments.seasons``); the season's row is its projection,
never edited here. An evening joins or leaves a season from the tournament's own page
(``games.admin.tournaments.season_steps``).
"""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import URLPattern, path, reverse
from django.utils import timezone

from games.admin.base import ADMIN_META, ReadOnlyAdmin, events_link, form_page, refusals
from games.play import permissions
from games.rules import registry
from games.store.models import Season, Tournament
from games.tournaments import season_standings, seasons
from scoring.documents import labels

TOP_ROWS = 10  # the season's page shows its leaders; the documents have every row


class SeasonForm(forms.Form):
    """The body of ``POST /seasons/`` (API.md) as a form; the service checks it."""

    name = forms.CharField(max_length=200, widget=forms.TextInput(attrs={"size": 50}))
    format = forms.ChoiceField(label="Game", required=False)
    best = forms.IntegerField(
        label="Evenings counted",
        min_value=1,
        required=False,
        help_text="Each player's best N evenings count; leave blank for every evening.",
    )
    points = forms.CharField(
        initial="field",
        widget=forms.TextInput(attrs={"size": 40}),
        help_text='"field": an evening of n players gives n - place + 1; or points by place, '
        "the winner's first, as 10, 8, 6, 5 (0 past the last).",
    )
    published = forms.BooleanField(
        label="Public", required=False, initial=True, help_text="Anyone may read it."
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        names = sorted(registry.formats(), key=labels.format_name)
        choices = [("", "Any game"), *((f, labels.format_name(f)) for f in names)]
        self.fields["format"].choices = choices  # type: ignore[attr-defined]

    def clean_points(self) -> str | dict[str, list[float]]:
        written = self.cleaned_data["points"].strip()
        if written.casefold() == "field":
            return "field"
        try:
            table = [float(part) for part in written.split(",") if part.strip()]
        except ValueError:
            raise forms.ValidationError(
                'Write "field", or numbers separated by commas: 10, 8, 6, 5.'
            ) from None
        if not table:
            raise forms.ValidationError('Write "field", or the points by place: 10, 8, 6, 5.')
        return {"by_place": [int(p) if p.is_integer() else p for p in table]}

    def spec(self) -> dict[str, Any]:
        values = self.cleaned_data
        return {
            "name": values["name"],
            "format": values["format"] or None,
            "counting": {"best": values["best"]},
            "points": values["points"],
            "published": values["published"],
        }


class ReasonForm(forms.Form):
    reason = forms.CharField(
        max_length=500,
        required=False,
        widget=forms.TextInput(attrs={"size": 60}),
        help_text="Recorded with the event.",
    )


def counting_text(best: int | None) -> str:
    if best is None:
        return "every evening"
    return f"best {best} evening{'s' if best != 1 else ''}"


def points_text(points: Any) -> str:
    if points == "field":
        return "field (n - place + 1)"
    return ", ".join(f"{float(p):g}" for p in points)


def documents(season: Season) -> dict[str, str]:
    """The season's public page and its printed standings (the API's, a page that waits while
    a file renders)."""
    return {
        "page": f"/seasons/{season.pk}/",
        **{
            fmt: reverse(f"season-standings-{fmt}", kwargs={"pk": season.pk})
            for fmt in ("pdf", "csv")
        },
    }


@admin.register(Season)
class SeasonAdmin(ReadOnlyAdmin):
    """Seasons read-only: made and closed by the services, their evenings added from the
    tournaments' pages."""

    list_display = ["name", "game", "counting", "points_shown", "published", "closed", "evenings"]
    list_filter = ["closed", "published"]
    search_fields = ["name"]
    fields = [
        "name",
        "game",
        "counting",
        "points_shown",
        "published",
        "closed",
        "created_at",
        "stream_events",
    ]
    readonly_fields = ["game", "counting", "points_shown", "stream_events"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Season]:
        found: QuerySet[Season] = super().get_queryset(request)
        return found.annotate(evening_count=Count("evenings"))

    def has_add_permission(self, request: HttpRequest) -> bool:
        # The add page calls season_create, which checks the user itself.
        return permissions.is_director(request.user)

    @admin.display(description="game", ordering="format")
    def game(self, season: Season) -> str:
        return labels.format_name(season.format) if season.format else "any game"

    @admin.display(description="counting", ordering="best")
    def counting(self, season: Season) -> str:
        return counting_text(season.best)

    @admin.display(description="points")
    def points_shown(self, season: Season) -> str:
        return points_text(season.points)

    @admin.display(description="evenings", ordering="evening_count")
    def evenings(self, season: Season) -> int:
        return int(getattr(season, "evening_count", 0))

    @admin.display(description="events")
    def stream_events(self, season: Season) -> str:
        return events_link(season.pk, "the season's events")

    def render_change_form(
        self, request: HttpRequest, context: dict[str, Any], *args: Any, **kwargs: Any
    ) -> HttpResponse:
        season = kwargs.get("obj")
        if isinstance(season, Season):
            context.update(self._panel(request, season))
        return super().render_change_form(request, context, *args, **kwargs)

    def _panel(self, request: HttpRequest, season: Season) -> dict[str, Any]:
        """The season's evenings, its leaders as this director reads them, its documents."""
        evenings = [
            {
                "name": t.name,
                "date": timezone.localdate(t.created_at),
                "published": t.published,
                "url": reverse("admin:games_tournament_change", args=[t.pk]),
            }
            for t in Tournament.objects.filter(season=season).order_by("created_at", "pk")
        ]
        standing = season_standings.standings_json(season, request.user)
        return {
            "season_evenings": evenings,
            "season_rows": standing["rows"][:TOP_ROWS],
            "season_more": max(len(standing["rows"]) - TOP_ROWS, 0),
            "season_documents": documents(season),
        }

    # --- adding and closing: through the services -----------------------------------------

    def add_view(
        self, request: HttpRequest, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = SeasonForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            with refusals(request):
                season = seasons.season_create(spec=form.spec(), user=request.user, meta=ADMIN_META)
                messages.success(
                    request, f"{season.name} is created: add its evenings from their pages."
                )
                return HttpResponseRedirect(reverse("admin:games_season_change", args=[season.pk]))
        return form_page(self, request, form, title="New season", submit="Create")

    def close_view(self, request: HttpRequest, object_id: uuid.UUID) -> HttpResponse:
        season = self._season(request, object_id)
        form = ReasonForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            with refusals(request):
                seasons.season_close(
                    season_id=season.pk,
                    user=request.user,
                    reason=form.cleaned_data["reason"] or None,
                    meta=ADMIN_META,
                )
                messages.success(request, f"{season} is closed: its evenings stay as they are.")
                return HttpResponseRedirect(reverse("admin:games_season_change", args=[season.pk]))
        return form_page(
            self,
            request,
            form,
            title=f"Close {season}",
            submit="Close the season",
            original=season,
            intro="The season is over: no evening joins or leaves it after this. Its standings "
            "still follow corrections to its evenings.",
        )

    def _season(self, request: HttpRequest, object_id: uuid.UUID) -> Season:
        season: Season | None = self.get_object(request, str(object_id))
        if season is None:
            raise Http404("There is no such season.")
        if not self.has_view_permission(request, season):
            raise PermissionDenied
        return season

    def get_urls(self) -> list[URLPattern]:
        close = path(
            "<uuid:object_id>/close/",
            self.admin_site.admin_view(self.close_view),
            name="games_season_close",
        )
        # Before the default ones: their "<path:object_id>/" would swallow it.
        return [close, *super().get_urls()]
