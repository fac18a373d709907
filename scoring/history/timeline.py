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
import uuid
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import connection
from django.db.models import Q, QuerySet
from django.utils import timezone

from games.store.journal import prepared_rows
from games.store.models import GameSeat, MatchSeat, Player
from scoring import selectors
from scoring.history.json_columns import aware, json_value
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


def reader_history(player: Player, query: Query, user: Any) -> dict[str, Any]:
    """The page ``user`` may read: one statement for both kinds of rows and the seats held.

    Written as SQL on the stream ids (the read models' keys are the streams' ids), so neither
    ``games_game`` nor ``games_match`` is joined, and each part is grouped by its key with the
    player's seats aggregated, so no DISTINCT over wide rows and no query for the seats. It has
    a fixed shape per kind of reader and filters given, so on PostgreSQL it runs prepared."""
    visible, visible_params = selectors.visible_sql(user, "st")
    parts, params = [], []
    for part in (_GAMES_PAGE, _MATCHES_PAGE):
        where, where_params = _page_filters(query, part)
        parts.append(
            f"SELECT * FROM ({part.sql.format(seats=_seats_sql(), visible=visible, where=where)}"
            f" ORDER BY x.updated_at DESC, x.{part.key} DESC LIMIT %s) AS {part.name}"
        )
        params += [player.pk, *visible_params, *where_params, query.limit + 1]
    rows = sorted(
        map(_read_row, prepared_rows(" UNION ALL ".join(parts), params)),
        key=lambda row: (row["updated_at"], row["id"]),
        reverse=True,
    )
    page, more = rows[: query.limit], len(rows) > query.limit
    return {
        "player": {"id": player.pk, "name": player.name},
        "next": _encode(page[-1]) if more and page else None,
        "results": page,
    }


def player_and_fingerprint(pk: int, user: Any) -> tuple[Player, tuple[Any, ...]] | None:
    """The player's id and name, and what ``reader_history`` depends on for ``user``: the count,
    the newest activity, the versions and the streams' heads (``selectors.heads_sum``: versions
    repeat after a restore) of the rows he may see, games outside matches then
    matches (one row per seat held). Any event on one of them, and any change of what the reader
    may see, changes it (for the ETag, without building the page). One prepared statement (None:
    no such player): a history request reads nothing else before its kept answer."""
    visible, visible_params = selectors.visible_sql(user, "st")
    params = [pk, *visible_params, pk, *visible_params, pk]
    rows = prepared_rows(_PLAYER_FINGERPRINT.format(visible=visible), params)
    if not rows:
        return None
    pid, name, *games, count, last, versions, heads = rows[0]
    games_count, games_last, games_versions, games_heads = games
    player = Player.from_db(connection.alias, ["id", "name"], (pid, name))
    return player, (
        games_count,
        str(games_last),
        games_versions,
        str(games_heads),
        count,
        str(last),
        versions,
        str(heads),
    )


@dataclass(frozen=True)
class _Part:
    name: str
    key: str  # the read model's key column: the stream's id
    kind: str  # the column ``kind`` filters
    sql: str


# Both parts give the same columns: type, id, kind, status, scores (games), games, standing,
# winner, rating, warnings (matches), updated_at, seats. ``x`` is the read model's row and ``st``
# the stream (for visibility); %s: the player, the visibility's parameters, then the filters'.
_GAMES_PAGE = _Part(
    "games",
    "game_id",
    "kind",
    """SELECT 'game' AS type, x.game_id AS id, x.kind, x.status, x.scores,
        CAST(NULL AS jsonb) AS games, CAST(NULL AS jsonb) AS standing,
        CAST(NULL AS jsonb) AS winner, x.rating, CAST(NULL AS jsonb) AS warnings, x.updated_at,
        {seats} AS seats
    FROM scoring_gamesummary x
    JOIN games_gameseat seat ON seat.game_id = x.game_id AND seat.player_id = %s
    JOIN games_stream st ON st.id = x.game_id
    WHERE x.match_id IS NULL AND {visible}{where}
    GROUP BY x.game_id""",
)
_MATCHES_PAGE = _Part(
    "matches",
    "match_id",
    "format",
    """SELECT 'match' AS type, x.match_id AS id, x.format, x.status, CAST(NULL AS jsonb), x.games,
        x.standing, x.winner, x.rating, x.warnings, x.updated_at, {seats} AS seats
    FROM scoring_matchstanding x
    JOIN games_matchseat seat ON seat.match_id = x.match_id AND seat.player_id = %s
    JOIN games_stream st ON st.id = x.match_id
    WHERE {visible}{where}
    GROUP BY x.match_id""",
)
# The player's row, then the fingerprint's two aggregates over his seats (%s: the player and the
# visibility's parameters for the games, the same for the matches, then the player's row). Two
# derived tables, not LATERAL, which SQLite does not read.
_PLAYER_FINGERPRINT = f"""SELECT p.id, p.name, games.*, matches.* FROM games_player p,
    (SELECT COUNT(*), MAX(x.updated_at), SUM(x.version), {selectors.heads_sum("st.head_hash")}
        FROM scoring_gamesummary x
        JOIN games_gameseat seat ON seat.game_id = x.game_id AND seat.player_id = %s
        JOIN games_stream st ON st.id = x.game_id
        WHERE x.match_id IS NULL AND {{visible}}) AS games,
    (SELECT COUNT(*), MAX(x.updated_at), SUM(x.version), {selectors.heads_sum("st.head_hash")}
        FROM scoring_matchstanding x
        JOIN games_matchseat seat ON seat.match_id = x.match_id AND seat.player_id = %s
        JOIN games_stream st ON st.id = x.match_id
        WHERE {{visible}}) AS matches
    WHERE p.id = %s"""


