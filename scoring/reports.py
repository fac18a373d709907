"""A match's history and its score sheet (API.md), as the rule books lay out their sheets.

One source for every report: :func:`match_history`, built from the match's folded state (the
games, the derived cumulative figures, the standing), the game summaries (the bonuses of live
games) and the ``match.settled`` event. Warnings of sheet entries accepted under the lenient
house rule travel with the game they concern into every rendering (RULES.md 0.6).
"""

from __future__ import annotations

import csv
import io
from typing import Any

from django.template.loader import render_to_string

from games import folding, store
from games.models import Game, Match
from games.representation import standing_fields
from games.rules.events import MATCH_SETTLED
from scoring.models import GameSummary


def match_history(match: Match) -> dict[str, Any]:
    stream = match.stream
    folded = folding.load(stream)
    fields = standing_fields(folded, str(stream.status))
    game_ids = dict(Game.objects.filter(match=match).values_list("number", "pk"))
    bonuses = _live_bonuses(game_ids.values())
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
        "settlement": store.event_data(stream.pk, MATCH_SETTLED),
    }


def _live_bonuses(game_ids: Any) -> dict[Any, list[dict[str, Any]]]:
    """Each live game's bonuses, per seat: ``[{"seat", "kind", "points"}, ...]``."""
    found: dict[Any, list[dict[str, Any]]] = {}
    for summary in GameSummary.objects.filter(game_id__in=list(game_ids)):
        found[summary.game_id] = [
            {"seat": score["seat"], "kind": bonus["kind"], "points": bonus["points"]}
            for score in summary.scores
            for bonus in score.get("bonuses", [])
        ]
    return found


# A cell opening with one of these is a formula to a spreadsheet (OWASP "CSV injection").
FORMULA_LEADS = ("=", "+", "-", "@", "\t", "\r")


class _TextCells:
    """A CSV writer whose text cells a spreadsheet shows as typed: a name like ``=HYPERLINK(..)``
    (or a negative score, "-5 - 10") gets a leading single quote, which makes it text."""

    def __init__(self, out: io.StringIO) -> None:
        self._writer = csv.writer(out)

    def writerow(self, cells: list[Any]) -> None:
        self._writer.writerow(
            ["'" + c if isinstance(c, str) and c.startswith(FORMULA_LEADS) else c for c in cells]
        )


def score_sheet_csv(history: dict[str, Any]) -> str:
    """The sheet as the books print it: one row a game, each seat "score - cumulative"."""
    out = io.StringIO()
    sheet = _TextCells(out)
    names = [p["name"] for p in history["players"]]
    sheet.writerow(["Game", *names, "Warnings"])
    for game in history["games"]:
        cells = [f"{s} - {c}" for s, c in zip(game["scores"], game["cumulative"], strict=True)]
        notes = "; ".join(f"{w['code']}: {w['message']}" for w in game["warnings"])
        sheet.writerow([game["number"], *cells, notes])
    by_seat = {row["seat"]: row for row in history["standing"]}
    for label, key in (("Match score", "match_score"), ("Total", "total"), ("Rank", "rank")):
        sheet.writerow([label, *[by_seat[seat].get(key, "") for seat in range(len(names))]])
    bonus_rows = sorted({b["kind"] for row in history["standing"] for b in row.get("bonuses", [])})
    for kind in bonus_rows:
        points = [
            sum(b["points"] for b in by_seat[seat].get("bonuses", []) if b["kind"] == kind)
            for seat in range(len(names))
        ]
        sheet.writerow([kind.replace("_", " ").capitalize(), *points])
    for payment in (history["settlement"] or {}).get("payments", []):
        sheet.writerow(
            ["Pays", f"{names[payment['from']]} pays {names[payment['to']]} {payment['points']}"]
        )
    return out.getvalue()


def score_sheet_html(history: dict[str, Any]) -> str:
    names = [p["name"] for p in history["players"]]
    by_seat = {row["seat"]: row for row in history["standing"]}
    payments = [
        {"from": names[p["from"]], "to": names[p["to"]], "points": p["points"]}
        for p in (history["settlement"] or {}).get("payments", [])
    ]
    return render_to_string(
        "scoring/score_sheet.html",
        {
            "history": history,
            "names": names,
            "rows": [
                {
                    "number": g["number"],
                    "cells": list(zip(g["scores"], g["cumulative"], strict=True)),
                    "warnings": g["warnings"],
                }
                for g in history["games"]
            ],
            "standing": [by_seat[seat] for seat in range(len(names)) if seat in by_seat],
            "payments": payments,
        },
    )
