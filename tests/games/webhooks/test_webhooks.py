"""Webhooks (issue 13): a director registers a URL; match.settled, game.finished and round.paired
are POSTed to it, signed, retried with backoff, and listed with their delivery status.

The receiver is a real HTTP server on 127.0.0.1 (a random port, a thread of this process) that
checks each signature with the verification snippet of docs/API.md, read out of it and run as it
is. Tasks run eagerly on commit, as without a broker; the last test runs them on a real worker
over Redis.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import jsonschema
import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from games.play import services
from games.store import outbox
from games.store.models import Event, Outbox
from games.webhooks import sending
from games.webhooks import services as webhooks
from games.webhooks.models import Delivery
from games.webhooks.schema import WEBHOOK_PAYLOAD_SCHEMA
from tests.api_seed import tournament
from tests.games.tournaments.helpers import client_for
from tests.scoring.test_celery import celery_app, finished_tasks, wait_for, worker  # noqa: F401
from tests.strategies import json_schema

pytestmark = pytest.mark.django_db

# RULES.md Appendix B.1 entered leniently: a complete Singles sheet, settled by the close task.
SINGLES_B1 = [[32, 19, 6], [24, 77, 34], [13, 29, 27], [38, 53, 110], [21, 30, 36]]
# A Solitaire study position with one legal jump: a game of one move (tests/scoring/test_celery).
STUDY = {"position": {"C1": "B1", "C2": "R2"}}
LAST_JUMP = {"from": 1, "to": 3}
QUICK_RETRIES = override_settings(WEBHOOK_RETRY_DELAYS=[0.3, 0.3])
# Seconds from a signature's t (whole seconds, rounded down) to the request's arrival, at most.
SENT_WITHIN = 5


API_MD = Path(__file__).resolve().parents[3] / "docs" / "API.md"


def docs_snippet() -> dict[str, Any]:
    """The Python block of docs/API.md's "Webhooks", run as it is: its names, ``verify`` first."""
    section = API_MD.read_text().split("\n## Webhooks\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 1, "docs/API.md's Webhooks section has one Python block"
    names: dict[str, Any] = {}
    exec(compile(blocks[0], f"{API_MD} (Webhooks)", "exec"), names)  # noqa: S102  (our own docs)
    return names


def verify(secret: str, body: bytes, header: str) -> bool:
    """What docs/API.md tells a receiver to do with X-Scarney-Signature: its snippet, run."""
    return bool(docs_snippet()["verify"](secret, body, header))


def signed_at(header: str) -> int:
    """The ``t`` of an X-Scarney-Signature header."""
    found = re.fullmatch(r"t=([0-9]+),v1=[0-9a-f]{64}", header)
    assert found, header
    return int(found.group(1))


# --- the receiver -----------------------------------------------------------------------------


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes
    signed: bool
    at: float  # time.time() when it arrived

    @property
    def signature(self) -> str:
        return self.headers["X-Scarney-Signature"]

    @property
    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Receiver:
    """Answers each POST with the next of ``answers`` (then 200), and keeps what it got."""

    url: str
    secret: str = ""
    answers: list[int] = field(default_factory=list)
    got: list[Received] = field(default_factory=list)

    def types(self) -> list[str]:
        return [r.headers["X-Scarney-Event"] for r in self.got]


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    state = Receiver(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802  (http.server's name)
            body = self.rfile.read(int(self.headers["Content-Length"]))
            signed = verify(state.secret, body, self.headers.get("X-Scarney-Signature", ""))
            got = Received(dict(self.headers.items()), body, signed, time.time())
            state.got.append(got)
            self.send_response(state.answers.pop(0) if state.answers else 200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}/hooks/scarney"
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()


# --- helpers ----------------------------------------------------------------------------------


@pytest.fixture
def director() -> tuple[Any, APIClient]:
    return client_for("director", staff=True)


def register(api: APIClient, receiver: Receiver, **body: Any) -> dict[str, Any]:
    answer = api.post("/api/v1/webhooks/", {"url": receiver.url, **body}, format="json")
    assert answer.status_code == 201, answer.json()
    receiver.secret = answer.json()["secret"]
    return answer.json()  # type: ignore[no-any-return]


def settle_sheet_match(user: Any) -> Any:
    match = services.match_start(
        format="scarney-singles",
        players=[{"name": n} for n in "ABC"],
        ruleset={"sheet_entry_validation": "lenient"},
        entry="sheet",
        user=user,
    )
    for scores in SINGLES_B1:
        services.event_record(
            stream_id=match.pk,
            event_id=uuid.uuid4(),
            type="game.scored",
            data={"scores": scores},
            user=user,
        )
    return match


def finish_a_game_of_a_match(user: Any) -> Any:
    match = services.match_start(format="scarney-solitaire", players=[{"name": "Ann"}], user=user)
    game = services.game_start(
        kind="scarney-solitaire", seats=None, match_id=match.pk, setup=STUDY, user=user
    )
    services.event_record(
        stream_id=game.pk,
        event_id=uuid.uuid4(),
        type="pawn.jumped",
        data=LAST_JUMP,
        expected_version=1,
        user=user,
    )
    return match


# --- registration -----------------------------------------------------------------------------


def test_only_a_director_registers_lists_or_deactivates_webhooks(
    api: APIClient, anon: APIClient, director: Any
) -> None:
    body = {"url": "https://club.example.org/hooks"}
    # a score-keeper is refused, and so is a caller without a login
    for client, status, code in [
        (api, 403, "permission.director_only"),
        (anon, 401, "permission.login_required"),
    ]:
        for answer in [
            client.post("/api/v1/webhooks/", body, format="json"),
            client.get("/api/v1/webhooks/"),
        ]:
            assert (answer.status_code, answer.json()["code"]) == (status, code)

    # a director registers one, and sees its secret this once
    _, boss = director
    made = boss.post("/api/v1/webhooks/", body, format="json")
    assert made.status_code == 201
    hook = made.json()
    assert len(hook["secret"]) == 64 and int(hook["secret"], 16) >= 0
    assert hook["events"] == ["match.settled", "game.finished", "round.paired"]
    assert (hook["url"], hook["active"], hook["created_by"]) == (body["url"], True, "director")
    assert hook["deliveries"] == {"pending": 0, "delivered": 0, "failed": 0}
    listed = boss.get("/api/v1/webhooks/").json()["results"]
    assert [h["id"] for h in listed] == [hook["id"]] and "secret" not in listed[0]
    assert "secret" not in boss.get(f"/api/v1/webhooks/{hook['id']}/").json()

    # and only a director deactivates it or reads its deliveries
    assert api.delete(f"/api/v1/webhooks/{hook['id']}/").status_code == 403
    assert api.get(f"/api/v1/webhooks/{hook['id']}/deliveries/").status_code == 403
    gone = boss.delete(f"/api/v1/webhooks/{hook['id']}/")
    assert gone.status_code == 200 and gone.json()["active"] is False
    assert gone.json()["deactivated_at"] is not None
    for missing in ["999999", "9" * 30, "abc", str(uuid.uuid4())]:
        assert boss.delete(f"/api/v1/webhooks/{missing}/").json()["code"] == "not_found"
        assert boss.get(f"/api/v1/webhooks/{missing}/deliveries/").status_code == 404
        assert boss.generic("TRACE", f"/api/v1/webhooks/{missing}/").status_code == 405


@pytest.mark.parametrize(
    "url",
    [
        "ftp://club.example.org/hooks",
        "javascript:alert(1)",
        "file:///etc/passwd",
        "http://",
        "https:///path-only",
        "club.example.org/hooks",
        "http://club.example.org:port/",
        "http://club.example.org/a b",
        "",
        12,
        None,
        "https://club.example.org/" + "x" * 2000,
    ],
)
def test_a_url_that_is_not_http_or_https_is_refused(director: Any, url: Any) -> None:
    _, boss = director
    answer = boss.post("/api/v1/webhooks/", {"url": url}, format="json")
    assert (answer.status_code, answer.json()["code"]) == (422, "webhook.bad_url")


def test_bad_event_lists_and_unknown_fields_are_refused_with_their_codes(director: Any) -> None:
    _, boss = director
    url = "https://club.example.org/hooks"
    cases = [
        ({"url": url, "events": ["pawn.jumped"]}, 422, "webhook.bad_events"),
        ({"url": url, "events": []}, 422, "webhook.bad_events"),
        ({"url": url, "events": "match.settled"}, 422, "webhook.bad_events"),
        ({"url": url, "secret": "mine"}, 422, "webhook.unknown_field"),
        ([url], 400, "request.not_an_object"),
    ]
    for body, status, code in cases:
        answer = boss.post("/api/v1/webhooks/", body, format="json")
        assert (answer.status_code, answer.json()["code"]) == (status, code), body
    assert boss.get("/api/v1/webhooks/").json()["results"] == []


# --- deliveries -------------------------------------------------------------------------------


def test_a_settled_match_is_posted_once_signed_with_the_webhooks_secret(
    director: Any, receiver: Receiver, django_capture_on_commit_callbacks: Any
) -> None:
    # given a webhook for every event type
    user, boss = director
    register(boss, receiver)

    # when a sheet match is entered to its end and the close task settles it
    with django_capture_on_commit_callbacks(execute=True):
        match = settle_sheet_match(user)

    # then match.settled was POSTed once, signed, with the event as the event lists show it
    assert receiver.types() == ["match.settled"]
    got = receiver.got[0]
    assert got.signed, "the signature does not verify with the webhook's secret"
    event = Event.objects.get(stream_id=match.pk, type="match.settled")
    assert got.json == {
        "position": event.position,
        "id": str(event.id),
        "version": event.version,
        "type": "match.settled",
        "schema_version": event.schema_version,
        "data": {
            "payments": [{"from": 0, "to": 2, "points": 185}, {"from": 1, "to": 2, "points": 105}],
            "nets": [-185, -105, 290],
        },
        "meta": event.meta,
        "recorded_at": event.recorded_at.isoformat().replace("+00:00", "Z"),
        "hash": event.hash,
        "stream": str(match.pk),
    }
    listed = boss.get(f"/api/v1/matches/{match.pk}/events/").json()
    [shown] = [e for e in listed["results"] if e["id"] == str(event.id)]
    assert got.json == {**shown, "stream": str(match.pk)}
    assert got.headers["Content-Type"] == "application/json"
    delivery = Delivery.objects.get()
    assert got.headers["X-Scarney-Delivery"] == str(delivery.pk)
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == ("delivered", 1, 200)
    assert Outbox.objects.get(key=f"webhook:{delivery.pk}").done_at is not None

    # and a task sent again delivers nothing more
    assert sending.attempt(delivery.pk) == "delivered"
    assert len(receiver.got) == 1


def test_the_docs_snippet_accepts_a_delivery_and_refuses_a_tampered_body_or_an_old_timestamp(
    director: Any, receiver: Receiver, django_capture_on_commit_callbacks: Any
) -> None:
    # given a match.settled delivered over HTTP, as the receiver got it: body and header
    user, boss = director
    register(boss, receiver, events=["match.settled"])
    with django_capture_on_commit_callbacks(execute=True):
        settle_sheet_match(user)
    [got] = receiver.got
    secret, body, header = receiver.secret, got.body, got.signature
    t = signed_at(header)
    assert 0 <= got.at - t < SENT_WITHIN, "t is the time the attempt was signed at"

    # when docs/API.md's verification snippet is run on it, as it is printed there
    snippet = docs_snippet()
    verify = snippet["verify"]
    assert snippet["TOLERANCE"] == 5 * 60

    # then the delivery is accepted
    assert verify(secret, body, header) is True

    # and a body changed by one digit, or the same JSON written again, is refused
    tampered = body.replace(b'"points":185', b'"points":186')
    assert tampered != body and verify(secret, tampered, header) is False
    rewritten = json.dumps(json.loads(body)).encode()
    assert rewritten != body and verify(secret, rewritten, header) is False
    assert verify("0" * 64, body, header) is False

    # and the same request replayed after the tolerance is refused (accepted just within it)
    snippet["time"] = SimpleNamespace(time=lambda: t + 5 * 60 + 1)
    assert verify(secret, body, header) is False
    snippet["time"] = SimpleNamespace(time=lambda: t + 5 * 60 - 1)
    assert verify(secret, body, header) is True
    # and so is its header with t moved forward to pass for a fresh one
    snippet["time"] = SimpleNamespace(time=lambda: t + 3600)
    assert verify(secret, body, header.replace(f"t={t},", f"t={t + 3600},")) is False
    snippet["time"] = time

    # and a correct signature made at an old (or a future) time is refused
    for then in [int(time.time()) - 5 * 60 - 2, int(time.time()) + 5 * 60 + 2]:
        assert verify(secret, body, sending.signature(secret, body, then)) is False

    # and a header that is not ours is refused, never raised on
    v1 = header.split("v1=")[1]
    old_style = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    for bad in [
        "",
        old_style,
        f"v1={v1}",
        f"t={t}",
        f"t={t},t={t},v1={v1}",
        f"t=+{t},v1={v1}",
        f"t=\u0661\u0662,v1={v1}",
        f"t={'9' * 5000},v1={v1}",
        f"t={t},v1=\u00e9{v1[1:]}",
    ]:
        assert verify(secret, body, bad) is False, bad


def test_every_delivered_payload_validates_against_webhook_payload_schema(
    director: Any, receiver: Receiver, django_capture_on_commit_callbacks: Any
) -> None:
    # given a webhook for every event type, and one event of each delivered
    user, boss = director
    register(boss, receiver)
    with django_capture_on_commit_callbacks(execute=True):
        finish_a_game_of_a_match(user)
        tournament(user, ["Ann", "Bob", "Cid", "Dan"])
        settle_sheet_match(user)
    assert sorted(receiver.types()) == ["game.finished", "match.settled", "round.paired"]

    # then each payload validates against the schema the OpenAPI document takes
    Validator = jsonschema.Draft202012Validator  # noqa: N806
    Validator.check_schema(WEBHOOK_PAYLOAD_SCHEMA)
    validator = Validator(WEBHOOK_PAYLOAD_SCHEMA, format_checker=Validator.FORMAT_CHECKER)
    for got in receiver.got:
        payload = got.json
        assert [e.message for e in validator.iter_errors(payload)] == [], payload["type"]
        assert datetime.fromisoformat(payload["recorded_at"]).utcoffset() == timedelta(0)

    # and every field is typed and required, and one more or one less is refused
    properties = WEBHOOK_PAYLOAD_SCHEMA["properties"]
    assert all("type" in declared for declared in properties.values())
    assert sorted(WEBHOOK_PAYLOAD_SCHEMA["required"]) == sorted(properties) == sorted(payload)
    assert not validator.is_valid({**payload, "signature": "x"})
    assert not validator.is_valid({k: v for k, v in payload.items() if k != "hash"})
    assert not validator.is_valid({**payload, "stream": "not a uuid"})

    # and so does docs/API.md's example
    section = API_MD.read_text().split("\n## Webhooks\n", 1)[1].split("\n## ", 1)[0]
    [example] = re.findall(r"```json\n(.*?)```", section, re.S)
    assert [e.message for e in validator.iter_errors(json.loads(example))] == []

    # and the API's schema types each payload's data and meta by its type (WebhookPayload)
    served = SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-untyped-call]
    components = {name: json_schema(one) for name, one in served["components"]["schemas"].items()}
    typed = Validator({"components": {"schemas": components}, **components["WebhookPayload"]})
    for got in receiver.got:
        assert [e.message for e in typed.iter_errors(got.json)] == [], own_errors(
            components, got.json
        )
    wrong = {**payload, "data": {**payload["data"], "unknown": 1}}
    assert not typed.is_valid(wrong)


def own_errors(components: dict[str, Any], payload: dict[str, Any]) -> list[str]:
    """Why ``payload`` does not fit its own type's component (what a union's refusal hides)."""
    name = "".join(p.capitalize() for p in re.split(r"[._-]", payload["type"])) + "Delivery"
    own = jsonschema.Draft202012Validator(
        {"components": {"schemas": components}, **components[name]}
    )
    return [f"{list(e.absolute_path)}: {e.message[:300]}" for e in own.iter_errors(payload)]


@QUICK_RETRIES
def test_a_retry_is_signed_anew_with_the_time_of_its_own_attempt(
    director: Any, receiver: Receiver, django_capture_on_commit_callbacks: Any
) -> None:
    # given a delivery whose first attempt was answered 500
    user, boss = director
    register(boss, receiver, events=["match.settled"])
    receiver.answers = [500]
    with django_capture_on_commit_callbacks(execute=True):
        settle_sheet_match(user)
    [first] = receiver.got
    first_t = signed_at(first.signature)

    # when the relay sends it again, in a later second than the first attempt's
    wait_for(
        lambda: int(time.time()) > first_t and outbox.relay_pending() == 1,
        "the second attempt, in a later second",
    )

    # then the retry carries the same body, signed anew with its own time
    first, second = receiver.got
    second_t = signed_at(second.signature)
    assert second_t > first_t and 0 <= second.at - second_t < SENT_WITHIN
    assert second.body == first.body and second.signature != first.signature
    assert first.signed and second.signed
    assert Delivery.objects.get().status == "delivered"


@QUICK_RETRIES
def test_a_receiver_answering_500_then_200_gets_the_same_delivery_again_after_the_backoff(
    director: Any, receiver: Receiver, django_capture_on_commit_callbacks: Any
) -> None:
    # given a receiver that fails once
    user, boss = director
    register(boss, receiver, events=["match.settled"])
    receiver.answers = [500]

    # when a match is settled
    with django_capture_on_commit_callbacks(execute=True):
        settle_sheet_match(user)

    # then the delivery waits for its retry, and the relay sends nothing before it is due
    delivery = Delivery.objects.get()
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == ("pending", 1, 500)
    assert delivery.last_error == "HTTP 500 Internal Server Error"
    assert outbox.relay_pending() == 0 and len(receiver.got) == 1

    # when the backoff has passed, beat's relay sends it again
    time.sleep(0.35)
    assert outbox.relay_pending() == 1

    # then the same delivery, byte for byte, was accepted on the second attempt
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == ("delivered", 2, 200)
    assert delivery.last_error == "" and delivery.delivered_at is not None
    first, second = receiver.got
    assert first.body == second.body and first.signed and second.signed
    assert first.headers["X-Scarney-Delivery"] == second.headers["X-Scarney-Delivery"]
    assert outbox.relay_pending() == 0


@override_settings(WEBHOOK_RETRY_DELAYS=[0.05])
def test_a_delivery_fails_after_its_last_attempt_and_is_never_sent_again(
    director: Any, receiver: Receiver, django_capture_on_commit_callbacks: Any
) -> None:
    user, boss = director
    register(boss, receiver, events=["match.settled"])
    receiver.answers = [503, 503, 200]
    with django_capture_on_commit_callbacks(execute=True):
        settle_sheet_match(user)
    time.sleep(0.1)
    assert outbox.relay_pending() == 1

    delivery = Delivery.objects.get()
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == ("failed", 2, 503)
    time.sleep(0.1)
    assert outbox.relay_pending() == 0
    assert sending.attempt(delivery.pk) == "failed"
    assert len(receiver.got) == 2


def test_a_receiver_nobody_answers_at_is_recorded_as_not_reached(
    director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    user, boss = director
    # nothing listens on port 1 of the loopback
    boss.post("/api/v1/webhooks/", {"url": "http://127.0.0.1:1/hooks"}, format="json")
    with django_capture_on_commit_callbacks(execute=True):
        settle_sheet_match(user)
    delivery = Delivery.objects.get()
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == ("pending", 1, None)
    assert delivery.last_error.startswith("not reached:")


def test_game_finished_and_round_paired_are_delivered_to_the_webhooks_subscribed(
    director: Any, receiver: Receiver, django_capture_on_commit_callbacks: Any
) -> None:
    # given a webhook for game.finished and round.paired only
    user, boss = director
    register(boss, receiver, events=["round.paired", "game.finished"])

    # when a game of a match finishes and a tournament's first round is paired
    with django_capture_on_commit_callbacks(execute=True):
        match = finish_a_game_of_a_match(user)
        made = tournament(user, ["Ann", "Bob", "Cid", "Dan"])

    # then each was POSTed once, signed
    assert receiver.types() == ["game.finished", "round.paired"]
    assert all(got.signed for got in receiver.got)
    finished, paired = (got.json for got in receiver.got)
    assert finished["stream"] == str(match.pk) and finished["data"]["scores"] == [59]
    assert paired["stream"] == str(made) and paired["data"]["round"] == 1
    assert len(paired["data"]["tables"]) == 2
    statuses = Delivery.objects.values_list("type", "status", "attempts")
    assert sorted(statuses) == [("game.finished", "delivered", 1), ("round.paired", "delivered", 1)]


# --- listing ----------------------------------------------------------------------------------


@QUICK_RETRIES
def test_deliveries_are_listed_with_their_status_newest_first_in_a_fixed_number_of_queries(
    director: Any, receiver: Receiver, django_capture_on_commit_callbacks: Any
) -> None:
    # given two matches settled: the first delivered, the second waiting after a 500
    user, boss = director
    hook = register(boss, receiver)
    with django_capture_on_commit_callbacks(execute=True):
        settle_sheet_match(user)
    receiver.answers = [500]
    with django_capture_on_commit_callbacks(execute=True):
        second = settle_sheet_match(user)

    # when the director lists the webhook's deliveries
    url = f"/api/v1/webhooks/{hook['id']}/deliveries/"
    listed = boss.get(url).json()

    # then each shows its event, status, attempts and last answer, the newest first
    assert listed["webhook"] == hook["id"]
    rows = listed["results"]
    assert [(d["status"], d["attempts"], d["last_status_code"]) for d in rows] == [
        ("pending", 1, 500),
        ("delivered", 1, 200),
    ]
    assert rows[0]["event"]["stream"] == str(second.pk)
    assert rows[0]["event"]["type"] == "match.settled"
    assert rows[0]["next_attempt_at"] is not None and rows[0]["delivered_at"] is None
    assert rows[1]["next_attempt_at"] is None and rows[1]["delivered_at"] is not None
    assert rows[0]["id"] == receiver.got[1].headers["X-Scarney-Delivery"]
    assert [d["status"] for d in boss.get(url, {"status": "delivered"}).json()["results"]] == [
        "delivered"
    ]
    assert len(boss.get(url, {"limit": 1}).json()["results"]) == 1
    counts = boss.get("/api/v1/webhooks/").json()["results"][0]["deliveries"]
    assert counts == {"pending": 1, "delivered": 1, "failed": 0}

    # and a filter it does not know, or a bad value, is refused
    assert boss.get(url, {"status": "lost"}).json()["code"] == "query.bad_value"
    assert boss.get(url, {"limit": "0"}).json()["code"] == "query.bad_value"
    assert boss.get(url, {"state": "failed"}).json()["code"] == "query.unknown_parameter"

    # and the lists cost the same queries for two deliveries and webhooks as for more
    def queries(path: str) -> int:
        with CaptureQueriesContext(connection) as captured:
            assert boss.get(path).status_code == 200
        return len(captured)

    before = (queries(url), queries("/api/v1/webhooks/"))
    register(boss, receiver)
    with django_capture_on_commit_callbacks(execute=True):
        settle_sheet_match(user)
    assert Delivery.objects.count() == 4
    assert (queries(url), queries("/api/v1/webhooks/")) == before


@QUICK_RETRIES
def test_a_deactivated_webhook_gets_nothing_new_and_its_pending_delivery_fails(
    director: Any, receiver: Receiver, django_capture_on_commit_callbacks: Any
) -> None:
    user, boss = director
    hook = register(boss, receiver)
    receiver.answers = [500]
    with django_capture_on_commit_callbacks(execute=True):
        settle_sheet_match(user)
    boss.delete(f"/api/v1/webhooks/{hook['id']}/")

    with django_capture_on_commit_callbacks(execute=True):
        settle_sheet_match(user)
    time.sleep(0.35)
    outbox.relay_pending()

    delivery = Delivery.objects.get()
    assert (delivery.status, delivery.attempts) == ("failed", 2)
    assert delivery.last_error == "The webhook was deactivated."
    assert len(receiver.got) == 1


# --- on a real worker -------------------------------------------------------------------------


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("worker")
@override_settings(WEBHOOK_RETRY_DELAYS=[0.5, 0.5])
def test_on_a_worker_a_settlement_is_delivered_and_retried_by_the_relay(
    receiver: Receiver,
) -> None:
    # given a webhook whose receiver fails once
    user, _ = client_for("director", staff=True)
    receiver.secret = services_webhook_secret(user, receiver.url)
    receiver.answers = [500]

    # when a sheet match ends: the worker settles it, then makes the first attempt
    settle_sheet_match(user)
    wait_for(lambda: Delivery.objects.filter(last_status_code=500).exists(), "the first attempt")

    # then beat's relay (run here as beat would) sends it again once the backoff has passed
    def delivered() -> bool:
        outbox.relay_pending()
        return Delivery.objects.filter(status="delivered").exists()

    wait_for(delivered, "the second attempt")
    delivery = Delivery.objects.get()
    assert (delivery.attempts, delivery.last_status_code) == (2, 200)
    assert [got.headers["X-Scarney-Event"] for got in receiver.got] == ["match.settled"] * 2
    assert all(got.signed for got in receiver.got)
    assert delivery.delivered_at is not None
    assert delivery.delivered_at - delivery.created_at >= timedelta(seconds=0.5)


def services_webhook_secret(user: Any, url: str) -> str:
    return webhooks.webhook_create(spec={"url": url, "events": ["match.settled"]}, user=user).secret
