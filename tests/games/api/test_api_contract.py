"""The API's contract for outside programs (issue 13): docs served offline, the root listing,
query parameters never ignored, conditional GET, and the exports."""

from __future__ import annotations

import csv
import io
import json
import re
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import URLResolver, get_resolver
from rest_framework.test import APIClient

from games.api.http.query import BAD_VALUE, UNKNOWN_PARAMETER
from games.pages import scoreboard
from games.play import services
from games.store.models import Match, Player, Stream
from games.tournaments import creating, entries, results, rounds
from tests.api_seed import tournament
from tests.scoring.test_player_history import finished_game

pytestmark = pytest.mark.django_db


def director_user() -> Any:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username="director", is_staff=True)


SINGLES_SHEET = [[32, 19, 6], [24, 77, 34], [13, 29, 27], [38, 53, 110], [21, 30, 36]]


def singles_sheet(api: APIClient, games: list[list[int]]) -> str:
    body = {
        "format": "scarney-singles",
        "players": [{"name": "A"}, {"name": "B"}, {"name": "C"}],
        "entry": "sheet",
        "ruleset": {"sheet_entry_validation": "lenient"},
    }
    match = api.post("/api/v1/matches/", body, format="json").json()
    for scores in games:
        entry = {"id": str(uuid.uuid4()), "type": "game.scored", "data": {"scores": scores}}
        answer = api.post(f"/api/v1/matches/{match['id']}/events/", entry, format="json")
        assert answer.status_code == 201, answer.json()
    return str(match["id"])


# --- the docs, served from our own static files -------------------------------------------------


@pytest.mark.parametrize("page", ["/api/docs/", "/api/redoc/"])
@override_settings(WHITENOISE_USE_FINDERS=True, WHITENOISE_AUTOREFRESH=True)
def test_the_docs_pages_load_only_our_own_static_files(page: str) -> None:
    # given a client whose middleware serves static files from the finders, as runserver does
    client = Client()
    # when
    html = client.get(page).content.decode()
    # then no asset comes from another host, and every one referenced is served
    remote = re.findall(r"""(?:src|href)=["'](https?://[^"']+)""", html)
    assert remote == []
    assets = re.findall(r"""["'](/static/[^"']+)["']""", html)
    assert assets, html[:500]
    for asset in assets:
        answer = client.get(urlparse(asset).path)
        assert answer.status_code == 200, asset


# --- the root --------------------------------------------------------------------------------


def test_the_api_root_links_every_resource(anon: APIClient) -> None:
    answer = anon.get("/api/v1/")
    assert answer.status_code == 200
    links = answer.json()
    for name in ("games", "matches", "players", "tournaments", "events", "schema", "docs"):
        assert links[name].startswith("http://testserver/"), name
    assert links["tournaments"].endswith("/api/v1/tournaments/")


def api_v1_collections() -> set[str]:
    """Every route under /api/v1/ that takes no path parameter, from the URLconfs."""
    found = set()
    for entry in get_resolver().url_patterns:
        if str(entry.pattern) != "api/v1/" or not isinstance(entry, URLResolver):
            continue
        for route in entry.url_patterns:
            text = str(route.pattern)
            if "<" not in text:
                found.add(f"/api/v1/{text}")
    return found


def test_the_api_root_links_every_route_under_api_v1_that_takes_no_id(anon: APIClient) -> None:
    # given what the URLconfs route under /api/v1/ without an id (the root itself aside)
    routes = api_v1_collections() - {"/api/v1/"}
    assert {"/api/v1/webhooks/", "/api/v1/reports/nightly/"} <= routes
    # when the root is read
    links = anon.get("/api/v1/").json()
    # then it links each of them, by a name that says what it is
    linked = {urlparse(url).path for url in links.values()}
    assert routes <= linked, sorted(routes - linked)
    assert links["webhooks"] == "http://testserver/api/v1/webhooks/"
    assert links["nightly_reports"] == "http://testserver/api/v1/reports/nightly/"
    assert links["match_history_csv"] == "http://testserver/api/v1/matches/history.csv"
    # and every link answers (the webhooks and the feed ask for a login)
    for name, url in links.items():
        assert anon.get(url).status_code in (200, 401), name


