"""Side effects registered in the appending transaction and relayed to Celery after commit.

The row is written with the event, so a broker outage delays a side effect and loses nothing:
``relay_pending`` (run by beat, and after every commit that registers one) sends what is left.
Tasks are idempotent, so a row sent twice (a crash between send and mark) does no harm.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.models import Outbox

log = logging.getLogger(__name__)


def register(task: str, args: list[Any], key: str) -> None:
    """Record a side effect once per key; it is sent when the current transaction commits."""
    row, created = Outbox.objects.get_or_create(key=key, defaults={"task": task, "args": args})
    if created:
        transaction.on_commit(lambda: relay(row.pk), robust=True)


def relay(row_id: int) -> bool:
    """Send one pending row to the broker; False (and the row kept) if the broker is down."""
    from scarney_site.celery import app

    row = Outbox.objects.filter(pk=row_id, dispatched_at__isnull=True).first()
    if row is None:
        return True
    Outbox.objects.filter(pk=row.pk).update(attempts=F("attempts") + 1)
    try:
        if app.conf.task_always_eager:
            app.tasks[row.task].apply(args=row.args, throw=True)
        else:
            app.send_task(row.task, args=row.args)
    except Exception as error:  # any broker failure: keep the row for the next relay
        log.warning("outbox row %s not sent yet: %s", row.pk, error)
        Outbox.objects.filter(pk=row.pk).update(last_error=str(error)[:2000])
        return False
    Outbox.objects.filter(pk=row.pk).update(dispatched_at=timezone.now(), last_error="")
    return True


def relay_pending(limit: int = 500) -> int:
    """Send every row still pending; the number sent."""
    pending = Outbox.objects.filter(dispatched_at__isnull=True).order_by("id")[:limit]
    return sum(relay(pk) for pk in pending.values_list("pk", flat=True))
