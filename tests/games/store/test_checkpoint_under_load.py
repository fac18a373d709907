"""Checkpoints beside writers (docs/DESIGN.md "Checkpoints and snapshots"): a run made while
clients append reports no tamper that is not there and signs every head it found at its start.

The writers are real: threads appending through the services, each on its own connection, each
append committed, while the main thread runs ``manage.py checkpoint`` again and again.
"""

from __future__ import annotations

import io
import random
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from games.play import services
from games.rules import registry
from games.store.models import Checkpoint, Event, Player
from tests.play import random_layout

pytestmark = pytest.mark.django_db(transaction=True)

KIND = "scarney-solitaire"
RULES = registry.get(KIND)
WRITERS = 8
RUNS = 10
DEADLINE = 120.0  # seconds for the whole load; it takes a few on a 2-core machine


@pytest.fixture(autouse=True)
def checkpoint_key(settings: Any, tmp_path: Path) -> Path:
    """This test's own checkpoint key file (made on first use), never the repository's var/."""
    settings.CHECKPOINT_KEY = ""
    settings.CHECKPOINT_KEY_FILE = tmp_path / "keys" / "checkpoint.key"
    path: Path = settings.CHECKPOINT_KEY_FILE
    return path


class Writers:
    """``WRITERS`` threads, each playing games of its own player one after another (random legal
    moves, each appended and committed on the thread's own connection) until stopped."""

    def __init__(self) -> None:
        self.stop = threading.Event()
        self.errors: list[BaseException] = []
        self.players = [Player.objects.create(name=f"Writer {i}") for i in range(WRITERS)]
        self.threads = [
            threading.Thread(target=self._run, args=(i,), daemon=True) for i in range(WRITERS)
        ]

    def __enter__(self) -> Writers:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=DEADLINE)
        assert not any(thread.is_alive() for thread in self.threads), "a writer hung"
        assert not self.errors, self.errors

    def _run(self, i: int) -> None:
        rng = random.Random(i)
        try:
            while not self.stop.is_set():
                self._play(self.players[i].pk, rng)
        except BaseException as error:  # handed to the main thread, which asserts on it
            self.errors.append(error)
        finally:
            connection.close()

    def _play(self, player: int, rng: random.Random) -> None:
        game = services.game_start(kind=KIND, seats=[{"player": player}]).pk
        folded = self._record(game, random_layout(rng))
        while not self.stop.is_set() and (legal := RULES.legal_events(folded.state)):
            folded = self._record(game, rng.choice(legal))

    @staticmethod
    def _record(game: uuid.UUID, move: Any) -> Any:
        return services.event_record(
            stream_id=game, event_id=uuid.uuid4(), type=move.type, data=dict(move.data)
        ).folded


def committed_heads() -> dict[str, int]:
    """Every stream's version as committed now (autocommit: its own snapshot)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT id::text, version FROM games_stream WHERE version > 0")
        return dict(cursor.fetchall())


def wait_for_appends(count: int) -> None:
    """Until ``count`` more events are committed than now: the streams have moved."""
    target = Event.objects.count() + count
    deadline = time.monotonic() + DEADLINE / 4
    while Event.objects.count() < target:
        assert time.monotonic() < deadline, "the writers made no progress"
        time.sleep(0.01)


def run_checkpoint() -> tuple[list[str], str]:
    """One ``manage.py checkpoint``: the problems it reported (its stderr lines), its stdout."""
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("checkpoint", stdout=out, stderr=err)
    except CommandError:
        pass  # its problems are on stderr, asserted on by the caller
    return [line for line in err.getvalue().splitlines() if line], out.getvalue()


def test_checkpoints_beside_eight_writers_report_no_false_tamper_and_sign_every_head() -> None:
    unsigned: list[str] = []
    problems: list[str] = []
    with Writers():
        for _ in range(RUNS):
            # given writers that moved the streams since the last run
            wait_for_appends(WRITERS)
            at_start = committed_heads()

            # when a checkpoint is made while they go on appending
            reported, said = run_checkpoint()
            problems += reported

            # then it signed every head it found at its start (or a later one)
            newest = Checkpoint.objects.order_by("-id").first()
            assert newest is not None, said
            for stream, version in at_start.items():
                signed = newest.heads.get(stream)
                if signed is None or signed[0] < version:
                    unsigned.append(f"{stream} at {version}: signed {signed} ({said.strip()})")

    assert unsigned == []
    assert problems == []
    # and what it signed is what the events say
    checkpoints = list(Checkpoint.objects.all())
    assert len(checkpoints) == RUNS
    for checkpoint in checkpoints:
        for stream, (version, head) in checkpoint.heads.items():
            assert Event.objects.get(stream_id=stream, version=version).hash == head
