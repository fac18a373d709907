"""Slow clients: behind the buffering front (deploy/front, nginx), /healthz still answers at once.

gunicorn (gunicorn.conf.py; here 1 process of 4 threads) gives each request a thread, which reads
the request from the socket as it comes: clients trickling their requests a byte at a time take
every thread, and /healthz waits behind them (the control below). nginx reads every request whole
before passing it on.

The tricklers send their headers a byte at a time. A trickled body would hold a thread only when
the view reads it: an unauthenticated POST is refused before its body is read, and whether the
drain of the unread body then holds a thread depends on timing (the control once failed so).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from http.client import HTTPConnection
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # two servers to start and stop: about 15 s

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
SLOW_CLIENTS = 10


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def healthz(port: int, timeout: float) -> tuple[int, float]:
    """(status, seconds) of ``GET /healthz``; status 0 if no answer within ``timeout``."""
    start = time.monotonic()
    conn = HTTPConnection(HOST, port, timeout=timeout)
    try:
        conn.request("GET", "/healthz")
        status = conn.getresponse().status
    except OSError:
        status = 0
    finally:
        conn.close()
    return status, time.monotonic() - start


def wait_until_up(port: int, proc: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, f"{what} exited with {proc.returncode}"
        if healthz(port, 2)[0] == 200:
            return
        time.sleep(0.1)
    pytest.fail(f"{what} did not answer /healthz on port {port}")


def stop(proc: subprocess.Popen[bytes], sig: int) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, sig)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


class Tricklers:
    """``clients`` connections, each sending a request line, then its headers a byte at a time."""

    def __init__(self, port: int, clients: int = SLOW_CLIENTS) -> None:
        self.socks = []
        for _ in range(clients):
            sock = socket.create_connection((HOST, port), timeout=5)
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            self.socks.append(sock)
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._trickle, daemon=True)
        self.thread.start()

    def _trickle(self) -> None:
        while not self.done.wait(0.2):
            for sock in self.socks:
                try:
                    sock.send(b"a")
                except OSError:
                    pass

    def close(self) -> None:
        self.done.set()
        self.thread.join(5)
        for sock in self.socks:
            sock.close()


@pytest.fixture(scope="module")
def stack() -> Iterator[tuple[int, int]]:
    """gunicorn (the project's config) and the front before it: (web port, front port)."""
    if shutil.which("nginx", path=f"{os.environ.get('PATH', '')}:/usr/sbin:/sbin") is None:
        pytest.fail("nginx is not installed: apt-get install -y nginx-light (.ci/run does)")
    web, front = free_port(), free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "scarney_site.settings",
        "SECRET_KEY": "front-test-" + os.urandom(24).hex(),
        "WEB_BIND": f"{HOST}:{web}",
        # One process (of 4 threads): with two, one process may accept every slow client while
        # the other serves the control's probes, as happened in CI.
        "WEB_CONCURRENCY": "1",
        "FRONT_LISTEN": f"{HOST}:{front}",
    }
    env.pop("REDIS_URL", None)
    front_dir = tempfile.mkdtemp(prefix="scarney-front-")
    os.chmod(front_dir, 0o755)  # nginx's workers (nobody, when run as root) use it
    env["FRONT_DIR"] = front_dir
    gunicorn = Path(sys.executable).with_name("gunicorn")
    command = [str(gunicorn), "scarney_site.wsgi", "--config", "gunicorn.conf.py"]
    web_proc = subprocess.Popen(
        command, cwd=ROOT, env=env, start_new_session=True, stderr=subprocess.DEVNULL
    )
    front_proc = None
    try:
        front_proc = subprocess.Popen(["deploy/front"], cwd=ROOT, env=env, start_new_session=True)
        wait_until_up(web, web_proc, "gunicorn")
        wait_until_up(front, front_proc, "the front (deploy/front)")
        yield web, front
    finally:
        if front_proc is not None:
            stop(front_proc, signal.SIGQUIT)
        stop(web_proc, signal.SIGQUIT)  # gunicorn's quick shutdown
        shutil.rmtree(front_dir, ignore_errors=True)


def test_healthz_answers_promptly_through_the_front_while_ten_clients_trickle_requests(
    stack: tuple[int, int],
) -> None:
    web, front = stack
    slow = Tricklers(front)
    try:
        time.sleep(1.0)  # every slow client is trickling its headers
        for _ in range(3):
            status, seconds = healthz(front, timeout=5)
            assert status == 200 and seconds < 1.0, (status, seconds)
            time.sleep(0.3)
    finally:
        slow.close()
    # control: slow clients straight at gunicorn leave it no thread for /healthz; the control
    # sends four times as many clients as the process has threads, and probes three times.
    slow = Tricklers(web, clients=4 * SLOW_CLIENTS)
    try:
        time.sleep(1.0)
        probes = [healthz(web, timeout=2) for _ in range(3)]
        assert any(status == 0 for status, _ in probes), f"gunicorn answered every probe: {probes}"
    finally:
        slow.close()


def test_the_front_refuses_trace_with_405_saying_what_is_allowed(stack: tuple[int, int]) -> None:
    _, front = stack
    conn = HTTPConnection(HOST, front, timeout=5)
    try:
        conn.request("TRACE", "/api/v1/games/")
        answer = conn.getresponse()
        answer.read()
    finally:
        conn.close()
    assert answer.status == 405
    allowed = {m.strip() for m in (answer.getheader("Allow") or "").split(",")}
    assert {"GET", "POST"} <= allowed and "TRACE" not in allowed


@pytest.mark.parametrize("through", ["gunicorn", "the front"])
def test_a_refused_large_body_leaves_the_connection_answering(
    stack: tuple[int, int], through: str
) -> None:
    web, front = stack
    conn = HTTPConnection(HOST, web if through == "gunicorn" else front, timeout=10)
    try:
        # given a body of 1.5 MB, refused before anything reads it (no login: 401)
        body = b'{"kind": "scarney-solitaire", "pad": "' + b"a" * 1_500_000 + b'"}'
        conn.request("POST", "/api/v1/games/", body, {"Content-Type": "application/json"})
        refused = conn.getresponse()
        refused.read()
        # when the next request comes on the same connection, then it is answered
        for _ in range(3):
            conn.request("GET", "/healthz")
            answer = conn.getresponse()
            answer.read()
            assert answer.status == 200
    finally:
        conn.close()
    assert refused.status in (400, 401)
