"""The admin's forms for a tournament: its creation and the evening's steps (pairing over an
unconfirmed result, publication, keepers). Each gives the spec the service takes, and the service
checks it (a tie-break's name is read back into its declared key)."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms

from games.rules import registry
from games.tournaments.core import events, tiebreaks
from scoring.documents import labels


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
            return events.PUBLISHED, {}
        return events.UNPUBLISHED, {"reason": self.cleaned_data.get("reason", "")}


class KeeperForm(forms.Form):
    round = forms.IntegerField(min_value=1)
    table = forms.IntegerField(min_value=1)
    username = forms.CharField(max_length=150, help_text="The keeper's login name.")
