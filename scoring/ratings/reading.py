"""Reading the ratings: a player's, a kind's leaderboard, and those a seeding asks for.

Selectors: they read the rating rows (and the stream rows, for who may see what), never events,
and never write. A leaderboard is the same for everyone: it lists established ratings (not
provisional) of players not merged away with at least one rated result of the kind in finished
public play, as ``scoring.selectors.visible`` says it for a reader without a login. A player's
own ratings show the kinds, and the points of their history, whose play the reader may see.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any, cast

from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games.rules import registry
from games.store.journal import prepared_rows
from scoring import selectors
from scoring.models import Rating

PAGE = 50
MOST = 200


class BadCursor(ValueError):
    """A leaderboard cursor this list did not give."""


def rated_kinds() -> list[str]:
    """The game kinds rated: every kind played by two or more (solo Solitaire is not)."""
    return [kind for kind in registry.kinds() if registry.get(kind).max_seats >= 2]


def player_ratings(player_id: int, user: Any) -> list[dict[str, Any]]:
    """The player's rating in each kind the reader may see some of his rated play of, with
    its history (oldest first), by kind."""
    points = _points_seen(player_id, user)
    shown = sorted({kind for kind, *_ in points})
    rows = Rating.objects.filter(player_id=player_id, kind__in=shown).order_by("kind")
    history: dict[str, list[dict[str, Any]]] = {kind: [] for kind in shown}
    for kind, at, rating, deviation in points:
        history[kind].append({"at": at, "rating": rating, "deviation": deviation})
    return [
        {
            "kind": row.kind,
            "rating": row.rating,
            "deviation": row.deviation,
            "games": row.games,
            "provisional": row.provisional,
            "history": history[row.kind],
        }
        for row in rows
    ]


def _points_seen(player_id: int, user: Any) -> list[tuple[str, Any, int, int]]:
    """The points of his history the reader may see the play of (oldest first): a private
    match's point would say when it was played and how it went."""
    condition, params = selectors.visible_sql(user, "s")
    sql = f"""SELECT pt.kind, pt.at, pt.rating, pt.deviation FROM scoring_ratingpoint pt
        JOIN games_stream s ON s.id = pt.result_id
        WHERE pt.player_id = %s AND {condition} ORDER BY pt.position"""
    rows = prepared_rows(sql, [player_id, *params])
    return [(kind, _aware(at), rating, deviation) for kind, at, rating, deviation in rows]


def _aware(at: Any) -> datetime:
    """A raw row's time as the ORM gives it: SQLite hands back text, without a zone."""
    # A stored time always parses: the column is never null.
    when = cast(datetime, parse_datetime(at) if isinstance(at, str) else at)
    return when if timezone.is_aware(when) else timezone.make_aware(when, UTC)


# A player is listed for play anyone may read (``selectors.visible_sql`` for a visitor: finished,
# public, of no tournament or a published one): his rating counts his private play too, but a
# board listing him for it alone would tell that he played.
_BOARD_SQL = f"""SELECT r.player_id, p.name, r.rating, r.deviation, r.games, r.board
    FROM scoring_rating r JOIN games_player p ON p.id = r.player_id
    WHERE r.kind = %s AND NOT r.provisional AND r.board < %s AND p.merged_into_id IS NULL
      AND EXISTS (SELECT 1 FROM scoring_ratingpoint pt JOIN games_stream s ON s.id = pt.result_id
                  WHERE pt.player_id = r.player_id AND pt.kind = r.kind
                    AND {selectors.visible_sql(None, "s")[0]})
    ORDER BY r.board DESC
    LIMIT %s"""


def leaderboard(
    kind: str, cursor: str | None, limit: int
) -> tuple[list[dict[str, Any]], str | None]:
    """A page of the kind's leaderboard after ``cursor`` (None: the top), and the cursor of the
    next page (None after the last)."""
    after, rank = _read_cursor(cursor) if cursor else (2**63 - 1, 0)
    rows = prepared_rows(_BOARD_SQL, [kind, after, limit + 1])
    page = [
        {
            "rank": rank + number,
            "player": player,
            "name": name,
            "rating": rating,
            "deviation": deviation,
            "games": games,
        }
        for number, (player, name, rating, deviation, games, _) in enumerate(rows[:limit], 1)
    ]
    more = len(rows) > limit
    return page, _cursor(rows[limit - 1][5], rank + limit) if more else None


def _cursor(board: int, rank: int) -> str:
    return base64.urlsafe_b64encode(json.dumps([board, rank]).encode()).decode()


def _read_cursor(raw: str) -> tuple[int, int]:
    if len(raw) > 100:  # a cursor this list gives is about 40 signs; a deep one is no cursor
        raise BadCursor(raw[:100])
    try:
        board, rank = json.loads(base64.urlsafe_b64decode(raw.encode()))
    except (ValueError, TypeError, UnicodeError, binascii.Error, RecursionError):
        raise BadCursor(raw) from None
    if not all(type(v) is int and 0 <= v < 2**63 for v in (board, rank)):
        raise BadCursor(raw)
    return board, rank


def ratings_of(kind: str, players: Iterable[int]) -> dict[int, int]:
    """The players' ratings in ``kind``, established or not; a player with none is left out."""
    rows = Rating.objects.filter(kind=kind, player_id__in=list(players))
    return dict(rows.values_list("player_id", "rating"))
