"""The forms of the live-table pages: starting a game, and one move sent by the page's script."""

from __future__ import annotations

from typing import Any

from django import forms

from games.rules import registry
from scoring.documents import labels

MAX_SEATS = 20


def kind_choices() -> list[tuple[str, str]]:
    return [(kind, labels.format_name(kind)) for kind in registry.kinds()]


class GameStartForm(forms.Form):
    kind = forms.ChoiceField(label="Game", choices=kind_choices)
    seats = forms.CharField(
        label="Players, one per line, in seat order",
        widget=forms.Textarea(attrs={"rows": 4, "autocomplete": "off"}),
        max_length=2000,
    )

    def clean_seats(self) -> list[dict[str, str]]:
        names = [line.strip() for line in self.cleaned_data["seats"].splitlines()]
        names = [name for name in names if name]
        if not names:
            raise forms.ValidationError("Name at least one player.")
        if len(names) > MAX_SEATS:
            raise forms.ValidationError(f"At most {MAX_SEATS} players sit at one game.")
        return [{"name": name} for name in names]


class MoveForm(forms.Form):
    """One move as the page's script posts it: a client-made id, so a resend records once.

    The event's data comes as ``payload``: ``data`` is the bound form's own attribute.
    """

    id = forms.UUIDField()
    type = forms.CharField(max_length=60)
    payload = forms.JSONField(required=False)  # "{}" counts as empty to a required field
    expected_version = forms.IntegerField(min_value=0, required=False)

    def clean_payload(self) -> dict[str, Any]:
        data = self.cleaned_data["payload"]
        if data is None:
            return {}
        if not isinstance(data, dict):
            raise forms.ValidationError("The move's data must be a JSON object.")
        return data
