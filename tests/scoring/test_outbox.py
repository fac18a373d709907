"""The outbox's bookkeeping, without a worker: a row is done only in the transaction that records
its effect, a row sent but not done is sent again after OUTBOX_RESEND_AFTER, and the sweep closes
a complete match that has no close on its way."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

from games.play import services
from games.rules.events import MATCH_SETTLED
from games.store import outbox
from games.store.models import Event, Outbox
from scarney_site.celery import app

pytestmark = pytest.mark.django_db(transaction=True)

SINGLES_B1 = [[32, 19, 6], [24, 77, 34], [13, 29, 27], [38, 53, 110], [21, 30, 36]]


def finished_match() -> uuid.UUID:
    match = services.match_start(
        format="scarney-singles",
        players=[{"name": n} for n in "ABC"],
        ruleset={"sheet_entry_validation": "lenient"},
        entry="sheet",
    )
    for scores in SINGLES_B1:
        services.event_record(
            stream_id=match.pk, event_id=uuid.uuid4(), type="game.scored", data={"scores": scores}
        )
    return match.pk


def settlements(match_id: uuid.UUID) -> int:
    return Event.objects.filter(stream_id=match_id, type=MATCH_SETTLED).count()


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, Any]]]:
    """A broker that takes every task and loses it (as a worker killed with it would)."""
    published: list[tuple[str, Any]] = []
    monkeypatch.setattr(app, "send_task", lambda name, args: published.append((name, args)))
    eager, app.conf.task_always_eager = app.conf.task_always_eager, False
    try:
        yield published
    finally:
        app.conf.task_always_eager = eager
        assert outbox.publisher.join(timeout=10)


def test_the_close_row_is_done_in_the_transaction_that_records_the_settlement():
    match_id = finished_match()  # tasks run eagerly after the commit

    row = Outbox.objects.get(key=f"close:{match_id}")
    assert settlements(match_id) == 1
    assert row.done_at is not None and row.attempts == 1
    assert outbox.relay_pending() == 0


def test_a_row_sent_but_never_done_is_sent_again_after_the_timeout(sent, settings):
    settings.OUTBOX_RESEND_AFTER = 60
    # given a finished match whose close task was sent, and lost
    match_id = finished_match()
    assert outbox.publisher.join(timeout=10)
    assert sent == [("scoring.close_match", [str(match_id)])]
    row = Outbox.objects.get(key=f"close:{match_id}")
    assert row.dispatched_at is not None and row.done_at is None

    # then it is not sent again within the timeout, and is sent again after it
    assert outbox.relay_pending() == 0
    Outbox.objects.filter(pk=row.pk).update(dispatched_at=timezone.now() - timedelta(seconds=61))
    assert outbox.relay_pending() == 1
    assert len(sent) == 2
    assert outbox.relay_pending() == 0

    # when the task finally runs, the row is done, and never sent again
    assert services.match_close(match_id=match_id) is True
    Outbox.objects.filter(pk=row.pk).update(dispatched_at=timezone.now() - timedelta(days=1))
    assert outbox.relay_pending() == 0
    row.refresh_from_db()
    assert row.done_at is not None and row.attempts == 2 and settlements(match_id) == 1


def test_a_close_that_finds_the_match_closed_marks_its_row_done():
    match_id = finished_match()
    Outbox.objects.filter(key=f"close:{match_id}").update(done_at=None)

    assert services.match_close(match_id=match_id) is False

    assert Outbox.objects.get(key=f"close:{match_id}").done_at is not None
    assert settlements(match_id) == 1


def test_the_sweep_closes_a_complete_match_whose_close_was_never_registered(monkeypatch):
    # given a complete match whose close was lost before it reached the outbox
    with monkeypatch.context() as patch:
        patch.setattr(outbox, "register", lambda *args, **kwargs: None)
        match_id = finished_match()
    assert settlements(match_id) == 0 and not Outbox.objects.exists()

    # when the sweep runs (beat's task, or the command)
    call_command("close_matches")

    # then the match is settled, once, and a second sweep finds nothing
    assert settlements(match_id) == 1
    assert Outbox.objects.get(key=f"close:{match_id}").done_at is not None
    assert services.match_close_sweep() == 0


def test_the_sweep_arms_again_a_row_marked_done_whose_match_is_not_closed(sent):
    # given a complete match, its close sent and lost, and its row (wrongly) marked done
    match_id = finished_match()
    assert outbox.publisher.join(timeout=10)
    Outbox.objects.filter(key=f"close:{match_id}").update(done_at=timezone.now())
    assert outbox.relay_pending() == 0

    # when the sweep runs, the close is sent again
    assert services.match_close_sweep() == 1
    assert outbox.publisher.join(timeout=10)
    assert len(sent) == 2
    row = Outbox.objects.get(key=f"close:{match_id}")
    assert row.done_at is None and row.attempts == 2
