"""Read-side queries: the read models the API lists, filtered for who is asking.

Selectors read read models only, never Event rows, and never write; they return querysets or
plain data, and the views shape the HTTP answer (pagination, JSON).
"""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.db.models import Exists, OuterRef, Q, QuerySet

from games.play.permissions import is_director, is_recorder
from games.store import journal
from games.store.models import (
    GameSeat,
    MatchSeat,
    Player,
    Stream,
)
from games.tournaments import reading
from scoring.models import GameSummary, MatchStanding


def visible(user: Any, prefix: str) -> Q:
    """What ``user`` may list, ``prefix`` leading to the stream: anyone sees finished public
    games and matches whose tournament (if any) he may read (``tables.reading``); a game or
    match in progress only its recorders and the directors see."""
    finished_public = Q(**{f"{prefix}is_public": True}) & ~Q(**{f"{prefix}status": "in_progress"})
    readable = finished_public & reading.play_readable(user, prefix)
    if user is None or not user.is_authenticated:
        return readable
    if is_director(user):
        return Q()
    kept = Stream.keepers.through.objects.filter(stream_id=OuterRef(f"{prefix}id"), user=user)
    return readable | Q(**{f"{prefix}created_by": user}) | Q(Exists(kept))


def visible_sql(user: Any, stream: str) -> tuple[str, list[Any]]:
    """``visible`` as an SQL condition (and its parameters) on the ``games_stream`` row aliased
    ``stream``, for statements written by hand (the player's history): the same three cases."""
    play, play_params = reading.play_readable_sql(user, stream)
    readable = f"({stream}.is_public AND {stream}.status <> 'in_progress' AND {play})"
    if user is None or not user.is_authenticated:
        return readable, play_params
    if is_director(user):
        return "1 = 1", []
    kept = (
        f"EXISTS (SELECT 1 FROM games_stream_keepers kept"
        f" WHERE kept.stream_id = {stream}.id AND kept.user_id = %s)"
    )
    condition = f"({readable} OR {stream}.created_by_id = %s OR {kept})"
    return condition, [*play_params, user.pk, user.pk]


def stream_readable(user: Any, stream: Stream) -> bool:
    """Whether ``user`` may read this game or match by its id: anyone a finished public one
    whose tournament (if any) he may read (``tables.reading.play_hidden``); any other its
    recorders (``permissions.is_recorder``: its creator, its keepers, for a game of a match the
    match's), the directors, and the players seated in it whose register record is linked to
    ``user``. Lists stay narrower (``visible``)."""
    public = stream.is_public and stream.status != Stream.Status.IN_PROGRESS
    if public and not reading.play_hidden(user, stream):
        return True
    if user is None or not user.is_authenticated:
        return False
    return is_recorder(user, stream.pk) or _seated(user, stream)


def _seated(user: Any, stream: Stream) -> bool:
    mine = Q(player__user=user) | Q(player__merged_into__user=user)
    if stream.category == Stream.Category.MATCH:
        return MatchSeat.objects.filter(mine, match_id=stream.pk).exists()
    return GameSeat.objects.filter(mine, game_id=stream.pk).exists()


def tournament_readable(user: Any) -> Q:
    """The tournaments ``user`` may read (the rule is the tournaments': ``tables.reading``)."""
    return reading.tournament_readable(user)


def tournament_hidden(user: Any, tournament_id: Any, published: bool) -> bool:
    """``tournament_readable`` for one tournament whose ``published`` flag is read already:
    no query for a published one or a director."""
    return reading.tournament_hidden(user, tournament_id, published)


def member_number_shown(user: Any, player: Player) -> bool:
    """A member number is the directors' and its own player's (the register's user link)."""
    if user is None or not user.is_authenticated:
        return False
    return player.user_id == user.pk or is_director(user)


def players_listed(user: Any) -> Q:
    """``player_listed`` as a condition on the register's rows, for the register's list."""
    if user is not None and user.is_authenticated:
        return Q()
    games = GameSummary.objects.filter(
        visible(user, "game__stream__"), game__seats__player=OuterRef("pk")
    )
    matches = MatchStanding.objects.filter(
        visible(user, "match__stream__"), match__seats__player=OuterRef("pk")
    )
    return Q(Exists(games)) | Q(Exists(matches))


