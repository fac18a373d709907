"""The typed parts of the OpenAPI schema, made from the declarations beside the rules.

drf-spectacular describes the answers' common fields from games/api/schema/answers.py; what
differs by game kind or by event type is declared once in the rules (games/rules/shapes.py) and
put into the schema here, after drf-spectacular has made it:

- a game (``GameAnswer``) is one of a component per kind, discriminated by ``kind``: the common
  fields, the kind's house rules and its view, every field typed;
- an event's body (``EventCreateRequest``), an event as the lists show it (``EventAnswer``) and a
  legal move (``MoveAnswer``) are each one of a component per type, discriminated by ``type``,
  whose ``data`` is the type's declared data; ``meta`` is ``EventMeta`` with its known keys;
- starting a game (``GameCreateRequest``) or a match (``MatchCreateRequest``) is one of a
  component per kind (per format), discriminated by ``kind`` (``format``): each with the seats
  its rules take (``minItems``/``maxItems``), its own house rules and its own setup, so that a
  client that checks a body against the schema refuses what the rules refuse for its shape;
- the house rules of matches' answers and tournaments are any of the formats';
- an error (``Error``) carries the facts of games/play/refusals.py, each typed;
- every object of an answer is closed (``additionalProperties: false``): the answers carry exactly
  their fields, which schemathesis checks against the live server.
"""

from __future__ import annotations

import copy
from typing import Any

from games.play.refusals import FACTS
from games.rules import registry
from games.rules.events import SERVICE_ONLY
from games.rules.shapes import Number, Text, one_of, record, ruleset_shape
from games.store.event_types import EVENT_TYPES, META_FIELDS, declared
from games.tournaments.core.events import EVENT_SHAPES as TOURNAMENT_SHAPES
from games.tournaments.core.events import SERVICE_ONLY as TOURNAMENT_SERVICE_ONLY
from games.webhooks.models import EVENT_TYPES as WEBHOOK_TYPES
from games.webhooks.schema import WEBHOOK_PAYLOAD_SCHEMA

REF = "#/components/schemas/"
TOURNAMENT_TYPES = sorted(TOURNAMENT_SHAPES)


def camel(name: str) -> str:
    """``high-low-scarney`` -> ``HighLowScarney``; ``dice.thrown`` -> ``DiceThrown``."""
    return "".join(
        part.capitalize() for part in name.replace(".", "-").replace("_", "-").split("-")
    )


def recordable() -> list[str]:
    """The event types a client may record (the service writes the rest)."""
    reserved = SERVICE_ONLY | TOURNAMENT_SERVICE_ONLY
    return [name for name in EVENT_TYPES if name not in reserved]


def type_in(schemas: dict[str, Any]) -> None:
    """Put the declared shapes into drf-spectacular's components (its postprocessing hook)."""
    _event_data(schemas)
    _events(schemas)
    _tournament_events(schemas)
    _moves(schemas)
    _games(schemas)
    _game_bodies(schemas)
    _match_bodies(schemas)
    _rulesets_and_setups(schemas)
    _error(schemas)
    _match_games(schemas)
    _webhook_payload(schemas)
    for name, schema in schemas.items():
        if not name.endswith("Request"):
            _closed(schema)


def _event_data(schemas: dict[str, Any]) -> None:
    for name in EVENT_TYPES:
        shape = declared(name)
        assert shape is not None
        schemas[f"{camel(name)}Data"] = shape.schema()
    meta = record(
        "What the device said of the event, and who recorded it (the server adds ``recorded_by``).",
        optional=("client_time", "device", "note", "recorded_by"),
        client_time=one_of(
            Text(META_FIELDS["client_time"], doc="a time, as the device gives it"),
            Number(doc="a time in seconds since 1970"),
        ),
        device=Text(META_FIELDS["device"], doc="the device (also the X-Device header)"),
        note=Text(META_FIELDS["note"], doc="a note"),
    ).schema()
    meta["properties"]["recorded_by"] = {
        "type": "integer",
        "nullable": True,
        "description": "the recording user's id (in answers only)",
    }
    schemas["EventMeta"] = meta


def _union(by: str, members: dict[str, str], description: str) -> dict[str, Any]:
    return {
        "description": description,
        "oneOf": [{"$ref": REF + component} for component in members.values()],
        "discriminator": {
            "propertyName": by,
            "mapping": {value: REF + component for value, component in members.items()},
        },
    }


def _one_type(base: dict[str, Any], name: str) -> dict[str, Any]:
    schema = copy.deepcopy(base)
    schema.pop("discriminator", None)
    schema["properties"]["type"] = {"type": "string", "enum": [name]}
    schema["properties"]["data"] = {"$ref": f"{REF}{camel(name)}Data"}
    if "meta" in schema["properties"]:
        schema["properties"]["meta"] = {"$ref": REF + "EventMeta"}
    schema["description"] = declared(name).doc or name  # type: ignore[union-attr]
    return schema


