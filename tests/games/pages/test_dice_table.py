"""A dice page's throws in words (each dice game's ``word_throws``, of games/rules/wording.py's
pieces), without a browser: every kind drawn or refused loudly, Going to Boston's turn and
play-off said."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from django.test import Client

from games.pages.tables import presenting
from games.play import services
from games.rules import registry
from games.rules.base import Move, ThrowsDice
from games.rules.dice_games.boston import GOING_TO_BOSTON, MULTIPLICATION_RULES
from games.rules.wording import throw_line
from tests.games.rules.test_every_game_fuzz import REQUIRED_RULESET

NAMES = {0: "Ann", 1: "Bob", 2: "Cy"}


def test_a_throws_bonus_is_said_in_words_never_as_its_data() -> None:
    three = {"faces": list("3336"), "outcome": "points", "points": 50}
    little = {"faces": list("6DDDD"), "outcome": "little_scarney", "points": 25}
    named = throw_line({**three, "bonus": {"kind": "three_of_a_kind", "points": 20}})
    assert named["notes"] == ["bonus: Three of a kind 20"]
    # a bonus the outcome already names is not said twice; Scarney 3000's flag is a bonus hand
    assert throw_line({**little, "bonus": {"kind": "little_scarney", "points": 25}})["notes"] == []
    assert throw_line({**three, "bonus": True})["notes"] == ["bonus hand"]
    assert throw_line({**three, "bonus": None})["notes"] == []


# --- every kind: drawn by its own presenter, or an error -------------------------------------


def test_a_game_with_no_table_the_pages_know_is_refused_loudly() -> None:
    # a game with no table the pages know is never drawn as a page without one
    with pytest.raises(LookupError, match="do not know"):
        presenting.family({"kind": "scarney-chess", "chessboard": {}})


@pytest.mark.parametrize("kind", registry.kinds())
def test_every_kind_is_drawn_and_a_dice_kind_lists_its_first_throw(kind: str, user: Any) -> None:
    # given a game of every kind the rules keep
    rules = registry.get(kind)
    seats = [{"name": f"P{n}"} for n in range(rules.min_seats)]
    game = services.game_start(
        kind=kind, seats=seats, ruleset=REQUIRED_RULESET.get(kind), user=user
    )
    client = Client()
    client.force_login(user)
    # then its page draws it: a kind the pages cannot draw fails here, not with an empty table
    assert client.get(f"/games/{game.pk}/").status_code == 200
    if not isinstance(rules, ThrowsDice):
        return
    # and when a dice game's first throw is recorded, the page lists it among this turn's throws
    if "round.anted" in client_json(client, game)["expected"]:
        record(game, user, "round.anted", {})
    in_cup = client_json(client, game)["dice"]["in_cup"]
    faces = [rules.dice_faces[n % len(rules.dice_faces)] for n in range(in_cup)]
    record(game, user, "dice.thrown", {"faces": faces})
    page = client.get(f"/games/{game.pk}/").content.decode()
    throws = re.search(r'data-role="throws">(.*?)</div>', page, re.S)
    assert throws is not None
    assert 'data-throw="1"' in throws.group(1)


def client_json(client: Client, game: Any) -> dict[str, Any]:
    return dict(client.get(f"/api/v1/games/{game.pk}/").json())


def record(game: Any, user: Any, type: str, data: dict[str, Any]) -> None:
    services.event_record(stream_id=game.pk, event_id=uuid.uuid4(), type=type, data=data, user=user)


# --- Going to Boston and Multiplication: the turn in play and the play-off ---------------------


def boston_after(rules: Any, throws: list[list[str]], seats: int = 2) -> dict[str, Any]:
    state = rules.initial_state({}, rules.ruleset_type(), seats)
    for faces in throws:
        state = rules.apply(state, Move("dice.thrown", {"faces": faces}))
    return {"dice": rules.view(state)["dice"]}


def test_a_boston_turn_lists_each_throw_with_the_die_set_aside() -> None:
    game = boston_after(GOING_TO_BOSTON, [["6", "2", "1"], ["4", "3"]])
    assert game["dice"]["set_aside"] == ["6", "4"]
    shown = GOING_TO_BOSTON.word_throws(game, NAMES)
    turn = shown["turn"]
    assert turn["title"] == "Ann's throws"
    assert [i["label"] for i in turn["items"]] == ["Throw 1", "Throw 2"]
    # each throw whole, its die set aside marked and said
    assert [[d["face"] for d in i["dice"]] for i in turn["items"]] == [["1", "2", "6"], ["3", "4"]]
    assert [[d["face"] for d in i["dice"] if d["aside"]] for i in turn["items"]] == [["6"], ["4"]]
    assert [i["said"] for i in turn["items"]] == ["· 6 set aside", "· 4 set aside"]
    assert shown["round"]["playoff"] is None


def test_a_boston_tie_is_played_off_and_said_with_who_throws_again() -> None:
    # given Ann and Bob both score 6 + 5 + 4 = 15
    tie = [["6", "1", "1"], ["5", "1"], ["4"]] * 2
    game = boston_after(GOING_TO_BOSTON, tie + [["3", "2", "1"]])
    playoff = GOING_TO_BOSTON.word_throws(game, NAMES)["round"]["playoff"]
    assert playoff["sentence"] == "Play-off 1: Ann and Bob tied on 15 and throw again."
    assert playoff["to_throw"] == "Ann and Bob"
    assert [(r["name"], r["score"]) for r in playoff["rows"]] == [("Ann", None), ("Bob", None)]
    # when Ann's play-off turn makes 3 + 2 + 1 = 6, Bob alone is still to throw
    game = boston_after(GOING_TO_BOSTON, tie + [["3", "2", "1"], ["2", "1"], ["1"]])
    shown = GOING_TO_BOSTON.word_throws(game, NAMES)
    assert shown["round"]["playoff"]["to_throw"] == "Bob"
    assert [(r["name"], r["score"]) for r in shown["round"]["playoff"]["rows"]] == [
        ("Ann", 6),
        ("Bob", None),
    ]
    assert shown["turn"]["title"] == "Bob's throws · play-off 1"
    # and once Bob makes 7 the round is his, the play-off's turns listed apart
    game = boston_after(
        GOING_TO_BOSTON,
        tie + [["3", "2", "1"], ["2", "1"], ["1"], ["4", "2", "1"], ["2", "1"], ["1"]],
    )
    shown = GOING_TO_BOSTON.word_throws(game, NAMES)["round"]
    assert shown["playoff"]["sentence"] == "Play-off 1: Ann and Bob tied on 15 and threw again."
    assert shown["winners"] == "Bob wins the round and takes the pot."
    assert [s["title"] for s in shown["stages"]] == ["The round", "Play-off 1"]
    assert [t["how"] for t in shown["stages"][1]["turns"]] == ["3 + 2 + 1 = 6", "4 + 2 + 1 = 7"]


def test_a_multiplication_play_off_is_said_with_its_products() -> None:
    # (6 + 2) × 3 = 24 and (4 + 2) × 4 = 24: a tie
    tie = [["6", "1", "1"], ["2", "1"], ["3"], ["4", "1", "1"], ["2", "1"], ["4"]]
    game = boston_after(MULTIPLICATION_RULES, [*tie, ["5", "1", "1"], ["5", "1"], ["5"]])
    shown = MULTIPLICATION_RULES.word_throws(game, NAMES)["round"]
    assert shown["playoff"]["sentence"] == "Play-off 1: Ann and Bob tied on 24 and throw again."
    assert shown["playoff"]["rows"][0]["how"] == "(5 + 5) × 5 = 50"


def test_after_a_boston_play_off_the_scores_table_shows_its_totals_and_the_winner(
    user: Any,
) -> None:
    # given Ann and Bob tie on 15, then Ann throws 3 + 2 + 1 = 6 and Bob 4 + 2 + 1 = 7
    game = services.game_start(
        kind="going-to-boston", seats=[{"name": "Ann"}, {"name": "Bob"}], user=user
    )
    tie = [["6", "1", "1"], ["5", "1"], ["4"]] * 2
    playoff = [["3", "2", "1"], ["2", "1"], ["1"], ["4", "2", "1"], ["2", "1"], ["1"]]
    for faces in tie + playoff:
        services.event_record(
            stream_id=game.pk,
            event_id=uuid.uuid4(),
            type="dice.thrown",
            data={"faces": faces},
            user=user,
        )
    client = Client()
    client.force_login(user)
    page = client.get(f"/games/{game.pk}/").content.decode()
    table = page[page.index('data-role="scores"') :]
    table = table[: table.index("</table>")]
    # then the scores table has the play-off's column, each seat's play-off total in it
    assert '<th scope="col">Play-off 1</th>' in table
    cells = re.findall(r'data-playoff="1">([^<]*)<', table)
    assert cells == ["6", "7"]
    # in place of the bonuses column, which no row of Going to Boston uses (a phone's width)
    assert "Bonuses" not in table
    # and Bob, who won the play-off, is marked the winner; Ann is not
    rows = re.findall(
        r'<tr data-seat="(\d)"[^>]*>\s*<th scope="row">([^<]*)(<strong[^>]*>winner)?', table
    )
    assert [(seat, name.strip(), bool(mark)) for seat, name, mark in rows] == [
        ("0", "Ann", False),
        ("1", "Bob", True),
    ]
