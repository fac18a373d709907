"""The event store (ARCHITECTURE.md "The event store"): append-only rows, hash chains, idempotent
appends, time travel and upcasting on read, all on PostgreSQL."""

from __future__ import annotations

import hashlib
import io
import json
import uuid
from typing import Any

import psycopg
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from games.play import appending, services
from games.rules import registry
from games.rules.base import Move
from games.rules.scarney_board.board import CIRCLES, circle_name
from games.store import event_types, folding, journal
from games.store.models import Event, ImmutableRowError, Stream

pytestmark = pytest.mark.django_db

KIND = "scarney-solitaire"
RULES = registry.get(KIND)
# Every pawn on the board, the four colours on each row and column, so that play runs long
# (laid out B1..G4 row by row, one colour to a row, no game lasts beyond three jumps).
MIXED = ("B1 R1 Y1 G1", "R2 Y2 G2 B2", "Y3 G3 B3 R3", "G4 B4 R4 Y4")
LAYOUT = {circle_name(c): pawn for c, pawn in zip(CIRCLES, " ".join(MIXED).split(), strict=True)}

# A pawn.jumped payload exactly as schema version 1 stored it: circles as the client sent them.
FROZEN_V1_JUMP: dict[str, Any] = {"from": "C11", "to": "C9"}
# A study position in which C11 may jump C10 to C9, and play goes on after that jump.
STUDY = {"C11": "B3", "C10": "R2", "C1": "G1", "C2": "Y4"}


def new_game(setup: dict[str, Any] | None = None) -> Stream:
    game = services.game_start(kind=KIND, seats=[{"name": "Ann"}], setup=setup)
    return Stream.objects.get(pk=game.pk)


def record(stream_id: uuid.UUID, type: str, data: dict[str, Any], **kwargs: Any) -> Any:
    kwargs.setdefault("event_id", uuid.uuid4())
    return services.event_record(stream_id=stream_id, type=type, data=data, **kwargs)


def long_line(state: Any, length: int) -> list[Move] | None:
    """The first line of ``length`` legal moves from ``state`` found depth-first, or None."""
    if length == 0:
        return []
    for move in RULES.legal_events(state) or []:
        rest = long_line(RULES.apply(state, move), length - 1)
        if rest is not None:
            return [move, *rest]
    return None


LAID_OUT = RULES.apply(
    RULES.initial_state({}, None, 1), Move("board.laid_out", {"position": LAYOUT})
)
# The take-off and the jumps the tests play, in order (the first legal move soon ends the game).
LINE = long_line(LAID_OUT, 9)


def play(stream: Stream, moves: int) -> list[appending.Recorded]:
    """Lay the board out, then play LINE: ``moves`` events after ``game.started`` in all."""
    outcomes = [record(stream.pk, "board.laid_out", {"position": LAYOUT}, expected_version=1)]
    for move in LINE[: moves - 1]:
        version = outcomes[-1].event.version
        outcomes.append(record(stream.pk, move.type, dict(move.data), expected_version=version))
    return outcomes


def next_legal(stream: Stream) -> Move:
    stream.refresh_from_db()
    return RULES.legal_events(folding.load(stream).state)[0]


@pytest.fixture
def played() -> Stream:
    """A Solitaire game at version 6: started, laid out, a pawn taken off, three jumps."""
    stream = new_game()
    play(stream, 5)
    stream.refresh_from_db()
    assert stream.version == 6
    return stream


def verify(**kwargs: Any) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("verify_events", stdout=out, stderr=err, **kwargs)
    return out.getvalue(), err.getvalue()


# --- append-only, in the ORM ---------------------------------------------------------------------


def test_saving_an_existing_event_raises_immutable_row_error(played):
    event = Event.objects.filter(stream=played).last()
    original = dict(event.data)
    event.data = {"tampered": True}

    with pytest.raises(ImmutableRowError):
        event.save()

    assert Event.objects.get(pk=event.pk).data == original


def test_deleting_an_event_raises_immutable_row_error(played):
    event = Event.objects.filter(stream=played).last()

    with pytest.raises(ImmutableRowError):
        event.delete()

    assert Event.objects.filter(pk=event.pk).exists()


