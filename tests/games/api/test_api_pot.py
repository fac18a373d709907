"""The pot of a dice game over HTTP: ``GET /api/v1/games/{id}/pot/`` (API.md, RULES.md 7.3)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

FIXTURE = Path(__file__).parents[2] / "fixtures" / "sheet_straight_dice_b5.json"


def start(api: APIClient, kind: str = "straight-scarney-dice", **body: Any) -> dict[str, Any]:
    seats = [{"name": name} for name in ("Ann", "Bob", "Cy")]
    response = api.post("/api/v1/games/", {"kind": kind, "seats": seats, **body}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def record(api: APIClient, game: dict[str, Any], type: str, **data: Any) -> tuple[str, Any]:
    event_id = str(uuid.uuid4())
    body = {"id": event_id, "type": type, "data": data}
    return event_id, api.post(f"/api/v1/games/{game['id']}/events/", body, format="json")


def pot(api: APIClient, game: dict[str, Any]) -> dict[str, Any]:
    response = api.get(f"/api/v1/games/{game['id']}/pot/")
    assert response.status_code == 200, response.json()
    return response.json()  # type: ignore[no-any-return]


def test_the_pot_lists_every_movement_with_the_event_that_made_it(api: APIClient) -> None:
    # given a game of three with an ante of 2: the antes come with game.started
    game = start(api, ruleset={"ante_chips": 2})
    assert game["pot"] == {"balance": 6, "nets": [-2, -2, -2]}
    assert game["legal_events"] is None and game["dice"]["in_cup"] == 5
    started = api.get(f"/api/v1/games/{game['id']}/events/").json()["results"][0]["id"]
    ledger = pot(api, game)
    assert [(m["kind"], m["seat"], m["chips"], m["event"]) for m in ledger["movements"]] == [
        ("ante", 0, 2, started),
        ("ante", 1, 2, started),
        ("ante", 2, 2, started),
    ]
    # when Ann doubles down, throws, and Bob throws Big Scarney
    doubled, answer = record(api, game, "double_down.called")
    assert answer.status_code == 201 and answer.json()["game"]["pot"]["balance"] == 7
    record(api, game, "dice.thrown", faces=["1", "3", "4", "6", "6"])
    record(api, game, "shooter.stood")
    big, answer = record(api, game, "dice.thrown", faces=["3", "3", "3", "3", "3"])
    assert answer.json()["game"]["status"] == "finished"
    # then the double-down and the win each name their event, and the chips balance
    ledger = pot(api, game)
    assert [(m["kind"], m["seat"], m["chips"], m["event"]) for m in ledger["movements"][3:]] == [
        ("double_down", 0, 1, doubled),
        ("win", 1, -7, big),
    ]
    assert ledger["movements"][-1]["type"] == "dice.thrown"
    assert ledger["balance"] == 0 and ledger["nets"] == [-3, 5, -2]
    assert sum(ledger["nets"]) + ledger["balance"] == 0


def test_a_take_back_removes_its_movements(api: APIClient) -> None:
    game = start(api)
    record(api, game, "double_down.called")
    assert [m["kind"] for m in pot(api, game)["movements"]] == ["ante"] * 3 + ["double_down"]
    _, answer = record(api, game, "move.undone", reason="called by mistake")
    assert answer.status_code == 201 and answer.json()["game"]["pot"]["balance"] == 3
    ledger = pot(api, game)
    assert [m["kind"] for m in ledger["movements"]] == ["ante"] * 3
    assert ledger["nets"] == [-1, -1, -1]


def test_a_partnership_pot_is_divided_between_the_partners(api: APIClient) -> None:
    seats = [{"name": name} for name in ("Ann", "Bob", "Cy", "Di")]
    body = {"kind": "partnership-straight-scarney-dice", "seats": seats, "setup": {}}
    game = api.post("/api/v1/games/", body, format="json").json()
    assert [side["seats"] for side in game["sides"]] == [[0, 2], [1, 3]]
    record(api, game, "dice.thrown", faces=["D", "D", "D", "D", "D"])
    ledger = pot(api, game)
    assert [(m["kind"], m["seat"], m["chips"]) for m in ledger["movements"][4:]] == [
        ("win", 0, -2),
        ("win", 2, -2),
    ]
    assert ledger["nets"] == [1, -1, 1, -1]


def test_a_refused_throw_answers_422_with_its_code(api: APIClient) -> None:
    game = start(api)
    _, answer = record(api, game, "dice.thrown", faces=["1", "2", "3", "4", "5"])
    assert answer.status_code == 422 and answer.json()["code"] == "throw.bad_face"
    _, answer = record(api, game, "shooter.stood")
    assert answer.status_code == 422 and answer.json()["code"] == "stand.no_point_score"
    _, answer = record(api, game, "dice.thrown", faces=["1", "3"], opposite=1)
    assert answer.status_code == 422 and answer.json()["code"] == "event.bad_data"


def test_a_game_without_a_pot_answers_422_pot_none(api: APIClient) -> None:
    game = start(api, kind="scarney-solitaire", seats=[{"name": "Sol"}])
    response = api.get(f"/api/v1/games/{game['id']}/pot/")
    assert response.status_code == 422 and response.json()["code"] == "pot.none"


def test_sheet_b5_over_http_settles_the_pot_and_shows_the_score_pad(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    fixture = json.loads(FIXTURE.read_text())
    body = {
        "format": "straight-scarney-dice",
        "players": [{"name": name} for name in fixture["players"]],
        "ruleset": fixture["ruleset"],
        "entry": "sheet",
    }
    match = api.post("/api/v1/matches/", body, format="json").json()
    event = {"id": str(uuid.uuid4()), "type": "game.scored", "data": fixture["entry"]}
    with django_capture_on_commit_callbacks(execute=True):
        answer = api.post(f"/api/v1/matches/{match['id']}/events/", event, format="json")
    assert answer.status_code == 201, answer.json()
    detail = api.get(f"/api/v1/matches/{match['id']}/").json()
    assert detail["status"] == "settled" and detail["winner"] == fixture["expected"]["winners"]
    assert detail["settlement"]["payments"] == fixture["expected"]["payments"]
    pad = detail["games"][0]["frames"]
    assert pad[2][:2] == [[9, 9], [52, 61]] and pad[2][-1] == [0, 168]
    history = api.get(f"/api/v1/matches/{match['id']}/history/").json()
    assert history["games"][0]["scores"] == fixture["expected"]["totals"]
    sheet = api.get(f"/api/v1/matches/{match['id']}/score-sheet.csv")
    assert sheet.status_code == 200 and b"168 - 168" in sheet.content


def test_a_sheet_entry_with_too_few_frames_answers_422(api: APIClient) -> None:
    body = {"format": "straight-scarney-dice", "players": [{"name": "X"}, {"name": "Y"}]}
    match = api.post("/api/v1/matches/", {**body, "entry": "sheet"}, format="json").json()
    event = {"id": str(uuid.uuid4()), "type": "game.scored", "data": {"frames": [[1], [2]]}}
    answer = api.post(f"/api/v1/matches/{match['id']}/events/", event, format="json")
    assert answer.status_code == 422 and answer.json()["code"] == "sheet.frame_count"
