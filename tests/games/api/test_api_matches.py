"""Solitaire matches entered as score sheets (RULES.md 0.6, Appendix C.1)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def sheet_match(api: APIClient, **ruleset: Any) -> dict[str, Any]:
    body = {
        "format": "scarney-solitaire",
        "players": [{"name": "Sid"}],
        "entry": "sheet",
        "ruleset": ruleset,
    }
    response = api.post("/api/v1/matches/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def enter(api: APIClient, match: dict[str, Any], total: int) -> Any:
    body = {"id": str(uuid.uuid4()), "type": "game.scored", "data": {"scores": [total]}}
    return api.post(f"/api/v1/matches/{match['id']}/events/", body, format="json")


def test_a_sheet_of_five_games_derives_the_cumulative_scores_and_the_match_rating(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    match = sheet_match(api)
    with django_capture_on_commit_callbacks(execute=True):
        for total in [116, 63, 94, 36, 150]:
            assert enter(api, match, total).status_code == 201
    detail = api.get(f"/api/v1/matches/{match['id']}/").json()
    assert [g["cumulative"] for g in detail["games"]] == [[116], [179], [273], [309], [459]]
    assert detail["status"] == "finished" and detail["rating"] == "Good match"


def test_a_strict_sheet_refuses_a_total_no_final_position_can_give(api: APIClient) -> None:
    response = enter(api, sheet_match(api), 45)
    assert response.status_code == 422 and response.json()["code"] == "score.unattainable"


def test_a_lenient_sheet_takes_it_with_a_warning(api: APIClient) -> None:
    match = sheet_match(api, sheet_entry_validation="lenient")
    answer = enter(api, match, 45)
    assert answer.status_code == 201
    warnings = answer.json()["match"]["warnings"]
    assert [w["code"] for w in warnings] == ["score.unattainable"]


@pytest.mark.parametrize("total", [10**30, 2**63, 1e300, -(10**10)])
def test_a_lenient_sheet_still_refuses_a_number_out_of_every_range(
    api: APIClient, total: Any
) -> None:
    # lenient: attainability is not checked; the numbers still have a range (+-1,000,000,000)
    match = sheet_match(api, sheet_entry_validation="lenient")
    answer = enter(api, match, total)
    assert answer.status_code == 422
    assert answer.json()["code"] == "event.too_large"
    assert "1,000,000,000" in answer.json()["detail"]
    assert enter(api, match, 1_000_000_000).status_code == 201  # the range's edge is in it


def test_a_house_rule_number_has_a_range_too(api: APIClient) -> None:
    body = {
        "kind": "hearts-due",
        "seats": [{"name": "Ann"}, {"name": "Bob"}],
        "ruleset": {"hearts_due_target": 10**30},
    }
    answer = api.post("/api/v1/games/", body, format="json")
    assert answer.status_code == 422
    assert answer.json()["code"] == "ruleset.bad_value"
    assert answer.json()["parameter"] == "hearts_due_target"


def test_a_live_match_takes_no_sheet_entries(api: APIClient) -> None:
    body = {"format": "scarney-solitaire", "players": [{"name": "Liv"}]}
    match = api.post("/api/v1/matches/", body, format="json").json()
    response = enter(api, match, 36)
    assert response.status_code == 422 and response.json()["code"] == "match.live_entry"


def test_the_match_list_filters_by_format(api: APIClient) -> None:
    sheet_match(api)
    doubles = {"format": "scarney-doubles", "players": [{"name": "A"}, {"name": "B"}]}
    assert api.post("/api/v1/matches/", doubles, format="json").status_code == 201
    listed = api.get("/api/v1/matches/", {"format": "scarney-doubles"})
    assert listed.status_code == 200
    assert [m["format"] for m in listed.json()["results"]] == ["scarney-doubles"]


def test_a_field_the_match_body_does_not_take_is_refused_not_dropped(api: Any) -> None:
    body = {"format": "scarney-singles", "players": [{"name": "A"}, {"name": "B"}]}
    refused = api.post("/api/v1/matches/", {**body, "tournament_table": "3"}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "request.invalid"
    assert "tournament_table" in refused.json()["errors"]
    seat = {**body, "players": [{"name": "A", "seat": 0}, {"name": "B"}]}
    assert api.post("/api/v1/matches/", seat, format="json").status_code == 400