def test_a_queryset_update_of_events_raises_immutable_row_error(played):
    with pytest.raises(ImmutableRowError):
        Event.objects.filter(stream=played).update(type="move.undone")

    assert not Event.objects.filter(type="move.undone").exists()


def test_a_queryset_delete_of_events_raises_immutable_row_error(played):
    with pytest.raises(ImmutableRowError):
        Event.objects.filter(stream=played).delete()

    assert Event.objects.filter(stream=played).count() == 6


# --- append-only, in PostgreSQL itself -----------------------------------------------------------


def _raw(sql: str, params: list[Any]) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)


def test_a_raw_sql_update_of_an_event_is_refused_by_the_trigger(played):
    event = Event.objects.filter(stream=played).last()

    with pytest.raises(IntegrityError) as refused:
        _raw("UPDATE games_event SET data = '{}'::jsonb WHERE position = %s", [event.pk])

    assert isinstance(refused.value.__cause__, psycopg.errors.RestrictViolation)
    assert "append-only: UPDATE refused" in str(refused.value)
    assert Event.objects.get(pk=event.pk).data == event.data


def test_a_raw_sql_delete_of_an_event_is_refused_by_the_trigger(played):
    event = Event.objects.filter(stream=played).last()

    with pytest.raises(IntegrityError) as refused:
        _raw("DELETE FROM games_event WHERE position = %s", [event.pk])

    assert isinstance(refused.value.__cause__, psycopg.errors.RestrictViolation)
    assert "append-only: DELETE refused" in str(refused.value)
    assert Event.objects.filter(pk=event.pk).exists()


# --- the hash chain ------------------------------------------------------------------------------


def test_each_event_hash_chains_the_previous_hash_and_the_event(played):
    previous = ""
    for event in Event.objects.filter(stream=played).order_by("version"):
        assert event.hash == journal.chain_hash(previous, event)
        previous = event.hash

    assert played.head_hash == previous


def test_the_first_event_of_a_stream_chains_from_the_empty_hash(played):
    first = Event.objects.get(stream=played, version=1)

    assert first.type == "game.started"
    assert first.hash == journal.chain_hash("", first)


def test_the_chain_hash_changes_with_the_data_and_with_the_previous_hash(played):
    event = Event.objects.filter(stream=played).last()
    previous = Event.objects.get(stream=played, version=event.version - 1).hash
    altered = Event(**{f.attname: getattr(event, f.attname) for f in Event._meta.fields})
    altered.data = {**event.data, "from": 16}

    assert journal.chain_hash(previous, altered) != event.hash
    assert journal.chain_hash("0" * 64, event) != event.hash


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(previous=st.text(max_size=64), data=_json_values, meta=_json_values, type=st.text())
def test_the_chain_hash_is_sha256_of_the_json_list_it_has_always_hashed(
    previous: str, data: Any, meta: Any, type: str
) -> None:
    # Written piece by piece now (the append sends the data's JSON it hashed): the same bytes
    # as the one json.dumps of the whole list every stored hash was made with.
    event = journal.Draft(
        stream_id=uuid.uuid4(), version=7, event_id=uuid.uuid4(), type=type, data=data, meta=meta
    )
    body = json.dumps(
        [
            previous,
            str(event.stream_id),
            event.version,
            str(event.id),
            event.type,
            event.schema_version,
            event.data,
            event.meta,
            event.recorded_at.isoformat(),
        ],
        sort_keys=True,
        separators=(",", ":"),
        default=str,
    )
    assert journal.chain_hash(previous, event) == hashlib.sha256(body.encode()).hexdigest()


def test_verify_events_counts_the_streams_and_events_it_checked_on_a_clean_database(played):
    play(new_game(), 3)  # a second stream of 3 + 1 events, beside the 6 of the first

    out, err = verify()

    # ... and the register's: opened, then its one new player (2 events).
    assert "Checked 3 streams and 12 events: 0 problem(s)." in out
    assert err == ""


