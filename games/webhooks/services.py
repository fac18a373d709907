"""Webhook services: register, list and deactivate webhooks (directors), and register the
deliveries of an appended event (the event store's append calls ``deliveries_register``)."""

from __future__ import annotations

import secrets
from typing import Any
from urllib.parse import urlsplit

from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from games.play import permissions
from games.rules.errors import IllegalEvent
from games.store import outbox
from games.store.canonical import BadValue
from games.store.journal import StoredEvent
from games.webhooks import sending
from games.webhooks.models import EVENT_TYPES, Delivery, Webhook

FIELDS = frozenset({"url", "events"})
MAX_URL = 2000


# --- webhooks ---------------------------------------------------------------------------------


def webhook_create(*, spec: Any, user: Any) -> Webhook:
    """Register a webhook from ``{"url", "events"?}``; the answer is the one to show its secret."""
    permissions.check_director(user)
    if not isinstance(spec, dict):
        raise BadValue("request.not_an_object", "The request body must be a JSON object.")
    unknown = sorted(set(spec) - FIELDS)
    if unknown:
        raise IllegalEvent(
            "webhook.unknown_field",
            f"A webhook takes url and events, not {', '.join(map(str, unknown))}.",
            fields=unknown,
        )
    return Webhook.objects.create(
        url=_checked_url(spec.get("url")),
        events=_checked_events(spec.get("events", list(EVENT_TYPES))),
        secret=secrets.token_hex(32),
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )


def webhook_list(*, user: Any) -> QuerySet[Webhook]:
    """Every webhook, newest first, with its deliveries counted by status."""
    permissions.check_director(user)
    counts = {
        status: Count("deliveries", filter=Q(deliveries__status=status))
        for status in Delivery.Status.values
    }
    return Webhook.objects.annotate(**counts).order_by("-id")


def webhook_deactivate(*, webhook_id: int, user: Any) -> Webhook:
    """Stop delivering to a webhook (its pending deliveries fail at their next attempt)."""
    permissions.check_director(user)
    webhook = Webhook.objects.get(pk=webhook_id)
    if webhook.active:
        webhook.active = False
        webhook.deactivated_at = timezone.now()
        webhook.save(update_fields=["active", "deactivated_at"])
    return webhook


def deliveries_list(
    *, webhook_id: int, user: Any, status: str | None, limit: int
) -> tuple[Webhook, list[Delivery]]:
    """A webhook's deliveries, newest first, optionally of one status."""
    permissions.check_director(user)
    webhook = Webhook.objects.get(pk=webhook_id)
    rows = Delivery.objects.filter(webhook=webhook).select_related("event")
    if status is not None:
        rows = rows.filter(status=status)
    return webhook, list(rows.order_by("-created_at", "-event_id")[:limit])


def _checked_url(url: Any) -> str:
    """An absolute http(s) URL with a host; anything else is refused, whatever its scheme."""
    refused = IllegalEvent(
        "webhook.bad_url",
        "A webhook's url is an absolute http:// or https:// URL with a host, at most "
        f"{MAX_URL} characters.",
    )
    if not isinstance(url, str) or not url or len(url) > MAX_URL:
        raise refused
    if any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in url):
        raise refused
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (a port that is not a number raises here)
    except ValueError:
        raise refused from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise refused
    return url


def _checked_events(events: Any) -> list[str]:
    """A non-empty list of the event types webhooks carry, each once, in the house order."""
    if not isinstance(events, list) or not events:
        raise IllegalEvent(
            "webhook.bad_events",
            f"events is a non-empty list of {', '.join(EVENT_TYPES)}.",
        )
    unknown = [e for e in events if e not in EVENT_TYPES]
    if unknown:
        raise IllegalEvent(
            "webhook.bad_events",
            f"Webhooks carry {', '.join(EVENT_TYPES)}; not {', '.join(map(str, unknown))}.",
            unknown=[str(e) for e in unknown],
        )
    return [e for e in EVENT_TYPES if e in events]


# --- deliveries -------------------------------------------------------------------------------


def deliveries_register(event: StoredEvent) -> int:
    """One delivery per active webhook subscribed to the event's type, sent once this
    transaction commits (the appending one); the number registered."""
    if event.type not in EVENT_TYPES:
        return 0
    now = timezone.now()
    made = 0
    for webhook_id, events in Webhook.objects.filter(active=True).values_list("id", "events"):
        if event.type not in events:
            continue
        delivery = Delivery.objects.create(
            webhook_id=webhook_id,
            event_id=event.position,
            type=event.type,
            next_attempt_at=now,
        )
        outbox.register(sending.TASK, [str(delivery.pk)], key=sending.outbox_key(delivery.pk))
        made += 1
    return made