def player_listed(user: Any, player_id: int) -> bool:
    """Whether ``user`` may see this player at all: with a login, yes; without one, only a player
    of some finished public game or match, so that counting ids lists no member's name."""
    if user is not None and user.is_authenticated:
        return True
    games = GameSummary.objects.filter(
        visible(user, "game__stream__"), game__seats__player=player_id
    )
    matches = MatchStanding.objects.filter(
        visible(user, "match__stream__"), match__seats__player=player_id
    )
    return games.exists() or matches.exists()


def game_rows(user: Any) -> QuerySet[GameSummary]:
    """The game summaries ``user`` may see (the list's filters narrow them further)."""
    return GameSummary.objects.filter(visible(user, "game__stream__"))


def match_rows(user: Any) -> QuerySet[MatchStanding]:
    """The match standings ``user`` may see (the list's filters narrow them further)."""
    return MatchStanding.objects.filter(visible(user, "match__stream__"))


def heads_sum(column: str) -> str:
    """An SQL aggregate of the chain heads in ``column`` (``games_stream.head_hash``): beside a
    count and a sum of versions, it makes a fingerprint of several streams that changes whenever
    the content of any of them does. Versions alone repeat after a restore from a backup: a game
    may reach the version it had before with other events, and an answer kept, or a client's
    ETag, would then name the lost events. On PostgreSQL, the sum of each head's first 64 bits
    (one cast a row, no sort); on SQLite (``make run``), the heads themselves joined."""
    if connection.vendor == "postgresql":
        return f"COALESCE(SUM(('x' || LEFT({column}, 16))::bit(64)::bigint), 0)"
    return f"COALESCE(GROUP_CONCAT({column}), '')"


def games_fingerprint(match_id: Any) -> tuple[int, int, str]:
    """How many games a match has, the sum of their versions and of their heads (``heads_sum``):
    it changes whenever any of them records an event, so a report showing their bonuses can be
    tagged by it."""
    # A prepared statement: it is read before every match report, kept or not.
    ((count, versions, heads),) = journal.prepared_rows(
        _GAMES_FINGERPRINT, [journal.uuid_param(match_id)]
    )
    return int(count), int(versions or 0), str(heads)


_GAMES = f"""SELECT COUNT(*) AS count, SUM(x.version) AS versions,
        {heads_sum("gs.head_hash")} AS heads
    FROM scoring_gamesummary x JOIN games_stream gs ON gs.id = x.game_id"""
_GAMES_FINGERPRINT = f"{_GAMES} WHERE x.match_id = %s"


def match_with_games(match_id: Any) -> tuple[Stream, tuple[int, int, str]] | None:
    """A match's stream row with ``games_fingerprint``, by one prepared statement; None if there
    is no such match. A match report's request reads nothing else before its kept answer: as
    many round trips as reading one row by its id."""
    if connection.vendor != "postgresql":  # SQLite gives raw text for uuids and dates
        found = Stream.objects.filter(pk=match_id, category="match").first()
        return None if found is None else (found, games_fingerprint(match_id))
    rows = journal.prepared_rows(_MATCH_WITH_GAMES, [journal.uuid_param(match_id)])
    if not rows:
        return None
    *values, published, count, versions, heads = rows[0]
    stream = Stream.from_db(connection.alias, list(_STREAM_COLUMNS), values)
    return reading.with_tournament(stream, published), (int(count), int(versions or 0), str(heads))


# Every column of the row (the snapshot, under 2 KB for a match, spares a report built anew a
# second query).
_STREAM_COLUMNS = (
    "id",
    "category",
    "kind",
    "version",
    "status",
    "snapshot",
    "snapshot_version",
    "head_hash",
    "is_public",
    "in_tournament_id",
    "created_by_id",
    "created_at",
)
# The match's tournament's ``published`` too (null for a club match): its read rule asks it.
_MATCH_WITH_GAMES = f"""SELECT {", ".join(f"s.{c}" for c in _STREAM_COLUMNS)}, t.published,
        g.count, g.versions, g.heads
    FROM games_stream s LEFT JOIN games_tournament t ON t.stream_id = s.in_tournament_id
    CROSS JOIN LATERAL ({_GAMES} WHERE x.match_id = s.id) g
    WHERE s.id = %s AND s.category = 'match'"""
