"""Every document and screen of a tournament, linked from its admin page: the director finds the
room's scoreboard, the public page, the standings, each round's table cards and score sheets and
each player's slip where he runs the evening, not in docs/API.md.

The links only: the print views are the admin's own (``cards``, ``standings``), the files are the
API's documents (``/api/v1/tournaments/{id}/...``, a 202 page that reloads itself while a file
renders), the screens are the pages'. Each is read as the tournament is, so a director may open
them all.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games.store.models import Tournament
from games.tournaments.core import state as ts
from games.tournaments.shapes import round_json, standings_json


def links(tournament: Tournament, state: ts.TournamentState) -> dict[str, Any]:
    """The documents block of the tournament's change page, the latest round first."""
    pk = tournament.pk
    return {
        "scoreboard": reverse("scoring-pages:scoreboard", args=[pk]),
        "public": reverse("scoring-pages:tournament", args=[pk]),
        "standings": _files("tournament-standings", {"pk": pk})
        | {"print": reverse("admin:games_tournament_standings", args=[pk])},
        "rounds": [_round(tournament, state, n) for n in range(len(state.rounds), 0, -1)],
        "slips": _slips(tournament, state),
    }


def _files(name: str, kwargs: dict[str, Any]) -> dict[str, str]:
    """The API's HTML and PDF of one document."""
    return {fmt: reverse(f"{name}-{fmt}", kwargs=kwargs) for fmt in ("html", "pdf")}


def _round(tournament: Tournament, state: ts.TournamentState, number: int) -> dict[str, Any]:
    played = round_json(state, number)
    cards_print = reverse("admin:games_tournament_cards", args=[tournament.pk])
    sheets = [
        {"table": table["table"], **_files("match-score-sheet", {"pk": table["match"]})}
        for table in sorted(played["tables"], key=lambda t: t["table"])
        if table["match"]
    ]
    return {
        "number": number,
        "cards": _files("tournament-cards", {"pk": tournament.pk, "number": number})
        | {"print": f"{cards_print}?round={number}"},
        "sheets": sheets,
    }


def _slips(tournament: Tournament, state: ts.TournamentState) -> list[dict[str, Any]]:
    """One slip per entry, by the name the standings show (its label where two share a name)."""
    rows = standings_json(state)["rows"]
    named = sorted(rows, key=lambda row: _shown(row).casefold())
    return [
        {
            "name": _shown(row),
            **_files("tournament-slip", {"pk": tournament.pk, "player": row["player"]}),
        }
        for row in named
    ]


def _shown(row: dict[str, Any]) -> str:
    return str(row.get("label") or row["name"])
