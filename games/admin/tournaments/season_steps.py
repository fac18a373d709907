"""A tournament's season, from its admin page: "Add to a season" (an open one; the service's
409 or 422 shown as its sentence) and, once it is an evening of one, the season named with a
link and "Leave the season" with a reason. Each a service call of ``games.tournaments.seasons``.
"""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from games.admin.base import ADMIN_META, form_page, refusals
from games.admin.tournaments.steps import TournamentPages
from games.store.models import Season, Tournament
from games.tournaments import seasons


class AddToSeasonForm(forms.Form):
    season = forms.ModelChoiceField(
        queryset=Season.objects.none(), help_text="An open season: a closed one takes no evening."
    )
    reason = forms.CharField(
        max_length=500, required=False, widget=forms.TextInput(attrs={"size": 60})
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["season"].queryset = Season.objects.filter(closed=False)  # type: ignore[attr-defined]


class LeaveSeasonForm(forms.Form):
    reason = forms.CharField(
        max_length=500,
        widget=forms.TextInput(attrs={"size": 40}),
        help_text="Why the evening leaves the season: recorded with the event.",
    )


def panel(tournament: Tournament) -> dict[str, Any]:
    """The tournament page's season block: its season and the way out, or the way in."""
    season = tournament.season
    if season is None:
        return {
            "season_panel": {"add": reverse("admin:games_tournament_season", args=[tournament.pk])}
        }
    return {
        "season_panel": {
            "season": season,
            "season_url": reverse("admin:games_season_change", args=[season.pk]),
            "leave": reverse("admin:games_tournament_leave_season", args=[tournament.pk]),
            "form": LeaveSeasonForm(),
        }
    }


class SeasonSteps(TournamentPages):
    """The tournament's pages that put it in a season or take it out."""

    def season_view(self, request: HttpRequest, object_id: uuid.UUID) -> HttpResponse:
        tournament = self._tournament(request, object_id)
        form = AddToSeasonForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            season = form.cleaned_data["season"]
            with refusals(request):  # the service's sentence names the evening and the season
                seasons.tournament_add(
                    season_id=season.pk,
                    tournament_id=tournament.pk,
                    user=request.user,
                    reason=form.cleaned_data["reason"] or None,
                    meta=ADMIN_META,
                )
                messages.success(request, f"{tournament} is an evening of {season}.")
                return self._back(tournament)
        return form_page(
            self,
            request,
            form,
            title=f"Add {tournament} to a season",
            submit="Add to the season",
            original=tournament,
            intro="Its standings after its last complete round count in the season's.",
        )

    def leave_season_view(self, request: HttpRequest, object_id: uuid.UUID) -> HttpResponse:
        tournament = self._tournament(request, object_id)
        season = tournament.season
        if request.method != "POST" or season is None:
            return self._back(tournament)
        form = LeaveSeasonForm(request.POST)
        if not form.is_valid():
            messages.error(request, f"{tournament}: say why it leaves {season}.")
            return self._back(tournament)
        with refusals(request, prefix=f"{tournament}: "):
            seasons.tournament_remove(
                season_id=season.pk,
                tournament_id=tournament.pk,
                user=request.user,
                reason=form.cleaned_data["reason"],
                meta=ADMIN_META,
            )
            messages.success(request, f"{tournament} has left {season}: it counts no more there.")
        return self._back(tournament)