# --- query parameters are read, never ignored ------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/?x=1",
        "/api/v1/games/?staus=finished",
        "/api/v1/matches/?formt=scarney-singles",
        "/api/v1/matches/?format=scarney-singles&page=2",
        "/api/v1/events/?since=1",
        "/api/v1/events.ndjson?limit=3",
        "/api/v1/players/{player}/history/?game=1",
        "/api/v1/matches/{match}/history/?at_version=1",
        "/api/v1/matches/{match}/?version=1",
        "/api/v1/games/{game}/events/?after=1",
        "/api/v1/players/?foo=1",
        "/api/v1/tournaments/?foo=1",
        "/api/v1/tournaments/{tournament}/events.ndjson?after=1",
    ],
)
def test_an_unknown_query_parameter_is_a_400_naming_it(api: APIClient, url: str) -> None:
    game = finished_game("Uma", 1)
    match = singles_sheet(api, SINGLES_SHEET[:1])
    player = Player.objects.get(name="Uma").pk
    cup = tournament(director_user(), ["Vic", "Wyn"])
    answer = api.get(url.format(game=game, match=match, player=player, tournament=cup))
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert body["code"] == "query.unknown_parameter" and body["detail"]
    assert body["parameters"] and set(body["parameters"]).isdisjoint(body["known"])


def test_an_unknown_query_parameter_of_any_length_is_named_within_the_answers_bound(
    api: APIClient,
) -> None:
    # given a parameter name far longer than the refusal's declared 100 characters
    long_name = "q" * 500
    # when it is sent
    answer = api.get(f"/api/v1/players/?{long_name}=1")
    # then the refusal names it cut to the bound, as its schema promises
    assert answer.status_code == 400
    assert answer.json()["parameters"] == ["q" * 100]


@pytest.mark.parametrize(
    "query",
    [
        "status=",
        "status=bogus",
        "format=no-such-format",
        "player=abc",
        "player=1.5",
        "player=99999999999999999999999",
        "tournament=not-a-uuid",
        "since=yesterday",
        "until=2026-13-01",
        "limit=0",
        "limit=x",
        "limit=100000",
        "status=finished&status=settled",
        "cursor=@@",
    ],
)
def test_a_malformed_match_filter_is_a_400(api: APIClient, query: str) -> None:
    answer = api.get(f"/api/v1/matches/?{query}")
    assert answer.status_code == 400, answer.content
    assert answer.json()["code"] in ("query.bad_value", "request.bad_cursor")


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/games/?kind=chess",
        "/api/v1/games/?status=over",
        "/api/v1/games/?limit=-1",
        "/api/v1/events/?after=abc",
        "/api/v1/players/{player}/history/?since=soon",
        "/api/v1/games/{game}/?at_version=0",
        "/api/v1/games/{game}/events/?limit=1001",
        # a digit to Python's str.isdigit that int() cannot read (found by schemathesis)
        "/api/v1/players/?limit=%C2%B2",
        "/api/v1/events/?limit=%C2%B2",
        "/api/v1/players/?limit=abc",
        "/api/v1/players/?limit=201",
        "/api/v1/players/?q=",
        "/api/v1/tournaments/?limit=abc",
        "/api/v1/tournaments/?limit=0",
    ],
)
def test_a_malformed_value_is_a_400_on_every_list(api: APIClient, user: Any, url: str) -> None:
    if url.startswith("/api/v1/events/"):  # the feed is the directors'
        user.is_staff = True
        user.save(update_fields=["is_staff"])
    game = finished_game("Ivo", 2)
    player = Player.objects.get(name="Ivo").pk
    answer = api.get(url.format(game=game, player=player))
    assert answer.status_code == 400 and answer.json()["code"] == "query.bad_value"


@pytest.mark.parametrize("url", ["/api/v1/players/?cursor=@@", "/api/v1/tournaments/?cursor=x"])
def test_a_cursor_the_register_or_the_tournaments_did_not_give_is_a_400(
    api: APIClient, url: str
) -> None:
    answer = api.get(url)
    assert answer.status_code == 400 and answer.json()["code"] == "request.bad_cursor"


