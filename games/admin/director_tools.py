"""The director's corrections in the admin (issue 11, "Admin"): one plain form per tool.

Each form is read into the call the API makes for the same tool (``games.api.tournaments``): a
late entry is ``entry_add``, pairing a round again is ``round_repair``, and a withdrawal, a
requested bye, a forfeit, an adjusted result and a void are ``correction_record`` with the event
``POST /tournaments/{id}/events/`` takes. The services check who may, and refuse what does not
fit with a sentence; the admin shows it. No form writes a row itself.
"""

from __future__ import annotations

import math
import uuid
from typing import Any

from django import forms

from games.store.models import Player, Tournament
from games.tournaments import entries, results, rounds
from games.tournaments.core import events
from games.tournaments.core import state as ts

REASON_HELP = "Recorded with the event, for everyone who reads the tournament later."
# Stored with every event the admin records, as a table's device is with its moves.
ADMIN_META = {"device": "admin"}


class CorrectionForm(forms.Form):
    """A tool's fields, then its reason; ``record`` calls the service and says what it did."""

    slug = ""
    title = ""
    submit = ""
    intro = ""

    reason = forms.CharField(
        max_length=500, widget=forms.TextInput(attrs={"size": 40}), help_text=REASON_HELP
    )
    # Made when the form is shown, so a form sent twice records its event once (as the API's id).
    event_id = forms.UUIDField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, state: ts.TournamentState, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.state = state  # as folded when the page was asked for; the service folds again
        self.fields["event_id"].initial = uuid.uuid4()
        own = [name for name in self.fields if name not in ("reason", "event_id")]
        self.order_fields([*own, "reason", "event_id"])

    def record(self, tournament: Tournament, user: Any) -> str:
        raise NotImplementedError

    def correction(self, tournament: Tournament, user: Any, type: str, **data: Any) -> bool:
        """``correction_record`` as ``POST .../events/`` makes it: True if it recorded now."""
        _folded, created = results.correction_record(
            tournament_id=tournament.pk,
            event_id=self.cleaned_data["event_id"],
            type=type,
            data={**data, "reason": self.cleaned_data["reason"]},
            user=user,
            meta=ADMIN_META,
        )
        return created


# --- the choices a form offers, from the tournament's state -----------------------------------


def _entrants(state: ts.TournamentState, *, active: bool) -> list[tuple[int, str]]:
    """The entries (``active``: those not withdrawn); a withdrawn one says so, and the service
    refuses what does not fit him with its own sentence."""
    rows = [e for e in state.entries if not active or e.withdrawn_after is None]
    shown = state.labels()  # two players of one name told apart
    return [
        (e.player, shown[e.player] + ("" if e.withdrawn_after is None else " (withdrawn)"))
        for e in rows
    ]


def _tables(state: ts.TournamentState) -> list[tuple[str, str]]:
    """Every paired table, the latest round first: ``"round:table"``."""
    names = state.labels()
    return [
        (
            f"{played.number}:{table.number}",
            f"Round {played.number}, table {table.number}: "
            + " v ".join(names.get(p, str(p)) for p in table.players),
        )
        for played in reversed(state.rounds)
        for table in played.tables
    ]


def _place(value: str) -> tuple[int, int]:
    number, table = value.split(":")
    return int(number), int(table)


