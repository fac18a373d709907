"""What is hashed is what is stored is what is returned (games/store/canonical.py), on PostgreSQL.

jsonb rewrites numbers (``-0.0`` -> ``0.0``, ``1e20`` -> an integer); the service puts every
payload in the form a jsonb round trip keeps, so ``verify_events`` holds and an identical retry
is answered 200. Inputs that used to end in a 500 (a lone surrogate, ``1e400``, a cursor that
decodes to no position) are 400s with a code; an unknown field or a 900 KB value is refused.
"""

from __future__ import annotations

import base64
import io
import json
import math
import uuid
from typing import Any
from urllib.parse import urlencode

import pytest
from django.core.management import call_command
from django.db import connection
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games.play import services
from games.store.canonical import BadValue, canonical
from games.store.models import Event, Stream

PAWNS = [colour + str(spots) for colour in "BRYG" for spots in range(1, 5)]
LAYOUT = {f"C{i + 1}": pawn for i, pawn in enumerate(PAWNS)}  # C1 holds B1, C2 B2: low pawns
BIG = "x" * 900_000


# --- the canonical form ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sent", "kept"),
    [
        (-0.0, 0),
        (0.0, 0),
        (2.0, 2),
        (1e20, 100_000_000_000_000_000_000),
        (-1.5e300, -int(1.5e300)),
        (0.1, 0.1),
        (1e-7, 1e-7),
        (5e-324, 5e-324),
        (True, True),
        (None, None),
        ("é ü 🂡", "é ü 🂡"),
        ((1, (2.0,)), [1, [2]]),
        ({"a": [-0.0, {"b": 3.0}]}, {"a": [0, {"b": 3}]}),
        ({1: "x", None: "y"}, {"1": "x", "null": "y"}),
    ],
)
def test_the_canonical_form_of_a_value(sent: Any, kept: Any) -> None:
    got = canonical(sent)
    assert got == kept and json.dumps(got) == json.dumps(kept)
    assert canonical(got) == got  # idempotent


@pytest.mark.parametrize(
    ("sent", "code"),
    [
        (math.inf, "request.bad_number"),
        ({"a": [-math.inf]}, "request.bad_number"),
        (math.nan, "request.bad_number"),
        ("\ud800", "request.bad_text"),
        ({"ok": ["a\udfffb"]}, "request.bad_text"),
        ({"\ud800": 1}, "request.bad_text"),
        ("a\x00b", "request.bad_text"),
        ([[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]], "request.malformed"),
    ],
)
def test_values_without_a_canonical_form_are_refused(sent: Any, code: str) -> None:
    with pytest.raises(BadValue) as refused:
        canonical(sent)
    assert refused.value.code == code


def jsonb_round_trip(value: Any) -> Any:
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::jsonb::text", [json.dumps(value)])
        return json.loads(cursor.fetchone()[0])


TEXT = st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00"), max_size=8)
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**40), 10**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([-0.0, 1e20, 1e300, 2.5e-300, 123456789.0])
    | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)


@pytest.mark.django_db
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=JSON)
def test_the_canonical_form_survives_a_jsonb_round_trip_unchanged(value: Any) -> None:
    kept = canonical(value)
    back = jsonb_round_trip(kept)
    assert back == kept
    # The hash is over json.dumps: the row read back must give the same text.
    assert json.dumps(back, sort_keys=True) == json.dumps(kept, sort_keys=True)


@pytest.mark.django_db
def test_jsonb_rewrites_the_numbers_sent_as_they_are() -> None:
    # Why the canonical form exists: without it these would hash differently once stored.
    for sent in (-0.0, 1e20):
        assert json.dumps(jsonb_round_trip([sent])) != json.dumps([sent])
        assert json.dumps(jsonb_round_trip([canonical(sent)])) == json.dumps([canonical(sent)])


# --- through the service and the API ------------------------------------------------------------


def verify() -> str:
    out = io.StringIO()
    call_command("verify_events", stdout=out, stderr=io.StringIO())
    return out.getvalue()


