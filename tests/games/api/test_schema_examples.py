"""The OpenAPI schema's examples (games/api/schema/examples.json) are real answers that fit it.

They are recorded by :func:`club_evening`, which drives the API as a club night does: a Solitaire
game with a layout and a take-off, a refused jump, a sheet match, a paired Swiss round, and the
common refusals. ``RECORD_SCHEMA_EXAMPLES=1`` writes what it gets to examples.json; without it,
the same run checks that the API still answers in the recorded shape (the same keys, all the
way down). Every example the schema carries is validated against the schema it sits
under, with OpenAPI 3.0's ``nullable`` read as JSON Schema's ``null``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import threading
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import override_settings
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from games.api.schema import examples
from games.api.schema import openapi as house_schema
from scarney_site.celery import app
from scoring import tasks
from tests.games.tournaments.helpers import client_for, high_low_win

pytestmark = pytest.mark.django_db

PAWNS = [colour + str(spots) for colour in "BRYG" for spots in range(1, 5)]
LAYOUT = {f"C{i + 1}": pawn for i, pawn in enumerate(PAWNS)}
SHEET = [[32, 19, 6], [24, 77, 34], [13, 29, 27], [38, 53, 110], [21, 30, 36]]


class Recorder:
    """Each example by name: a summary, the component it shows, the operation it was sent to or
    answered by, and the real body."""

    def __init__(self) -> None:
        self.found: dict[str, dict[str, Any]] = {}

    def answer(self, name: str, summary: str, component: str, response: Any, status: int) -> Any:
        assert response.status_code == status, response.content
        return self._keep(name, summary, component, response, response.json(), status=str(status))

    def request(
        self, name: str, summary: str, component: str, body: dict[str, Any], response: Any
    ) -> Any:
        assert response.status_code == 201, response.content
        self._keep(name, summary, component, response, body)
        return response.json()

    def error(self, name: str, summary: str, response: Any) -> None:
        status = str(response.status_code)
        assert status in examples.ERROR_STATUSES, response.content
        self._keep(name, summary, "Error", response, response.json(), status=status)

    def _keep(
        self, name: str, summary: str, component: str, response: Any, value: Any, **more: str
    ) -> Any:
        request = response.wsgi_request
        where = f"{request.method.lower()} {operation_path(request.resolver_match.route)}"
        self.found[name] = {
            "summary": summary,
            "component": component,
            "operation": where,
            **more,
            "value": value,
        }
        return value


def operation_path(route: str) -> str:
    """The schema's path of a URL route: ``api/v1/games/<uuid:pk>/`` -> ``/api/v1/games/{id}/``."""
    path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route)
    return "/" + path.replace("{pk}", "{id}")


def move(type: str, data: dict[str, Any], version: int | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"id": str(uuid.uuid4()), "type": type, "data": data}
    if version is not None:
        body["expected_version"] = version
    return body


def club_evening(capture: Any) -> dict[str, dict[str, Any]]:
    """Every example, from the answers of one evening's requests."""
    found = Recorder()
    _keeper, api = client_for("keeper")
    game = solitaire(found, api)
    refusals(found, api, game)
    players = sheet_match(found, api, capture)
    player_pages(found, api, players[0])
    director = tournament(found, capture)
    webhooks(found, director, api, capture)
    nightly(found)
    return found.found


