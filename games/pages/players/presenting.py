"""A player's page in words: his results as sentences, his ratings with their charts, his
places in tournaments. Shaped from what ``reading`` gathers (the API's own answers); nothing here
reads the database."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.utils import dateformat, timezone

from games.pages.chart import rating_chart
from games.pages.players.reading import Entered
from scoring.documents import labels
from scoring.ratings import scale

# The rating chart shows the latest results only: a long history would crowd its x axis, and
# what a reader asks of the page is where the player stands now and how he got there lately.
CHARTED = 100
# What the page says of every rating: where it starts and when it stops being provisional.
SCALE = {
    "centre": scale.CENTRE,
    "deviation": scale.START.deviation,
    "established": scale.ESTABLISHED_AFTER,
}


def day(when: dt.datetime) -> str:
    """A date as the pages write it: ``27 Nov 2026``, in the site's time zone."""
    return dateformat.format(timezone.localtime(when), "j M Y")


def ordinal(number: int) -> str:
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number % 10, 'th') }"


# --- recent play ---------------------------------------------------------------------------------


def recent_rows(
    rows: list[dict[str, Any]], names: dict[str, dict[int, str]]
) -> list[dict[str, Any]]:
    """His history's rows (``timeline.reader_history``) as the page lists them."""
    return [_recent(row, names.get(row["id"], {})) for row in rows]


def _recent(row: dict[str, Any], game_names: dict[int, str]) -> dict[str, Any]:
    is_match = row["type"] == "match"
    if is_match:
        totals = {line["seat"]: line.get("total") for line in row["standing"]}
        seat_names = {line["seat"]: line.get("name", "") for line in row["standing"]}
        winners = set(row["winner"])
        ranks = {line["seat"]: line.get("rank") for line in row["standing"]}
    else:
        totals = {score["seat"]: score.get("total") for score in row["scores"]}
        seat_names = game_names
        winners = _best(totals)
        ranks = _ranks(totals)
    mine = row["seats"][0] if row["seats"] else None
    return {
        "type": row["type"],
        "id": row["id"],
        "url": f"/{'matches' if is_match else 'games'}/{row['id']}/",
        "what": f"{labels.format_name(row['kind'])} {'match' if is_match else 'game'}",
        "when": dt.datetime.fromisoformat(row["updated_at"]),
        "result": _result(row, mine, winners, ranks, len(totals)),
        "score": _score(row, mine, totals),
        "against": [name for seat, name in sorted(seat_names.items()) if seat not in row["seats"]],
    }


def _result(
    row: dict[str, Any], mine: int | None, winners: set[int], ranks: dict[int, Any], seats: int
) -> str:
    """Won, Lost, Drawn, or his place at a table of more than two: in words, never a colour."""
    if row["status"] == "in_progress":
        return "In progress"
    if row["status"] == "abandoned":
        return "Set aside"
    if mine is None or seats <= 1:
        return "Played"
    if not winners or len(winners) == seats:
        return "Drawn"
    if mine in winners:
        return "Won"
    rank = ranks.get(mine)
    if seats > 2 and isinstance(rank, int) and not _partnership(row):
        return f"{ordinal(rank)} of {seats}"
    return "Lost"


def _partnership(row: dict[str, Any]) -> bool:
    return "partnership" in row["kind"]


def _score(row: dict[str, Any], mine: int | None, totals: dict[int, Any]) -> str:
    """His total, and in a two-player meeting his opponent's after it ("250 – 50")."""
    if mine is None or totals.get(mine) is None:
        return ""
    others = [total for seat, total in totals.items() if seat != mine]
    if len(others) == 1 and others[0] is not None:
        text = f"{totals[mine]} – {others[0]}"
    else:
        text = f"{totals[mine]} points"
    if row.get("rating"):
        text += f", {labels.rated(row['rating'])}"
    return text


def _best(totals: dict[int, Any]) -> set[int]:
    """A game's winners, as the stats count them: every seat level on the highest total."""
    known = {seat: total for seat, total in totals.items() if total is not None}
    if not known:
        return set()
    best = max(known.values())
    return {seat for seat, total in known.items() if total == best}


def _ranks(totals: dict[int, Any]) -> dict[int, int]:
    known = sorted((t for t in totals.values() if t is not None), reverse=True)
    return {seat: known.index(t) + 1 for seat, t in totals.items() if t is not None}


# --- ratings and records by game -----------------------------------------------------------------


def by_kind(ratings: list[dict[str, Any]], stats: dict[str, Any]) -> list[dict[str, Any]]:
    """One entry per game kind he has a rating or a counted game or match in, by book name."""
    rated = {row["kind"]: row for row in ratings}
    counted = {row["kind"]: row for row in stats["kinds"]}
    kinds = sorted(set(rated) | set(counted), key=labels.format_name)
    return [_kind(kind, rated.get(kind), counted.get(kind)) for kind in kinds]


