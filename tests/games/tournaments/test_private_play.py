"""An unpublished tournament's play is private (API.md "Who may read"): every read of the API and
the pages, for a visitor and for a member who plays elsewhere, gives nothing of its matches and
games; its entrants and the directors read them; a director's ``tournament.published`` opens them
to everyone at once, ``tournament.unpublished`` closes them again at once (no kept answer, no 304
of what was shown before)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.play import services
from games.store.models import Player, Stream, Tournament
from scoring.documents import printing
from scoring.models import Rating
from tests.games.tournaments.helpers import (
    HL_WIN,
    client_for,
    correction,
    create,
    enter,
    pair,
    play_sheet,
)

pytestmark = pytest.mark.django_db

CUP = "Hidden Cup"
ZELDA, YORICK = "Zelda Quist", "Yorick Pender"  # the tournament's two players
OSCAR, WALT = "Oscar Outside", "Walt Public"  # a public match elsewhere
# A High-Low game four moves from its end: the starter takes off a black pawn, the other a red
# pair, the starter the other black, the other the green pair; the black 4 left wins for the
# last mover, who scores his 6 spots twice (RULES.md 5.5, 5.6). The loser starts the next game,
# so the same seat wins each, and nine games take him past 100: the match is over.
POSITION = {"C1": "R1", "C2": "R2", "C5": "G1", "C6": "G2", "C9": "B1", "C13": "B2", "C16": "B4"}
MOVES = [[9], [1, 2], [13], [5, 6]]


@dataclass(frozen=True)
class Evening:
    tournament: str
    match: str
    game: str
    zelda: int
    yorick: int
    director: Any
    capture: Any  # runs what a commit runs (the reactions to a publication)
    public: str  # the club match elsewhere


@pytest.fixture(autouse=True)
def nothing_kept() -> Any:
    cache.clear()  # the room's board tags of another test
    yield
    cache.clear()


@pytest.fixture
def evening(django_capture_on_commit_callbacks: Any) -> Evening:
    """An unpublished live High-Low tournament whose one table was played out and settled,
    and a public match elsewhere between two other players (Oscar is a member)."""
    director, api = client_for("director", staff=True)
    made = create(
        api,
        name=CUP,
        format="high-low-scarney",
        system="swiss",
        rounds=1,
        entry="live",
        published=False,
    )
    zelda, yorick = enter(api, made["id"], [ZELDA, YORICK])
    match = pair(api, made["id"])["tables"][0]["match"]
    games = play_out(api, director, match, django_capture_on_commit_callbacks)
    assert Stream.objects.get(pk=match).status in ("finished", "settled")
    public = api.post(
        "/api/v1/matches/",
        {
            "format": "high-low-scarney",
            "entry": "sheet",
            "players": [{"name": OSCAR}, {"name": WALT}],
        },
        format="json",
    )
    assert public.status_code == 201, public.json()
    play_sheet(api, public.json()["id"], [HL_WIN] * 3, django_capture_on_commit_callbacks)
    users = get_user_model().objects
    Player.objects.filter(name=OSCAR).update(user=users.create_user("oscar", password="pw"))
    Player.objects.filter(pk=zelda).update(user=users.create_user("zelda", password="pw"))
    return Evening(
        made["id"],
        match,
        games[0],
        zelda,
        yorick,
        api,
        django_capture_on_commit_callbacks,
        public.json()["id"],
    )


def play_out(api: Any, director: Any, match: str, capture: Any) -> list[str]:
    """The match's games, each ended in four moves, until the match is over (its close, the
    settlement and the tournament's result, run on commit)."""
    games = []
    for _ in range(12):
        if Stream.objects.get(pk=match).status != "in_progress":
            return games
        game = services.game_start(
            kind="high-low-scarney",
            seats=None,
            setup={"position": POSITION},
            match_id=uuid.UUID(match),
            user=director,
        )
        games.append(str(game.pk))
        with capture(execute=True):
            for circles in MOVES:
                body = {
                    "id": str(uuid.uuid4()),
                    "type": "pawns.removed",
                    "data": {"circles": circles},
                }
                answer = api.post(f"/api/v1/games/{game.pk}/events/", body, format="json")
                assert answer.status_code == 201, answer.json()
    return games


# --- the surfaces ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Surface:
    """One read: its URL, and what its answer shows of the tournament's play when it may."""

    url: str
    shows: str | None  # a text the answer holds when the play is readable (None: status only)
    public: bool = False  # lists the public's results only, whoever reads (the home page)


