"""The games API of API.md, over Django's test client with token auth, on PostgreSQL."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

PAWNS = [colour + str(spots) for colour in "BRYG" for spots in range(1, 5)]
LAYOUT = {f"C{i + 1}": pawn for i, pawn in enumerate(PAWNS)}
EIGHT_PAWN_END_GAME = {
    "C2": "G3",
    "C3": "Y1",
    "C6": "B4",
    "C7": "G4",
    "C11": "R4",
    "C12": "Y2",
    "C15": "B2",
    "C16": "R1",
}


def start(api: APIClient, **body: Any) -> dict[str, Any]:
    body = {"kind": "scarney-solitaire", "seats": [{"name": "Ann"}], **body}
    response = api.post("/api/v1/games/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def record(
    api: APIClient,
    game: str,
    type: str,
    data: dict[str, Any],
    version: int | None = None,
    event_id: str | None = None,
) -> Any:
    body = {"id": event_id or str(uuid.uuid4()), "type": type, "data": data}
    if version is not None:
        body["expected_version"] = version
    return api.post(f"/api/v1/games/{game}/events/", body, format="json")


def test_creating_a_game_records_game_started_and_answers_its_state(api: APIClient) -> None:
    game = start(api)
    assert game["kind"] == "scarney-solitaire"
    assert game["version"] == 1
    assert game["status"] == "in_progress"
    assert game["seats"][0]["name"] == "Ann" and game["seats"][0]["player"] > 0
    assert game["expected"] == ["board.laid_out"]
    assert game["scores"] == [{"seat": 0, "points": 0, "bonuses": [], "total": 0}]
    events = api.get(f"/api/v1/games/{game['id']}/events/").json()["results"]
    assert [e["type"] for e in events] == ["game.started"]
    assert events[0]["data"]["ruleset"]["solitaire_allow_scarney_call"] is False


def test_a_move_is_recorded_and_the_answer_carries_the_event_and_the_new_state(
    api: APIClient,
) -> None:
    game = start(api)
    laid = record(api, game["id"], "board.laid_out", {"position": LAYOUT}, 1)
    assert laid.status_code == 201
    response = record(api, game["id"], "pawn.taken_off", {"circle": "C1"}, 2)
    assert response.status_code == 201
    body = response.json()
    assert body["event"]["type"] == "pawn.taken_off"
    assert body["event"]["data"] == {"circle": 1}
    assert body["event"]["version"] == 3
    assert body["game"]["board"]["C1"] is None
    assert body["game"]["scores"][0]["points"] == 1
    assert {"type": "pawn.jumped", "data": {"from": 9, "to": 1}} in body["game"]["legal_events"]


def test_an_illegal_move_is_refused_with_its_code_and_a_sentence_naming_the_pawns(
    api: APIClient,
) -> None:
    game = start(api)
    record(api, game["id"], "board.laid_out", {"position": LAYOUT})
    response = record(api, game["id"], "pawn.taken_off", {"circle": 4})
    assert response.status_code == 422
    assert response.json()["code"] == "takeoff.not_low_pawn"
    assert "B4" in response.json()["detail"] and "C4" in response.json()["detail"]
    versions = [
        e["version"] for e in api.get(f"/api/v1/games/{game['id']}/events/").json()["results"]
    ]
    assert versions == [1, 2]


def test_a_stale_expected_version_is_a_conflict_naming_the_current_version(api: APIClient) -> None:
    game = start(api)
    record(api, game["id"], "board.laid_out", {"position": LAYOUT}, 1)
    response = record(api, game["id"], "pawn.taken_off", {"circle": 1}, 1)
    assert response.status_code == 409
    assert response.json() == {
        "code": "version.conflict",
        "detail": "The stream moved on: it is at version 2.",
        "current_version": 2,
    }


def test_the_same_event_id_again_returns_the_original_answer_and_writes_nothing(
    api: APIClient,
) -> None:
    game = start(api)
    event_id = str(uuid.uuid4())
    first = record(api, game["id"], "board.laid_out", {"position": LAYOUT}, 1, event_id)
    record(api, game["id"], "pawn.taken_off", {"circle": 1}, 2)
    again = record(api, game["id"], "board.laid_out", {"position": LAYOUT}, 1, event_id)
    assert first.status_code == 201 and again.status_code == 200
    assert again.json()["event"] == first.json()["event"]
    assert again.json()["game"]["version"] == 2
    assert api.get(f"/api/v1/games/{game['id']}/").json()["version"] == 3


def test_the_same_event_id_with_another_body_is_refused_as_reused(api: APIClient) -> None:
    game = start(api)
    event_id = str(uuid.uuid4())
    record(api, game["id"], "board.laid_out", {"position": LAYOUT}, 1, event_id)
    response = record(api, game["id"], "pawn.taken_off", {"circle": 1}, 2, event_id)
    assert response.status_code == 409
    assert response.json()["code"] == "event.id_reused"


def test_at_version_gives_the_state_as_it_was(api: APIClient) -> None:
    game = start(api)
    record(api, game["id"], "board.laid_out", {"position": LAYOUT})
    record(api, game["id"], "pawn.taken_off", {"circle": 1})
    then = api.get(f"/api/v1/games/{game['id']}/?at_version=2").json()
    assert then["version"] == 2 and then["board"]["C1"] == "B1"
    assert then["expected"] == ["pawn.taken_off"]
    bad = api.get(f"/api/v1/games/{game['id']}/?at_version=9")
    assert bad.status_code == 400 and bad.json()["code"] == "query.bad_value"


def test_move_undone_takes_back_the_last_move_in_force(api: APIClient) -> None:
    game = start(api)
    record(api, game["id"], "board.laid_out", {"position": LAYOUT})
    record(api, game["id"], "pawn.taken_off", {"circle": 1})
    undone = record(api, game["id"], "move.undone", {"reason": "wrong pawn"})
    assert undone.status_code == 201
    state = undone.json()["game"]
    assert state["board"]["C1"] == "B1" and state["expected"] == ["pawn.taken_off"]
    assert state["version"] == 4
    record(api, game["id"], "move.undone", {})
    nothing = record(api, game["id"], "move.undone", {})
    assert nothing.status_code == 422 and nothing.json()["code"] == "undo.nothing_to_undo"


def test_the_printed_eight_pawn_end_game_replays_to_63_and_analysis_finds_94(
    api: APIClient,
) -> None:
    game = start(api, setup={"position": EIGHT_PAWN_END_GAME})
    analysis = api.get(f"/api/v1/games/{game['id']}/analysis/").json()
    assert analysis["value"] == 94 and analysis["from_start"] == 94
    for jump in [(12, 10), (16, 14), (7, 5), (14, 6), (2, 4), (5, 7)]:
        assert (
            record(api, game["id"], "pawn.jumped", {"from": jump[0], "to": jump[1]}).status_code
            == 201
        )
    final = api.get(f"/api/v1/games/{game['id']}/").json()
    assert final["status"] == "finished"
    assert final["scores"][0]["total"] == 63
    assert [b["kind"] for b in final["scores"][0]["bonuses"]] == ["colour_corner", "colour"]
    assert final["result"]["rating"] == "Fair game"
    after = api.get(f"/api/v1/games/{game['id']}/analysis/").json()
    assert after == {"value": 63, "line": [], "from_start": 94}


def test_the_analysis_line_replays_to_the_value_it_promises(api: APIClient) -> None:
    game = start(api, setup={"position": EIGHT_PAWN_END_GAME})
    line = api.get(f"/api/v1/games/{game['id']}/analysis/").json()["line"]
    for move in line:
        assert record(api, game["id"], move["type"], move["data"]).status_code == 201
    assert api.get(f"/api/v1/games/{game['id']}/").json()["scores"][0]["total"] == 94


def test_a_solitaire_match_of_five_games_is_rated_once_when_the_fifth_ends(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    match = api.post(
        "/api/v1/matches/",
        {"format": "scarney-solitaire", "players": [{"name": "Ann"}]},
        format="json",
    ).json()
    for number in range(1, 6):
        game = start(api, seats=[], match=match["id"])
        assert game["number"] == number
        assert game["expected"] == ["board.laid_out"]
        record(api, game["id"], "board.laid_out", {"position": LAYOUT})
        record(api, game["id"], "pawn.taken_off", {"circle": 1})
        with django_capture_on_commit_callbacks(execute=True):
            while legal := api.get(f"/api/v1/games/{game['id']}/").json()["legal_events"]:
                record(api, game["id"], legal[0]["type"], legal[0]["data"])
    detail = api.get(f"/api/v1/matches/{match['id']}/").json()
    assert detail["status"] == "finished"
    assert [g["number"] for g in detail["games"]] == [1, 2, 3, 4, 5]
    assert detail["games"][-1]["cumulative"] == [sum(g["scores"][0] for g in detail["games"])]
    assert detail["rating"] is not None
    events = api.get(f"/api/v1/matches/{match['id']}/events/").json()["results"]
    assert [e["type"] for e in events].count("match.rated") == 1
    sixth = api.post(
        "/api/v1/games/", {"kind": "scarney-solitaire", "match": match["id"]}, format="json"
    )
    assert sixth.status_code == 422 and sixth.json()["code"] == "match.over"


def test_writes_need_a_login(anon: APIClient) -> None:
    response = anon.post("/api/v1/games/", {"kind": "scarney-solitaire"}, format="json")
    assert response.status_code == 401
    assert response.json()["code"] == "request.not_authenticated"


def test_a_game_in_progress_is_private_and_a_finished_one_public(
    api: APIClient, anon: APIClient
) -> None:
    game = start(api, setup={"position": {"C1": "B1", "C2": "R1"}})
    assert anon.get(f"/api/v1/games/{game['id']}/").status_code == 401
    record(api, game["id"], "pawn.jumped", {"from": 1, "to": 3})
    public = anon.get(f"/api/v1/games/{game['id']}/")
    assert public.status_code == 200 and public.json()["status"] == "finished"


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"kind": "chess", "seats": [{"name": "A"}]}, 422, "game.unknown_kind"),
        (
            {"kind": "scarney-solitaire", "seats": [{"name": "A"}, {"name": "B"}]},
            422,
            "game.bad_seats",
        ),
        (
            {"kind": "scarney-solitaire", "seats": [{"name": "A"}], "ruleset": {"x": 1}},
            422,
            "ruleset.unknown_parameter",
        ),
        (
            {
                "kind": "scarney-solitaire",
                "seats": [{"name": "A"}],
                "ruleset": {"sheet_entry_validation": "loose"},
            },
            422,
            "ruleset.bad_value",
        ),
        (
            {
                "kind": "scarney-solitaire",
                "seats": [{"name": "A"}],
                "setup": {"position": {"C17": "B1"}},
            },
            422,
            "setup.unknown_circle",
        ),
        ({"kind": "scarney-solitaire", "seats": [{"player": 999999}]}, 422, "seat.unknown_player"),
        ({"kind": 5, "seats": "many"}, 400, "request.invalid"),
        ({}, 400, "request.invalid"),
    ],
)
def test_a_bad_game_is_refused_with_a_code(
    api: APIClient, body: Any, status: int, code: str
) -> None:
    response = api.post("/api/v1/games/", body, format="json")
    assert response.status_code == status, response.json()
    assert response.json()["code"] == code


@pytest.mark.parametrize(
    ("event", "code"),
    [
        ({"type": "pawn.taken_off", "data": {"circle": "C17"}}, "circle.unknown"),
        ({"type": "pawn.taken_off", "data": {"circle": [1]}}, "event.bad_data"),
        ({"type": "pawn.taken_off", "data": {}}, "event.bad_data"),
        ({"type": "dice.thrown", "data": {"faces": ["1"]}}, "event.unknown_type"),
        ({"type": "game.started", "data": {}}, "event.reserved_type"),
        ({"type": "pawn.jumped", "data": {"from": 1, "to": 3}}, "takeoff.required"),
    ],
)
def test_a_bad_event_is_refused_with_a_code(
    api: APIClient, event: dict[str, Any], code: str
) -> None:
    game = start(api)
    record(api, game["id"], "board.laid_out", {"position": LAYOUT})
    response = api.post(
        f"/api/v1/games/{game['id']}/events/", {"id": str(uuid.uuid4()), **event}, format="json"
    )
    assert response.status_code == 422, response.json()
    assert response.json()["code"] == code


def test_malformed_json_is_a_400_with_a_code(api: APIClient) -> None:
    game = start(api)
    response = api.post(
        f"/api/v1/games/{game['id']}/events/", "{not json", content_type="application/json"
    )
    assert response.status_code == 400 and response.json()["code"] == "request.malformed"


def test_a_body_of_several_megabytes_is_a_400_with_a_code(api: APIClient) -> None:
    game = start(api)
    body = json.dumps(
        {"id": str(uuid.uuid4()), "type": "board.laid_out", "data": {"x": "y" * 5_000_000}}
    )
    response = api.post(
        f"/api/v1/games/{game['id']}/events/", body, content_type="application/json"
    )
    assert response.status_code == 400 and response.json()["code"] == "request.too_large"


def test_an_unknown_game_is_a_404_with_a_code(api: APIClient) -> None:
    response = api.get(f"/api/v1/games/{uuid.uuid4()}/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_the_openapi_schema_and_docs_are_served(anon: APIClient, tmp_path: Any) -> None:
    schema = anon.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    for path in (
        "/api/v1/games/{id}/events/",
        "/api/v1/games/{id}/pot/",
        "/api/v1/matches/{id}/history/",
        "/api/v1/players/{id}/history/",
    ):
        assert path in paths, path
    assert anon.get("/api/docs/").status_code == 200
    # the schema is valid OpenAPI, with no warning from the generator
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "s.yaml"))


def test_issue_token_issues_a_new_usable_key_each_time_and_says_so(capsys: Any) -> None:
    call_command("issue_token", "alice")
    first = capsys.readouterr().out.strip()
    call_command("issue_token", "alice")
    printed = capsys.readouterr()
    second = printed.out.strip()
    assert second != first and len(first) >= 40  # a stored key is a hash: it cannot be shown again
    assert "new token" in printed.err and "1 earlier token(s) still work" in printed.err
    for key in (first, second):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        body = {"kind": "scarney-solitaire", "seats": [{"name": "A"}]}
        assert client.post("/api/v1/games/", body, format="json").status_code == 201
