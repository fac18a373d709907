"""Permission before state: a member who may not write somewhere learns nothing of it by trying.

Every write is checked for who may make it before anything of its target is looked at (its
status, its version, its entry, its games, what its body means there), in the services, so a
refusal never tells an outsider what a match is doing. Every write endpoint of the API (read off
its URL conf: each view's POST, PUT, PATCH and DELETE) and every page that takes a POST has a
case here; a new one without a case fails ``test_every_write_of_the_api_has_a_case`` or
``test_every_page_that_takes_a_post_has_a_case``. The outsider is a member with a token and a
login: no recorder, keeper or director of anything he tries, against targets in awkward states
(a match with a game in progress, a match kept by sheet, a finished game, a stale version, a
round with its results missing).
"""

from __future__ import annotations

import html
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import URLPattern, URLResolver, reverse
from rest_framework.test import APIClient

from games.access.models import ApiToken
from games.api import urls as api_urls
from games.pages import sheet_urls
from games.pages import urls as page_urls
from games.play import register
from games.webhooks import services as webhooks

pytestmark = pytest.mark.django_db

NOT_A_RECORDER = "permission.not_a_recorder"
NOT_YOUR_TABLE = "permission.not_your_table"
NOT_THE_CREATOR = "permission.not_the_creator"
DIRECTOR_ONLY = "permission.director_only"
MEMBER_NUMBER = "permission.member_number"
# What a refusal's sentence begins with, as the pages show it (games.play.permissions).
SENTENCES = {
    NOT_A_RECORDER: "Only this game's or match's recorders may record in it",
    NOT_YOUR_TABLE: "This is a tournament table's match",
}
ONE_JUMP_LEFT = {"position": {"C1": "B4", "C2": "G3"}}
JUMP = {"from": 1, "to": 3}
SHEET_LINE = {"scores": [63]}
WRITES = ("post", "put", "patch", "delete")


def _layout() -> dict[str, str]:
    pawns = [colour + str(spots) for colour in "BRYG" for spots in range(1, 5)]
    return {f"C{i + 1}": pawn for i, pawn in enumerate(pawns)}


# --- the club: targets in awkward states, and an outsider ---------------------------------------


@dataclass
class Club:
    """What the outsider tries to write into: ids by name, and his clients."""

    ids: dict[str, Any] = field(default_factory=dict)
    api: APIClient = field(default_factory=APIClient)
    page: Client = field(default_factory=Client)

    def __getitem__(self, name: str) -> Any:
        return self.ids[name]