def surfaces(e: Evening) -> list[Surface]:
    t, m, g, z = e.tournament, e.match, e.game, e.zelda
    return [
        # the tournament itself (hidden before this change already: kept)
        Surface(f"/api/v1/tournaments/{t}/", CUP),
        Surface("/api/v1/tournaments/", CUP),
        Surface(f"/api/v1/tournaments/{t}/rounds/1/", m),
        Surface(f"/api/v1/tournaments/{t}/standings/", YORICK),
        Surface(f"/api/v1/tournaments/{t}/settlement/", YORICK),
        Surface(f"/api/v1/tournaments/{t}/events/", m),
        Surface(f"/api/v1/tournaments/{t}/events.ndjson", m),
        Surface(f"/api/v1/tournaments/{t}/standings.html", YORICK),
        Surface(f"/api/v1/tournaments/{t}/rounds/1/cards.html", YORICK),
        Surface(f"/api/v1/tournaments/{t}/players/{z}/slip.html", YORICK),
        # its matches
        Surface(f"/api/v1/matches/?tournament={t}", m),
        Surface("/api/v1/matches/", m),
        Surface(f"/api/v1/matches/{m}/", YORICK),
        Surface(f"/api/v1/matches/{m}/events/", t),
        Surface(f"/api/v1/matches/{m}/history/", g),
        Surface(f"/api/v1/matches/{m}/events.ndjson", g),
        Surface(f"/api/v1/matches/{m}/score-sheet.csv", YORICK),
        Surface(f"/api/v1/matches/{m}/score-sheet.html", YORICK),
        Surface(f"/api/v1/matches/{m}/score-sheet.pdf", None),
        Surface("/api/v1/matches/history.csv", YORICK),
        Surface(f"/api/v1/matches/history.csv?tournament={t}", YORICK),
        # their games
        Surface("/api/v1/games/", g),
        Surface("/api/v1/games/?kind=high-low-scarney&status=finished", g),
        Surface(f"/api/v1/games/{g}/", YORICK),
        Surface(f"/api/v1/games/{g}/events/", m),
        # its players
        Surface(f"/api/v1/players/?q={ZELDA[:5]}", ZELDA),
        Surface(f"/api/v1/players/{z}/", ZELDA),
        Surface(f"/api/v1/players/{z}/history/", m),
        Surface(f"/api/v1/players/{z}/stats/", YORICK),
        Surface(f"/api/v1/players/{z}/plays.json", m),
        Surface(f"/api/v1/players/{z}/games.ndjson", g),
        Surface(f"/api/v1/players/{z}/ratings/", "high-low-scarney"),
        # the pages
        Surface("/", YORICK, public=True),
        Surface(f"/tournaments/{t}/", YORICK),
        Surface(f"/tournaments/{t}/scoreboard/", YORICK),
        Surface(f"/tournaments/{t}/scoreboard/board/", YORICK),
        Surface(f"/tournaments/{t}/scoreboard/table/1/", YORICK),
        Surface(f"/tournaments/{t}/scoreboard/table/1/board/", YORICK),
        Surface(f"/matches/{m}/", YORICK),
        Surface(f"/games/{g}/", YORICK),
        Surface(f"/games/{g}/table/", YORICK),
        Surface(f"/players/{z}/", YORICK),
    ]


def secrets_of(e: Evening) -> list[str]:
    """What nobody who may not read the play may find in any answer: the tournament's name, its
    match and game, and the opponent's name (which says whom Zelda met)."""
    return [CUP, e.match, e.game, YORICK]


def read(client: Client, url: str, **headers: Any) -> tuple[int, str]:
    answer = client.get(url, headers=headers)
    if getattr(answer, "streaming", False):
        body = b"".join(answer.streaming_content)
    else:
        body = answer.content
    return answer.status_code, body.decode("utf-8", "replace")


def member_known(url: str, e: Evening) -> bool:
    """Members read the register whole, by design (API.md "Who may read"): a name is not play."""
    return url.startswith("/api/v1/players/?q=") or url == f"/api/v1/players/{e.zelda}/"


def leaks(client: Client, e: Evening, member: bool) -> list[str]:
    """Every surface that gives the reader something of the play (it should give nothing)."""
    found = []
    for surface in surfaces(e):
        status, body = read(client, surface.url)
        assert status != 500, surface.url
        if status in (401, 403, 404):
            continue
        if member and member_known(surface.url, e):
            continue  # the register's name, readable by any member
        shown = [s for s in secrets_of(e) if s in body]
        if surface.shows is not None and surface.shows in body and surface.shows not in shown:
            shown.append(surface.shows)
        if status != 200 or shown:
            found.append(f"{surface.url}: {status} {shown}")
    return found


def misses(client: Client, e: Evening, published: bool = False) -> list[str]:
    """Every surface that does not show the play to a reader who may read it."""
    found = []
    for surface in surfaces(e):
        if surface.public and not published:
            continue
        status, body = read(client, surface.url)
        if status != 200 or (surface.shows is not None and surface.shows not in body):
            found.append(f"{surface.url}: {status}")
    return found


