"""A client generated from the live schema by openapi-python-client reads and writes typed.

The client is generated at test time from ``/api/schema/`` of a gunicorn on the test database.
Through it a director records a game of every family move by move (a layout, Scarnie's and a
tarot hand's deal, the legal moves, throws of the dice in the cup, a stand), and reads each back
with its events, a match's history, a player's stats, a tournament's standings and every PDF
export (as bytes). Every answer parses into the generated models with no exception, and nothing
in it is left untyped: no plain dict anywhere in a parsed answer and no ``additional_properties``
beyond a map's typed values (``tests/games/api/test_schema_headers.py`` reads the text answers
the same way).
"""

from __future__ import annotations

import importlib
import json
import random
import re
import sys
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import attrs
import pytest
from django.utils import timezone

from games.rules import registry
from games.rules.tarot import cards
from games.store.models import Stream
from scoring import tasks
from tests.api_seed import seed
from tests.games.api import test_schema_headers as shared

# The live server, its documents' folder, the token and the generated client, as the text
# answers' test makes them.
media = shared.media
server = shared.server
generated_client = shared.generated_client
issued_token = shared.issued_token

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

PAWNS = [colour + str(spots) for colour in "BRYG" for spots in range(1, 5)]
# A game of every family, recorded through the client: its seats and house rules.
RECORDED: dict[str, tuple[list[str], dict[str, Any]]] = {
    "scarney-solitaire": (["Ann"], {}),
    "high-low-scarney": (["Ann", "Bob"], {}),
    "scarnie": (["Ann", "Bob"], {}),
    "going-to-boston": (["Ann", "Bob"], {}),
    "hearts-due": (["Ann", "Bob", "Cid"], {}),
    "straight-scarney-dice": (["Ann", "Bob"], {}),
    "scarney-3000": (["Ann", "Bob"], {}),
    "scarney-put-and-take": (["Ann", "Bob", "Cid"], {}),
    "tontine": (["Ann", "Bob", "Cid", "Dan"], {"base_game": "tarocchi"}),
}


def untyped(value: Any, path: str = "") -> list[str]:
    """Where a parsed answer holds something the schema left untyped: a plain dict, or a model's
    ``additional_properties`` holding dicts (a map's values are typed models or scalars)."""
    found: list[str] = []
    if isinstance(value, dict):
        return [path or "(top)"]
    if isinstance(value, list):
        for index, item in enumerate(value):
            found += untyped(item, f"{path}[{index}]")
        return found
    if attrs.has(type(value)):
        for field in attrs.fields(type(value)):
            item = getattr(value, field.name)
            if field.name == "additional_properties":
                for key, member in item.items():
                    found += untyped(member, f"{path}.{key}")
            else:
                found += untyped(item, f"{path}.{field.name}")
    return found


class Typed:
    """The generated client's operations by module name, each answer checked as it parses."""

    def __init__(self, package: str, client: Any) -> None:
        self.package = package
        self.client = client

    def call(self, operation: str, **arguments: Any) -> Any:
        module = importlib.import_module(f"{self.package}.api.v1.{operation}")
        answer = module.sync_detailed(client=self.client, **arguments)
        assert answer.status_code < 300, (operation, answer.status_code, answer.content[:500])
        parsed = answer.parsed
        if not isinstance(parsed, str | bytes) and parsed is not None:
            assert not untyped(parsed), (operation, untyped(parsed)[:10])
        return parsed

    def model(self, name: str) -> Any:
        return getattr(importlib.import_module(f"{self.package}.models"), name)

    def record(self, game_id: str, version: int, type: str, data: dict[str, Any]) -> Any:
        """One move, as the client's typed body (the union member of its type)."""
        body = {"id": str(uuid.uuid4()), "type": type, "data": data, "expected_version": version}
        model = self.model(camel(type) + "EventRequest")
        return self.call(
            "v1_games_events_create", id=uuid.UUID(game_id), body=model.from_dict(body)
        )


def camel(name: str) -> str:
    return "".join(p.capitalize() for p in name.replace(".", "-").replace("_", "-").split("-"))


