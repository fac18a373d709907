"""The OpenAPI schema's shared parts: the error shape every 4xx answers, the enums of game kinds,
match formats and event types, and a hook that documents each operation's 4xx answers.

Views declare their 200/201 answers; the errors are the same house shape everywhere
(``games/api/http/exceptions.py``), so :func:`add_error_responses` adds them to every operation by
what it can meet (a path id: 404; a write: 401/403/409/422; query parameters: 400), each with
the codes it may carry (docs/ERRORS.md lists them all), with real answers of those codes as
examples. It also gives the main request bodies and answers their examples, each at the operation
it was recorded from (games/api/schema/examples.py).
"""

from __future__ import annotations

import copy
from typing import Any

from drf_spectacular.utils import OpenApiParameter

from games.api.schema import declared, examples, headers
from games.rules import registry
from games.store.event_types import EVENT_TYPES

ERROR = {
    "type": "object",
    "description": "Every error: a stable dotted code, a sentence for a person, and data "
    "fields of the code (the API reference's list of error codes).",
    "properties": {
        "code": {"type": "string", "example": "query.unknown_parameter"},
        "detail": {"type": "string", "example": "Unknown query parameter staus."},
    },
    "required": ["code", "detail"],
    "additionalProperties": True,
}

# Status -> (when, the codes it carries).
ERRORS: dict[str, tuple[str, str]] = {
    "400": (
        "The request is malformed",
        "`request.malformed`, `request.invalid`, `request.not_an_object`, `request.too_large`, "
        "`request.bad_number`, `request.bad_text`, `request.bad_cursor`, `request.bad_seed`, "
        "`query.unknown_parameter`, `query.bad_value`",
    ),
    "401": (
        "No login (or a bad token)",
        "`request.not_authenticated`, `request.authentication_failed` (a bad token), "
        "`permission.login_required`",
    ),
    "403": (
        "Not allowed",
        "`request.permission_denied`, `permission.not_a_recorder`, `permission.director_only`, "
        "`permission.not_the_creator`",
    ),
    "404": ("No such thing, or not one you may see", "`not_found`"),
    "409": (
        "The stream moved on, or the event id was used",
        "`version.conflict` (with `current_version`), `event.id_reused`",
    ),
    "422": ("The rules forbid it", "the rules' codes, as the list of error codes gives them"),
    "429": ("Over the rate; `Retry-After` gives the seconds to wait", "`request.throttled`"),
}
WRITES = ("post", "put", "patch", "delete")
# Every write may meet it, wherever it is sent (games.api.http.authentication); no read does.
READ_ONLY_TOKEN = "`permission.read_only_token` (a read-only token's write)"

# Operations that refuse in their own words (games/webhooks/services.py: directors only, and a
# webhook's own checks), in place of the house's general 401/403/409/422: status -> (when, the
# codes). They never meet a stream, so no 409; only a registration is checked, so only it 422s.
DIRECTORS_ONLY = {
    "401": (
        "No login (or a bad token)",
        "`permission.login_required` (no login), `request.authentication_failed` (a bad token)",
    ),
    "403": ("Not a director", "`permission.director_only`"),
}
# A user's own tokens (games/access/services.py): a login, and his own token (404 else);
# a table code's browser is no account, and keeps none.
TOKENS_LOGIN = {
    "401": (
        "No login (or a bad token)",
        "`permission.login_required` (no login), `request.authentication_failed` (a bad token)",
    ),
    "403": ("A table code's browser keeps no token", "`permission.not_your_table`"),
}
TOKENS_WRITE = {
    **TOKENS_LOGIN,
    "403": (
        "A read-only token, or a table code's browser, makes and revokes no token",
        "`permission.read_only_token`, `permission.not_your_table`",
    ),
}
OWN_ERRORS: dict[str, dict[str, tuple[str, str]]] = {
    "get /api/v1/tokens/": TOKENS_LOGIN,
    "post /api/v1/tokens/": {
        **TOKENS_WRITE,
        "409": ("You have the most live tokens one may have", "`token.too_many`"),
        "422": (
            "The token cannot be made as asked",
            "`token.bad_expiry` (not in the future, or over 366 days away)",
        ),
    },
    "delete /api/v1/tokens/{id}/": TOKENS_WRITE,
    "get /api/v1/webhooks/": DIRECTORS_ONLY,
    "post /api/v1/webhooks/": {
        **DIRECTORS_ONLY,
        "422": (
            "The webhook cannot be registered as given",
            "`webhook.bad_url`, `webhook.bad_events`, `webhook.unknown_field`",
        ),
    },
    "get /api/v1/webhooks/{id}/": DIRECTORS_ONLY,
    "delete /api/v1/webhooks/{id}/": DIRECTORS_ONLY,
    "get /api/v1/webhooks/{id}/deliveries/": DIRECTORS_ONLY,
    # A kind that is not rated (scoring/ratings/reading.py): its own 404, readable by anyone.
    "get /api/v1/ratings/{kind}/": {
        "404": (
            "No such rated game kind",
            "`rating.unknown_kind` (not a game kind, or one played alone: solo Solitaire)",
        ),
    },
    "get /api/v1/events/": DIRECTORS_ONLY,
    "get /api/v1/events.ndjson": DIRECTORS_ONLY,
}


