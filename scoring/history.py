"""A player's history (API.md): his matches and his games outside matches, newest first.

One list of two kinds of rows, ordered by last activity, so a reader sees his evening as it went;
a match row carries its games. Paging is by a cursor on (last activity, id), which no insert of
older rows can shift; ``kind`` filters by game kind (a match by the kind of its games) and
``since``/``until`` by the date of last activity, both inclusive.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import connection
from django.db.models import F, Q, QuerySet

from games.models import GameSeat, MatchSeat, Player
from scoring.models import GameSummary, MatchStanding

PAGE = 50

_Row = TypeVar("_Row", GameSummary, MatchStanding)


class BadQuery(ValueError):
    """A query parameter that cannot be read; the message names it."""


@dataclass(frozen=True)
class Query:
    kind: str | None
    since: dt.date | None
    until: dt.date | None
    after: tuple[str, str] | None  # (updated_at ISO, id) of the last row already seen
    limit: int


def read_query(params: Any) -> Query:
    return Query(
        kind=params.get("kind") or None,
        since=_date(params, "since"),
        until=_date(params, "until"),
        after=_cursor(params.get("cursor")),
        limit=_limit(params.get("limit")),
    )


def player_history(player: Player, query: Query, visible: Q, match_visible: Q) -> dict[str, Any]:
    games = _games(player, query).filter(visible)
    matches = _matches(player, query).filter(match_visible)
    rows = sorted(
        [
            *map(_game_row, games.values_list(*_GAME_COLUMNS)[: query.limit + 1]),
            *map(_match_row, matches.values_list(*_MATCH_COLUMNS)[: query.limit + 1]),
        ],
        key=lambda row: (row["updated_at"], row["id"]),
        reverse=True,
    )
    page, more = rows[: query.limit], len(rows) > query.limit
    _name_seats(page, player)
    return {
        "player": {"id": player.pk, "name": player.name},
        "next": _encode(page[-1]) if more and page else None,
        "results": page,
    }


def fingerprint(player: Player, visible: Q, match_visible: Q) -> tuple[Any, ...]:
    """What the history's answer depends on: the count, the newest activity and the versions of
    the rows the reader may see, games outside matches then matches. Any event on one of them,
    and any change of what the reader may see, changes it (for the ETag, without building the
    page). Both aggregates go in one query: one round trip, one statement to plan."""
    games = GameSummary.objects.filter(visible, game__seats__player=player, match__isnull=True)
    matches = MatchStanding.objects.filter(match_visible, match__seats__player=player)
    parts: list[Any] = []
    sql: list[str] = []
    for rows in (games, matches):
        inner, params = (
            rows.order_by().annotate(at=F("updated_at"), v=F("version")).values_list("at", "v")
        ).query.sql_with_params()
        sql.append(f"(SELECT COUNT(*), MAX(at), SUM(v) FROM ({inner}) AS rows)")
        parts += params
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {sql[0]} AS games, {sql[1]} AS matches", parts)
        games_count, games_last, games_versions, count, last, versions = cursor.fetchone()
    return (games_count, str(games_last), games_versions, count, str(last), versions)


def _games(player: Player, query: Query) -> QuerySet[GameSummary]:
    rows = GameSummary.objects.filter(game__seats__player=player, match__isnull=True)
    if query.kind:
        rows = rows.filter(kind=query.kind)
    return _window(rows, query, "game_id").order_by("-updated_at", "-game_id").distinct()


def _matches(player: Player, query: Query) -> QuerySet[MatchStanding]:
    rows = MatchStanding.objects.filter(match__seats__player=player)
    if query.kind:
        rows = rows.filter(format=query.kind)
    return _window(rows, query, "match_id").order_by("-updated_at", "-match_id").distinct()


def _window(rows: QuerySet[_Row], query: Query, key: str) -> QuerySet[_Row]:
    if query.since:
        rows = rows.filter(updated_at__date__gte=query.since)
    if query.until:
        rows = rows.filter(updated_at__date__lte=query.until)
    if query.after:
        at, last = query.after
        rows = rows.filter(Q(updated_at__lt=at) | Q(updated_at=at, **{f"{key}__lt": last}))
    return rows


# The columns a row shows, read as tuples: no model instances, and nothing the page leaves out.
_GAME_COLUMNS = ("game_id", "kind", "status", "scores", "rating", "updated_at")
_MATCH_COLUMNS = (
    "match_id",
    "format",
    "status",
    "games",
    "standing",
    "winner",
    "rating",
    "warnings",
    "updated_at",
)


def _game_row(row: tuple[Any, ...]) -> dict[str, Any]:
    game_id, kind, status, scores, rating, updated_at = row
    return {
        "type": "game",
        "id": str(game_id),
        "kind": kind,
        "status": status,
        "scores": scores,
        "rating": rating,
        "url": f"/api/v1/games/{game_id}/",
        "updated_at": updated_at.isoformat(),
    }


def _match_row(row: tuple[Any, ...]) -> dict[str, Any]:
    match_id, format, status, games, standing, winner, rating, warnings, updated_at = row
    return {
        "type": "match",
        "id": str(match_id),
        "kind": format,
        "status": status,
        "games": games,
        "standing": standing,
        "winner": winner,
        "rating": rating,
        "warnings": warnings,
        "url": f"/api/v1/matches/{match_id}/",
        "updated_at": updated_at.isoformat(),
    }


def _name_seats(rows: list[dict[str, Any]], player: Player) -> None:
    """Each row says which seat(s) the player held."""
    game_ids = [row["id"] for row in rows if row["type"] == "game"]
    match_ids = [row["id"] for row in rows if row["type"] == "match"]
    # Both kinds' seats in one query (a part with no ids is left out of the union).
    held = GameSeat.objects.filter(game_id__in=game_ids, player=player).values_list(
        "game_id", "seat"
    )
    held = held.union(
        MatchSeat.objects.filter(match_id__in=match_ids, player=player).values_list(
            "match_id", "seat"
        ),
        all=True,
    )
    seats: dict[str, list[int]] = {}
    for stream_id, seat in held:
        seats.setdefault(str(stream_id), []).append(seat)
    for row in rows:
        row["seats"] = sorted(seats.get(row["id"], []))


def _date(params: Any, name: str) -> dt.date | None:
    raw = params.get(name)
    if not raw:
        return None
    try:
        return dt.date.fromisoformat(raw)
    except ValueError:
        raise BadQuery(f"{name}: give a date as YYYY-MM-DD, not {raw!r}.") from None


def _limit(raw: Any) -> int:
    if raw is None:
        return PAGE
    if not (isinstance(raw, str) and raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= 200:
        raise BadQuery("limit: give a whole number from 1 to 200.")
    return int(raw)


def _encode(row: dict[str, Any]) -> str:
    raw = json.dumps([row["updated_at"], row["id"]]).encode()
    return base64.urlsafe_b64encode(raw).decode()


def _cursor(raw: Any) -> tuple[str, str] | None:
    if not raw:
        return None
    try:
        at, last = json.loads(base64.urlsafe_b64decode(raw.encode()))
        dt.datetime.fromisoformat(at)
        return str(at), str(last)
    except (ValueError, TypeError, UnicodeError):
        raise BadQuery("cursor: use the 'next' value of the previous page as it is.") from None
