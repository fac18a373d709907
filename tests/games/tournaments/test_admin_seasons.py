"""A club's season in the director's admin (issue 38), through Django's test client: a season made
with the admin's form, an evening added from its tournament's page (and a refused one, its
sentence shown), an evening leaving with a reason, the season closed. What the admin did is
checked in the events it recorded.
"""

from __future__ import annotations

import html
import re
import uuid
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.store.models import Event, Season, Tournament
from games.tournaments import creating, seasons
from tests.games.tournaments.test_admin import FollowingClient, landed, said

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(db: Any) -> Any:
    return get_user_model().objects.create_user(
        username="dora", password="secret-pass-1", is_staff=True
    )


@pytest.fixture
def admin_client(director: Any) -> Client:
    client = FollowingClient()
    client.force_login(director)
    return client


def evening(user: Any, name: str, format: str = "high-low-scarney") -> Tournament:
    spec = {"name": name, "format": format, "entry": "sheet", "rounds": 1}
    return creating.tournament_create(spec=spec, user=user)


def season_url(name: str, season: Season) -> str:
    return reverse(f"admin:games_season_{name}", args=[season.pk])


def tournament_url(name: str, tournament: Tournament) -> str:
    return reverse(f"admin:games_tournament_{name}", args=[tournament.pk])


def season_events(season: Season) -> list[Event]:
    return list(Event.objects.filter(stream_id=season.pk).order_by("version"))


