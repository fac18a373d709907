"""The API's routes under /api/v1/ (docs/API.md): recording, reading, documents, webhooks.

The recording routes come first: they take most requests, and URLs are tried in order.
"""

from django.urls import path

from games.api import matches, players, reports, streams, tokens, webhooks
from games.api.reads import exports, history, ratings
from games.api.tournaments import directing, seasons
from games.api.tournaments import reads as tournament_reads

urlpatterns = [
    path("games/", streams.GameList.as_view(), name="game-list"),
    path("games/<uuid:pk>/", streams.GameDetail.as_view(), name="game-detail"),
    path("games/<uuid:pk>/events/", streams.GameEvents.as_view(), name="game-events"),
    path("games/<uuid:pk>/analysis/", streams.GameAnalysis.as_view(), name="game-analysis"),
    path("games/<uuid:pk>/pot/", streams.GamePot.as_view(), name="game-pot"),
    path("games/<uuid:pk>/keepers/", streams.StreamKeepers.as_view(), name="game-keepers"),
    path(
        "games/<uuid:pk>/keepers/<str:username>/",
        streams.StreamKeeper.as_view(),
        name="game-keeper",
    ),
    path("matches/", matches.MatchList.as_view(), name="match-list"),
    path("matches/<uuid:pk>/keepers/", matches.MatchKeepers.as_view(), name="match-keepers"),
    path(
        "matches/<uuid:pk>/keepers/<str:username>/",
        matches.MatchKeeper.as_view(),
        name="match-keeper",
    ),
    path("matches/<uuid:pk>/", matches.MatchDetail.as_view(), name="match-detail"),
    path("matches/<uuid:pk>/events/", matches.MatchEvents.as_view(), name="match-events"),
    path("players/", players.PlayerList.as_view(), name="player-list"),
    path("players/<int:pk>/", players.PlayerDetail.as_view(), name="player-detail"),
    path("players/<int:pk>/merge/", players.PlayerMerge.as_view(), name="player-merge"),
    path("tournaments/", directing.TournamentList.as_view(), name="tournament-list"),
    path(
        "tournaments/<uuid:pk>/",
        tournament_reads.TournamentDetail.as_view(),
        name="tournament-detail",
    ),
    path(
        "tournaments/<uuid:pk>/entries/",
        directing.TournamentEntries.as_view(),
        name="tournament-entries",
    ),
    path(
        "tournaments/<uuid:pk>/rounds/",
        directing.TournamentRounds.as_view(),
        name="tournament-rounds",
    ),
    path(
        "tournaments/<uuid:pk>/rounds/<int:number>/",
        tournament_reads.TournamentRound.as_view(),
        name="tournament-round",
    ),
    path(
        "tournaments/<uuid:pk>/rounds/<int:number>/tables/<int:table>/code/",
        directing.TournamentTableCode.as_view(),
        name="tournament-table-code",
    ),
    path(
        "tournaments/<uuid:pk>/keepers/",
        directing.TournamentKeepers.as_view(),
        name="tournament-keepers",
    ),
    path(
        "tournaments/<uuid:pk>/standings/",
        tournament_reads.TournamentStandings.as_view(),
        name="tournament-standings",
    ),
    path(
        "tournaments/<uuid:pk>/settlement/",
        tournament_reads.TournamentSettlement.as_view(),
        name="tournament-settlement",
    ),
    path(
        "tournaments/<uuid:pk>/events/",
        directing.TournamentEvents.as_view(),
        name="tournament-events",
    ),
    # A club's seasons: their evenings, standings and close.
    path("seasons/", seasons.SeasonList.as_view(), name="season-list"),
    path("seasons/<uuid:pk>/", seasons.SeasonDetail.as_view(), name="season-detail"),
    path(
        "seasons/<uuid:pk>/standings/",
        seasons.SeasonStandings.as_view(),
        name="season-standings",
    ),
    path(
        "seasons/<uuid:pk>/tournaments/",
        seasons.SeasonTournaments.as_view(),
        name="season-tournaments",
    ),
    path(
        "seasons/<uuid:pk>/tournaments/<uuid:tournament>/",
        seasons.SeasonTournament.as_view(),
        name="season-tournament",
    ),
    path("seasons/<uuid:pk>/close/", seasons.SeasonClose.as_view(), name="season-close"),
    # The read side: the feed, histories, exports, statistics.
    path("events/", history.EventFeed.as_view(), name="event-feed"),
    path("events.ndjson", history.EventFeedNdjson.as_view(), name="event-feed-ndjson"),
    path("players/<int:pk>/history/", history.PlayerHistory.as_view(), name="player-history"),
    path("matches/<uuid:pk>/history/", history.MatchHistory.as_view(), name="match-history"),
    path(
        "matches/<uuid:pk>/events.ndjson",
        exports.MatchEventsNdjson.as_view(),
        name="match-events-ndjson",
    ),
    path(
        "tournaments/<uuid:pk>/events.ndjson",
        exports.TournamentEventsNdjson.as_view(),
        name="tournament-events-ndjson",
    ),
    path("matches/history.csv", exports.MatchHistoryCsv.as_view(), name="match-history-csv"),
    path("players/<int:pk>/plays.json", exports.PlayerPlays.as_view(), name="player-plays"),
    path("players/<int:pk>/stats/", exports.PlayerStats.as_view(), name="player-stats"),
    path("players/<int:pk>/ratings/", ratings.PlayerRatings.as_view(), name="player-ratings"),
    path("ratings/<str:kind>/", ratings.Leaderboard.as_view(), name="leaderboard"),
    path(
        "players/<int:pk>/games.ndjson",
        exports.PlayerGamesNdjson.as_view(),
        name="player-games-ndjson",
    ),
    # Printed documents (scoring/documents/reports.py): stored renderings, 202 while one renders.
    *[
        path(
            f"matches/<uuid:pk>/score-sheet.{fmt}",
            reports.MatchScoreSheet.as_view(),
            {"rendering": fmt},
            name=f"match-score-sheet-{fmt}",
        )
        for fmt in ("csv", "html", "pdf")
    ],
    *[
        route
        for fmt in ("html", "pdf")
        for route in (
            path(
                f"tournaments/<uuid:pk>/rounds/<int:number>/cards.{fmt}",
                reports.RoundCards.as_view(),
                {"rendering": fmt},
                name=f"tournament-cards-{fmt}",
            ),
            path(
                f"tournaments/<uuid:pk>/standings.{fmt}",
                reports.Standings.as_view(),
                {"rendering": fmt},
                name=f"tournament-standings-{fmt}",
            ),
            path(
                f"tournaments/<uuid:pk>/players/<int:player>/slip.{fmt}",
                reports.PlayerSlip.as_view(),
                {"rendering": fmt},
                name=f"tournament-slip-{fmt}",
            ),
            path(
                f"reports/nightly/<str:day>.{fmt}",
                reports.NightlyFile.as_view(),
                {"rendering": fmt},
                name=f"nightly-report-{fmt}",
            ),
        )
    ],
    path("reports/nightly/", reports.NightlyList.as_view(), name="nightly-reports"),
    # A user's own API tokens. Any segment is an id, so that a method it does not take is 405
    # whatever the id (as the webhooks').
    path("tokens/", tokens.TokenList.as_view(), name="token-list"),
    path("tokens/<str:pk>/", tokens.TokenDetail.as_view(), name="token-detail"),
    # Webhooks (directors).
    path("webhooks/", webhooks.WebhookList.as_view(), name="webhook-list"),
    path("webhooks/<str:pk>/", webhooks.WebhookDetail.as_view(), name="webhook-detail"),
    path(
        "webhooks/<str:pk>/deliveries/",
        webhooks.WebhookDeliveries.as_view(),
        name="webhook-deliveries",
    ),
]
