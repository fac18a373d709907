"""The game JSON (API.md) shows every game's view whole: no key of ``rules.view(state)`` is hidden
by one of the game JSON's own keys (``scores``, ``turn``, ``expected`` ...; GAMES.md)."""

from __future__ import annotations

import dataclasses
import json
import types
import uuid
from typing import Any

import pytest
from rest_framework.test import APIClient
from rest_framework.utils.encoders import JSONEncoder

from games.play.representation import game_json
from games.rules import registry
from games.store import folding
from games.store.models import Stream

pytestmark = pytest.mark.django_db

# A view may fill the game JSON's ``pot`` placeholder (a game with chips); no other generic key.
VIEW_MAY_FILL = {"pot"}


class _WithoutView:
    """A game's rules whose view is empty: what the game JSON gives of its own."""

    def __init__(self, rules: Any) -> None:
        self._rules = rules

    def view(self, state: Any) -> dict[str, Any]:
        return {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rules, name)


def generic_keys(folded: folding.Folded) -> set[str]:
    bare = types.SimpleNamespace(
        game_rules=_WithoutView(folded.game_rules),
        state=folded.state,
        header=folded.header,
        version=folded.version,
        scores_json=folded.scores_json,
        result=folded.result,
        turn=folded.turn,
        expected=folded.expected,
    )
    return set(game_json(bare, stream_id=uuid.uuid4(), status="in_progress"))  # type: ignore[arg-type]


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value, cls=JSONEncoder))


def ruleset_for(kind: str) -> dict[str, Any]:
    """A tarot module needs its base game (D-TAR-3); every other game starts on its defaults."""
    fields = {f.name for f in dataclasses.fields(registry.get(kind).ruleset_type)}
    return {"base_game": "scarto"} if "base_game" in fields else {}


def assert_view_whole(api: APIClient, game_id: str) -> dict[str, Any]:
    answer = api.get(f"/api/v1/games/{game_id}/")
    assert answer.status_code == 200, answer.json()
    shown = answer.json()
    folded = folding.load(Stream.objects.get(pk=game_id))
    view = as_json(folded.game_rules.view(folded.state))
    clashes = set(view) & (generic_keys(folded) - VIEW_MAY_FILL)
    assert not clashes, f"{folded.header['kind']}: view keys {sorted(clashes)} are the JSON's own"
    for key, value in view.items():
        assert key in shown and shown[key] == value, f"{folded.header['kind']}: view key {key!r}"
    return shown  # type: ignore[no-any-return]


KINDS = registry.kinds()


@pytest.mark.parametrize("kind", KINDS)
def test_no_key_of_the_view_is_overwritten_in_the_game_json(api: APIClient, kind: str) -> None:
    rules = registry.get(kind)
    body = {
        "kind": kind,
        "seats": [{"name": f"View {kind} {seat}"} for seat in range(rules.min_seats)],
        "ruleset": ruleset_for(kind),
    }
    answer = api.post("/api/v1/games/", body, format="json")
    assert answer.status_code == 201, answer.json()
    game = assert_view_whole(api, answer.json()["id"])
    # A few legal moves on, where the game lists them (board and card games).
    for _ in range(6):
        if not game["legal_events"]:
            break
        move = game["legal_events"][len(game["legal_events"]) // 2]
        event = {"id": str(uuid.uuid4()), "type": move["type"], "data": move["data"]}
        recorded = api.post(f"/api/v1/games/{game['id']}/events/", event, format="json")
        assert recorded.status_code == 201, recorded.json()
        game = assert_view_whole(api, game["id"])