def test_verify_events_names_the_stream_and_version_of_a_tampered_event(played):
    tampered = Event.objects.get(stream=played, version=4)
    with connection.cursor() as cursor:
        # Django's foreign keys are deferred: their checks must run before the table is altered.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("ALTER TABLE games_event DISABLE TRIGGER games_event_append_only")
        cursor.execute(
            "UPDATE games_event SET data = %s::jsonb WHERE position = %s",
            ['{"circle": 1}', tampered.pk],
        )
        cursor.execute("ALTER TABLE games_event ENABLE TRIGGER games_event_append_only")
    err = io.StringIO()

    with pytest.raises(CommandError, match=r"1 problem\(s\)"):
        call_command("verify_events", stdout=io.StringIO(), stderr=err)

    assert f"stream {played.pk} (scarney-solitaire) version 4: hash mismatch" in err.getvalue()


# --- idempotency ---------------------------------------------------------------------------------


def test_the_same_event_id_and_body_again_writes_nothing_and_gives_the_same_answer(played):
    # given an event just recorded
    event_id = uuid.uuid4()
    legal = next_legal(played)
    first = record(played.pk, legal.type, dict(legal.data), event_id=event_id, expected_version=6)
    events_before = Event.objects.count()

    # when the client sends it again (its answer was lost)
    again = record(played.pk, legal.type, dict(legal.data), event_id=event_id, expected_version=6)

    # then
    assert first.created is True
    assert again.created is False
    assert again.event == first.event
    assert again.folded.state == first.folded.state
    assert again.folded.version == first.folded.version == 7
    assert Event.objects.count() == events_before
    played.refresh_from_db()
    assert played.version == 7


def test_a_retry_of_an_old_event_answers_as_at_its_version_without_a_version_conflict(played):
    # the 3rd event recorded, sent again after the stream moved on to version 6
    original = Event.objects.get(stream=played, version=3)

    again = record(
        played.pk, original.type, original.data, event_id=original.id, expected_version=2
    )

    assert again.created is False
    assert again.event.version == 3
    assert again.folded.state == folding.load(played, at_version=3).state
    assert Event.objects.filter(stream=played).count() == 6


def test_a_retry_that_names_circles_differently_is_the_same_event(played):
    event_id = uuid.uuid4()
    jump = next_legal(played)
    first = record(played.pk, jump.type, dict(jump.data), event_id=event_id)
    as_names = {"from": f"C{jump.data['from']}", "to": f"c{jump.data['to']}"}

    again = record(played.pk, jump.type, as_names, event_id=event_id)

    assert first.created and not again.created
    assert again.event == first.event


def test_the_same_event_id_with_another_body_is_refused_as_reused(played):
    event_id = uuid.uuid4()
    jump = next_legal(played)
    record(played.pk, jump.type, dict(jump.data), event_id=event_id)
    other_body = {"from": jump.data["to"], "to": jump.data["from"]}
    events_before = Event.objects.count()

    with pytest.raises(journal.EventIdReused) as refused:
        record(played.pk, jump.type, other_body, event_id=event_id)

    assert refused.value.event_id == event_id
    assert Event.objects.count() == events_before


def test_the_same_event_id_on_another_stream_is_refused_as_reused(played):
    other = new_game()
    event_id = Event.objects.get(stream=played, version=2).id

    with pytest.raises(journal.EventIdReused):
        record(other.pk, "board.laid_out", {"position": LAYOUT}, event_id=event_id)

    other.refresh_from_db()
    assert other.version == 1


def test_a_stale_expected_version_is_a_conflict_that_names_the_current_version(played):
    with pytest.raises(journal.VersionConflict) as conflict:
        record(played.pk, "pawn.jumped", {"from": 14, "to": 6}, expected_version=5)

    assert conflict.value.current_version == 6
    assert Event.objects.filter(stream=played).count() == 6


# --- time travel ---------------------------------------------------------------------------------


