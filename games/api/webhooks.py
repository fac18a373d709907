"""The webhook endpoints (API.md "Webhooks"), for directors: register, list, deactivate, and
each webhook's deliveries with their status. Views parse and answer; the services check who."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import permissions as drf_permissions
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.http.query import QueryChecked, bad_value
from games.api.request_bodies import Text
from games.store.canonical import BadValue
from games.webhooks import services
from games.webhooks.models import EVENT_TYPES, Delivery, Webhook

LIMIT_DEFAULT, LIMIT_MAX = 50, 200


# --- the schema's shapes ----------------------------------------------------------------------


class WebhookCreate(serializers.Serializer[Any]):
    # Not trimmed: the service refuses what is not an absolute URL (422).
    url = Text(
        help_text="An absolute http:// or https:// URL.", max_length=2000, trim_whitespace=False
    )
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=list(EVENT_TYPES)),
        required=False,
        help_text="The event types to deliver; all three when left out.",
    )


class DeliveryCounts(serializers.Serializer[Any]):
    pending = serializers.IntegerField()
    delivered = serializers.IntegerField()
    failed = serializers.IntegerField()


class WebhookAnswer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    url = serializers.CharField()
    events = serializers.ListField(child=serializers.ChoiceField(choices=list(EVENT_TYPES)))
    active = serializers.BooleanField()
    created_by = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    deactivated_at = serializers.DateTimeField(allow_null=True)
    deliveries = DeliveryCounts()


class WebhookCreated(WebhookAnswer):
    secret = serializers.CharField(help_text="The signing key: shown in this answer only.")


class WebhookPage(serializers.Serializer[Any]):
    results = WebhookAnswer(many=True)


class DeliveredEvent(serializers.Serializer[Any]):
    id = serializers.UUIDField()
    position = serializers.IntegerField()
    type = serializers.CharField()
    stream = serializers.UUIDField()
    version = serializers.IntegerField()


class DeliveryAnswer(serializers.Serializer[Any]):
    id = serializers.UUIDField(help_text="Sent as X-Scarney-Delivery.")
    event = DeliveredEvent()
    status = serializers.ChoiceField(choices=Delivery.Status.values)
    attempts = serializers.IntegerField()
    last_status_code = serializers.IntegerField(allow_null=True)
    last_error = serializers.CharField()
    next_attempt_at = serializers.DateTimeField(allow_null=True, help_text="Pending ones only.")
    delivered_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()


class DeliveryPage(serializers.Serializer[Any]):
    webhook = serializers.IntegerField()
    results = DeliveryAnswer(many=True)


# Their refusals (401/403 for all but directors, 422 for a registration) are documented by the
# schema hook (games/api/schema/openapi.py OWN_ERRORS), with the house's error shape.
# The routes take any segment as the id, so that a method they do not take is 405 whatever the
# id; one that is not a number names no webhook (404).
WEBHOOK_ID = OpenApiParameter("id", int, OpenApiParameter.PATH, description="The webhook's id.")
STATUS = OpenApiParameter(
    "status", str, enum=Delivery.Status.values, description="Only the deliveries of this status."
)
LIMIT = OpenApiParameter(
    "limit",
    {"type": "integer", "minimum": 1, "maximum": LIMIT_MAX},
    description=f"How many, newest first: 1 to {LIMIT_MAX} ({LIMIT_DEFAULT}).",
)


# --- the views --------------------------------------------------------------------------------


class WebhookList(QueryChecked, APIView):
    permission_classes = [drf_permissions.AllowAny]  # the services answer 401/403

    @extend_schema(operation_id="v1_webhooks_list", responses={200: WebhookPage})
    def get(self, request: Request) -> Response:
        """Every webhook, newest first, with its deliveries counted by status."""
        rows = services.webhook_list(user=request.user).select_related("created_by")
        return Response({"results": [webhook_json(row) for row in rows]})

    @extend_schema(
        request=WebhookCreate,
        responses={201: WebhookCreated},
        examples=[
            OpenApiExample(
                "Settlements only",
                value={"url": "https://club.example.org/scarney", "events": ["match.settled"]},
                request_only=True,
            )
        ],
    )
    def post(self, request: Request) -> Response:
        """Register a webhook; the answer carries its signing secret, shown this once."""
        if not isinstance(request.data, dict):
            raise BadValue("request.not_an_object", "The request body must be a JSON object.")
        webhook = services.webhook_create(spec=dict(request.data), user=request.user)
        answer = {**webhook_json(webhook, counts=_no_deliveries()), "secret": webhook.secret}
        return Response(answer, status=status.HTTP_201_CREATED)


class WebhookDetail(QueryChecked, APIView):
    permission_classes = [drf_permissions.AllowAny]

    @extend_schema(parameters=[WEBHOOK_ID], responses={200: WebhookAnswer})
    def get(self, request: Request, pk: str) -> Response:
        """One webhook (never its secret)."""
        return Response(webhook_json(_one(request, _webhook_id(pk))))

    @extend_schema(parameters=[WEBHOOK_ID], responses={200: WebhookAnswer})
    def delete(self, request: Request, pk: str) -> Response:
        """Deactivate the webhook: nothing more is delivered to it; it stays listed."""
        services.webhook_deactivate(webhook_id=_webhook_id(pk), user=request.user)
        return Response(webhook_json(_one(request, _webhook_id(pk))))


class WebhookDeliveries(QueryChecked, APIView):
    permission_classes = [drf_permissions.AllowAny]
    query_names = ("status", "limit")

    @extend_schema(parameters=[WEBHOOK_ID, STATUS, LIMIT], responses={200: DeliveryPage})
    def get(self, request: Request, pk: str) -> Response:
        """The webhook's deliveries, newest first, with their status and their last answer."""
        webhook, rows = services.deliveries_list(
            webhook_id=_webhook_id(pk),
            user=request.user,
            status=_status(request),
            limit=_limit(request),
        )
        return Response({"webhook": webhook.pk, "results": [delivery_json(d) for d in rows]})


