"""Who may read a tournament's play: one rule for the tournament, its matches and their games.

A published tournament is read by anyone; an unpublished one by its creator, the keepers of its
tables, its entrants linked to the reader in the register, and the directors (API.md "Who may
read"). Its matches and their games point at it (``Stream.in_tournament``, set when they are
made) and are read as it is, on top of their own rule (finished and public, or their recorders):
every list, detail, export, history, statistic, page and document asks this module, as a
condition on streams (``play_readable``, and ``play_readable_sql`` for statements written by
hand) or for one stream (``play_hidden``). Each reads the tournament's ``published`` flag where
it asks, so publishing or unpublishing changes what every reader sees at once: nothing is
copied onto the streams, nothing is kept.

A season is read as its tournaments are (``season_readable``, ``season_hidden``): a published one
by anyone, an unpublished one by its creator and the directors; its evenings each by this rule.
"""

from __future__ import annotations

import functools
from typing import Any

from django.db import connection
from django.db.models import Exists, OuterRef, Q

from games.play.permissions import is_director
from games.store.models import Match, Season, Stream, Tournament, TournamentEntry

# The reader's id where the SQL twin is compiled once; replaced by the reader's own in its
# parameters. Never a user's id (ids start at 1).
_READER = -314159


def _reader_cases(user_id: int) -> Q:
    """The members who may read an unpublished tournament, for the tournament's row: its
    creator, the keepers of its tables, its entrants linked to the reader."""
    keeps = Match.objects.filter(tournament=OuterRef("pk"), stream__keepers=user_id)
    entered = TournamentEntry.objects.filter(
        Q(player__user=user_id) | Q(player__merged_into__user=user_id), tournament=OuterRef("pk")
    )
    return Q(stream__created_by=user_id) | Q(Exists(keeps)) | Q(Exists(entered))


def tournament_readable(user: Any) -> Q:
    """The tournaments ``user`` may read, as a condition on their rows."""
    published = Q(published=True)
    if user is None or not user.is_authenticated:
        return published
    if is_director(user):
        return Q()
    return published | _reader_cases(user.pk)


def tournament_hidden(user: Any, tournament_id: Any, published: bool) -> bool:
    """``tournament_readable`` for one tournament whose ``published`` flag is read already:
    no query for a published one or a director."""
    if published:
        return False
    if user is None or not user.is_authenticated:
        return True
    if is_director(user):
        return False
    return not Tournament.objects.filter(_reader_cases(user.pk), pk=tournament_id).exists()


def play_readable(user: Any, prefix: str) -> Q:
    """The games and matches whose tournament ``user`` may read (those of no tournament
    included), ``prefix`` leading to the stream, as in ``scoring.selectors.visible``."""
    field = f"{prefix}in_tournament"
    outside = Q(**{f"{field}__isnull": True}) | Q(**{f"{field}__published": True})
    if user is None or not user.is_authenticated:
        return outside
    if is_director(user):
        return Q()
    mine = Tournament.objects.filter(_reader_cases(user.pk), published=False)
    return outside | Q(**{f"{field}__in": mine.values("stream_id")})


def play_readable_sql(user: Any, stream: str) -> tuple[str, list[Any]]:
    """``play_readable`` as an SQL condition (and its parameters) on the ``games_stream`` row
    aliased ``stream``, for statements written by hand (histories, the match list, ratings)."""
    outside = (
        f"NOT EXISTS (SELECT 1 FROM {Tournament._meta.db_table} hidden"
        f" WHERE hidden.stream_id = {stream}.in_tournament_id AND NOT hidden.published)"
    )
    if user is None or not user.is_authenticated:
        return outside, []
    if is_director(user):
        return "1 = 1", []
    sql, params = _mine_sql(connection.vendor)
    given = [user.pk if value == _READER else value for value in params]
    return f"({outside} OR {stream}.in_tournament_id IN ({sql}))", given


@functools.cache
def _mine_sql(vendor: str) -> tuple[str, tuple[Any, ...]]:
    """The unpublished tournaments a member may read, compiled once from ``_reader_cases``
    (compiling the ORM's query on every request cost more than running it)."""
    mine = Tournament.objects.filter(_reader_cases(_READER), published=False)
    sql, params = mine.values("stream_id").query.sql_with_params()
    return sql, tuple(params)


def play_hidden(user: Any, stream: Stream) -> bool:
    """Whether this game's or match's tournament is one ``user`` may not read: no query for a
    stream of no tournament, nor for one read with its tournament (``select_related``, or
    ``with_tournament``), unless it is unpublished and the reader a member."""
    tournament_id = stream.in_tournament_id
    if tournament_id is None:
        return False
    cached = stream.in_tournament if Stream.in_tournament.is_cached(stream) else None
    if cached is not None:
        published = cached.published
    else:
        rows = Tournament.objects.filter(pk=tournament_id).values_list("published", flat=True)
        published = bool(rows.first())
    return tournament_hidden(user, tournament_id, published)


def with_tournament(stream: Stream, published: bool | None) -> Stream:
    """``stream`` holding its tournament's ``published`` flag, read with it by hand (a statement
    joining ``games_tournament``), so ``play_hidden`` asks nothing more."""
    if stream.in_tournament_id is not None and published is not None:
        tournament = Tournament(stream_id=stream.in_tournament_id, published=published)
        Stream.in_tournament.field.set_cached_value(stream, tournament)
    return stream


# --- a season -----------------------------------------------------------------------------------


def season_readable(user: Any) -> Q:
    """The seasons ``user`` may read: published ones; unpublished ones for their creator and
    the directors."""
    if user is None or not user.is_authenticated:
        return Q(published=True)
    if is_director(user):
        return Q()
    return Q(published=True) | Q(stream__created_by=user.pk)


def season_hidden(user: Any, season: Season) -> bool:
    """Whether ``user`` may not read ``season``: a query for its creator only when it is
    unpublished and the reader no director."""
    if season.published or is_director(user):
        return False
    creator = Stream.objects.filter(pk=season.pk).values_list("created_by", flat=True).first()
    return season_hidden_given(user, False, creator)


def season_hidden_given(user: Any, published: bool, created_by: int | None) -> bool:
    """``season_hidden`` from the season's flag and creator, read already."""
    if published or is_director(user):
        return False
    return user is None or not user.is_authenticated or created_by != user.pk
