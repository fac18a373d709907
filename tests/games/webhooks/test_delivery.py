"""Side effects exactly once, whatever fails: a worker killed in the middle of a settlement, Redis
restarted without persistence while tasks wait, the broker down while matches finish.

Each test runs a real worker with embedded beat (tests/games/webhooks/delivery_worker.py) in its own
process, over Redis, on the test database, with short relay intervals; counts the matches, those
settled, those settled more than once, and the seconds from the restart to the last settlement;
and prints them (``pytest -s``). docs/DESIGN.md "Side effects" keeps the figures.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.db import connection
from django.db.models import Count
from kombu import pools as kombu_pools

from games.play import appending, services
from games.rules.events import MATCH_SETTLED
from games.store import outbox
from games.store.models import Event, Outbox
from scarney_site.celery import app

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[3]
LAUNCHER = Path(__file__).with_name("delivery_worker.py")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# A redis-server these tests start and stop themselves, on a port free when they load: never
# one that another Redis of this machine listens on.
OWN_REDIS_PORT = free_port()
OWN_REDIS = f"redis://127.0.0.1:{OWN_REDIS_PORT}/0"
RECOVERY = 60.0  # seconds the stack has to settle everything once it runs again
# RULES.md Appendix B.1, entered leniently: a Singles sheet of five rounds.
SINGLES_B1 = [[32, 19, 6], [24, 77, 34], [13, 29, 27], [38, 53, 110], [21, 30, 36]]
SETTLEMENT = {
    "payments": [{"from": 0, "to": 2, "points": 185}, {"from": 1, "to": 2, "points": 105}],
    "nets": [-185, -105, 290],
}


# --- the stack ---------------------------------------------------------------------------------


class Stack:
    """Processes a test starts (workers, redis-server): each in its own process group, all killed
    (SIGKILL, by group id) when the test ends, however it ends."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.started: list[subprocess.Popen[bytes]] = []

    def start(self, argv: list[str], env: dict[str, str], log: str) -> subprocess.Popen[bytes]:
        with open(self.tmp / log, "ab") as out:
            process = subprocess.Popen(
                argv,
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.started.append(process)
        return process

    def kill(self, process: subprocess.Popen[bytes]) -> None:
        if process.poll() is None:
            try:
                os.killpg(process.pid, signal.SIGKILL)  # the group this test created
            except ProcessLookupError:
                pass
        process.wait(timeout=10)

    def kill_all(self) -> None:
        for process in self.started:
            self.kill(process)

    def worker(self, broker: str, pool: str = "solo", **env: str) -> subprocess.Popen[bytes]:
        """A worker (solo pool, or ``pool`` as "prefork" with two processes) with embedded beat:
        relay every second, sweep every 2 s, a task not done re-sent after 3 s."""
        db = connection.settings_dict
        database_url = (
            f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}:"
            f"{db['PORT'] or 5432}/{db['NAME']}"
        )
        environ = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "DJANGO_SETTINGS_MODULE": "scarney_site.settings",
            "DATABASE_URL": database_url,
            "REDIS_URL": broker,
            "OUTBOX_RESEND_AFTER": "3",
            "OUTBOX_RELAY_EVERY": "1",
            "OUTBOX_SWEEP_EVERY": "2",
            "LOG_LEVEL": "WARNING",
            **env,
        }
        argv = [
            sys.executable,
            str(LAUNCHER),
            "worker",
            "-B",
            f"--pool={pool}",
            "--loglevel=WARNING",
        ]
        if pool == "prefork":
            argv.append("--concurrency=2")
        argv += [
            f"--schedule={self.tmp / 'beat-schedule'}",
            f"--hostname=delivery-{uuid.uuid4()}@%h",
        ]
        argv += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
        return self.start(argv, environ, "worker.log")

    def redis(self) -> subprocess.Popen[bytes]:
        """A redis-server without persistence on OWN_REDIS_PORT, answering once this returns."""
        server = shutil.which("redis-server")
        assert server, "redis-server is not on PATH"
        argv = [server, "--port", str(OWN_REDIS_PORT), "--bind", "127.0.0.1"]
        argv += ["--save", "", "--appendonly", "no", "--dir", str(self.tmp)]
        process = self.start(argv, dict(os.environ), "redis.log")
        client = redis.Redis.from_url(OWN_REDIS, socket_connect_timeout=1)
        wait_for(lambda: _pings(client), "redis-server to answer", 10)
        return process

    def logs(self) -> str:
        return "\n".join(
            f"--- {p.name}\n{p.read_text(errors='replace')[-3000:]}" for p in self.tmp.glob("*.log")
        )


