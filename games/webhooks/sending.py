"""One attempt at one delivery: claim it, POST the signed event, record the answer.

A delivery is sent by the outbox (``games.store.outbox``): its row ``webhook:<delivery id>`` is
written with the delivery and is done only in the transaction that finishes the delivery (delivered,
or
failed after the last attempt). Between attempts the row is deferred to the next attempt's time,
so beat's relay sends it again when it is due: that relay is the retry, and it also re-sends a
task lost with a worker or a broker.

The POST happens outside any transaction. An attempt first claims the delivery: it counts the
attempt and holds the delivery a lease ahead (the timeout and a margin), so a second task sent
meanwhile finds nothing due. The answer is recorded only if no later attempt took the delivery
over (the attempt count is the fence). A delivered delivery is never claimed again; a receiver
can still see one twice if a worker dies between its 2xx and the record, hence the delivery id
in ``X-Scarney-Delivery``.

Every attempt signs the body anew, with the time of that attempt (``headers``): a retry carries a
fresh timestamp, so a receiver that refuses old ones (docs/API.md "Webhooks") accepts it.
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.play.representation import event_json
from games.store import journal, outbox
from games.store.models import Event, Outbox
from games.webhooks.models import Delivery

TASK = "webhooks.deliver"
USER_AGENT = "scarney-webhooks/1"
LEASE_MARGIN = 30.0  # seconds an attempt holds its delivery beyond the request's timeout
READ_AT_MOST = 64 * 1024  # bytes of the receiver's answer read (and dropped)


@dataclass(frozen=True)
class Outcome:
    """The receiver's answer: its status code (None if there was none) and what went wrong."""

    status_code: int | None
    error: str = ""

    @property
    def ok(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


# --- settings ---------------------------------------------------------------------------------


def timeout() -> float:
    return float(getattr(settings, "WEBHOOK_TIMEOUT", 5.0))


def retry_delays() -> list[float]:
    """Seconds to wait after the 1st, 2nd ... failed attempt; one more attempt than delays."""
    return [float(s) for s in getattr(settings, "WEBHOOK_RETRY_DELAYS", [10, 60, 300, 1800])]


def max_attempts() -> int:
    return len(retry_delays()) + 1


def outbox_key(delivery_id: uuid.UUID) -> str:
    return f"webhook:{delivery_id}"


# --- the request ------------------------------------------------------------------------------


def payload_json(event: Event) -> dict[str, Any]:
    """The payload: the event as the event lists show it (``event_json``), with its stream.
    ``games.webhooks.schema.WEBHOOK_PAYLOAD_SCHEMA`` describes it."""
    return {**event_json(journal.read(event)), "stream": str(event.stream_id)}


def payload(event: Event) -> bytes:
    """The body POSTed: ``payload_json`` as compact UTF-8 JSON, the same bytes on every attempt."""
    return json.dumps(payload_json(event), separators=(",", ":"), ensure_ascii=False).encode()


def signature(secret: str, body: bytes, timestamp: int) -> str:
    """The X-Scarney-Signature header: ``t=<unix seconds>,v1=<hex>``, the HMAC-SHA256 with the
    webhook's secret of ``"<t>.<body>"`` (the body's exact bytes). The receiver checks the
    signature and that ``t`` is recent, so a body captured once cannot be replayed later."""
    signed = f"{timestamp}.".encode() + body
    return f"t={timestamp},v1=" + hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()


def headers(*, secret: str, delivery_id: uuid.UUID, type: str, body: bytes) -> dict[str, str]:
    """An attempt's headers, signed now: each attempt, a retry too, with its own timestamp."""
    return {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "X-Scarney-Event": type,
        "X-Scarney-Delivery": str(delivery_id),
        "X-Scarney-Signature": signature(secret, body, int(time.time())),
    }


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer that is not 2xx: following it would turn the POST into a GET."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_opener = urllib.request.build_opener(_NoRedirects)


def post(url: str, body: bytes, request_headers: dict[str, str]) -> Outcome:
    """POST ``body``; never raises for anything the network or the receiver does."""
    request = urllib.request.Request(url, data=body, headers=request_headers, method="POST")
    try:
        with _opener.open(request, timeout=timeout()) as response:
            response.read(READ_AT_MOST)
            return Outcome(response.status)
    except urllib.error.HTTPError as error:
        return Outcome(error.code, f"HTTP {error.code} {error.reason}"[:500])
    except urllib.error.URLError as error:
        return Outcome(None, f"not reached: {error.reason}"[:500])
    except (OSError, http.client.HTTPException, ValueError) as error:
        return Outcome(None, f"{type(error).__name__}: {error}"[:500])


# --- an attempt -------------------------------------------------------------------------------


def attempt(delivery_id: uuid.UUID) -> str:
    """Make the delivery's next attempt if one is due; the delivery's status afterwards."""
    claimed = _claim(delivery_id)
    if claimed is None:
        return _not_due(delivery_id)
    webhook = claimed.webhook
    if not webhook.active:
        return _record(claimed, Outcome(None, "The webhook was deactivated."), last=True)
    body = payload(claimed.event)
    sent = headers(secret=webhook.secret, delivery_id=claimed.pk, type=claimed.type, body=body)
    return _record(claimed, post(webhook.url, body, sent), last=False)


def _claim(delivery_id: uuid.UUID) -> Delivery | None:
    """Count an attempt and hold the delivery a lease ahead; None if it is not due."""
    now = timezone.now()
    lease = timedelta(seconds=timeout() + LEASE_MARGIN)
    taken = Delivery.objects.filter(
        pk=delivery_id, status=Delivery.Status.PENDING, next_attempt_at__lte=now
    ).update(attempts=F("attempts") + 1, next_attempt_at=now + lease)
    if not taken:
        return None
    return Delivery.objects.select_related("webhook", "event").get(pk=delivery_id)


def _not_due(delivery_id: uuid.UUID) -> str:
    """A task with nothing to do: the delivery is finished, or its next attempt is later."""
    row = Delivery.objects.filter(pk=delivery_id).values("status", "next_attempt_at").first()
    if row is None or row["status"] != Delivery.Status.PENDING:
        outbox.mark_done(outbox_key(delivery_id))
        return row["status"] if row else "missing"
    _defer(delivery_id, row["next_attempt_at"])
    return str(row["status"])


@transaction.atomic
def _record(claimed: Delivery, outcome: Outcome, *, last: bool) -> str:
    """Write the attempt's outcome unless a later attempt took the delivery over."""
    now = timezone.now()
    fields: dict[str, Any] = {"last_status_code": outcome.status_code, "last_error": outcome.error}
    due = None
    if outcome.ok:
        fields.update(status=Delivery.Status.DELIVERED, delivered_at=now, last_error="")
    elif last or claimed.attempts >= max_attempts():
        fields.update(status=Delivery.Status.FAILED)
    else:
        due = now + timedelta(seconds=retry_delays()[claimed.attempts - 1])
        fields.update(next_attempt_at=due)
    mine = Delivery.objects.filter(
        pk=claimed.pk, status=Delivery.Status.PENDING, attempts=claimed.attempts
    )
    if not mine.update(**fields):
        return "superseded"  # our lease ran out and another attempt owns the delivery now
    if due is None:
        outbox.mark_done(outbox_key(claimed.pk))
        return str(fields["status"])
    _defer(claimed.pk, due)
    return Delivery.Status.PENDING.value


def _defer(delivery_id: uuid.UUID, due: datetime) -> None:
    """Have the outbox's relay send the delivery again at ``due``, not before.

    The relay re-sends a row not done ``OUTBOX_RESEND_AFTER`` seconds after its last send; a row
    whose last send is dated that long before ``due`` falls due exactly then.
    """
    Outbox.objects.filter(key=outbox_key(delivery_id), done_at__isnull=True).update(
        dispatched_at=due - outbox.resend_after()
    )
