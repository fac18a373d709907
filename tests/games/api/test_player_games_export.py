"""A player's finished games as NDJSON (API.md "Ratings, player exports, tokens"): one game a line,
each as ``GET /games/{id}/`` shows it with its events, the games his statistics count for the
reader, filtered by finish time and kind, capped; nothing private to who may not read it."""

from __future__ import annotations

import json
import random
import uuid
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games.play import services
from games.store import folding
from games.store.models import Player, Stream
from scoring.models import GameSummary
from tests.api_seed import finished_game
from tests.games.tournaments.helpers import client_for

pytestmark = pytest.mark.django_db

SOLITAIRE, HIGH_LOW = "scarney-solitaire", "high-low-scarney"


def played_out(kind: str, names: list[str], seed: int, user: Any = None) -> uuid.UUID:
    """A game of a board kind played to its end by random legal moves."""
    rng = random.Random(seed)
    game = services.game_start(kind=kind, seats=[{"name": n} for n in names], user=user)
    while True:
        folded = folding.load(Stream.objects.get(pk=game.pk))
        legal = folded.engine.rules.legal_events(folded.state)
        if not legal:
            return game.pk
        move = rng.choice(legal)
        services.event_record(
            stream_id=game.pk, event_id=uuid.uuid4(), type=move.type, data=dict(move.data)
        )


def lines_of(answer: Any) -> list[dict[str, Any]]:
    assert answer.status_code == 200, answer.content
    assert answer["Content-Type"] == "application/x-ndjson"
    body = b"".join(answer.streaming_content)
    assert body == b"" or body.endswith(b"\n")
    return [json.loads(line) for line in body.splitlines()]


def finished_at(game: uuid.UUID) -> str:
    return GameSummary.objects.get(pk=game).updated_at.isoformat()


class Evening:
    """Ann's play: three finished public Solitaire games, a finished High-Low game against Bob,
    a Solitaire game still going, and a finished Solitaire game kept private by its creator."""

    def __init__(self) -> None:
        self.owner = get_user_model().objects.create_user(username="owner")
        self.solitaire = [finished_game("Ann", seed) for seed in (1, 2, 3)]
        self.high_low = played_out(HIGH_LOW, ["Ann", "Bob"], 4)
        self.going = services.game_start(kind=SOLITAIRE, seats=[{"name": "Ann"}]).pk
        self.private = finished_game("Ann", 5, user=self.owner)
        Stream.objects.filter(pk=self.private).update(is_public=False)
        self.ann = Player.objects.get(name="Ann")
        self.url = f"/api/v1/players/{self.ann.pk}/games.ndjson"

    @property
    def public(self) -> list[uuid.UUID]:
        return [*self.solitaire, self.high_low]


@pytest.fixture
def evening() -> Evening:
    return Evening()


def test_each_line_is_the_game_as_its_detail_shows_it_with_its_events(
    evening: Evening, anon: APIClient
) -> None:
    lines = lines_of(anon.get(evening.url))
    # then the finished public games, in the order they finished
    assert [line["id"] for line in lines] == [str(g) for g in evening.public]
    for line in lines:
        detail = anon.get(f"/api/v1/games/{line['id']}/").json()
        events = anon.get(f"/api/v1/games/{line['id']}/events/", {"limit": 1000}).json()
        assert events["next"] is None
        assert {k: v for k, v in line.items() if k != "events"} == detail
        assert line["events"] == events["results"]
        assert line["status"] == "finished" and line["events"][-1]["recorded_at"].endswith("Z")
        assert [e["version"] for e in line["events"]] == list(range(1, detail["version"] + 1))


def test_it_counts_what_the_stats_count_for_each_reader(evening: Evening, anon: APIClient) -> None:
    _bob, member = client_for("member")
    owner = APIClient()
    owner.force_login(evening.owner)
    _dee, director = client_for("dee", staff=True)
    for reader, private_seen in ((anon, False), (member, False), (owner, True), (director, True)):
        lines = lines_of(reader.get(evening.url))
        ids = {line["id"] for line in lines}
        assert (str(evening.private) in ids) is private_seen
        assert str(evening.going) not in ids  # in progress: not finished
        stats = reader.get(f"/api/v1/players/{evening.ann.pk}/stats/").json()
        for kind in stats["kinds"]:
            exported = [line for line in lines if line["kind"] == kind["kind"]]
            assert len(exported) == kind["games"]["played"], (kind["kind"], private_seen)
        assert len(lines) == sum(kind["games"]["played"] for kind in stats["kinds"])


