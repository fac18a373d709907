"""The API's JSON renderer (orjson) writes the bytes DRF's JSON renderer writes."""

from __future__ import annotations

import datetime as dt
import decimal
import json
import uuid
from typing import Any

import pytest
from django.utils.translation import gettext_lazy
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework import renderers as drf
from rest_framework.test import APIClient

from games.api.http.renderers import JSONRenderer

FAST, DRF = JSONRenderer(), drf.JSONRenderer()

# JSON values as the API's answers hold them. Floats are those both write alike: Python writes
# an exponent with a sign (1e+16) where orjson does not (1e16), the same number either way.
_plain_floats = st.floats(allow_nan=False, allow_infinity=False).filter(
    lambda x: "e" not in repr(x)
)
_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | _plain_floats
    | st.text()
)
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(_values)
def test_any_json_value_is_written_as_drf_writes_it(value: Any) -> None:
    assert FAST.render(value) == DRF.render(value)


def test_the_types_drf_knows_are_written_by_drf_s_encoder() -> None:
    when = dt.datetime(2026, 11, 26, 6, 30, 1, 250000, tzinfo=dt.UTC)
    value = {
        "at": when,
        "naive": when.replace(tzinfo=None),
        "day": when.date(),
        "id": uuid.UUID(int=7),
        "amount": decimal.Decimal("2.50"),
        "lazy": gettext_lazy("Scarney"),
        "took": dt.timedelta(seconds=90),
        "tuple": (1, "two"),
    }
    assert FAST.render(value) == DRF.render(value)
    assert json.loads(FAST.render(value))["at"] == "2026-11-26T06:30:01.250000Z"


def test_javascript_line_ends_are_escaped_as_drf_escapes_them() -> None:
    value = {"name": "a\u2028b\u2029c", "other": "Zoë"}
    assert FAST.render(value) == DRF.render(value)
    assert b"\\u2028" in FAST.render(value) and b"\\u2029" in FAST.render(value)


def test_what_orjson_cannot_write_is_written_by_drf() -> None:
    for value in (
        {"big": 10**20},  # beyond 64 bits: JSON has no limit, orjson has
        {1: "a", None: "b"},  # keys that are not text
    ):
        assert FAST.render(value) == DRF.render(value)
    assert json.loads(FAST.render({"big": 10**20}))["big"] == 10**20


def test_an_indented_answer_is_drf_s() -> None:
    value = {"a": [1, {"b": None}]}
    context = {"indent": 4}
    assert FAST.render(value, "application/json", context) == DRF.render(
        value, "application/json", context
    )
    assert FAST.render(value, "application/json; indent=2") == DRF.render(
        value, "application/json; indent=2"
    )
    assert b"\n" in FAST.render(value, "application/json", context)


def test_nothing_is_an_empty_body() -> None:
    assert FAST.render(None) == b"" == DRF.render(None)


def test_an_object_neither_can_write_is_refused_alike() -> None:
    for renderer in (FAST, DRF):
        try:
            renderer.render({"x": object()})
        except TypeError:
            continue
        raise AssertionError(f"{renderer} wrote an object")


@pytest.mark.django_db
def test_the_answers_to_a_game_s_moves_and_reads_need_no_fallback(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Anything orjson refuses (a key that is a TextChoices member, say) is written by DRF's
    # renderer, right but ten times slower: the answers read and written most must not need it.
    # (Bodies are sent as text: the test client would encode them with DRF's renderer.)
    def refused(*args: Any, **kwargs: Any) -> bytes:
        raise AssertionError("DRF's renderer was needed")

    def post(path: str, body: dict[str, Any]) -> Any:
        return api.post(path, json.dumps(body), content_type="application/json")

    monkeypatch.setattr(drf.JSONRenderer, "render", refused)
    pawns = [colour + str(spots) for colour in "BRYG" for spots in range(1, 5)]
    layout = {f"C{i + 1}": pawn for i, pawn in enumerate(pawns)}
    game = post("/api/v1/games/", {"kind": "scarney-solitaire", "seats": [{"name": "Ann"}]})
    assert game.status_code == 201
    path = f"/api/v1/games/{game.json()['id']}"
    moves = [("board.laid_out", {"position": layout}), ("pawn.taken_off", {"circle": "C1"})]
    for version, (type, data) in enumerate(moves, start=1):
        body = {"id": str(uuid.uuid4()), "type": type, "data": data, "expected_version": version}
        answer = post(f"{path}/events/", body)
        assert answer.status_code == 201 and answer.json()["game"]["version"] == version + 1
    for read in (path + "/", path + "/events/", "/api/v1/games/", "/api/v1/matches/"):
        assert api.get(read).status_code == 200
    refusal = post(f"{path}/events/", {"id": str(uuid.uuid4()), "type": "pawn.jumped"})
    assert refusal.status_code == 422 and refusal.json()["code"]
