"""A player's games export holds the games he played at sheet matches (API.md "Ratings, player
exports, tokens"): a line per sheet line, with the fields a live game's line has (null where a
sheet cannot know them) and its own, in finish order among his live games, filtered alike, and as
many lines as his statistics count games for the same reader."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.play import services
from games.rules import registry
from games.store.models import Player, Stream
from scoring.models import GameSummary
from tests.api_seed import finished_game
from tests.games.api.test_player_games_export import HIGH_LOW, SOLITAIRE, lines_of, played_out
from tests.games.tournaments.helpers import HL_WIN, client_for, create, enter, pair, play_sheet

pytestmark = pytest.mark.django_db

# Three High-Low sheets of three games each (RULES.md 5.6: the winner alone scores, 3 to 34, or
# an even 6 to 68 when doubled), each over at its third game, when a seat first passes 100.
SHEETS = [
    [[0, 40], [30, 0], [0, 64]],  # Bob 104
    [[34, 0], [0, 50], [68, 0]],  # Ann 102
    [[20, 0], [0, 34], [0, 66]],  # Bob 100
]


def sheet_line(match: uuid.UUID, scores: list[int], user: Any = None) -> None:
    services.event_record(
        stream_id=match,
        event_id=uuid.uuid4(),
        type="game.scored",
        data={"scores": scores},
        user=user,
    )


def sheet_match(lines: list[list[int]], user: Any = None) -> uuid.UUID:
    match = services.match_start(
        format=HIGH_LOW,
        players=[{"name": "Ann"}, {"name": "Bob"}],
        entry="sheet",
        user=user,
    )
    for scores in lines:
        sheet_line(match.pk, scores, user)
    return match.pk


def export(client: APIClient, player: int, **params: Any) -> list[dict[str, Any]]:
    return lines_of(client.get(f"/api/v1/players/{player}/games.ndjson", params))


def games_counted(client: APIClient, player: int) -> dict[str, int]:
    stats = client.get(f"/api/v1/players/{player}/stats/")
    assert stats.status_code == 200, stats.content
    return {kind["kind"]: kind["games"]["played"] for kind in stats.json()["kinds"]}


def by_kind(lines: list[dict[str, Any]]) -> dict[str, int]:
    counted: dict[str, int] = {}
    for line in lines:
        counted[line["kind"]] = counted.get(line["kind"], 0) + 1
    return counted


def test_a_sheet_only_players_export_holds_each_game_of_his_sheets(anon: APIClient) -> None:
    matches = [sheet_match(lines) for lines in SHEETS]
    ann, bob = (Player.objects.get(name=name).pk for name in ("Ann", "Bob"))
    lines = export(anon, ann)
    assert len(lines) == 9
    assert [(line["match"], line["game"]) for line in lines] == [
        (str(match), number) for match in matches for number in (1, 2, 3)
    ]
    seats = [{"seat": 0, "player": ann, "name": "Ann"}, {"seat": 1, "player": bob, "name": "Bob"}]
    for line, scores in zip(lines, [s for sheet in SHEETS for s in sheet], strict=True):
        winner = [0] if scores[0] else [1]
        assert line["kind"] == HIGH_LOW and line["entry"] == "sheet" and line["id"] is None
        assert line["status"] == "finished" and line["number"] == line["game"]
        assert line["players"] == seats and line["seats"] == seats  # his opponent, Bob
        assert [s["total"] for s in line["scores"]] == scores
        assert line["scores"][0] == {
            "seat": 0,
            "points": scores[0],
            "bonuses": [],
            "total": scores[0],
        }
        assert line["winner"] == winner
        assert line["result"] == {"totals": scores, "winner": winner, "rating": None}
        # its event: the sheet line, as the match's event list shows it; its time the finish
        (event,) = line["events"]
        assert event["type"] == "game.scored" and event["data"]["scores"] == scores
        assert line["finished_at"] == event["recorded_at"] and event["recorded_at"].endswith("Z")
        listed = anon.get(f"/api/v1/matches/{line['match']}/events/").json()["results"]
        assert event in listed
    assert games_counted(anon, ann) == {HIGH_LOW: 9} == by_kind(lines)
    assert games_counted(anon, bob) == {HIGH_LOW: 9} == by_kind(export(anon, bob))


def test_a_sheet_line_has_the_fields_of_a_live_line_but_the_position(anon: APIClient) -> None:
    played_out(HIGH_LOW, ["Ann", "Bob"], 4)
    sheet_match(SHEETS[0])
    live, *sheet = export(anon, Player.objects.get(name="Ann").pk)
    view = set(registry.get(HIGH_LOW).view_shape.schema()["properties"])
    assert live["id"] is not None and "entry" not in live
    assert set(live) - view <= set(sheet[0])
    assert set(sheet[0]) - set(live) == {"game", "entry", "finished_at", "players", "winner"}
    assert {key for key in set(live) - view if sheet[0][key] is None} >= {"id", "version", "turn"}


def test_live_and_sheet_games_are_in_the_order_they_finished(api: APIClient, user: Any) -> None:
    """A sheet still being entered: its recorder sees its lines (a visitor, once it is over)."""
    first = finished_game("Ann", 1)
    match = services.match_start(
        format=HIGH_LOW, players=[{"name": "Ann"}, {"name": "Bob"}], entry="sheet", user=user
    ).pk
    sheet_line(match, [34, 0], user)
    second = finished_game("Ann", 2)
    sheet_line(match, [0, 12], user)  # a wrong line, taken back and entered again
    services.event_record(
        stream_id=match, event_id=uuid.uuid4(), type="move.undone", data={}, user=user
    )
    sheet_line(match, [0, 20], user)
    third = finished_game("Ann", 3)
    sheet_line(match, [34, 0], user)
    lines = export(api, Player.objects.get(name="Ann").pk)
    assert [line["id"] or line["game"] for line in lines] == [
        str(first),
        1,
        str(second),
        2,
        str(third),
        3,
    ]
    assert [line["events"][0]["data"]["scores"] for line in lines if line["id"] is None] == [
        [34, 0],
        [0, 20],
        [34, 0],
    ]
    finishes = [line.get("finished_at") or line["events"][-1]["recorded_at"] for line in lines]
    assert finishes == sorted(finishes)


def test_since_until_kind_and_max_apply_to_sheet_games_alike(anon: APIClient) -> None:
    solitaire = finished_game("Ann", 1)
    match = sheet_match(SHEETS[1])
    later = finished_game("Ann", 2)
    ann = Player.objects.get(name="Ann").pk
    every = export(anon, ann)
    assert [line["id"] or line["game"] for line in every] == [str(solitaire), 1, 2, 3, str(later)]
    second_line = every[2]["finished_at"]

    def keys(**params: Any) -> list[Any]:
        return [line["id"] or line["game"] for line in export(anon, ann, **params)]

    assert keys(since=second_line) == [2, 3, str(later)]
    assert keys(until=second_line) == [str(solitaire), 1, 2]
    assert keys(since=second_line, until=second_line) == [2]
    assert keys(kind=HIGH_LOW) == [1, 2, 3]
    assert keys(kind=SOLITAIRE) == [str(solitaire), str(later)]
    assert keys(max=2) == [str(solitaire), 1]
    assert keys(kind=HIGH_LOW, max=2, since=second_line) == [2, 3]
    summary = GameSummary.objects.get(pk=later).updated_at.isoformat()
    assert keys(since=summary) == [str(later)]
    assert all(line["match"] == str(match) for line in export(anon, ann, kind=HIGH_LOW))


def test_the_count_is_the_statistics_count_for_each_reader(
    anon: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    """Ann plays a public sheet, a sheet kept private by its recorder, Solitaire, and a sheet at
    an unpublished tournament: each reader's export holds what his statistics count."""
    owner, owner_api = client_for("owner")
    _dee, director = client_for("dee", staff=True)
    _mo, member = client_for("member")  # a member who plays elsewhere
    cup = create(director, format=HIGH_LOW, system="swiss", rounds=1, published=False)
    ann, _zed = enter(director, cup["id"], ["Ann", "Zed"])
    hidden = pair(director, cup["id"])["tables"][0]["match"]
    play_sheet(director, hidden, [HL_WIN] * 3, django_capture_on_commit_callbacks)
    sheet_match(SHEETS[0])
    private = sheet_match(SHEETS[1], user=owner)
    Stream.objects.filter(pk=private).update(is_public=False)
    finished_game("Ann", 1)
    assert Stream.objects.get(pk=hidden).status in ("finished", "settled")
    expected = {
        "visitor": (anon, {HIGH_LOW: 3, SOLITAIRE: 1}),
        "member": (member, {HIGH_LOW: 3, SOLITAIRE: 1}),
        "recorder": (owner_api, {HIGH_LOW: 6, SOLITAIRE: 1}),
        "director": (director, {HIGH_LOW: 9, SOLITAIRE: 1}),
    }
    for reader, (client, counted) in expected.items():
        lines = export(client, ann)
        assert by_kind(lines) == games_counted(client, ann) == counted, reader
        shown = {line["match"] for line in lines if line["match"]}
        assert (hidden in shown) is (reader == "director"), reader
        assert (str(private) in shown) is (reader in ("recorder", "director")), reader


