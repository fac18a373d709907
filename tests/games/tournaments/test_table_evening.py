"""The director's evening at its tables (API.md "Tournaments"): players of one name told apart,
table codes for keepers without an account, results confirmed at the table, and standings that
say which round they are after."""

from __future__ import annotations

import io
import re
import uuid
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client

from games.pages import tournament_tables
from games.store import folding
from games.store.models import Event, Game, Player, Stream, TableCode
from games.tournaments import keepers
from tests.games.tournaments.helpers import (
    HL_WIN,
    client_for,
    correction,
    create,
    enter,
    pair,
    play_sheet,
    standings,
)

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bob", "Cid", "Dee"]


@pytest.fixture
def director() -> Any:
    return client_for("director", staff=True)[1]


@pytest.fixture(autouse=True)
def no_misses_remembered() -> Any:
    cache.clear()  # the wrong-code counts of another test's address
    yield
    cache.clear()


def evening(director: Any, **spec: Any) -> tuple[str, dict[str, Any]]:
    made = create(director, format="high-low-scarney", system="swiss", rounds=2, **spec)
    enter(director, made["id"], NAMES)
    return made["id"], pair(director, made["id"])


def entry(api: Any, tournament: str, body: dict[str, Any]) -> Any:
    return api.post(f"/api/v1/tournaments/{tournament}/entries/", body, format="json")


def round_of(api: Any, tournament: str, number: int = 1) -> dict[str, Any]:
    response = api.get(f"/api/v1/tournaments/{tournament}/rounds/{number}/")
    assert response.status_code == 200, response.json()
    return response.json()  # type: ignore[no-any-return]


def confirm(api: Any, match: str, data: dict[str, Any]) -> Any:
    body = {"id": str(uuid.uuid4()), "type": "result.confirmed", "data": data}
    return api.post(f"/api/v1/matches/{match}/events/", body, format="json")


# --- players told apart -----------------------------------------------------------------------