def next_move(game: Any, rng: random.Random) -> tuple[str, dict[str, Any]] | None:
    """The move a table would record next, read off the typed game (its legal moves, its dice)."""
    expected = list(game.expected)
    if not expected:
        return None
    legal = game.legal_events
    if legal:
        move = rng.choice(legal).to_dict()
        return move["type"], move.get("data", {})
    if "board.laid_out" in expected:
        pawns = rng.sample(PAWNS, 16)
        return "board.laid_out", {"position": {f"C{i + 1}": p for i, p in enumerate(pawns)}}
    dice = getattr(game, "dice", None)  # a dice game's view
    if "shooter.stood" in expected and getattr(dice, "may_stand", False) and rng.random() < 0.3:
        return "shooter.stood", {}
    if "round.anted" in expected:
        return "round.anted", {}
    if "deal.faced_up" in expected:  # Scarnie: seven pawns face up on each station in play
        colours = dict(zip(range(1, 29), rng.sample(["a"] * 20 + ["b"] * 8, 28), strict=True))
        numbers = rng.sample(range(1, 29), 28)
        # the typed house rules say how many stations are dealt
        dealt = 4 if game.ruleset.scarnie_fill_all_stations else len(game.seats)
        stations = {
            str(s): [
                {"position": p, "pawn": n, "colour": colours[n]}
                for p, n in enumerate(numbers[7 * s - 7 : 7 * s], start=1)
            ]
            for s in range(1, dealt + 1)
        }
        return "deal.faced_up", {"stations": stations}
    if "cards.dealt" in expected:  # a tarot hand: a hand a seat from a shuffle, the rest the talon
        pack = rng.sample(list(cards.PACK), len(cards.PACK))
        seats, size = len(game.seats), 12
        hands = [pack[s * size : (s + 1) * size] for s in range(seats)]
        return "cards.dealt", {"hands": hands, "talon": pack[seats * size :]}
    if "dice.thrown" in expected:
        faces = registry.get(game.kind).dice_faces  # type: ignore[attr-defined]
        return "dice.thrown", {"faces": [rng.choice(faces) for _ in range(dice.in_cup)]}
    return None


def served_schema(url: str) -> dict[str, Any]:
    asked = urllib.request.Request(
        f"{url}/api/schema/", headers={"Accept": "application/vnd.oai.openapi+json"}
    )
    with urllib.request.urlopen(asked, timeout=30) as served:
        return dict(json.load(served))


def path_names(path: str) -> list[str]:
    """The parameters of a path, ``{id}`` and the like, as the generated client names them."""
    return re.findall(r"\{(\w+)\}", path)


def test_a_generated_client_records_and_reads_every_family_typed(
    server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    director, token = issued_token("director")
    seeded = seed(director)
    tasks.nightly_report(timezone.localdate().isoformat())  # tonight's report, to download
    name = generated_client(server, tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    package = importlib.import_module(name)
    client = package.AuthenticatedClient(
        base_url=server, token=token, prefix="Token", raise_on_unexpected_status=True
    )
    rng = random.Random(26)
    try:
        with client:
            api = Typed(name, client)
            games: list[str] = []
            for kind, (names, ruleset) in RECORDED.items():
                # the body is the union member of its kind, typed with its seats and rules
                body = api.model(camel(kind) + "GameRequest").from_dict(
                    {"kind": kind, "seats": [{"name": n} for n in names], "ruleset": ruleset}
                )
                game = api.call("v1_games_create", body=body)
                moves = 0
                while (move := next_move(game, rng)) is not None and moves < 60:
                    recorded = api.record(str(game.id), game.version, *move)
                    game = api.call("v1_games_retrieve", id=game.id)
                    assert game.version == recorded.game.version, kind
                    moves += 1
                assert moves > 0, kind
                games.append(str(game.id))
            kinds = set()
            for game_id in games:
                game = api.call("v1_games_retrieve", id=uuid.UUID(game_id))
                assert game.version > 1, (game.kind, "no move recorded")
                kinds.add(game.kind)
                events = api.call("v1_games_events_retrieve", id=uuid.UUID(game_id))
                assert events.results and all(e.to_dict()["type"] for e in events.results)
            families = {type(registry.get(k)).__module__.split(".")[2] for k in kinds}
            assert families == set(registry.FAMILIES), families
            api.call("v1_matches_history_retrieve", id=seeded.match)
            api.call("v1_matches_retrieve", id=seeded.match)
            api.call("v1_players_stats_retrieve", id=seeded.player)
            api.call("v1_players_history_retrieve", id=seeded.player)
            api.call("v1_tournaments_standings_retrieve", id=seeded.tournament)
            api.call("v1_tournaments_rounds_retrieve", id=seeded.tournament, number=1)
            api.call("v1_events_retrieve")
            # every binary export, as bytes: each operation answering a PDF, on the seeded rows
            values = shared.path_values(seeded)
            pdfs = [
                (path, operation["operationId"])
                for path, _method, operation in shared.operations(served_schema(server), "get")
                if "application/pdf" in operation["responses"]["200"].get("content", {})
            ]
            # score sheet, standings, table cards, slip, nightly, the season's standings
            assert len(pdfs) == 6, pdfs
            for path, operation_id in pdfs:
                module = shared.module_of(operation_id)
                given = values.get(path.split("/")[3], {})
                pdf = api.call(module, **{key: given[key] for key in path_names(path)})
                assert pdf.payload.read().startswith(b"%PDF"), path
    finally:
        for loaded in [m for m in sys.modules if m == name or m.startswith(f"{name}.")]:
            del sys.modules[loaded]
    assert Stream.objects.filter(pk__in=[uuid.UUID(g) for g in games]).count() == len(games)
