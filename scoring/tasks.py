"""Celery tasks: each takes ids, calls a service, and is safe to run twice."""

from __future__ import annotations

import uuid

from celery import shared_task

from games.play import services
from games.store import outbox


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


@shared_task(name="scoring.sweep_matches")
def sweep_matches() -> int:
    """Register the close of every complete match still without its closing event."""
    return services.match_close_sweep()


@shared_task(name="scoring.relay_outbox")
def relay_outbox() -> int:
    """Send the side effects not done: never sent, refused, or sent OUTBOX_RESEND_AFTER ago."""
    return outbox.relay_pending()


@shared_task(name="scoring.checkpoint")
def checkpoint() -> int | None:
    """Sign the heads of every stream (docs/DESIGN.md "Checkpoints and snapshots"); the new
    checkpoint's id, or None when nothing changed. A rewritten history is logged as an error."""
    import logging

    from games.store import checkpoints

    made = checkpoints.create()
    for problem in made.problems:
        logging.getLogger(__name__).error("checkpoint: %s", problem)
    return made.checkpoint.pk if made.checkpoint else None


@shared_task(
    name="scoring.render_document",
    autoretry_for=(Exception,),
    retry_backoff=True,
    max_retries=5,
)
def render_document(spec: str) -> list[str]:
    """Render every format of a printed document (scoring/printing.py) into the storage; the
    names stored. Safe to run twice: the second run writes the same files again."""
    from scoring.documents import printing

    return printing.render_requested(spec)


@shared_task(name="scoring.renew_nightly_reports")
def renew_nightly_reports(tournament_id: str, key: str) -> list[str]:
    """The stored nightly reports of the days a tournament published or unpublished played on,
    rendered again as the public may read them now (the outbox row ``key`` done first)."""
    from scoring.documents import printing

    return printing.renew_nightly(tournament_id, key)


@shared_task(name="scoring.nightly_report")
def nightly_report(day: str | None = None) -> list[str]:
    """The club's nightly report of ``day`` (ISO date; beat leaves it out: yesterday, since beat
    runs it just after midnight), stored as HTML and PDF."""
    from datetime import date, timedelta

    from django.utils import timezone

    from scoring.documents import printing

    when = date.fromisoformat(day) if day else timezone.localdate() - timedelta(days=1)
    return printing.store_nightly(when)