def _kind(
    kind: str, rating: dict[str, Any] | None, counted: dict[str, Any] | None
) -> dict[str, Any]:
    return {
        "kind": kind,
        "title": labels.format_name(kind),
        "rating": _rating(kind, rating) if rating else None,
        "record": _record(counted) if counted else [],
        "bands": [
            f"{labels.rated(band['rating'])} × {band['count']}"
            for band in (counted or {}).get("ratings", [])
        ],
    }


def _rating(kind: str, row: dict[str, Any]) -> dict[str, Any]:
    history = row["history"]
    shown = history[-CHARTED:]
    first = len(history) - len(shown) + 1
    figures = [point["rating"] for point in shown]
    return {
        "rating": row["rating"],
        "deviation": row["deviation"],
        "games": row["games"],
        "provisional": row["provisional"],
        "shown": len(shown),
        "of": len(history),
        "chart": rating_chart(
            kind,
            figures,
            first,
            [
                f"Result {first + i}, {day(point['at'])}: {point['rating']} ± {point['deviation']}"
                for i, point in enumerate(shown)
            ],
            _chart_desc(shown, first),
        ),
    }


def _chart_desc(shown: list[dict[str, Any]], first: int) -> str:
    """The chart in a sentence, for a screen reader: the results and days it covers, where the
    rating began and ended, its lowest and highest."""
    if not shown:
        return ""
    start, end = shown[0], shown[-1]
    figures = [point["rating"] for point in shown]
    results = "1 result" if len(shown) == 1 else f"results {first} to {first + len(shown) - 1}"
    days = day(start["at"]), day(end["at"])
    when = f"on {days[0]}" if days[0] == days[1] else f"from {days[0]} to {days[1]}"
    return (
        f"Rating after {results}, {when}: from {start['rating']} to {end['rating']}; "
        f"lowest {min(figures)}, highest {max(figures)}."
    )


def _record(counted: dict[str, Any]) -> list[str]:
    """ "Matches: 2 played, 1 won; average 220.5, best 313" and the same of games."""
    lines = []
    for what in ("matches", "games"):
        tally = counted[what]
        if not tally["played"]:
            continue
        line = f"{what.capitalize()}: {tally['played']} played, {tally['won']} won"
        if tally["average"] is not None:
            line += f"; average {_figure(tally['average'])}, best {_figure(tally['best'])}"
        lines.append(line)
    return lines


def _figure(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


# --- head to head --------------------------------------------------------------------------------


def head_to_head(stats: dict[str, Any]) -> list[dict[str, Any]]:
    """Per kind, each opponent met: most met first."""
    kinds = [row for row in stats["kinds"] if row["head_to_head"]]
    return [
        {
            "kind": row["kind"],
            "title": labels.format_name(row["kind"]),
            "rivals": sorted(row["head_to_head"], key=lambda r: (-r["played"], r["name"])),
        }
        for row in sorted(kinds, key=lambda row: labels.format_name(row["kind"]))
    ]


# --- tournaments ---------------------------------------------------------------------------------


def heading(name: str, entered: Iterable[Entered]) -> str:
    """The name his page is headed with: his label in his latest tournament where it tells him
    from a namesake ("Pat (1)"), so the page reads as the standings and cards do; else his name."""
    return next((one.label for one in entered if one.label and one.label != name), name)


def tournaments(entered: Iterable[Entered], player: int) -> list[dict[str, Any]]:
    return [_tournament(one, player) for one in entered]


def _tournament(one: Entered, player: int) -> dict[str, Any]:
    standings = one.standings
    row = next((r for r in standings["rows"] if r["player"] == player), None)
    return {
        "id": one.tournament.pk,
        "name": one.tournament.name,
        "game": labels.format_name(one.tournament.format),
        "status": labels.label(one.tournament.status),
        "label": one.label,
        "withdrawn": one.withdrawn,
        "place": _place(standings, row, one),
    }


def _place(standings: dict[str, Any], row: dict[str, Any] | None, one: Entered) -> str:
    """ "2nd of 5, 3 points after round 2 of 3", or why there is no place yet."""
    if not standings["round"]:
        return "No round complete yet"
    if row is None:
        return "Not in the standings"
    points = _figure(row["points"])
    unit = "point" if points == 1 else "points"
    place = f"{ordinal(row['rank'])} of {len(standings['rows'])}, {points} {unit}"
    if one.tournament.status == "finished":
        return place
    of = f" of {one.rounds}" if one.rounds else ""
    return f"{place} after round {standings['round']}{of}"