# --- the register and the tournaments page with a cursor ------------------------------------


def page_through(api: APIClient, url: str) -> tuple[list[Any], int]:
    """Every row of a list, following ``next`` from ``url``; and how many pages it took."""
    rows: list[Any] = []
    pages = 0
    while url:
        answer = api.get(url)
        assert answer.status_code == 200, answer.content
        body = answer.json()
        assert set(body) == {"next", "previous", "results"}
        rows += body["results"]
        pages += 1
        url = body["next"]
    return rows, pages


@pytest.mark.parametrize(("limit", "pages"), [(None, 5), (200, 2), (7, 36)])
def test_the_register_pages_through_250_players_with_no_repeats(
    api: APIClient, limit: int | None, pages: int
) -> None:
    # given 250 players, many of them namesakes (a page often ends among namesakes)
    Player.objects.bulk_create(Player(name=f"Player {n % 60:02}") for n in range(250))
    every = set(Player.objects.values_list("pk", flat=True))
    # when the register is read page by page
    url = "/api/v1/players/" + (f"?limit={limit}" if limit else "")
    rows, taken = page_through(api, url)
    # then every player comes once, in name order, and the pages end
    ids = [row["id"] for row in rows]
    assert len(ids) == len(set(ids)) == 250 and set(ids) == every
    assert [row["name"] for row in rows] == sorted(row["name"] for row in rows)
    assert taken == pages


def test_the_register_search_pages_too(api: APIClient) -> None:
    Player.objects.bulk_create(
        Player(name=f"{'Ann' if n % 2 else 'Bob'} {n:03}") for n in range(250)
    )
    rows, pages = page_through(api, "/api/v1/players/?q=ann&limit=50")
    assert pages == 3 and len({row["id"] for row in rows}) == 125
    assert all(row["name"].startswith("Ann") for row in rows)
    first = api.get("/api/v1/players/?q=ann&limit=50").json()
    second = api.get(first["next"]).json()
    assert first["previous"] is None and second["previous"] is not None
    assert api.get(second["previous"]).json()["results"] == first["results"]


def test_the_tournaments_page_newest_first_with_no_repeats(api: APIClient) -> None:
    director = director_user()
    made = [tournament(director, [f"A{n}", f"B{n}"]) for n in range(5)]
    rows, pages = page_through(api, "/api/v1/tournaments/?limit=2")
    assert pages == 3
    assert [row["id"] for row in rows] == [str(pk) for pk in reversed(made)]


def test_matches_filter_by_format_player_status_and_dates(api: APIClient, user: Any) -> None:
    singles = singles_sheet(api, SINGLES_SHEET)
    finished_game("Sol", 3)
    solo = services.match_start(format="scarney-solitaire", players=[{"name": "Sol"}], user=user)
    a = Player.objects.get(name="A").pk

    def ids(query: str) -> set[str]:
        answer = api.get(f"/api/v1/matches/?{query}")
        assert answer.status_code == 200, answer.content
        return {row["id"] for row in answer.json()["results"]}

    assert ids("format=scarney-singles") == {singles}
    assert ids(f"player={a}") == {singles}
    assert ids("status=in_progress") == {str(solo.pk)}
    assert ids("since=2000-01-01&until=2999-12-31") == {singles, str(solo.pk)}
    assert ids("until=2000-01-01") == set()
    assert ids(f"tournament={uuid.uuid4()}") == set()
    assert len(api.get("/api/v1/matches/?limit=1").json()["results"]) == 1


