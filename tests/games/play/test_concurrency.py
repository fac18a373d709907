"""Concurrent writers on PostgreSQL: each thread records through games.play.services on its own
connection, as parallel web requests do. Locks, version checks and idempotency keys must hold."""

from __future__ import annotations

import io
import random
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection, transaction

from games.play import appending, services
from games.rules import registry
from games.rules.scarney_board.board import CIRCLES, circle_name
from games.store import folding, journal
from games.store.models import Event, Player, Stream
from scoring.models import PlayerRecord

pytestmark = pytest.mark.django_db(transaction=True)

KIND = "scarney-solitaire"
RULES = registry.get(KIND)
# Every pawn on the board, the four colours on each row and column: a random game of legal moves
# then lasts about a dozen events (laid out one colour to a row, no game goes beyond 3 jumps).
MIXED = ("B1 R1 Y1 G1", "R2 Y2 G2 B2", "Y3 G3 B3 R3", "G4 B4 R4 Y4")
LAYOUT = {circle_name(c): pawn for c, pawn in zip(CIRCLES, " ".join(MIXED).split(), strict=True)}

WRITERS = 8
STREAMS = 20
APPENDS = 1000
PLAYERS = 3
DEADLINE = 60.0  # seconds; the load below takes about 5 s on a 2-core machine


def in_threads(count: int, work: Callable[[int], Any]) -> list[Any]:
    """Run ``work(i)`` in ``count`` threads started together; each result or exception, in order.

    Every thread opens its own database connection before the start line and closes it at the end.
    """
    results: list[Any] = [None] * count
    start_line = threading.Barrier(count)

    def run(i: int) -> None:
        try:
            connection.ensure_connection()
            start_line.wait(timeout=30)
            results[i] = work(i)
        except BaseException as error:  # handed to the main thread, which asserts on it
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=DEADLINE)
    assert not any(thread.is_alive() for thread in threads), "a writer thread hung"
    return results


def new_game(player: Player | None = None) -> uuid.UUID:
    """A new game of ``player``, or of a new player of its own."""
    player = player or Player.objects.create(name=f"Player {uuid.uuid4().hex[:8]}")
    return services.game_start(kind=KIND, seats=[{"player": player.pk}]).pk


def laid_out_game(player: Player) -> Stream:
    stream_id = new_game(player)
    services.event_record(
        stream_id=stream_id,
        event_id=uuid.uuid4(),
        type="board.laid_out",
        data={"position": LAYOUT},
        expected_version=1,
    )
    return Stream.objects.get(pk=stream_id)


@pytest.fixture
def player() -> Player:
    return Player.objects.create(name="Ann")


# --- one stream, one version, many writers -------------------------------------------------------


def test_of_eight_writers_racing_at_one_expected_version_exactly_one_wins(player):
    # given a game awaiting its take-off, with eight low pawns to choose from
    stream = laid_out_game(player)
    takeoffs = RULES.legal_events(folding.load(stream).state)
    assert len(takeoffs) == WRITERS

    # when eight writers each record a different take-off at version 2, at once
    def take_off(i: int) -> appending.Recorded:
        return services.event_record(
            stream_id=stream.pk,
            event_id=uuid.uuid4(),
            type="pawn.taken_off",
            data=dict(takeoffs[i].data),
            expected_version=2,
        )

    results = in_threads(WRITERS, take_off)

    # then one is recorded at version 3, and seven are told the stream is at version 3
    won = [r for r in results if isinstance(r, appending.Recorded)]
    lost = [r for r in results if isinstance(r, journal.VersionConflict)]
    assert len(won) == 1, results
    assert len(lost) == WRITERS - 1, results
    assert won[0].created and won[0].event.version == 3
    assert {conflict.current_version for conflict in lost} == {3}
    stream.refresh_from_db()
    assert stream.version == 3
    assert list(Event.objects.filter(stream=stream).values_list("version", flat=True)) == [1, 2, 3]
    assert Event.objects.get(stream=stream, version=3).id == won[0].event.id


def test_eight_copies_of_one_event_sent_at_once_record_it_once_and_all_get_its_answer(player):
    stream = laid_out_game(player)
    takeoff = RULES.legal_events(folding.load(stream).state)[0]
    event_id = uuid.uuid4()

    def send(i: int) -> appending.Recorded:
        return services.event_record(
            stream_id=stream.pk,
            event_id=event_id,
            type=takeoff.type,
            data=dict(takeoff.data),
            expected_version=2,
        )

    results = in_threads(WRITERS, send)

    assert all(isinstance(r, appending.Recorded) for r in results), results
    assert sorted(r.created for r in results) == [False] * (WRITERS - 1) + [True]
    assert all(r.event == results[0].event for r in results)
    assert results[0].event.version == 3
    assert Event.objects.filter(id=event_id).count() == 1
    assert Event.objects.filter(stream=stream).count() == 3


