"""A tournament's printed documents: a round's pairings and table cards, the standings with their
tie-breaks, and one player's evening slip.

Read from the tournament's folded state through the functions the API and the admin answer with
(``round_json``, ``standings_json``, ``settlement_json``, via
``scoring.documents.tournament_pages``), so the paper, the admin page and the API never differ.
"""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone

from games.store.models import Tournament
from games.tournaments.core import state as ts
from games.tournaments.shapes import round_json, settlement_json, standings_json
from scoring.documents import labels, tournament_pages


class NoSuchPart(LookupError):
    """The round or the player asked for is not part of this tournament (answered as 404)."""


def heading(tournament: Tournament, title: str) -> dict[str, Any]:
    from django.conf import settings

    return {
        "title": title,
        "event": tournament.name,
        "format": labels.format_name(tournament.format),
        "date": timezone.localdate(tournament.created_at),
        "venue": settings.VENUE,
    }


def cards_html(tournament: Tournament, state: ts.TournamentState, number: int) -> str:
    """Round ``number``: who sits where (by table, then by name) and one card per table."""
    if not 1 <= number <= len(state.rounds):
        raise NoSuchPart(f"round {number}")
    page = tournament_pages.table_cards(state, number)
    return render_to_string(
        "scoring/reports/cards.html",
        {"heading": heading(tournament, f"Round {number}: pairings and table cards"), **page},
    )


def standings_html(tournament: Tournament, state: ts.TournamentState) -> str:
    """The standings after the latest round, each tie-break explained, and who pays whom."""
    page = tournament_pages.standings_page(state)
    page["tiebreaks"] = [labels.tiebreak(t) for t in state.settings.tiebreaks]
    page["explain"] = [(labels.tiebreak(key), text) for key, text in _explained(state)]
    return render_to_string(
        "scoring/reports/standings.html", {"heading": heading(tournament, page["title"]), **page}
    )


def _explained(state: ts.TournamentState) -> list[tuple[str, str]]:
    explain = standings_json(state)["explain"]
    order = ["rank", "points", "played", *state.settings.tiebreaks, "net"]
    return [(key, explain[key]) for key in order if key in explain]


def slip(state: ts.TournamentState, player: int) -> dict[str, Any]:
    """One player's evening: his table each round, its result for him, his points and net, and
    whom he pays or who pays him."""
    entry = next((e for e in state.entries if e.player == player), None)
    if entry is None:
        raise NoSuchPart(f"player {player}")
    rounds = [_slip_round(state, number, player) for number in range(1, len(state.rounds) + 1)]
    standing = standings_json(state)
    row = next((r for r in standing["rows"] if r["player"] == player), None)
    money = settlement_json(state)
    return {
        "name": state.labels()[player],
        "rounds": [r for r in rounds if r is not None],
        "rank": row["rank"] if row else None,
        "points": _points(row["points"]) if row else "0",
        "net": row["net"] if row else 0,
        "pays": [p for p in money["payments"] if p["from"] == player],
        "paid_by": [p for p in money["payments"] if p["to"] == player],
    }


def _slip_round(state: ts.TournamentState, number: int, player: int) -> dict[str, Any] | None:
    played = round_json(state, number)
    for bye in played["byes"]:
        if bye["player"] == player:
            points = _points(bye["points"])
            return {"round": number, "table": None, "against": "bye", "result": points, "net": 0}
    for table in played["tables"]:
        seats = [s["player"] for s in table["seats"]]
        if player in seats:
            return _slip_table(number, table, seats.index(player))
    return None


def _slip_table(number: int, table: dict[str, Any], seat: int) -> dict[str, Any]:
    others = [s["label"] for s in table["seats"] if s["seat"] != seat]
    result = table["result"]
    line: dict[str, Any] = {
        "round": number,
        "table": table["table"],
        "against": ", ".join(others) or "alone",
        "score": None,
        "result": None,
        "net": None,
    }
    if result is not None:
        line["score"] = result["scores"][seat] if result["scores"] else None
        line["result"] = _points(result["points"][seat])
        line["net"] = result["net"][seat] if result["net"] else 0
    else:
        line["status"] = labels.status(table["status"] or "in_progress")
    return line


def slip_html(tournament: Tournament, state: ts.TournamentState, player: int) -> str:
    page = slip(state, player)
    return render_to_string(
        "scoring/reports/slip.html",
        {"heading": heading(tournament, f"Evening slip: {page['name']}"), "slip": page},
    )


def _points(value: float) -> str:
    # Points come in halves, and in thirds at tables of four: 2.5 and 1.33, not 1.3333333.
    return f"{round(value, 2):g}"
