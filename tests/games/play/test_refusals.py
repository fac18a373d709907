"""One refusal mapping (games.play.refusals) for every face: the API answers it, the pages and
the admin show its sentence."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.messages.storage.fallback import FallbackStorage
from django.test import RequestFactory

from games.admin.base import refusals
from games.api.http.exceptions import api_exception_handler
from games.play.permissions import NotPermitted
from games.play.refusals import REFUSED, Refusal, refusal_of
from games.rules.errors import IllegalEvent, StateConflict
from games.store.canonical import BadValue
from games.store.journal import EventIdReused, VersionConflict

EVENT_ID = uuid.UUID("00000000-0000-0000-0000-000000003039")

CASES = [
    (
        IllegalEvent("jump.same_colour", "R1 cannot jump B2.", pawn="R1"),
        Refusal(422, "jump.same_colour", "R1 cannot jump B2.", {"pawn": "R1"}),
    ),
    (
        StateConflict("round.unfinished", "Table 2 still plays."),
        Refusal(409, "round.unfinished", "Table 2 still plays."),
    ),
    (
        NotPermitted("permission.login_required", "Log in to record."),
        Refusal(401, "permission.login_required", "Log in to record."),
    ),
    (
        NotPermitted("permission.not_a_recorder", "You do not keep this game."),
        Refusal(403, "permission.not_a_recorder", "You do not keep this game."),
    ),
    (
        VersionConflict(7),
        Refusal(
            409,
            "version.conflict",
            "The stream moved on: it is at version 7.",
            {"current_version": 7},
        ),
    ),
    (
        EventIdReused(EVENT_ID),
        Refusal(
            409,
            "event.id_reused",
            f"Event id {EVENT_ID} was already used for a different event.",
            {"id": str(EVENT_ID)},
        ),
    ),
    (
        BadValue("request.bad_number", "Numbers must be finite."),
        Refusal(400, "request.bad_number", "Numbers must be finite."),
    ),
]


@pytest.mark.parametrize(("error", "expected"), CASES)
def test_each_refusal_has_one_status_code_and_sentence(error: Exception, expected: Refusal) -> None:
    assert isinstance(error, REFUSED)
    assert refusal_of(error) == expected


@pytest.mark.parametrize(("error", "expected"), CASES)
def test_the_api_answers_a_refusal_as_the_mapping_says(error: Exception, expected: Refusal) -> None:
    answer = api_exception_handler(error, {})
    assert answer is not None
    assert (answer.status_code, answer.data) == (expected.status, expected.answer())


@pytest.mark.parametrize(("error", "expected"), CASES)
def test_the_admin_shows_a_refusal_s_sentence(error: Exception, expected: Refusal) -> None:
    request: Any = RequestFactory().post("/admin/")
    request.session = {}
    request._messages = FallbackStorage(request)
    with refusals(request, prefix="Ann: ") as block:
        raise error
    assert block.refused
    assert [str(m) for m in request._messages] == [f"Ann: {expected.sentence}"]


def test_a_conflict_at_the_table_says_another_device_was_first() -> None:
    refused = refusal_of(VersionConflict(4), what="move")
    assert refused is not None and refused.status == 409
    assert refused.sentence.startswith("Another device recorded a move first")
    assert "version 4" in refused.sentence


def test_an_error_that_is_no_refusal_is_not_mapped_and_still_raises_in_the_admin() -> None:
    assert refusal_of(KeyError("seat")) is None
    request: Any = RequestFactory().post("/admin/")
    with pytest.raises(KeyError), refusals(request):
        raise KeyError("seat")
