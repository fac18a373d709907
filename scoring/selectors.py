"""Read-side queries: the read models the API lists, filtered for who is asking.

Selectors read read models only, never Event rows, and never write; they return querysets or
plain data, and the views shape the HTTP answer (pagination, JSON).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Sum

from games.models import Stream
from games.permissions import is_director
from scoring.models import GameSummary, MatchStanding


def visible(user: Any, prefix: str) -> Q:
    """What ``user`` may list, ``prefix`` leading to the stream: anyone sees finished public
    games and matches; a game or match in progress only its recorders and the directors see."""
    finished_public = Q(**{f"{prefix}is_public": True}) & ~Q(**{f"{prefix}status": "in_progress"})
    if user is None or not user.is_authenticated:
        return finished_public
    if is_director(user):
        return Q()
    kept = Stream.keepers.through.objects.filter(stream_id=OuterRef(f"{prefix}id"), user=user)
    return finished_public | Q(**{f"{prefix}created_by": user}) | Q(Exists(kept))


def visible_sql(user: Any, stream: str) -> tuple[str, list[Any]]:
    """``visible`` as an SQL condition (and its parameters) on the ``games_stream`` row aliased
    ``stream``, for statements written by hand (the player's history): the same three cases."""
    finished_public = f"({stream}.is_public AND {stream}.status <> 'in_progress')"
    if user is None or not user.is_authenticated:
        return finished_public, []
    if is_director(user):
        return "1 = 1", []
    kept = (
        f"EXISTS (SELECT 1 FROM games_stream_keepers kept"
        f" WHERE kept.stream_id = {stream}.id AND kept.user_id = %s)"
    )
    return f"({finished_public} OR {stream}.created_by_id = %s OR {kept})", [user.pk, user.pk]


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


def games_fingerprint(match_id: Any) -> tuple[int, int]:
    """How many games a match has and the sum of their versions: it changes whenever any of
    them records an event, so a report showing their bonuses can be tagged by it."""
    found = GameSummary.objects.filter(match_id=match_id).aggregate(
        count=Count("pk"), versions=Sum("version")
    )
    return found["count"], found["versions"] or 0