def visitor() -> Client:
    return Client()


def logged_in(username: str) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


def publish(e: Evening) -> None:
    with e.capture(execute=True):
        answer = correction(e.director, e.tournament, "tournament.published", {})
    assert answer.status_code == 201, answer.json()
    assert answer.json()["published"] is True


def unpublish(e: Evening) -> None:
    with e.capture(execute=True):
        answer = correction(
            e.director, e.tournament, "tournament.unpublished", {"reason": "a wrong room"}
        )
    assert answer.status_code == 201, answer.json()
    assert answer.json()["published"] is False


# --- the tests ---------------------------------------------------------------------------------


def test_a_visitor_and_a_member_who_plays_elsewhere_get_nothing_of_an_unpublished_tournament(
    evening: Evening,
) -> None:
    assert leaks(visitor(), evening, member=False) == []
    assert leaks(logged_in("oscar"), evening, member=True) == []


def test_its_entrant_and_the_directors_read_all_of_it(evening: Evening) -> None:
    assert misses(logged_in("zelda"), evening) == []
    assert misses(logged_in("director"), evening) == []


def test_published_everyone_reads_it_and_unpublished_again_no_one_else_does_at_once(
    evening: Evening,
) -> None:
    outsiders = [(visitor(), False), (logged_in("oscar"), True)]
    for client, member in outsiders:  # every kept answer and board tag made while hidden
        assert leaks(client, evening, member) == []
    publish(evening)
    for client, _member in outsiders:
        assert misses(client, evening, published=True) == []
    unpublish(evening)
    for client, member in outsiders:
        assert leaks(client, evening, member) == []


def test_an_answer_tagged_while_published_is_not_confirmed_once_unpublished(
    evening: Evening,
) -> None:
    publish(evening)
    tagged: dict[str, tuple[Client, str]] = {}
    urls = [
        f"/api/v1/matches/{evening.match}/",
        f"/api/v1/matches/{evening.match}/history/",
        f"/api/v1/games/{evening.game}/",
        f"/api/v1/tournaments/{evening.tournament}/",
        f"/api/v1/players/{evening.zelda}/history/",
    ]
    for name, client in (("visitor", visitor()), ("oscar", logged_in("oscar"))):
        for url in urls:
            answer = client.get(url)
            assert answer.status_code == 200 and answer.has_header("ETag"), (name, url)
            tagged[f"{name} {url}"] = (client, answer["ETag"])
    unpublish(evening)
    answered = {}
    for key, (client, etag) in tagged.items():
        status, body = read(client, key.split(" ", 1)[1], if_none_match=etag)
        answered[key] = status
        assert not any(s in body for s in secrets_of(evening)), key
    assert 304 not in answered.values(), answered
    assert 200 in answered.values()  # the member's history: answered anew, without the match


def test_the_rule_costs_a_tournaments_match_no_query_more_than_a_club_match(
    evening: Evening,
) -> None:
    publish(evening)
    counts = []
    for match in (evening.public, evening.match):
        for url in (f"/api/v1/matches/{match}/history/", f"/api/v1/matches/{match}/"):
            client = visitor()
            assert client.get(url).status_code == 200  # the history's answer is kept
            with CaptureQueriesContext(connection) as kept:
                assert client.get(url).status_code == 200
            counts.append(len(kept.captured_queries))
    assert counts[:2] == counts[2:]
    assert counts[0] == 1  # the match's row with its games' fingerprint: one statement


def test_the_rating_counts_private_play_but_shows_no_point_of_it(evening: Evening) -> None:
    url = f"/api/v1/players/{evening.zelda}/ratings/"
    for reader in ("director", "zelda"):
        (rated,) = logged_in(reader).get(url).json()
        assert rated["games"] == 1 and len(rated["history"]) == 1, reader
    assert logged_in("oscar").get(url).json() == []
    # the leaderboard lists a player for play anyone may read: not for this match alone
    Rating.objects.filter(player_id=evening.zelda).update(provisional=False)
    board = "/api/v1/ratings/high-low-scarney/"
    assert evening.zelda not in [row["player"] for row in visitor().get(board).json()["results"]]
    publish(evening)
    assert evening.zelda in [row["player"] for row in visitor().get(board).json()["results"]]


def test_the_nightly_report_names_no_private_match_and_is_rendered_again_on_a_switch(
    evening: Evening, settings: Any, tmp_path: Path
) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    today = timezone.localdate()
    printing.store_nightly(today)
    stored = f"/api/v1/reports/nightly/{today.isoformat()}.html"
    status, page = read(visitor(), stored)
    assert status == 200 and WALT in page  # the public match is there
    assert not any(s in page for s in secrets_of(evening))
    publish(evening)  # its commit renders the stored report again
    assert YORICK in read(visitor(), stored)[1]
    unpublish(evening)
    status, page = read(visitor(), stored)
    assert status == 200 and WALT in page
    assert not any(s in page for s in secrets_of(evening))


