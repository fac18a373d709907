from django.urls import path

from games import api

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
]
