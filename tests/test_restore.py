"""A restore from a backup under a running web server (README "Operations"): the server never
answers 500, and never serves the lost timeline.

gunicorn (the project's config, one process of one thread, so that every request meets the
connection the restore ended) serves a database of its own, copied from the test database. A
match records two games, the database is dumped (``pg_dump`` while serving), a third game is
recorded and read (its ETags held, its history kept by the answer cache), then the dump is
restored: the database is dropped (its sessions ended) and made again from the dump. The same
version is then reached with another third game: the old tags get 200, and the history shows
the new game, not the kept one.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.db import connection

from tests.games.api.test_schemathesis import free_port

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
HOST = "127.0.0.1"
SECRET_KEY = "restore-" + os.urandom(24).hex()  # the server's and the commands'


@dataclass
class Served:
    port: int
    database: str
    key: str  # a director's API token
    dump: Path

    def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, http.client.HTTPResponse, Any]:
        """(status, the answer, its JSON body or None), on a new HTTP connection."""
        conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
        sent = {"Authorization": f"Token {self.key}", **(headers or {})}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        try:
            conn.request(method, path, data, sent)
            answer = conn.getresponse()
            raw = answer.read()
        finally:
            conn.close()
        parsed = (
            json.loads(raw) if raw and "json" in (answer.getheader("Content-Type") or "") else None
        )
        return answer.status, answer, parsed


def server_settings() -> dict[str, Any]:
    db = connection.settings_dict
    return {"host": db["HOST"] or HOST, "port": db["PORT"] or 5432, "user": db["USER"]}


def url_of(database: str) -> str:
    s = server_settings()
    return f"postgres://{s['user']}@{s['host']}:{s['port']}/{database}"


def admin(sql: str) -> None:
    """A statement run outside any database the server serves (CREATE/DROP DATABASE)."""
    with psycopg.connect(dbname="postgres", autocommit=True, **server_settings()) as conn:
        conn.execute(sql)


def pg(tool: str, *args: str) -> None:
    s = server_settings()
    where = ["-h", str(s["host"]), "-p", str(s["port"]), "-U", str(s["user"])]
    run = subprocess.run([tool, *where, *args], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr


def manage(database: str, *args: str) -> str:
    env = {
        **os.environ,
        "DATABASE_URL": url_of(database),
        "DJANGO_SETTINGS_MODULE": "scarney_site.settings",
        "SECRET_KEY": SECRET_KEY,
    }
    env.pop("REDIS_URL", None)
    run = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout


def restore(database: str, dump: Path) -> None:
    """Drop and make again from the dump, while the server runs: DROP ... WITH (FORCE) ends
    every session on the database (pg_terminate_backend), the server's among them."""
    admin(f'DROP DATABASE "{database}" WITH (FORCE)')
    admin(f'CREATE DATABASE "{database}"')
    pg("pg_restore", "--no-owner", "-d", database, str(dump))


def end_sessions(database: str) -> None:
    admin(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
        f" WHERE datname = '{database}' AND pid <> pg_backend_pid()"
    )