def test_matches_filter_by_tournament_lists_its_tables_matches_only(api: APIClient) -> None:
    from tests.games.tournaments.helpers import client_for, create, enter, pair

    # given two tournaments with a round paired each, and a club match outside both
    _director, director = client_for("director", staff=True)
    tuesday = create(director, name="Tuesday", format="high-low-scarney", rounds=2)
    enter(director, tuesday["id"], ["Ann", "Bob", "Cid", "Dee"])
    tables = {table["match"] for table in pair(director, tuesday["id"])["tables"]}
    friday = create(director, name="Friday", format="high-low-scarney", rounds=2)
    enter(director, friday["id"], ["Eve", "Fay"])
    (other,) = pair(director, friday["id"])["tables"]
    club = singles_sheet(director, SINGLES_SHEET[:1])

    def ids(query: str) -> set[str]:
        answer = director.get(f"/api/v1/matches/?{query}")
        assert answer.status_code == 200, answer.content
        return {row["id"] for row in answer.json()["results"]}

    # then each tournament lists its own tables' matches, and no other
    assert len(tables) == 2
    assert ids(f"tournament={tuesday['id']}") == tables
    assert ids(f"tournament={friday['id']}") == {other["match"]}
    assert club in ids("") and club not in ids(f"tournament={tuesday['id']}")
    # and the filter composes with the others
    assert ids(f"tournament={tuesday['id']}&format=scarney-singles") == set()
    assert ids(f"tournament={tuesday['id']}&status=in_progress") == tables


# --- conditional GET -------------------------------------------------------------------------


def revalidate(client: APIClient, url: str) -> tuple[str, int]:
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"], url
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    return first["ETag"], again.status_code


def test_game_reads_answer_304_until_the_game_changes(api: APIClient) -> None:
    game = api.post(
        "/api/v1/games/",
        {"kind": "scarney-solitaire", "seats": [{"name": "Eli"}]},
        format="json",
    ).json()
    urls = [f"/api/v1/games/{game['id']}/", f"/api/v1/games/{game['id']}/events/"]
    tags = {}
    for url in urls:
        tags[url], status = revalidate(api, url)
        assert status == 304, url
    # when the game changes
    layout = {
        f"C{i + 1}": colour + str(spots)
        for i, (colour, spots) in enumerate((c, s) for c in "BRYG" for s in range(1, 5))
    }
    entry = {"id": str(uuid.uuid4()), "type": "board.laid_out", "data": {"position": layout}}
    assert api.post(f"/api/v1/games/{game['id']}/events/", entry, format="json").status_code == 201
    # then the old tag no longer holds
    for url in urls:
        answer = api.get(url, HTTP_IF_NONE_MATCH=tags[url])
        assert answer.status_code == 200 and answer["ETag"] != tags[url], url


def test_match_reads_answer_304_until_the_match_changes(api: APIClient) -> None:
    match = singles_sheet(api, SINGLES_SHEET[:2])
    urls = [f"/api/v1/matches/{match}/", f"/api/v1/matches/{match}/history/"]
    tags = {}
    for url in urls:
        tags[url], status = revalidate(api, url)
        assert status == 304, url
    entry = {"id": str(uuid.uuid4()), "type": "game.scored", "data": {"scores": [13, 29, 27]}}
    assert api.post(f"/api/v1/matches/{match}/events/", entry, format="json").status_code == 201
    for url in urls:
        assert api.get(url, HTTP_IF_NONE_MATCH=tags[url]).status_code == 200, url


def test_a_player_history_answers_304_until_he_plays_again(api: APIClient) -> None:
    finished_game("Pia", 4)
    url = f"/api/v1/players/{Player.objects.get(name='Pia').pk}/history/"
    tag, status = revalidate(api, url)
    assert status == 304
    assert api.get(url, HTTP_IF_NONE_MATCH=f'W/{tag}, "other"').status_code == 304
    finished_game("Pia", 5)
    assert api.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 200


def another_timeline(stream_id: Any) -> None:
    """The stream at the version it has, with other events: as after a restore from a backup,
    when a game reaches its old version with other moves (tests/test_restore.py does it whole).
    Only its head differs: a stream row is not an event, and may be rewritten."""
    Stream.objects.filter(pk=stream_id).update(head_hash="e" * 64)


