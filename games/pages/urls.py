from django.contrib.auth import views as auth_views
from django.urls import path

from games.pages import tournament_tables, views
from games.pages.live import webapp
from games.pages.players import views as player_views

app_name = "pages"

urlpatterns = [
    path("", views.home, name="home"),
    # The installable app: its worker's scope is the site, so it is served from the root.
    path("sw.js", webapp.service_worker, name="service-worker"),
    path("manifest.webmanifest", webapp.manifest, name="manifest"),
    path("favicon.ico", webapp.favicon, name="favicon"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(template_name="games/pages/login.html"),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("t/<str:code>/", tournament_tables.keeper_link, name="keeper-link"),
    path("games/new/", views.game_new, name="game-new"),
    path("games/<uuid:pk>/", views.game_page, name="game"),
    path("games/<uuid:pk>/table/", views.game_table, name="game-table"),
    path("games/<uuid:pk>/moves/", views.game_move, name="game-move"),
    path("games/<uuid:pk>/advice/", views.game_advice, name="game-advice"),
    path("players/<int:pk>/", player_views.player_page, name="player"),
]
