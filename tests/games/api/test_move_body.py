"""A move's plain body is read without the serializer (games.api.streams._plain_move) exactly as the
serializer (games.api.request_bodies.EventCreate) reads it; any other body goes to the
serializer."""

from __future__ import annotations

import uuid
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.api import request_bodies
from games.api.streams import _plain_move

JSON_LEAF = st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=4)
JSON = st.recursive(
    JSON_LEAF,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=6,
)
IDS = st.uuids().map(str) | st.uuids().map(lambda u: u.hex) | st.text(max_size=8) | JSON_LEAF
TYPES = st.sampled_from(
    ["pawn.jumped", "dice.thrown", " pawn.jumped", "pawn.jumped\n", "", "A.b", "x" * 61]
)
FIELDS = {
    "id": IDS,
    "type": TYPES | JSON_LEAF,
    "data": st.dictionaries(st.text(max_size=3), JSON, max_size=3) | JSON,
    "expected_version": st.none() | st.integers(-2, 10**20) | st.booleans() | st.text(max_size=3),
    "meta": st.dictionaries(st.text(max_size=3), JSON, max_size=2) | JSON_LEAF,
    "other": JSON_LEAF,
}


@st.composite
def bodies(draw: Any) -> Any:
    names = draw(st.sets(st.sampled_from(sorted(FIELDS))))
    if draw(st.integers(0, 9)) == 0:
        return draw(JSON)  # not even an object
    return {name: draw(FIELDS[name]) for name in names}


def served(body: Any) -> dict[str, Any] | None:
    checked = request_bodies.EventCreate(data=body)
    return dict(checked.validated_data) if checked.is_valid() else None


def check(body: Any) -> None:
    plain = _plain_move(body)
    if plain is not None:  # else the serializer decides, as before
        expected = served(body)
        assert expected is not None, body
        assert plain == {"expected_version": None, **expected}


@settings(max_examples=400, deadline=None)
@given(bodies())
def test_any_body_the_plain_way_takes_reads_as_the_serializer_reads_it(body: Any) -> None:
    check(body)


# Bodies that mostly are plain: an id and a type as a table sends them, the rest at random.
NEAR_PLAIN = st.fixed_dictionaries(
    {"id": st.uuids().map(str), "type": st.sampled_from(["pawn.jumped", "dice.thrown"])},
    optional={name: FIELDS[name] for name in ("data", "expected_version", "meta", "other")},
)


@settings(max_examples=300, deadline=None)
@given(NEAR_PLAIN)
def test_a_near_plain_body_reads_as_the_serializer_reads_it(body: Any) -> None:
    check(body)


def test_the_body_a_table_sends_takes_the_plain_way() -> None:
    event_id = uuid.uuid4()
    body = {"id": str(event_id), "type": "pawn.jumped", "data": {"from": 11, "to": 9}}
    assert _plain_move({**body, "expected_version": 9}) == {
        "id": event_id,
        "type": "pawn.jumped",
        "data": {"from": 11, "to": 9},
        "expected_version": 9,
        "meta": {},
    }
    assert _plain_move({**body, "expected_version": True}) is None  # the serializer refuses it
    assert _plain_move({**body, "colour": "red"}) is None  # an unknown field: 400 from it


def test_an_event_id_that_is_a_number_is_refused_not_read_as_a_uuid() -> None:
    # given {"id": 12345}, which DRF's UUIDField alone reads as ...-000000003039
    body = {"id": 12345, "type": "pawn.jumped", "data": {}}
    checked = request_bodies.EventCreate(data=body)
    # then the body is refused, on its id, and the plain way leaves it to the serializer
    assert not checked.is_valid()
    assert list(checked.errors) == ["id"]
    assert _plain_move(body) is None
    # while the same id written as a string is taken
    text = {**body, "id": str(uuid.UUID(int=12345))}
    assert request_bodies.EventCreate(data=text).is_valid()