def test_a_tag_names_the_streams_heads_not_their_versions_only(api: APIClient, user: Any) -> None:
    # given a finished game of a player, a sheet match and a tournament's detail, their tags held
    game = finished_game("Pia", 4)
    match = singles_sheet(api, SINGLES_SHEET[:2])
    user.is_staff = True  # a director reads the tournament and its scoreboard
    user.save()
    made = tournament(user, ["Ann", "Bob"])
    player = Player.objects.get(name="Pia").pk
    urls = {
        f"/api/v1/games/{game}/": game,
        f"/api/v1/games/{game}/events/": game,
        f"/api/v1/players/{player}/history/": game,
        f"/api/v1/matches/{match}/": match,
        f"/api/v1/matches/{match}/events/": match,
        f"/api/v1/matches/{match}/history/": match,
        f"/api/v1/matches/{match}/events.ndjson": match,
        f"/api/v1/tournaments/{made}/": made,
        f"/api/v1/tournaments/{made}/standings/": made,
    }
    tags = {url: revalidate(api, url) for url in urls}
    assert all(status == 304 for _tag, status in tags.values()), tags
    table = Match.objects.get(tournament_id=made, table_number=1).pk
    board = scoreboard.change_tag(made, user)
    # when each stream is at the same version with other events
    for stream in {*urls.values(), table}:
        another_timeline(stream)
    cache.clear()  # the scoreboard's figures, kept for half a second
    # then no tag held before holds, and the board's tag moved
    for url, (tag, _status) in tags.items():
        answer = api.get(url, HTTP_IF_NONE_MATCH=tag)
        assert answer.status_code == 200 and answer["ETag"] != tag, url
    assert scoreboard.change_tag(made, user) != board


# --- exports ---------------------------------------------------------------------------------


def test_a_match_exports_its_events_and_its_games_events_as_ndjson(
    api: APIClient, user: Any
) -> None:
    # the reader records in it: a match in progress is read by its recorders only
    match = services.match_start(format="scarney-solitaire", players=[{"name": "Ned"}], user=user)
    game = services.game_start(kind="scarney-solitaire", seats=None, match_id=match.pk)
    answer = api.get(f"/api/v1/matches/{match.pk}/events.ndjson")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/x-ndjson"
    lines = [json.loads(line) for line in b"".join(answer.streaming_content).splitlines()]
    assert [(e["stream"], e["type"]) for e in lines] == [
        (str(match.pk), "match.started"),
        (str(game.pk), "game.started"),
    ]
    positions = [e["position"] for e in lines]
    assert positions == sorted(positions)


def ndjson(answer: Any) -> list[dict[str, Any]]:
    assert answer.status_code == 200 and answer["Content-Type"] == "application/x-ndjson"
    return [json.loads(line) for line in b"".join(answer.streaming_content).splitlines()]


def test_a_tournament_exports_its_events_its_matches_and_their_games_as_ndjson(
    anon: APIClient,
) -> None:
    # given a live duplicate Solitaire evening: two tables, a game started at one of them
    director = director_user()
    boss = APIClient()
    boss.force_authenticate(director)
    spec = {
        "name": "Solitaire night",
        "format": "scarney-solitaire",
        "system": "tables",
        "table_size": 1,
        "rounds": 1,
        "entry": "live",
    }
    cup = creating.tournament_create(spec=spec, user=director).pk
    for name in ("Ann", "Bob"):
        entries.entry_add(tournament_id=cup, spec={"name": name}, user=director)
    rounds.round_pair(tournament_id=cup, user=director)
    results.correction_record(
        tournament_id=cup,
        event_id=uuid.uuid4(),
        type="round.laid_out",
        data={"round": 1},
        user=director,
    )
    matches = [
        str(pk) for pk in Match.objects.filter(tournament_id=cup).values_list("pk", flat=True)
    ]
    game = services.game_start(
        kind="scarney-solitaire", seats=None, match_id=uuid.UUID(matches[0]), user=director
    )
    # when the director exports it
    lines = ndjson(boss.get(f"/api/v1/tournaments/{cup}/events.ndjson"))
    # then every line is an event with its stream, in position order
    positions = [line["position"] for line in lines]
    assert positions == sorted(positions) and len(set(positions)) == len(positions)
    streams = {line["stream"] for line in lines}
    assert streams == {str(cup), *matches, str(game.pk)}
    by_stream = {
        stream: [line["type"] for line in lines if line["stream"] == stream] for stream in streams
    }
    assert by_stream[str(cup)][0] == "tournament.created"
    assert "round.paired" in by_stream[str(cup)] and "round.laid_out" in by_stream[str(cup)]
    assert all(by_stream[m][0] == "match.started" for m in matches)
    assert by_stream[str(game.pk)][0] == "game.started"
    assert {"id", "version", "type", "data", "meta", "recorded_at", "hash"} <= set(lines[0])
    # and a visitor reads the published tournament's own events, not its tables still playing
    seen = ndjson(anon.get(f"/api/v1/tournaments/{cup}/events.ndjson"))
    assert {line["stream"] for line in seen} == {str(cup)}
    assert [line["position"] for line in seen] == [
        line["position"] for line in lines if line["stream"] == str(cup)
    ]