def test_one_event_id_sent_at_once_to_two_streams_is_recorded_on_one_and_refused_on_the_other(
    player,
):
    streams = [laid_out_game(player), laid_out_game(player)]
    event_id = uuid.uuid4()

    def send(i: int) -> appending.Recorded:
        takeoff = RULES.legal_events(folding.load(streams[i]).state)[i]
        return services.event_record(
            stream_id=streams[i].pk,
            event_id=event_id,
            type=takeoff.type,
            data=dict(takeoff.data),
            expected_version=2,
        )

    results = in_threads(2, send)

    won = [r for r in results if isinstance(r, appending.Recorded)]
    refused = [r for r in results if isinstance(r, journal.EventIdReused)]
    assert len(won) == 1 and len(refused) == 1, results
    assert Event.objects.filter(id=event_id).count() == 1
    assert sorted(
        Stream.objects.filter(pk__in=[s.pk for s in streams]).values_list("version", flat=True)
    ) == [2, 3]


# --- one player, two games at once ---------------------------------------------------------------


def wait_until_a_backend_waits_for_a_lock(timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            # Inside a transaction the statistics views keep their first snapshot unless cleared.
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0]:
                return
            time.sleep(0.02)
    raise AssertionError("no writer ever waited for a lock")


def test_two_games_of_one_player_started_at_once_both_count_in_the_player_record(player):
    """Deterministic: the second start is held inside its transaction until the third waits.

    Before the projection locked the player, the third start's DELETE missed the row the second
    had just inserted, and its INSERT failed on scoring_playerrecord_pkey.
    """
    # given a player with a record
    new_game(player)

    # when a second game's start has written the record but not committed yet
    with transaction.atomic():
        new_game(player)
        # and a third game's start, on another connection, reaches the player's record
        results: list[Any] = []
        other = threading.Thread(target=lambda: results.append(start_elsewhere(player)))
        other.start()
        wait_until_a_backend_waits_for_a_lock()
    other.join(timeout=DEADLINE)

    # then the third start succeeds once the second commits, and the record counts all three
    assert len(results) == 1
    assert not isinstance(results[0], Exception), results[0]
    assert PlayerRecord.objects.get(player=player).games_played == 3


def test_two_games_started_at_once_for_a_new_name_seat_one_player():
    # given a first game for a new name, started but not committed yet
    with transaction.atomic():
        services.game_start(kind=KIND, seats=[{"name": "Zed"}])
        # when a second game for that name starts on another connection
        results: list[Any] = []
        other = threading.Thread(target=lambda: results.append(start_elsewhere("Zed")))
        other.start()
        wait_until_done_or_waiting_for_a_lock(other)
    other.join(timeout=DEADLINE)

    # then both games seat the one player named Zed, and later games find that player
    assert len(results) == 1
    assert not isinstance(results[0], Exception), results[0]
    assert Player.objects.filter(name="Zed").count() == 1
    services.game_start(kind=KIND, seats=[{"name": "Zed"}])


def wait_until_done_or_waiting_for_a_lock(thread: threading.Thread) -> None:
    thread.join(timeout=2.0)
    if thread.is_alive():
        wait_until_a_backend_waits_for_a_lock()


def start_elsewhere(player: Player | str) -> Any:
    """A new game of ``player`` (or of a seat named so), on this thread's own connection."""
    try:
        if isinstance(player, str):
            return services.game_start(kind=KIND, seats=[{"name": player}])
        return new_game(player)
    except Exception as error:  # handed to the main thread, which asserts on it
        return error
    finally:
        connection.close()


# --- many streams, many writers, retries ---------------------------------------------------------


@dataclass
class Ack:
    """What the service acknowledged: the event and where it landed."""

    stream_id: uuid.UUID
    type: str
    data: dict[str, Any]
    version: int


@dataclass
class Table:
    """The shared load: STREAMS games in play at a time, and the appends still to make.

    A few players share all the games, so games of one player start and finish at once.
    """

    players: list[Player]
    slots: list[uuid.UUID] = field(default_factory=list)
    tickets: int = APPENDS
    acks: dict[uuid.UUID, Ack] = field(default_factory=dict)
    counts: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def take_ticket(self) -> bool:
        with self.lock:
            if self.tickets == 0:
                return False
            self.tickets -= 1
            return True

    def replace_finished(self, slot: int, finished: uuid.UUID) -> None:
        """A finished game leaves its slot to a new one (once, whoever notices first)."""
        with self.lock:
            if self.slots[slot] == finished:
                self.counts["games started"] += 1
                self.slots[slot] = new_game(self.players[self.counts["games started"] % PLAYERS])

    def acknowledge(self, event_id: uuid.UUID, ack: Ack) -> None:
        with self.lock:
            assert event_id not in self.acks, "one event id was acknowledged twice as new"
            self.acks[event_id] = ack
            self.counts["appended"] += 1

    def an_old_ack(self, rng: random.Random) -> tuple[uuid.UUID, Ack] | None:
        with self.lock:
            if not self.acks:
                return None
            event_id = rng.choice(list(self.acks))
            return event_id, self.acks[event_id]

    def count(self, what: str) -> None:
        with self.lock:
            self.counts[what] += 1


