"""Tamper evidence against a database superuser (docs/DESIGN.md "Checkpoints and snapshots").

Whoever can write to the database can write any row: a snapshot, an event with its whole hash
chain recomputed, a checkpoint. What they cannot do is make a snapshot the web process trusts
(authenticated with a key derived from SECRET_KEY) or sign a checkpoint (an Ed25519 key kept in
the environment or a file): these tests act as that superuser and show what is caught.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import json
import os
import pathlib
import pickle
import stat
import struct
import uuid
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.utils.crypto import salted_hmac

from games.play import services
from games.play.register import REGISTER_ID
from games.rules import registry
from games.rules.base import Move
from games.rules.scarney_board.board import CIRCLES, circle_name
from games.store import fast_append, folding, journal
from games.store.folding import snapshots
from games.store.models import Checkpoint, Event, Player, Stream
from tests.play import record

pytestmark = pytest.mark.django_db

KIND = "scarney-solitaire"
RULES = registry.get(KIND)
# Every pawn on the board, the four colours on each row and column, so that play runs long.
MIXED = ("B1 R1 Y1 G1", "R2 Y2 G2 B2", "Y3 G3 B3 R3", "G4 B4 R4 Y4")
LAYOUT = {circle_name(c): pawn for c, pawn in zip(CIRCLES, " ".join(MIXED).split(), strict=True)}
LAID_OUT = Move("board.laid_out", {"position": LAYOUT})


@pytest.fixture(autouse=True)
def checkpoint_key(settings: Any, tmp_path: Path) -> Path:
    """This test's own checkpoint key file (made on first use), never the repository's var/."""
    settings.CHECKPOINT_KEY = ""
    settings.CHECKPOINT_KEY_FILE = tmp_path / "keys" / "checkpoint.key"
    path: Path = settings.CHECKPOINT_KEY_FILE
    return path


def long_line(state: Any, length: int) -> list[Move] | None:
    """The first line of ``length`` legal moves from ``state`` found depth-first, or None."""
    if length == 0:
        return []
    for move in RULES.legal_events(state) or []:
        rest = long_line(RULES.apply(state, move), length - 1)
        if rest is not None:
            return [move, *rest]
    return None


LINE = long_line(RULES.apply(RULES.initial_state({}, None, 1), LAID_OUT), 8) or []


def new_game(name: str = "Ann") -> uuid.UUID:
    return services.game_start(kind=KIND, seats=[{"name": name}]).pk


def play(game: uuid.UUID, moves: int, start: int = 0) -> folding.Folded:
    """Record ``moves`` moves of the laid-out board and LINE (from move ``start``)."""
    folded = None
    for move in [LAID_OUT, *LINE][start : start + moves]:
        folded = record(game, move)
    assert folded is not None
    return folded


def stream(game: uuid.UUID) -> Stream:
    return Stream.objects.get(pk=game)


def verify(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("verify_events", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def verify_fails(*args: str) -> str:
    err = io.StringIO()
    with pytest.raises(CommandError) as failed:
        call_command("verify_events", *args, stdout=io.StringIO(), stderr=err)
    return f"{failed.value}\n{err.getvalue()}"


def checkpoint() -> Checkpoint:
    call_command("checkpoint", stdout=io.StringIO())
    return Checkpoint.objects.order_by("-id").first()


# --- acting as the database superuser -------------------------------------------------------------


def rewrite_event(game: uuid.UUID, version: int, data: dict[str, Any]) -> None:
    """Rewrite one event's data as a superuser would: the append-only trigger disabled (see
    migration 0002), the stream's whole hash chain and its head recomputed, and its snapshot
    dropped (it can no longer be made to match: it is authenticated with a key the database
    does not hold). Every chain then holds."""
    with connection.cursor() as cursor:
        # Django's foreign keys are deferred: their checks must run before the table is altered.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("ALTER TABLE games_event DISABLE TRIGGER games_event_append_only")
        cursor.execute(
            "UPDATE games_event SET data = %s::jsonb WHERE stream_id = %s AND version = %s",
            [json.dumps(data), game, version],
        )
        previous = ""
        for row in Event.objects.filter(stream_id=game).order_by("version"):
            previous = journal.chain_hash(previous, row)
            cursor.execute(
                "UPDATE games_event SET hash = %s WHERE position = %s", [previous, row.pk]
            )
        cursor.execute("ALTER TABLE games_event ENABLE TRIGGER games_event_append_only")
        cursor.execute(
            "UPDATE games_stream SET head_hash = %s, snapshot = NULL WHERE id = %s",
            [previous, game],
        )
    fast_append.forget(game)


def another_legal_move(game: uuid.UUID, version: int) -> Move:
    """A legal move at ``version`` other than the one recorded there."""
    before = folding.load(stream(game), at_version=version - 1).state
    recorded = Event.objects.get(stream_id=game, version=version).data
    return next(m for m in RULES.legal_events(before) if dict(m.data) != recorded)


class Payload:
    """A pickle that creates a file when it is loaded: what a snapshot could run in the web
    process if it were unpickled unchecked."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> Any:
        return (pathlib.Path.touch, (self.path,))