def test_a_hidden_tournaments_export_is_not_there_for_those_who_may_not_read_it(
    api: APIClient, anon: APIClient
) -> None:
    director = director_user()
    boss = APIClient()
    boss.force_authenticate(director)
    spec = {"name": "Private", "format": "high-low-scarney", "rounds": 2, "published": False}
    hidden = creating.tournament_create(spec=spec, user=director).pk
    url = f"/api/v1/tournaments/{hidden}/events.ndjson"
    assert [line["type"] for line in ndjson(boss.get(url))] == ["tournament.created"]
    for outsider in (api, anon):  # a member who is neither its keeper nor its entrant
        answer = outsider.get(url)
        assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    assert anon.get(f"/api/v1/tournaments/{uuid.uuid4()}/events.ndjson").status_code == 404


def test_the_match_history_csv_has_a_row_per_seat_filtered_as_the_list(api: APIClient) -> None:
    singles_sheet(api, SINGLES_SHEET)
    finished_game("Zed", 6)
    answer = api.get("/api/v1/matches/history.csv?format=scarney-singles")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(b"".join(answer.streaming_content).decode())))
    # in the standing's order, best first
    assert [(r["name"], r["total"], r["rank"], r["winner"]) for r in rows] == [
        ("C", "313", "1", "yes"),
        ("B", "208", "2", "no"),
        ("A", "128", "3", "no"),
    ]
    assert api.get("/api/v1/matches/history.csv?status=over").status_code == 400


def test_a_players_plays_give_date_kind_scores_win_and_duration(api: APIClient) -> None:
    singles_sheet(api, SINGLES_SHEET)
    game = finished_game("C", 7)
    c = Player.objects.get(name="C")
    answer = api.get(f"/api/v1/players/{c.pk}/plays.json")
    assert answer.status_code == 200
    body = answer.json()
    assert body["player"] == {"id": c.pk, "name": "C"}
    solo, match = body["plays"]
    assert solo["id"] == str(game) and solo["kind"] == "scarney-solitaire"
    assert solo["players"][0]["name"] == "C" and solo["duration_seconds"] >= 0
    assert match["kind"] == "scarney-singles" and match["win"] is True
    assert [(p["name"], p["score"], p["win"]) for p in match["players"]] == [
        ("A", 128, False),
        ("B", 208, False),
        ("C", 313, True),
    ]
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", match["date"])
    assert api.get(f"/api/v1/players/{c.pk}/plays.json?x=1").status_code == 400


def test_the_query_codes_are_documented() -> None:
    errors = (Path(__file__).resolve().parents[3] / "docs" / "ERRORS.md").read_text()
    for code in (UNKNOWN_PARAMETER, BAD_VALUE):
        assert f"`{code}`" in errors, code


def test_a_keeper_named_by_blanks_is_the_services_refusal(api: APIClient) -> None:
    # A string the schema accepts is never refused as blank by the serializer (400): the service
    # says what is wrong with it (422), as schemathesis expects of a schema-valid body.
    body = {"kind": "scarney-solitaire", "seats": [{"name": "Ann"}]}
    game = api.post("/api/v1/games/", body, format="json").json()["id"]
    keeper = api.post(f"/api/v1/games/{game}/keepers/", {"user": "\t"}, format="json")
    assert keeper.status_code == 422 and keeper.json()["code"] == "keeper.unknown_user"
