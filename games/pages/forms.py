"""The forms of the live-table pages: starting a game, and one move sent by the page's script."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from django import forms

from games.rules import registry
from games.rules.errors import RuleError
from scoring.documents import labels

MAX_SEATS = 20


@functools.cache
def seat_counts(kind: str) -> tuple[int, ...]:
    """The numbers of players ``kind`` is played by, as its rules answer them: every count from
    its ``min_seats`` to its ``max_seats`` that its start does not refuse as ``game.bad_seats``
    (a partnership game takes 4 or 6, not 5). Asked once per kind: rules do not change."""
    rules = registry.get(kind)
    counts = []
    for seats in range(rules.min_seats, rules.max_seats + 1):
        try:
            rules.initial_state({}, {}, seats)
        except RuleError as error:
            if error.code == "game.bad_seats":
                continue
        counts.append(seats)
    return tuple(counts)


@functools.cache
def needs_house_rule(kind: str) -> bool:
    """Whether ``kind`` cannot start without a house rule the form does not ask for (a rule
    module's base game): its start refuses with a ``ruleset.`` code whatever the players."""
    rules = registry.get(kind)
    try:
        rules.initial_state({}, {}, rules.min_seats)
    except RuleError as error:
        return error.code.startswith("ruleset.")
    return False


def players_phrase(counts: Sequence[int]) -> str:
    """``(2,)`` -> "2 players"; ``(1,)`` -> "1 player"; ``(2, ..., 16)`` -> "2 to 16 players";
    ``(4, 6)`` -> "4 or 6 players"."""
    if not counts:
        return "no players"
    noun = "player" if list(counts) == [1] else "players"
    if len(counts) == 1:
        return f"{counts[0]} {noun}"
    if list(counts) == list(range(counts[0], counts[-1] + 1)) and len(counts) > 2:
        return f"{counts[0]} to {counts[-1]} {noun}"
    return f"{', '.join(map(str, counts[:-1]))} or {counts[-1]} {noun}"


def game_choice(kind: str) -> str:
    """A game as the form lists it: "Scarney Singles — 2 to 16 players"."""
    return f"{labels.format_name(kind)} — {players_phrase(seat_counts(kind))}"


def kind_choices() -> list[tuple[str, str]]:
    """The games the form can start, by name."""
    kinds = [kind for kind in registry.kinds() if not needs_house_rule(kind)]
    return sorted(((kind, game_choice(kind)) for kind in kinds), key=lambda choice: choice[1])


def kinds_left_out() -> str:
    """What the form says of the games it cannot start (they need a base game), or ""."""
    names = sorted(labels.format_name(k) for k in registry.kinds() if needs_house_rule(k))
    if not names:
        return ""
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    verb, them = ("is", "it") if len(names) == 1 else ("are", "them")
    return f"{listed} {verb} played on a base game: start {them} through the API."


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

    def clean(self) -> dict[str, Any]:
        """A count of players the game is not played by is refused beside the players, in the
        game's name, before the service is asked."""
        cleaned = super().clean() or {}
        kind, seats = cleaned.get("kind"), cleaned.get("seats")
        if kind and seats and len(seats) not in seat_counts(kind):
            self.add_error("seats", seats_sentence(kind, len(seats)))
        return cleaned

    def add_error(self, field: str | None, error: Any) -> None:
        """Each refused control names its refusal (``aria-describedby``), which the template
        puts beside it as ``{field}-error``."""
        super().add_error(field, error)
        for name in self.errors:
            if name in self.fields:
                self.fields[name].widget.attrs["aria-describedby"] = f"{name}-error"


def seats_sentence(kind: str, named: int) -> str:
    """ "Manchester Piccadilly is played by 2 players; 4 are named.\""""
    are = "1 is" if named == 1 else f"{named} are"
    return (
        f"{labels.format_name(kind)} is played by {players_phrase(seat_counts(kind))}; {are} named."
    )


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