# --- 1. snapshots are authenticated before they are unpickled -----------------------------------


def test_a_malicious_pickle_written_into_a_snapshot_is_never_unpickled(tmp_path: Path) -> None:
    game = new_game()
    play(game, 4)
    marker = tmp_path / "owned"
    evil = pickle.dumps(Payload(marker), pickle.HIGHEST_PROTOCOL)
    wrong_key = hmac.digest(b"a key the attacker made up", evil, "sha256")

    for forged in (evil, bytes(32) + evil, wrong_key + evil, evil + wrong_key):
        # when a superuser writes it over the snapshot (at the stream's version)
        Stream.objects.filter(pk=game).update(snapshot=forged)
        fast_append.forget(game)  # as in a web worker that never saw the stream

        # then it is ignored, the state is the events' and the next move is recorded
        assert folding.unpack(stream(game)) is None
        assert folding.load(stream(game)).state == folding.refold(stream(game)).state
        assert not marker.exists()

    legal = RULES.legal_events(folding.refold(stream(game)).state)[0]
    after = record(game, legal)
    assert not marker.exists()
    assert after.state == folding.refold(stream(game)).state
    assert folding.unpack(stream(game)) is not None  # the append made an authentic one again
    verify()


def test_a_snapshot_copied_from_another_stream_or_version_is_ignored() -> None:
    first, second = new_game("Ann"), new_game("Bob")
    play(first, 2)
    old = bytes(stream(first).snapshot)  # of version 3
    play(first, 2, start=2)
    second_state = play(second, 1).state
    for _ in range(3):  # version 5 too, by another line of play
        second_state = record(second, RULES.legal_events(second_state)[-1]).state
    assert stream(first).version == stream(second).version == 5
    truth = folding.refold(stream(first)).state
    assert truth != second_state

    for forged in (bytes(stream(second).snapshot), old):
        Stream.objects.filter(pk=first).update(snapshot=forged, snapshot_version=5)

        assert folding.unpack(stream(first)) is None
        assert folding.load(stream(first)).state == truth


def test_a_snapshot_of_another_format_or_secret_key_is_ignored(
    monkeypatch: Any, settings: Any
) -> None:
    game = new_game()
    play(game, 3)
    assert folding.unpack(stream(game)) is not None

    monkeypatch.setattr(snapshots, "SNAPSHOT_FORMAT", folding.SNAPSHOT_FORMAT + 1)
    assert folding.unpack(stream(game)) is None
    monkeypatch.undo()

    settings.SECRET_KEY = "another installation's secret key"
    assert folding.unpack(stream(game)) is None


def test_the_snapshot_format_was_bumped_so_unauthenticated_snapshots_are_ignored() -> None:
    assert folding.SNAPSHOT_FORMAT >= 4


def test_the_snapshot_mac_is_django_salted_hmac_sha256_of_format_version_stream_and_pickle(
    settings: Any,
) -> None:
    game = new_game()
    folded = play(game, 2)

    snapshot = folding.pack(folded, game)

    body = snapshot[32:]
    bound = struct.pack(">HQ", folding.SNAPSHOT_FORMAT, 3) + game.bytes
    mac = salted_hmac("games.store.folding.snapshot", bound + body, algorithm="sha256")
    assert snapshot[:32] == mac.digest()
    assert pickle.loads(body) == (folded.header, folded.state)


