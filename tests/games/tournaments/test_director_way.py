"""The director's way (issue 27), through Django's test client: the admin named for a club, its
inlines without a title on every row, tie-breaks written as people name them, and the home page's
tournaments of the day.

The browser walks the same way (the home page, the admin's documents fetched one by one) in
tests/games/pages/test_room_pages.py.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.store.models import Event, Tournament
from tests.games.tournaments.helpers import client_for, create, enter, high_low_win, pair

pytestmark = pytest.mark.django_db

# What the admin said to developers before (the words), in any case.
DEVELOPER_WORDS = ("write side", "read side", "sonneborn berger", "outboxs")


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def admin_pages(tournament_id: str) -> list[str]:
    """Every admin page a director opens: the index, each app's, each list and the first row's
    page of each, the tournament's page, its print views and its corrections. (The logins and
    API tokens are Django's and the superuser's.)"""
    pages = [reverse("admin:index")]
    for model in admin.site._registry:
        opts = model._meta
        if opts.app_label not in ("games", "scoring"):
            continue
        pages.append(reverse("admin:app_list", args=[opts.app_label]))
        pages.append(reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"))
        first = model._default_manager.order_by("pk").first()
        if first is not None:
            pages.append(
                reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[first.pk])
            )
    for name in ("change", "standings", "cards", "corrections", "enter", "keepers"):
        pages.append(reverse(f"admin:games_tournament_{name}", args=[tournament_id]))
    pages.append(reverse("admin:games_tournament_add"))
    return sorted(set(pages))


def test_the_admin_speaks_to_a_club_not_to_its_developers(
    django_capture_on_commit_callbacks: Any,
) -> None:
    # given an evening with a round played at one table, its tie-breaks Sonneborn-Berger first
    director, api = client_for("director", staff=True)
    made = create(
        api,
        name="Friday Swiss",
        format="high-low-scarney",
        system="swiss",
        rounds=3,
        tiebreaks=["sonneborn_berger", "buchholz", "points_difference"],
    )
    enter(api, made["id"], ["Ann", "Bob", "Cid", "Hal"])
    played = pair(api, made["id"])
    high_low_win(api, played["tables"][0]["match"], 0, django_capture_on_commit_callbacks)
    client = logged_in(director)

    # when the director opens every page of the admin
    for page in admin_pages(made["id"]):
        answer = client.get(page)
        assert answer.status_code == 200, page
        text = answer.content.decode().casefold()
        # then none speaks of sides, and none writes a tie-break as a key with its underscores
        assert not [w for w in DEVELOPER_WORDS if w in text], page

    # the apps and the standings say what a club says
    index = client.get(reverse("admin:index")).content.decode()
    assert "Games and tournaments" in index and "Scores and records" in index
    printed = client.get(reverse("admin:games_tournament_standings", args=[made["id"]]))
    columns = printed.content.decode()
    assert "Sonneborn-Berger" in columns and "Buchholz" in columns
    assert "Points difference" in columns
    # and the tournament page shows its game and pairing by name, its rows without a title each
    page = client.get(reverse("admin:games_tournament_change", args=[made["id"]])).content.decode()
    assert "High-Low Scarney" in page and "Swiss" in page
    assert "Hal in Friday Swiss" not in page and "round 1 table 1" not in page
    assert page.count("data-document=") > 10  # the documents, checked one by one in the browser


def test_a_director_writes_tiebreaks_as_he_reads_them() -> None:
    director = get_user_model().objects.create_user(username="dora", is_staff=True)
    client = logged_in(director)
    # the add form offers them by name
    form = client.get(reverse("admin:games_tournament_add")).content.decode()
    assert 'value="Buchholz, Sonneborn-Berger, Points difference"' in form
    # and a tournament added with names records the keys
    added = client.post(
        reverse("admin:games_tournament_add"),
        {
            "name": "Tuesday",
            "format": "high-low-scarney",
            "system": "swiss",
            "rounds": "3",
            "entry": "sheet",
            "tiebreaks": "Sonneborn-Berger, median Buchholz,points_difference",
            "seeding": "entry",
        },
    )
    tournament = Tournament.objects.get()
    assert added.status_code == 302
    created = Event.objects.get(stream_id=tournament.pk, version=1)
    assert created.data["tiebreaks"] == ["sonneborn_berger", "median_buchholz", "points_difference"]


def test_the_home_page_lists_the_days_tournaments_with_their_page_and_scoreboard() -> None:
    director, api = client_for("director", staff=True)
    tonight = create(
        api, name="Friday Swiss", format="high-low-scarney", rounds=2
    )  # entering: made today
    running = create(api, name="Winter league", format="high-low-scarney", rounds=2)
    enter(api, running["id"], ["Ann", "Bob"])
    pair(api, running["id"])
    old = create(api, name="Autumn cup", format="high-low-scarney", rounds=1)
    hidden = create(api, name="Practice evening", format="high-low-scarney", rounds=1)
    # the league began weeks ago and still runs; the cup is over; the practice is not published
    weeks_ago = timezone.now() - timedelta(days=30)
    Tournament.objects.filter(pk__in=[running["id"], old["id"]]).update(created_at=weeks_ago)
    Tournament.objects.filter(pk=old["id"]).update(status="finished")
    Tournament.objects.filter(pk=hidden["id"]).update(published=False)

    # a member logged in sees tonight's and the running league, each with its page and screen
    member = get_user_model().objects.create_user(username="kim", password="pw")
    home = logged_in(member).get("/").content.decode()
    section = home[home.index('data-role="today"') :]
    assert "Friday Swiss" in section and "Winter league" in section
    assert "Autumn cup" not in section and "Practice evening" not in section
    for made in (tonight, running):
        assert f'href="/tournaments/{made["id"]}/"' in section
        assert f'href="/tournaments/{made["id"]}/scoreboard/"' in section
    assert "/admin/" not in section  # the admin is the directors'

    # a director sees the hidden one too, and the way to run each in the admin
    mine = logged_in(director).get("/").content.decode()
    assert "Practice evening" in mine
    assert reverse("admin:games_tournament_change", args=[tonight["id"]]) in mine
    # a visitor sees no such list
    assert 'data-role="today"' not in Client().get("/").content.decode()


def test_the_users_list_leaves_table_codes_keepers_out_unless_asked(admin_client: Any) -> None:
    from django.contrib.auth import get_user_model

    from games.tournaments import creating, entries, rounds

    director = get_user_model().objects.get(username="admin")
    tournament = creating.tournament_create(
        spec={"name": "Friday Swiss", "format": "high-low-scarney", "rounds": 1}, user=director
    )
    for name in ("Ann", "Bob"):
        entries.entry_add(tournament_id=tournament.pk, spec={"name": name}, user=director)
    rounds.round_pair(tournament_id=tournament.pk, user=director)
    keeper = get_user_model().objects.get(table_code__isnull=False)
    listed = admin_client.get("/admin/auth/user/").content.decode()
    assert keeper.username not in listed and "admin" in listed
    shown = admin_client.get("/admin/auth/user/?code_keepers=only").content.decode()
    assert keeper.username in shown