def solitaire(found: Recorder, api: APIClient) -> str:
    start = {"kind": "scarney-solitaire", "seats": [{"name": "Ann"}]}
    started = api.post("/api/v1/games/", start, format="json")
    found.request(
        "start_solitaire", "Start a Scarney Solitaire game", "GameCreateRequest", start, started
    )
    game = found.answer(
        "solitaire_started",
        "A Solitaire game just started: its layout comes next",
        "GameAnswer",
        started,
        201,
    )
    url = f"/api/v1/games/{game['id']}/"
    laid = api.post(f"{url}events/", move("board.laid_out", {"position": LAYOUT}, 1), format="json")
    assert laid.status_code == 201, laid.content
    take_off = move("pawn.taken_off", {"circle": "C1"}, 2)
    taken = api.post(f"{url}events/", take_off, format="json")
    found.request(
        "take_off", "A move: take the pawn on C1 off", "EventCreateRequest", take_off, taken
    )
    found.answer(
        "take_off_recorded",
        "The move recorded: the event and the game after it",
        "RecordedAnswer",
        taken,
        201,
    )
    found.answer(
        "solitaire_in_progress",
        "A Solitaire game in progress, after its take-off",
        "GameAnswer",
        api.get(url),
        200,
    )
    found.answer(
        "solitaire_events", "The game's events", "EventPage", api.get(f"{url}events/"), 200
    )
    found.answer(
        "take_off_again",
        "The same move sent again (a retry): the original answer",
        "RecordedAnswer",
        api.post(f"{url}events/", take_off, format="json"),
        200,
    )
    found.answer(
        "solitaire_games",
        "The Solitaire games you may see",
        "GamePage",
        api.get("/api/v1/games/", {"kind": "scarney-solitaire"}),
        200,
    )
    return str(game["id"])


def refusals(found: Recorder, api: APIClient, game: str) -> None:
    """The common 4xx answers, each as the exception handler gives it."""
    events = f"/api/v1/games/{game}/events/"
    jump = move("pawn.jumped", {"from": "C3", "to": "C11"})
    found.error(
        "landing_occupied",
        "A jump onto an occupied circle (a rule refusal)",
        api.post(events, jump, format="json"),
    )
    found.error(
        "pot_none", "The pot of a game played without one", api.get(f"/api/v1/games/{game}/pot/")
    )
    stale = move("pawn.jumped", {"from": "C9", "to": "C1"}, 2)
    found.error(
        "version_conflict",
        "A move sent with a stale expected_version",
        api.post(events, stale, format="json"),
    )
    _visitor, visitor = client_for("visitor")
    found.error(
        "not_a_recorder",
        "A move by a member who does not record this game",
        visitor.post(events, move("pawn.jumped", {"from": "C9", "to": "C1"}), format="json"),
    )
    found.error(
        "not_authenticated",
        "A move without a token",
        APIClient().post(events, move("pawn.jumped", {"from": "C9", "to": "C1"}), format="json"),
    )
    invalid = {"kind": "scarney-solitaire", "seats": "Ann"}
    found.error(
        "request_invalid",
        "A body that does not match its schema",
        api.post("/api/v1/games/", invalid, format="json"),
    )
    found.error(
        "unknown_parameter",
        "A query parameter the endpoint does not take",
        api.get("/api/v1/games/", {"staus": "finished"}),
    )
    found.error("not_found", "No such game", api.get(f"/api/v1/games/{uuid.uuid4()}/"))
    found.error("throttled", "Over the rate", throttled(api))


def throttled(api: APIClient) -> Any:
    """The second request in a minute at a rate of one a minute."""
    rates = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"token": "1/m", "address": "1/m"},
    }
    cache.clear()
    with override_settings(REST_FRAMEWORK=rates):
        api.get("/api/v1/games/")
        answer = api.get("/api/v1/games/")
    cache.clear()
    return answer


def sheet_match(found: Recorder, api: APIClient, capture: Any) -> list[int]:
    start = {
        "format": "scarney-singles",
        "players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cid"}],
        "entry": "sheet",
        # RULES.md Appendix B.1's sheet: its game 4 has a score no game reaches, which lenient
        # entry takes with a warning
        "ruleset": {"sheet_entry_validation": "lenient"},
    }
    started = api.post("/api/v1/matches/", start, format="json")
    found.request(
        "start_sheet_match",
        "Start a match entered from a score sheet",
        "MatchCreateRequest",
        start,
        started,
    )
    match = found.answer("match_started", "A sheet match just started", "MatchAnswer", started, 201)
    url = f"/api/v1/matches/{match['id']}/"
    line = move("game.scored", {"scores": SHEET[0]})
    with capture(execute=True):
        scored = api.post(f"{url}events/", line, format="json")
        found.request(
            "sheet_line", "One game's line of a score sheet", "EventCreateRequest", line, scored
        )
        found.answer(
            "sheet_line_recorded",
            "The line recorded: the event and the match after it",
            "RecordedAnswer",
            scored,
            201,
        )
        for scores in SHEET[1:]:
            response = api.post(
                f"{url}events/", move("game.scored", {"scores": scores}), format="json"
            )
            assert response.status_code == 201, response.content
    found.answer(
        "match_settled", "A settled Scarney Singles match", "MatchAnswer", api.get(url), 200
    )
    found.answer(
        "match_history",
        "The match's games, scores and cumulative scores",
        "MatchHistoryAnswer",
        api.get(f"{url}history/"),
        200,
    )
    found.answer(
        "match_events",
        "The match's events: its start and its sheet's lines",
        "EventPage",
        api.get(f"{url}events/"),
        200,
    )
    found.answer(
        "singles_matches",
        "The Scarney Singles matches",
        "MatchPage",
        api.get("/api/v1/matches/", {"format": "scarney-singles"}),
        200,
    )
    found.answer(
        "sheet_rendering",
        "The PDF score sheet asked for before a worker has rendered it",
        "RenderingAnswer",
        queued(lambda: api.get(f"{url}score-sheet.pdf", HTTP_ACCEPT="application/pdf")),
        202,
    )
    return [seat["player"] for seat in match["players"]]


