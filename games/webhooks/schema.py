"""The webhook payload as a JSON Schema (OpenAPI 3.0 style), for the API's schema.

The payload is ``games.webhooks.sending.payload_json``: the event as the event lists show it
(``games.play.representation.event_json``) with its ``stream``. A plain dict, so the OpenAPI
document can take it as a component; tests/games/webhooks/test_webhooks.py validates a delivered
payload against it. ``data`` and ``meta`` are any object here; the API's schema types them by the
event's type (``WebhookPayload``, games/api/schema/declared.py).
"""

from __future__ import annotations

from typing import Any

from games.webhooks.models import EVENT_TYPES

WEBHOOK_PAYLOAD_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": (
        "The body POSTed to a webhook: the event as the event lists show it, with its stream. "
        "Signed in X-Scarney-Signature (the API reference, Webhooks)."
    ),
    "additionalProperties": False,
    "required": [
        "position",
        "id",
        "version",
        "type",
        "schema_version",
        "data",
        "meta",
        "recorded_at",
        "hash",
        "stream",
    ],
    "properties": {
        "position": {
            "type": "integer",
            "minimum": 1,
            "description": "The event's place in the all-stream feed.",
        },
        "id": {"type": "string", "format": "uuid", "description": "The event's id."},
        "version": {
            "type": "integer",
            "minimum": 1,
            "description": "The event's place in its stream.",
        },
        "type": {
            "type": "string",
            "enum": list(EVENT_TYPES),
            "description": "The event type, also sent as X-Scarney-Event.",
        },
        "schema_version": {
            "type": "integer",
            "minimum": 1,
            "description": "The version of the type's data schema.",
        },
        "data": {"type": "object", "description": "The event's data."},
        "meta": {
            "type": "object",
            "description": "Who recorded it (recorded_by) and the client's meta.",
        },
        "recorded_at": {
            "type": "string",
            "format": "date-time",
            "description": "When it was recorded (UTC, ending in Z).",
        },
        "hash": {
            "type": "string",
            "pattern": "^[0-9a-f]{64}$",
            "description": "The stream's chain hash up to this event (SHA-256, hex).",
        },
        "stream": {
            "type": "string",
            "format": "uuid",
            "description": "The stream the event belongs to (the match's or tournament's id).",
        },
    },
}
