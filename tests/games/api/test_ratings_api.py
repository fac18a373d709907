"""Ratings over the API (docs/API.md "Ratings"): a player's ratings with their history, and each
game kind's leaderboard, public for players of finished public play only."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.play import services
from games.store.models import Player, Stream
from scoring.ratings import scale

pytestmark = pytest.mark.django_db

LENIENT = {"sheet_entry_validation": "lenient"}


def match(names: list[str], winner: int, user: Any = None, public: bool = True) -> uuid.UUID:
    """A two-player Scarney Singles match from a sheet, won by seat ``winner``."""
    made = services.match_start(
        format="scarney-singles",
        players=[{"name": name} for name in names],
        entry="sheet",
        ruleset=LENIENT,
        user=user,
    )
    if not public:
        Stream.objects.filter(pk=made.pk).update(is_public=False)
    line = [30, 10] if winner == 0 else [10, 30]
    for _ in range(5):
        services.event_record(
            stream_id=made.pk, event_id=uuid.uuid4(), type="game.scored", data={"scores": line}
        )
    return made.pk


def player(name: str) -> int:
    return Player.objects.get(name=name).pk


def test_a_players_ratings_carry_their_history_oldest_first(anon: APIClient) -> None:
    # given Ann won, then lost
    match(["Ann", "Bob"], winner=0)
    match(["Ann", "Bob"], winner=1)

    # when anyone reads her ratings
    answer = anon.get(f"/api/v1/players/{player('Ann')}/ratings/")

    # then one kind, its rating now, and each result's rating in the order they came
    assert answer.status_code == 200
    (singles,) = answer.json()
    assert singles["kind"] == "scarney-singles" and singles["games"] == 2
    assert singles["provisional"] is True
    history = singles["history"]
    assert [point["rating"] for point in history][0] == 1579
    assert history[-1]["rating"] == singles["rating"] < 1579
    assert history[-1]["deviation"] == singles["deviation"] < history[0]["deviation"] < 250
    assert set(history[0]) == {"at", "rating", "deviation"}


def test_a_player_none_may_see_is_404_and_private_play_is_not_shown_without_a_login(
    anon: APIClient, api: APIClient, user: Any
) -> None:
    # given Cid played only privately, Ann both
    match(["Cid", "Dee"], winner=0, public=False)
    match(["Ann", "Dee"], winner=0)
    match(["Ann", "Cid"], winner=0, user=user, public=False)

    # then without a login Cid is no one, and Ann's rating shows (it counts all her play)
    assert anon.get(f"/api/v1/players/{player('Cid')}/ratings/").status_code == 404
    assert [r["games"] for r in anon.get(f"/api/v1/players/{player('Ann')}/ratings/").json()] == [2]
    # and the creator of Cid's private match sees Cid's rating
    seen = api.get(f"/api/v1/players/{player('Cid')}/ratings/").json()
    assert [r["games"] for r in seen] == [2]
    assert anon.get("/api/v1/players/999999/ratings/").status_code == 404
    # the history shows only the points of play the reader may see: no date or swing of a
    # private match
    assert len(anon.get(f"/api/v1/players/{player('Ann')}/ratings/").json()[0]["history"]) == 1
    assert len(api.get(f"/api/v1/players/{player('Ann')}/ratings/").json()[0]["history"]) == 2


def test_the_leaderboard_lists_established_ratings_best_first_page_by_page(
    anon: APIClient, monkeypatch: Any
) -> None:
    # given ratings established after one result; Ann won twice, Bob once, Cid never
    monkeypatch.setattr(scale, "ESTABLISHED_AFTER", 1)
    match(["Ann", "Bob"], winner=0)
    match(["Ann", "Cid"], winner=0)
    match(["Bob", "Cid"], winner=0)

    # when the leaderboard is read a row at a time
    first = anon.get("/api/v1/ratings/scarney-singles/?limit=1").json()
    second = anon.get(first["next"]).json()
    third = anon.get(second["next"]).json()

    # then best first, ranked 1, 2, 3, and no further page
    rows = first["results"] + second["results"] + third["results"]
    assert [row["name"] for row in rows] == ["Ann", "Bob", "Cid"]
    assert [row["rank"] for row in rows] == [1, 2, 3]
    assert set(rows[0]) == {"rank", "player", "name", "rating", "deviation", "games"}
    assert rows[0]["player"] == player("Ann") and rows[0]["games"] == 2
    assert third["next"] is None and first["previous"] is None
    whole = anon.get("/api/v1/ratings/scarney-singles/").json()
    assert whole["results"] == rows and whole["next"] is None


def test_the_leaderboard_leaves_out_provisional_ratings_and_private_play(
    anon: APIClient, monkeypatch: Any
) -> None:
    # given Eve and Fay met only in a private match, Ann and Bob in public
    monkeypatch.setattr(scale, "ESTABLISHED_AFTER", 1)
    match(["Eve", "Fay"], winner=0, public=False)
    match(["Ann", "Bob"], winner=0)
    monkeypatch.setattr(scale, "ESTABLISHED_AFTER", 2)
    match(["Gus", "Hal"], winner=0)  # one result: provisional

    # then the board lists Ann and Bob alone, to anyone
    names = [row["name"] for row in anon.get("/api/v1/ratings/scarney-singles/").json()["results"]]
    assert names == ["Ann", "Bob"]

    # and once Eve plays in public too, she is listed
    monkeypatch.setattr(scale, "ESTABLISHED_AFTER", 1)
    match(["Eve", "Ann"], winner=0)
    board = anon.get("/api/v1/ratings/scarney-singles/").json()["results"]
    assert "Eve" in [row["name"] for row in board] and "Fay" not in [r["name"] for r in board]


@pytest.mark.parametrize("kind", ["scarney-solitaire", "chess"])
def test_a_kind_that_is_not_rated_is_404_with_its_code(anon: APIClient, kind: str) -> None:
    answer = anon.get(f"/api/v1/ratings/{kind}/")
    assert answer.status_code == 404
    assert answer.json()["code"] == "rating.unknown_kind"


def test_a_bad_cursor_or_limit_is_400(anon: APIClient) -> None:
    import base64

    deep = base64.urlsafe_b64encode(b"[" * 1100).decode()  # json.loads would recurse too deep
    nested = anon.get(f"/api/v1/ratings/scarney-singles/?cursor={deep}")
    assert nested.status_code == 400 and nested.json()["code"] == "request.bad_cursor"
    bad = anon.get("/api/v1/ratings/scarney-singles/?cursor=@@")
    assert bad.status_code == 400 and bad.json()["code"] == "request.bad_cursor"
    forged = anon.get("/api/v1/ratings/scarney-singles/?cursor=WyJ4IiwgMV0=")  # ["x", 1]
    assert forged.status_code == 400 and forged.json()["code"] == "request.bad_cursor"
    assert anon.get("/api/v1/ratings/scarney-singles/?limit=0").status_code == 400
    unknown = anon.get("/api/v1/ratings/scarney-singles/?page=2")
    assert unknown.json()["code"] == "query.unknown_parameter"


def test_a_player_merged_into_another_leaves_the_leaderboard(
    anon: APIClient, monkeypatch: Any
) -> None:
    monkeypatch.setattr(scale, "ESTABLISHED_AFTER", 1)
    match(["Ann", "Bob"], winner=0)
    Player.objects.filter(name="Bob").update(merged_into_id=player("Ann"))
    names = [row["name"] for row in anon.get("/api/v1/ratings/scarney-singles/").json()["results"]]
    assert names == ["Ann"]