def writer(table: Table, seed: int) -> None:
    """Append until the tickets run out: one successful append per ticket, whatever it takes."""
    rng = random.Random(seed)
    while table.take_ticket():
        event_id, ack = append_one(table, rng)
        if rng.random() < 0.15:  # the answer was lost: the client sends the same event again
            resend(table, event_id, ack, rng)
        if rng.random() < 0.1:  # a much older answer was lost, and its event is sent again
            old = table.an_old_ack(rng)
            if old is not None:
                resend(table, *old, rng)


def append_one(table: Table, rng: random.Random) -> tuple[uuid.UUID, Ack]:
    """Read a game, pick a legal move, record it; on a conflict read again and retry."""
    event_id = uuid.uuid4()
    while True:
        slot = rng.randrange(STREAMS)
        stream = Stream.objects.get(pk=table.slots[slot])
        state = folding.load(stream).state
        legal = RULES.legal_events(state)
        if legal is None:
            type, data = "board.laid_out", {"position": LAYOUT}
        elif not legal:
            table.replace_finished(slot, stream.pk)
            continue
        else:
            move = rng.choice(legal)
            type, data = move.type, dict(move.data)
        try:
            recorded = services.event_record(
                stream_id=stream.pk,
                event_id=event_id,
                type=type,
                data=data,
                expected_version=stream.version,
            )
        except journal.VersionConflict as conflict:
            assert conflict.current_version > stream.version
            table.count("conflicts")
            if rng.random() < 0.5:  # a refused event wrote nothing: its id stays free
                event_id = uuid.uuid4()
            continue
        assert recorded.created, "a new event id was answered as a retry"
        assert recorded.event.version == stream.version + 1
        ack = Ack(stream.pk, type, recorded.event.data, recorded.event.version)
        table.acknowledge(event_id, ack)
        return event_id, ack


def resend(table: Table, event_id: uuid.UUID, ack: Ack, rng: random.Random) -> None:
    """Send an acknowledged event again, with whatever expected version the client had then."""
    again = services.event_record(
        stream_id=ack.stream_id,
        event_id=event_id,
        type=ack.type,
        data=ack.data,
        expected_version=ack.version - 1 if rng.random() < 0.5 else None,
    )
    assert not again.created
    assert (again.event.id, again.event.version, again.event.data) == (
        event_id,
        ack.version,
        ack.data,
    )
    table.count("resent")


def test_a_thousand_appends_by_eight_writers_over_twenty_streams_lose_and_repeat_nothing():
    # given twenty games in play, among three players
    table = Table([Player.objects.create(name=f"Player {n}") for n in range(PLAYERS)])
    table.slots = [new_game(table.players[n % PLAYERS]) for n in range(STREAMS)]
    started = time.monotonic()

    # when eight writers append a thousand events among them, with conflicts and resends
    results = in_threads(WRITERS, lambda i: writer(table, seed=1000 + i))

    # then no writer failed, and every acknowledged event is stored exactly once, where it landed
    elapsed = time.monotonic() - started
    errors = [r for r in results if isinstance(r, BaseException)]
    assert not errors, errors
    assert table.counts["appended"] == len(table.acks) == APPENDS
    stored = {e.id: e for e in Event.objects.filter(id__in=list(table.acks))}
    assert len(stored) == APPENDS
    for event_id, ack in table.acks.items():
        event = journal.read(stored[event_id])
        assert (event.stream_id, event.type, event.data, event.version) == (
            ack.stream_id,
            ack.type,
            ack.data,
            ack.version,
        )
    # nothing else was written: only the acknowledged events and each game's start
    streams = list(Stream.objects.all())
    assert Event.objects.exclude(type="game.started").count() == APPENDS
    assert Event.objects.filter(type="game.started").count() == len(streams)
    assert len(streams) == STREAMS + table.counts["games started"]

    # every stream's versions run 1..N without a gap, and its fold equals its snapshot
    for stream in streams:
        versions = list(stream.events.order_by("version").values_list("version", flat=True))
        assert versions == list(range(1, stream.version + 1)), stream.pk
        snapshot = folding.unpack(stream)
        assert snapshot is not None, stream.pk
        refolded = folding.refold(stream)
        assert (refolded.header, refolded.state) == (snapshot.header, snapshot.state), stream.pk

    # the players' records count every game they started and finished
    assert PlayerRecord.objects.count() == PLAYERS
    for record in PlayerRecord.objects.all():
        games = Stream.objects.filter(game__seats__player=record.player_id)
        assert record.games_played == games.count()
        assert record.games_finished == games.filter(status="finished").count()

    # and the hash chains hold
    out = io.StringIO()
    call_command("verify_events", stdout=out, stderr=io.StringIO())
    assert f"Checked {len(streams)} streams and {APPENDS + len(streams)} events" in out.getvalue()
    assert "0 problem(s)" in out.getvalue()

    assert table.counts["conflicts"] > 0 and table.counts["resent"] > 0
    assert elapsed < DEADLINE, table.counts
    print(f"{APPENDS} appends in {elapsed:.1f} s: {dict(table.counts)}")
