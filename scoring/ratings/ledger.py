"""The rating rows: results, ratings and their history, kept in step with the events.

A result is rated in the order of the events that decided them (``position``). When a result
comes, goes (a game taken back, a table voided) or changes, every result of its game kind from
its position on is rated again, each player starting from his rating just before it: the rows
are then exactly those a rebuild from the events gives, whatever order the appending
transactions committed in. Usually the result is the kind's latest, and rating it again is
rating it once. All of it holds the kind's lock (``lock``), taken in the appending transaction
after the stream locks and before the players' records are updated.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import connection
from django.db.models import Max

from scoring.models import Rating, RatingPoint, RatingResult
from scoring.ratings import scale
from scoring.ratings.outcomes import Outcome
from scoring.ratings.scale import Skill

# A rating row's fields besides its player and kind.
RATING_FIELDS = (
    "mu",
    "sigma",
    "rating",
    "deviation",
    "games",
    "provisional",
    "board",
    "position",
    "updated_at",
)


def lock(kind: str) -> None:
    """The kind's ratings, locked until the transaction ends (PostgreSQL; SQLite writes one
    transaction at a time)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [f"rating:{kind}"]
            )


def record(
    *, stream_id: Any, kind: str, outcome: Outcome | None, position: int, at: datetime
) -> bool:
    """Make the stream's result the one the events now give (None: no result) and rate again
    from where that changes anything; whether it did. The caller holds ``lock(kind)``."""
    stored = RatingResult.objects.filter(pk=stream_id).first()
    if outcome is None:
        if stored is None:
            return False
        replay(kind, stored.position, withdrawn=stream_id)
        return True
    wanted = {
        "kind": kind,
        "position": position,
        "at": at,
        "sides": [list(side) for side in outcome.sides],
        "ranks": list(outcome.ranks),
    }
    if stored is not None and all(getattr(stored, k) == v for k, v in wanted.items()):
        return False
    start = position if stored is None else min(position, stored.position)
    RatingResult.objects.update_or_create(stream_id=stream_id, defaults=wanted)
    replay(kind, start)
    return True


@dataclass
class Rated:
    """Ratings and points worked out by ``rate_all``: the final skill of each player (with the
    position and time of his last result) and every point, in order."""

    skills: dict[int, tuple[Skill, int, datetime]] = field(default_factory=dict)
    points: list[RatingPoint] = field(default_factory=list)


def rate_all(kind: str, results: Iterable[RatingResult], start: dict[int, Skill]) -> Rated:
    """Rate ``results`` (in position order) one after another from the skills in ``start``
    (START for a player not in it)."""
    rated = Rated()
    current = dict(start)
    for result in results:
        sides = [[current.get(p, scale.START) for p in side] for side in result.sides]
        after = scale.rate(sides, result.ranks)
        for side, skills in zip(result.sides, after, strict=True):
            for player, skill in zip(side, skills, strict=True):
                current[player] = skill
                rated.skills[player] = (skill, result.position, result.at)
                rated.points.append(_point(player, kind, result, skill))
    return rated


def _point(player: int, kind: str, result: RatingResult, skill: Skill) -> RatingPoint:
    return RatingPoint(
        player_id=player,
        kind=kind,
        result_id=result.stream_id,
        position=result.position,
        at=result.at,
        mu=skill.mu,
        sigma=skill.sigma,
        rating=skill.rating,
        deviation=skill.deviation,
        games=skill.games,
    )


def rating_row(player: int, kind: str, skill: Skill, position: int, at: datetime) -> Rating:
    return Rating(
        player_id=player,
        kind=kind,
        mu=skill.mu,
        sigma=skill.sigma,
        rating=skill.rating,
        deviation=skill.deviation,
        games=skill.games,
        provisional=skill.provisional,
        board=scale.board(skill, player),
        position=position,
        updated_at=at,
    )


def replay(kind: str, start: int, withdrawn: Any = None) -> None:
    """Rate again every result of ``kind`` from ``position`` ``start`` on, the result of the
    stream ``withdrawn`` (if given) deleted first."""
    later = RatingPoint.objects.filter(kind=kind, position__gte=start)
    touched = set(later.values_list("player_id", flat=True))
    later.delete()
    if withdrawn is not None:
        RatingResult.objects.filter(pk=withdrawn).delete()
    results = list(RatingResult.objects.filter(kind=kind, position__gte=start).order_by("position"))
    players = touched | {p for result in results for side in result.sides for p in side}
    rated = rate_all(kind, results, _skills_before(kind, start, players, touched))
    RatingPoint.objects.bulk_create(rated.points)
    rows = [rating_row(p, kind, *rated.skills[p]) for p in sorted(rated.skills)]
    Rating.objects.bulk_create(
        rows,
        update_conflicts=True,
        unique_fields=["player", "kind"],
        update_fields=list(RATING_FIELDS),
    )
    # A player whose results from ``start`` on are gone keeps his rating before them, or none.
    _restore(kind, start, touched - set(rated.skills))


def _skills_before(kind: str, start: int, players: set[int], touched: set[int]) -> dict[int, Skill]:
    """Each player's skill just before ``start``. The rating row holds it for a player with no
    point from ``start`` on (his latest is before it); the others' are their last points."""
    found = {
        row.player_id: Skill(row.mu, row.sigma, row.games)
        for row in Rating.objects.filter(kind=kind, player__in=players - touched)
    }
    for point in _last_points_before(kind, start, touched):
        found[point.player_id] = Skill(point.mu, point.sigma, point.games)
    return found


def _last_points_before(kind: str, start: int, players: set[int]) -> Iterator[RatingPoint]:
    if not players:
        return
    last = (
        RatingPoint.objects.filter(kind=kind, player__in=players, position__lt=start)
        .values("player")
        .annotate(last=Max("position"))
    )
    wanted = {(row["player"], row["last"]) for row in last}
    rows = RatingPoint.objects.filter(
        kind=kind, player__in=[p for p, _ in wanted], position__in={at for _, at in wanted}
    )
    for point in rows:
        if (point.player_id, point.position) in wanted:
            yield point


def _restore(kind: str, start: int, players: set[int]) -> None:
    """The rating rows of players left with no result from ``start`` on: as their last point
    before it, or gone if they have none."""
    if not players:
        return
    kept = list(_last_points_before(kind, start, players))
    for point in kept:
        skill = Skill(point.mu, point.sigma, point.games)
        row = rating_row(point.player_id, kind, skill, point.position, point.at)
        Rating.objects.filter(player_id=point.player_id, kind=kind).update(
            **{f: getattr(row, f) for f in RATING_FIELDS}
        )
    gone = players - {point.player_id for point in kept}
    Rating.objects.filter(kind=kind, player__in=gone).delete()