def _page_filters(query: Query, part: _Part) -> tuple[str, list[Any]]:
    """The query's filters as SQL on the part's row ``x``. A date is a day in the current time
    zone (as Django's ``__date``): ``since`` from its first instant, ``until`` to the next day's."""
    sql, params = "", []
    if query.kind:
        sql += f" AND x.{part.kind} = %s"
        params.append(query.kind)
    if query.since:
        sql += " AND x.updated_at >= %s"
        params.append(_instant(_midnight(query.since)))
    if query.until and query.until < dt.date.max:
        sql += " AND x.updated_at < %s"
        params.append(_instant(_midnight(query.until + dt.timedelta(days=1))))
    if query.after:
        at, last = query.after
        sql += f" AND (x.updated_at < %s OR (x.updated_at = %s AND x.{part.key} < %s))"
        when = _instant(dt.datetime.fromisoformat(at))
        params += [when, when, _stream_id(last)]
    return sql, params


def _midnight(day: dt.date) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time()), timezone.get_current_timezone())


def _instant(value: dt.datetime) -> Any:
    if timezone.is_naive(value):  # a cursor is always written with its offset; be safe anyway
        value = timezone.make_aware(value, dt.UTC)
    return connection.ops.adapt_datetimefield_value(value)


def _stream_id(raw: str) -> Any:
    """A cursor's id (checked by ``_cursor``) as the database compares it (SQLite: hex)."""
    value = uuid.UUID(raw)
    return value.hex if connection.vendor == "sqlite" else value


def _seats_sql() -> str:
    if connection.vendor == "postgresql":
        return "string_agg(seat.seat::text, ',')"
    return "group_concat(seat.seat)"


def _read_row(row: tuple[Any, ...]) -> dict[str, Any]:
    type, id, kind, status, scores, games, standing, winner, rating, warnings, at, seats = row
    key = id if isinstance(id, uuid.UUID) else uuid.UUID(id)
    values = [key, kind, status]
    if type == "game":
        answer = _game_row((*values, json_value(scores), rating, aware(at)))
    else:
        values += [
            json_value(games),
            json_value(standing),
            json_value(winner),
            rating,
            json_value(warnings),
        ]
        answer = _match_row((*values, aware(at)))
    answer["seats"] = sorted(int(seat) for seat in str(seats).split(","))
    return answer


# --- the same history as querysets, for callers that filter with their own Q (exports) ----------


def player_history(player: Player, query: Query, visible: Q, match_visible: Q) -> dict[str, Any]:
    """``reader_history`` with visibility given as Q objects on the read models (``prefix``
    ``game__stream__`` and ``match__stream__``): the plays export adds its own conditions."""
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
    # No ordering in the parts (the seats' Meta orders them): SQLite refuses it in a union.
    held = (
        GameSeat.objects.filter(game_id__in=game_ids, player=player)
        .order_by()
        .values_list("game_id", "seat")
    )
    held = held.union(
        MatchSeat.objects.filter(match_id__in=match_ids, player=player)
        .order_by()
        .values_list("match_id", "seat"),
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
        if len(raw) > 200:  # a real cursor is about 90 signs; a deeply nested one is not
            raise ValueError(raw[:200])
        at, last = json.loads(base64.urlsafe_b64decode(raw.encode()))
        dt.datetime.fromisoformat(at)
        uuid.UUID(str(last))
        return str(at), str(last)
    except (ValueError, TypeError, UnicodeError, RecursionError):
        raise BadQuery("cursor: use the 'next' value of the previous page as it is.") from None
