"""A club's season over the API (API.md "Seasons"): real evenings counted into a championship,
corrections, a withdrawal and a merge reaching it at once, who may read it, the refusals, a
tournament created into a season, the close, and the standings' ETag.

Each evening is one table of Scarney Singles over one round (``system: "tables"``), whose
result the director gives by hand (``result.adjusted``), so its places are exactly as wanted.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.store.models import Tournament
from tests.games.tournaments.helpers import client_for, correction, create, enter, pair

pytestmark = pytest.mark.django_db

SEASONS = "/api/v1/seasons/"


@pytest.fixture
def director() -> Any:
    return client_for("director", staff=True)[1]


@pytest.fixture
def member() -> Any:
    return client_for("member")[1]


def season(api: APIClient, **spec: Any) -> dict[str, Any]:
    body = {"name": "Winter 2027", "counting": {"best": 2}, "points": "field", **spec}
    made = api.post(SEASONS, body, format="json")
    assert made.status_code == 201, made.json()
    return made.json()  # type: ignore[no-any-return]


def finish(api: APIClient, tournament: str, played: dict[str, Any], order: list[str]) -> None:
    """The round's one table finishes in ``order``: the director's result, by seat."""
    table = played["tables"][0]
    seat_of = {s["name"]: s["seat"] for s in table["seats"]}
    points = [0.0] * len(table["seats"])
    last = len(order) - 1
    for place, name in enumerate(order):
        points[seat_of[name]] = (last - place) / last
    data = {"round": 1, "table": table["table"], "points": points, "reason": "the sheet"}
    adjusted = correction(api, tournament, "result.adjusted", data)
    assert adjusted.status_code == 201, adjusted.json()


def evening(
    api: APIClient, name: str, order: list[str], *, entered: list[str] | None = None, **spec: Any
) -> str:
    """An evening of ``entered`` (``order`` by default), to be played at one table: its id."""
    entered = entered or order
    made = create(
        api,
        name=name,
        format="scarney-singles",
        system="tables",
        table_size=len(entered),
        rounds=1,
        **spec,
    )
    enter(api, made["id"], entered)
    return str(made["id"])


def played_evening(api: APIClient, name: str, order: list[str], **spec: Any) -> str:
    """An evening where ``order`` finishes in that order."""
    tournament = evening(api, name, order, **spec)
    finish(api, tournament, pair(api, tournament), order)
    return tournament


def add(api: APIClient, made: dict[str, Any], tournament: str, **more: Any) -> Any:
    body = {"tournament": tournament, **more}
    return api.post(f"{SEASONS}{made['id']}/tournaments/", body, format="json")


def standings(api: APIClient, made: dict[str, Any]) -> dict[str, Any]:
    answer = api.get(f"{SEASONS}{made['id']}/standings/")
    assert answer.status_code == 200, answer.json()
    return answer.json()  # type: ignore[no-any-return]


def rows(answer: dict[str, Any]) -> list[tuple[int, str, float]]:
    return [(r["place"], r["name"], r["points"]) for r in answer["rows"]]


def three_evenings(api: APIClient, made: dict[str, Any]) -> list[str]:
    """Three evenings of the season: Ann 4 + 2 + 3, Bob 3 + 3 + 2, Cid 2 + 1 + 4, Dee 1 + 1."""
    evenings = [
        played_evening(api, "Evening 1", ["Ann", "Bob", "Cid", "Dee"]),
        played_evening(api, "Evening 2", ["Bob", "Ann", "Cid"]),
        played_evening(api, "Evening 3", ["Cid", "Ann", "Bob", "Dee"]),
    ]
    for tournament in evenings:
        assert add(api, made, tournament).status_code == 201
    return evenings


def test_a_season_of_three_evenings_counts_each_players_best_two(director: Any) -> None:
    # given a season counting the best 2 of its evenings by field points
    made = season(director)
    assert made["counting"] == {"best": 2} and made["points"] == "field"
    assert made["evenings"] == [] and made["closed"] is False and made["version"] == 1
    # when three evenings are played and added to it
    evenings = three_evenings(director, made)
    # then Ann counts 4 + 3; Bob (3 + 3) is ahead of Cid (4 + 2) on the points of every evening
    answer = standings(director, made)
    assert rows(answer) == [(1, "Ann", 7.0), (2, "Bob", 6.0), (3, "Cid", 6.0), (4, "Dee", 2.0)]
    assert answer["evenings"] == 3 and answer["season"] == made["id"]
    ann = answer["rows"][0]
    assert (ann["evenings"], ann["counted"], ann["won"], ann["points_all"]) == (3, 2, 1, 9.0)
    assert [
        (r["tournament"], r["place"], r["of"], r["points"], r["counted"]) for r in ann["results"]
    ] == [
        (evenings[0], 1, 4, 4.0, True),
        (evenings[1], 2, 3, 2.0, False),
        (evenings[2], 2, 4, 3.0, True),
    ]
    assert "best 2" in answer["explain"]["counted"]
    shown = director.get(f"{SEASONS}{made['id']}/").json()
    assert [e["tournament"] for e in shown["evenings"]] == evenings
    assert shown["evenings"][0]["name"] == "Evening 1" and shown["version"] == 4


def test_a_correction_to_an_evening_changes_the_season_at_once(director: Any) -> None:
    made = season(director)
    evenings = three_evenings(director, made)
    before = director.get(f"{SEASONS}{made['id']}/standings/")
    # when the director gives evening 2 another result: Cid, Bob, Ann
    tournament = director.get(f"/api/v1/tournaments/{evenings[1]}/rounds/1/").json()
    finish(director, evenings[1], tournament, ["Cid", "Bob", "Ann"])
    # then Cid (3 + 4) and Ann (4 + 3) tie on 7: Cid won two evenings, Ann one
    after = standings(director, made)
    assert rows(after) == [(1, "Cid", 7.0), (2, "Ann", 7.0), (3, "Bob", 5.0), (4, "Dee", 2.0)]
    assert before.json()["rows"][0]["name"] == "Ann"
    # and the old ETag no longer holds
    again = director.get(f"{SEASONS}{made['id']}/standings/", HTTP_IF_NONE_MATCH=before["ETag"])
    assert again.status_code == 200 and again["ETag"] != before["ETag"]
    # and every evening's row holds its stream's head, which the standings' ETag is made of
    heads = Tournament.objects.filter(pk__in=evenings).values_list(
        "head_version", "head_hash", "stream__version", "stream__head_hash"
    )
    assert all(version == own and head == own_head for version, head, own, own_head in heads)
    assert all(version > 1 for version, *_ in heads)


def test_a_player_who_withdrew_before_the_first_round_has_no_place_in_that_evening(
    director: Any,
) -> None:
    # given an evening of four where Dee withdraws before round 1 is paired
    made = season(director, counting={"best": None})
    tournament = evening(director, "Evening 1", [], entered=["Ann", "Bob", "Cid", "Dee"])
    dee = next(
        e["player"]
        for e in director.get(f"/api/v1/tournaments/{tournament}/").json()["entries"]
        if e["name"] == "Dee"
    )
    withdrew = correction(director, tournament, "player.withdrew", {"player": dee, "reason": "ill"})
    assert withdrew.status_code == 201, withdrew.json()
    played = pair(director, tournament)
    assert len(played["tables"][0]["seats"]) == 3
    finish(director, tournament, played, ["Bob", "Ann", "Cid"])
    assert add(director, made, tournament).status_code == 201
    # then the evening is one of three: Bob 3, Ann 2, Cid 1, and no row for Dee
    answer = standings(director, made)
    assert rows(answer) == [(1, "Bob", 3.0), (2, "Ann", 2.0), (3, "Cid", 1.0)]
    assert {r["results"][0]["of"] for r in answer["rows"]} == {3}


def test_a_merge_of_two_players_counts_their_evenings_once_as_one_player(director: Any) -> None:
    # given Ann playing one evening, and her second card ("Ann B") another
    made = season(director, counting={"best": None})
    for tournament in (
        played_evening(director, "Evening 1", ["Ann", "Bob", "Cid"]),
        played_evening(director, "Evening 2", ["Ann B", "Cid", "Bob"]),
    ):
        assert add(director, made, tournament).status_code == 201
    split = standings(director, made)
    # (3 points each: the winners of an evening share first, the others third)
    assert rows(split) == [(1, "Ann", 3.0), (1, "Ann B", 3.0), (3, "Bob", 3.0), (3, "Cid", 3.0)]
    # when the second card is merged into Ann
    players = {p["name"]: p["id"] for p in director.get("/api/v1/players/").json()["results"]}
    merged = director.post(
        f"/api/v1/players/{players['Ann B']}/merge/",
        {"into": players["Ann"], "reason": "one person, two cards"},
        format="json",
    )
    assert merged.status_code == 200, merged.json()
    # then Ann has both evenings, 3 + 3
    answer = standings(director, made)
    assert rows(answer) == [(1, "Ann", 6.0), (2, "Bob", 3.0), (2, "Cid", 3.0)]
    assert answer["rows"][0]["player"] == players["Ann"]
    assert answer["rows"][0]["evenings"] == 2 and answer["rows"][0]["won"] == 2


def test_an_unpublished_season_is_read_by_directors_alone(director: Any, member: Any) -> None:
    made = season(director, published=False)
    visitor = APIClient()
    for reader in (visitor, member):
        assert reader.get(f"{SEASONS}{made['id']}/").status_code == 404
        assert reader.get(f"{SEASONS}{made['id']}/standings/").status_code == 404
        assert made["id"] not in [s["id"] for s in reader.get(SEASONS).json()["results"]]
    assert director.get(f"{SEASONS}{made['id']}/").json()["published"] is False
    assert director.get(f"{SEASONS}{made['id']}/standings/").status_code == 200
    assert made["id"] in [s["id"] for s in director.get(SEASONS).json()["results"]]


def test_an_unpublished_evening_counts_only_for_those_who_may_read_it(
    director: Any, member: Any
) -> None:
    # given a published season with a published evening and an unpublished one
    made = season(director, counting={"best": None})
    shown = played_evening(director, "Open evening", ["Ann", "Bob"])
    hidden = played_evening(director, "Private evening", ["Bob", "Ann", "Cid"], published=False)
    for tournament in (shown, hidden):
        assert add(director, made, tournament).status_code == 201
    # then a visitor and a member see the one evening; the director both
    for reader in (APIClient(), member):
        answer = standings(reader, made)
        assert answer["evenings"] == 1
        assert rows(answer) == [(1, "Ann", 2.0), (2, "Bob", 1.0)]
        assert [
            e["tournament"] for e in reader.get(f"{SEASONS}{made['id']}/").json()["evenings"]
        ] == [shown]
    full = standings(director, made)
    assert full["evenings"] == 2
    # Ann 2 + 2 and Bob 1 + 3: one evening won and 4 in all each, they share first
    assert rows(full) == [(1, "Ann", 4.0), (1, "Bob", 4.0), (3, "Cid", 1.0)]


def test_the_refusals_of_adding_and_removing_an_evening(director: Any, member: Any) -> None:
    made = season(director, format="high-low-scarney")
    other = season(director, name="Another")
    singles = evening(director, "Singles night", ["Ann", "Bob"])
    high_low = create(director, format="high-low-scarney", system="swiss", rounds=1)["id"]
    # a member writes no season
    refused = member.post(SEASONS, {"name": "Mine"}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (403, "permission.director_only")
    refused = add(member, made, high_low)
    assert (refused.status_code, refused.json()["code"]) == (403, "permission.director_only")
    # another format: 422
    wrong = add(director, made, singles)
    assert (wrong.status_code, wrong.json()["code"]) == (422, "season.wrong_format")
    # an evening counts in one season: 409 in this one again, and in another
    assert add(director, made, high_low).status_code == 201
    for where in (made, other):
        taken = add(director, where, high_low)
        assert (taken.status_code, taken.json()["code"]) == (409, "season.already_has_tournament")
    # no such tournament: 422, as a body's reference; no such season: 404
    missing = add(director, made, str(uuid.uuid4()))
    assert (missing.status_code, missing.json()["code"]) == (422, "season.no_such_tournament")
    nowhere = {"id": str(uuid.uuid4())}
    assert add(director, nowhere, high_low).status_code == 404
    assert director.get(f"{SEASONS}{nowhere['id']}/standings/").status_code == 404
    # bad settings: 422 with the field's code
    bad = director.post(SEASONS, {"name": "X", "points": {"by_place": []}}, format="json")
    assert (bad.status_code, bad.json()["code"]) == (422, "season.bad_points")
    # removing: 404 for an evening not in the season, 204 for one in it (then it is gone)
    url = f"{SEASONS}{made['id']}/tournaments/"
    assert director.delete(f"{url}{singles}/").status_code == 404
    assert director.delete(f"{url}{high_low}/").status_code == 204
    assert director.get(f"{SEASONS}{made['id']}/").json()["evenings"] == []
    assert add(director, other, high_low).status_code == 201  # free to join another


def test_a_tournament_created_into_a_season_joins_it_or_is_not_created(director: Any) -> None:
    made = season(director, format="scarney-singles")
    spec = {"format": "scarney-singles", "system": "tables", "table_size": 2, "rounds": 1}
    joined = create(director, name="Evening 1", season=made["id"], **spec)
    assert [
        e["tournament"] for e in director.get(f"{SEASONS}{made['id']}/").json()["evenings"]
    ] == [joined["id"]]
    count = Tournament.objects.count()
    cases = [
        (
            {**spec, "format": "high-low-scarney", "system": "swiss"},
            made["id"],
            422,
            "season.wrong_format",
        ),
        (spec, str(uuid.uuid4()), 422, "tournament.no_such_season"),
        (spec, "not-an-id", 422, "tournament.no_such_season"),
    ]
    for body, season_id, status, code in cases:
        refused = director.post(
            "/api/v1/tournaments/", {"name": "E", **body, "season": season_id}, format="json"
        )
        assert (refused.status_code, refused.json()["code"]) == (status, code), refused.json()
    assert Tournament.objects.count() == count  # nothing was created


def test_a_closed_season_takes_no_evening(director: Any) -> None:
    made = season(director)
    tournament = evening(director, "Late evening", ["Ann", "Bob"])
    closed = director.post(f"{SEASONS}{made['id']}/close/", {"reason": "spring"}, format="json")
    assert closed.status_code == 200, closed.json()
    assert closed.json()["closed"] is True and closed.json()["version"] == 2
    refused = add(director, made, tournament)
    assert (refused.status_code, refused.json()["code"]) == (409, "season.closed")
    again = director.post(f"{SEASONS}{made['id']}/close/", {}, format="json")
    assert (again.status_code, again.json()["code"]) == (409, "season.closed")
    count = Tournament.objects.count()
    into = director.post(
        "/api/v1/tournaments/",
        {"name": "E", "format": "high-low-scarney", "rounds": 1, "season": made["id"]},
        format="json",
    )
    assert (into.status_code, into.json()["code"]) == (409, "season.closed")
    assert Tournament.objects.count() == count


def test_the_standings_answer_304_while_the_client_holds_them(director: Any) -> None:
    made = season(director)
    three_evenings(director, made)
    url = f"{SEASONS}{made['id']}/standings/"
    first = director.get(url)
    assert first.status_code == 200 and first["ETag"].startswith('"')
    held = director.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert held.status_code == 304 and held.content == b"" and held["ETag"] == first["ETag"]
    # an evening leaving the season changes them
    removed = director.delete(
        f"{SEASONS}{made['id']}/tournaments/{first.json()['rows'][0]['results'][0]['tournament']}/"
    )
    assert removed.status_code == 204
    after = director.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200 and after.json()["evenings"] == 2


def test_the_standings_kept_for_a_fingerprint_cost_one_statement(director: Any) -> None:
    # given a season of three evenings whose standings were read once
    made = season(director)
    three_evenings(director, made)
    url = f"{SEASONS}{made['id']}/standings/"
    first = director.get(url)
    # when they are read again, nothing having changed
    with CaptureQueriesContext(connection) as queries:
        again = director.get(url)
    # then the answer is the same, for two statements: the token, and the season's row with
    # every head it depends on (its own, its evenings', the register's); no fold, no evening read
    assert again.status_code == 200 and again.content == first.content
    assert len(queries) == 2, [q["sql"] for q in queries]
    # and a visitor's costs the one statement
    with CaptureQueriesContext(connection) as queries:
        visitor = APIClient().get(url)
    assert visitor.status_code == 200 and len(queries) == 1, [q["sql"] for q in queries]