def test_since_and_until_bound_the_finish_and_kind_and_max_narrow(
    evening: Evening, anon: APIClient
) -> None:
    first, second, third = evening.solitaire

    def ids(**params: Any) -> list[str]:
        return [line["id"] for line in lines_of(anon.get(evening.url, params))]

    assert ids(since=finished_at(second)) == [str(second), str(third), str(evening.high_low)]
    assert ids(until=finished_at(second)) == [str(first), str(second)]
    assert ids(since=finished_at(second), until=finished_at(second)) == [str(second)]
    assert ids(kind=HIGH_LOW) == [str(evening.high_low)]
    assert ids(kind=SOLITAIRE, max=2) == [str(first), str(second)]
    assert ids(max=1) == [str(first)]
    assert ids(kind="scarnie") == []
    # a time with another offset, or none (UTC), bounds the same instant
    at = GameSummary.objects.get(pk=second).updated_at
    utc = at.replace(tzinfo=None).isoformat()
    assert ids(until=utc) == [str(first), str(second)]
    assert ids(until=at.astimezone(_zone(-5)).isoformat()) == [str(first), str(second)]
    # times past the calendar's ends, or offsets PostgreSQL takes none of, bound as far as it goes
    assert ids(since="4657-06-10T23:59:18-18:20", until="2950-06-08T13:14:30Z") == []
    assert len(ids(since="0001-01-01T00:00:00+14:00", until="9999-12-31T23:59:59-14:00")) == 4
    assert ids(until="2026-01-01t00:00:00z") == []


def _zone(hours: int) -> Any:
    import datetime as dt

    return dt.timezone(dt.timedelta(hours=hours))


@pytest.mark.parametrize(
    ("query", "parameter"),
    [
        ("since=yesterday", "since"),
        ("until=2026-13-01T00:00:00Z", "until"),
        ("since=2026-01-01T00:00:60Z", "since"),
        ("kind=chess", "kind"),
        ("max=0", "max"),
        ("max=10001", "max"),
        ("max=ten", "max"),
        ("max=1&max=2", "max"),
        ("since=", "since"),
    ],
)
def test_a_bad_query_is_a_400_naming_it(
    evening: Evening, anon: APIClient, query: str, parameter: str
) -> None:
    answer = anon.get(f"{evening.url}?{query}")
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert body["code"] == "query.bad_value" and parameter in body["errors"]


def test_an_unknown_parameter_is_refused(evening: Evening, anon: APIClient) -> None:
    answer = anon.get(f"{evening.url}?status=finished")
    assert answer.status_code == 400 and answer.json()["code"] == "query.unknown_parameter"


def test_a_player_of_no_public_play_is_not_there_without_a_login(anon: APIClient) -> None:
    owner = get_user_model().objects.create_user(username="owner")
    game = finished_game("Hid", 9, user=owner)
    Stream.objects.filter(pk=game).update(is_public=False)
    hid = Player.objects.get(name="Hid")
    assert anon.get(f"/api/v1/players/{hid.pk}/games.ndjson").status_code == 404
    assert anon.get("/api/v1/players/999999/games.ndjson").status_code == 404
    # a member sees him, and none of his games
    _bob, member = client_for("member")
    assert lines_of(member.get(f"/api/v1/players/{hid.pk}/games.ndjson")) == []


def test_the_export_reads_a_fixed_number_of_queries_per_hundred_games(
    anon: APIClient, django_assert_max_num_queries: Any
) -> None:
    games = [finished_game("Ann", seed) for seed in range(6)]
    url = f"/api/v1/players/{Player.objects.get(name='Ann').pk}/games.ndjson"
    with django_assert_max_num_queries(8):
        assert len(lines_of(anon.get(url))) == len(games)