def _number(text: str) -> int | float:
    """``"1"`` as 1, ``"0.5"`` as 0.5 (ValueError for anything that is not a finite number)."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return int(value) if value.is_integer() else value


class EntrantField(forms.TypedChoiceField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(coerce=int, **kwargs)


class TableField(forms.TypedChoiceField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(coerce=_place, **kwargs)


# --- the tools --------------------------------------------------------------------------------


class LateEntryForm(CorrectionForm):
    slug = "late-entry"
    title = "Late entry"
    submit = "Enter"
    intro = "A player from the register joins from the next round to pair."

    player = forms.ModelChoiceField(queryset=Player.objects.none(), help_text="From the register.")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        entered = [e.player for e in self.state.entries]
        register = Player.objects.filter(merged_into=None).exclude(pk__in=entered)
        self.fields["player"].queryset = register.order_by("name", "pk")  # type: ignore[attr-defined]

    def record(self, tournament: Tournament, user: Any) -> str:
        player: Player = self.cleaned_data["player"]
        entry = entries.entry_add(
            tournament_id=tournament.pk,
            spec={"player": player.pk},
            reason=self.cleaned_data["reason"],
            user=user,
            meta=ADMIN_META,
        )
        return f"{entry.name} is entered; he plays from round {entry.joined}."


class WithdrawalForm(CorrectionForm):
    slug = "withdrawal"
    title = "Withdrawal"
    submit = "Withdraw"
    intro = "He keeps the rounds already paired and is left out from the next one."

    player = EntrantField(label="Entrant")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # All of them: the same form sent again is answered "already recorded", not refused.
        self.fields["player"].choices = _entrants(self.state, active=False)  # type: ignore[attr-defined]

    def record(self, tournament: Tournament, user: Any) -> str:
        player = self.cleaned_data["player"]
        created = self.correction(tournament, user, events.WITHDREW, player=player)
        return _said(created, f"{_name(self.state, player)} withdraws after this round.")


BYE_POINTS = [("0", "0"), ("0.5", "½"), ("1", "1")]


class ByeForm(CorrectionForm):
    slug = "bye"
    title = "Requested bye"
    submit = "Record the bye"
    intro = "For the next round to pair: he sits out and scores the points chosen."

    player = EntrantField(label="Entrant")
    round = forms.IntegerField(min_value=1)
    points = forms.TypedChoiceField(choices=BYE_POINTS, coerce=_number, initial="0")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = _entrants(self.state, active=True)  # type: ignore[attr-defined]
        self.fields["round"].initial = len(self.state.rounds) + 1

    def record(self, tournament: Tournament, user: Any) -> str:
        values = self.cleaned_data
        created = self.correction(
            tournament,
            user,
            events.BYE_REQUESTED,
            player=values["player"],
            round=values["round"],
            points=values["points"],
        )
        name = _name(self.state, values["player"])
        return _said(created, f"{name} has a bye in round {values['round']}.")


class ForfeitForm(CorrectionForm):
    slug = "forfeit"
    title = "Forfeit"
    submit = "Record the forfeit"
    intro = "The player who forfeits scores nothing at that table; everyone else there a win."

    table = TableField()
    player = EntrantField(label="Who forfeits")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["table"].choices = _tables(self.state)  # type: ignore[attr-defined]
        self.fields["player"].choices = _entrants(self.state, active=False)  # type: ignore[attr-defined]

    def record(self, tournament: Tournament, user: Any) -> str:
        (number, table), player = self.cleaned_data["table"], self.cleaned_data["player"]
        created = self.correction(
            tournament, user, events.FORFEIT, round=number, table=table, player=player
        )
        name = _name(self.state, player)
        return _said(created, f"{name} forfeits at table {table} of round {number}.")


class AdjustedResultForm(CorrectionForm):
    slug = "adjusted-result"
    title = "Adjusted result"
    submit = "Adjust"
    intro = "The director sets the table's match points; its scores and nets stay as played."

    table = TableField()
    points = forms.CharField(
        label="Match points",
        help_text="One number from 0 to 1 per seat, in seat order: 1, 0 or 0.5, 0.5.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["table"].choices = _tables(self.state)  # type: ignore[attr-defined]

    def clean_points(self) -> list[int | float]:
        parts = [part.strip() for part in self.cleaned_data["points"].split(",")]
        try:
            return [_number(part) for part in parts]
        except ValueError:
            raise forms.ValidationError(
                "Write numbers separated by commas, e.g. 1, 0 or 0.5, 0.5."
            ) from None

    def record(self, tournament: Tournament, user: Any) -> str:
        (number, table), points = self.cleaned_data["table"], self.cleaned_data["points"]
        created = self.correction(
            tournament,
            user,
            events.RESULT_ADJUSTED,
            round=number,
            table=table,
            points=points,
        )
        shown = " - ".join(f"{p:g}" for p in points)
        return _said(created, f"Table {table} of round {number} is adjusted to {shown}.")


class VoidForm(CorrectionForm):
    slug = "void"
    title = "Void"
    submit = "Void"
    intro = "The table's result is voided: no points for anyone there."

    table = TableField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["table"].choices = _tables(self.state)  # type: ignore[attr-defined]

    def record(self, tournament: Tournament, user: Any) -> str:
        number, table = self.cleaned_data["table"]
        created = self.correction(tournament, user, events.VOIDED, round=number, table=table)
        return _said(created, f"Table {table} of round {number} is voided.")


class RepairForm(CorrectionForm):
    slug = "repair"
    title = "Pair the round again"
    submit = "Pair again"
    intro = (
        "Before any of its results: the current round is paired again and its matches set aside."
    )

    def record(self, tournament: Tournament, user: Any) -> str:
        number = rounds.round_repair(
            tournament_id=tournament.pk,
            reason=self.cleaned_data["reason"],
            user=user,
            meta=ADMIN_META,
        )
        return f"Round {number} is paired again."


TOOLS: dict[str, type[CorrectionForm]] = {
    form.slug: form
    for form in (
        LateEntryForm,
        WithdrawalForm,
        ByeForm,
        ForfeitForm,
        AdjustedResultForm,
        VoidForm,
        RepairForm,
    )
}


def forms_for(
    state: ts.TournamentState,
    bound: tuple[str, Any] | None = None,
) -> list[CorrectionForm]:
    """Every tool's form in page order; ``bound`` = (slug, POST data) fills one of them."""
    return [
        tool(bound[1] if bound and bound[0] == slug else None, state=state, prefix=slug)
        for slug, tool in TOOLS.items()
    ]


def _name(state: ts.TournamentState, player: int) -> str:
    return state.labels().get(player, f"Player {player}")


def _said(created: bool, sentence: str) -> str:
    return sentence if created else f"Already recorded: {sentence}"
