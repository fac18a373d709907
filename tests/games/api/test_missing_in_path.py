"""Whatever a path names and is not there is 404 with a code, never a 422 or a 200: a game,
match, player, tournament or season's id, and what it names below it (a keeper to drop, a
round, a table, a player's slip, an evening of a season), a token, a webhook, a rated kind, a
night's report. A body's reference to a row is the rules' 422 (docs/ERRORS.md), not these."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import resolve
from rest_framework.test import APIClient

from games.access.models import ApiToken
from games.api import urls
from tests.api_seed import Seeded, seed

pytestmark = pytest.mark.django_db

NOWHERE = uuid.UUID(int=1)


def missing(seeded: Seeded) -> list[tuple[str, str]]:
    """(method, path) of every route, each with one path parameter naming nothing."""
    game, match, cup, season = seeded.game, seeded.match, seeded.tournament, seeded.season
    cards = [f"/api/v1/tournaments/{cup}/rounds/9/cards.{fmt}" for fmt in ("html", "pdf")]
    slips = [f"/api/v1/tournaments/{cup}/players/999999/slip.{fmt}" for fmt in ("html", "pdf")]
    nights = [f"/api/v1/reports/nightly/2001-01-01.{fmt}" for fmt in ("html", "pdf")]
    return [
        ("delete", f"/api/v1/games/{game}/keepers/kim/"),
        ("delete", f"/api/v1/games/{game}/keepers/nobody/"),
        ("delete", f"/api/v1/matches/{match}/keepers/kim/"),
        ("delete", f"/api/v1/matches/{match}/keepers/nobody/"),
        ("get", f"/api/v1/games/{NOWHERE}/"),
        ("get", f"/api/v1/games/{NOWHERE}/keepers/"),
        ("delete", f"/api/v1/games/{NOWHERE}/keepers/kim/"),
        ("get", f"/api/v1/matches/{NOWHERE}/"),
        ("get", "/api/v1/players/999999/"),
        ("post", "/api/v1/players/999999/merge/"),
        ("get", f"/api/v1/tournaments/{NOWHERE}/"),
        ("get", f"/api/v1/tournaments/{cup}/rounds/9/"),
        ("post", f"/api/v1/tournaments/{cup}/rounds/9/tables/1/code/"),
        ("delete", f"/api/v1/tournaments/{cup}/rounds/9/tables/1/code/"),
        ("post", f"/api/v1/tournaments/{cup}/rounds/1/tables/9/code/"),
        ("delete", f"/api/v1/tournaments/{cup}/rounds/1/tables/9/code/"),
        *[("get", path) for path in cards + slips + nights],
        ("get", f"/api/v1/seasons/{NOWHERE}/"),
        ("delete", f"/api/v1/seasons/{season}/tournaments/{NOWHERE}/"),
        ("delete", f"/api/v1/seasons/{NOWHERE}/tournaments/{cup}/"),
        ("delete", "/api/v1/tokens/999999/"),
        ("delete", "/api/v1/tokens/not-an-id/"),
        ("get", "/api/v1/webhooks/999999/"),
        ("delete", "/api/v1/webhooks/999999/"),
        ("get", "/api/v1/webhooks/999999/deliveries/"),
        ("get", "/api/v1/webhooks/not-an-id/"),
        ("get", "/api/v1/ratings/no-such-game/"),
    ]


@pytest.fixture
def director() -> tuple[Any, APIClient]:
    user = get_user_model().objects.create_user(username="director", is_staff=True)
    get_user_model().objects.create_user(username="kim")  # a user, but no keeper anywhere
    _token, key = ApiToken.objects.issue(user, name="walk")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return user, client


def test_every_missing_path_resource_is_404_with_a_code(director: tuple[Any, APIClient]) -> None:
    user, client = director
    seeded = seed(user)
    answers = {}
    # A body that would do, so that only the path is wrong (a merge's ``into`` is there).
    merge = {"into": seeded.player, "reason": "the same person"}
    for method, path in missing(seeded):
        body = merge if path.endswith("/merge/") else None
        answer = getattr(client, method)(path, body, format="json")
        json = answer["Content-Type"].startswith("application/json")
        code = answer.json().get("code") if json else None
        answers[(method, path)] = (answer.status_code, code)
    wrong = {where: got for where, got in answers.items() if got[0] != 404 or not got[1]}
    assert not wrong, wrong
    # A stranger who may not drop keepers learns no more than that (403 before 404).
    stranger = APIClient()
    stranger.force_authenticate(get_user_model().objects.get(username="kim"))
    refused = stranger.delete(f"/api/v1/games/{seeded.game}/keepers/nobody/")
    assert (refused.status_code, refused.json()["code"]) == (403, "permission.not_the_creator")


def test_the_walk_names_every_route_with_a_named_resource_below_its_id() -> None:
    """Every route of games/api/urls.py with a second path parameter, or one that is not a
    row's id (a username, a day, a kind), is in the walk above."""
    seeded = Seeded(NOWHERE, NOWHERE, NOWHERE, NOWHERE, 1, NOWHERE, NOWHERE)
    walked = {resolve(path).url_name for _method, path in missing(seeded)}
    named = {
        route.name
        for route in urls.urlpatterns
        if len(route.pattern.converters) > 1
        or set(route.pattern.converters) - {"pk"}
        or route.name in ("token-detail", "webhook-detail", "webhook-deliveries")
    }
    assert named and named <= walked, named - walked
