"""A player's history (API.md): matches and games, newest first, by kind and date, paged."""

from __future__ import annotations

import datetime as dt
import json
import random
import uuid
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.db import connection
from django.db.models import Count, F, Max, Sum
from rest_framework.renderers import JSONRenderer
from rest_framework.test import APIClient

from games.api.http.query import filter_values, filtered
from games.api.http.renderers import JsonTextRenderer
from games.api.streams import NewestCursor
from games.play import services
from games.store.models import GameSeat, Match, Player, Stream, Tournament
from scoring import selectors
from scoring.filters import MatchFilter
from scoring.history import json_columns, match_list
from scoring.history import timeline as histories
from scoring.models import GameSummary, MatchStanding
from tests.play import play_out

pytestmark = pytest.mark.django_db
# The columns of a match list row as the ORM read them before the written statement.
_LISTED = ("match_id", "format", "status", "standing", "winner", "rating", "warnings", "updated_at")
Renderer = JsonTextRenderer


def finished_game(name: str, seed: int, user: Any = None) -> uuid.UUID:
    game = services.game_start(kind="scarney-solitaire", seats=[{"name": name}], user=user)
    play_out(game.pk, random.Random(seed), undo_rate=0)
    return game.pk


def sheet_match(name: str, totals: list[int], user: Any = None) -> uuid.UUID:
    # A match in progress is listed to its recorders (and directors): ``user`` creates it.
    match = services.match_start(
        format="scarney-solitaire", players=[{"name": name}], entry="sheet", user=user
    )
    for total in totals:
        services.event_record(
            stream_id=match.pk,
            event_id=uuid.uuid4(),
            type="game.scored",
            data={"scores": [total]},
        )
    return match.pk


def history(client: APIClient, player: Player, **params: Any) -> Any:
    return client.get(f"/api/v1/players/{player.pk}/history/", params)


def test_matches_and_games_are_listed_newest_first_with_the_seats_held(
    api: APIClient, user: Any
) -> None:
    first = finished_game("Ann", 1)
    match = sheet_match("Ann", [116, 63], user=user)
    last = finished_game("Ann", 2)
    finished_game("Bob", 3)  # someone else's
    ann = Player.objects.get(name="Ann")
    body = history(api, ann).json()
    assert body["player"] == {"id": ann.pk, "name": "Ann"}
    assert [(r["type"], r["id"]) for r in body["results"]] == [
        ("game", str(last)),
        ("match", str(match)),
        ("game", str(first)),
    ]
    match_row = body["results"][1]
    assert [g["cumulative"] for g in match_row["games"]] == [[116], [179]]
    assert all(r["seats"] == [0] for r in body["results"])
    assert body["next"] is None


def test_the_history_pages_on_with_a_cursor_and_filters_by_kind_and_date(api: APIClient) -> None:
    games = [finished_game("Cy", seed) for seed in range(5)]
    cy = Player.objects.get(name="Cy")
    seen: list[str] = []
    page = history(api, cy, limit=2).json()
    while True:
        seen += [row["id"] for row in page["results"]]
        if page["next"] is None:
            break
        page = api.get(page["next"]).json()
    assert seen == [str(g) for g in reversed(games)]
    assert history(api, cy, kind="scarney-singles").json()["results"] == []
    today = dt.datetime.now(dt.UTC).date()
    assert len(history(api, cy, since=today.isoformat()).json()["results"]) == 5
    tomorrow = (today + dt.timedelta(days=1)).isoformat()
    assert history(api, cy, since=tomorrow).json()["results"] == []
    yesterday = (today - dt.timedelta(days=1)).isoformat()
    assert history(api, cy, until=yesterday).json()["results"] == []


def test_bad_parameters_are_refused_with_a_sentence(api: APIClient) -> None:
    finished_game("Di", 4)
    di = Player.objects.get(name="Di")
    not_an_id = histories._encode({"updated_at": "2024-01-01T00:00:00+00:00", "id": "nope"})
    for params in (
        {"since": "yesterday"},
        {"limit": "0"},
        {"limit": "x"},
        {"cursor": "@@"},
        {"cursor": not_an_id},
    ):
        answer = history(api, di, **params)
        assert answer.status_code == 400, params
    assert api.get("/api/v1/players/999999/history/").status_code == 404


