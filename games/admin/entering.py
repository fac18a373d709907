"""Entering players from the admin: a name that could be more than one person is asked about.

The director types names (and picks players from the register). A name is entered at once when
it names nobody yet (a new player) or one registered player not entered yet (a regular). It is
asked about when it could be someone else: several registered players have it, the one who has
it is entered already, or it is typed twice. The second page offers, for each such line, the
players it could be and "a new player of that name", with a label to tell namesakes apart
(the service gives "Pat (2)" when the director types none).
"""

from __future__ import annotations

from typing import Any

from django import forms

from games.store.models import Player, Tournament

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