def test_the_snapshot_mac_derives_its_key_once_not_per_snapshot() -> None:
    # given the state the append path packs after every event (its cost is part of every
    # append bench/append.py measures; a timed test here failed on a loaded machine)
    game = new_game()
    folded = play(game, 6)
    snapshots._hmac_pads.cache_clear()
    # when a hundred snapshots are packed
    packed = [folding.pack(folded, game) for _ in range(100)]
    # then the key's pads were hashed once, each snapshot costing one pass over its pickle, and
    # the MAC adds its 32 bytes and nothing else
    info = snapshots._hmac_pads.cache_info()
    assert (info.misses, info.hits) == (1, 99)
    assert len(packed[0]) == 32 + len(packed[0][32:]) and len(set(packed)) == 1
    assert pickle.loads(packed[0][32:]) == (folded.header, folded.state)


# --- 2. signed checkpoints ------------------------------------------------------------------------


def public_of(path: Path) -> Any:
    key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    assert isinstance(key, Ed25519PrivateKey)
    return key.public_key()


def raw(public: Any) -> bytes:
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def test_checkpoint_signs_the_head_of_every_stream_with_a_key_made_in_a_0600_file(
    checkpoint_key: Path,
) -> None:
    first, second = new_game("Ann"), new_game("Bob")
    play(first, 3)
    play(second, 1)
    assert not checkpoint_key.exists()

    signed = checkpoint()

    # Ann and Bob were new names: the register's stream recorded them (opened, then two).
    assert signed.heads == {
        str(first): [4, stream(first).head_hash],
        str(second): [2, stream(second).head_hash],
        str(REGISTER_ID): [3, stream(REGISTER_ID).head_hash],
    }
    canonical = json.dumps(signed.heads, sort_keys=True, separators=(",", ":"))
    assert signed.digest == hashlib.sha256(canonical.encode()).hexdigest()
    assert stat.S_IMODE(os.stat(checkpoint_key).st_mode) == 0o600
    public = public_of(checkpoint_key)
    public.verify(bytes.fromhex(signed.signature), bytes.fromhex(signed.digest))  # or raises
    assert signed.key_id == hashlib.sha256(raw(public)).hexdigest()


@pytest.mark.parametrize("form", ["base64", "pem"])
def test_the_checkpoint_key_may_come_from_the_environment(
    form: str, settings: Any, checkpoint_key: Path
) -> None:
    key = Ed25519PrivateKey.generate()
    if form == "pem":
        settings.CHECKPOINT_KEY = key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ).decode()
    else:
        settings.CHECKPOINT_KEY = base64.b64encode(
            key.private_bytes(
                serialization.Encoding.Raw,
                serialization.PrivateFormat.Raw,
                serialization.NoEncryption(),
            )
        ).decode()
    play(new_game(), 2)

    signed = checkpoint()

    key.public_key().verify(bytes.fromhex(signed.signature), bytes.fromhex(signed.digest))
    assert signed.key_id == hashlib.sha256(raw(key.public_key())).hexdigest()
    assert not checkpoint_key.exists()
    verify()


def test_a_checkpoint_with_nothing_new_to_sign_is_not_made() -> None:
    game = new_game()
    play(game, 2)
    first = checkpoint()

    checkpoint()
    assert Checkpoint.objects.count() == 1

    play(game, 1, start=2)
    assert checkpoint().pk != first.pk


def test_a_rewritten_and_rechained_event_passes_without_checkpoints_and_fails_with_them() -> None:
    # given a game signed at version 5 and again at version 6
    game = new_game()
    play(game, 4)
    at_five = checkpoint()
    play(game, 1, start=4)
    at_six = checkpoint()
    assert at_six.heads[str(game)][0] == 6

    # when a superuser records another (legal) move at version 6 and recomputes the chain
    rewrite_event(game, 6, dict(another_legal_move(game, 6).data))

    # then verify_events names the event, and the checkpoint that signed it
    report = verify_fails()
    assert f"stream {game} (scarney-solitaire) version 6" in report
    assert f"was changed after checkpoint {at_six.pk} (" in report
    assert "1 problem(s)" in report

    # and without the checkpoints (which the superuser can delete) every chain holds
    Checkpoint.objects.filter(pk__in=[at_five.pk, at_six.pk]).delete()
    out, err = verify()
    assert "0 problem(s)" in out and err == ""
    assert "no checkpoint" in out.lower()