def test_without_a_login_only_finished_public_rows_are_listed(
    api: APIClient, anon: APIClient, user: Any
) -> None:
    done = finished_game("Eve", 5)
    # in progress, listed to its creator
    services.game_start(kind="scarney-solitaire", seats=[{"name": "Eve"}], user=user)
    eve = Player.objects.get(name="Eve")
    assert len(history(api, eve).json()["results"]) == 2
    assert [r["id"] for r in history(anon, eve).json()["results"]] == [str(done)]


# --- the hand-written statements against the querysets they replace -----------------------------


def readers() -> dict[str, Any]:
    """Anonymous, a stranger, a recorder (creator of some rows, keeper of others), staff, and a
    director by a group's permission."""
    make = get_user_model().objects.create_user
    director = make(username="by-group")
    group = Group.objects.create(name="directors")
    group.permissions.add(Permission.objects.get(codename="direct"))
    director.groups.add(group)
    return {
        "anonymous": None,
        "stranger": make(username="stranger"),
        "recorder": make(username="recorder"),
        "staff": make(username="staff", is_staff=True),
        "director": director,
    }


def mixed_history(recorder: Any) -> Player:
    """Fay's rows seen differently by each reader: finished public games and matches, a game and
    a match in progress that ``recorder`` created, a private one he keeps, a private one of
    someone else, and a game where she holds two seats."""
    games = [finished_game("Fay", seed) for seed in range(4)]
    sheet_match("Fay", [116, 63])
    sheet_match("Fay", [80], user=recorder)  # in progress
    services.game_start(kind="scarney-solitaire", seats=[{"name": "Fay"}], user=recorder)
    Stream.objects.filter(pk=games[1]).update(is_public=False)
    Stream.objects.get(pk=games[1]).keepers.add(recorder)
    Stream.objects.filter(pk=games[2]).update(is_public=False)
    fay = Player.objects.get(name="Fay")
    # two seats held in one game (the register allows it after a merge of two names)
    GameSeat.objects.create(game_id=games[3], seat=3, player=fay)
    return fay


def test_visible_sql_admits_the_streams_visible_admits() -> None:
    people = readers()
    mixed_history(people["recorder"])
    for name, reader in people.items():
        expected = set(Stream.objects.filter(selectors.visible(reader, "")).values_list("pk"))
        condition, params = selectors.visible_sql(reader, "st")
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT st.id FROM games_stream st WHERE {condition}", params)
            found = set(cursor.fetchall())
        assert found == expected, name
        assert 0 < len(found), name


def test_the_page_and_its_tag_agree_with_the_querysets() -> None:
    people = readers()
    fay = mixed_history(people["recorder"])
    today = dt.datetime.now(dt.UTC).date()
    queries = [
        {},
        {"limit": "2"},
        {"kind": "scarney-solitaire"},
        {"kind": "scarney-singles"},
        {"since": today.isoformat(), "until": today.isoformat()},
        {"until": (today - dt.timedelta(days=1)).isoformat()},
    ]
    for name, reader in people.items():
        games = selectors.visible(reader, "game__stream__")
        matches = selectors.visible(reader, "match__stream__")
        for params in queries:
            query = histories.read_query(params)
            while True:
                page = histories.reader_history(fay, query, reader)
                expected = histories.player_history(fay, query, games, matches)
                assert json_columns.decoded(page) == expected, (name, params)
                if page["next"] is None:
                    break
                query = histories.read_query({**params, "cursor": page["next"]})
        assert histories.player_and_fingerprint(fay.pk, reader)[1] == fingerprint(
            fay, games, matches
        ), name


def test_a_player_holding_two_seats_is_named_in_both() -> None:
    people = readers()
    fay = mixed_history(people["recorder"])
    page = histories.reader_history(fay, histories.read_query({}), people["staff"])
    rows = page["results"]
    assert sorted(row["seats"] for row in rows) == [[0]] * 6 + [[0, 3]]


