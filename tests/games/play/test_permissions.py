"""Who may write (API.md conventions): a stream's recorders and the directors, nobody else.

The check is the services', so the API, the pages and the admin share it; these tests go through
the API with users logged in as a score-keeper's device would be.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.play import services
from games.store.models import Game, Player

pytestmark = pytest.mark.django_db

# A study position one jump from the end: B4 on C1 jumps G3 on C2 and lands on C3.
ONE_JUMP_LEFT = {"position": {"C1": "B4", "C2": "G3"}}
JUMP = {"from": 1, "to": 3}


def client_of(username: str, **flags: Any) -> tuple[APIClient, Any]:
    user = get_user_model().objects.create_user(username=username, password="pass-word-1", **flags)
    client = APIClient()
    client.force_authenticate(user=user)
    return client, user


def start_game(client: APIClient, **body: Any) -> str:
    body = {"kind": "scarney-solitaire", "seats": [{"name": "Ann"}], **body}
    response = client.post("/api/v1/games/", body, format="json")
    assert response.status_code == 201, response.json()
    return str(response.json()["id"])


def record(client: APIClient, stream: str, type: str, data: Any, category: str = "games") -> Any:
    body = {"id": str(uuid.uuid4()), "type": type, "data": data}
    return client.post(f"/api/v1/{category}/{stream}/events/", body, format="json")


def test_an_anonymous_write_is_401(anon: APIClient) -> None:
    # given a game somebody started
    creator, _ = client_of("creator")
    game = start_game(creator, setup=ONE_JUMP_LEFT)
    # when nobody logged in records in it, then
    answer = record(anon, game, "pawn.jumped", JUMP)
    assert answer.status_code == 401
    assert (
        anon.post("/api/v1/games/", {"kind": "scarney-solitaire"}, format="json").status_code == 401
    )


def test_a_keeper_of_one_game_gets_403_on_another() -> None:
    director, _ = client_of("director", is_staff=True)
    keeper, _ = client_of("kim")
    mine, theirs = start_game(director, setup=ONE_JUMP_LEFT), start_game(director)
    named = director.post(f"/api/v1/games/{mine}/keepers/", {"user": "kim"}, format="json")
    assert named.status_code == 200

    refused = record(keeper, theirs, "board.laid_out", {"position": {}})
    assert refused.status_code == 403
    assert refused.json()["code"] == "permission.not_a_recorder"
    assert "recorders" in refused.json()["detail"]
    assert record(keeper, mine, "pawn.jumped", JUMP).status_code == 201


def test_a_creator_names_a_keeper_who_can_then_write() -> None:
    creator, _ = client_of("creator")
    keeper, _ = client_of("kim")
    game = start_game(creator, setup=ONE_JUMP_LEFT)
    assert record(keeper, game, "pawn.jumped", JUMP).status_code == 403

    named = creator.post(f"/api/v1/games/{game}/keepers/", {"user": "kim"}, format="json")
    assert named.status_code == 200
    assert named.json() == {"created_by": "creator", "keepers": ["kim"]}
    assert record(keeper, game, "pawn.jumped", JUMP).status_code == 201


def test_only_the_creator_or_a_director_names_or_drops_keepers() -> None:
    creator, _ = client_of("creator")
    keeper, _ = client_of("kim")
    client_of("lee")
    game = start_game(creator)
    creator.post(f"/api/v1/games/{game}/keepers/", {"user": "kim"}, format="json")

    refused = keeper.post(f"/api/v1/games/{game}/keepers/", {"user": "lee"}, format="json")
    assert refused.status_code == 403
    assert refused.json()["code"] == "permission.not_the_creator"
    unknown = creator.post(f"/api/v1/games/{game}/keepers/", {"user": "nobody"}, format="json")
    assert unknown.status_code == 422 and unknown.json()["code"] == "keeper.unknown_user"
    dropped = creator.delete(f"/api/v1/games/{game}/keepers/kim/")
    assert dropped.status_code == 200 and dropped.json()["keepers"] == []
    assert record(keeper, game, "board.laid_out", {"position": {}}).status_code == 403


def test_a_holder_of_the_direct_permission_records_anywhere() -> None:
    creator, _ = client_of("creator")
    director, user = client_of("dora")
    user.user_permissions.add(Permission.objects.get(codename="direct"))
    game = start_game(creator, setup=ONE_JUMP_LEFT)
    assert record(director, game, "pawn.jumped", JUMP).status_code == 201


def test_a_finished_game_is_reopened_only_by_a_director_with_a_reason() -> None:
    creator, _ = client_of("creator")
    director, _ = client_of("director", is_staff=True)
    game = start_game(creator, setup=ONE_JUMP_LEFT)
    assert record(creator, game, "pawn.jumped", JUMP).json()["game"]["status"] == "finished"

    refused = record(creator, game, "move.undone", {"reason": "wrong pawn"})
    assert refused.status_code == 403
    assert refused.json()["code"] == "permission.director_only"
    unexplained = record(director, game, "move.undone", {})
    assert unexplained.status_code == 422
    assert unexplained.json()["code"] == "undo.reason_required"
    reopened = record(director, game, "move.undone", {"reason": "the keeper tapped C3 for C2"})
    assert reopened.status_code == 201
    assert reopened.json()["game"]["status"] == "in_progress"


def test_a_move_taken_back_in_a_game_in_progress_needs_no_director() -> None:
    creator, _ = client_of("creator")
    game = start_game(creator)
    laid = record(creator, game, "board.laid_out", {"position": _layout()})
    assert laid.status_code == 201
    assert record(creator, game, "move.undone", {}).status_code == 201


def test_nobody_but_its_recorders_writes_into_a_match() -> None:
    director, _ = client_of("director", is_staff=True)
    stranger, _ = client_of("sam")
    sheet = _match(director, "sheet")
    live = _match(director, "live")

    entry = record(stranger, sheet, "game.scored", {"scores": [60]}, category="matches")
    assert entry.status_code == 403 and entry.json()["code"] == "permission.not_a_recorder"
    game = {"kind": "scarney-solitaire", "match": live}
    started = stranger.post("/api/v1/games/", game, format="json")
    assert started.status_code == 403 and started.json()["code"] == "permission.not_a_recorder"

    director.post(f"/api/v1/matches/{live}/keepers/", {"user": "sam"}, format="json")
    started = stranger.post("/api/v1/games/", game, format="json")
    assert started.status_code == 201
    # the keeper of a match records in its games
    laid = record(stranger, started.json()["id"], "board.laid_out", {"position": _layout()})
    assert laid.status_code == 201


def test_the_move_statement_tests_the_recorder_itself_and_writes_nothing_for_a_stranger() -> None:
    # The fast path's one statement carries the recorder test (no query of its own): a keeper of
    # the match records in a game the director started, with the head already cached; a
    # stranger's legal move writes nothing and gets the locked path's reason; a dropped keeper
    # is refused at once.
    director, _ = client_of("director", is_staff=True)
    keeper, _ = client_of("kim")
    stranger, _ = client_of("sam")
    live = _match(director, "live")
    director.post(f"/api/v1/matches/{live}/keepers/", {"user": "kim"}, format="json")
    game = director.post("/api/v1/games/", {"kind": "scarney-solitaire", "match": live}, "json")
    game_id = game.json()["id"]
    laid = record(director, game_id, "board.laid_out", {"position": _layout()})
    move = laid.json()["game"]["legal_events"][0]

    refused = record(stranger, game_id, move["type"], move["data"])
    assert refused.status_code == 403 and refused.json()["code"] == "permission.not_a_recorder"
    assert director.get(f"/api/v1/games/{game_id}/").json()["version"] == 2
    malformed = record(stranger, game_id, move["type"], {"nonsense": 1})
    assert malformed.status_code == 403  # a stranger learns nothing of the event's shape

    with CaptureQueriesContext(connection) as queries:
        kept = record(keeper, game_id, move["type"], move["data"])
    assert kept.status_code == 201 and kept.json()["game"]["version"] == 3
    assert not [q for q in queries.captured_queries if "games_stream_keepers" in q["sql"]]

    director.delete(f"/api/v1/matches/{live}/keepers/kim/")
    after = kept.json()["game"]["legal_events"][0]
    dropped = record(keeper, game_id, after["type"], after["data"])
    assert dropped.status_code == 403 and dropped.json()["code"] == "permission.not_a_recorder"


def test_the_service_itself_records_without_a_user() -> None:
    # Celery tasks and management commands pass no user: they are the service.
    game = services.game_start(kind="scarney-solitaire", seats=[{"name": "Ann"}])
    recorded = services.event_record(
        stream_id=game.pk,
        event_id=uuid.uuid4(),
        type="board.laid_out",
        data={"position": _layout()},
    )
    assert recorded.created


def test_a_player_history_lists_no_game_in_progress_to_strangers(anon: APIClient) -> None:
    creator, _ = client_of("creator")
    stranger, _ = client_of("sam")
    director, _ = client_of("director", is_staff=True)
    game = start_game(creator, seats=[{"name": "Quiet Quentin"}])
    player = creator.get(f"/api/v1/games/{game}/").json()["seats"][0]["player"]

    def listed(client: APIClient) -> list[str]:
        answer = client.get(f"/api/v1/players/{player}/history/")
        return [row["id"] for row in answer.json()["results"]] if answer.status_code == 200 else []

    assert listed(creator) == [game]
    assert listed(director) == [game]
    assert listed(stranger) == []
    # and a player of nothing finished and public is not there at all for the public
    assert anon.get(f"/api/v1/players/{player}/history/").status_code == 404
    assert game not in [g["id"] for g in stranger.get("/api/v1/games/").json()["results"]]


def test_a_player_of_a_finished_public_game_is_listed_for_the_public(anon: APIClient) -> None:
    creator, _ = client_of("creator")
    game = start_game(creator, seats=[{"name": "Open Olive"}], setup=ONE_JUMP_LEFT)
    record(creator, game, "pawn.jumped", JUMP)
    player = creator.get(f"/api/v1/games/{game}/").json()["seats"][0]["player"]
    answer = anon.get(f"/api/v1/players/{player}/history/")
    assert answer.status_code == 200
    assert [row["id"] for row in answer.json()["results"]] == [game]


def test_the_admin_shows_each_streams_recorders(client: Any) -> None:
    creator, user = client_of("creator")
    game = start_game(creator)
    client_of("kim")
    creator.post(f"/api/v1/games/{game}/keepers/", {"user": "kim"}, format="json")
    admin = get_user_model().objects.create_superuser("boss", password="pass-word-1")
    client.force_login(admin)
    page = client.get("/admin/games/stream/").content.decode()
    assert "creator; keepers: kim" in page


def _match(client: APIClient, entry: str) -> str:
    body = {"format": "scarney-solitaire", "players": [{"name": "Ann"}], "entry": entry}
    response = client.post("/api/v1/matches/", body, format="json")
    assert response.status_code == 201, response.json()
    return str(response.json()["id"])


def _layout() -> dict[str, str]:
    pawns = [colour + str(spots) for colour in "BRYG" for spots in range(1, 5)]
    return {f"C{i + 1}": pawn for i, pawn in enumerate(pawns)}


# --- who may read (API.md "Authentication"): member numbers, unpublished tournaments, games and
# matches in progress -------------------------------------------------------------------------


def test_member_numbers_are_shown_to_directors_and_to_the_player_himself(anon: APIClient) -> None:
    director, _ = client_of("director", is_staff=True)
    member, pat = client_of("pat")
    for name, number in (("Pat", "101"), ("Quin", "102")):
        made = director.post("/api/v1/players/", {"name": name, "member_number": number}, "json")
        assert made.status_code == 201 and made.json()["member_number"] == number
    Player.objects.filter(name="Pat").update(user=pat)

    def numbers(client: APIClient) -> dict[str, str | None]:
        rows = client.get("/api/v1/players/").json()["results"]
        return {row["name"]: row["member_number"] for row in rows}

    assert numbers(director) == {"Pat": "101", "Quin": "102"}
    assert numbers(member) == {"Pat": "101", "Quin": None}
    quin = Player.objects.get(name="Quin").pk
    assert member.get(f"/api/v1/players/{quin}/").json()["member_number"] is None
    assert director.get(f"/api/v1/players/{quin}/").json()["member_number"] == "102"
    # a number is searched only by those who may see numbers
    assert [r["name"] for r in director.get("/api/v1/players/?q=102").json()["results"]] == ["Quin"]
    assert member.get("/api/v1/players/?q=102").json()["results"] == []


def test_without_a_login_the_register_lists_only_players_of_finished_public_play(
    anon: APIClient,
) -> None:
    director, _ = client_of("director", is_staff=True)
    director.post("/api/v1/players/", {"name": "Quiet Quentin", "member_number": "7"}, "json")
    game = start_game(director, seats=[{"name": "Open Olive"}], setup=ONE_JUMP_LEFT)
    record(director, game, "pawn.jumped", JUMP)  # finished, and public

    rows = anon.get("/api/v1/players/").json()["results"]
    assert [(r["name"], r["member_number"]) for r in rows] == [("Open Olive", None)]
    quentin = Player.objects.get(name="Quiet Quentin").pk
    olive = Player.objects.get(name="Open Olive").pk
    assert anon.get(f"/api/v1/players/{quentin}/").status_code == 404
    assert anon.get(f"/api/v1/players/{olive}/").json()["name"] == "Open Olive"
    assert anon.get("/api/v1/players/?q=7").json()["results"] == []


def test_an_unpublished_tournament_is_read_by_its_director_keepers_and_entrants_only(
    anon: APIClient,
) -> None:
    director, _ = client_of("director", is_staff=True)
    keeper, _ = client_of("kim")
    entrant, ann = client_of("ann")
    stranger, _ = client_of("sam")
    body = {"name": "Private evening", "format": "high-low-scarney", "rounds": 2}
    hidden = director.post("/api/v1/tournaments/", {**body, "published": False}, "json").json()
    shown = director.post("/api/v1/tournaments/", {**body, "name": "Open evening"}, "json").json()
    for name in ("Ann", "Bob"):
        entry = {"name": name}
        entered = director.post(f"/api/v1/tournaments/{hidden['id']}/entries/", entry, "json")
        assert entered.status_code == 201
    Player.objects.filter(name="Ann").update(user=ann)
    assert (
        director.post(f"/api/v1/tournaments/{hidden['id']}/rounds/", {}, "json").status_code == 201
    )
    kept = {"round": 1, "table": 1, "user": "kim"}
    named = director.post(f"/api/v1/tournaments/{hidden['id']}/keepers/", kept, "json")
    assert named.status_code == 201

    def reads(client: APIClient) -> list[int]:
        paths = ("", "standings/", "rounds/1/", "events/", "settlement/")
        return [client.get(f"/api/v1/tournaments/{hidden['id']}/{p}").status_code for p in paths]

    def listed(client: APIClient) -> set[str]:
        return {t["name"] for t in client.get("/api/v1/tournaments/").json()["results"]}

    for reader in (director, keeper, entrant):
        assert reads(reader) == [200] * 5
        assert listed(reader) == {"Private evening", "Open evening"}
    for outsider in (stranger, anon):
        assert reads(outsider) == [404] * 5  # as for anonymous readers before: not there
        assert listed(outsider) == {"Open evening"}
    assert stranger.get(f"/api/v1/tournaments/{shown['id']}/").status_code == 200


def test_a_match_in_progress_is_read_by_its_recorders_seated_players_and_directors(
    anon: APIClient,
) -> None:
    creator, _ = client_of("creator")
    director, _ = client_of("director", is_staff=True)
    keeper, _ = client_of("kim")
    seated, ann = client_of("ann")
    stranger, _ = client_of("sam")
    match = _match(creator, "sheet")  # Ann at its one seat
    Player.objects.filter(name="Ann").update(user=ann)
    creator.post(f"/api/v1/matches/{match}/keepers/", {"user": "kim"}, format="json")

    paths = ("", "events/", "history/", "events.ndjson")
    for reader in (creator, director, keeper, seated):
        assert [reader.get(f"/api/v1/matches/{match}/{p}").status_code for p in paths] == [200] * 4
    refused = stranger.get(f"/api/v1/matches/{match}/")
    assert refused.status_code == 403 and refused.json()["code"] == "request.permission_denied"
    assert "only its recorders, its seated players and the directors" in refused.json()["detail"]
    assert [stranger.get(f"/api/v1/matches/{match}/{p}").status_code for p in paths] == [403] * 4
    assert anon.get(f"/api/v1/matches/{match}/").status_code == 401

    # finished and public: anyone
    game = start_game(creator, setup=ONE_JUMP_LEFT)
    assert stranger.get(f"/api/v1/games/{game}/").status_code == 403
    record(creator, game, "pawn.jumped", JUMP)
    assert stranger.get(f"/api/v1/games/{game}/").status_code == 200
    assert anon.get(f"/api/v1/games/{game}/").status_code == 200


def test_a_game_in_progress_is_read_by_the_recorders_of_its_match_and_not_by_strangers(
    anon: APIClient,
) -> None:
    director, _ = client_of("director", is_staff=True)
    keeper, _ = client_of("kim")
    stranger, _ = client_of("sam")
    live = _match(director, "live")
    director.post(f"/api/v1/matches/{live}/keepers/", {"user": "kim"}, format="json")
    game = director.post("/api/v1/games/", {"kind": "scarney-solitaire", "match": live}, "json")
    game_id = game.json()["id"]

    assert keeper.get(f"/api/v1/games/{game_id}/").status_code == 200
    assert stranger.get(f"/api/v1/games/{game_id}/").status_code == 403
    assert stranger.get(f"/api/v1/games/{game_id}/events/").status_code == 403
    assert anon.get(f"/api/v1/games/{game_id}/").status_code == 401


def test_a_streams_keepers_are_read_by_its_recorders_and_the_directors_only(
    anon: APIClient,
) -> None:
    # given a game and a match with a keeper each
    creator, _ = client_of("creator")
    director, _ = client_of("director", is_staff=True)
    keeper, _ = client_of("kim")
    stranger, _ = client_of("sam")
    game = start_game(creator, setup=ONE_JUMP_LEFT)
    match = _match(creator, "sheet")
    for stream in (f"games/{game}", f"matches/{match}"):
        named = creator.post(f"/api/v1/{stream}/keepers/", {"user": "kim"}, format="json")
        assert named.status_code == 200, named.json()
    record(creator, game, "pawn.jumped", JUMP)  # finished and public: its moves are anyone's
    for stream in (f"games/{game}", f"matches/{match}"):
        url = f"/api/v1/{stream}/keepers/"
        # when its recorders and a director read its keepers, then they see them
        for reader in (creator, keeper, director):
            answer = reader.get(url)
            assert answer.status_code == 200, (stream, answer.json())
            assert answer.json() == {"created_by": "creator", "keepers": ["kim"]}
        # and anyone else is refused, as a hidden game answers
        refused = stranger.get(url)
        assert refused.status_code == 403 and refused.json()["code"] == "request.permission_denied"
        assert "recorders and the directors" in refused.json()["detail"]
        assert anon.get(url).status_code == 401
    assert stranger.get(f"/api/v1/games/{game}/").status_code == 200


def test_an_unpublished_tournaments_page_and_scoreboards_are_read_as_its_api() -> None:
    # given an unpublished tournament with its first round paired and a keeper at table 1
    director, chief = client_of("director", is_staff=True)
    _, kim = client_of("kim")
    _, ann = client_of("ann")
    _, sam = client_of("sam")
    body = {"name": "Private evening", "format": "high-low-scarney", "rounds": 2}
    hidden = director.post("/api/v1/tournaments/", {**body, "published": False}, "json").json()
    shown = director.post("/api/v1/tournaments/", {**body, "name": "Open evening"}, "json").json()
    for made in (hidden, shown):
        for name in ("Ann", "Bob"):
            entered = director.post(
                f"/api/v1/tournaments/{made['id']}/entries/", {"name": name}, "json"
            )
            assert entered.status_code == 201
        paired = director.post(f"/api/v1/tournaments/{made['id']}/rounds/", {}, "json")
        assert paired.status_code == 201
    Player.objects.filter(name="Ann").update(user=ann)
    kept = {"round": 1, "table": 1, "user": "kim"}
    named = director.post(f"/api/v1/tournaments/{hidden['id']}/keepers/", kept, "json")
    assert named.status_code == 201

    def pages(made: dict[str, Any], user: Any) -> list[int]:
        client = Client()
        if user is not None:
            client.force_login(user)
        base = f"/tournaments/{made['id']}/"
        paths = ("", "scoreboard/", "scoreboard/board/", "scoreboard/table/1/")
        return [client.get(base + path).status_code for path in (*paths, paths[3] + "board/")]

    def documents(made: dict[str, Any], user: Any) -> list[int]:
        client = Client()
        if user is not None:
            client.force_login(user)
        base = f"/api/v1/tournaments/{made['id']}/"
        paths = ("standings.html", "rounds/1/cards.html")
        return [client.get(base + path).status_code for path in paths]

    # then its director, keeper and linked entrant read its pages and documents, nobody else
    for reader in (chief, kim, ann):
        assert pages(hidden, reader) == [200] * 5
        assert documents(hidden, reader) == [200] * 2
    for outsider in (sam, None):
        assert pages(hidden, outsider) == [404] * 5
        assert documents(hidden, outsider) == [404] * 2
    # while a published one is anyone's
    assert pages(shown, sam) == pages(shown, None) == [200] * 5
    assert documents(shown, sam) == documents(shown, None) == [200] * 2


def test_the_pages_of_a_game_or_match_in_progress_are_read_as_the_api_reads_them() -> None:
    # given a game and a sheet match in progress, made by their recorder
    _, recorder = client_of("recorder")
    _, stranger = client_of("stranger")
    game = services.game_start(kind="scarney-solitaire", seats=[{"name": "Ann"}], user=recorder)
    match = services.match_start(
        format="scarney-solitaire", players=[{"name": "Ann"}], entry="sheet", user=recorder
    )

    def status(user: Any, path: str) -> int:
        client = Client()
        if user is not None:
            client.force_login(user)
        return int(client.get(path).status_code)

    paths = (f"/games/{game.pk}/", f"/games/{game.pk}/table/", f"/matches/{match.pk}/")
    # then its recorder reads them, a visitor is asked to log in, anyone else is refused
    assert [status(recorder, p) for p in paths] == [200] * 3
    assert [status(None, p) for p in paths] == [401] * 3
    assert [status(stranger, p) for p in paths] == [403] * 3
    refused = Client()
    refused.force_login(stranger)
    assert "not yours to follow" in refused.get(paths[0]).content.decode()


def test_only_a_director_or_the_member_himself_seats_by_member_number(anon: APIClient) -> None:
    director, _ = client_of("director", is_staff=True)
    member, pat = client_of("pat")
    stranger, _ = client_of("sam")
    director.post("/api/v1/players/", {"name": "Pat", "member_number": "MN-4242"}, "json")
    Player.objects.filter(name="Pat").update(user=pat)
    games_before = Game.objects.count()

    def seat(client: APIClient, number: str) -> Any:
        body = {"kind": "scarney-solitaire", "seats": [{"member_number": number}]}
        return client.post("/api/v1/games/", body, "json")

    # a stranger learns nothing: a member's number and an unknown one get the same refusal, and
    # neither try makes a game
    known, unknown = seat(stranger, "MN-4242"), seat(stranger, "MN-0000")
    assert known.status_code == unknown.status_code == 403
    assert known.json() == unknown.json()
    assert known.json()["code"] == "permission.member_number"
    assert Game.objects.count() == games_before
    # the member himself, and a director, seat by number
    assert seat(member, "MN-4242").json()["seats"][0]["name"] == "Pat"
    assert seat(director, "MN-4242").status_code == 201
    assert seat(director, "MN-0000").json()["code"] == "seat.unknown_member"