def new_game(api: APIClient) -> str:
    body = {"kind": "scarney-solitaire", "seats": [{"name": "Ann"}]}
    game = api.post("/api/v1/games/", body, format="json").json()["id"]
    laid = post(api, game, {"type": "board.laid_out", "data": {"position": LAYOUT}})
    assert laid.status_code == 201, laid.json()
    return str(game)


def post(api: APIClient, game: str, body: dict[str, Any], **headers: Any) -> Any:
    body = {"id": str(uuid.uuid4()), **body}
    return api.post(f"/api/v1/games/{game}/events/", body, format="json", **headers)


def post_raw(api: APIClient, url: str, text: str) -> Any:
    return api.post(url, text, content_type="application/json")


@pytest.mark.django_db
def test_numbers_jsonb_rewrites_are_hashed_stored_and_returned_in_one_form(
    api: APIClient,
) -> None:
    # A Put-and-Take sheet: three nets summing to 0, sent as 1e9, -1e9 and -0.0 (floats; the
    # largest a client's event may carry: docs/ERRORS.md event.too_large).
    match = api.post(
        "/api/v1/matches/",
        {
            "format": "scarney-put-and-take",
            "players": [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cy"}],
            "entry": "sheet",
        },
        format="json",
    ).json()["id"]
    body = {
        "id": str(uuid.uuid4()),
        "type": "game.scored",
        "data": {"scores": [1e9, -1e9, -0.0]},
        "meta": {"client_time": -0.0, "note": "sheet 1"},
    }
    url = f"/api/v1/matches/{match}/events/"
    first = api.post(url, body, format="json")
    assert first.status_code == 201, first.json()
    event = first.json()["event"]
    assert event["data"] == {"scores": [10**9, -(10**9), 0]}
    assert '"scores":[1000000000,-1000000000,0]' in first.content.decode()
    assert event["meta"]["client_time"] == 0 and "-0.0" not in first.content.decode()

    retry = api.post(url, body, format="json")
    assert retry.status_code == 200, retry.json()
    assert retry.json()["event"] == event
    stored = Event.objects.get(id=body["id"])
    assert stored.data == event["data"] and stored.hash == event["hash"]
    assert "0 problem(s)" in verify()


@pytest.mark.django_db
def test_a_number_in_meta_is_stored_as_hashed_and_a_retry_through_the_service_matches(
    api: APIClient,
) -> None:
    game = new_game(api)
    event_id = uuid.uuid4()
    for _ in range(2):
        recorded = services.event_record(
            stream_id=uuid.UUID(game),
            event_id=event_id,
            type="pawn.taken_off",
            data={"circle": 1.0},
            meta={"client_time": 1e20},
        )
    assert not recorded.created and recorded.event.data == {"circle": 1}
    assert recorded.event.meta["client_time"] == 10**20
    assert "0 problem(s)" in verify()


@pytest.mark.django_db
def test_an_unknown_field_is_refused_and_nothing_is_stored(api: APIClient) -> None:
    game = new_game(api)
    response = post(api, game, {"type": "pawn.taken_off", "data": {"circle": 1, "junk": 1}})
    assert response.status_code == 422, response.json()
    assert response.json()["code"] == "event.unknown_field"
    assert response.json()["fields"] == ["junk"]
    assert Stream.objects.get(pk=game).version == 2


TAKE_OFF = {"type": "pawn.taken_off", "data": {"circle": 1}}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "headers", "code"),
    [
        ({"type": "move.undone", "data": {"reason": BIG}}, {}, "event.too_large"),
        ({"type": "pawn.taken_off", "data": {"circle": BIG}}, {}, "event.too_large"),
        ({**TAKE_OFF, "meta": {"note": BIG}}, {}, "meta.bad_value"),
        ({**TAKE_OFF, "meta": {"device": BIG}}, {}, "meta.bad_value"),
        (TAKE_OFF, {"HTTP_X_DEVICE": BIG}, "meta.bad_value"),
        ({**TAKE_OFF, "meta": {"x": 1}}, {}, "meta.unknown_field"),
    ],
)
def test_a_900_kb_value_or_an_unknown_meta_key_is_refused_and_never_stored(
    api: APIClient, body: dict[str, Any], headers: dict[str, str], code: str
) -> None:
    game = new_game(api)
    response = post(api, game, body, **headers)
    assert response.status_code == 422, response.json()
    assert response.json()["code"] == code
    assert Stream.objects.get(pk=game).version == 2