def fingerprint(player: Player, games: Any, matches: Any) -> tuple[Any, ...]:
    """The ETag's facts as querysets: one row per seat held, as the history's statement has."""
    facts: list[Any] = []
    for rows, stream in (
        (
            GameSummary.objects.filter(games, game__seats__player=player, match__isnull=True),
            "game__stream__head_hash",
        ),
        (
            MatchStanding.objects.filter(matches, match__seats__player=player),
            "match__stream__head_hash",
        ),
    ):
        found = rows.aggregate(count=Count("pk"), last=Max("updated_at"), versions=Sum("version"))
        heads = sum(signed_64(head) for head in rows.values_list(stream, flat=True))
        facts += [found["count"], str(found["last"]), found["versions"], str(heads)]
    return tuple(facts)


def signed_64(head: str) -> int:
    """A head's first 16 hex digits as PostgreSQL casts them to a bigint."""
    value = int(head[:16] or "0", 16)
    return value - 2**64 if value >= 2**63 else value


def test_json_text_is_written_in_as_the_renderer_writes_the_values() -> None:
    texts = [
        '{"b": [1, 2, {"c": "x, y: z"}], "a": null, "d": true}',
        '[{"total": 116, "name": "Fay"}, []]',
        '{"ratio": 1.50, "e": 1e3}',  # numbers Python writes otherwise: decoded
        r'{"name": "a \"quoted\" name"}',  # escapes: decoded
        '{"name": "Zoë"}',  # non-ASCII: decoded
    ]
    values = [json_columns.json_value(text) for text in texts]
    assert [type(value) is json_columns.JsonText for value in values] == [1, 1, 0, 0, 0]
    data = {"results": [{"games": value, "name": "\u0000json"} for value in values], "next": None}
    plain = JSONRenderer().render(json_columns.decoded(data))
    assert JsonTextRenderer().render(data) == plain
    assert json.loads(plain)["results"][0]["games"]["b"][2] == {"c": "x, y: z"}
    # a value that renders as the mark itself: every value is decoded, same bytes
    marked = {**data, "next": JsonTextRenderer.MARK}
    assert JsonTextRenderer().render(marked) == JSONRenderer().render(json_columns.decoded(marked))
    # indented (the browsable API's view of the JSON): decoded
    context = {"indent": 4}
    assert JsonTextRenderer().render(data, "application/json", context) == JSONRenderer().render(
        json_columns.decoded(data), "application/json", context
    )


# --- the match list's statement against the queryset it replaces --------------------------------


def test_the_unfiltered_match_list_agrees_with_the_queryset_page_by_page() -> None:
    # given matches each reader sees differently (finished public, in progress, private, kept)
    people = readers()
    recorder = people["recorder"]
    done = [sheet_match("Gus", [116, 63, 36, 63, 116]) for _ in range(5)]
    sheet_match("Gus", [80], user=recorder)  # in progress, his
    sheet_match("Gus", [70], user=people["stranger"])  # in progress, the stranger's
    Stream.objects.filter(pk=done[1]).update(is_public=False)
    Stream.objects.get(pk=done[1]).keepers.add(recorder)
    Stream.objects.filter(pk=done[2]).update(is_public=False)
    paginator = NewestCursor()
    for name, reader in people.items():
        for params in ({}, {"limit": "2"}, {"limit": "3"}):
            request = _list_request(params)
            page = _page_as_the_view_reads_it(paginator, reader, request)
            while True:
                expected_paginator = NewestCursor()
                rows = selectors.match_rows(reader).values(*_LISTED)
                expected = expected_paginator.paginate_queryset(rows, request)
                assert json_columns.decoded(page) == expected, (name, params)
                links = (paginator.get_next_link(), paginator.get_previous_link())
                assert links == (
                    expected_paginator.get_next_link(),
                    expected_paginator.get_previous_link(),
                ), (name, params)
                if links[0] is None:
                    break
                request = _list_request({**params, "cursor": _cursor_of(links[0])})
                paginator = NewestCursor()
                page = _page_as_the_view_reads_it(paginator, reader, request)
                # and back: the previous page of this one is the page before, as the ORM has it
                back = NewestCursor()
                back_request = _list_request({**params, "cursor": _cursor_of(links[0])})
                back.paginate_queryset(match_list.VisibleStandings(reader), back_request)
                assert back.get_previous_link() == paginator.get_previous_link()
            paginator = NewestCursor()


