"""Without a broker (``make run``): no task runs inside a request, and retries still come.

The eager tasks run in the web process's publisher thread (``OUTBOX_INLINE`` off, as in
``make run``): a receiver that takes seconds to answer costs the finishing request nothing, and
a delivery refused once is sent again by the thread's own relay, with no beat running.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.test import override_settings

from games.play import services
from games.store import outbox
from games.webhooks.models import Delivery
from tests.games.tournaments.helpers import client_for
from tests.games.webhooks.test_webhooks import LAST_JUMP, STUDY

pytestmark = pytest.mark.django_db(transaction=True)

AS_MAKE_RUN = override_settings(
    OUTBOX_INLINE=False, OUTBOX_RELAY_EVERY=0.2, WEBHOOK_RETRY_DELAYS=[0.3, 0.3]
)


class SlowReceiver:
    """Answers each POST after ``delay`` seconds with the next of ``answers`` (then 200)."""

    def __init__(self, delay: float, answers: list[int]) -> None:
        self.delay, self.answers, self.got = delay, answers, 0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802  (http.server's name)
                self.rfile.read(int(self.headers["Content-Length"]))
                time.sleep(receiver.delay)
                receiver.got += 1
                self.send_response(receiver.answers.pop(0) if receiver.answers else 200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def slow() -> Iterator[SlowReceiver]:
    receiver = SlowReceiver(delay=3.0, answers=[500])
    yield receiver
    receiver.server.shutdown()
    receiver.server.server_close()


def wait_until(check: Any, what: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"waited {seconds:.0f} s for {what}"
        time.sleep(0.05)


@AS_MAKE_RUN
def test_a_slow_receiver_costs_the_request_nothing_and_its_retry_comes_without_beat(
    slow: SlowReceiver,
) -> None:
    # given a webhook whose receiver takes 3 s and refuses the first delivery
    user, director = client_for("director", staff=True)
    made = director.post(
        "/api/v1/webhooks/", {"url": slow.url, "events": ["game.finished"]}, format="json"
    )
    assert made.status_code == 201
    # (a game of a match: its finish is the match's game.finished)
    match = services.match_start(format="scarney-solitaire", players=[{"name": "Ann"}], user=user)
    game = services.game_start(
        kind="scarney-solitaire", seats=None, match_id=match.pk, setup=STUDY, user=user
    )

    # when the game's last move is recorded over HTTP
    body = {"id": str(uuid.uuid4()), "type": "pawn.jumped", "data": LAST_JUMP}
    started = time.monotonic()
    answer = director.post(f"/api/v1/games/{game.pk}/events/", body, format="json")
    took = time.monotonic() - started

    # then the answer does not wait for the receiver
    assert answer.status_code == 201 and answer.json()["game"]["status"] == "finished"
    assert took < 2.0, f"the finishing request took {took:.2f} s"
    # and the delivery, refused once, is sent again by the relay of the publisher thread
    wait_until(lambda: slow.got >= 2, "the second attempt", 30)
    wait_until(
        lambda: Delivery.objects.filter(status="delivered", attempts=2).exists(),
        "the delivery recorded as delivered",
        30,
    )
    assert outbox.publisher.join(timeout=30)
