"""A player's statistics (API.md "Players": /players/{id}/stats/), figures checked by hand."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.store.models import Player
from scoring.models import GameSummary
from tests.api_seed import SHEET, finished_game, sheet_match

pytestmark = pytest.mark.django_db


def kind_of(body: dict[str, Any], kind: str) -> dict[str, Any]:
    return next(row for row in body["kinds"] if row["kind"] == kind)


@pytest.fixture
def evening(user: Any, django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    """Ann loses a singles match to Cid (128, 208, 313) and wins the same sheet from the last
    seat (313); she plays two Solitaire games and has a match in progress."""
    with django_capture_on_commit_callbacks(execute=True):
        lost = sheet_match(["Ann", "Bob", "Cid"], SHEET, user)
        won = sheet_match(["Cid", "Bob", "Ann"], SHEET, user)
        sheet_match(["Ann", "Bob", "Cid"], SHEET[:1], user)  # in progress: not counted
        games = [finished_game("Ann", 1, user), finished_game("Ann", 2, user)]
    return {"lost": lost, "won": won, "games": games, "ann": Player.objects.get(name="Ann")}


def test_matches_played_won_average_best_and_head_to_head(
    api: APIClient, evening: dict[str, Any]
) -> None:
    answer = api.get(f"/api/v1/players/{evening['ann'].pk}/stats/")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["player"] == {"id": evening["ann"].pk, "name": "Ann"}
    singles = kind_of(body, "scarney-singles")
    # 128 (third) and 313 (first, with the 100-point match bonus): (128 + 313) / 2 = 220.5
    assert singles["matches"] == {"played": 2, "won": 1, "average": 220.5, "best": 313}
    # every line of the sheets is a game, the match in progress's too (its recorder reads it):
    # her scores from seat 0, from seat 2, and the first line from seat 0 again; none is won, as
    # the rules say of a Singles game (only the match has a winner)
    totals = [line[0] for line in SHEET] + [line[2] for line in SHEET] + [SHEET[0][0]]
    assert singles["games"] == {
        "played": 11,
        "won": 0,
        "average": round(sum(totals) / 11, 1),
        "best": max(totals),
    }
    # Bob never won: one draw (neither won, Cid did) and one win; Cid: one loss, one win.
    assert [
        (h["name"], h["played"], h["won"], h["lost"], h["drawn"]) for h in singles["head_to_head"]
    ] == [("Bob", 2, 1, 0, 1), ("Cid", 2, 1, 1, 0)]


def test_solitaire_games_ratings_and_bonuses(api: APIClient, evening: dict[str, Any]) -> None:
    body = api.get(f"/api/v1/players/{evening['ann'].pk}/stats/").json()
    solitaire = kind_of(body, "scarney-solitaire")
    rows = [GameSummary.objects.get(pk=game) for game in evening["games"]]
    totals = [row.scores[0]["total"] for row in rows]
    assert totals[0] == 29  # seed 1's game, as the history tests play it: "Try again!"
    assert solitaire["games"] == {
        "played": 2,
        "won": 2,  # one seat: finishing is winning, as the rules' result says
        "average": round(sum(totals) / 2, 1),
        "best": max(totals),
    }
    ratings: dict[str, int] = {}
    for row in rows:
        ratings[row.rating] = ratings.get(row.rating, 0) + 1
    assert {r["rating"]: r["count"] for r in solitaire["ratings"]} == ratings
    bonuses: dict[str, list[int]] = {}
    for row in rows:
        for bonus in row.scores[0]["bonuses"]:
            bonuses.setdefault(bonus["kind"], []).append(bonus["points"])
    assert solitaire["bonuses"] == [
        {"kind": kind, "count": len(points), "points": sum(points)}
        for kind, points in sorted(bonuses.items())
    ]
    assert solitaire["head_to_head"] == []


def test_without_a_login_only_finished_public_rows_count(
    anon: APIClient, evening: dict[str, Any]
) -> None:
    body = anon.get(f"/api/v1/players/{evening['ann'].pk}/stats/").json()
    assert kind_of(body, "scarney-singles")["matches"]["played"] == 2
    assert kind_of(body, "scarney-singles")["games"]["played"] == 10  # not the match in progress
    assert anon.get("/api/v1/players/999999/stats/").status_code == 404
    assert anon.get(f"/api/v1/players/{evening['ann'].pk}/stats/?x=1").status_code == 400


def test_stats_take_a_fixed_number_of_queries(
    api: APIClient, user: Any, evening: dict[str, Any], django_assert_max_num_queries: Any
) -> None:
    url = f"/api/v1/players/{evening['ann'].pk}/stats/"
    with django_assert_max_num_queries(12) as few:
        api.get(url)
    for seed in range(3, 6):
        finished_game("Ann", seed, user)
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert api.get(url).status_code == 200