def _pings(client: redis.Redis) -> bool:
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    running = Stack(tmp_path)
    try:
        yield running
    finally:
        running.kill_all()
        outbox.publisher.join(timeout=10)


def use_broker(url: str) -> None:
    """Publish from this process to ``url``, forgetting the connections to the previous broker."""
    app.conf.broker_url = url
    app.pool.force_close_all()
    kombu_pools.reset()
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def publishing() -> Iterator[None]:
    """This process publishes to a real broker (the test Redis, its database emptied) after
    commit, as the web process does; restored after."""
    redis.Redis.from_url(settings.TEST_REDIS_URL).flushdb()
    saved = {key: app.conf[key] for key in ("task_always_eager", "broker_url")}
    app.conf.task_always_eager = False
    use_broker(settings.TEST_REDIS_URL)
    outbox.publisher.reset()
    try:
        yield
    finally:
        outbox.publisher.join(timeout=10)
        outbox.publisher.reset()
        app.conf.update(saved)
        use_broker(saved["broker_url"])
        redis.Redis.from_url(settings.TEST_REDIS_URL).flushdb()


# --- matches -----------------------------------------------------------------------------------


def match_one_round_from_its_end() -> uuid.UUID:
    match = services.match_start(
        format="scarney-singles",
        players=[{"name": n} for n in "ABC"],
        ruleset={"sheet_entry_validation": "lenient"},
        entry="sheet",
    )
    for scores in SINGLES_B1[:4]:
        enter_round(match.pk, scores)
    return match.pk


def enter_round(match_id: uuid.UUID, scores: list[int]) -> appending.Recorded:
    return services.event_record(
        stream_id=match_id, event_id=uuid.uuid4(), type="game.scored", data={"scores": scores}
    )


def finish(match_id: uuid.UUID) -> float:
    """Enter the last round; the seconds the append took (its commit and after-commit included)."""
    started = time.monotonic()
    recorded = enter_round(match_id, SINGLES_B1[4])
    took = time.monotonic() - started
    assert recorded.status == "finished"
    return took


def closings(match_ids: list[uuid.UUID]) -> dict[uuid.UUID, int]:
    """Closing events per match, of the matches that have one."""
    rows = (
        Event.objects.filter(stream_id__in=match_ids, type=MATCH_SETTLED)
        .values("stream_id")
        .annotate(n=Count("id"))
    )
    return {row["stream_id"]: row["n"] for row in rows}


