"""No request, however malformed, gives a 500: hypothesis posts random bodies to every write."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
CIRCLE = st.one_of(st.integers(-2, 20), st.sampled_from(["C1", "C7", "c16", "C0", "C17", "X", ""]))
EVENT_DATA = st.fixed_dictionaries(
    {},
    optional={
        "circle": CIRCLE | JSON,
        "from": CIRCLE | JSON,
        "to": CIRCLE,
        "over": CIRCLE,
        "position": st.dictionaries(
            st.sampled_from(["C1", "C2", "C17", "Z"]),
            st.sampled_from(["B1", "R2", "Q9", "B1"]) | JSON,
        ),
        "reason": JSON,
    },
)
EVENT_BODY = st.fixed_dictionaries(
    {
        "id": st.uuids().map(str) | JSON,
        "type": st.sampled_from(
            [
                "board.laid_out",
                "pawn.taken_off",
                "pawn.jumped",
                "game.scarney_called",
                "move.undone",
                "game.started",
                "match.rated",
                "dice.thrown",
            ]
        )
        | JSON,
    },
    optional={
        "data": EVENT_DATA | JSON,
        "expected_version": st.integers(-3, 8) | JSON,
        "meta": JSON,
    },
)
ALLOWED = {200, 201, 400, 401, 404, 409, 422}


def assert_answered(response: Any) -> None:
    assert response.status_code in ALLOWED, (response.status_code, response.content[:300])
    assert "code" in response.json() or response.status_code in (200, 201)


@pytest.fixture
def game_id(api: APIClient) -> str:
    body = {"kind": "scarney-solitaire", "seats": [{"name": "Fuzz"}]}
    return api.post("/api/v1/games/", body, format="json").json()["id"]


@FUZZ
@given(body=EVENT_BODY)
def test_random_event_bodies_get_an_answer_with_a_code_never_a_500(
    api: APIClient, game_id: str, body: Any
) -> None:
    assert_answered(api.post(f"/api/v1/games/{game_id}/events/", body, format="json"))


@FUZZ
@given(body=JSON)
def test_random_json_of_any_shape_gets_an_answer_with_a_code(
    api: APIClient, game_id: str, body: Any
) -> None:
    for url in ("/api/v1/games/", f"/api/v1/games/{game_id}/events/", "/api/v1/matches/"):
        assert_answered(api.post(url, json.dumps(body), content_type="application/json"))


@FUZZ
@given(
    body=st.fixed_dictionaries(
        {"kind": st.sampled_from(["scarney-solitaire", "chess"]) | JSON},
        optional={
            "seats": JSON,
            "ruleset": JSON,
            "setup": JSON,
            "match": st.uuids().map(str) | JSON,
        },
    )
)
def test_random_game_creations_get_an_answer_with_a_code(api: APIClient, body: Any) -> None:
    assert_answered(api.post("/api/v1/games/", body, format="json"))


@FUZZ
@given(raw=st.binary(max_size=200))
def test_random_bytes_get_an_answer_with_a_code(api: APIClient, game_id: str, raw: bytes) -> None:
    assert_answered(
        api.post(f"/api/v1/games/{game_id}/events/", raw, content_type="application/json")
    )


@FUZZ
@given(version=st.text(max_size=6))
def test_random_at_version_values_get_an_answer_with_a_code(
    api: APIClient, game_id: str, version: str
) -> None:
    response = api.get(f"/api/v1/games/{game_id}/", {"at_version": version})
    assert response.status_code in (200, 400), response.content[:300]


def test_an_unknown_match_is_a_clear_refusal(api: APIClient) -> None:
    body = {"kind": "scarney-solitaire", "match": str(uuid.uuid4())}
    response = api.post("/api/v1/games/", body, format="json")
    assert response.status_code == 422 and response.json()["code"] == "match.not_found"


@pytest.mark.parametrize(
    ("raw", "detail"),
    [
        ("[" * 100_000, "nested too deeply"),
        ('{"kind": "scarney-solitaire", "seats": [{"name": "A\\u0000"}]}', "NUL"),
        ('{"kind": "scarney-solitaire", "setup": ' + "[" * 40 + "]" * 40 + "}", "deeper than 32"),
        ('{"kind": NaN}', "JSON parse error"),
    ],
)
def test_bodies_the_database_could_not_store_are_refused_up_front(
    api: APIClient, raw: str, detail: str
) -> None:
    response = api.post("/api/v1/games/", raw, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "request.malformed" and detail in response.json()["detail"]