def queued(request: Any) -> Any:
    """The answer of ``request`` while tasks wait for a worker (none runs here)."""
    saved = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        return request()
    finally:
        app.conf.task_always_eager = saved


def player_pages(found: Recorder, api: APIClient, player: int) -> None:
    url = f"/api/v1/players/{player}/"
    found.answer("player", "A registered player", "PlayerAnswer", api.get(url), 200)
    found.answer(
        "player_history",
        "Her match and her game in progress, newest first",
        "PlayerHistoryAnswer",
        api.get(f"{url}history/"),
        200,
    )
    found.answer(
        "player_stats", "Her statistics", "PlayerStatsAnswer", api.get(f"{url}stats/"), 200
    )
    found.answer(
        "player_plays",
        "Her plays, for play-logging apps",
        "PlaysAnswer",
        api.get(f"{url}plays.json"),
        200,
    )
    found.answer(
        "players_found",
        "The register searched by name",
        "PlayerList",
        api.get("/api/v1/players/", {"q": "Cid"}),
        200,
    )


def tournament(found: Recorder, capture: Any) -> APIClient:
    """A director's evening: the register, a Swiss tournament, its first round played; the
    director's client."""
    _director, api = client_for("director", staff=True)
    member = {"name": "Hal", "member_number": "M-0017"}
    registered = api.post("/api/v1/players/", member, format="json")
    found.request(
        "register_player", "A member joins the register", "PlayerCreateRequest", member, registered
    )
    found.answer("player_registered", "The member registered", "PlayerAnswer", registered, 201)
    create = {
        "name": "Tuesday club evening",
        "format": "high-low-scarney",
        "system": "swiss",
        "entry": "sheet",
        "rounds": 3,
    }
    made = api.post("/api/v1/tournaments/", create, format="json")
    found.request(
        "create_tournament",
        "A Swiss evening of three rounds",
        "TournamentCreateRequest",
        create,
        made,
    )
    found.answer(
        "tournament_created", "The tournament, open for entries", "TournamentAnswer", made, 201
    )
    url = f"/api/v1/tournaments/{made.json()['id']}/"
    for name in ["Dee", "Eve", "Fay"]:
        entered = api.post(f"{url}entries/", {"name": name}, format="json")
        assert entered.status_code == 201, entered.content
    entry = {"name": "Gus"}
    entered = api.post(f"{url}entries/", entry, format="json")
    found.request("enter_player", "Enter a player by name", "EntryCreateRequest", entry, entered)
    found.answer(
        "player_entered", "The tournament with its fourth entry", "TournamentAnswer", entered, 201
    )
    pairing = {"seed": 7}
    paired = api.post(f"{url}rounds/", pairing, format="json")
    found.request(
        "pair_round", "Pair the next round (seeded)", "RoundCreateRequest", pairing, paired
    )
    found.answer("round_paired", "Round 1, paired", "RoundAnswer", paired, 201)
    for table in paired.json()["tables"]:
        high_low_win(api, table["match"], 0, capture)
    found.answer(
        "tournament", "A Swiss tournament in its first round", "TournamentAnswer", api.get(url), 200
    )
    found.answer(
        "standings",
        "The standings after round 1",
        "StandingsAnswer",
        api.get(f"{url}standings/"),
        200,
    )
    found.answer("round_played", "Round 1, played", "RoundAnswer", api.get(f"{url}rounds/1/"), 200)
    found.answer(
        "tournament_settlement",
        "Who pays whom after round 1",
        "SettlementAnswer",
        api.get(f"{url}settlement/"),
        200,
    )
    hide = {
        "id": str(uuid.uuid4()),
        "type": "tournament.unpublished",
        "data": {"reason": "A members' evening: not for the club's website"},
    }
    hidden = api.post(f"{url}events/", hide, format="json")
    found.request(
        "unpublish_tournament",
        "Take the tournament from the public",
        "EventCreateRequest",
        hide,
        hidden,
    )
    show = {"id": str(uuid.uuid4()), "type": "tournament.published", "data": {}}
    shown = api.post(f"{url}events/", show, format="json")
    found.request(
        "publish_tournament", "Make the tournament public again", "EventCreateRequest", show, shown
    )
    found.answer(
        "tournament_published", "The tournament, public again", "TournamentAnswer", shown, 201
    )
    found.answer(
        "tournament_events",
        "The tournament's stream",
        "TournamentEvents",
        api.get(f"{url}events/"),
        200,
    )
    found.answer(
        "tournaments",
        "The tournaments you may see",
        "TournamentList",
        api.get("/api/v1/tournaments/"),
        200,
    )
    return api


