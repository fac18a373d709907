"""The words at the table, without a browser: games by name with their players, a sheet's rule,
a take-back confirmed, a one-player game's result, and a refused sheet value cleared."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import pytest
from django.test import Client

from games.pages import forms
from games.pages.sheet_presenting import over_sentence, rule_sentence
from games.pages.tables import presenting
from games.play import services
from games.play.representation import undone_move
from games.rules import registry
from scoring.documents import labels


@pytest.mark.parametrize(
    ("counts", "said"),
    [
        ((1,), "1 player"),
        ((2,), "2 players"),
        ((2, 3, 4), "2 to 4 players"),
        ((4, 6), "4 or 6 players"),
        ((3, 4), "3 or 4 players"),
    ],
)
def test_a_number_of_players_is_said_as_people_say_it(counts: tuple[int, ...], said: str) -> None:
    assert forms.players_phrase(counts) == said


def test_the_form_lists_every_game_it_can_start_by_name_with_its_players() -> None:
    choices = dict(forms.kind_choices())
    assert choices["manchester-piccadilly"] == "Manchester Piccadilly — 2 players"
    assert choices["scarney-solitaire"] == "Scarney Solitaire — 1 player"
    assert choices["partnership-straight-scarney-dice"].endswith("— 4 or 6 players")
    assert not set(registry.kinds()) & {label.split(" — ")[0] for label in choices.values()}
    # the rule modules need a base game the form does not ask for: said, not offered
    assert {"tontine", "last-laugh", "courtship-rules"}.isdisjoint(choices)
    assert forms.kinds_left_out() == (
        "Courtship Rules, Last Laugh and Tontine are played on a base game: start them through "
        "the API."
    )


def test_a_count_the_game_is_not_played_by_is_refused_beside_the_players_in_its_name() -> None:
    form = forms.GameStartForm({"kind": "manchester-piccadilly", "seats": "A\nB\nC\nD"})
    assert not form.is_valid()
    assert form.errors["seats"] == ["Manchester Piccadilly is played by 2 players; 4 are named."]
    assert 'aria-describedby="seats-error"' in str(form["seats"])
    partners = forms.GameStartForm({"kind": "partnership-scarney-3000", "seats": "A\nB\nC\nD\nE"})
    assert partners.errors["seats"] == [
        "Partnership Scarney 3000 is played by 4 or 6 players; 5 are named."
    ]


def test_every_sheet_format_has_its_rule_in_one_sentence_with_its_house_rules() -> None:
    for format in registry.formats():
        said = rule_sentence(format, {})
        assert said.endswith(".") and said.count(". ") == 0, format
        assert format not in said and "{" not in said, format
    assert "one game to 150" in rule_sentence("hearts-due", {"hearts_due_target": 150})
    assert "after 4 hands" in rule_sentence("manchester-piccadilly", {"mp_hands": 4})
    assert "stand at 5000" in rule_sentence("scarney-3000", {"s3000_target": 5000})
    assert "a session is 3 rounds" in rule_sentence("going-to-boston", {"session_rounds": 3})
    assert "a tie shares it" in rule_sentence("multiplication", {"boston_tie": "split"})
    assert rule_sentence("scarney-singles", {}) == (
        "Only the active player scores in each game (the others 0); after 5 rounds the highest "
        "match score wins, with a bonus of 100."
    )


def test_a_rating_band_keeps_its_own_punctuation() -> None:
    assert labels.end_sentence(f"Zoe — {labels.rated('Try again!')}") == "Zoe — rated “Try again!”"
    assert labels.end_sentence(f"Zoe — {labels.rated('Par game')}") == "Zoe — rated “Par game”."


def game_json(seats: list[str], **fields: Any) -> dict[str, Any]:
    return {
        "status": "finished",
        "seats": [{"seat": seat, "name": name} for seat, name in enumerate(seats)],
        "turn": None,
        **fields,
    }


def test_a_one_player_game_has_no_winner_but_its_pawns_points_and_rating() -> None:
    game = game_json(
        ["Zoe"],
        removed=["R1"] * 12,
        scores=[{"seat": 0, "total": 28}],
        result={"winner": [0], "rating": "Try again!"},
    )
    assert presenting.turn_sentence(game, {0: "Zoe"}) == (
        "Zoe's game is over: 12 pawns off the board, 28 points — rated “Try again!”"
    )
    duel = game_json(["Ann", "Bob"], scores=[], result={"winner": [1]})
    assert presenting.turn_sentence(duel, {0: "Ann", 1: "Bob"}) == "Game over. Won by Bob."


def test_a_take_back_is_confirmed_in_the_words_of_the_move_and_its_player() -> None:
    game = game_json(["Ann", "Bob"], turn=0)
    throw = ("dice.thrown", {"faces": ["4", "5", "6"]})
    assert presenting.undone_sentence(game, throw) == "Undone: Ann's throw of 4 5 6."
    deal = ("cards.dealt", {"hands": []})
    assert presenting.undone_sentence(game, deal) == "Undone: the deal."
    assert presenting.undone_sentence(game, None) == "Last move undone."


def test_the_move_an_undo_took_back_is_the_last_still_in_force(user: Any) -> None:
    game = services.game_start(kind="scarney-3000", seats=[{"name": "A"}, {"name": "B"}], user=user)

    def record(type: str, data: dict[str, Any]) -> None:
        services.event_record(
            stream_id=game.pk, event_id=uuid.uuid4(), type=type, data=data, user=user
        )

    assert undone_move(game.pk) is None
    record("dice.thrown", {"faces": ["D", "1", "3", "4", "6"]})
    record("dice.thrown", {"faces": ["D", "3", "6", "6"]})
    record("move.undone", {})
    assert undone_move(game.pk).data == {"faces": ["D", "3", "6", "6"]}  # type: ignore[union-attr]
    record("move.undone", {})
    assert undone_move(game.pk).data == {"faces": ["D", "1", "3", "4", "6"]}  # type: ignore[union-attr]
    # through the page: the answer to an undo says what it took back
    record("dice.thrown", {"faces": ["D", "1", "3", "4", "6"]})
    keeper = Client()
    keeper.force_login(user)
    body = {"id": str(uuid.uuid4()), "type": "move.undone", "payload": json.dumps({})}
    answer = keeper.post(f"/games/{game.pk}/moves/", body)
    assert answer.status_code == 201
    assert "Undone: A&#x27;s throw of D 1 3 4 6." in answer.content.decode()


def test_a_refused_sheet_value_is_cleared_and_said_beside_its_box(user: Any) -> None:
    match = services.match_start(
        format="high-low-scarney",
        players=[{"name": "Ann"}, {"name": "Bob"}],
        entry="sheet",
        user=user,
    )
    keeper = Client()
    keeper.force_login(user)
    line = {"id": str(uuid.uuid4()), "expected_version": "1", "score_0": "999", "score_1": "0"}
    refused = keeper.post(f"/matches/{match.pk}/lines/", line)
    assert refused.status_code == 422
    html = refused.content.decode()
    assert box(html, 0) == "" and box(html, 1) == "0"
    assert "999 was refused; the box is cleared." in html
    assert f'value="{line["id"]}"' in html  # nothing was recorded: the same line may go again
    unread = keeper.post(f"/matches/{match.pk}/lines/", {**line, "score_0": "lots"})
    assert unread.status_code == 400 and box(unread.content.decode(), 0) == ""


def box(html: str, seat: int) -> str:
    found = re.search(rf'<input[^>]*name="score_{seat}"[^>]*>', html)
    assert found, f"no box for seat {seat}"
    value = re.search(r'value="([^"]*)"', found.group(0))
    return value.group(1) if value else ""


def test_a_one_player_match_is_over_with_its_games_points_and_rating_not_a_winner() -> None:
    history = {
        "standing": [{"seat": 0, "total": 312}],
        "games": [{}] * 5,
        "rating": "Fair match",
        "winner": [0],
    }
    finished = {"status": "finished"}
    assert over_sentence(history, finished, ["Zoe"]) == (
        "Zoe's match is over: 5 games, 312 points — rated “Fair match”."
    )
    duel = {**history, "winner": [1]}
    assert over_sentence(duel, finished, ["Ann", "Bob"]) == "The match is over: Bob wins."
    assert over_sentence(duel, {"status": "in_progress"}, ["Ann", "Bob"]) == ""
