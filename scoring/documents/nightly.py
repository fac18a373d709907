"""The club's nightly report: the matches that ended that day with their winners, the day's best
game scores and the bonuses scored, read from the read models only (MatchStanding, GameSummary,
BonusAward). What a visitor may read only (``selectors.visible``: finished public games and
matches, none of an unpublished tournament): the report is pinned on the club's board.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, time, timedelta
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.template.loader import render_to_string
from django.utils import timezone

from games.store.models import GameSeat
from scoring import selectors
from scoring.documents import labels
from scoring.models import BonusAward, GameSummary, MatchStanding

BEST_SCORES = 10  # rows of the day's best game scores


def day_bounds(day: date) -> tuple[datetime, datetime]:
    """The first instant of ``day`` and of the next, in the club's time zone."""
    start = timezone.make_aware(datetime.combine(day, time.min))
    return start, start + timedelta(days=1)


def days_played(tournament_id: Any) -> set[date]:
    """The days (in the club's time zone) on which the tournament's matches or games last
    changed: the reports that may show them."""
    matches = MatchStanding.objects.filter(match__tournament=tournament_id)
    games = GameSummary.objects.filter(game__match__tournament=tournament_id)
    times = [
        *matches.values_list("updated_at", flat=True),
        *games.values_list("updated_at", flat=True),
    ]
    return {timezone.localdate(at) for at in times}


def report(day: date) -> dict[str, Any]:
    start, end = day_bounds(day)
    games = GameSummary.objects.filter(
        selectors.visible(None, "game__stream__"),
        updated_at__gte=start,
        updated_at__lt=end,
        status="finished",
    )
    names = _seat_names(games)
    matches = list(_ended_matches(start, end))
    best = _best_scores(games, names) + _best_match_totals(matches)
    best.sort(key=lambda row: (-row["total"], row["name"]))
    return {
        "day": day,
        "venue": settings.VENUE,
        "matches": [_match_line(row) for row in matches],
        "best": best[:BEST_SCORES],
        "bonuses": _bonuses(_game_bonuses(games, names) + _match_bonuses(matches)),
        "games_played": games.count(),
    }


def _ended_matches(start: datetime, end: datetime) -> QuerySet[MatchStanding]:
    return (
        MatchStanding.objects.filter(
            selectors.visible(None, "match__stream__"),
            updated_at__gte=start,
            updated_at__lt=end,
            status__in=("finished", "settled"),
        )
        .select_related("match__tournament")
        .order_by("updated_at")
    )


def _match_line(row: MatchStanding) -> dict[str, Any]:
    by_seat = {s["seat"]: s for s in row.standing}
    winners = [by_seat[seat]["name"] for seat in row.winner if seat in by_seat]
    tournament = row.match.tournament
    return {
        "id": str(row.match_id),
        "format": labels.format_name(row.format),
        "event": tournament.name if tournament else "Club match",
        "players": ", ".join(s["name"] for s in row.standing),
        "winners": " and ".join(winners),
        "totals": ", ".join(f"{s['name']} {s['total']}" for s in row.standing),
        "rating": row.rating,
    }


def _seat_names(games: QuerySet[GameSummary]) -> dict[tuple[Any, int], str]:
    seats = GameSeat.objects.filter(game_id__in=games.values("pk")).values_list(
        "game_id", "seat", "player__name"
    )
    return {(game, seat): name for game, seat, name in seats}


def _best_scores(
    games: QuerySet[GameSummary], names: dict[tuple[Any, int], str]
) -> list[dict[str, Any]]:
    return [
        {
            "name": names.get((game.pk, score["seat"]), ""),
            "what": f"{labels.format_name(game.kind)} game",
            "total": score["total"],
        }
        for game in games.only("pk", "kind", "scores")
        for score in game.scores
        if isinstance(score.get("total"), int)
    ]


def _best_match_totals(matches: list[MatchStanding]) -> list[dict[str, Any]]:
    return [
        {
            "name": row["name"],
            "what": f"{labels.format_name(m.format)} match",
            "total": row["total"],
        }
        for m in matches
        for row in m.standing
        if isinstance(row.get("total"), int)
    ]


def _game_bonuses(
    games: QuerySet[GameSummary], names: dict[tuple[Any, int], str]
) -> list[tuple[str, int, str]]:
    """(kind, points, who) of each bonus of the day's games (BonusAward)."""
    awards = BonusAward.objects.filter(game__in=games).only("game_id", "seat", "kind", "points")
    return [(a.kind, a.points, names.get((a.game_id, a.seat), "")) for a in awards]


def _match_bonuses(matches: list[MatchStanding]) -> list[tuple[str, int, str]]:
    """(kind, points, who) of each match bonus (game, match, shutout bonuses of a standing)."""
    return [
        (bonus["kind"], bonus["points"], row["name"])
        for m in matches
        for row in m.standing
        for bonus in row.get("bonuses", [])
    ]


def _bonuses(awards: list[tuple[str, int, str]]) -> list[dict[str, Any]]:
    """Each kind of bonus scored: how often, the points, and by whom."""
    by_kind: dict[str, dict[str, Any]] = defaultdict(lambda: {"count": 0, "points": 0, "by": {}})
    for kind, points, name in awards:
        line = by_kind[kind]
        line["count"] += 1
        line["points"] += points
        line["by"][name] = line["by"].get(name, 0) + 1
    return [
        {
            "label": labels.bonus(kind),
            "count": line["count"],
            "points": line["points"],
            "by": ", ".join(f"{n} ({c})" if c > 1 else n for n, c in sorted(line["by"].items())),
        }
        for kind, line in sorted(by_kind.items(), key=lambda item: -item[1]["points"])
    ]


def report_html(day: date) -> str:
    return render_to_string("scoring/reports/nightly.html", report(day))