def wait_for(check: Callable[[], bool], what: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"waited {seconds:.0f} s for {what}"
        time.sleep(0.1)


def recover(stack: Stack, scenario: str, match_ids: list[uuid.UUID], since: float) -> None:
    """Wait for every match to be settled; print and check the figures."""
    deadline = since + RECOVERY
    while len(closings(match_ids)) < len(match_ids) and time.monotonic() < deadline:
        time.sleep(0.1)
    seconds = time.monotonic() - since
    found = closings(match_ids)
    figures = {
        "matches": len(match_ids),
        "settled": len(found),
        "doubled": sum(1 for n in found.values() if n > 1),
        "recovery_s": round(seconds, 1),
    }
    print(f"\n[{scenario}] " + " ".join(f"{k}={v}" for k, v in figures.items()))
    assert figures["settled"] == len(match_ids), f"{figures}\n{stack.logs()}"
    assert figures["doubled"] == 0, figures
    assert all(
        data == SETTLEMENT
        for data in Event.objects.filter(stream_id__in=match_ids, type=MATCH_SETTLED).values_list(
            "data", flat=True
        )
    )
    # Every close is recorded as done, in the transaction that recorded the settlement.
    keys = [f"close:{m}" for m in match_ids]
    wait_for(
        lambda: Outbox.objects.filter(key__in=keys, done_at__isnull=False).count() == len(keys),
        "every outbox row to be done",
        5,
    )


# --- the faults --------------------------------------------------------------------------------


def test_a_worker_killed_in_the_middle_of_a_settlement_loses_nothing_and_doubles_nothing(
    stack, publishing, tmp_path
):
    # given 20 matches one round from their end, and a worker that holds every settlement
    # 0.3 s inside its transaction
    matches = [match_one_round_from_its_end() for _ in range(20)]
    marker = tmp_path / "closing"
    marker.touch()
    first = stack.worker(
        settings.TEST_REDIS_URL,
        SCARNEY_TEST_CLOSE_DELAY="0.3",
        SCARNEY_TEST_CLOSE_MARKER=str(marker),
    )

    # when every match finishes, and the worker is killed (kill -9) in its fifth settlement
    for match_id in matches:
        finish(match_id)
    wait_for(lambda: len(marker.read_text().split()) >= 5, "the fifth settlement", 30)
    stack.kill(first)
    in_flight = uuid.UUID(marker.read_text().split()[-1])
    assert in_flight not in closings(matches), "the killed settlement was committed"

    # then a new worker with beat settles every match, once
    restarted = time.monotonic()
    stack.worker(settings.TEST_REDIS_URL)
    recover(stack, "worker killed -9 mid-settlement", matches, restarted)


def test_redis_restarted_without_persistence_while_tasks_wait_loses_nothing(stack, publishing):
    # given our own Redis without persistence, and 10 matches finished while no worker runs
    stack.redis()
    use_broker(OWN_REDIS)
    matches = [match_one_round_from_its_end() for _ in range(10)]
    for match_id in matches:
        finish(match_id)
    assert outbox.publisher.join(timeout=60)
    queued = redis.Redis.from_url(OWN_REDIS)
    # On a loaded machine the relay may still be handing the last ones over: wait, with a limit.
    wait_for(lambda: queued.llen("celery") == 10, "the 10 close tasks in the broker", 60)

    # when Redis restarts, losing its queue
    for process in list(stack.started):
        stack.kill(process)
    stack.redis()
    assert queued.llen("celery") == 0

    # then once a worker with beat runs, every match is settled, once
    restarted = time.monotonic()
    stack.worker(OWN_REDIS)
    recover(stack, "redis restarted, no persistence", matches, restarted)


def test_with_the_broker_down_appends_answer_at_once_and_the_relay_settles_later(stack, publishing):
    # given 10 matches one round from their end, and no broker at all (nothing on our port)
    use_broker(OWN_REDIS)
    matches = [match_one_round_from_its_end() for _ in range(10)]

    # when the matches finish
    took = [finish(match_id) for match_id in matches]

    # then each append answers at once: nothing waits for the broker
    print(f"\n[broker down] slowest finishing append {max(took) * 1000:.0f} ms")
    assert max(took) < 0.5, f"a finishing append took {max(took):.2f} s with the broker down"
    assert outbox.publisher.join(timeout=60)
    assert closings(matches) == {}

    # when the broker and a worker with beat run again, every match is settled, once
    restarted = time.monotonic()
    stack.redis()
    stack.worker(OWN_REDIS)
    recover(stack, "broker down while matches finish", matches, restarted)


def test_a_worker_holding_retries_stays_up_when_redis_goes_and_settles_after(stack, publishing):
    # given our own Redis, a worker (as deployed: a pool of processes), and six close tasks
    # retrying with backoff (no such match: each is held by the worker, unacknowledged, until
    # its retry is due)
    stack.redis()
    use_broker(OWN_REDIS)
    worker = stack.worker(OWN_REDIS, pool="prefork")
    for _ in range(6):
        app.send_task("scoring.close_match", args=[str(uuid.uuid4())])
    held = redis.Redis.from_url(OWN_REDIS)
    wait_for(lambda: held.hlen("unacked") > 0, "the worker to hold a retrying task", 60)

    # when Redis stops for 5 s (the outage is the scenario, not a wait for something)
    for process in [p for p in stack.started if p is not worker and p.poll() is None]:
        process.terminate()  # Redis closes its connections as it goes
        process.wait(timeout=10)
    log = stack.tmp / "worker.log"
    wait_for(lambda: "broker lost" in log.read_text(errors="replace"), "the worker to notice", 60)
    time.sleep(5)
    stack.redis()

    # then the same worker is up, and settles a match finished now
    assert worker.poll() is None, stack.logs()
    match = match_one_round_from_its_end()
    finish(match)
    recover(stack, "redis gone while tasks wait to retry", [match], time.monotonic())
    assert worker.poll() is None, stack.logs()
