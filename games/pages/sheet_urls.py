"""The scoring pages' URLs (docs/API.md "Pages")."""

from django.urls import path

from games.pages import sheet_views, tournament_tables
from games.pages.seasons import views as season_views

app_name = "scoring-pages"

urlpatterns = [
    path("matches/<uuid:pk>/", sheet_views.match_page, name="match"),
    path("matches/<uuid:pk>/lines/", sheet_views.match_line, name="match-line"),
    path("matches/<uuid:pk>/confirm/", tournament_tables.confirm, name="match-confirm"),
    path("matches/<uuid:pk>/next-game/", tournament_tables.next_game, name="match-next-game"),
    path("seasons/<uuid:pk>/", season_views.season_page, name="season"),
    path("tournaments/<uuid:pk>/", sheet_views.tournament_page, name="tournament"),
    path("tournaments/<uuid:pk>/scoreboard/", sheet_views.scoreboard_page, name="scoreboard"),
    path("tournaments/<uuid:pk>/scoreboard/board/", sheet_views.scoreboard_board, name="board"),
    path(
        "tournaments/<uuid:pk>/scoreboard/table/<int:number>/",
        sheet_views.table_page,
        name="scoreboard-table",
    ),
    path(
        "tournaments/<uuid:pk>/scoreboard/table/<int:number>/board/",
        sheet_views.table_board,
        name="table-board",
    ),
]
