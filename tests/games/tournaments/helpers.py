"""What the tournament tests share: a director's client and the steps of an evening over the API."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games.access.models import ApiToken

HL_WIN = [34, 0]  # a High-Low game won by the first seat: 34 (Appendix C.3); three win a match


def client_for(username: str, *, staff: bool = False) -> tuple[Any, APIClient]:
    user = get_user_model().objects.create_user(username=username, password="pw", is_staff=staff)
    _token, key = ApiToken.objects.issue(user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return user, client


def create(api: APIClient, **spec: Any) -> dict[str, Any]:
    body = {"name": "Tuesday club evening", "entry": "sheet", **spec}
    response = api.post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()  # type: ignore[no-any-return]


def enter(api: APIClient, tournament: str, names: list[str]) -> list[int]:
    players = []
    for name in names:
        response = api.post(
            f"/api/v1/tournaments/{tournament}/entries/", {"name": name}, format="json"
        )
        assert response.status_code == 201, response.json()
        players.append(next(e["player"] for e in response.json()["entries"] if e["name"] == name))
    return players


def pair(api: APIClient, tournament: str, **body: Any) -> dict[str, Any]:
    response = api.post(f"/api/v1/tournaments/{tournament}/rounds/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()  # type: ignore[no-any-return]


def sheet_line(api: APIClient, match: str, scores: list[int]) -> Any:
    body = {"id": str(uuid.uuid4()), "type": "game.scored", "data": {"scores": scores}}
    return api.post(f"/api/v1/matches/{match}/events/", body, format="json")


def play_sheet(api: APIClient, match: str, lines: list[list[int]], capture: Any) -> None:
    """Enter a whole sheet; the match's close (settlement, then its tournament result) runs on
    commit, as the outbox sends it."""
    with capture(execute=True):
        for scores in lines:
            response = sheet_line(api, match, scores)
            assert response.status_code == 201, response.json()


def high_low_win(api: APIClient, match: str, seat: int, capture: Any) -> None:
    line = HL_WIN if seat == 0 else list(reversed(HL_WIN))
    play_sheet(api, match, [line] * 3, capture)


def correction(api: APIClient, tournament: str, type: str, data: dict[str, Any]) -> Any:
    body = {"id": str(uuid.uuid4()), "type": type, "data": data}
    return api.post(f"/api/v1/tournaments/{tournament}/events/", body, format="json")


def standings(api: APIClient, tournament: str, **params: Any) -> dict[str, Any]:
    response = api.get(f"/api/v1/tournaments/{tournament}/standings/", params)
    assert response.status_code == 200, response.json()
    return response.json()  # type: ignore[no-any-return]
