"""The scoring pages' URLs (docs/API.md "Pages")."""

from django.urls import path

from scoring.pages import views

app_name = "scoring-pages"

urlpatterns = [
    path("matches/<uuid:pk>/", views.match_page, name="match"),
    path("matches/<uuid:pk>/lines/", views.match_line, name="match-line"),
    path("tournaments/<uuid:pk>/", views.tournament_page, name="tournament"),
    path("tournaments/<uuid:pk>/scoreboard/", views.scoreboard_page, name="scoreboard"),
    path("tournaments/<uuid:pk>/scoreboard/board/", views.scoreboard_board, name="board"),
    path(
        "tournaments/<uuid:pk>/scoreboard/table/<int:number>/",
        views.table_page,
        name="scoreboard-table",
    ),
    path(
        "tournaments/<uuid:pk>/scoreboard/table/<int:number>/board/",
        views.table_board,
        name="table-board",
    ),
]
