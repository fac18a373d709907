"""No 500 without Redis (games.store.shared_cache): a private Redis serves the counts, then is
shut down as an operator would (``redis-cli shutdown``); the keeper link still logs a table in,
wrong codes are still throttled (in the process), moves, reads and /healthz go on, the log says
so once, and when Redis is back the counts are shared again."""

from __future__ import annotations

import logging
import re
import shutil
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from django.test import Client, override_settings

from games.pages import tournament_tables
from games.store import shared_cache
from tests.games.tournaments.helpers import HL_WIN, client_for, create, enter, pair

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server"),
]

LOST = "The shared cache cannot be reached"
BACK = "The shared cache answers again"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(condition: Any, what: str, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"{what} within {seconds} s")
        time.sleep(0.05)


def answers(port: int) -> bool:
    try:
        return bool(redis.Redis(port=port, socket_connect_timeout=0.2).ping())
    except redis.RedisError:
        return False


def redis_server(port: int, folder: Path) -> subprocess.Popen[bytes]:
    """A Redis of this test's own (the shared one on 6379 is left alone), answering."""
    command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
    process = subprocess.Popen(command + ["--dir", str(folder)], stdout=subprocess.DEVNULL)
    wait_for(lambda: answers(port), f"redis-server on {port} answered")
    return process


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[int]:
    """The port of a private Redis, made the default cache; stopped at the end if still up."""
    port = free_port()
    processes = [redis_server(port, tmp_path)]
    caches = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{port}/0",
            "KEY_PREFIX": "scarney",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    shared_cache.forget_outage()
    try:
        with override_settings(CACHES=caches):
            yield port
    finally:
        shared_cache.forget_outage()
        for process in processes:
            if process.poll() is None:
                process.terminate()
                process.wait(10)


def shut_down(port: int) -> None:
    """As an operator would: ``redis-cli shutdown``, then nothing answers on the port."""
    subprocess.run(["redis-cli", "-p", str(port), "shutdown", "nosave"], check=False, timeout=10)
    wait_for(lambda: not answers(port), f"Redis on {port} stopped")


def table_of_an_evening() -> tuple[dict[str, Any], Any]:
    director = client_for("director", staff=True)[1]
    made = create(director, format="high-low-scarney", system="swiss", rounds=2)
    enter(director, made["id"], ["Ann", "Bob", "Cid", "Dee"])
    return pair(director, made["id"])["tables"][0], made["id"]


def warnings(caplog: Any, text: str) -> int:
    return sum(1 for r in caplog.records if r.name == shared_cache.log.name and text in r.message)


def test_without_redis_the_keeper_link_throttles_moves_and_reads_keep_answering(
    private_redis: int, tmp_path: Path, caplog: Any, monkeypatch: Any
) -> None:
    caplog.set_level(logging.WARNING, logger=shared_cache.log.name)
    # Redis asked again on every request: the outage is still said once, and its end at once
    monkeypatch.setattr(shared_cache, "RETRY_AFTER", 0)
    table, tournament = table_of_an_evening()
    # given wrong codes counted in Redis, shared by every process
    guesser = Client(REMOTE_ADDR="203.0.113.20")
    for _ in range(3):
        assert guesser.get("/t/ZZZZ-ZZZZ/").status_code == 404
    shared = redis.Redis(port=private_redis)
    assert [int(shared.get(k) or 0) for k in shared.keys("*table-code-misses*")] == [3]

    # when Redis is shut down
    shut_down(private_redis)

    # then the keeper link logs the table's phone in, and it records and reads
    phone = Client(enforce_csrf_checks=True)
    opened = phone.get(table["keeper_url"])
    assert opened.status_code == 302, opened.content
    assert phone.get(opened["Location"]).status_code == 200
    line = {"id": str(uuid.uuid4()), "type": "game.scored", "data": {"scores": HL_WIN}}
    headers: dict[str, Any] = {"HTTP_X_CSRFTOKEN": phone.cookies["csrftoken"].value}
    moved = phone.post(
        f"/api/v1/matches/{table['match']}/events/", line, "application/json", **headers
    )
    assert moved.status_code == 201, moved.content
    assert phone.get(f"/api/v1/matches/{table['match']}/").json()["version"] == 2
    assert Client().get(f"/tournaments/{tournament}/scoreboard/board/").status_code == 200
    assert Client().get("/healthz").status_code == 200
    # and wrong codes are still throttled, counted in this process
    another = Client(REMOTE_ADDR="203.0.113.21")
    for _ in range(tournament_tables.WRONG_CODES_ALLOWED):
        assert another.get("/t/ZZZZ-ZZZZ/").status_code == 404
    assert another.get("/t/ZZZZ-ZZZZ/").status_code == 429
    assert warnings(caplog, LOST) == 1 and warnings(caplog, BACK) == 0

    # when Redis is back, the counts are shared through it again, and the log says so once
    back = redis_server(private_redis, tmp_path)
    try:
        assert Client(REMOTE_ADDR="203.0.113.22").get("/t/ZZZZ-ZZZZ/").status_code == 404
        assert [int(v or 0) for v in map(shared.get, shared.keys("*table-code-misses*"))] == [1]
        assert warnings(caplog, LOST) == 1 and warnings(caplog, BACK) == 1
    finally:
        back.terminate()
        back.wait(10)


def test_every_use_of_the_shared_cache_goes_through_the_module_that_survives_its_loss() -> None:
    root = Path(__file__).resolve().parents[1]
    # the module itself, and the settings that name its backend
    allowed = {root / "games" / "store" / "shared_cache.py", root / "scarney_site" / "settings.py"}
    direct = re.compile(r"django\.core\.cache\b|\bcaches\[|from redis import|import redis\b")
    users = sorted(
        str(path.relative_to(root))
        for package in ("games", "scoring", "scarney_site")
        for path in (root / package).rglob("*.py")
        if path not in allowed and direct.search(path.read_text())
    )
    # the Celery broker's transport speaks to Redis as kombu's does: its loss is the broker's
    assert users == ["scarney_site/broker.py"]
