from django.urls import path

from games import api, tournament_api

urlpatterns = [
    path("games/", api.GameList.as_view(), name="game-list"),
    path("games/<uuid:pk>/", api.GameDetail.as_view(), name="game-detail"),
    path("games/<uuid:pk>/events/", api.GameEvents.as_view(), name="game-events"),
    path("games/<uuid:pk>/analysis/", api.GameAnalysis.as_view(), name="game-analysis"),
    path("games/<uuid:pk>/pot/", api.GamePot.as_view(), name="game-pot"),
    path("games/<uuid:pk>/keepers/", api.StreamKeepers.as_view(), name="game-keepers"),
    path("games/<uuid:pk>/keepers/<str:username>/", api.StreamKeeper.as_view(), name="game-keeper"),
    path("matches/", api.MatchList.as_view(), name="match-list"),
    path("matches/<uuid:pk>/keepers/", api.MatchKeepers.as_view(), name="match-keepers"),
    path(
        "matches/<uuid:pk>/keepers/<str:username>/",
        api.MatchKeeper.as_view(),
        name="match-keeper",
    ),
    path("matches/<uuid:pk>/", api.MatchDetail.as_view(), name="match-detail"),
    path("matches/<uuid:pk>/events/", api.MatchEvents.as_view(), name="match-events"),
    path("players/", tournament_api.PlayerList.as_view(), name="player-list"),
    path("players/<int:pk>/", tournament_api.PlayerDetail.as_view(), name="player-detail"),
    path("players/<int:pk>/merge/", tournament_api.PlayerMerge.as_view(), name="player-merge"),
    path("tournaments/", tournament_api.TournamentList.as_view(), name="tournament-list"),
    path(
        "tournaments/<uuid:pk>/",
        tournament_api.TournamentDetail.as_view(),
        name="tournament-detail",
    ),
    path(
        "tournaments/<uuid:pk>/entries/",
        tournament_api.TournamentEntries.as_view(),
        name="tournament-entries",
    ),
    path(
        "tournaments/<uuid:pk>/rounds/",
        tournament_api.TournamentRounds.as_view(),
        name="tournament-rounds",
    ),
    path(
        "tournaments/<uuid:pk>/rounds/<int:number>/",
        tournament_api.TournamentRound.as_view(),
        name="tournament-round",
    ),
    path(
        "tournaments/<uuid:pk>/keepers/",
        tournament_api.TournamentKeepers.as_view(),
        name="tournament-keepers",
    ),
    path(
        "tournaments/<uuid:pk>/standings/",
        tournament_api.TournamentStandings.as_view(),
        name="tournament-standings",
    ),
    path(
        "tournaments/<uuid:pk>/settlement/",
        tournament_api.TournamentSettlement.as_view(),
        name="tournament-settlement",
    ),
    path(
        "tournaments/<uuid:pk>/events/",
        tournament_api.TournamentEvents.as_view(),
        name="tournament-events",
    ),
]