def text_of(response: Any) -> str:
    return html.unescape(" ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split()))


def test_a_season_is_made_in_the_admin_and_listed(admin_client: Client, director: Any) -> None:
    # when a director fills the new season's form: best 8 evenings, points by place
    made = admin_client.post(
        reverse("admin:games_season_add"),
        {
            "name": "Winter 2027",
            "format": "high-low-scarney",
            "best": "8",
            "points": "10, 8, 6, 5",
            "published": "on",
        },
    )

    # then it is the service's season.created, and the admin lands on the season's page
    season = Season.objects.get()
    assert landed(made) == season_url("change", season)
    assert said(made) == ["Winter 2027 is created: add its evenings from their pages."]
    created = season_events(season)[0]
    assert created.type == "season.created"
    assert created.data == {
        "name": "Winter 2027",
        "format": "high-low-scarney",
        "best": 8,
        "points": [10.0, 8.0, 6.0, 5.0],
        "published": True,
    }
    assert created.meta["recorded_by"] == director.pk
    # and its page links the season's page and its printed standings
    page = made.content.decode()
    assert f'href="/seasons/{season.pk}/"' in page
    assert f'href="/api/v1/seasons/{season.pk}/standings.pdf"' in page
    assert f'href="/api/v1/seasons/{season.pk}/standings.csv"' in page
    assert "No evening yet" in text_of(made)

    # and the list shows its settings in words
    listed = text_of(admin_client.get(reverse("admin:games_season_changelist")))
    assert "Winter 2027" in listed and "best 8 evenings" in listed and "10, 8, 6, 5" in listed

    # a form for any game, every evening, "field" points
    any_game = admin_client.post(
        reverse("admin:games_season_add"),
        {"name": "Open", "format": "", "best": "", "points": "field"},
    )
    assert said(any_game) == ["Open is created: add its evenings from their pages."]
    opened = season_events(Season.objects.get(name="Open"))[0].data
    assert (opened["format"], opened["best"], opened["points"], opened["published"]) == (
        None,
        None,
        "field",
        False,
    )
    # and points the admin cannot read are the form's error, nothing recorded
    bad = admin_client.post(
        reverse("admin:games_season_add"), {"name": "Bad", "format": "", "points": "ten, 8"}
    )
    assert 'Write "field", or numbers separated by commas: 10, 8, 6, 5.' in text_of(bad)
    assert not Season.objects.filter(name="Bad").exists()


def test_an_evening_joins_from_its_page_a_refused_one_hears_why_then_leaves_and_it_closes(
    admin_client: Client, director: Any
) -> None:
    tuesday = evening(director, "Tuesday evening")
    season = seasons.season_create(
        spec={"name": "Winter 2027", "format": "high-low-scarney"}, user=director
    )

    # the tournament's page offers "Add to a season"
    page = admin_client.get(tournament_url("change", tuesday))
    assert "In no season" in text_of(page)
    assert f'href="{tournament_url("season", tuesday)}"' in page.content.decode()

    # when the director adds it
    added = admin_client.post(
        tournament_url("season", tuesday), {"season": str(season.pk), "reason": ""}
    )

    # then the season recorded tournament.added, and the page names its season with a link
    assert landed(added) == tournament_url("change", tuesday)
    assert said(added) == ["Tuesday evening is an evening of Winter 2027."]
    assert season_events(season)[-1].type == "tournament.added"
    assert season_events(season)[-1].data == {"tournament": str(tuesday.pk)}
    tuesday.refresh_from_db()
    assert tuesday.season_id == season.pk
    shown = added.content.decode()
    assert f'href="{season_url("change", season)}" data-role="season-link">Winter 2027' in shown
    assert "Leave the season" in shown
    # and the season's page lists the evening with a link to it
    season_page = admin_client.get(season_url("change", season))
    assert f'href="{tournament_url("change", tuesday)}">Tuesday evening</a>' in (
        season_page.content.decode()
    )

    # a refused add (another game than the season's, 422) shows the service's sentence
    scarnie = evening(director, "Scarnie night", format="scarnie")
    refused = admin_client.post(tournament_url("season", scarnie), {"season": str(season.pk)})
    assert landed(refused) is None
    assert said(refused) == ["Winter 2027 is played at high-low-scarney; Scarnie night at scarnie."]
    # and one already in this season (409) too
    again = admin_client.post(tournament_url("season", tuesday), {"season": str(season.pk)})
    assert said(again) == [
        "Tuesday evening is already an evening of this season: an evening counts in one."
    ]
    assert [e.type for e in season_events(season)] == ["season.created", "tournament.added"]

    # leaving asks for a reason, then records it
    no_reason = admin_client.post(tournament_url("leave_season", tuesday), {"reason": ""})
    assert said(no_reason) == ["Tuesday evening: say why it leaves Winter 2027."]
    left = admin_client.post(
        tournament_url("leave_season", tuesday), {"reason": "played at another club"}
    )
    assert said(left) == ["Tuesday evening has left Winter 2027: it counts no more there."]
    removed = season_events(season)[-1]
    assert (removed.type, removed.data) == (
        "tournament.removed",
        {"tournament": str(tuesday.pk), "reason": "played at another club"},
    )
    tuesday.refresh_from_db()
    assert tuesday.season_id is None

    # the season closed from its page, with its reason
    closing = admin_client.get(season_url("close", season))
    assert "Close the season" in closing.content.decode()
    closed = admin_client.post(season_url("close", season), {"reason": "winter is over"})
    assert landed(closed) == season_url("change", season)
    assert said(closed) == ["Winter 2027 is closed: its evenings stay as they are."]
    assert (season_events(season)[-1].type, season_events(season)[-1].data) == (
        "season.closed",
        {"reason": "winter is over"},
    )
    season.refresh_from_db()
    assert season.closed
    # and a closed season is offered to no evening any more
    offered = admin_client.get(tournament_url("season", tuesday)).content.decode()
    assert str(season.pk) not in offered
    # a second close is refused with the service's sentence (409 season.closed)
    twice = admin_client.post(season_url("close", season), {"reason": ""})
    assert said(twice) == ["Winter 2027 is closed: its evenings stay as they are."]


def test_the_seasons_page_shows_its_standings_leaders(
    admin_client: Client, director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from tests.games.tournaments.helpers import client_for, create, enter, high_low_win, pair

    _user, api = client_for("clerk", staff=True)
    made = create(api, name="Evening one", format="high-low-scarney", rounds=1)
    enter(api, made["id"], ["Ann", "Bob"])
    table = pair(api, made["id"])["tables"][0]
    seat = [s["name"] for s in table["seats"]].index("Bob")
    high_low_win(api, table["match"], seat, django_capture_on_commit_callbacks)
    season = seasons.season_create(spec={"name": "Winter 2027"}, user=director)
    seasons.tournament_add(season_id=season.pk, tournament_id=uuid.UUID(made["id"]), user=director)

    page = text_of(admin_client.get(season_url("change", season)))

    assert "Place Player Points Evenings Counted 1 Bob 2 1 1 2 Ann 1 1 1" in page
