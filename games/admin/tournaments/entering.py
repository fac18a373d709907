"""Entering players from the admin: a name that could be more than one person is asked about.

The director types names (and picks players from the register). A name is entered at once when
it names nobody yet (a new player) or one registered player not entered yet (a regular). It is
asked about when it could be someone else: several registered players have it, the one who has
it is entered already, or it is typed twice. The second page offers, for each such line, the
players it could be and "a new player of that name", with a label to tell namesakes apart
(the service gives "Pat (2)" when the director types none).
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse

from games.admin.base import ADMIN_META, form_page, refusals
from games.admin.tournaments.steps import TournamentPages
from games.store.models import Player, Tournament
from games.tournaments import entries

NEW = "new"
SKIP = "skip"


def lines_of(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def unclear(tournament: Tournament, lines: list[str]) -> dict[int, list[Player]]:
    """The lines to ask about, by index, with the registered players each could be."""
    entered = set(tournament.entries.values_list("player_id", flat=True))
    asked: dict[int, list[Player]] = {}
    seen: set[str] = set()
    for index, line in enumerate(lines):
        found = list(Player.objects.filter(name=line, merged_into=None).order_by("pk"))
        twice = line.casefold() in seen
        seen.add(line.casefold())
        if len(found) > 1 or twice or any(p.pk in entered for p in found):
            asked[index] = found
    return asked


class WhoIsWhoForm(forms.Form):
    """One choice per unclear line: which registered player, or a new one; and a label."""

    def __init__(
        self,
        *args: Any,
        lines: list[str],
        asked: dict[int, list[Player]],
        entered: set[int],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        for index, candidates in asked.items():
            name = lines[index]
            again = name.casefold() in {line.casefold() for line in lines[:index]}
            self.fields[f"who_{index}"] = forms.ChoiceField(
                label=f"Line {index + 1}: {name}",
                choices=_choices(name, candidates, entered, again),
                widget=forms.RadioSelect,
                error_messages={"required": f"Say who {name} on line {index + 1} is."},
            )
            self.fields[f"label_{index}"] = forms.CharField(
                label=f"Shown as (line {index + 1})",
                max_length=40,
                required=False,
                help_text=f"To tell two players called {name} apart on cards and boards, e.g. "
                f'"{name} K."; left empty, they are shown "{name} (1)", "{name} (2)".',
            )

    def specs(self, lines: list[str], asked: dict[int, list[Player]]) -> list[tuple[str, Any]]:
        """(line, entry spec) in the order typed; the lines left out are not there."""
        specs: list[tuple[str, Any]] = []
        for index, line in enumerate(lines):
            if index not in asked:
                specs.append((line, {"name": line}))
                continue
            who = self.cleaned_data[f"who_{index}"]
            label = self.cleaned_data[f"label_{index}"].strip()
            if who == SKIP:
                continue
            spec: dict[str, Any] = (
                {"name": line, "new": True} if who == NEW else {"player": int(who)}
            )
            if label:
                spec["label"] = label
            specs.append((line, spec))
        return specs


def _choices(
    name: str, candidates: list[Player], entered: set[int], again: bool
) -> list[tuple[str, str]]:
    choices: list[tuple[str, str]] = []
    if again:
        choices.append((SKIP, f"The same {name} as on a line above: leave out"))
    for player in candidates:
        if player.pk in entered:
            if not again:
                choices.append(
                    (SKIP, f"The {name} already entered (player {player.pk}): leave out")
                )
            continue
        number = f", member {player.member_number}" if player.member_number else ""
        choices.append((str(player.pk), f"{player.name}: player {player.pk}{number}"))
    choices.append((NEW, f"A new player called {name}"))
    return choices


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


class EnteringPages(TournamentPages):
    """Entering players: the names typed, then, for a name that could be more than one person,
    the page that asks who is who."""

    def enter_view(self, request: HttpRequest, object_id: uuid.UUID) -> HttpResponse:
        tournament = self._tournament(request, object_id)
        if request.method == "POST" and request.POST.get("step") == "who":
            return self._who_is_who(request, tournament)
        form = EnterPlayersForm(request.POST or None, tournament=tournament)
        if request.method == "POST" and form.is_valid():
            lines = lines_of(form.cleaned_data["names"])
            chosen = [p.pk for p in form.cleaned_data["players"]]
            reason = form.cleaned_data["reason"] or ""
            asked = unclear(tournament, lines)
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
        asked = unclear(tournament, lines)
        entered = set(tournament.entries.values_list("player_id", flat=True))
        form = WhoIsWhoForm(request.POST, lines=lines, asked=asked, entered=entered)
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
            form = WhoIsWhoForm(lines=lines, asked=asked, entered=entered)
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
