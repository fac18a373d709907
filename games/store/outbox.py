"""Side effects registered in the appending transaction, relayed to Celery until they are done.

A row is written with the event that causes it and is *done* (``done_at``) only in the
transaction that records the side effect's result: ``services.match_close`` marks ``close:<id>``
as it appends the closing event, or finds it appended. Until then the row is due: at once if it
was never sent (or its send failed), again ``OUTBOX_RESEND_AFTER`` seconds after its last send
(the task may have died with a worker, or with a Redis that kept no copy). ``relay_pending``, run
by beat, sends what is due; tasks are idempotent, so a row sent twice does no harm.

After commit the web process hands the row to a publisher thread and answers at once: a broker
that is down costs the request nothing (the row waits for beat's relay). Without a broker
(``task_always_eager``, ``make run``) the publisher thread runs the task itself, and every
``OUTBOX_RELAY_EVERY`` seconds relays what is due as beat would: no task (a webhook's POST) runs
inside a request, and retries come without beat. ``OUTBOX_INLINE`` (the suite) runs an eager
task in the committing thread instead.

The store sends through the Celery app it is handed at ``ready()`` (:func:`sender_register`,
by the site's app config): it never imports the site, which sits above everything.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import connections, transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from games.store.models import Outbox

log = logging.getLogger(__name__)

QUIET_AFTER_FAILURE = 5.0  # seconds the publisher leaves rows to beat after a failed send

_senders: list[Any] = []  # the Celery app, handed at ready()


def sender_register(app: Any) -> None:
    """Send through ``app`` (a Celery app: ``send_task``, ``tasks``, ``conf``) from now on."""
    _senders[:] = [app]


def sender() -> Any:
    """The Celery app the outbox sends through; refused loudly if none was handed over."""
    if not _senders:
        raise ImproperlyConfigured("no Celery app registered with the outbox (its app config)")
    return _senders[0]


def eager() -> bool:
    """Whether tasks run in this process (no broker): ``task_always_eager``."""
    return bool(sender().conf.task_always_eager)


def register(task: str, args: list[Any], key: str) -> None:
    """Record a side effect once per key; it is sent when the current transaction commits.

    A row already done is armed again (the effect is needed anew: the sweep found the match
    complete and not closed); a row still pending is left to the relay.
    """
    row, created = Outbox.objects.get_or_create(key=key, defaults={"task": task, "args": args})
    if not created:
        if row.done_at is None:
            return
        Outbox.objects.filter(pk=row.pk).update(done_at=None, dispatched_at=None)
    transaction.on_commit(lambda: _after_commit(row.pk), robust=True)


def mark_done(key: str) -> None:
    """The side effect of ``key`` is recorded: call it in the transaction that records it."""
    Outbox.objects.filter(key=key, done_at__isnull=True).update(done_at=timezone.now())


def relay(row_id: int) -> bool:
    """Send one row if it is due; False (and the row due at once again) if the broker refused."""
    app = sender()
    now = timezone.now()
    # Claim the row: one sender, and the send time is written before the send.
    claimed = _due(now).filter(pk=row_id).update(dispatched_at=now, attempts=F("attempts") + 1)
    if not claimed:
        return True
    row = Outbox.objects.get(pk=row_id)
    try:
        if app.conf.task_always_eager:
            app.tasks[row.task].apply(args=row.args, throw=True)
        else:
            app.send_task(row.task, args=row.args)
    except Exception as error:  # any broker failure: the row is due again at once
        log.warning("outbox row %s not sent yet: %s", row.pk, error)
        Outbox.objects.filter(pk=row.pk, dispatched_at=now).update(
            dispatched_at=None, last_error=str(error)[:2000]
        )
        return False
    if row.last_error:
        Outbox.objects.filter(pk=row.pk).update(last_error="")
    publisher.quiet_until = 0.0
    return True


def relay_pending(limit: int = 500) -> int:
    """Send every row that is due, oldest first, until the broker refuses one; the number sent."""
    due = _due(timezone.now()).order_by("id").values_list("pk", flat=True)[:limit]
    sent = 0
    for pk in list(due):
        if not relay(pk):
            break  # the broker is down: the rest waits for the next run
        sent += 1
    return sent


def resend_after() -> timedelta:
    return timedelta(seconds=float(getattr(settings, "OUTBOX_RESEND_AFTER", 60)))


def _due(now: datetime) -> QuerySet[Outbox]:
    """Rows not done that were never sent, or sent longer than OUTBOX_RESEND_AFTER ago."""
    resend = Q(dispatched_at__isnull=True) | Q(dispatched_at__lt=now - resend_after())
    return Outbox.objects.filter(resend, done_at__isnull=True)


def _after_commit(row_id: int) -> None:
    if eager() and getattr(settings, "OUTBOX_INLINE", False):
        relay(row_id)
    else:
        publisher.submit(row_id)


class Publisher:
    """One daemon thread per process sends rows after their commit, off the request thread.

    After a failed send it leaves new rows to beat's relay for a few seconds rather than
    queueing a connection timeout per row.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._queue: queue.Queue[int] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._pid = 0
        self.quiet_until = 0.0

    def submit(self, row_id: int) -> None:
        if time.monotonic() < self.quiet_until:
            return  # never sent: beat's relay sends it at once when the broker is back
        with self._lock:
            if self._thread is None or self._pid != os.getpid() or not self._thread.is_alive():
                self._queue = queue.Queue()
                self._thread = threading.Thread(
                    target=self._run, args=(self._queue,), name="outbox-publisher", daemon=True
                )
                self._pid = os.getpid()
                self._thread.start()
            self._queue.put(row_id)

    def join(self, timeout: float) -> bool:
        """Wait until every submitted row is sent or refused; False if still busy at timeout."""
        deadline = time.monotonic() + timeout
        while self._queue.unfinished_tasks:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.01)
        return True

    def reset(self) -> None:
        self.quiet_until = 0.0

    def _run(self, rows: queue.Queue[int]) -> None:
        while True:
            try:
                row_id = rows.get(timeout=self._tick())
            except queue.Empty:
                self._relay_due()
                continue
            try:
                if time.monotonic() >= self.quiet_until and not relay(row_id):
                    self.quiet_until = time.monotonic() + QUIET_AFTER_FAILURE
            except Exception:
                log.exception("outbox row %s: the publisher failed", row_id)
            finally:
                if rows.empty():
                    connections.close_all()  # this thread's connections only
                rows.task_done()

    def _tick(self) -> float | None:
        """Without a broker nor beat, how long to wait before relaying what is due; else None
        (beat relays)."""
        if not eager() or getattr(settings, "OUTBOX_INLINE", False):
            return None
        return float(getattr(settings, "OUTBOX_RELAY_EVERY", 15))

    def _relay_due(self) -> None:
        try:
            relay_pending()
        except Exception:
            log.exception("outbox: the relay of what is due failed")
        finally:
            connections.close_all()


publisher = Publisher()
