"""The page's move endpoint without a browser: every refusal is a sentence, never a 500."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.play import services
from games.store.models import Event


@pytest.fixture
def game(user: Any) -> Any:
    return services.game_start(kind="scarney-3000", seats=[{"name": "A"}, {"name": "B"}], user=user)


def move(client: Client, game: Any, **fields: Any) -> Any:
    body = {
        "id": str(uuid.uuid4()),
        "type": "dice.thrown",
        "payload": json.dumps({"faces": ["D", "D", "D", "1", "1"]}),
        "expected_version": "1",
        **fields,
    }
    return client.post(f"/games/{game.pk}/moves/", body)


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_move_is_recorded_once_however_often_it_is_sent(user: Any, game: Any) -> None:
    client = logged_in(user)
    event_id = str(uuid.uuid4())
    assert move(client, game, id=event_id).status_code == 201
    again = move(client, game, id=event_id)
    assert again.status_code == 200
    assert again["X-Table-Version"] == "2"
    assert Event.objects.filter(stream=game.pk, type="dice.thrown").count() == 1


@pytest.mark.parametrize(
    ("fields", "status", "sentence"),
    [
        ({"payload": "[1, 2"}, 400, "could not be read"),
        ({"id": "not-a-uuid"}, 400, "could not be read"),
        ({"payload": json.dumps({"faces": ["7"]})}, 422, "not a face"),
        ({"expected_version": "5"}, 409, "Another device recorded a move first"),
        ({"type": "game.started"}, 422, "recorded by the service"),
    ],
)
def test_a_refused_move_answers_the_table_with_the_sentence(
    user: Any, game: Any, fields: dict[str, str], status: int, sentence: str
) -> None:
    answer = move(logged_in(user), game, **fields)
    assert answer.status_code == status
    assert sentence in answer.content.decode()
    assert 'data-role="status"' in answer.content.decode()


def test_only_the_games_recorders_may_move_and_a_visitor_is_asked_to_log_in(
    user: Any, game: Any
) -> None:
    stranger = get_user_model().objects.create_user(username="stranger", password="x-pass-123")
    answer = move(logged_in(stranger), game)
    # a game in progress is not his to read, let alone to record in (as the API answers)
    assert answer.status_code == 403
    assert "not yours to follow" in answer.content.decode()
    assert 'data-role="status"' in answer.content.decode()
    assert move(Client(), game).status_code == 401
    assert Client().get(f"/games/{game.pk}/").status_code == 401
    assert Client().get(f"/games/{uuid.uuid4()}/").status_code == 404
