"""The match list's pages for a reader, as statements written by hand (``GET /matches/``).

The list is read most often (the club's front page, every client's refresh). Its queryset
(standings joined to their streams under the visibility condition, and for a filter through
``games_match``) cost more to build and compile than to run, and its jsonb columns were decoded
only to be encoded again. ``VisibleStandings`` answers DRF's cursor pagination as a queryset
would (``order_by`` and ``filter`` on ``updated_at``, a slice) with a prepared statement giving
each row's key (id, version, time), the filters written from the FilterSet's checked values;
``rows_of`` then reads the page's whole rows by those keys, unless the answer is kept for them
(games/api/answer_cache.py), and passes the JSON columns through as ``JsonText``. tests/scoring
check both against the querysets they replace, page by page and for every kind of reader.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from django.db import connection
from django.utils import timezone

from games.store import journal
from scoring.history import json_columns
from scoring.models import MatchStanding
from scoring.selectors import visible_sql

_COLUMNS = (
    "SELECT ms.match_id, ms.format, ms.status, ms.standing, ms.winner, ms.rating, ms.warnings,"
    " ms.updated_at, ms.version FROM scoring_matchstanding ms"
)
# A page's keys: what its rows are and which version of each (games/api/answer_cache.py), with
# the stream's head: a version is reached again by other events after a restore from a backup.
KEYS = ("match_id", "version", "updated_at")
_KEYS = (
    "SELECT ms.match_id, ms.version, ms.updated_at, s.head_hash FROM scoring_matchstanding ms"
    " JOIN games_stream s ON s.id = ms.match_id"
)
_BOUNDS = {"updated_at__lt": "<", "updated_at__gt": ">"}


class VisibleStandings:
    """The match standings ``user`` may see, ordered by ``updated_at`` as the paginator asks."""

    model = MatchStanding  # the paginator checks a cursor's position against its field

    def __init__(
        self,
        user: Any,
        descending: bool = True,
        bound: tuple[str, Any] | None = None,
        filters: dict[str, Any] | None = None,
    ) -> None:
        self._user = user
        self._descending = descending
        self._bound = bound
        self._filters = filters or {}

    def order_by(self, *fields: str) -> VisibleStandings:
        if fields not in (("-updated_at",), ("updated_at",)):
            raise ValueError(f"the match list is ordered by updated_at only, not {fields}")
        descending = fields[0].startswith("-")
        return self._with(descending=descending)

    def filter(self, **lookup: Any) -> VisibleStandings:
        ((name, position),) = lookup.items()
        when = MatchStanding._meta.get_field("updated_at").to_python(position)
        # As the ORM binds it: SQLite compares text, written without the zone
        bound = connection.ops.adapt_datetimefield_value(when)
        return self._with(bound=(_BOUNDS[name], bound))

    def _with(self, **changed: Any) -> VisibleStandings:
        values = {
            "descending": self._descending,
            "bound": self._bound,
            "filters": self._filters,
        }
        return VisibleStandings(self._user, **{**values, **changed})

    def __getitem__(self, window: slice) -> list[dict[str, Any]]:
        visible, params = visible_sql(self._user, "s")
        sql = f"{_KEYS} WHERE {visible}"
        where, where_params = filter_sql(self._filters)
        sql += where
        params += where_params
        if self._bound is not None:
            sql += f" AND ms.updated_at {self._bound[0]} %s"
            params.append(self._bound[1])
        order = "DESC" if self._descending else "ASC"
        sql += f" ORDER BY ms.updated_at {order} LIMIT %s OFFSET %s"
        params += [window.stop - window.start, window.start]
        rows = journal.prepared_rows(sql, params)
        return [_key(row) for row in rows]


def filter_sql(filters: dict[str, Any]) -> tuple[str, list[Any]]:
    """The match list's filters (``scoring.filters.MatchFilter``'s values, read and checked by
    it) as SQL on the standing ``ms``: the FilterSet's own query went through ``games_match``
    for every row and was compiled on every request. A date is a day in the current time zone,
    as Django's ``__date`` takes it: ``since`` from its first instant, ``until`` to the next
    day's."""
    sql, params = "", []
    if filters.get("format"):
        sql += " AND ms.format = %s"
        params.append(filters["format"])
    if filters.get("status"):
        sql += " AND ms.status = %s"
        params.append(filters["status"])
    if filters.get("player") is not None:
        sql += (
            " AND EXISTS (SELECT 1 FROM games_matchseat seat"
            " WHERE seat.match_id = ms.match_id AND seat.player_id = %s)"
        )
        params.append(int(filters["player"]))
    if filters.get("tournament") is not None:
        sql += (
            " AND EXISTS (SELECT 1 FROM games_match m"
            " WHERE m.stream_id = ms.match_id AND m.tournament_id = %s)"
        )
        params.append(journal.uuid_param(filters["tournament"]))
    if filters.get("since"):
        sql += " AND ms.updated_at >= %s"
        params.append(_midnight(filters["since"]))
    if filters.get("until") and filters["until"] < dt.date.max:
        sql += " AND ms.updated_at < %s"
        params.append(_midnight(filters["until"] + dt.timedelta(days=1)))
    return sql, params


def _midnight(day: dt.date) -> Any:
    at = timezone.make_aware(dt.datetime.combine(day, dt.time()), timezone.get_current_timezone())
    return connection.ops.adapt_datetimefield_value(at)


def rows_of(keys: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], bool]:
    """The whole rows of a page read by its keys (``VisibleStandings``), in
    the keys' order, and whether each is still at the version its key names (if not, the
    page is newer than its keys and is not kept under them)."""
    if not keys:
        return [], True
    ids = [key["match_id"] for key in keys]
    if connection.vendor == "postgresql":
        sql, params = f"{_COLUMNS} WHERE ms.match_id = ANY(%s)", [ids]
    else:
        sql = f"{_COLUMNS} WHERE ms.match_id IN ({', '.join(['%s'] * len(ids))})"
        params = [journal.uuid_param(match_id) for match_id in ids]
    found = {row["match_id"]: row for row in map(_row, journal.prepared_rows(sql, params))}
    rows = [found[key["match_id"]] for key in keys if key["match_id"] in found]
    same = len(rows) == len(keys) and all(
        (row["version"], row["updated_at"]) == (key["version"], key["updated_at"])
        for row, key in zip(rows, keys, strict=True)
    )
    return rows, same


def _key(row: tuple[Any, ...]) -> dict[str, Any]:
    match_id, version, updated_at, head = row
    return {
        "match_id": _uuid(match_id),
        "version": version,
        "updated_at": json_columns.aware(updated_at),
        "head": head,
    }


def _uuid(value: Any) -> uuid.UUID:
    # SQLite hands a uuid back as its hex text
    return value if isinstance(value, uuid.UUID) else uuid.UUID(value)


def _row(row: tuple[Any, ...]) -> dict[str, Any]:
    match_id, format, status, standing, winner, rating, warnings, updated_at, version = row
    return {
        "match_id": _uuid(match_id),
        "format": format,
        "status": status,
        "standing": json_columns.json_value(standing),
        "winner": json_columns.json_value(winner),
        "rating": rating,
        "warnings": json_columns.json_value(warnings),
        "updated_at": json_columns.aware(updated_at),
        "version": version,
    }