@pytest.mark.django_db
def test_meta_within_its_bounds_is_stored_and_returned(api: APIClient, user: Any) -> None:
    game = new_game(api)
    meta = {"client_time": "2026-01-02T10:00:00Z", "note": "n" * 500}
    response = post(api, game, {**TAKE_OFF, "meta": meta}, HTTP_X_DEVICE="d" * 100)
    assert response.status_code == 201, response.json()
    assert response.json()["event"]["meta"] == {**meta, "device": "d" * 100, "recorded_by": user.pk}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "meta", "code"),
    [
        ('{"circle": "\\ud800"}', "{}", "request.bad_text"),
        ('{"circle": 1}', '{"note": "a\\udc00"}', "request.bad_text"),
        ('{"circle": 1e400}', "{}", "request.bad_number"),
        ('{"circle": 1}', '{"client_time": -1e400}', "request.bad_number"),
    ],
)
def test_a_lone_surrogate_or_an_infinite_number_is_a_400_with_a_code(
    api: APIClient, data: str, meta: str, code: str
) -> None:
    game = new_game(api)
    text = f'{{"id": "{uuid.uuid4()}", "type": "pawn.taken_off", "data": {data}, "meta": {meta}}}'
    response = post_raw(api, f"/api/v1/games/{game}/events/", text)
    assert response.status_code == 400, response.content
    assert response.json()["code"] == code
    assert Stream.objects.get(pk=game).version == 2


@pytest.mark.django_db
def test_any_endpoint_refuses_a_lone_surrogate_with_a_400(api: APIClient) -> None:
    body = '{"kind": "scarney-solitaire", "seats": [{"name": "\\ud800"}]}'
    response = post_raw(api, "/api/v1/games/", body)
    assert response.status_code == 400 and response.json()["code"] == "request.bad_text"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "code"),
    [({"reason": "\ud800"}, "request.bad_text"), ({"reason": math.inf}, "request.bad_number")],
)
def test_the_service_refuses_them_for_every_caller(
    api: APIClient, data: dict[str, Any], code: str
) -> None:
    game = new_game(api)
    with pytest.raises(BadValue) as refused:
        services.event_record(
            stream_id=uuid.UUID(game), event_id=uuid.uuid4(), type="move.undone", data=data
        )
    assert refused.value.code == code


def cursor(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "raw", ["cD0yMDI2LTEzLTQ1", cursor("p=99999999999999999999"), cursor("o=x"), "é"]
)
def test_a_malformed_cursor_is_a_400_with_a_code(api: APIClient, anon: APIClient, raw: str) -> None:
    assert raw != "cD0yMDI2LTEzLTQ1" or cursor("p=2026-13-45") == raw
    game = new_game(api)
    for client, url in [
        (anon, "/api/v1/games/"),
        (anon, "/api/v1/matches/"),
        (api, f"/api/v1/games/{game}/events/"),
    ]:
        response = client.get(url, {"cursor": raw})
        assert response.status_code == 400, (url, response.content)
        assert response.json()["code"] == "request.bad_cursor"


@pytest.mark.django_db
def test_a_well_formed_cursor_still_pages(api: APIClient, anon: APIClient) -> None:
    game = new_game(api)
    page = api.get(f"/api/v1/games/{game}/events/", {"cursor": cursor("p=1")}).json()
    assert [event["version"] for event in page["results"]] == [2]
    when = cursor(urlencode({"p": "2026-01-02 10:00:00+00:00"}))
    assert anon.get("/api/v1/games/", {"cursor": when}).status_code == 200
