"""A director's webhook, and one delivery of one event to it.

Neither is an event: a webhook is configuration (deactivated, never deleted, so its deliveries
stay listed) and a delivery is the state of a side effect, like an outbox row.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models

# The event types a webhook may subscribe to (API.md "Webhooks").
EVENT_TYPES = ("match.settled", "game.finished", "round.paired")


def all_event_types() -> list[str]:
    return list(EVENT_TYPES)


class Webhook(models.Model):
    """A URL the subscribed events are POSTed to, signed with its secret."""

    url = models.CharField(max_length=2000)
    # HMAC-SHA256 key of the signature header: shown once, when the webhook is registered.
    secret = models.CharField(max_length=64, editable=False)
    events = models.JSONField(default=all_event_types)
    active = models.BooleanField(default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)
    deactivated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return self.url


class Delivery(models.Model):
    """One event for one webhook: pending until a 2xx answer, failed after the last attempt."""

    class Status(models.TextChoices):
        PENDING = "pending"
        DELIVERED = "delivered"
        FAILED = "failed"

    # Sent as X-Scarney-Delivery: a receiver drops a delivery it has seen.
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    webhook = models.ForeignKey(Webhook, on_delete=models.PROTECT, related_name="deliveries")
    event = models.ForeignKey("games.Event", on_delete=models.PROTECT, related_name="+")
    type = models.CharField(max_length=60)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    last_status_code = models.PositiveIntegerField(null=True, blank=True)
    last_error = models.TextField(blank=True, default="")
    # While pending: the next attempt is due then (an attempt under way holds it a lease ahead).
    next_attempt_at = models.DateTimeField()
    delivered_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-event_id"]
        constraints = [
            models.UniqueConstraint(fields=["webhook", "event"], name="delivery_once_per_event"),
        ]
        indexes = [models.Index(fields=["webhook", "created_at"], name="delivery_of_webhook")]

    def __str__(self) -> str:
        return f"{self.type} to webhook {self.webhook_id}: {self.status}"
