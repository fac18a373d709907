"""Starting a game or a match: the published schema bounds each kind's (format's) body as its
rules do, so a client that checks a body before sending refuses what the server would refuse for
its shape; the server still refuses the same bodies, with the rules' codes.

"Refused locally" rests on a client that validates the request body against the schema's
component, as a generated client in a validating language does (or ``jsonschema`` here, with
OpenAPI 3.0's ``nullable`` read as JSON Schema's ``null``). openapi-python-client does not
check ``minItems``/``maxItems`` itself: its models type the body (one model per kind, its own
house rules and setup as models of their fields, which
tests/games/api/test_generated_client.py sends), and the bounds are the schema's to say.
"""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT4
from rest_framework.test import APIClient

from games.rules import registry
from tests.games.api.test_schema_examples import json_schema

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(anon: APIClient) -> dict[str, Any]:
    """The schema as the server publishes it (``/api/schema/``), as JSON Schema."""
    served = anon.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert served.status_code == 200
    return dict(json_schema(served.json()))


def client_check(schema: dict[str, Any], component: str, body: dict[str, Any]) -> list[str]:
    """What a validating client finds wrong with ``body`` before sending it (none: [])."""
    resource = Resource(contents=schema, specification=DRAFT4)
    validator = jsonschema.Draft4Validator(
        {"$ref": f"urn:api#/components/schemas/{component}"},
        registry=Registry().with_resource("urn:api", resource),
    )
    return [error.message for error in validator.iter_errors(body)]


def seats(count: int) -> list[dict[str, str]]:
    return [{"name": f"Player {n}"} for n in range(count)]


def named_rules(rules: Any) -> dict[str, Any]:
    """The house rules a kind cannot start without: a tarot game names its base game."""
    fields = rules.ruleset_type.__dataclass_fields__
    return {"base_game": "tarocchi"} if "base_game" in fields else {}


def refused(api: APIClient, path: str, body: dict[str, Any]) -> tuple[int, str]:
    answer = api.post(path, body, format="json")
    assert 400 <= answer.status_code < 500, (body, answer.status_code)
    return answer.status_code, answer.json()["code"]


def test_each_kind_is_a_member_with_its_own_seats_rules_and_setup(published: Any) -> None:
    schemas = published["components"]["schemas"]
    union = schemas["GameCreateRequest"]
    assert union["discriminator"]["propertyName"] == "kind"
    assert set(union["discriminator"]["mapping"]) == set(registry.kinds())
    for kind in registry.kinds():
        rules = registry.get(kind)
        member = schemas[union["discriminator"]["mapping"][kind].rsplit("/", 1)[-1]]
        assert member["properties"]["kind"]["enum"] == [kind]
        bounds = member["properties"]["seats"]
        assert (bounds["minItems"], bounds["maxItems"]) == (rules.min_seats, rules.max_seats)
        assert set(member["properties"]["setup"]["properties"]) == set(rules.setup_shape.fields)
    union = schemas["MatchCreateRequest"]
    assert set(union["discriminator"]["mapping"]) == set(registry.formats())
    for name in registry.formats():
        rules = registry.match_rules(name)
        member = schemas[union["discriminator"]["mapping"][name].rsplit("/", 1)[-1]]
        bounds = member["properties"]["players"]
        assert (bounds["minItems"], bounds["maxItems"]) == (rules.min_seats, rules.max_seats)


def test_a_client_refuses_the_seats_a_kind_does_not_take_and_so_does_the_server(
    published: Any, api: APIClient
) -> None:
    check = "GameCreateRequest"
    none_for_scarnie = {"kind": "scarnie", "seats": []}
    assert client_check(published, check, none_for_scarnie)
    assert refused(api, "/api/v1/games/", none_for_scarnie) == (422, "game.bad_seats")
    for kind in registry.kinds():
        rules = registry.get(kind)
        ruleset = named_rules(rules)
        fewest = {"kind": kind, "seats": seats(rules.min_seats), "ruleset": ruleset}
        assert not client_check(published, check, fewest), kind
        too_many = {"kind": kind, "seats": seats(rules.max_seats + 1), "ruleset": ruleset}
        assert client_check(published, check, too_many), kind
        status, code = refused(api, "/api/v1/games/", too_many)
        # More than any kind takes is no game's body (400); within that, the kind's rules say.
        assert (status, code) in {(422, "game.bad_seats"), (400, "request.invalid")}, kind


def test_a_client_refuses_another_kinds_house_rules(published: Any, api: APIClient) -> None:
    body = {"kind": "scarnie", "seats": seats(2), "ruleset": {"hearts_due_target": 50}}
    assert client_check(published, "GameCreateRequest", body)
    assert refused(api, "/api/v1/games/", body) == (422, "ruleset.unknown_parameter")
    body = {"kind": "scarnie", "seats": seats(2), "setup": {"first_shooter": 0}}
    assert client_check(published, "GameCreateRequest", body)
    assert refused(api, "/api/v1/games/", body) == (422, "setup.unknown_key")


def test_a_client_refuses_the_players_a_format_does_not_take_and_so_does_the_server(
    published: Any, api: APIClient
) -> None:
    check = "MatchCreateRequest"
    for name in registry.formats():
        rules = registry.match_rules(name)
        ruleset = named_rules(rules)
        for count in (rules.min_seats - 1, rules.max_seats + 1):
            body = {"format": name, "players": seats(count), "ruleset": ruleset}
            assert client_check(published, check, body), (name, count)
            status, code = refused(api, "/api/v1/matches/", body)
            assert (status, code) in {(422, "match.bad_seats"), (400, "request.invalid")}, (
                name,
                count,
                code,
            )
        fewest = {"format": name, "players": seats(rules.min_seats), "ruleset": ruleset}
        assert not client_check(published, check, fewest), name


@pytest.mark.parametrize(
    "path, component, body",
    [
        ("/api/v1/matches/", "MatchCreateRequest", {"format": "scarney-solitaire"}),
        ("/api/v1/games/", "GameCreateRequest", {"kind": "scarney-solitaire"}),
    ],
)
def test_a_name_that_is_a_number_is_refused_as_the_schema_refuses_it(
    published: Any, api: APIClient, path: str, component: str, body: dict[str, Any]
) -> None:
    # a seat's name is text: the number 0 is not the name "0" (the server once made it so)
    key = "players" if component == "MatchCreateRequest" else "seats"
    for seat in ({"name": 0}, {"player": "1"}, {"player": True}):  # nor a player id as text
        sent = {**body, key: [seat]}
        assert client_check(published, component, sent)
        assert refused(api, path, sent) == (400, "request.invalid")
