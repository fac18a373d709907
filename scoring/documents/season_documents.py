"""A season's printed standings (API.md "Seasons"): the PDF (from HTML) and the CSV.

Read through ``games.tournaments.season_standings`` as a *visitor* reads the season: from its
published evenings only. The stored file is kept per fingerprint and served to every reader who
may read the season (its director as much as a visitor), so it must never show an evening that
one of them may not read; the paper says that it counts the published evenings. The director
sees the unpublished ones counted in the admin and the API, which answer each reader his own.
"""

from __future__ import annotations

import io
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone

from games.store.models import Season
from games.tournaments import season_standings
from scoring.documents import labels
from scoring.documents.reports import TextCells

# The reader every printed season is made for: nobody logged in (published evenings only).
VISITOR = None

COUNTED_MARK = "*"
PUBLISHED_ONLY = "Printed from the season's published evenings only."
EXPLAIN_ORDER = (
    ("points", "Points"),
    ("counted", "Evenings counted"),
    ("ties", "Ties"),
    ("evenings", "An evening's results"),
)


def evenings(season: Season) -> list[season_standings.EveningHead]:
    """The evenings the paper shows, by date: those a visitor may read."""
    heads = season_standings.evening_heads(season)
    return season_standings.readable_evenings(VISITOR, heads)


def fingerprint(season: Season) -> str:
    """What the paper shows, as a digest: the season's head, its published evenings' heads and
    the register's; an evening published or unpublished changes the set, so the digest."""
    return season_standings.fingerprint(season, evenings(season))


def points(value: float) -> str:
    """Season points are whole, or halves and thirds where places are shared: 6.5, 4.33."""
    return f"{round(value, 2):g}"


def ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th, 21st."""
    if 10 <= place % 100 <= 20:
        return f"{place}th"
    return f"{place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place % 10, 'th') }"


def standings_page(season: Season) -> dict[str, Any]:
    """Everything the paper shows: the heading, the table, each player's evenings, the rules."""
    answer = season_standings.standings_json(season, VISITOR)
    shown = evenings(season)
    columns = [{"tournament": str(h.tournament), "name": h.name, "date": h.date} for h in shown]
    return {
        "heading": heading(season, len(shown)),
        "explain": [(title, answer["explain"][key]) for key, title in EXPLAIN_ORDER],
        "columns": columns,
        "rows": [_row(row, columns) for row in answer["rows"]],
        "published_only": PUBLISHED_ONLY,
    }


def heading(season: Season, evenings: int) -> dict[str, Any]:
    return {
        "title": f"Season standings: {season.name}",
        "season": season.name,
        "format": labels.format_name(season.format) if season.format else "Any game",
        "evenings": evenings,
        "status": "Closed" if season.closed else "In play",
        "printed": timezone.localdate(),
        "venue": settings.VENUE,
    }


def _row(row: dict[str, Any], columns: list[dict[str, Any]]) -> dict[str, Any]:
    by_evening = {r["tournament"]: r for r in row["results"]}
    cells: list[dict[str, Any] | None] = []
    for column in columns:
        result = by_evening.get(column["tournament"])
        if result is None:
            cells.append(None)
            continue
        cells.append(
            {
                "points": points(result["points"]),
                "place": result["place"],
                "of": result["of"],
                "place_text": f"{ordinal(result['place'])} of {result['of']}",
                "counted": result["counted"],
            }
        )
    return {
        "place": row["place"],
        "name": row["name"],
        "label": row["label"],
        "points": points(row["points"]),
        "evenings": row["evenings"],
        "counted": row["counted"],
        "cells": cells,
    }


def standings_html(season: Season) -> str:
    """The page WeasyPrint prints as the PDF."""
    return render_to_string("scoring/reports/season_standings.html", standings_page(season))


def standings_csv(season: Season) -> str:
    """One line per player: place, name, label, points, evenings played and counted, then each
    evening's points ("8*" where they count, empty where he did not play), under a few lines
    saying what the season is and how it counts."""
    page = standings_page(season)
    out = io.StringIO()
    sheet = TextCells(out)
    head = page["heading"]
    sheet.writerow(["Season standings", head["season"]])
    sheet.writerow(["Game", head["format"]])
    sheet.writerow(["Status", head["status"]])
    for title, text in page["explain"]:
        sheet.writerow([title, text])
    sheet.writerow(["Marked", f"Points marked {COUNTED_MARK} count towards the season."])
    sheet.writerow(["Evenings", page["published_only"]])
    sheet.writerow(["Printed", head["printed"].isoformat()])
    sheet.writerow([])
    evening_titles = [f"{c['name']} ({c['date']})" for c in page["columns"]]
    sheet.writerow(["Place", "Name", "Label", "Points", "Evenings", "Counted", *evening_titles])
    for row in page["rows"]:
        cells = [_csv_cell(cell) for cell in row["cells"]]
        sheet.writerow(
            [
                row["place"],
                row["name"],
                row["label"],
                row["points"],
                row["evenings"],
                row["counted"],
                *cells,
            ]
        )
    return out.getvalue()


def _csv_cell(cell: dict[str, Any] | None) -> str:
    if cell is None:
        return ""
    return f"{cell['points']}{COUNTED_MARK if cell['counted'] else ''}"