# What a path names below its row that has a code of its own when it is not there (404).
DROP_KEEPER = "`keeper.not_found` (the user named is no keeper here)"
NOT_THERE = {
    "delete /api/v1/games/{id}/keepers/{username}/": DROP_KEEPER,
    "delete /api/v1/matches/{id}/keepers/{username}/": DROP_KEEPER,
}


# Reads that need a login whatever they read (the feed, keepers, webhooks); every other GET is
# open to anyone for finished public rows (a game in progress answers 401 without a login).
NEEDS_LOGIN = ("/api/v1/events", "/api/v1/webhooks", "/api/v1/tokens")


def _readable_without_login(operation: dict[str, Any]) -> None:
    if "keepers" in operation.get("operationId", ""):
        return
    security = operation.setdefault("security", [])
    if {} not in security:
        security.append({})


def error_response(status: str, method: str = "get", operation: str = "") -> dict[str, Any]:
    """The answer of ``status`` at ``operation`` (``"post /api/v1/webhooks/"``): its codes, and
    real answers of them as examples (an operation's own refusals show only their own)."""
    when, codes = ERRORS[status]
    own = OWN_ERRORS.get(operation, {})
    body: dict[str, Any] = {"schema": {"$ref": "#/components/schemas/Error"}}
    if status in own:
        when, codes = own[status]
        shown = examples.errors_of(status, method, only=_alike(operation))
    else:
        shown = examples.errors_of(status, method, besides=OWN_ERRORS)
    if status == "404" and operation in NOT_THERE:
        codes = f"{codes}, {NOT_THERE[operation]}"
    if status == "403" and method in WRITES and "permission.read_only_token" not in codes:
        codes = f"{codes}, {READ_ONLY_TOKEN}"
    if shown:
        body["examples"] = shown
    return {"description": f"{when}: {codes}.", "content": {"application/json": body}}


def _alike(operation: str) -> list[str]:
    """The operations whose own refusals may show as ``operation``'s examples: the directors'
    (webhooks, the feed) each other's, a user's tokens only their own."""
    tokens = "/api/v1/tokens/" in operation
    return [other for other in OWN_ERRORS if ("/api/v1/tokens/" in other) == tokens]


# A request line over gunicorn's limit (limit_request_line, 4094 bytes) never reaches Django:
# gunicorn answers 414 in plain text. Said once for every operation.
URI_TOO_LONG = {
    "description": "The request line is too long (over 4094 bytes), said by the web server."
}


# Any request may meet a dropped database connection (games.api.http.exceptions): a read is run
# once more first. Said once for every operation.
DATABASE_UNAVAILABLE = {
    "description": "The database cannot be reached just now (a restart, a restore); "
    "`Retry-After` gives the seconds to wait: `service.database_unavailable`.",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
}


def statuses_of(path: str, method: str, operation: dict[str, Any]) -> list[str]:
    """The 4xx answers an operation can give."""
    found = ["400", "429"]  # every endpoint reads its query; every request is throttled
    own = OWN_ERRORS.get(f"{method} {path}")
    if own is not None:
        return sorted({*found, *own, *(["404"] if "{" in path else [])})
    if method in WRITES or path.startswith(("/api/v1/events", "/api/v1/games/{", "/api/v1/m")):
        found += ["401", "403"]
    if "{" in path:
        found.append("404")
    if method in WRITES:
        found += ["401", "403", "409", "422"]
    if path.endswith(("/pot/", "/analysis/")):
        found.append("422")  # pot.none, analysis.unavailable: the game has none
    return sorted(set(found))