@contextlib.contextmanager
def receiver() -> Iterator[str]:
    """A webhook receiver on 127.0.0.1 that takes every delivery (204); its URL."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802  (http.server's name)
            self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/hooks/scarney"
    finally:
        server.shutdown()
        server.server_close()


def webhooks(found: Recorder, director: APIClient, keeper: APIClient, capture: Any) -> None:
    """A webhook for settlements, one match settled and delivered, then deactivated."""
    with receiver() as url:
        made = director.post(
            "/api/v1/webhooks/", {"url": url, "events": ["match.settled"]}, format="json"
        )
        hook = found.answer(
            "webhook_registered",
            "A webhook registered: its secret is shown this once",
            "WebhookCreated",
            made,
            201,
        )
        start = {"format": "high-low-scarney", "players": [{"name": "Ivy"}, {"name": "Jo"}]}
        match = director.post("/api/v1/matches/", {**start, "entry": "sheet"}, format="json")
        assert match.status_code == 201, match.content
        high_low_win(director, match.json()["id"], 0, capture)
    base = f"/api/v1/webhooks/{hook['id']}/"
    found.answer("webhooks", "Every webhook", "WebhookPage", director.get("/api/v1/webhooks/"), 200)
    found.answer("webhook", "One webhook", "WebhookAnswer", director.get(base), 200)
    found.answer(
        "webhook_deliveries",
        "The webhook's deliveries: a settlement, delivered",
        "DeliveryPage",
        director.get(f"{base}deliveries/"),
        200,
    )
    found.answer(
        "webhook_deactivated",
        "The webhook deactivated",
        "WebhookAnswer",
        director.delete(base),
        200,
    )
    found.error(
        "webhook_bad_url",
        "A webhook whose url is not an absolute http(s) URL",
        director.post("/api/v1/webhooks/", {"url": "ftp://club.example.org/"}, format="json"),
    )
    found.error(
        "webhooks_login_required", "Webhooks without a login", APIClient().get("/api/v1/webhooks/")
    )
    found.error(
        "webhooks_director_only", "Webhooks read by a member", keeper.get("/api/v1/webhooks/")
    )


def nightly(found: Recorder) -> None:
    """Beat's nightly report of today, listed."""
    tasks.nightly_report(timezone.localdate().isoformat())
    found.answer(
        "nightly_reports",
        "The club's nightly reports",
        "NightlyPage",
        APIClient().get("/api/v1/reports/nightly/"),
        200,
    )


