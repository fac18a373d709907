"""What a player's page reads, for one reader, through the functions the API answers with.

Who may see the player is the API's player detail (``selectors.players_listed``); what is listed
of his play is what his history, stats and ratings show that reader (``selectors.visible``); his
tournaments are those the reader may read (``selectors.tournament_readable``), each placed by its
own standings (``games.tournaments.shapes.standings_json``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import Http404

from games.store import folding
from games.store.models import GameSeat, Player, Tournament, TournamentEntry
from games.tournaments.core import state as ts
from games.tournaments.core.rounds import planned_rounds
from games.tournaments.shapes import standings_json
from scoring import selectors
from scoring.history import json_columns, stats, timeline
from scoring.ratings import reading as ratings

RECENT = 20  # games and matches listed, newest first
TOURNAMENTS = 10  # the latest tournaments entered


@dataclass(frozen=True)
class Entered:
    """One tournament the player entered: its row, his label in it, its standings' figures."""

    tournament: Tournament
    label: str
    withdrawn: bool
    standings: dict[str, Any]
    rounds: int | None


def listed_player(user: Any, pk: int) -> Player:
    """The player, if ``user`` may see him (as ``GET /api/v1/players/{id}/``); else 404."""
    if not 0 < pk < 2**63:  # past a bigint the database would refuse the id, not miss it
        raise Http404("There is no such player.")
    found = Player.objects.filter(selectors.players_listed(user), pk=pk).first()
    if found is None:
        raise Http404("There is no such player.")
    return found


def listed_ids(user: Any, ids: list[int]) -> set[int]:
    """Which of these players ``user`` may see, so a page links only the pages that open."""
    if user is not None and user.is_authenticated:
        return set(ids)  # everyone, with a login (``selectors.players_listed``)
    rows = Player.objects.filter(selectors.players_listed(user), pk__in=ids)
    return set(rows.values_list("pk", flat=True))


def recent_play(player: Player, user: Any) -> list[dict[str, Any]]:
    """His latest matches and games outside matches, newest first (his history's first page)."""
    query = timeline.Query(kind=None, since=None, until=None, after=None, limit=RECENT)
    page = timeline.reader_history(player, query, user)
    rows: list[dict[str, Any]] = json_columns.decoded(page["results"])
    return rows


def seat_names(rows: list[dict[str, Any]]) -> dict[str, dict[int, str]]:
    """The names at each game of ``rows`` (a game's summary has scores by seat, not names)."""
    ids = [row["id"] for row in rows if row["type"] == "game"]
    names: dict[str, dict[int, str]] = {}
    held = GameSeat.objects.filter(game_id__in=ids).order_by()
    for game, seat, name in held.values_list("game_id", "seat", "player__name"):
        names.setdefault(str(game), {})[seat] = name
    return names


def statistics(player: Player, user: Any) -> dict[str, Any]:
    """His games and matches per kind, and head to head (``GET .../stats/``)."""
    return stats.player_stats(
        player,
        selectors.visible(user, "game__stream__"),
        selectors.visible(user, "match__stream__"),
    )


def player_ratings(player: Player, user: Any) -> list[dict[str, Any]]:
    """His rating per kind with its history (``GET .../ratings/``)."""
    return ratings.player_ratings(player.pk, user)


def tournaments_entered(player: Player, user: Any) -> list[Entered]:
    """The latest tournaments he entered that ``user`` may read, newest first."""
    entries = (
        TournamentEntry.objects.filter(
            player=player,
            tournament__in=Tournament.objects.filter(selectors.tournament_readable(user)),
        )
        .select_related("tournament__stream")
        .order_by("-tournament__created_at")[:TOURNAMENTS]
    )
    return [_entered(entry.tournament, player.pk) for entry in entries]


def _entered(tournament: Tournament, player: int) -> Entered:
    state: ts.TournamentState = folding.load(tournament.stream).state
    entry = next((e for e in state.entries if e.player == player), None)
    return Entered(
        tournament=tournament,
        label=state.labels().get(player, ""),
        withdrawn=entry is not None and entry.withdrawn_after is not None,
        standings=standings_json(state),
        rounds=planned_rounds(state),
    )
