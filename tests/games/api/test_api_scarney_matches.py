"""Scarney Singles, Doubles and High-Low matches over the API: the books' sheets (Appendix B.1-B.3)
in strict and lenient mode, and live matches played game by game until settled (RULES.md 3.7,
4.5, 5.7; API.md)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.conformance import assert_rebuild_equal, assert_replays

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def fixture(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / name).read_text())  # type: ignore[no-any-return]


def new_match(api: APIClient, format: str, names: list[str], entry: str, **ruleset: Any) -> str:
    body = {
        "format": format,
        "players": [{"name": name} for name in names],
        "entry": entry,
        "ruleset": ruleset,
    }
    response = api.post("/api/v1/matches/", body, format="json")
    assert response.status_code == 201, response.json()
    return str(response.json()["id"])


def match_event(api: APIClient, match: str, type: str, data: dict[str, Any]) -> Any:
    body = {"id": str(uuid.uuid4()), "type": type, "data": data}
    return api.post(f"/api/v1/matches/{match}/events/", body, format="json")


def game_event(api: APIClient, game: str, type: str, data: dict[str, Any]) -> Any:
    body = {"id": str(uuid.uuid4()), "type": type, "data": data}
    response = api.post(f"/api/v1/games/{game}/events/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()["game"]


def new_game(api: APIClient, kind: str, match: str, setup: dict[str, Any]) -> dict[str, Any]:
    body = {"kind": kind, "match": match, "setup": setup}
    response = api.post("/api/v1/games/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()  # type: ignore[no-any-return]


def detail(api: APIClient, match: str) -> dict[str, Any]:
    return api.get(f"/api/v1/matches/{match}/").json()  # type: ignore[no-any-return]


def enter_sheet(
    api: APIClient, match: str, games: list[dict[str, Any]], capture: Any
) -> dict[str, Any]:
    with capture(execute=True):
        for game in games:
            data = {"scores": game["scores"], "cumulative": game["cumulative"]}
            response = match_event(api, match, "game.scored", data)
            assert response.status_code == 201, response.json()
    return detail(api, match)


def check_settled(shown: dict[str, Any], expected: dict[str, Any], seats: int) -> None:
    assert shown["status"] == "settled"
    by_seat = {row["seat"]: row for row in shown["standing"]}
    assert [by_seat[s]["match_score"] for s in range(seats)] == expected["match_scores"]
    assert [by_seat[s]["bonuses"] for s in range(seats)] == expected["bonuses"]
    assert [by_seat[s]["total"] for s in range(seats)] == expected["totals"]
    assert shown["winner"] == [expected["winner"]]
    assert shown["settlement"]["payments"] == expected["payments"]
    assert sum(shown["settlement"]["nets"]) == 0


LENIENT = {"sheet_entry_validation": "lenient"}


# --- the books' sheets -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("sheet_singles_b1.json", "score.unattainable"),
        ("sheet_doubles_b2.json", "score.doubles_total"),
    ],
)
def test_a_strict_sheet_is_refused_at_game_four_with_the_code(
    api: APIClient, name: str, code: str
) -> None:
    sheet = fixture(name)
    match = new_match(api, sheet["format"], sheet["players"], "sheet")
    for game in sheet["games"][:3]:
        assert match_event(api, match, "game.scored", {"scores": game["scores"]}).status_code == 201
    refused = match_event(api, match, "game.scored", {"scores": sheet["games"][3]["scores"]})
    assert refused.status_code == 422 and refused.json()["code"] == code
    assert len(detail(api, match)["games"]) == 3


def test_singles_sheet_b1_lenient_c_wins_313_b_pays_105_a_pays_185(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    sheet = fixture("sheet_singles_b1.json")
    match = new_match(
        api, sheet["format"], sheet["players"], "sheet", sheet_entry_validation="lenient"
    )
    shown = enter_sheet(api, match, sheet["games"], django_capture_on_commit_callbacks)
    assert [(w["game"], w["code"]) for w in shown["warnings"]] == [(4, "score.unattainable")]
    assert shown["games"][0] == {
        "number": 1,
        "game": None,
        "scores": [32, 19, 6],
        "cumulative": [32, 19, 6],
        "winners": [],  # a Singles game is won by nobody, only the match is (RULES.md 3.4, 3.7)
    }
    assert all(row["games_won"] == 0 for row in shown["standing"])
    check_settled(shown, sheet["lenient"], 3)
    # API.md's example, to the letter
    assert shown["settlement"]["payments"] == [
        {"from": 0, "to": 2, "points": 185},
        {"from": 1, "to": 2, "points": 105},
    ]
    assert shown["standing"][0]["name"] == "C" and shown["standing"][0]["rank"] == 1


def test_doubles_sheet_b2_lenient_81_against_221_a_pays_140(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    sheet = fixture("sheet_doubles_b2.json")
    match = new_match(
        api, sheet["format"], sheet["players"], "sheet", sheet_entry_validation="lenient"
    )
    shown = enter_sheet(api, match, sheet["games"], django_capture_on_commit_callbacks)
    assert [(w["game"], w["code"]) for w in shown["warnings"]] == [(4, "score.doubles_total")]
    assert shown["games"][3]["cumulative"] == [66, 96]
    check_settled(shown, sheet["lenient"], 2)


def test_doubles_sheet_b2_printed_66_is_a_cumulative_mismatch(api: APIClient) -> None:
    sheet = fixture("sheet_doubles_b2.json")
    match = new_match(
        api, sheet["format"], sheet["players"], "sheet", sheet_entry_validation="lenient"
    )
    for game in sheet["games"][:3]:
        match_event(api, match, "game.scored", {"scores": game["scores"]})
    data = {"scores": [20, 22], "cumulative": sheet["printed_cumulative_after_game_4"]}
    refused = match_event(api, match, "game.scored", data)
    assert refused.status_code == 422 and refused.json()["code"] == "sheet.cumulative_mismatch"


def test_high_low_sheet_b3_b_294_a_42_b_wins_by_252(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    sheet = fixture("sheet_high_low_b3.json")
    match = new_match(api, sheet["format"], sheet["players"], "sheet")
    shown = enter_sheet(api, match, sheet["games"], django_capture_on_commit_callbacks)
    assert shown["warnings"] == []
    check_settled(shown, sheet["result"], 2)
    events = api.get(f"/api/v1/matches/{match}/events/").json()["results"]
    assert [e["type"] for e in events].count("match.settled") == 1
    assert_replays(uuid.UUID(match))


def test_a_high_low_sheet_line_with_two_scorers_is_refused(api: APIClient) -> None:
    match = new_match(api, "high-low-scarney", ["A", "B"], "sheet")
    refused = match_event(api, match, "game.scored", {"scores": [10, 12]})
    assert refused.status_code == 422 and refused.json()["code"] == "score.unattainable"


# --- live matches ------------------------------------------------------------------------------

# Singles study positions: one jump (R over B on row 1), then no jump is left.
SCORES_32 = {"C1": "R1", "C2": "B1", "C8": "Y4", "C12": "Y3"}  # leaves R1 Y4 Y3: 40 - 8
SCORES_31 = {"C1": "R2", "C2": "B1", "C8": "Y4", "C12": "Y3"}  # leaves R2 Y4 Y3: 40 - 9


def test_a_live_singles_match_with_a_draw_and_an_extra_round_is_settled(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    match = new_match(api, "scarney-singles", ["Ann", "Bob"], "live")
    draw = {"draws": [{"seat": 0, "pawn": "R2"}, {"seat": 1, "pawn": "G4"}]}
    assert match_event(api, match, "order.drawn", draw).status_code == 201
    actives = []
    # five rounds of 32 each: 160 all, so each plays an extra game, Bob (first) scoring 31
    plan = [SCORES_32] * 10 + [SCORES_31, SCORES_32]
    for position in plan:
        game = new_game(api, "scarney-singles", match, {"position": position})
        actives.append(game["turn"])
        with django_capture_on_commit_callbacks(execute=True):
            over = game_event(api, game["id"], "pawn.jumped", {"from": 1, "to": 3})
        assert over["status"] == "finished"
    assert actives == [1, 0] * 6
    shown = detail(api, match)
    assert shown["status"] == "settled"
    assert [g["scores"] for g in shown["games"]][-2:] == [[0, 31], [32, 0]]
    assert shown["settlement"]["payments"] == [{"from": 1, "to": 0, "points": 292 - 191}]
    more = api.post("/api/v1/games/", {"kind": "scarney-singles", "match": match}, format="json")
    assert more.status_code == 422 and more.json()["code"] == "match.over"


# Doubles: the nonstarter jumps R4 over B4 and sweeps the rest, 25 points in all.
SWEEP_25 = {"C1": "R4", "C2": "B4", "C13": "G4", "C14": "G3", "C16": "B3", "C8": "Y4", "C12": "Y3"}


def test_a_live_doubles_match_alternates_the_starter_and_settles(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    match = new_match(api, "scarney-doubles", ["Ann", "Bob"], "live")
    starters = []
    while detail(api, match)["status"] == "in_progress":
        game = new_game(api, "scarney-doubles", match, {"position": SWEEP_25})
        starters.append(game["roles"]["starter"])
        analysis = api.get(f"/api/v1/games/{game['id']}/analysis/").json()
        assert analysis == {
            "winner": game["turn"],
            "line": [{"type": "pawn.jumped", "data": {"from": 1, "to": 3}}],
        }
        with django_capture_on_commit_callbacks(execute=True):
            game_event(api, game["id"], "pawn.jumped", {"from": 1, "to": 3})
    shown = detail(api, match)
    # the starter alternates, so the sweep does: Bob reaches 100 in game seven, Ann has 75
    assert starters == [0, 1] * 3 + [0]
    assert shown["games"][-1]["cumulative"] == [75, 100]
    assert shown["status"] == "settled"
    assert shown["settlement"]["payments"] == [{"from": 0, "to": 1, "points": 125}]


# High-Low: the mover takes R4 R3 R2 from row 1 and leaves the black 4: 9 points doubled.
TRIPLE_18 = {"C1": "R4", "C2": "R3", "C3": "R2", "C16": "B4"}


def test_a_live_high_low_match_the_loser_starts_and_the_winner_collects(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    match = new_match(api, "high-low-scarney", ["Ann", "Bob"], "live")
    draw = {"draws": [{"seat": 0, "pawn": "Y3"}, {"seat": 1, "pawn": "Y1"}]}
    assert match_event(api, match, "order.drawn", draw).status_code == 201
    movers = []
    while detail(api, match)["status"] == "in_progress":
        game = new_game(api, "high-low-scarney", match, {"position": TRIPLE_18})
        movers.append(game["turn"])
        analysis = api.get(f"/api/v1/games/{game['id']}/analysis/").json()
        assert analysis["winner"] == game["turn"]
        with django_capture_on_commit_callbacks(execute=True):
            over = game_event(api, game["id"], "pawns.removed", {"circles": [1, 2, 3]})
        assert over["result"]["winner"] == [game["turn"]]
    # each game's loser starts the next: the win alternates; Ann reaches 108 in game 11
    assert movers == [0, 1] * 5 + [0]
    shown = detail(api, match)
    rows = {row["seat"]: row for row in shown["standing"]}
    assert rows[0]["bonuses"] == [
        {"kind": "game_bonus", "points": 120},
        {"kind": "match_bonus", "points": 100},
    ]
    assert (rows[0]["total"], rows[1]["total"]) == (108 + 220, 90 + 100)
    assert shown["settlement"]["payments"] == [{"from": 1, "to": 0, "points": 138}]
    assert_replays(uuid.UUID(match))
    assert_rebuild_equal()