def _events(schemas: dict[str, Any]) -> None:
    answer = schemas["EventAnswer"]
    members = {}
    for name in EVENT_TYPES:
        members[name] = f"{camel(name)}Event"
        schemas[members[name]] = _one_type(answer, name)
    schemas["EventAnswer"] = _union("type", members, answer.get("description", ""))
    body = schemas["EventCreateRequest"]
    members = {}
    for name in recordable():
        members[name] = f"{camel(name)}EventRequest"
        schemas[members[name]] = _one_type(body, name)
    schemas["EventCreateRequest"] = _union(
        "type", members, "A move: its type, and the data that type takes."
    )


def _tournament_events(schemas: dict[str, Any]) -> None:
    tournament = schemas["TournamentEvent"]
    members = {}
    for name in TOURNAMENT_TYPES:
        members[name] = f"{camel(name)}TournamentEvent"
        schemas[members[name]] = _one_type(tournament, name)
    schemas["TournamentEvent"] = _union("type", members, "A tournament's event.")


def _moves(schemas: dict[str, Any]) -> None:
    move = schemas["MoveAnswer"]
    members = {}
    for name in recordable():
        members[name] = f"{camel(name)}Move"
        schemas[members[name]] = _one_type(move, name)
    schemas["MoveAnswer"] = _union("type", members, "A legal move: a type and its data.")


def _games(schemas: dict[str, Any]) -> None:
    game = schemas["GameAnswer"]
    members = {}
    for kind in registry.kinds():
        rules = registry.get(kind)
        schema = copy.deepcopy(game)
        schema["description"] = f"A game of {rules.title}: the common fields and its view."
        properties = schema["properties"]
        properties["kind"] = {"type": "string", "enum": [kind]}
        properties["ruleset"] = ruleset_shape(rules.ruleset_type).schema()
        view = rules.view_shape.schema()
        properties.update(view["properties"])
        schema["required"] = sorted({*schema["required"], *view.get("required", [])})
        members[kind] = f"{camel(kind)}Game"
        schemas[members[kind]] = schema
    schemas["GameAnswer"] = _union("kind", members, game.get("description", ""))


def _member(
    body: dict[str, Any], by: str, value: str, rules: Any, seats: str, doc: str
) -> dict[str, Any]:
    """A body of one kind (or format): its ``by`` of one value, its ``seats`` field (seats or
    players) as many as its rules take (game.bad_seats), and its house rules."""
    schema = copy.deepcopy(body)
    properties = schema["properties"]
    properties[by] = {"type": "string", "enum": [value]}
    properties[seats] = {
        **properties[seats],
        "minItems": rules.min_seats,
        "maxItems": rules.max_seats,
        "description": doc,
    }
    properties["ruleset"] = ruleset_shape(rules.ruleset_type).schema()
    return schema


def _game_bodies(schemas: dict[str, Any]) -> None:
    """``POST /games/``: one body per kind, with its seats, house rules and setup."""
    body = schemas.get("GameCreateRequest")
    if body is None:
        return
    members = {}
    for kind in registry.kinds():
        rules = registry.get(kind)
        # Left out, the seats are a match's game's (its match seats its players); a game of no
        # match without them is refused by its rules (422 game.bad_seats). The schema does not
        # say "seats unless match" (an anyOf of requireds): generators type such a body as Any.
        seats = f"the seats, {rules.min_seats} to {rules.max_seats} (left out: the match's)"
        schema = _member(body, "kind", kind, rules, "seats", seats)
        schema["description"] = f"Start a game of {rules.title}."
        properties = schema["properties"]
        properties["ruleset"]["description"] = "the house rules of the kind"
        properties["setup"] = {**rules.setup_shape.schema(), "description": "the kind's setup"}
        members[kind] = f"{camel(kind)}GameRequest"
        schemas[members[kind]] = schema
    schemas["GameCreateRequest"] = _union(
        "kind", members, "Start a game: its kind, and the seats, house rules and setup it takes."
    )


def _match_bodies(schemas: dict[str, Any]) -> None:
    """``POST /matches/``: one body per format, with its players and house rules."""
    body = schemas.get("MatchCreateRequest")
    if body is None:
        return
    members = {}
    for name in registry.formats():
        rules = registry.match_rules(name)
        players = f"the players, {rules.min_seats} to {rules.max_seats}"
        schema = _member(body, "format", name, rules, "players", players)
        schema["description"] = f"Start a match of {registry.get(rules.kind).title}."
        properties = schema["properties"]
        properties["ruleset"]["description"] = "the format's house rules"
        properties["teams"]["items"] = {"type": "array", "items": {"type": "integer", "minimum": 0}}
        members[name] = f"{camel(name)}MatchRequest"
        schemas[members[name]] = schema
    schemas["MatchCreateRequest"] = _union(
        "format", members, "Start a match: its format, and the players and house rules it takes."
    )