def test_plays_list_each_sheet_match_as_a_live_match_is(anon: APIClient) -> None:
    matches = [sheet_match(lines) for lines in SHEETS]
    ann = Player.objects.get(name="Ann").pk
    plays = anon.get(f"/api/v1/players/{ann}/plays.json").json()["plays"]
    assert [(p["id"], p["type"]) for p in plays] == [
        (str(match), "match") for match in reversed(matches)
    ]
    assert [p["win"] for p in plays] == [False, True, False]


def test_the_export_reads_a_bounded_number_of_queries_for_sheet_games(
    anon: APIClient, django_assert_max_num_queries: Any
) -> None:
    sheet_match(SHEETS[0])
    finished_game("Ann", 1)
    ann = Player.objects.get(name="Ann").pk
    with django_assert_max_num_queries(14) as few:
        assert len(export(anon, ann)) == 4
    for lines in SHEETS * 4:
        sheet_match(lines)
    for seed in range(2, 5):
        finished_game("Ann", seed)
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert len(export(anon, ann)) == 3 + 1 + 36 + 3


def test_a_solitaire_sheets_games_are_won_by_finishing_them(anon: APIClient, user: Any) -> None:
    # a Solitaire sheet's rows name no winner: a one-seat game is won by finishing it, as live
    match = services.match_start(
        format=SOLITAIRE, players=[{"name": "Cleo"}], entry="sheet", user=user
    )
    totals = [116, 63, 116, 63, 116]  # five games: the match is over, its player public
    for total in totals:
        sheet_line(match.pk, [total], user)
    cleo = Player.objects.get(name="Cleo").pk
    lines = export(anon, cleo)
    assert [(line["game"], line["scores"][0]["total"], line["winner"]) for line in lines] == [
        (number, total, [0]) for number, total in enumerate(totals, start=1)
    ]
    stats = anon.get(f"/api/v1/players/{cleo}/stats/").json()
    games = next(kind["games"] for kind in stats["kinds"] if kind["kind"] == SOLITAIRE)
    assert (games["played"], games["won"], games["best"]) == (5, 5, 116)