def test_the_state_at_version_n_is_the_fold_of_the_first_n_events():
    stream = new_game()
    after = {1: folding.load(stream)}
    after.update({o.event.version: o.folded for o in play(stream, 8)})
    stream.refresh_from_db()
    moves = [Move(e.type, e.data) for e in journal.stream_events(stream.pk)][1:]

    for n in range(1, stream.version + 1):
        at_n = folding.load(stream, at_version=n)
        state = RULES.initial_state({}, after[1].state.ruleset, 1)
        for move in moves[: n - 1]:
            state = RULES.apply(state, move)
        assert at_n.version == n
        assert at_n.state == state == after[n].state
        assert at_n.header == after[1].header


def test_the_state_at_the_current_version_is_the_snapshot_and_equals_a_full_refold(played):
    assert folding.unpack(played) is not None
    assert folding.load(played, at_version=played.version) == folding.refold(played)


# --- upcasting on read ---------------------------------------------------------------------------


def test_upcast_turns_a_frozen_v1_jump_into_circle_numbers_without_touching_the_payload():
    frozen = dict(FROZEN_V1_JUMP)

    assert event_types.upcast("pawn.jumped", frozen, 1) == {"from": 11, "to": 9}
    assert frozen == FROZEN_V1_JUMP


def test_upcast_converts_an_over_circle_and_leaves_numbers_and_current_data_alone():
    assert event_types.upcast("pawn.jumped", {"from": "c11", "over": "C10", "to": 9}, 1) == {
        "from": 11,
        "over": 10,
        "to": 9,
    }
    assert event_types.upcast("pawn.jumped", {"from": "C11", "to": "C9"}, 2) == {
        "from": "C11",
        "to": "C9",
    }


def test_upcast_turns_a_v1_take_off_circle_into_its_number():
    assert event_types.upcast("pawn.taken_off", {"circle": "C7"}, 1) == {"circle": 7}


def test_upcast_leaves_types_without_upcasters_alone():
    layout = {"position": {"C1": "B1"}}

    assert event_types.upcast("board.laid_out", layout, 1) == layout
    assert event_types.upcast("no.such_type", {"x": "C1"}, 1) == {"x": "C1"}


def test_a_stored_v1_jump_reads_back_upcast_and_stays_v1_in_the_table():
    # given a game whose second event was stored by schema version 1
    stream = new_game(setup={"position": STUDY})
    row = _insert_v1_jump(stream)

    # when it is read
    read = journal.read(Event.objects.get(pk=row.pk))

    # then the reader sees the current shape, and the row was not rewritten
    assert read.data == {"from": 11, "to": 9}
    assert read.schema_version == 1
    stored = Event.objects.get(pk=row.pk)
    assert (stored.schema_version, stored.data) == (1, FROZEN_V1_JUMP)
    assert [e.data for e in journal.stream_events(stream.pk)][1] == {"from": 11, "to": 9}


def test_a_stream_with_a_v1_event_folds_verifies_and_takes_new_events():
    stream = new_game(setup={"position": STUDY})
    _insert_v1_jump(stream)

    board = RULES.view(folding.load(stream).state)["board"]
    after = record(stream.pk, "pawn.jumped", {"from": 1, "to": 3}, expected_version=2)
    out, _ = verify()

    assert (board["C11"], board["C10"], board["C9"]) == (None, None, "B3")
    assert after.event.version == 3
    assert after.event.schema_version == event_types.current_version("pawn.jumped") == 2
    assert "0 problem(s)" in out


def _insert_v1_jump(stream: Stream) -> Event:
    """Write FROZEN_V1_JUMP as the stream's next event, as the v1 code did (no upcast)."""
    stream.refresh_from_db()
    row = Event(
        id=uuid.uuid4(),
        stream=stream,
        version=stream.version + 1,
        type="pawn.jumped",
        schema_version=1,
        data=dict(FROZEN_V1_JUMP),
        meta={"recorded_by": None},
        recorded_at=timezone.now(),
    )
    row.hash = journal.chain_hash(stream.head_hash, row)
    row.save(force_insert=True)
    stream.version, stream.head_hash = row.version, row.hash
    stream.save(update_fields=["version", "head_hash"])
    return row