def _member(username: str, **flags: Any) -> tuple[Any, APIClient]:
    user = get_user_model().objects.create_user(username=username, password="pw-x-1", **flags)
    _token, key = ApiToken.objects.issue(user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return user, client


def _ok(response: Any, status: int = 201) -> dict[str, Any]:
    assert response.status_code == status, response.content
    return response.json()  # type: ignore[no-any-return]


def _event(client: APIClient, path: str, type: str, data: Any, **more: Any) -> dict[str, Any]:
    body = {"id": str(uuid.uuid4()), "type": type, "data": data, **more}
    return _ok(client.post(path, body, format="json"))


def _game(client: APIClient, **body: Any) -> dict[str, Any]:
    body = {"kind": "scarney-solitaire", "seats": [{"name": "Ann"}], **body}
    return _ok(client.post("/api/v1/games/", body, format="json"))


def _match(client: APIClient, entry: str) -> str:
    body = {"format": "scarney-solitaire", "players": [{"name": "Ann"}], "entry": entry}
    return str(_ok(client.post("/api/v1/matches/", body, format="json"))["id"])


@pytest.fixture
def club() -> Club:
    """Rita records (she created everything but the tournament), Kim keeps her live match, Dora
    directs; Otto is a member with a token and a login, and nothing else."""
    rita, by_rita = _member("rita")
    _member("kim")
    dora, by_dora = _member("dora", is_staff=True)
    otto, otto_api = _member("otto")
    club = Club(api=otto_api)
    club.page.force_login(otto)
    ids = club.ids

    # A game in progress at version 2 (a stale version is 1), and a finished one.
    playing = _game(by_rita)
    laid = _event(
        by_rita, f"/api/v1/games/{playing['id']}/events/", "board.laid_out", {"position": _layout()}
    )
    ids["game"], ids["move"] = playing["id"], laid["game"]["legal_events"][0]
    ids["laid"] = laid["event"]["id"]
    finished = _game(by_rita, setup=ONE_JUMP_LEFT)
    _event(by_rita, f"/api/v1/games/{finished['id']}/events/", "pawn.jumped", JUMP)
    ids["finished_game"] = finished["id"]

    # A live match with its first game in progress, kept by Kim; a sheet match one line in; a
    # sheet match whose games are all in (finished, so anyone reads it).
    ids["live_match"] = _match(by_rita, "live")
    _ok(by_rita.post(f"/api/v1/matches/{ids['live_match']}/keepers/", {"user": "kim"}, "json"), 200)
    ids["match_game"] = _game(by_rita, match=ids["live_match"])["id"]
    ids["sheet_match"] = _match(by_rita, "sheet")
    _event(by_rita, f"/api/v1/matches/{ids['sheet_match']}/events/", "game.scored", SHEET_LINE)
    ids["full_sheet"] = _match(by_rita, "sheet")
    for _line in range(5):
        _event(by_rita, f"/api/v1/matches/{ids['full_sheet']}/events/", "game.scored", SHEET_LINE)

    # Dora's tournament: round 1 paired, its table playing live (its result missing), its code
    # live.
    spec = {
        "name": "Tuesday",
        "format": "high-low-scarney",
        "system": "swiss",
        "rounds": 2,
        "entry": "live",
    }
    ids["tournament"] = _ok(by_dora.post("/api/v1/tournaments/", spec, format="json"))["id"]
    for name in ("Pat", "Jon"):
        _ok(
            by_dora.post(
                f"/api/v1/tournaments/{ids['tournament']}/entries/", {"name": name}, format="json"
            )
        )
    paired = _ok(
        by_dora.post(f"/api/v1/tournaments/{ids['tournament']}/rounds/", {}, format="json")
    )
    ids["table_match"] = paired["tables"][0]["match"]

    # Dora's season, holding her tournament, and closed.
    winter = _ok(by_dora.post("/api/v1/seasons/", {"name": "Winter"}, format="json"))["id"]
    joined = {"tournament": ids["tournament"]}
    _ok(by_dora.post(f"/api/v1/seasons/{winter}/tournaments/", joined, format="json"))
    _ok(by_dora.post(f"/api/v1/seasons/{winter}/close/", {}, format="json"), 200)
    ids["season"], ids["stray"] = winter, uuid.uuid4()

    # The register (a member's number), a webhook, Rita's token.
    mel = register.player_register(name="Mel", member_number="M-7", user=dora)
    ids["member"], ids["member_number"] = mel.pk, "M-7"
    hook = webhooks.webhook_create(
        spec={"url": "https://club.example.org/hook", "events": ["match.settled"]}, user=dora
    )
    ids["webhook"] = hook.pk
    ids["token"] = ApiToken.objects.filter(user=rita).values_list("pk", flat=True).first()
    return club


# --- the API's writes --------------------------------------------------------------------------


Body = Callable[[Club], Any]


@dataclass(frozen=True)
class Case:
    """One write an outsider tries: the route as the URL conf names it, the path, the body, and
    what he must get (the permission's 403, or what any member gets for what is his own)."""

    method: str
    route: str
    path: str
    body: Body | None
    status: int
    code: str | None
    awkward: str  # the state a refusal would betray if it were looked at first

    def url(self, club: Club) -> str:
        return "/api/v1/" + self.path.format(**club.ids)


def _move(club: Club, **more: Any) -> dict[str, Any]:
    return {"id": str(uuid.uuid4()), **club["move"], **more}


def _event_body(type: str, data: Any, **more: Any) -> Body:
    return lambda club: {"id": str(uuid.uuid4()), "type": type, "data": data, **more}


API_CASES = [
    # Starting a game in a match: the issue's case (match.game_in_progress, match.sheet_entry).
    Case(
        "POST",
        "games/",
        "games/",
        lambda c: {"kind": "scarney-solitaire", "match": c["live_match"]},
        403,
        NOT_A_RECORDER,
        "its game in progress",
    ),
    Case(
        "POST",
        "games/",
        "games/",
        lambda c: {"kind": "scarney-solitaire", "match": c["sheet_match"]},
        403,
        NOT_A_RECORDER,
        "kept by sheet entry",
    ),
    Case(
        "POST",
        "games/",
        "games/",
        lambda c: {"kind": "scarney-solitaire", "match": c["full_sheet"]},
        403,
        NOT_A_RECORDER,
        "all its games in",
    ),
    Case(
        "POST",
        "games/",
        "games/",
        lambda c: {"kind": "scarney-doubles", "match": c["live_match"]},
        403,
        NOT_A_RECORDER,
        "another format",
    ),
    Case(
        "POST",
        "games/",
        "games/",
        lambda c: {"kind": "high-low-scarney", "match": c["table_match"]},
        403,
        NOT_YOUR_TABLE,
        "a tournament table",
    ),
    Case(
        "POST",
        "games/",
        "games/",
        lambda c: {"kind": "scarney-solitaire", "seats": [{"member_number": c["member_number"]}]},
        403,
        MEMBER_NUMBER,
        "a member's number",
    ),
    # Recording a move: the fast path's statement and the locked path alike.
    Case(
        "POST",
        "games/<uuid:pk>/events/",
        "games/{game}/events/",
        lambda c: _move(c, expected_version=1),
        403,
        NOT_A_RECORDER,
        "a stale version",
    ),
    Case(
        "POST",
        "games/<uuid:pk>/events/",
        "games/{game}/events/",
        lambda c: _move(c, expected_version=2),
        403,
        NOT_A_RECORDER,
        "a legal move",
    ),
    Case(
        "POST",
        "games/<uuid:pk>/events/",
        "games/{match_game}/events/",
        lambda c: _move(c, expected_version=0),
        403,
        NOT_A_RECORDER,
        "a match's game",
    ),
    Case(
        "POST",
        "games/<uuid:pk>/events/",
        "games/{game}/events/",
        lambda c: {"id": c["laid"], "type": "board.laid_out", "data": {"position": _layout()}},
        403,
        NOT_A_RECORDER,
        "a retry of an event recorded there",
    ),
    Case(
        "POST",
        "games/<uuid:pk>/events/",
        "games/{game}/events/",
        lambda c: {**_move(c), "id": c["laid"]},
        403,
        NOT_A_RECORDER,
        "an event id taken",
    ),
    Case(
        "POST",
        "games/<uuid:pk>/events/",
        "games/{finished_game}/events/",
        _event_body("pawn.jumped", JUMP),
        403,
        NOT_A_RECORDER,
        "a finished game",
    ),
    Case(
        "POST",
        "games/<uuid:pk>/events/",
        "games/{finished_game}/events/",
        _event_body("move.undone", {"reason": "oops"}),
        403,
        NOT_A_RECORDER,
        "reopening a finished game",
    ),
    Case(
        "POST",
        "games/<uuid:pk>/events/",
        "games/{game}/events/",
        _event_body("pawn.jumped", {"nonsense": 1}),
        403,
        NOT_A_RECORDER,
        "a bad move",
    ),
    Case(
        "POST",
        "games/<uuid:pk>/events/",
        "games/{live_match}/events/",
        _event_body("pawn.jumped", JUMP),
        404,
        "not_found",
        "a match is no game",
    ),
    Case(
        "POST",
        "games/<uuid:pk>/keepers/",
        "games/{game}/keepers/",
        lambda c: {"user": "nobody"},
        403,
        NOT_THE_CREATOR,
        "an unknown user",
    ),
    Case(
        "DELETE",
        "games/<uuid:pk>/keepers/<str:username>/",
        "games/{game}/keepers/nobody/",
        None,
        403,
        NOT_THE_CREATOR,
        "no such keeper",
    ),
    Case(
        "POST",
        "matches/",
        "matches/",
        lambda c: {
            "format": "scarney-solitaire",
            "players": [{"member_number": c["member_number"]}],
        },
        403,
        MEMBER_NUMBER,
        "a member's number",
    ),
    Case(
        "POST",
        "matches/<uuid:pk>/events/",
        "matches/{sheet_match}/events/",
        _event_body("game.scored", SHEET_LINE, expected_version=0),
        403,
        NOT_A_RECORDER,
        "a stale version",
    ),
    Case(
        "POST",
        "matches/<uuid:pk>/events/",
        "matches/{full_sheet}/events/",
        _event_body("game.scored", SHEET_LINE),
        403,
        NOT_A_RECORDER,
        "all its games in",
    ),
    Case(
        "POST",
        "matches/<uuid:pk>/events/",
        "matches/{live_match}/events/",
        _event_body("game.scored", SHEET_LINE),
        403,
        NOT_A_RECORDER,
        "kept live",
    ),
    Case(
        "POST",
        "matches/<uuid:pk>/events/",
        "matches/{live_match}/events/",
        _event_body("result.confirmed", {"seat": 0}),
        403,
        NOT_A_RECORDER,
        "no table",
    ),
    Case(
        "POST",
        "matches/<uuid:pk>/events/",
        "matches/{table_match}/events/",
        _event_body("result.confirmed", {"director": True}),
        403,
        NOT_YOUR_TABLE,
        "its result not in",
    ),
    Case(
        "POST",
        "matches/<uuid:pk>/events/",
        "matches/{game}/events/",
        _event_body("game.scored", SHEET_LINE),
        404,
        "not_found",
        "a game is no match",
    ),
    Case(
        "POST",
        "matches/<uuid:pk>/keepers/",
        "matches/{live_match}/keepers/",
        lambda c: {"user": "nobody"},
        403,
        NOT_THE_CREATOR,
        "an unknown user",
    ),
    Case(
        "DELETE",
        "matches/<uuid:pk>/keepers/<str:username>/",
        "matches/{live_match}/keepers/kim/",
        None,
        403,
        NOT_THE_CREATOR,
        "its keeper",
    ),
    # The register and tournaments: directors only, whatever their state.
    Case(
        "POST",
        "players/",
        "players/",
        lambda c: {"name": "Mel", "member_number": c["member_number"]},
        403,
        DIRECTOR_ONLY,
        "a number taken",
    ),
    Case(
        "POST",
        "players/<int:pk>/merge/",
        "players/{member}/merge/",
        lambda c: {"into": c["member"], "reason": "same"},
        403,
        DIRECTOR_ONLY,
        "into itself",
    ),
    Case(
        "POST",
        "tournaments/",
        "tournaments/",
        lambda c: {"name": "Mine", "format": "high-low-scarney", "rounds": 1},
        403,
        DIRECTOR_ONLY,
        "none",
    ),
    Case(
        "POST",
        "tournaments/<uuid:pk>/entries/",
        "tournaments/{tournament}/entries/",
        lambda c: {"name": "Pat"},
        403,
        DIRECTOR_ONLY,
        "late, without a reason",
    ),
    Case(
        "POST",
        "tournaments/<uuid:pk>/rounds/",
        "tournaments/{tournament}/rounds/",
        lambda c: {},
        403,
        DIRECTOR_ONLY,
        "its results missing",
    ),
    Case(
        "POST",
        "tournaments/<uuid:pk>/rounds/<int:number>/tables/<int:table>/code/",
        "tournaments/{tournament}/rounds/1/tables/1/code/",
        None,
        403,
        DIRECTOR_ONLY,
        "a live code",
    ),
    Case(
        "DELETE",
        "tournaments/<uuid:pk>/rounds/<int:number>/tables/<int:table>/code/",
        "tournaments/{tournament}/rounds/1/tables/1/code/",
        None,
        403,
        DIRECTOR_ONLY,
        "a live code",
    ),
    Case(
        "POST",
        "tournaments/<uuid:pk>/keepers/",
        "tournaments/{tournament}/keepers/",
        lambda c: {"round": 1, "table": 1, "user": "nobody"},
        403,
        DIRECTOR_ONLY,
        "an unknown user",
    ),
    Case(
        "POST",
        "tournaments/<uuid:pk>/events/",
        "tournaments/{tournament}/events/",
        _event_body("round.closed", {"round": 1}, expected_version=1),
        403,
        DIRECTOR_ONLY,
        "a stale version, its results missing",
    ),
    # Seasons: directors only, whatever their state.
    Case(
        "POST",
        "seasons/",
        "seasons/",
        lambda c: {"name": "Mine", "points": "nonsense"},
        403,
        DIRECTOR_ONLY,
        "bad points",
    ),
    Case(
        "POST",
        "seasons/<uuid:pk>/tournaments/",
        "seasons/{season}/tournaments/",
        lambda c: {"tournament": c["tournament"]},
        403,
        DIRECTOR_ONLY,
        "closed, the evening in it already",
    ),
    Case(
        "DELETE",
        "seasons/<uuid:pk>/tournaments/<uuid:tournament>/",
        "seasons/{season}/tournaments/{stray}/",
        None,
        403,
        DIRECTOR_ONLY,
        "closed, no such evening in it",
    ),
    Case(
        "POST",
        "seasons/<uuid:pk>/close/",
        "seasons/{season}/close/",
        lambda c: {},
        403,
        DIRECTOR_ONLY,
        "closed already",
    ),
    # Webhooks: directors only.
    Case(
        "POST",
        "webhooks/",
        "webhooks/",
        lambda c: {"url": "https://x.example.org/", "events": ["match.settled"]},
        403,
        DIRECTOR_ONLY,
        "none",
    ),
    Case(
        "DELETE",
        "webhooks/<str:pk>/",
        "webhooks/{webhook}/",
        None,
        403,
        DIRECTOR_ONLY,
        "an active webhook",
    ),
    # Tokens are a member's own: he makes his, and another's is not there for him.
    Case(
        "POST",
        "tokens/",
        "tokens/",
        lambda c: {"name": "mine", "scope": "read"},
        201,
        None,
        "his own",
    ),
    Case(
        "DELETE",
        "tokens/<str:pk>/",
        "tokens/{token}/",
        None,
        404,
        "not_found",
        "another member's token",
    ),
]


def _case_id(case: Case) -> str:
    return f"{case.method} {case.route} ({case.awkward})"


def _api_writes() -> set[tuple[str, str]]:
    """Every (method, route) of the API's URL conf whose view takes a write."""
    found = set()
    for pattern in _patterns(api_urls.urlpatterns):
        view = getattr(pattern.callback, "view_class", None)
        for method in WRITES:
            if view is not None and hasattr(view, method):
                found.add((method.upper(), str(pattern.pattern)))
    return found


def _patterns(patterns: list[Any]) -> list[URLPattern]:
    flat: list[URLPattern] = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            flat.extend(_patterns(pattern.url_patterns))
        else:
            flat.append(pattern)
    return flat


def test_every_write_of_the_api_has_a_case() -> None:
    writes = _api_writes()
    assert len(writes) >= 21  # what the URL conf held when this was written: none got lost
    covered = {(case.method, case.route) for case in API_CASES}
    assert writes - covered == set(), "a write endpoint with no outsider's case"
    assert covered - writes == set(), "a case for a route the URL conf does not have"


@pytest.mark.parametrize("case", API_CASES, ids=_case_id)
def test_an_outsider_is_refused_before_the_target_is_looked_at(club: Club, case: Case) -> None:
    body = None if case.body is None else case.body(club)
    answer = getattr(club.api, case.method.lower())(case.url(club), body, format="json")
    assert answer.status_code == case.status, answer.content
    if case.code is not None:
        assert answer.json()["code"] == case.code


# --- the pages' writes -------------------------------------------------------------------------


@dataclass(frozen=True)
class PageCase:
    """A page's write: the route's name, the path, the form, and what the outsider gets: a
    status, and the permission's sentence in the page or in the message it redirects with."""

    name: str
    path: str
    form: Body
    status: int
    sentence: str | None
    awkward: str


PAGE_CASES = [
    PageCase(
        "pages:game-move",
        "/games/{finished_game}/moves/",
        lambda c: {
            "id": str(uuid.uuid4()),
            "type": "pawn.jumped",
            "payload": '{"from": 1, "to": 3}',
        },
        403,
        SENTENCES[NOT_A_RECORDER],
        "a finished game",
    ),
    PageCase(
        "pages:game-move",
        "/games/{game}/moves/",
        lambda c: {
            "id": str(uuid.uuid4()),
            "type": c["move"]["type"],
            "payload": '{"from": 1, "to": 3}',
            "expected_version": "1",
        },
        403,
        None,
        "in progress: not his to read either",
    ),
    PageCase(
        "scoring-pages:match-line",
        "/matches/{full_sheet}/lines/",
        lambda c: {"id": str(uuid.uuid4()), "expected_version": "0", "score_0": "63"},
        403,
        SENTENCES[NOT_A_RECORDER],
        "all its games in, a stale version",
    ),
    PageCase(
        "scoring-pages:match-next-game",
        "/matches/{live_match}/next-game/",
        lambda c: {},
        302,
        SENTENCES[NOT_A_RECORDER],
        "its game in progress",
    ),
    PageCase(
        "scoring-pages:match-next-game",
        "/matches/{sheet_match}/next-game/",
        lambda c: {},
        302,
        SENTENCES[NOT_A_RECORDER],
        "kept by sheet entry",
    ),
    PageCase(
        "scoring-pages:match-confirm",
        "/matches/{table_match}/confirm/",
        lambda c: {"seat": "0", "id": str(uuid.uuid4())},
        302,
        SENTENCES[NOT_YOUR_TABLE],
        "its result not in",
    ),
    PageCase(
        "scoring-pages:match-confirm",
        "/matches/{live_match}/confirm/",
        lambda c: {"id": str(uuid.uuid4())},
        302,
        SENTENCES[NOT_A_RECORDER],
        "no table",
    ),
    # A member starts games of his own: no target.
    PageCase(
        "pages:game-new",
        "/games/new/",
        lambda c: {"kind": "scarney-solitaire", "seats": "Ann"},
        302,
        None,
        "his own",
    ),
]

# Pages that take a POST but write into nobody's game, match or tournament: logging in and out,
# and a table code's link, which logs its browser in as the code's keeper (the code is the right).
NOT_WRITES = {"pages:login", "pages:logout", "pages:keeper-link"}


def _page_routes() -> dict[str, URLPattern]:
    routes = {}
    for module in (page_urls, sheet_urls):
        for pattern in module.urlpatterns:
            assert isinstance(pattern, URLPattern) and pattern.name
            routes[f"{module.app_name}:{pattern.name}"] = pattern
    return routes


def _any_args(pattern: URLPattern) -> dict[str, Any]:
    """Arguments of the right types for the route: a POST-only view answers 405 whatever they
    are, and anything else means the view takes the POST."""
    made = {"uuid": uuid.uuid4(), "int": 1}
    converters = getattr(pattern.pattern, "converters", {})
    return {
        name: made.get(type(converter).__name__.removesuffix("Converter").lower(), "x")
        for name, converter in converters.items()
    }


def test_every_page_that_takes_a_post_has_a_case(club: Club) -> None:
    taking = set()
    for name, pattern in _page_routes().items():
        if name in NOT_WRITES:
            continue
        if club.page.post(reverse(name, kwargs=_any_args(pattern))).status_code != 405:
            taking.add(name)
    covered = {case.name for case in PAGE_CASES}
    assert len(taking) >= 4  # what the pages held when this was written
    assert taking - covered == set(), "a page that takes a POST with no outsider's case"
    assert covered - taking == set(), "a case for a page that takes no POST"


@pytest.mark.parametrize("case", PAGE_CASES, ids=lambda case: f"{case.name} ({case.awkward})")
def test_an_outsider_on_the_pages_is_refused_before_the_target_is_looked_at(
    club: Club, case: PageCase
) -> None:
    answer = club.page.post(case.path.format(**club.ids), case.form(club))
    assert answer.status_code == case.status, answer.content[:2000]
    if case.sentence is None:
        return
    said = [str(m.message) for m in get_messages(answer.wsgi_request)]
    said.append(html.unescape(answer.content.decode()))
    assert any(case.sentence in text for text in said), said[:-1]
