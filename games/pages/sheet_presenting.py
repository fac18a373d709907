"""What the score sheet, tournament and scoreboard templates show, shaped from the API's JSON.

The figures come from the same builders the API answers with
(scoring.documents.reports.match_history, games.play.representation.match_json,
games.api.tournaments); this module only arranges them for a
person: seats by name, "score - cumulative" cells, bonuses with readable labels.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from games.pages.chart import cumulative_chart
from games.rules import registry
from scoring.documents import labels

# One wording of every code for people, shared with the printed reports.
label = labels.label


def sheet(history: dict[str, Any], match: dict[str, Any]) -> dict[str, Any]:
    """The sheet of ``history`` (reports.match_history) with ``match`` (representation.match_json)
    for what comes next."""
    names = [p["name"] for p in history["players"]]
    by_seat = {row["seat"]: row for row in history["standing"]}
    standing = [by_seat.get(seat, {}) for seat in range(len(names))]
    return {
        "title": label(history["format"]),
        "names": names,
        "rows": [_row(game, names) for game in history["games"]],
        "standing": [_standing_cell(row) for row in standing],
        "payments": _payments(history["settlement"], names),
        "warnings": history["warnings"],
        "winners": [names[seat] for seat in history["winner"] if seat < len(names)],
        "rating": history["rating"],
        "chart": cumulative_chart(names, history["games"]),
        "next_game": match["next_game"],
        "takes_lines": match["entry"] == "sheet" and "game.scored" in match["expected"],
        "rule": rule_sentence(match["format"], match.get("ruleset") or {}),
        "over": over_sentence(history, match, names),
    }


def over_sentence(history: dict[str, Any], match: dict[str, Any], names: list[str]) -> str:
    """How a finished match ended, "" while it is played: its winners, or for one player (a
    Solitaire match has no winner) his games, points and rating band."""
    if match["status"] == "in_progress":
        return ""
    if len(names) == 1:
        row: dict[str, Any] = next(iter(history["standing"]), {})
        games = len(history["games"])
        facts = [f"{games} game{'' if games == 1 else 's'}"]
        if row.get("total") is not None:
            facts.append(f"{row['total']} points")
        return labels.solo_result(names[0], "match", facts, history["rating"])
    winners = [names[seat] for seat in history["winner"] if seat < len(names)]
    if not winners:
        return ""
    return f"The match is over: {' and '.join(winners)} {'wins' if len(winners) == 1 else 'win'}."


# --- the rule a sheet line follows, in one sentence: each format words its own ---------------


def rule_sentence(format: str, ruleset: dict[str, Any]) -> str:
    """The rule of a sheet match's lines and end in one sentence (``MatchRules.sheet_rule``), with
    the match's own house rules (a Hearts Due target, the hands of a Manchester game) in place of
    the defaults."""
    rules = registry.match_rules(format)
    return rules.sheet_rule({**_default_ruleset(rules.ruleset_type), **ruleset})


def _default_ruleset(ruleset_type: type[Any]) -> dict[str, Any]:
    try:
        return dataclasses.asdict(ruleset_type())
    except TypeError:  # a ruleset with a required house rule has no defaults to show
        return {}


def _row(game: dict[str, Any], names: list[str]) -> dict[str, Any]:
    cells = zip(game["scores"], game["cumulative"], strict=True)
    return {
        "number": game["number"],
        "game": game["game"],
        "cells": [{"score": s, "cumulative": c} for s, c in cells],
        "winners": [names[seat] for seat in game.get("winners", []) if seat < len(names)],
        "bonuses": [
            {"name": names[b["seat"]], "label": label(b["kind"]), "points": b["points"]}
            for b in game.get("bonuses", [])
        ],
        "warnings": game.get("warnings", []),
    }


def _standing_cell(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "match_score": row.get("match_score"),
        "bonuses": [
            {"label": label(b["kind"]), "points": b["points"]} for b in row.get("bonuses", [])
        ],
        "total": row.get("total"),
        "games_won": row.get("games_won"),
        "rank": row.get("rank"),
    }


def _payments(settlement: dict[str, Any] | None, names: list[str]) -> list[dict[str, Any]]:
    return [
        {"from": names[p["from"]], "to": names[p["to"]], "points": p["points"]}
        for p in (settlement or {}).get("payments", [])
    ]


# --- tournaments -------------------------------------------------------------------------------


def tournament_round(played: dict[str, Any], standings: dict[str, Any]) -> dict[str, Any]:
    """A round (tournament_api.round_json) with who still plays named, not numbered."""
    missing = set(played["missing"])
    return {
        **played,
        "tables": [_table(table, table["table"] in missing) for table in played["tables"]],
        "byes": [{**bye, "points": figure(bye["points"])} for bye in played["byes"]],
        "still_playing": [
            " v ".join(seat["label"] for seat in table["seats"])
            for table in played["tables"]
            if table["table"] in missing
        ],
    }


def _table(table: dict[str, Any], playing: bool) -> dict[str, Any]:
    result = table["result"]
    names = [seat["label"] for seat in table["seats"]]
    return {
        **table,
        "names": names,
        "playing": playing,
        "result_text": _result_text(result, names) if result else "",
        "status_text": label(table["status"] or "not started"),
    }


def _result_text(result: dict[str, Any], names: list[str]) -> str:
    scores = " – ".join(
        f"{name} {score}" for name, score in zip(names, result["scores"], strict=False)
    )
    how = "" if result["how"] == "played" else f" ({label(result['how'])})"
    reason = f": {result['reason']}" if result.get("reason") else ""
    return f"{scores}{how}{reason}"


def standings_table(standings: dict[str, Any], tiebreaks: list[str]) -> dict[str, Any]:
    """Standings rows with their tie-break columns in the tournament's order, and each column's
    explanation (standings_json's ``explain``) as its caption."""
    explain = standings["explain"]
    columns = [
        {"key": key, "label": label(key), "explain": explain.get(key, "")} for key in tiebreaks
    ]
    return {
        "round": standings["round"],
        "in_play": standings.get("in_play"),
        "columns": columns,
        "rows": [
            {
                **row,
                "points": figure(row["points"]),
                "breaks": [figure(row["tiebreaks"].get(c["key"])) for c in columns],
            }
            for row in standings["rows"]
        ],
        "explain": [
            {"label": label(key), "text": text}
            for key, text in explain.items()
            if key not in tiebreaks
        ],
        "break_explain": [{"label": c["label"], "text": c["explain"]} for c in columns],
    }


def figure(value: Any) -> Any:
    """2.0 -> 2, 1.5 -> 1.5: points as a sheet writes them."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value