def shape(value: Any) -> Any:
    """The keys of every object, all the way down (lists item by item)."""
    if isinstance(value, dict):
        return {key: shape(item) for key, item in sorted(value.items())}
    if isinstance(value, list):
        return [shape(item) for item in value]
    return None


def test_the_api_still_answers_in_the_recorded_shapes(
    django_capture_on_commit_callbacks: Any, settings: Any, tmp_path: Path
) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"  # the documents the evening stores
    fresh = club_evening(django_capture_on_commit_callbacks)
    if os.environ.get("RECORD_SCHEMA_EXAMPLES"):
        examples.PATH.write_text(json.dumps(fresh, indent=1, sort_keys=True) + "\n", "utf-8")
        pytest.skip(f"recorded {len(fresh)} examples to {examples.PATH}")
    assert set(fresh) == set(examples.RECORDED)
    for name, entry in fresh.items():
        recorded = examples.RECORDED[name]
        assert {k: v for k, v in entry.items() if k != "value"} == {
            k: v for k, v in recorded.items() if k != "value"
        }, name
        assert shape(entry["value"]) == shape(recorded["value"]), name


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    generated: dict[str, Any] = SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-untyped-call]
    return generated


def shown(schema: dict[str, Any]) -> Iterator[tuple[str, str | None, dict[str, Any], str]]:
    """Every example the schema carries: its operation, status (None: the request body), the
    schema of its media type, and its name in ``components/examples``."""
    prefix = "#/components/examples/"
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            bodies = [(None, operation.get("requestBody", {}))]
            bodies += list(operation["responses"].items())
            for status, body in bodies:
                for media in body.get("content", {}).values():
                    for name, example in media.get("examples", {}).items():
                        ref = example.get("$ref", prefix + name)
                        assert ref.startswith(prefix), ref
                        yield f"{method} {path}", status, media["schema"], ref[len(prefix) :]


def test_every_example_in_the_schema_fits_the_schema_it_illustrates(
    schema: dict[str, Any],
) -> None:
    components = {"components": {"schemas": json_schema(schema["components"]["schemas"])}}
    named = schema["components"]["examples"]
    checked = 0
    for operation, status, media_schema, name in shown(schema):
        example = named.get(name) or find_inline(schema, operation, status, name)
        validator = jsonschema.Draft202012Validator(
            {**components, **json_schema(media_schema)},
            format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER,
        )
        errors = [
            f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(example["value"])
        ]
        assert not errors, (operation, status, name, errors[:5])
        checked += 1
    assert checked > len(examples.RECORDED)


def find_inline(schema: dict[str, Any], operation: str, status: str | None, name: str) -> Any:
    """An example written in its operation (not one of ours, which are all referred to)."""
    method, path = operation.split(" ")
    found = schema["paths"][path][method]
    body = found["requestBody"] if status is None else found["responses"][status]
    return body["content"]["application/json"]["examples"][name]


def test_every_recorded_example_is_shown_where_it_was_met(schema: dict[str, Any]) -> None:
    """Requests and answers at their operation and status, errors under their status, each
    under the component it shows."""
    met: dict[str, set[tuple[str, str | None, str]]] = {}
    for operation, status, media_schema, name in shown(schema):
        ref = str(media_schema.get("$ref", ""))
        met.setdefault(name, set()).add((operation, status, ref.rsplit("/", 1)[-1]))
    for name, entry in examples.RECORDED.items():
        places = met.get(examples.key(name), set())
        assert {component for _op, _status, component in places} == {entry["component"]}, name
        if entry["component"] == "Error":
            assert {status for _op, status, _c in places} == {entry["status"]}, name
            assert (entry["operation"], entry["status"], "Error") in places, name
            if entry["operation"] not in house_schema.OWN_ERRORS:
                assert len(places) > 1, name  # shown under every operation that may answer it
        else:
            assert places == {(entry["operation"], entry.get("status"), entry["component"])}, name


def json_schema(node: Any) -> Any:
    """OpenAPI 3.0's schema as JSON Schema: ``nullable: true`` admits null."""
    if isinstance(node, list):
        return [json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: json_schema(value) for key, value in node.items() if key != "nullable"}
    if node.get("nullable"):
        return {"anyOf": [converted, {"type": "null"}]}
    return converted
