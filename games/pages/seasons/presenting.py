"""A season's standings as its page draws them: the evenings as columns, each player's evenings
as a row of cells, and the chart of the leaders' season points after each evening.

The figures are the API's (``season_standings.standings_json``); the chart's points come from the
season's own counting (``counting.progress``) over the places that answer holds, so the chart and
the table cannot disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.pages.chart import Words, line_chart
from games.store.models import Season
from games.tournaments.core.season import counting
from games.tournaments.core.season.state import FIELD
from games.tournaments.season_standings import EveningHead
from scoring.documents import labels

LEADERS = 5


def points(value: float) -> str:
    """Season points as a person writes them: 15, 6.5."""
    return f"{value:g}"


def facts(season: Season) -> dict[str, Any]:
    return {
        "id": season.pk,
        "name": season.name,
        "format_label": labels.label(season.format) if season.format else "Any game",
        "best": season.best,
        "closed": season.closed,
    }


def columns(heads: Sequence[EveningHead]) -> list[dict[str, Any]]:
    """The evenings, by date, as the grid's columns."""
    return [
        {"number": n, "tournament": h.tournament, "name": h.name, "date": h.date}
        for n, h in enumerate(heads, start=1)
    ]


def standings(answer: dict[str, Any], heads: Sequence[EveningHead]) -> list[dict[str, Any]]:
    """Each row with its cells, one per evening (None where he did not play)."""
    return [_row(row, heads) for row in answer["rows"]]


def _row(row: dict[str, Any], heads: Sequence[EveningHead]) -> dict[str, Any]:
    by_evening = {r["tournament"]: r for r in row["results"]}
    return {
        "place": row["place"],
        "player": row["player"],
        "label": row["label"],
        "points": points(row["points"]),
        "evenings": row["evenings"],
        "counted": row["counted"],
        "cells": [_cell(by_evening.get(str(h.tournament))) for h in heads],
    }


def _cell(result: dict[str, Any] | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {
        "place": result["place"],
        "of": result["of"],
        "points": points(result["points"]),
        "counted": result["counted"],
    }


def chart(
    answer: dict[str, Any], heads: Sequence[EveningHead], season: Season
) -> dict[str, Any] | None:
    """The leaders' (the top rows') season points after each evening; None before any counts."""
    leaders = answer["rows"][:LEADERS]
    if not leaders or not heads:
        return None
    scheme = season.points if season.points == FIELD else list(season.points)
    players = [row["player"] for row in leaders]
    lines = counting.progress(_evenings(answer, heads), scheme, season.best, players)
    names = [row["label"] for row in leaders]
    series = [lines[player] for player in players]
    words = Words(
        id="season-chart",
        title="The leaders' season points after each evening",
        desc=" ".join(
            f"{name}: {', '.join(points(v) for v in line)}."
            for name, line in zip(names, series, strict=True)
        ),
        x_title="Evening",
        y_title="Season points",
        point=lambda seat, number, value: (
            f"{names[seat]}, after evening {number} ({heads[number - 1].date}): {points(value)}"
        ),
    )
    high = max(1, round(max(v for line in series for v in line) + 0.5))
    return line_chart(names, series, list(range(1, len(heads) + 1)), 0, high, words)


def _evenings(answer: dict[str, Any], heads: Sequence[EveningHead]) -> list[counting.Evening]:
    """The evenings' places again, as the answer's rows hold them (every player of an evening
    has a row, so each evening is whole)."""
    places: dict[str, dict[int, int]] = {str(h.tournament): {} for h in heads}
    fields: dict[str, int] = {}
    for row in answer["rows"]:
        for result in row["results"]:
            places.setdefault(result["tournament"], {})[row["player"]] = result["place"]
            fields[result["tournament"]] = result["of"]
    return [
        counting.Evening(key, h.name, h.date, places[key], fields.get(key, 0))
        for h in heads
        for key in [str(h.tournament)]
    ]
