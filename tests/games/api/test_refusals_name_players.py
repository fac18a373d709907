"""A refusal names players, never seats: the rules say "seat 0", the faces (the API's ``detail``,
the pages) say the player's label, "Ann", and two players of one name are told apart as the
tables show them, "Pat (1)" and "Pat (2)". The facts keep their seat numbers.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from django.test import Client
from rest_framework.test import APIClient

from games.play import services
from games.play.refusals import labels_of, refusal_of
from games.rules.errors import IllegalEvent
from games.rules.wording import player_at, players_at, told_apart, worded
from tests.games.api.test_api_scarney_matches import match_event, new_match

SEAT_NUMBER = re.compile(r"\bseats? \d", re.IGNORECASE)


def test_a_high_low_sheet_line_no_game_gives_names_its_player(api: APIClient) -> None:
    match = new_match(api, "high-low-scarney", ["Ann", "Bob"], "sheet")
    refused = match_event(api, match, "game.scored", {"scores": [35, 0]})
    assert refused.status_code == 422
    body = refused.json()
    assert body["code"] == "score.unattainable"
    assert "35 is not a possible High-Low Scarney score (Ann, game 1)" in body["detail"]
    assert body["seat"] == 0 and body["score"] == 35  # the facts keep the seat's number
    assert not SEAT_NUMBER.search(body["detail"])


def test_a_scarney_3000_sheet_turn_not_shot_names_both_players(api: APIClient) -> None:
    match = new_match(api, "scarney-3000", ["Ann", "Bob"], "sheet")
    # Ann reaches 3000 in round 1: Bob's turn written after it was never shot
    refused = match_event(api, match, "game.scored", {"turns": [[3000, 500]]})
    assert refused.status_code == 422, refused.json()
    body = refused.json()
    assert body["code"] == "sheet.turn_not_due"
    assert body["detail"] == "Bob has 500 in round 1, but the game was over, won by Ann."
    assert body["seat"] == 1


def test_a_live_scarney_3000_throw_out_of_turn_names_the_shooter(api: APIClient) -> None:
    seats = [{"name": "Ann"}, {"name": "Bob"}]
    game = api.post("/api/v1/games/", {"kind": "scarney-3000", "seats": seats}, format="json")
    assert game.status_code == 201, game.json()
    body = {"id": str(uuid.uuid4()), "type": "dice.thrown", "data": {"seat": 1, "faces": ["1"] * 6}}
    refused = api.post(f"/api/v1/games/{game.json()['id']}/events/", body, format="json")
    assert refused.status_code == 422, refused.json()
    assert refused.json()["code"] == "turn.not_your_turn"
    assert refused.json()["detail"].startswith("Bob is not on turn: Ann ")


def test_namesakes_are_told_apart_in_a_refusal(api: APIClient) -> None:
    match = new_match(api, "high-low-scarney", ["Pat", "Pat"], "sheet")
    refused = match_event(api, match, "game.scored", {"scores": [0, 35]})
    assert "(Pat (2), game 1)" in refused.json()["detail"]


def test_a_seat_the_table_has_not_got_is_seat_unknown(api: APIClient) -> None:
    seats = [{"name": "Ann"}, {"name": "Bob"}]
    game = api.post("/api/v1/games/", {"kind": "scarney-3000", "seats": seats}, format="json")
    body = {"id": str(uuid.uuid4()), "type": "dice.thrown", "data": {"seat": 5, "faces": ["1"]}}
    refused = api.post(f"/api/v1/games/{game.json()['id']}/events/", body, format="json")
    assert refused.status_code == 422
    assert refused.json()["code"] == "seat.unknown" and refused.json()["seat"] == 5


def test_a_sheet_line_of_the_wrong_length_is_sheet_wrong_length(api: APIClient) -> None:
    match = new_match(api, "high-low-scarney", ["Ann", "Bob"], "sheet")
    refused = match_event(api, match, "game.scored", {"scores": [34, 0, 0]})
    assert refused.status_code == 422
    body = refused.json()
    assert (body["code"], body["field"], body["count"], body["expected"]) == (
        "sheet.wrong_length",
        "scores",
        3,
        2,
    )


def test_the_sheet_page_shows_the_named_sentence(user: Any) -> None:
    match = services.match_start(
        format="high-low-scarney",
        players=[{"name": "Ann"}, {"name": "Bob"}],
        entry="sheet",
        user=user,
    )
    keeper = Client()
    keeper.force_login(user)
    page = keeper.get(f"/matches/{match.pk}/").content.decode()
    event_id = re.search(r'name="id" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    line = {"id": event_id, "expected_version": "1", "score_0": "0", "score_1": "35"}
    answer = keeper.post(f"/matches/{match.pk}/lines/", line)
    assert answer.status_code == 422
    assert "35 is not a possible High-Low Scarney score (Bob, game 1)" in answer.content.decode()


# --- the wording, without a stream ---------------------------------------------------------------


def test_without_labels_a_sentence_says_the_seat_and_starts_with_a_capital() -> None:
    sentence = f"{player_at(2)} waits; {players_at([0, 1])} play. {player_at(3)}"
    refusal = IllegalEvent("x.y", sentence)
    assert refusal.message == "Seat 2 waits; seats 0 and 1 play. Seat 3"
    assert str(refusal) == refusal.message and refusal.seats_named == (2, 0, 1, 3)
    labels = {0: "Ann", 1: "Bob", 2: "Cy", 3: "Di"}
    assert refusal.sentence(labels) == "Cy waits; Ann and Bob play. Di"


def test_refusal_of_words_the_refusal_with_the_labels_the_service_gave() -> None:
    refusal = IllegalEvent("x.y", f"{player_at(1)} is not on turn.", seat=1)
    refusal.labels = labels_of({"seats": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bob"}]})
    refused = refusal_of(refusal)
    assert refused is not None
    assert (refused.sentence, refused.facts) == ("Bob is not on turn.", {"seat": 1})


def test_a_seat_without_a_label_keeps_its_number() -> None:
    assert worded(f"{player_at(4)} left.", {0: "Ann"}) == "Seat 4 left."
    assert told_apart({0: "Pat", 1: "Ann", 2: "pat"}) == {0: "Pat (1)", 1: "Ann", 2: "pat (2)"}
