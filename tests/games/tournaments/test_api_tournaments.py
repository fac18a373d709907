"""Club evenings over the API (API.md "Tournaments"): a round robin, tables of three with a late
entry and a withdrawal, duplicate Solitaire, the director's corrections, and replays."""

from __future__ import annotations

import itertools
import uuid
from collections import Counter
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.store import folding
from games.store.models import Event, Stream
from games.tournaments import entries as entering
from games.tournaments.core import rounds, swiss
from tests.games.tournaments.helpers import (
    client_for,
    correction,
    create,
    enter,
    high_low_win,
    pair,
    play_sheet,
    sheet_line,
    standings,
)

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kay", "Lu"]


@pytest.fixture
def director() -> Any:
    return client_for("director", staff=True)[1]


def test_a_five_player_round_robin_meets_every_pair_once_with_one_bye_each(
    director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    made = create(director, format="high-low-scarney", system="round_robin")
    ids = enter(director, made["id"], NAMES[:5])
    met: Counter[frozenset[int]] = Counter()
    byes: Counter[int] = Counter()
    starts: Counter[int] = Counter()
    for number in range(1, 6):
        played = pair(director, made["id"])
        assert played["number"] == number and played["status"] == "playing"
        for bye in played["byes"]:
            byes[bye["player"]] += 1
            assert bye["points"] == 1
        for table in played["tables"]:
            seats = [s["player"] for s in table["seats"]]
            met[frozenset(seats)] += 1
            starts[seats[0]] += 1
            # the lower id wins: a fixed, checkable field
            high_low_win(
                director,
                table["match"],
                seats.index(min(seats)),
                django_capture_on_commit_callbacks,
            )
        assert (
            director.get(f"/api/v1/tournaments/{made['id']}/rounds/{number}/").json()["missing"]
            == []
        )
    assert set(met) == {frozenset(p) for p in itertools.combinations(ids, 2)}
    assert set(met.values()) == {1} and set(byes.values()) == {1} and set(byes) == set(ids)
    assert all(1 <= starts[p] <= 3 for p in ids)  # four games each: two starts, give or take
    shown = director.get(f"/api/v1/tournaments/{made['id']}/").json()
    assert shown["rounds"] == 5 and shown["round"] == 5
    closed = correction(director, made["id"], "round.closed", {"round": 5})
    assert closed.status_code == 201, closed.json()
    assert closed.json()["status"] == "finished"
    table = standings(director, made["id"])
    # Ann (lowest id) wins all four games, Bob three ... plus the bye's point each.
    assert [(r["name"], r["points"]) for r in table["rows"]] == [
        ("Ann", 5.0),
        ("Bob", 4.0),
        ("Cid", 3.0),
        ("Dee", 2.0),
        ("Eve", 1.0),
    ]
    assert [r["rank"] for r in table["rows"]] == [1, 2, 3, 4, 5]
    assert "Buchholz" in table["explain"]["buchholz"]
    # High-Low winners collect 102 + 120 game bonus + 100 match bonus (D-HL): nets balance.
    assert sum(r["net"] for r in table["rows"]) == 0
    assert pair_refused(director, made["id"]) == (422, "tournament.all_rounds_paired")


def pair_refused(api: Any, tournament: str, **body: Any) -> tuple[int, str]:
    response = api.post(f"/api/v1/tournaments/{tournament}/rounds/", body, format="json")
    return response.status_code, response.json()["code"]


def test_pairing_while_a_table_plays_is_409_and_the_missing_tables_are_listed(
    director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    made = create(director, format="high-low-scarney", system="swiss", rounds=3)
    enter(director, made["id"], NAMES[:4])
    first = pair(director, made["id"])
    high_low_win(director, first["tables"][0]["match"], 0, django_capture_on_commit_callbacks)
    response = director.post(f"/api/v1/tournaments/{made['id']}/rounds/", {}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "round.results_missing"
    assert response.json()["missing"] == [2]
    shown = director.get(f"/api/v1/tournaments/{made['id']}/rounds/1/").json()
    assert shown["missing"] == [2] and shown["tables"][0]["status"] == "settled"
    assert shown["tables"][0]["result"]["points"] == [1.0, 0.0]


def test_a_nine_player_singles_evening_at_tables_of_three_with_a_late_entry_and_a_withdrawal(
    director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    made = create(
        director,
        format="scarney-singles",
        system="tables",
        table_size=3,
        rounds=3,
        seeding="random",
    )
    ids = enter(director, made["id"], NAMES[:9])
    first = pair(director, made["id"], seed=7)
    assert first["seed"] == 7
    assert sorted(len(t["seats"]) for t in first["tables"]) == [3, 3, 3]
    assert sorted(s["player"] for t in first["tables"] for s in t["seats"]) == sorted(ids)
    finish_singles_round(director, first, django_capture_on_commit_callbacks)
    # After round 1: Jo enters late and Cid withdraws, each with a reason; ten stay nine.
    unexplained = director.post(
        f"/api/v1/tournaments/{made['id']}/entries/", {"name": "Jo"}, format="json"
    )
    assert unexplained.status_code == 422
    assert unexplained.json()["code"] == "tournament.reason_required"
    late = entering.entry_add(
        tournament_id=uuid.UUID(made["id"]),
        spec={"name": "Jo"},
        reason="came at nine",
        user=get_user_model().objects.get(username="director"),
    ).player
    gone = ids[2]
    refused = correction(director, made["id"], "player.withdrew", {"player": gone})
    assert refused.status_code == 422 and refused.json()["code"] == "tournament.reason_required"
    withdrew = correction(
        director, made["id"], "player.withdrew", {"player": gone, "reason": "ill"}
    )
    assert withdrew.status_code == 201
    second = pair(director, made["id"])
    seated = [s["player"] for t in second["tables"] for s in t["seats"]]
    assert late in seated and gone not in seated and len(seated) == len(set(seated)) == 9
    assert sorted(len(t["seats"]) for t in second["tables"]) == [3, 3, 3]
    finish_singles_round(director, second, django_capture_on_commit_callbacks)
    third = pair(director, made["id"])
    finish_singles_round(director, third, django_capture_on_commit_callbacks)
    shown = director.get(f"/api/v1/tournaments/{made['id']}/").json()
    entries = {e["player"]: e for e in shown["entries"]}
    assert entries[gone]["status"] == "withdrawn" and entries[late]["joined"] == 2
    played = [first, second, third]
    # Nine can sit at tables of three for four rounds without two players meeting twice, so
    # in three rounds no one meets the same opponent again.
    met: Counter[frozenset[int]] = Counter()
    for each in played:
        for table in each["tables"]:
            players = [s["player"] for s in table["seats"]]
            met.update(frozenset(pair_) for pair_ in itertools.combinations(players, 2))
    assert max(met.values()) == 1
    # Every table played the same sheet, so its seats took the same places: seat 2 (C) wins
    # the match, seat 1 (B) is second, seat 0 (A) third: 1, 1/2 and 0 match points.
    table = standings(director, made["id"])
    rows = {r["player"]: r for r in table["rows"]}
    assert set(rows) == set(ids) | {late}
    points = {p: 0.0 for p in rows}
    tables_played = {p: 0 for p in rows}
    for each in played:
        rnd = director.get(f"/api/v1/tournaments/{made['id']}/rounds/{each['number']}/").json()
        for t in rnd["tables"]:
            assert t["result"]["points"] == [0.0, 0.5, 1.0]
            for seat in t["seats"]:
                points[seat["player"]] += [0.0, 0.5, 1.0][seat["seat"]]
                tables_played[seat["player"]] += 1
    assert {p: r["points"] for p, r in rows.items()} == points
    assert {p: r["played"] for p, r in rows.items()} == tables_played
    assert tables_played[gone] == 1 and tables_played[late] == 2
    assert {p for p, n in tables_played.items() if n == 3} == set(ids) - {gone}
    assert [r["points"] for r in table["rows"]] == sorted(points.values(), reverse=True)
    assert sum(points.values()) == pytest.approx(9 * 1.5)  # nine tables of three
    assert table["rows"][0]["rank"] == 1


# Five rounds of a three-player Singles sheet (Appendix B.1's attainable lines): C wins.
SINGLES_SHEET = [[32, 19, 6], [24, 77, 34], [13, 29, 27], [21, 30, 36], [21, 30, 110]]


def finish_singles_round(api: Any, played: dict[str, Any], capture: Any) -> None:
    for table in played["tables"]:
        size = len(table["seats"])
        play_sheet(api, table["match"], [line[:size] for line in SINGLES_SHEET], capture)


SOLITAIRE_TOTALS = {"Ann": [36, 63, 63, 116, 20], "Bob": [36, 36, 36, 36, 36], "Cid": [20] * 5}


def test_a_duplicate_solitaire_round_ranks_totals_on_the_same_deal(
    director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    made = create(director, format="scarney-solitaire", system="tables", table_size=1, rounds=1)
    enter(director, made["id"], list(SOLITAIRE_TOTALS) + ["Dee"])
    played = pair(director, made["id"])
    assert [len(t["seats"]) for t in played["tables"]] == [1, 1, 1, 1]
    laid = correction(director, made["id"], "round.laid_out", {"round": 1, "layouts": [LAYOUT] * 5})
    assert laid.status_code == 201, laid.json()
    for table in played["tables"]:
        name = table["seats"][0]["name"]
        if name in SOLITAIRE_TOTALS:
            lines = [[t] for t in SOLITAIRE_TOTALS[name]]
            play_sheet(director, table["match"], lines, django_capture_on_commit_callbacks)
    dee = next(t["table"] for t in played["tables"] if t["seats"][0]["name"] == "Dee")
    # Dee left before the end: the director scores her table by hand.
    adjusted = correction(
        director,
        made["id"],
        "result.adjusted",
        {"round": 1, "table": dee, "points": [0], "reason": "left before the end"},
    )
    assert adjusted.status_code == 201, adjusted.json()
    shown = director.get(f"/api/v1/tournaments/{made['id']}/rounds/1/").json()
    assert shown["missing"] == [] and {t["result"]["rating"] for t in shown["tables"]} > {None}
    rows = {r["name"]: r for r in standings(director, made["id"])["rows"]}
    # Three totals played on the same deal, ranked across the field of three: 1, 1/2, 0.
    assert (rows["Ann"]["points"], rows["Bob"]["points"], rows["Cid"]["points"]) == (1, 0.5, 0)
    assert rows["Dee"]["points"] == 0 and rows["Ann"]["rank"] == 1
    # The ratings of the totals on that deal (RULES.md 2.6) stand beside them in the rows:
    # 298, 180 and 100 are a fair, an average and a try-again match; Dee's table has none.
    state = folding.load(Stream.objects.get(pk=uuid.UUID(made["id"]))).state
    table = rounds.standings_at(state)
    ratings = {r.name: r.ratings for r in table.rows}
    assert ratings == {
        "Ann": ((1, "Fair match"),),
        "Bob": ((1, "Average match"),),
        "Cid": ((1, "Try again!"),),
        "Dee": (),
    }
    assert "same deal" in table.explain["ratings"]
    # and the API shows them in every row, an empty list where there is none
    shown_rows = {r["name"]: r["ratings"] for r in standings(director, made["id"])["rows"]}
    assert shown_rows == {
        "Ann": [{"round": 1, "rating": "Fair match"}],
        "Bob": [{"round": 1, "rating": "Average match"}],
        "Cid": [{"round": 1, "rating": "Try again!"}],
        "Dee": [],
    }


def test_standings_rows_carry_an_empty_ratings_list_outside_duplicate_solitaire(
    director: Any,
) -> None:
    made = create(director, format="high-low-scarney", system="swiss", rounds=2)
    enter(director, made["id"], NAMES[:4])
    pair(director, made["id"])
    rows = standings(director, made["id"])["rows"]
    assert len(rows) == 4 and all(r["ratings"] == [] for r in rows)


def test_a_tournament_read_refuses_a_query_parameter_it_does_not_take(director: Any) -> None:
    made = create(director, format="high-low-scarney", system="swiss", rounds=2)
    enter(director, made["id"], NAMES[:4])
    pair(director, made["id"])
    base = f"/api/v1/tournaments/{made['id']}"
    for path in ("/", "/standings/", "/settlement/", "/events/", "/rounds/1/"):
        refused = director.get(f"{base}{path}", {"roud": "1"})
        assert refused.status_code == 400, path
        assert refused.json()["code"] == "query.unknown_parameter", path
    # what each takes is read as before
    assert director.get(f"{base}/standings/", {"round": "1"}).status_code == 200
    assert director.get(f"{base}/", {"as_of": "2999-01-01T00:00:00Z"}).status_code == 200


def test_a_late_entry_over_the_api_gives_its_reason_once_round_one_is_paired(
    director: Any,
) -> None:
    # given a Swiss evening whose first round is paired
    made = create(director, format="high-low-scarney", system="swiss", rounds=3)
    enter(director, made["id"], NAMES[:4])
    pair(director, made["id"])
    url = f"/api/v1/tournaments/{made['id']}/entries/"
    # when Jo enters without a reason, then the service asks for one
    unexplained = director.post(url, {"name": "Jo"}, format="json")
    assert unexplained.status_code == 422, unexplained.json()
    assert unexplained.json()["code"] == "tournament.reason_required"
    # and with one, he is entered from round 2, the reason and the device recorded
    late = director.post(
        url, {"name": "Jo", "reason": "came at nine"}, format="json", HTTP_X_DEVICE="desk"
    )
    assert late.status_code == 201, late.json()
    jo = next(e for e in late.json()["entries"] if e["name"] == "Jo")
    assert jo["joined"] == 2 and jo["status"] == "active"
    entered = Event.objects.filter(stream_id=made["id"], type="player.entered").last()
    assert entered is not None
    assert entered.data["reason"] == "came at nine" and entered.meta["device"] == "desk"
    # a reason over 500 characters is not the body the schema takes
    too_long = director.post(url, {"name": "Kay", "reason": "x" * 501}, format="json")
    assert too_long.status_code == 400 and too_long.json()["code"] == "request.invalid"


LAYOUT = {
    f"C{i}": pawn
    for i, pawn in enumerate(
        [f"{colour}{spots}" for colour in "RGBY" for spots in range(1, 5)], start=1
    )
}


def test_a_live_duplicate_game_starts_on_the_rounds_layout(director: Any) -> None:
    made = create(
        director, format="scarney-solitaire", system="tables", table_size=1, rounds=1, entry="live"
    )
    enter(director, made["id"], ["Ann", "Bob"])
    played = pair(director, made["id"])
    laid = correction(director, made["id"], "round.laid_out", {"round": 1, "layouts": [LAYOUT] * 5})
    assert laid.status_code == 201, laid.json()
    again = correction(director, made["id"], "round.laid_out", {"round": 1, "layouts": [LAYOUT]})
    assert again.status_code == 422 and again.json()["code"] == "round.already_laid_out"
    for table in played["tables"]:
        body = {"kind": "scarney-solitaire", "match": table["match"]}
        game = director.post("/api/v1/games/", body, format="json")
        assert game.status_code == 201, game.json()
        shown = director.get(f"/api/v1/games/{game.json()['id']}/").json()
        assert shown["version"] == 2 and shown["expected"] == ["pawn.taken_off"]


def test_keepers_record_only_at_their_table_and_visitors_only_read(
    director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    keeper_user, keeper = client_for("bob")
    _other_user, stranger = client_for("sam")
    made = create(director, format="high-low-scarney", system="swiss", rounds=2)
    enter(director, made["id"], NAMES[:4])
    played = pair(director, made["id"])
    assigned = director.post(
        f"/api/v1/tournaments/{made['id']}/keepers/",
        {"round": 1, "table": 1, "user": "bob"},
        format="json",
    )
    assert assigned.status_code == 201 and assigned.json()["tables"][0]["keepers"] == ["bob"]
    mine, theirs = played["tables"][0]["match"], played["tables"][1]["match"]
    assert sheet_line(keeper, mine, [34, 0]).status_code == 201
    refused = sheet_line(keeper, theirs, [34, 0])
    assert refused.status_code == 403 and refused.json()["code"] == "permission.not_your_table"
    assert sheet_line(stranger, mine, [34, 0]).json()["code"] == "permission.not_your_table"
    # Only directors run the tournament.
    for response in (
        keeper.post("/api/v1/tournaments/", {"name": "x", "format": "scarnie"}, format="json"),
        keeper.post(f"/api/v1/tournaments/{made['id']}/rounds/", {}, format="json"),
        keeper.post(f"/api/v1/tournaments/{made['id']}/entries/", {"name": "Zed"}, format="json"),
    ):
        assert response.status_code == 403 and response.json()["code"] == "permission.director_only"
    from rest_framework.test import APIClient

    visitor = APIClient()
    assert visitor.get(f"/api/v1/tournaments/{made['id']}/standings/").status_code == 200
    assert (
        visitor.post(f"/api/v1/tournaments/{made['id']}/rounds/", {}, format="json").status_code
        == 401
    )
    assert keeper_user.username == "bob"


def test_two_members_may_share_a_name_and_a_seat_by_that_name_is_ambiguous(director: Any) -> None:
    for number in ("101", "102"):
        made = director.post(
            "/api/v1/players/", {"name": "Bob", "member_number": number}, format="json"
        )
        assert made.status_code == 201, made.json()
    found = director.get("/api/v1/players/", {"q": "bob"}).json()["results"]
    assert [p["member_number"] for p in found] == ["101", "102"]
    taken = director.post(
        "/api/v1/players/", {"name": "Rob", "member_number": "101"}, format="json"
    )
    assert taken.status_code == 422 and taken.json()["code"] == "player.member_number_taken"
    tournament = create(director, format="high-low-scarney", system="swiss", rounds=1)
    response = director.post(
        f"/api/v1/tournaments/{tournament['id']}/entries/", {"name": "Bob"}, format="json"
    )
    assert response.status_code == 422 and response.json()["code"] == "player.ambiguous"
    # the candidates name each namesake by id, never by member number (the directors' to see)
    candidates = response.json()["candidates"]
    assert {c["player"] for c in candidates} == {p["id"] for p in found[:2]}
    assert all(set(c) == {"player", "name"} for c in candidates)
    by_number = director.post(
        f"/api/v1/tournaments/{tournament['id']}/entries/", {"member_number": "102"}, format="json"
    )
    assert by_number.status_code == 201
    assert by_number.json()["entries"][0]["player"] == found[1]["id"]
    match = director.post(
        "/api/v1/matches/",
        {"format": "high-low-scarney", "players": [{"name": "Bob"}, {"name": "Ann"}]},
        format="json",
    )
    assert match.status_code == 422 and match.json()["code"] == "player.ambiguous"
    merged = director.post(
        f"/api/v1/players/{found[0]['id']}/merge/",
        {"into": found[1]["id"], "reason": "one person, two cards"},
        format="json",
    )
    assert merged.status_code == 200 and merged.json()["merged_into"] == found[1]["id"]
    # One Bob is left to a seat by name once the other is merged into him.
    again = director.post(
        "/api/v1/matches/",
        {"format": "high-low-scarney", "players": [{"name": "Bob"}, {"name": "Ann"}]},
        format="json",
    )
    assert again.status_code == 201 and again.json()["players"][0]["player"] == found[1]["id"]


def test_corrections_forfeit_void_and_adjust_then_standings_as_of_a_round(
    director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    made = create(director, format="high-low-scarney", system="swiss", rounds=2)
    ids = enter(director, made["id"], NAMES[:4])
    first = pair(director, made["id"])
    t1, t2 = first["tables"]
    forfeit = correction(
        director,
        made["id"],
        "result.forfeited",
        {"round": 1, "table": 1, "player": t1["seats"][1]["player"], "reason": "no show"},
    )
    assert forfeit.status_code == 201, forfeit.json()
    void = correction(director, made["id"], "game.voided", {"round": 1, "table": 2, "reason": "x"})
    assert void.status_code == 201, void.json()
    bad = correction(
        director,
        made["id"],
        "result.adjusted",
        {"round": 1, "table": 2, "points": [2, 0], "reason": "r"},
    )
    assert bad.status_code == 422 and bad.json()["code"] == "result.bad_points"
    second = pair(director, made["id"])
    assert second["number"] == 2
    after_one = standings(director, made["id"], round=1)
    points = {r["player"]: r["points"] for r in after_one["rows"]}
    assert points[t1["seats"][0]["player"]] == 1.0 and sum(points.values()) == 1.0
    assert {r["played"] for r in after_one["rows"]} == {1}
    closed_again = correction(
        director,
        made["id"],
        "result.adjusted",
        {"round": 1, "table": 1, "points": [0, 1], "reason": "r"},
    )
    assert closed_again.status_code == 422 and closed_again.json()["code"] == "round.closed"
    assert sorted(ids) == sorted(points)


def test_replaying_a_tournament_gives_its_recorded_pairings_whatever_the_engine_now_says(
    director: Any, django_capture_on_commit_callbacks: Any, monkeypatch: Any
) -> None:
    made = create(director, format="high-low-scarney", system="swiss", rounds=2)
    enter(director, made["id"], NAMES[:6])
    first = pair(director, made["id"])
    for table in first["tables"]:
        high_low_win(director, table["match"], 0, django_capture_on_commit_callbacks)
    second = pair(director, made["id"])

    def other_engine(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a replay must never pair again")

    monkeypatch.setattr(swiss, "swiss", other_engine)
    stream = Stream.objects.get(pk=uuid.UUID(made["id"]))
    replayed = folding.refold(stream).state
    assert [t.players for t in replayed.round(2).tables] == [
        tuple(s["player"] for s in t["seats"]) for t in second["tables"]
    ]
    assert replayed == folding.load(stream).state


def test_a_round_is_paired_again_before_its_results_and_a_requested_bye_sits_out(
    director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    made = create(director, format="high-low-scarney", system="swiss", rounds=2)
    ids = enter(director, made["id"], NAMES[:5])
    asked = correction(
        director,
        made["id"],
        "bye.requested",
        {"player": ids[0], "round": 1, "points": 0.5, "reason": "arrives late"},
    )
    assert asked.status_code == 201, asked.json()
    first = pair(director, made["id"])
    assert {"player": ids[0], "name": "Ann", "label": "Ann", "points": 0.5} in first["byes"]
    seated = [s["player"] for t in first["tables"] for s in t["seats"]]
    assert sorted(seated) == sorted(ids[1:])
    # Re-pairing by hand, before any result: the first matches are abandoned.
    by_hand = [[ids[1], ids[2]], [ids[3], ids[4]]]
    unexplained = director.post(
        f"/api/v1/tournaments/{made['id']}/rounds/",
        {"repair": True, "tables": by_hand},
        format="json",
    )
    assert unexplained.json()["code"] == "tournament.reason_required"
    with django_capture_on_commit_callbacks(execute=True):
        again = pair(director, made["id"], repair=True, tables=by_hand, reason="wrong field")
    assert [[s["player"] for s in t["seats"]] for t in again["tables"]] == by_hand
    old = [t["match"] for t in first["tables"]]
    assert {director.get(f"/api/v1/matches/{m}/").json()["status"] for m in old} == {"abandoned"}
    set_aside = sheet_line(director, old[0], [34, 0])
    assert set_aside.status_code == 422 and set_aside.json()["code"] == "match.abandoned"
    high_low_win(director, again["tables"][0]["match"], 0, django_capture_on_commit_callbacks)
    late = director.post(
        f"/api/v1/tournaments/{made['id']}/rounds/", {"repair": True, "reason": "x"}, format="json"
    )
    assert late.status_code == 422 and late.json()["code"] == "round.has_results"


def test_standings_as_of_a_time_fold_the_stream_up_to_it(
    director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    made = create(director, format="high-low-scarney", system="swiss", rounds=1)
    enter(director, made["id"], NAMES[:2])
    played = pair(director, made["id"])
    events = director.get(f"/api/v1/tournaments/{made['id']}/events/").json()["results"]
    paired_at = events[-1]["recorded_at"]
    high_low_win(director, played["tables"][0]["match"], 0, django_capture_on_commit_callbacks)
    now = standings(director, made["id"])
    before = standings(director, made["id"], as_of=paired_at)
    assert [r["points"] for r in now["rows"]] == [1, 0]
    assert [r["points"] for r in before["rows"]] == [0, 0]
    bad = director.get(f"/api/v1/tournaments/{made['id']}/standings/", {"as_of": "yesterday"})
    assert bad.status_code == 400 and bad.json()["code"] == "query.bad_value"
    shown = director.get(f"/api/v1/tournaments/{made['id']}/rounds/1/", {"as_of": paired_at})
    assert shown.json()["missing"] == [1]


def test_standings_answer_304_until_the_tournament_moves_on(
    director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    made = create(director, format="high-low-scarney", system="swiss", rounds=1)
    enter(director, made["id"], NAMES[:2])
    played = pair(director, made["id"])
    url = f"/api/v1/tournaments/{made['id']}/standings/"
    first = director.get(url)
    tag = first["ETag"]
    assert first.status_code == 200 and tag
    assert director.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    assert director.get(url, {"round": 0}, HTTP_IF_NONE_MATCH=tag).status_code == 200
    high_low_win(director, played["tables"][0]["match"], 0, django_capture_on_commit_callbacks)
    moved = director.get(url, HTTP_IF_NONE_MATCH=tag)
    assert moved.status_code == 200 and moved["ETag"] != tag
    assert [r["points"] for r in moved.json()["rows"]] == [1, 0]