def _rulesets_and_setups(schemas: dict[str, Any]) -> None:
    formats = [registry.match_rules(name) for name in registry.formats()]
    any_format_ruleset = _any_of([ruleset_shape(r.ruleset_type).schema() for r in formats])
    _set(schemas, "MatchAnswer", "ruleset", any_format_ruleset, "the effective house rules")
    _set(schemas, "TournamentCreateRequest", "ruleset", any_format_ruleset, "the matches' rules")
    layouts = declared("round.laid_out").fields["layouts"]  # type: ignore[union-attr]
    # A round not dealt (every round but a duplicate one's) shows no layout: none at least.
    any_layouts = {**layouts.schema(), "minItems": 0}
    _set(schemas, "RoundAnswer", "layouts", any_layouts, "a duplicate round's layouts, or none")


def _any_of(shapes: list[dict[str, Any]]) -> dict[str, Any]:
    distinct: list[dict[str, Any]] = []
    for shape in shapes:
        if shape not in distinct:
            distinct.append(shape)
    return distinct[0] if len(distinct) == 1 else {"anyOf": distinct}


def _set(
    schemas: dict[str, Any], component: str, field: str, schema: dict[str, Any], doc: str
) -> None:
    properties = schemas.get(component, {}).get("properties", {})
    if field in properties:
        nullable = properties[field].get("nullable")
        properties[field] = {
            **schema,
            "description": doc,
            **({"nullable": True} if nullable else {}),
        }


def _webhook_payload(schemas: dict[str, Any]) -> None:
    """The body POSTed to a webhook (docs/API.md "Webhooks"): one of a component per type a
    webhook may subscribe to, each the event as the lists show it with its ``stream``. OpenAPI
    3.0 has no ``webhooks`` section: the component documents it."""
    members = {}
    for name in WEBHOOK_TYPES:
        members[name] = f"{camel(name)}Delivery"
        schema = copy.deepcopy(WEBHOOK_PAYLOAD_SCHEMA)
        schema["properties"]["type"] = {"type": "string", "enum": [name]}
        schema["properties"]["data"] = {"$ref": f"{REF}{camel(name)}Data"}
        schema["properties"]["meta"] = {"$ref": REF + "EventMeta"}
        schemas[members[name]] = schema
    schemas["WebhookPayload"] = _union("type", members, WEBHOOK_PAYLOAD_SCHEMA["description"])


def _match_games(schemas: dict[str, Any]) -> None:
    """A match's game row: every format's common fields, and those some formats add from their
    games' reports (Straight's frames and pot, Manchester's hand sheet)."""
    for name in ("MatchGame", "HistoryGame"):
        _game_row(schemas[name]["properties"])
    history = schemas.get("HistoryRow", {}).get("properties", {})
    if "games" in history:
        history["games"] = {"type": "array", "items": {"$ref": REF + "MatchGame"}}


def _game_row(row: dict[str, Any]) -> None:
    row["winners"] = {"type": "array", "items": {"type": "integer", "minimum": 0}}
    straight = registry.get("straight-scarney-dice").report_shape  # type: ignore[attr-defined]
    row["pot"] = {**straight.fields["pot"].schema(), "nullable": True}
    row["big_scarney"] = straight.fields["big_scarney"].schema()
    row["frames"] = {
        "type": "array",
        "description": "Straight: each seat's frames, each [frame score, cumulative]",
        "items": {
            "type": "array",
            "items": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
        },
    }
    manchester = registry.get("manchester-truffle").report_shape  # type: ignore[attr-defined]
    sheet = manchester.schema()
    sheet["properties"].pop("dealer", None)
    sheet["required"] = [name for name in sheet.get("required", []) if name != "dealer"]
    row["hand_sheet"] = {**sheet, "nullable": True, "description": "Manchester: the hand's sheet"}


def _error(schemas: dict[str, Any]) -> None:
    error = schemas["Error"]
    for name, shape in FACTS.items():
        error["properties"][name] = shape.schema()
    error["additionalProperties"] = False


def _closed(schema: Any) -> None:
    """Every object with properties, at any depth, takes no others (answers are exact)."""
    if isinstance(schema, dict):
        if "properties" in schema and "additionalProperties" not in schema:
            schema["additionalProperties"] = False
        for value in schema.values():
            _closed(value)
    elif isinstance(schema, list):
        for value in schema:
            _closed(value)