def test_a_rewrite_before_the_last_signed_head_is_narrowed_to_the_versions_signed() -> None:
    # given a game signed at version 6 only
    game = new_game()
    play(game, 5)
    signed = checkpoint()
    eve = Player.objects.create(name="Eve")

    # when a superuser puts someone else in the game's seat (its first event) and rechains
    header = Event.objects.get(stream_id=game, version=1).data
    header["seats"][0] = {**header["seats"][0], "player": eve.pk, "name": "Eve"}
    rewrite_event(game, 1, header)

    # then the stream's signed head no longer matches, and the report says which versions
    report = verify_fails()
    assert f"stream {game} (scarney-solitaire) version 6" in report
    assert f"checkpoint {signed.pk}" in report
    assert "versions 1..6" in report


def test_verify_events_reports_a_checkpoint_whose_signature_does_not_verify() -> None:
    game = new_game()
    play(game, 3)
    signed = checkpoint()
    play(game, 1, start=3)
    moved = checkpoint()
    rewrite_event(game, 5, dict(another_legal_move(game, 5).data))

    # a superuser "updates" a checkpoint to the new head: the digest, not the signature
    heads = {str(game): [5, stream(game).head_hash]}
    digest = hashlib.sha256(
        json.dumps(heads, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()
    Checkpoint.objects.filter(pk=signed.pk).update(heads=heads, digest=digest)
    # ... and adds one signed with a key of their own
    theirs = Ed25519PrivateKey.generate()
    forged = Checkpoint.objects.create(
        heads=heads,
        digest=digest,
        signature=theirs.sign(bytes.fromhex(digest)).hex(),
        key_id=hashlib.sha256(raw(theirs.public_key())).hexdigest(),
    )
    # ... and changes the heads of another under its digest
    Checkpoint.objects.filter(pk=moved.pk).update(heads={str(game): [5, "0" * 64]})

    report = verify_fails()

    assert f"checkpoint {signed.pk}" in report and "signature does not verify" in report
    assert f"checkpoint {forged.pk}" in report and "another key" in report
    assert f"checkpoint {moved.pk}" in report and "do not match its digest" in report


def test_checkpoint_refuses_to_sign_a_history_rewritten_since_the_last_one() -> None:
    # given a game signed at version 5, rewritten there, then played on
    game = new_game()
    play(game, 4)
    signed = checkpoint()
    original = signed.heads[str(game)]
    rewrite_event(game, 5, dict(another_legal_move(game, 5).data))
    fast_append.forget(game)
    legal = RULES.legal_events(folding.refold(stream(game)).state)[0]
    record(game, legal)  # version 6, chained onto the rewritten history
    other = new_game("Bob")

    # when the next checkpoint is made
    with pytest.raises(CommandError, match=f"stream {game}.*version 5"):
        call_command("checkpoint", stdout=io.StringIO(), stderr=io.StringIO())

    # then it signs the other streams but keeps the rewritten one at its last signed head
    latest = Checkpoint.objects.order_by("-id").first()
    assert latest.pk != signed.pk
    assert latest.heads[str(game)] == original
    assert latest.heads[str(other)] == [1, stream(other).head_hash]
    assert f"stream {game} (scarney-solitaire) version 5" in verify_fails()


def test_verify_events_without_the_key_reports_the_checkpoints_it_cannot_check(
    checkpoint_key: Path,
) -> None:
    play(new_game(), 2)
    verify()
    assert not checkpoint_key.exists()  # verifying makes no key

    checkpoint()
    checkpoint_key.unlink()

    assert "cannot be verified" in verify_fails()
    assert not checkpoint_key.exists()


def test_the_beat_task_signs_a_checkpoint(settings: Any) -> None:
    from scoring import tasks

    entry = next(
        e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "scoring.checkpoint"
    )
    assert entry["schedule"] > 0
    play(new_game(), 2)

    made = tasks.checkpoint()

    assert made == Checkpoint.objects.get().pk
    assert tasks.checkpoint() is None  # nothing new since
