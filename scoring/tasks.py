"""Celery tasks: each takes ids, calls a service, and is safe to run twice."""

from __future__ import annotations

import uuid

from celery import shared_task

from games import outbox, services


@shared_task(
    name="scoring.close_match",
    autoretry_for=(Exception,),
    retry_backoff=True,
    max_retries=8,
)
def close_match(match_id: str) -> bool:
    """Append a complete match's ``match.settled`` (or a Solitaire ``match.rated``), once."""
    return services.match_close(match_id=uuid.UUID(match_id))


@shared_task(
    name="scoring.rate_match",
    autoretry_for=(Exception,),
    retry_backoff=True,
    max_retries=8,
)
def rate_match(match_id: str) -> bool:
    """The first name of close_match; kept so that tasks already queued under it still run."""
    return services.match_close(match_id=uuid.UUID(match_id))


@shared_task(name="scoring.relay_outbox")
def relay_outbox() -> int:
    """Send side effects whose first relay found the broker down."""
    return outbox.relay_pending()
