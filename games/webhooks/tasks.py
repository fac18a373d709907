"""Celery tasks of the webhooks: each takes a delivery's id and is safe to run twice."""

from __future__ import annotations

import uuid

from celery import shared_task

from games.webhooks import sending


@shared_task(name=sending.TASK)  # type: ignore[untyped-decorator]  # Celery is untyped
def deliver(delivery_id: str) -> str:
    """Make the delivery's next attempt if it is due (the outbox sends it again when it is);
    the delivery's status afterwards. A failed POST is recorded, not raised: no Celery retry."""
    return sending.attempt(uuid.UUID(delivery_id))