def test_a_second_pat_is_asked_about_then_entered_apart_and_shown_by_label_everywhere(
    director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    made = create(director, format="high-low-scarney", system="swiss", rounds=2)
    tid = made["id"]
    enter(director, tid, ["Pat", "Jon", "Kim"])
    again = entry(director, tid, {"name": "Pat"})
    assert again.status_code == 422 and again.json()["code"] == "player.ambiguous"
    assert [c["name"] for c in again.json()["candidates"]] == ["Pat"]
    assert "already entered" in again.json()["detail"]
    second = entry(director, tid, {"name": "Pat", "new": True})
    assert second.status_code == 201, second.json()
    labels = {e["label"] for e in second.json()["entries"]}
    assert labels == {"Pat (1)", "Pat (2)", "Jon", "Kim"}
    # A name two registered players share is asked about too; the director's label is kept.
    taken = entry(director, tid, {"name": "Pat", "new": True, "label": "Pat (1)"})
    assert taken.status_code == 422 and taken.json()["code"] == "tournament.label_taken"
    ambiguous = entry(director, tid, {"name": "Pat"})
    assert ambiguous.json()["code"] == "player.ambiguous"
    assert len(ambiguous.json()["candidates"]) == 2
    pats = sorted(Player.objects.filter(name="Pat").values_list("pk", flat=True))
    relabelled = correction(
        director, tid, "player.labelled", {"player": pats[1], "label": "Pat K."}
    )
    assert relabelled.status_code == 201, relabelled.json()
    shown = {e["player"]: e["label"] for e in relabelled.json()["entries"]}
    assert shown[pats[0]] == "Pat" and shown[pats[1]] == "Pat K."
    # the pairing, the standings and the table cards show the labels
    played = pair(director, tid)
    seated = {s["label"] for t in played["tables"] for s in t["seats"]}
    seated |= {b["label"] for b in played["byes"]}
    assert seated == {"Pat", "Pat K.", "Jon", "Kim"}
    rows = standings(director, tid)["rows"]
    assert {r["label"] for r in rows} == {"Pat", "Pat K.", "Jon", "Kim"}
    assert {r["name"] for r in rows} == {"Pat", "Jon", "Kim"}
    cards = director.get(f"/api/v1/tournaments/{tid}/rounds/1/cards.html")
    assert cards.status_code in (200, 202)


def test_the_admin_asks_which_pat_and_enters_a_second_one_with_a_label(
    admin_client: Any,
) -> None:
    from games.tournaments import creating, rounds

    director = get_user_model().objects.get(username="admin")
    tournament = creating.tournament_create(
        spec={"name": "Friday Swiss", "format": "high-low-scarney", "rounds": 3}, user=director
    )
    url = f"/admin/games/tournament/{tournament.pk}/enter/"
    first = admin_client.post(url, {"names": "Pat\nJon"})
    assert first.status_code == 302
    asked = admin_client.post(url, {"names": "Pat\nKim"})
    page = asked.content.decode()
    assert asked.status_code == 200 and "Who is who?" in page
    assert "The Pat already entered" in page and "A new player called Pat" in page
    answer = {
        "step": "who",
        "lines": '["Pat", "Kim"]',
        "reason": "",
        "who_0": "new",
        "label_0": "Pat B.",
    }
    done = admin_client.post(url, answer)
    assert done.status_code == 302
    state = folding.load(Stream.objects.get(pk=tournament.pk)).state
    assert sorted(state.labels().values()) == ["Jon", "Kim", "Pat", "Pat B."]
    assert Player.objects.filter(name="Pat").count() == 2
    # The director's table cards carry each table's code and its link as a QR code; the
    # documents anyone may read do not.
    rounds.round_pair(tournament_id=tournament.pk, user=director)
    cards = admin_client.get(f"/admin/games/tournament/{tournament.pk}/cards/?round=1")
    page = cards.content.decode()
    table_codes = keepers.live_codes(tournament.pk, 1)
    assert cards.status_code == 200 and page.count("<svg") == len(table_codes) == 2
    # The printed link wraps at its slashes only (spans and <wbr>): read as the eye reads it.
    text = re.sub(r"<[^>]+>", "", page)
    for code in table_codes.values():
        assert f"http://testserver/t/{code}/" in text and f'data-code="{code}"' in page
    assert "Pat B." in page
    public = admin_client.get(f"/api/v1/tournaments/{tournament.pk}/rounds/1/cards.html")
    assert public.status_code in (200, 202)
    assert not any(code in public.content.decode() for code in table_codes.values())


# --- table codes ------------------------------------------------------------------------------


def test_directors_alone_see_the_table_codes_of_a_round(director: Any) -> None:
    tid, played = evening(director)
    table_codes = [t["code"] for t in played["tables"]]
    assert all(re.fullmatch(r"[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}", c) for c in table_codes)
    assert len(set(table_codes)) == len(table_codes)
    assert [t["keeper_url"] for t in played["tables"]] == [f"/t/{c}/" for c in table_codes]
    _member, member = client_for("sam")
    for table in round_of(member, tid)["tables"]:
        assert "code" not in table and "keeper_url" not in table
    assert len(keepers.ALPHABET) ** keepers.LENGTH >= 2**40


def test_a_phone_without_an_account_records_at_its_table_alone_by_the_code(
    director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tid, played = evening(director)
    mine, theirs = played["tables"]
    phone = Client(enforce_csrf_checks=True)
    opened = phone.get(mine["keeper_url"].lower())  # typed in lower case: still the code
    assert opened.status_code == 302 and opened["Location"] == f"/matches/{mine['match']}/"
    page = phone.get(opened["Location"])
    assert page.status_code == 200
    csrf = phone.cookies["csrftoken"].value
    line = {"id": str(uuid.uuid4()), "type": "game.scored", "data": {"scores": HL_WIN}}
    headers = {"HTTP_X_CSRFTOKEN": csrf, "content_type": "application/json"}
    without_csrf = Client(enforce_csrf_checks=True)
    without_csrf.cookies = phone.cookies
    refused = without_csrf.post(
        f"/api/v1/matches/{mine['match']}/events/", line, "application/json"
    )
    assert refused.status_code == 403
    recorded = phone.post(f"/api/v1/matches/{mine['match']}/events/", line, **headers)
    assert recorded.status_code == 201, recorded.json()
    line["id"] = str(uuid.uuid4())
    other = phone.post(f"/api/v1/matches/{theirs['match']}/events/", line, **headers)
    assert other.status_code == 403 and other.json()["code"] == "permission.not_your_table"
    game = {"kind": "high-low-scarney", "seats": [{"name": "A"}, {"name": "B"}]}
    started = phone.post("/api/v1/games/", game, **headers)
    assert started.status_code == 403 and started.json()["code"] == "permission.not_your_table"
    # A director reissues the code: the old one says so, and the phone records no more.
    reissued = director.post(f"/api/v1/tournaments/{tid}/rounds/1/tables/1/code/")
    assert reissued.status_code == 201 and reissued.json()["code"] != mine["code"]
    old = Client().get(mine["keeper_url"])
    assert old.status_code == 410 and b"code.revoked" in old.content
    line["id"] = str(uuid.uuid4())
    stopped = phone.post(f"/api/v1/matches/{mine['match']}/events/", line, **headers)
    assert stopped.status_code in (401, 403)
    # Revoked outright, the new one stops too.
    assert director.delete(f"/api/v1/tournaments/{tid}/rounds/1/tables/1/code/").status_code == 204
    assert Client().get(reissued.json()["keeper_url"]).status_code == 410
    keepers_only = client_for("sam")[1]
    denied = keepers_only.post(f"/api/v1/tournaments/{tid}/rounds/1/tables/1/code/")
    assert denied.status_code == 403 and denied.json()["code"] == "permission.director_only"


def test_a_code_expires_with_its_round(
    director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tid, played = evening(director)
    for table in played["tables"]:
        play_sheet(director, table["match"], [HL_WIN] * 3, django_capture_on_commit_callbacks)
    pair(director, tid)  # closes round 1: results entered by a director are confirmed
    expired = Client().get(played["tables"][0]["keeper_url"])
    assert expired.status_code == 410 and b"code.expired" in expired.content
    assert not TableCode.objects.filter(round_number=1, expired_at=None).exists()
    assert not get_user_model().objects.filter(table_code__round_number=1, is_active=True).exists()


def test_wrong_codes_are_throttled_per_address(director: Any) -> None:
    _tid, played = evening(director)
    guesser = Client(REMOTE_ADDR="203.0.113.9")
    for _ in range(tournament_tables.WRONG_CODES_ALLOWED):
        assert guesser.get("/t/ZZZZ-ZZZZ/").status_code == 404
    assert guesser.get("/t/ZZZZ-ZZZZ/").status_code == 429
    # even the right code, from that address, until the window passes
    assert guesser.get(played["tables"][0]["keeper_url"]).status_code == 429
    assert (
        Client(REMOTE_ADDR="203.0.113.10").get(played["tables"][0]["keeper_url"]).status_code == 302
    )


# --- results confirmed ------------------------------------------------------------------------


def test_a_keepers_result_waits_for_its_players_and_pairing_over_it_needs_a_reason(
    director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tid, played = evening(director)
    keeper_user, keeper = client_for("bob")
    for table in played["tables"]:
        assigned = director.post(
            f"/api/v1/tournaments/{tid}/keepers/",
            {"round": 1, "table": table["table"], "user": "bob"},
            format="json",
        )
        assert assigned.status_code == 201
    first, second = (t["match"] for t in played["tables"])
    early = confirm(keeper, first, {"seat": 0})
    assert early.status_code == 409 and early.json()["code"] == "result.not_finished"
    play_sheet(keeper, first, [HL_WIN] * 3, django_capture_on_commit_callbacks)
    play_sheet(keeper, second, [HL_WIN] * 3, django_capture_on_commit_callbacks)
    shown = round_of(director, tid)
    assert shown["unconfirmed"] == [1, 2]
    assert [t["status"] for t in shown["tables"]] == ["unconfirmed", "unconfirmed"]
    table = standings(director, tid)
    assert table["round"] == 1 and all(r["unconfirmed"] for r in table["rows"])
    refused = director.post(f"/api/v1/tournaments/{tid}/rounds/", {}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "round.results_unconfirmed"
    assert refused.json()["unconfirmed"] == [1, 2]
    # The players of table 1 agree, at the keeper's phone; twice is refused, so is seat 9.
    assert confirm(keeper, first, {"seat": 0}).status_code == 201
    twice = confirm(keeper, first, {"seat": 0})
    assert twice.status_code == 409 and twice.json()["code"] == "result.already_confirmed"
    nine = confirm(keeper, first, {"seat": 9})
    assert nine.status_code == 422 and nine.json()["code"] == "result.bad_seat"
    assert confirm(keeper, first, {"seat": 1}).status_code == 201
    not_theirs = confirm(keeper, second, {"director": True})
    assert not_theirs.status_code == 403 and not_theirs.json()["code"] == "permission.director_only"
    both = confirm(keeper, second, {"seat": 0, "director": True})
    assert both.status_code == 422
    shown = round_of(director, tid)
    assert shown["unconfirmed"] == [2] and shown["tables"][0]["confirmed"] == [0, 1]
    assert shown["tables"][0]["status"] in ("finished", "settled")
    # The director pairs over table 2 with a reason, which round.closed records.
    bare = director.post(f"/api/v1/tournaments/{tid}/rounds/", {"override": True}, format="json")
    assert bare.status_code == 422 and bare.json()["code"] == "tournament.reason_required"
    over = director.post(
        f"/api/v1/tournaments/{tid}/rounds/",
        {"override": True, "reason": "table 2 left before confirming"},
        format="json",
    )
    assert over.status_code == 201, over.json()
    closed = Event.objects.get(stream_id=tid, type="round.closed")
    assert closed.data == {"round": 1, "reason": "table 2 left before confirming"}
    assert keeper_user.username == "bob"


def test_a_director_confirms_a_table_and_results_he_enters_need_no_confirming(
    director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tid, played = evening(director)
    _keeper_user, keeper = client_for("bob")
    director.post(
        f"/api/v1/tournaments/{tid}/keepers/",
        {"round": 1, "table": 2, "user": "bob"},
        format="json",
    )
    first, second = (t["match"] for t in played["tables"])
    play_sheet(director, first, [HL_WIN] * 3, django_capture_on_commit_callbacks)
    play_sheet(keeper, second, [HL_WIN] * 3, django_capture_on_commit_callbacks)
    assert round_of(director, tid)["unconfirmed"] == [2]
    assert confirm(director, second, {"director": True}).status_code == 201
    assert round_of(director, tid)["unconfirmed"] == []
    assert pair(director, tid)["number"] == 2


def test_only_a_tournament_tables_result_is_confirmed(director: Any) -> None:
    body = {
        "format": "high-low-scarney",
        "players": [{"name": "A"}, {"name": "B"}],
        "entry": "sheet",
    }
    match = director.post("/api/v1/matches/", body, format="json").json()["id"]
    refused = confirm(director, match, {"seat": 0})
    assert refused.status_code == 422 and refused.json()["code"] == "result.not_a_table"


def test_standings_are_after_the_last_complete_round_and_name_the_round_in_play(
    director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tid, played = evening(director)
    before = standings(director, tid)
    assert before["round"] == 0 and before["in_play"] == 1
    for table in played["tables"]:
        play_sheet(director, table["match"], [HL_WIN] * 3, django_capture_on_commit_callbacks)
    done = standings(director, tid)
    assert done["round"] == 1 and done["in_play"] is None
    pair(director, tid)
    during = standings(director, tid)
    assert during["round"] == 1 and during["in_play"] == 2
    assert all(r["played"] == 1 for r in during["rows"])
    page = Client().get(f"/tournaments/{tid}/")
    assert b"after round 1" in page.content and b"round 2 in play" in page.content


def test_a_live_tables_phone_starts_its_next_game_and_records_in_it(director: Any) -> None:
    _tid, played = evening(director, entry="live")
    mine, theirs = played["tables"]
    phone = Client(enforce_csrf_checks=True)
    page = phone.get(phone.get(mine["keeper_url"])["Location"])
    assert b'data-action="start-game"' in page.content
    csrf = phone.cookies["csrftoken"].value
    started = phone.post(f"/matches/{mine['match']}/next-game/", HTTP_X_CSRFTOKEN=csrf)
    assert started.status_code == 302 and started["Location"].startswith("/games/")
    game = started["Location"].split("/")[2]
    again = phone.get(f"/matches/{mine['match']}/")
    assert b'data-action="continue-game"' in again.content
    # any move: the rules judge it, the permission does not stop it
    move = {"id": str(uuid.uuid4()), "type": "dice.thrown", "data": {"dice": [1, 2, 3]}}
    answer = phone.post(
        f"/api/v1/games/{game}/events/",
        move,
        content_type="application/json",
        HTTP_X_CSRFTOKEN=csrf,
    )
    assert answer.status_code in (201, 422), answer.json()  # judged by the rules: recorded there
    assert answer.json().get("code") != "permission.not_your_table"
    refused = phone.post(f"/matches/{theirs['match']}/next-game/", HTTP_X_CSRFTOKEN=csrf)
    assert refused.status_code == 302  # back, with the refusal: not its table
    assert not Game.objects.filter(match_id=theirs["match"]).exists()
    assert phone.get(refused["Location"]).status_code == 403  # nor its to follow while played


def test_a_round_paired_again_stops_every_old_code_and_issues_the_new_tables(
    director: Any,
) -> None:
    tid, played = evening(director)
    players = [s["player"] for t in played["tables"] for s in t["seats"]]
    for gone in players[:2]:
        left = correction(director, tid, "player.withdrew", {"player": gone, "reason": "ill"})
        assert left.status_code == 201
    again = director.post(
        f"/api/v1/tournaments/{tid}/rounds/", {"repair": True, "reason": "two left"}, format="json"
    )
    assert again.status_code == 201, again.json()
    assert len(again.json()["tables"]) == 1
    for table in played["tables"]:
        assert Client().get(table["keeper_url"]).status_code == 410
    assert list(keepers.live_codes(tid, 1)) == [1]
    assert Client().get(again.json()["tables"][0]["keeper_url"]).status_code == 302


# --- after confirming: the match folds again, namesakes at one table, the round's closing ------


def keeper_result(director: Any, tid: str, table: dict[str, Any], capture: Any) -> Any:
    """Table ``table``'s match played out by a keeper who is no director: unconfirmed."""
    _user, keeper = client_for(f"keeper{table['table']}")
    director.post(
        f"/api/v1/tournaments/{tid}/keepers/",
        {"round": 1, "table": table["table"], "user": f"keeper{table['table']}"},
        format="json",
    )
    play_sheet(keeper, table["match"], [HL_WIN] * 3, capture)
    return keeper


def test_a_confirmed_match_folds_again_from_its_events_and_a_retry_answers_the_same(
    director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tid, played = evening(director)
    table = played["tables"][0]
    keeper = keeper_result(director, tid, table, django_capture_on_commit_callbacks)
    body = {"id": str(uuid.uuid4()), "type": "result.confirmed", "data": {"seat": 0}}
    first = keeper.post(f"/api/v1/matches/{table['match']}/events/", body, format="json")
    assert first.status_code == 201
    assert confirm(keeper, table["match"], {"seat": 1}).status_code == 201
    # a retry of the first, after the second: its original answer
    again = keeper.post(f"/api/v1/matches/{table['match']}/events/", body, format="json")
    assert (
        again.status_code == 200
        and again.json()["event"]["version"] == first.json()["event"]["version"]
    )
    stream = Stream.objects.get(pk=table["match"])
    assert folding.refold(stream).state == folding.load(stream).state
    header, states = folding.state_stack(stream)
    assert states[-1] == folding.load(stream).state and header["format"] == "high-low-scarney"
    out = io.StringIO()
    call_command("verify_events", "--projections", stdout=out)
    assert "every stream re-folds" in out.getvalue()  # it raises CommandError otherwise
    assert "Every read model row equals a re-fold of the events." in out.getvalue()
    # a director reopens it: the take-back takes back the settlement, not an agreement
    undone = director.post(
        f"/api/v1/matches/{table['match']}/events/",
        {"id": str(uuid.uuid4()), "type": "move.undone", "data": {"reason": "misread"}},
        format="json",
    )
    assert undone.status_code == 201, undone.json()
    reopened = folding.load(Stream.objects.get(pk=table["match"]))
    assert not reopened.match_rules.is_settled(reopened.state)


def test_two_players_of_one_name_at_one_table_are_told_apart_on_its_pages(director: Any) -> None:
    made = create(director, format="high-low-scarney", system="swiss", rounds=1, entry="live")
    tid = made["id"]
    entry(director, tid, {"name": "Pat"})
    entry(director, tid, {"name": "Pat", "new": True, "label": "Pat B."})
    table = pair(director, tid)["tables"][0]
    sheet = Client()
    sheet.force_login(get_user_model().objects.get(username="director"))
    page = sheet.get(f"/matches/{table['match']}/").content.decode()
    assert "Pat B." in page
    started = sheet.post(f"/matches/{table['match']}/next-game/")
    game = sheet.get(started["Location"]).content.decode()
    assert "Pat B." in game


def test_closing_a_round_over_an_unconfirmed_result_says_why(
    director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tid, played = evening(director)
    for table in played["tables"]:
        keeper_result(director, tid, table, django_capture_on_commit_callbacks)
    bare = correction(director, tid, "round.closed", {"round": 1})
    assert bare.status_code == 409 and bare.json()["code"] == "round.results_unconfirmed"
    said = correction(director, tid, "round.closed", {"round": 1, "reason": "all went home"})
    assert said.status_code == 201, said.json()


def test_a_result_confirmed_before_the_tournament_has_it_is_asked_again(
    director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tid, played = evening(director)
    table = played["tables"][0]
    _user, keeper = client_for("kate")
    director.post(
        f"/api/v1/tournaments/{tid}/keepers/",
        {"round": 1, "table": 1, "user": "kate"},
        format="json",
    )
    with django_capture_on_commit_callbacks(execute=False):  # the close has not run yet
        for _ in range(3):
            body = {"id": str(uuid.uuid4()), "type": "game.scored", "data": {"scores": HL_WIN}}
            keeper.post(f"/api/v1/matches/{table['match']}/events/", body, format="json")
        early = confirm(keeper, table["match"], {"seat": 0})
    assert early.status_code == 409 and early.json()["code"] == "result.not_finished"


def test_a_tournament_made_before_confirmations_takes_its_results_as_entered(
    director: Any, django_capture_on_commit_callbacks: Any, monkeypatch: Any
) -> None:
    from games.tournaments import creating

    made = creating._header  # noqa: SLF001 - the header an older release wrote

    def older(spec: Any) -> Any:
        header = made(spec)
        header.pop("confirm_results")
        return header

    monkeypatch.setattr(creating, "_header", older)
    tid, played = evening(director)
    for table in played["tables"]:
        keeper_result(director, tid, table, django_capture_on_commit_callbacks)
    assert round_of(director, tid)["unconfirmed"] == []
    assert pair(director, tid)["number"] == 2


def test_junk_in_the_confirm_form_is_said_not_a_500(director: Any) -> None:
    _tid, played = evening(director)
    page = Client()
    page.force_login(get_user_model().objects.get(username="director"))
    for seat in ("²", "-1", "abc", ""):
        answer = page.post(f"/matches/{played['tables'][0]['match']}/confirm/", {"seat": seat})
        assert answer.status_code == 302
    assert not Event.objects.filter(type__in=("result.confirmed", "table.confirmed")).exists()