def add_error_responses(result: dict[str, Any], generator: Any, **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: the Error component, the enums, every 4xx, and the
    recorded examples."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas["Error"] = copy.deepcopy(ERROR)
    result["components"].setdefault("examples", {}).update(examples.components())
    # Named by ENUM_NAME_OVERRIDES where a field uses them; listed even where none does.
    schemas.setdefault("GameKind", {"type": "string", "enum": registry.kinds()})
    schemas.setdefault("MatchFormat", {"type": "string", "enum": registry.formats()})
    schemas.setdefault("EventType", {"type": "string", "enum": sorted(EVENT_TYPES)})
    _seat_needs_player_or_name(schemas)
    _closed_bodies(schemas)
    declared.type_in(schemas)
    for path, methods in result.get("paths", {}).items():
        for method, operation in methods.items():
            responses = operation.setdefault("responses", {})
            for status in statuses_of(path, method, operation):
                responses.setdefault(status, error_response(status, method, f"{method} {path}"))
            _one_rendering(path, responses)
            _recorded_examples(f"{method} {path}", operation)
            responses.setdefault("414", URI_TOO_LONG)
            responses.setdefault("503", copy.deepcopy(DATABASE_UNAVAILABLE))
            if method == "get" and not path.startswith(NEEDS_LOGIN):
                _readable_without_login(operation)
    _named_lists(result)
    headers.document_headers(result)
    return result


def _named_lists(result: dict[str, Any]) -> None:
    """A 2xx answer that is a list of a component (a player's ratings) becomes a component of
    its own, ``<Item>List``: every JSON answer is a named component."""
    schemas = result["components"]["schemas"]
    for methods in result.get("paths", {}).values():
        for operation in methods.values():
            for status, answer in operation.get("responses", {}).items():
                body = answer.get("content", {}).get("application/json")
                schema = body.get("schema", {}) if body and status.startswith("2") else {}
                item = schema.get("items", {}).get("$ref", "")
                if schema.get("type") == "array" and item.startswith("#/components/schemas/"):
                    name = item.rsplit("/", 1)[-1] + "List"
                    schemas.setdefault(name, schema)
                    body["schema"] = {"$ref": f"#/components/schemas/{name}"}


RENDERINGS = {"csv": "text/csv", "html": "text/html", "pdf": "application/pdf"}


def _one_rendering(path: str, responses: dict[str, Any]) -> None:
    """A printed document's path answers the one format its name ends with (one view serves
    ``score-sheet.csv``, ``.html`` and ``.pdf``, so its 200 first lists all three)."""
    media = RENDERINGS.get(path.rsplit(".", 1)[-1]) if "." in path.rsplit("/", 1)[-1] else None
    content = responses.get("200", {}).get("content", {})
    if media in content:
        responses["200"]["content"] = {media: content[media]}


def _recorded_examples(where: str, operation: dict[str, Any]) -> None:
    """The request bodies and answers recorded at this operation (games/api/schema/examples.py)."""
    bodies = [(None, operation.get("requestBody", {}))]
    bodies += list(operation.get("responses", {}).items())
    for status, body in bodies:
        media = body.get("content", {}).get("application/json")
        shown = examples.at(where, status)
        if media is not None and shown:
            media.setdefault("examples", {}).update(shown)


def _seat_needs_player_or_name(schemas: dict[str, Any]) -> None:
    """A seat names a player by id, member number or name (games/api/request_bodies.py SeatSpec)."""
    seat = schemas.get("SeatSpecRequest")
    if seat is not None:
        seat["anyOf"] = [
            {"required": ["player"], "properties": {"player": {"type": "integer"}}},
            {"required": ["name"], "properties": {"name": {"type": "string", "minLength": 1}}},
            {
                "required": ["member_number"],
                "properties": {"member_number": {"type": "string", "minLength": 1}},
            },
        ]


# The request bodies that take their own fields only (games.api.request_bodies.Closed).
CLOSED = (
    "SeatSpec",
    "GameCreate",
    "EventCreate",
    "MatchCreate",
    "KeeperAdd",
    "PlayerCreate",
    "PlayerMerge",
    "TournamentCreate",
    "EntryCreate",
    "RoundCreate",
    "KeeperAssign",
    "TokenCreate",
    "SeasonCreate",
    "SeasonCounting",
    "SeasonTournamentAdd",
    "SeasonClose",
)


def _closed_bodies(schemas: dict[str, Any]) -> None:
    for name in CLOSED:
        body = schemas.get(f"{name}Request")
        if body is not None:
            body["additionalProperties"] = False


def filter_parameters(filterset_class: Any) -> list[OpenApiParameter]:
    """The query parameters of a FilterSet, typed, with their choices as enums."""
    parameters = []
    for name, query_filter in filterset_class.base_filters.items():
        choices = query_filter.extra.get("choices")
        if callable(choices):
            choices = choices()
        schema = dict(FILTER_TYPES.get(type(query_filter).__name__, {"type": "string"}))
        if schema["type"] == "string":
            schema["minLength"] = 1  # an empty value is refused (query.bad_value)
        if choices:
            schema["enum"] = [value for value, _label in choices]
        for bound, key in (("minimum", "min_value"), ("maximum", "max_value")):
            if key in query_filter.extra:
                schema[bound] = query_filter.extra[key]
        description = str(query_filter.extra.get("help_text", ""))
        parameters.append(OpenApiParameter(name, schema, description=description))
    return parameters


FILTER_TYPES: dict[str, dict[str, Any]] = {
    "IntegerFilter": {"type": "integer"},
    "UUIDFilter": {"type": "string", "format": "uuid"},
    "DateFilter": {"type": "string", "format": "date"},
}
