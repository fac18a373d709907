"""The lists of the home page, read from the game summaries (read models, never Event rows)."""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone

from games.play.permissions import is_director
from games.store.models import (
    Game,
    Match,
    Season,
    Stream,
    TableCode,
    Tournament,
    TournamentTable,
)
from games.tournaments.reading import season_readable
from scoring import selectors
from scoring.documents import labels
from scoring.models import GameSummary

LISTED = 30


def games_in_progress(user: Any) -> list[dict[str, Any]]:
    """The games in progress that ``user`` created or keeps, the latest moved first."""
    mine = Q(game__stream__created_by=user) | Q(game__stream__keepers=user)
    rows = GameSummary.objects.filter(mine, status=Stream.Status.IN_PROGRESS).distinct()
    return _listed(rows.order_by("-updated_at"))


def recent_results() -> list[dict[str, Any]]:
    """The latest finished public games, for visitors and keepers alike (as a visitor may read
    them: none of an unpublished tournament)."""
    rows = GameSummary.objects.filter(
        selectors.visible(None, "game__stream__"), status=Stream.Status.FINISHED
    ).order_by("-updated_at")
    return _listed(rows)


def _listed(rows: Any) -> list[dict[str, Any]]:
    rows = rows.select_related("game").prefetch_related("game__seats__player")[:LISTED]
    return [_row(summary) for summary in rows]


def _row(summary: GameSummary) -> dict[str, Any]:
    names = [seat.player.name for seat in summary.game.seats.all()]
    totals = [score.get("total") for score in summary.scores or []]
    return {
        "id": summary.game_id,
        "kind": labels.format_name(summary.kind),
        "players": ", ".join(names),
        "totals": " – ".join(str(t) for t in totals if t is not None),
        "rating": summary.rating,
        "updated_at": summary.updated_at,
    }


def tables_today(user: Any) -> list[dict[str, Any]]:
    """The tables of running tournaments' current rounds that ``user`` keeps (keeper_assign adds
    him to the match stream's keepers), each with its match and the game being played."""
    rows = TournamentTable.objects.filter(
        match__stream__keepers=user,
        tournament__status="running",
        round_number=F("tournament__current_round"),
    ).select_related("tournament")
    return [_table_row(table) for table in rows.distinct()[:LISTED]]


def _table_row(table: TournamentTable) -> dict[str, Any]:
    playing = Game.objects.filter(match_id=table.match_id, stream__status=Stream.Status.IN_PROGRESS)
    game = playing.order_by("-number").values_list("pk", "number").first()
    return {
        "tournament": table.tournament.name,
        "round": table.round_number,
        "table": table.number,
        "players": " v ".join(table.players),
        "match": table.match_id,
        "game": game,
    }


def tournaments_today(user: Any) -> list[dict[str, Any]]:
    """The tournaments of the day that ``user`` may read: those still running (from any day), and
    those created today or with a round paired today (its matches start then), so an evening
    being entered, and one finished an hour ago, are there too."""
    today = timezone.localdate()
    paired_today = Match.objects.filter(tournament=OuterRef("pk"), created_at__date=today)
    rows = Tournament.objects.filter(selectors.tournament_readable(user)).filter(
        Q(status="running") | Q(created_at__date=today) | Q(Exists(paired_today))
    )
    director = is_director(user)
    return [
        {
            "id": t.pk,
            "name": t.name,
            "format": labels.label(t.format),
            "status": labels.label(t.status),
            "round": t.current_round,
            "director": director,
        }
        for t in rows.order_by("-created_at")[:LISTED]
    ]


def open_scoreboards() -> list[dict[str, Any]]:
    """Running published tournaments: the scoreboards a visitor may watch."""
    rows = Tournament.objects.filter(published=True, status="running").order_by("-created_at")
    return [{"id": t.pk, "name": t.name, "round": t.current_round} for t in rows[:LISTED]]


def current_seasons(user: Any) -> list[dict[str, Any]]:
    """The seasons under way (not closed) that ``user`` may read, the latest made first."""
    rows = Season.objects.filter(season_readable(user), closed=False).order_by("-created_at")
    return [{"id": s.pk, "name": s.name} for s in rows[:LISTED]]


def code_table(user: Any) -> Any:
    """The match a table code's keeper records at, while his code is live; None for anyone
    else (games.tournaments.keepers)."""
    if not user.is_authenticated:
        return None
    return (
        TableCode.objects.filter(keeper_id=user.pk, revoked_at=None, expired_at=None)
        .values_list("match_id", flat=True)
        .first()
    )
