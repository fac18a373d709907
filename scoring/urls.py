from django.urls import path

from scoring import api, report_views

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
    path(
        "tournaments/<uuid:pk>/events.ndjson",
        api.TournamentEventsNdjson.as_view(),
        name="tournament-events-ndjson",
    ),
    path("matches/history.csv", api.MatchHistoryCsv.as_view(), name="match-history-csv"),
    path("players/<int:pk>/plays.json", api.PlayerPlays.as_view(), name="player-plays"),
    path("players/<int:pk>/stats/", api.PlayerStats.as_view(), name="player-stats"),
    # Printed documents (scoring/report_views.py): stored renderings, 202 while one renders.
    *[
        path(
            f"matches/<uuid:pk>/score-sheet.{fmt}",
            report_views.MatchScoreSheet.as_view(),
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
                report_views.RoundCards.as_view(),
                {"rendering": fmt},
                name=f"tournament-cards-{fmt}",
            ),
            path(
                f"tournaments/<uuid:pk>/standings.{fmt}",
                report_views.Standings.as_view(),
                {"rendering": fmt},
                name=f"tournament-standings-{fmt}",
            ),
            path(
                f"tournaments/<uuid:pk>/players/<int:player>/slip.{fmt}",
                report_views.PlayerSlip.as_view(),
                {"rendering": fmt},
                name=f"tournament-slip-{fmt}",
            ),
            path(
                f"reports/nightly/<str:day>.{fmt}",
                report_views.NightlyFile.as_view(),
                {"rendering": fmt},
                name=f"nightly-report-{fmt}",
            ),
        )
    ],
    path("reports/nightly/", report_views.NightlyList.as_view(), name="nightly-reports"),
]