def test_only_a_director_publishes_and_each_switch_is_recorded_once(evening: Evening) -> None:
    _member, api = client_for("member")
    refused = correction(api, evening.tournament, "tournament.published", {})
    assert refused.status_code == 403, refused.json()
    again = correction(evening.director, evening.tournament, "tournament.unpublished", {})
    assert again.status_code == 422 and again.json()["code"] == "tournament.reason_required"
    hidden = correction(
        evening.director, evening.tournament, "tournament.unpublished", {"reason": "twice"}
    )
    assert hidden.status_code == 422 and hidden.json()["code"] == "tournament.not_published"
    publish(evening)
    twice = correction(evening.director, evening.tournament, "tournament.published", {})
    assert twice.status_code == 422 and twice.json()["code"] == "tournament.already_published"
    odd = correction(evening.director, evening.tournament, "tournament.published", {"x": 1})
    assert odd.status_code == 422 and odd.json()["code"] == "event.unknown_field"


def test_the_admin_switch_publishes_and_unpublishes_through_the_same_events(
    evening: Evening,
) -> None:
    admin = logged_in("director")
    change = f"/admin/games/tournament/{evening.tournament}/change/"
    switch = f"/admin/games/tournament/{evening.tournament}/publication/"
    assert 'publication/">Publish</a>' in admin.get(change).content.decode()
    form = admin.get(switch)
    assert form.status_code == 200 and b"Publish" in form.content
    done = admin.post(switch, {"publish": "True", "event_id": str(uuid.uuid4())})
    assert done.status_code == 302
    assert Tournament.objects.get(pk=evening.tournament).published
    assert visitor().get(f"/api/v1/matches/{evening.match}/").status_code == 200
    assert 'publication/">Unpublish</a>' in admin.get(change).content.decode()
    # unpublishing says why: without a reason nothing is recorded
    bare = admin.post(switch, {"publish": "False", "event_id": str(uuid.uuid4())}, follow=True)
    assert "says why" in bare.content.decode()
    assert Tournament.objects.get(pk=evening.tournament).published
    said = admin.post(
        switch, {"publish": "False", "reason": "a wrong room", "event_id": str(uuid.uuid4())}
    )
    assert said.status_code == 302
    assert not Tournament.objects.get(pk=evening.tournament).published
    assert visitor().get(f"/api/v1/matches/{evening.match}/").status_code == 401
    types = [
        e["type"]
        for e in evening.director.get(f"/api/v1/tournaments/{evening.tournament}/events/").json()[
            "results"
        ]
    ]
    assert types[-2:] == ["tournament.published", "tournament.unpublished"]


def test_a_member_who_is_not_a_director_gets_no_switch(evening: Evening) -> None:
    member = logged_in("oscar")
    answer = member.post(
        f"/admin/games/tournament/{evening.tournament}/publication/",
        {"publish": "True", "event_id": str(uuid.uuid4())},
    )
    assert answer.status_code == 302 and "/admin/login/" in answer["Location"]
    assert not Tournament.objects.get(pk=evening.tournament).published


@pytest.mark.django_db(transaction=True)
def test_the_migration_links_the_play_of_tournaments_made_before_it() -> None:
    # given a tournament's match and a game of it, and a club match, as rows made before the link
    director, api = client_for("director", staff=True)
    made = create(api, format="high-low-scarney", system="swiss", rounds=1, entry="live")
    enter(api, made["id"], [ZELDA, YORICK])
    match = pair(api, made["id"])["tables"][0]["match"]
    game = services.game_start(
        kind="high-low-scarney", seats=None, match_id=uuid.UUID(match), user=director
    )
    club = api.post(
        "/api/v1/matches/",
        {
            "format": "high-low-scarney",
            "entry": "sheet",
            "players": [{"name": OSCAR}, {"name": WALT}],
        },
        format="json",
    ).json()["id"]
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes("games")
    executor.migrate([("games", "0010_club_names")])
    try:
        # when the migration adds the link
        MigrationExecutor(connection).migrate(latest)
    finally:
        MigrationExecutor(connection).migrate(
            MigrationExecutor(connection).loader.graph.leaf_nodes()
        )
    # then the tournament's match and its game point at it, the club match at nothing
    linked = dict(Stream.objects.values_list("pk", "in_tournament_id"))
    assert str(linked[uuid.UUID(match)]) == made["id"]
    assert str(linked[game.pk]) == made["id"]
    assert linked[uuid.UUID(club)] is None
