"""Side effects through a real Celery worker over Redis: a complete Solitaire match is rated once
by ``scoring.close_match``, however often the task runs, and a broker outage delays it but loses
nothing (the outbox row waits for ``relay_pending``)."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun
from django.conf import settings
from django.db import connection
from kombu import pools as kombu_pools

from games.play import appending, services
from games.rules import registry
from games.rules.scarney_board.solitaire import match_rating
from games.store import outbox
from games.store.models import Event, Outbox, Stream
from scarney_site.celery import app
from scoring import tasks

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

KIND = "scarney-solitaire"
RULES = registry.get(KIND)
# A study position with one legal jump, C1 over C2 to C3: a game of one move, which leaves a lone
# black 1-spot: 39 points and a 20-point bonus, 59 in all (RULES.md 2.5).
STUDY = {"position": {"C1": "B1", "C2": "R2"}}
LAST_JUMP = {"from": 1, "to": 3}
GAME_TOTAL = 59
DOWN_BROKER = "redis://127.0.0.1:1/0"  # nothing listens on port 1: connections are refused
WAIT = 90.0  # seconds to wait for the worker, at most (a deadline: a loaded machine is slow)


def reset_broker_pools() -> None:
    """Forget the app's broker connections, so the next publish uses the current broker_url."""
    app.pool.force_close_all()
    kombu_pools.reset()  # the closed pool stays cached in kombu's pools, keyed by broker
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def celery_app() -> Iterator[Any]:
    """The project's Celery app publishing to the test Redis, its queue empty; restored after."""
    saved = {key: app.conf[key] for key in ("task_always_eager", "broker_url")}
    app.conf.task_always_eager = False
    app.conf.broker_url = settings.TEST_REDIS_URL
    reset_broker_pools()
    app.control.purge()
    outbox.publisher.reset()
    try:
        yield app
    finally:
        outbox.publisher.join(timeout=WAIT)
        outbox.publisher.reset()
        app.conf.update(saved)
        reset_broker_pools()


@pytest.fixture
def finished_tasks() -> Iterator[list[tuple[str, Any]]]:
    """(task id, return value) of every task the worker finished, in order."""
    finished: list[tuple[str, Any]] = []

    def on_postrun(task_id: str, retval: Any = None, **kwargs: Any) -> None:
        finished.append((task_id, retval))
        connection.close()  # the worker thread's own connection; the test database is dropped

    task_postrun.connect(on_postrun, weak=False)
    try:
        yield finished
    finally:
        task_postrun.disconnect(on_postrun)


@contextmanager
def running_worker() -> Iterator[Any]:
    """A worker thread consuming the test Redis queue, one task at a time."""
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=WAIT) as worker:
        yield worker


@pytest.fixture
def worker(celery_app: Any, finished_tasks: Any) -> Iterator[Any]:
    with running_worker() as running:
        yield running