# --- answers ----------------------------------------------------------------------------------


def webhook_json(webhook: Webhook, counts: dict[str, int] | None = None) -> dict[str, Any]:
    if counts is None:
        counts = {name: getattr(webhook, name) for name in Delivery.Status.values}
    return {
        "id": webhook.pk,
        "url": webhook.url,
        "events": webhook.events,
        "active": webhook.active,
        "created_by": webhook.created_by.get_username() if webhook.created_by else None,
        "created_at": _time(webhook.created_at),
        "deactivated_at": _time(webhook.deactivated_at),
        "deliveries": counts,
    }


def delivery_json(delivery: Delivery) -> dict[str, Any]:
    event = delivery.event
    pending = delivery.status == Delivery.Status.PENDING
    return {
        "id": str(delivery.pk),
        "event": {
            "id": str(event.id),
            "position": event.position,
            "type": delivery.type,
            "stream": str(event.stream_id),
            "version": event.version,
        },
        "status": delivery.status,
        "attempts": delivery.attempts,
        "last_status_code": delivery.last_status_code,
        "last_error": delivery.last_error,
        "next_attempt_at": _time(delivery.next_attempt_at) if pending else None,
        "delivered_at": _time(delivery.delivered_at),
        "created_at": _time(delivery.created_at),
    }


def _one(request: Request, pk: int) -> Webhook:
    """The webhook with its counts, by the same directors-only listing."""
    rows = services.webhook_list(user=request.user).select_related("created_by")
    return rows.get(pk=pk)


def _webhook_id(text: str) -> int:
    return int(text) if text.isascii() and text.isdigit() else 0


def _no_deliveries() -> dict[str, int]:
    return {name: 0 for name in Delivery.Status.values}


def _status(request: Request) -> str | None:
    value = request.query_params.get("status")
    if value is not None and value not in Delivery.Status.values:
        raise bad_value("status", f"one of {', '.join(Delivery.Status.values)}.")
    return value


def _limit(request: Request) -> int:
    text = request.query_params.get("limit")
    if text is None:
        return LIMIT_DEFAULT
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= LIMIT_MAX:
        raise bad_value("limit", f"a whole number from 1 to {LIMIT_MAX}.")
    return int(text)


def _time(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat().replace("+00:00", "Z")