def _page_as_the_view_reads_it(paginator: NewestCursor, reader: Any, request: Any) -> Any:
    """The page's keys through the paginator, then its rows by those keys, as MatchList reads
    them; each row at the version its key names (nothing was written in between)."""
    keys = paginator.paginate_queryset(match_list.VisibleStandings(reader), request)
    rows, current = match_list.rows_of(keys)
    assert current and [row["match_id"] for row in rows] == [key["match_id"] for key in keys]
    return [{name: value for name, value in row.items() if name != "version"} for row in rows]


def test_the_filtered_match_list_statement_agrees_with_the_filterset_page_by_page() -> None:
    # given matches of two formats, players, statuses, days and a tournament's table
    people = readers()
    recorder = people["recorder"]
    done = [sheet_match("Gus", [116, 63, 36, 63, 116]) for _ in range(3)]
    sheet_match("Hal", [116, 63, 36, 63, 116])
    sheet_match("Gus", [80], user=recorder)  # in progress
    high_low = services.match_start(
        format="high-low-scarney", players=[{"name": "Gus"}, {"name": "Ivy"}], entry="sheet"
    )
    Stream.objects.filter(pk=done[1]).update(is_public=False)
    MatchStanding.objects.filter(pk=done[0]).update(
        updated_at=dt.datetime(2024, 3, 1, 23, 30, tzinfo=dt.UTC)
    )
    cup = Tournament.objects.create(stream=Stream.objects.create(category="tournament"), name="Cup")
    Match.objects.filter(pk=done[2]).update(tournament=cup)
    gus, ivy = (Player.objects.get(name=n).pk for n in ("Gus", "Ivy"))
    queries = [
        {"format": "scarney-solitaire"},
        {"format": "high-low-scarney", "status": "in_progress"},
        {"player": str(gus), "limit": "2"},
        {"player": str(ivy)},
        {"status": "finished", "player": str(gus)},
        {"tournament": str(cup.pk)},
        {"since": "2024-03-01", "until": "2024-03-01"},
        {"since": "2024-03-02"},
        {"until": "2024-03-01", "format": "scarney-solitaire"},
    ]
    assert high_low
    listed = 0
    for name, reader in people.items():
        for params in queries:
            request = _list_request(params)
            request.user = reader
            paginator, expected_paginator = NewestCursor(), NewestCursor()
            while True:
                values = filter_values(MatchFilter, request, MatchStanding)
                mine = match_list.VisibleStandings(reader, filters=values)
                keys = paginator.paginate_queryset(mine, request)
                rows = filtered(MatchFilter, request, selectors.match_rows(reader))
                expected = expected_paginator.paginate_queryset(
                    rows.annotate(head=F("match__stream__head_hash")).values(
                        *match_list.KEYS, "head"
                    ),
                    request,
                )
                assert keys == expected, (name, params)
                listed += len(keys)
                link = paginator.get_next_link()
                assert link == expected_paginator.get_next_link(), (name, params)
                if link is None:
                    break
                request = _list_request({**params, "cursor": _cursor_of(link)})
                request.user = reader
                paginator, expected_paginator = NewestCursor(), NewestCursor()
    assert listed > 40  # the filters found rows, for each kind of reader differently


def test_the_match_list_answers_the_same_bytes_as_the_decoded_values(
    api: APIClient, user: Any
) -> None:
    for totals in ([116, 63], [36], [63, 116, 36, 63, 116]):
        sheet_match("Hal", totals, user=user)
    answer = api.get("/api/v1/matches/")
    assert answer.status_code == 200
    body = answer.json()
    assert len(body["results"]) == 3 and body["next"] is None
    assert answer.content == JSONRenderer().render(body)


def _list_request(params: dict[str, str]) -> Any:
    from rest_framework.request import Request
    from rest_framework.test import APIRequestFactory

    return Request(APIRequestFactory().get("/api/v1/matches/", params))


def _cursor_of(link: str) -> str:
    from urllib.parse import parse_qs, urlparse

    return parse_qs(urlparse(link).query)["cursor"][0]