def wait_until_up(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, f"gunicorn exited with {process.returncode}"
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}/healthz", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    pytest.fail("gunicorn did not answer /healthz within 60 s")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """gunicorn on a copy of the test database (migrated), with a director's token."""
    database = f"{connection.settings_dict['NAME']}_restored_{os.getpid()}"
    copy = tmp_path / "migrated.dump"
    pg("pg_dump", "-Fc", "-f", str(copy), connection.settings_dict["NAME"])
    admin(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
    admin(f'CREATE DATABASE "{database}"')
    process = None
    try:
        pg("pg_restore", "--no-owner", "-d", database, str(copy))
        code = (
            "from django.contrib.auth import get_user_model;"
            "from games.access.models import ApiToken;"
            "u = get_user_model().objects.create_user('director', is_staff=True);"
            "print(ApiToken.objects.issue(u)[1])"
        )
        key = manage(database, "shell", "-c", code).strip().splitlines()[-1]
        port = free_port()
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "scarney_site.settings",
            "DATABASE_URL": url_of(database),
            "SECRET_KEY": SECRET_KEY,
            "WEB_BIND": f"{HOST}:{port}",
            "WEB_CONCURRENCY": "1",
            "WEB_THREADS": "1",  # every request meets the one connection a restore ends
        }
        env.pop("REDIS_URL", None)  # Celery runs eagerly in the web process
        command = [str(BIN / "gunicorn"), "scarney_site.wsgi", "--config", "gunicorn.conf.py"]
        with open(tmp_path / "gunicorn.log", "wb") as log:
            process = subprocess.Popen(
                command, cwd=ROOT, env=env, start_new_session=True, stdout=log, stderr=log
            )
        wait_until_up(port, process)
        yield Served(port, database, key, tmp_path / "backup.dump")
    finally:
        if process is not None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(10)
        admin(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


def score(served: Served, match: str, total: int, event_id: str | None = None) -> tuple[int, Any]:
    event = {
        "id": event_id or str(uuid.uuid4()),
        "type": "game.scored",
        "data": {"scores": [total]},
    }
    status, _answer, body = served.request("POST", f"/api/v1/matches/{match}/events/", event)
    return status, body


def totals(history: Any) -> list[int]:
    """The totals of a match history's games (its score sheet's lines)."""
    return [game["scores"][0] for game in history["games"]]


def test_a_restore_under_a_running_server_answers_no_500_and_never_the_lost_timeline(
    served: Served,
) -> None:
    # given a match of two games, backed up while the server serves
    body = {"format": "scarney-solitaire", "players": [{"name": "Ann"}], "entry": "sheet"}
    status, _answer, match_json = served.request("POST", "/api/v1/matches/", body)
    assert status == 201, match_json
    match = match_json["id"]
    for total in (116, 63):
        assert score(served, match, total)[0] == 201
    pg("pg_dump", "-Fc", "-f", str(served.dump), served.database)
    # and a third game recorded after the backup, read and kept (the answer cache)
    assert score(served, match, 36)[0] == 201
    detail, history = f"/api/v1/matches/{match}/", f"/api/v1/matches/{match}/history/"
    status, lost_detail, lost = served.request("GET", detail)
    assert status == 200 and lost["version"] == 4
    status, lost_history, lost_lines = served.request("GET", history)
    assert status == 200 and totals(lost_lines) == [116, 63, 36]
    assert served.request("GET", history)[2] == lost_lines  # given again, kept

    # when the backup is restored while the server runs
    restore(served.database, served.dump)

    # then the first request after it is answered, on a new connection, not 500
    status, _answer, restored = served.request("GET", detail)
    assert status == 200, restored
    assert restored["version"] == 3
    # and a write meeting a dropped connection is 503 with Retry-After, never 500 nor run
    # twice: the client sends it again
    end_sessions(served.database)
    event: dict[str, Any] = {
        "id": str(uuid.uuid4()),
        "type": "game.scored",
        "data": {"scores": [80]},
    }
    status, answer, refused = served.request("POST", f"/api/v1/matches/{match}/events/", event)
    assert status == 503, refused
    assert refused["code"] == "service.database_unavailable"
    assert answer.getheader("Retry-After") == "2"
    status, recorded = score(served, match, 80, event["id"])  # sent again, as a client does
    assert status == 201, recorded
    # and with another third game the match is at the version it had, with other content:
    # the tags held before the restore no longer hold, and nothing kept is given
    status, answer, now = served.request(
        "GET", detail, headers={"If-None-Match": lost_detail.getheader("ETag") or ""}
    )
    assert status == 200 and now["version"] == 4
    assert answer.getheader("ETag") != lost_detail.getheader("ETag")
    status, answer, lines = served.request(
        "GET", history, headers={"If-None-Match": lost_history.getheader("ETag") or ""}
    )
    assert status == 200 and totals(lines) == [116, 63, 80]
    assert totals(served.request("GET", history)[2]) == [116, 63, 80]
    # and the restored store verifies, read models and all (README "Operations")
    verified = manage(served.database, "verify_events", "--projections")
    assert "0 problem(s)" in verified and "Every read model row equals" in verified, verified