def wait_for(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not check():
        assert time.monotonic() < deadline, f"waited {WAIT:.0f} s for {what}"
        time.sleep(0.05)


def play_match_to_its_last_game() -> tuple[Any, Any]:
    """A Solitaire match with four games played; the fifth started, one jump from its end."""
    match = services.match_start(format=KIND, players=[{"name": "Ann"}])
    for _ in range(4):
        finish(start_game(match))
    return match, start_game(match)


def start_game(match: Any) -> Any:
    return services.game_start(kind=KIND, seats=None, match_id=match.pk, setup=STUDY)


def finish(game: Any) -> appending.Recorded:
    recorded = services.event_record(
        stream_id=game.pk,
        event_id=uuid.uuid4(),
        type="pawn.jumped",
        data=LAST_JUMP,
        expected_version=1,
    )
    assert RULES.is_terminal(recorded.folded.state)
    assert RULES.result(recorded.folded.state).scores[0].total == GAME_TOTAL
    return recorded


def ratings(match: Any) -> list[dict[str, Any]]:
    return list(
        Event.objects.filter(stream_id=match.pk, type="match.rated").values_list("data", flat=True)
    )


def test_a_finished_match_is_rated_once_by_the_worker_however_often_the_task_runs(
    worker, finished_tasks
):
    # given a match whose fifth game is one jump from its end
    match, last_game = play_match_to_its_last_game()
    assert ratings(match) == []

    # when the fifth game finishes
    finish(last_game)

    # then the worker appends match.rated, with the rating of RULES.md 2.6 for 5 x 59 = 295
    wait_for(lambda: ratings(match) != [], "match.rated")
    assert match_rating(5 * GAME_TOTAL) == "Fair match"
    assert ratings(match) == [{"rating": "Fair match", "match_score": 295}]
    row = Outbox.objects.get(key=f"close:{match.pk}")
    assert (row.task, row.args, row.attempts, row.last_error) == (
        "scoring.close_match",
        [str(match.pk)],
        1,
        "",
    )
    assert row.dispatched_at is not None

    # when the task is delivered again, by name and by function
    again = [
        app.send_task("scoring.close_match", args=[str(match.pk)]).id,
        tasks.close_match.delay(str(match.pk)).id,
    ]
    wait_for(lambda: {i for i, _ in finished_tasks} >= set(again), "the repeated tasks")

    # then both runs did nothing, and the match is still rated once
    assert [value for i, value in finished_tasks if i in again] == [False, False]
    assert len(ratings(match)) == 1
    assert Event.objects.filter(stream_id=match.pk).count() == 1 + 5 + 1


def test_with_the_broker_down_the_last_game_is_recorded_and_rated_once_the_broker_is_back(
    celery_app, finished_tasks
):
    # given a match whose fifth game is one jump from its end, and a broker that refuses us
    match, last_game = play_match_to_its_last_game()
    app.conf.broker_url = DOWN_BROKER
    reset_broker_pools()

    # when the fifth game finishes
    started = time.monotonic()
    recorded = finish(last_game)
    took = time.monotonic() - started

    # then the move is recorded at once (a thread publishes), and the rating waits in the outbox
    assert recorded.created
    assert took < 0.5, f"an append waited {took:.1f} s for a down broker"
    assert outbox.publisher.join(timeout=WAIT)
    assert Event.objects.filter(stream_id=last_game.pk, type="pawn.jumped").count() == 1
    assert Event.objects.filter(stream_id=match.pk, type="game.finished").count() == 5
    row = Outbox.objects.get(key=f"close:{match.pk}")
    assert row.dispatched_at is None
    assert row.attempts == 1
    assert row.last_error != ""
    assert ratings(match) == []

    # when the broker is back and the pending rows are relayed
    app.conf.broker_url = settings.TEST_REDIS_URL
    reset_broker_pools()
    with running_worker():
        assert outbox.relay_pending() == 1

        # then the worker rates the match, once
        wait_for(lambda: ratings(match) != [], "match.rated")
        wait_for(lambda: len(finished_tasks) >= 1, "the task to finish")
        assert outbox.relay_pending() == 0

    assert ratings(match) == [{"rating": "Fair match", "match_score": 295}]
    assert finished_tasks[0][1] is True
    row.refresh_from_db()
    assert row.dispatched_at is not None
    assert row.last_error == ""
    assert row.attempts == 2


def test_publishing_to_a_down_broker_fails_within_the_connection_timeout(celery_app):
    app.conf.broker_url = DOWN_BROKER
    reset_broker_pools()
    failed: list[BaseException] = []

    def publish() -> None:
        try:
            app.send_task("scoring.close_match", args=[str(uuid.uuid4())])
        except Exception as error:  # the outbox catches exactly this
            failed.append(error)

    started = time.monotonic()
    sender = threading.Thread(target=publish, daemon=True)
    sender.start()
    sender.join(timeout=WAIT)

    assert not sender.is_alive(), "publishing to a down broker hangs"
    assert len(failed) == 1
    assert time.monotonic() - started < 3 * settings.CELERY_BROKER_CONNECTION_TIMEOUT + 1


# RULES.md Appendix B.1, entered leniently (A's 38 is not attainable): C wins 313, B pays 105,
# A pays 185.
SINGLES_B1 = [[32, 19, 6], [24, 77, 34], [13, 29, 27], [38, 53, 110], [21, 30, 36]]


def test_a_complete_singles_sheet_is_settled_once_by_the_worker(worker, finished_tasks):
    # given a Singles sheet match, four rounds in
    match = services.match_start(
        format="scarney-singles",
        players=[{"name": n} for n in "ABC"],
        ruleset={"sheet_entry_validation": "lenient"},
        entry="sheet",
    )
    enter = [
        lambda scores=scores: services.event_record(
            stream_id=match.pk, event_id=uuid.uuid4(), type="game.scored", data={"scores": scores}
        )
        for scores in SINGLES_B1
    ]
    for entry in enter[:4]:
        entry()
    assert not Outbox.objects.filter(key=f"close:{match.pk}").exists()

    # when the fifth round is entered
    enter[4]()

    # then the worker appends match.settled with the settlement of RULES.md 3.7, once
    def settled() -> list[Any]:
        rows = Event.objects.filter(stream_id=match.pk, type="match.settled")
        return list(rows.values_list("data", flat=True))

    wait_for(lambda: settled() != [], "match.settled")
    assert settled() == [
        {
            "payments": [{"from": 0, "to": 2, "points": 185}, {"from": 1, "to": 2, "points": 105}],
            "nets": [-185, -105, 290],
        }
    ]
    again = tasks.close_match.delay(str(match.pk)).id
    wait_for(lambda: again in {i for i, _ in finished_tasks}, "the repeated task")
    assert dict(finished_tasks)[again] is False and len(settled()) == 1
    assert Stream.objects.get(pk=match.pk).status == "settled"
