"""A match's history and its score sheet (API.md), as the rule books lay out their sheets.

One source for every report: :func:`match_history`, built from the match's folded state (the
games, the derived cumulative figures, the standing), the game summaries (the bonuses of live
games) and the ``match.settled`` event. Warnings of sheet entries accepted under the lenient
house rule travel with the game they concern into every rendering (RULES.md 0.6).
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from django.conf import settings
from django.db import connection
from django.template.loader import render_to_string
from django.utils import timezone

from games.play.representation import standing_fields
from games.store import folding, journal
from games.store.models import Game, Match
from scoring.documents import charts, labels
from scoring.models import GameSummary


def match_history(match: Match) -> dict[str, Any]:
    stream = match.stream
    folded = folding.load(stream)
    fields = standing_fields(folded, str(stream.status))
    game_ids, bonuses = _games_and_bonuses(match)
    warnings = fields["warnings"]
    games = []
    for row in fields["games"]:
        game_id = game_ids.get(row["number"])
        games.append(
            {
                **row,
                "game": None if game_id is None else str(game_id),
                "url": None if game_id is None else f"/api/v1/games/{game_id}/",
                "bonuses": bonuses.get(game_id, []),
                "warnings": [w for w in warnings if w["game"] == row["number"]],
            }
        )
    return {
        "id": str(stream.pk),
        "format": match.format,
        "entry": match.entry,
        "status": stream.status,
        "players": folded.header["players"],
        "games": games,
        "standing": fields["standing"],
        "winner": fields["winner"],
        "rating": fields["rating"],
        "warnings": warnings,
        "settlement": folding.settlement(stream.pk, folded),
    }


def _games_and_bonuses(match: Match) -> tuple[dict[Any, Any], dict[Any, list[dict[str, Any]]]]:
    """The match's live games by number, and each one's bonuses per seat
    (``[{"seat", "kind", "points"}, ...]``). On PostgreSQL by one prepared statement: a report
    built anew read them by two ORM queries, a third of its time."""
    if connection.vendor != "postgresql":
        game_ids = dict(Game.objects.filter(match=match).values_list("number", "pk"))
        summaries = GameSummary.objects.filter(game_id__in=list(game_ids.values()))
        rows = [(s.game_id, s.scores) for s in summaries]
    else:
        found = journal.prepared_rows(_GAMES_AND_SCORES, [journal.uuid_param(match.pk)])
        game_ids = {number: game for number, game, _ in found}
        rows = [(game, json.loads(scores)) for _, game, scores in found if scores is not None]
    return game_ids, {game: _bonuses(scores) for game, scores in rows}


def _bonuses(scores: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {"seat": score["seat"], "kind": bonus["kind"], "points": bonus["points"]}
        for score in scores
        for bonus in score.get("bonuses", [])
    ]


_GAMES_AND_SCORES = """SELECT g.number, g.stream_id, s.scores FROM games_game g
    LEFT JOIN scoring_gamesummary s ON s.game_id = g.stream_id WHERE g.match_id = %s"""


# A cell opening with one of these is a formula to a spreadsheet (OWASP "CSV injection").
FORMULA_LEADS = ("=", "+", "-", "@", "\t", "\r")


class TextCells:
    """A CSV writer whose text cells a spreadsheet shows as typed: a name like ``=HYPERLINK(..)``
    (or a negative score, "-5 - 10") gets a leading single quote, which makes it text."""

    def __init__(self, out: io.StringIO) -> None:
        self._writer = csv.writer(out)

    def writerow(self, cells: list[Any]) -> None:
        self._writer.writerow(
            ["'" + c if isinstance(c, str) and c.startswith(FORMULA_LEADS) else c for c in cells]
        )


def heading(match: Match) -> dict[str, Any]:
    """What heads a sheet: the event (a tournament's name, round and table, or the club's own
    match), the date it was played, the table and the venue."""
    tournament = match.tournament.name if match.tournament is not None else None
    place = []
    if match.round_number:
        place.append(f"round {match.round_number}")
    if match.table_number:
        place.append(f"table {match.table_number}")
    return {
        "title": labels.format_name(match.format),
        "event": tournament or "Club match",
        "place": ", ".join(place),
        "date": timezone.localdate(match.created_at),
        "table": match.table_number,
        "venue": settings.VENUE,
    }


def sheet(match: Match) -> dict[str, Any]:
    """Everything a score sheet shows, in words and numbers for people (CSV, HTML and PDF)."""
    history = match_history(match)
    names = [p["name"] for p in history["players"]]
    by_seat = {row["seat"]: row for row in history["standing"]}
    standing = [by_seat[seat] for seat in range(len(names)) if seat in by_seat]
    lines = charts.progression(names, [g["cumulative"] for g in history["games"]])
    return {
        "heading": heading(match),
        "history": history,
        "status": labels.status(history["status"]),
        "names": names,
        "rows": [_row(game, names) for game in history["games"]],
        "standing": [_standing_row(row) for row in standing],
        "result": result_line(history, standing, names),
        "payments": _payments(history, names),
        "warnings": history["warnings"],
        "chart": charts.svg(lines),
        "legend": [
            {"name": name, "colour": charts.colour(seat), "dash": charts.dash(seat)}
            for seat, name in enumerate(names)
        ],
    }


def _row(game: dict[str, Any], names: list[str]) -> dict[str, Any]:
    return {
        "number": game["number"],
        "cells": list(zip(game["scores"], game["cumulative"], strict=True)),
        "bonuses": [
            f"{names[b['seat']]}: {labels.bonus(b['kind'])} {b['points']}"
            for b in game.get("bonuses", [])
        ],
        "warnings": game["warnings"],
    }


def _standing_row(row: dict[str, Any]) -> dict[str, Any]:
    return {
        **row,
        "bonus_lines": [(labels.bonus(b["kind"]), b["points"]) for b in row.get("bonuses", [])],
    }


def result_line(history: dict[str, Any], standing: list[dict[str, Any]], names: list[str]) -> str:
    """ "Ann wins by 230", "Ann and Bob tie on 120", or who leads while the match goes on."""
    if len(standing) < 2 or not history["games"]:
        return ""
    ordered = sorted(standing, key=lambda row: (row["rank"], row["seat"]))
    first, second = ordered[0], ordered[1]
    finished = history["status"] != "in_progress"
    if first["rank"] == second["rank"]:
        tied = [names[r["seat"]] for r in ordered if r["rank"] == first["rank"]]
        verb = "tie" if finished else "are level"
        return f"{' and '.join(tied)} {verb} on {first['total']}"
    margin = first["total"] - second["total"]
    verb = "wins by" if finished else "leads by"
    return f"{names[first['seat']]} {verb} {margin}"


def _payments(history: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    return [
        {"from": names[p["from"]], "to": names[p["to"]], "points": p["points"]}
        for p in (history["settlement"] or {}).get("payments", [])
    ]


def score_sheet_csv(history: dict[str, Any], head: dict[str, Any] | None = None) -> str:
    """The sheet as the books print it: one row a game, each seat "score - cumulative", under
    the heading's lines (event, date, table, venue) when ``head`` is given."""
    out = io.StringIO()
    sheet = TextCells(out)
    names = [p["name"] for p in history["players"]]
    if head is not None:
        _csv_heading(sheet, history, head)
    sheet.writerow(["Game", *names, "Warnings"])
    for game in history["games"]:
        cells = [f"{s} - {c}" for s, c in zip(game["scores"], game["cumulative"], strict=True)]
        notes = "; ".join(f"{w['code']}: {w['message']}" for w in game["warnings"])
        sheet.writerow([game["number"], *cells, notes])
    by_seat = {row["seat"]: row for row in history["standing"]}
    seats = range(len(names))
    sheet.writerow(["Match score", *[by_seat[seat].get("match_score", "") for seat in seats]])
    bonus_rows = sorted({b["kind"] for row in history["standing"] for b in row.get("bonuses", [])})
    for kind in bonus_rows:
        points = [
            sum(b["points"] for b in by_seat[seat].get("bonuses", []) if b["kind"] == kind)
            for seat in seats
        ]
        sheet.writerow([labels.bonus(kind), *points])
    for label, key in (("Total", "total"), ("Rank", "rank")):
        sheet.writerow([label, *[by_seat[seat].get(key, "") for seat in seats]])
    standing = [by_seat[seat] for seat in seats if seat in by_seat]
    if "status" in history and (result := result_line(history, standing, names)):
        sheet.writerow(["Result", result])
    for payment in (history["settlement"] or {}).get("payments", []):
        sheet.writerow(
            ["Pays", f"{names[payment['from']]} pays {names[payment['to']]} {payment['points']}"]
        )
    return out.getvalue()


def _csv_heading(sheet: TextCells, history: dict[str, Any], head: dict[str, Any]) -> None:
    event = head["event"] + (f", {head['place']}" if head["place"] else "")
    sheet.writerow(["Score sheet", head["title"]])
    sheet.writerow(["Event", event])
    sheet.writerow(["Date", head["date"].isoformat()])
    sheet.writerow(["Table", head["table"] or ""])
    sheet.writerow(["Venue", head["venue"]])
    sheet.writerow(["Status", labels.status(history["status"])])
    sheet.writerow([])


def score_sheet_html(match: Match) -> str:
    """The sheet as a page; the same page, printed by WeasyPrint, is the PDF."""
    return render_to_string("scoring/score_sheet.html", sheet(match))
