from django.urls import path

from scoring import api

urlpatterns = [
    path("events/", api.EventFeed.as_view(), name="event-feed"),
    path("events.ndjson", api.EventFeedNdjson.as_view(), name="event-feed-ndjson"),
    path("players/<int:pk>/history/", api.PlayerHistory.as_view(), name="player-history"),
    path("matches/<uuid:pk>/history/", api.MatchHistory.as_view(), name="match-history"),
    path(
        "matches/<uuid:pk>/events.ndjson",
        api.MatchEventsNdjson.as_view(),
        name="match-events-ndjson",
    ),
    path("matches/history.csv", api.MatchHistoryCsv.as_view(), name="match-history-csv"),
    path("players/<int:pk>/plays.json", api.PlayerPlays.as_view(), name="player-plays"),
    path("players/<int:pk>/stats/", api.PlayerStats.as_view(), name="player-stats"),
    path(
        "matches/<uuid:pk>/score-sheet.csv",
        api.MatchScoreSheet.as_view(),
        {"rendering": "csv"},
        name="match-score-sheet-csv",
    ),
    path(
        "matches/<uuid:pk>/score-sheet.html",
        api.MatchScoreSheet.as_view(),
        {"rendering": "html"},
        name="match-score-sheet-html",
    ),
]
