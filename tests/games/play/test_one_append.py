"""One write path: the fast path is part of the one append (games.play.appending.append), not a
second door beside it. A game's move by its stream's id is written by the fast statement there,
and anything it does not write takes the locked path handed to the same append."""

from __future__ import annotations

import random
import uuid
from typing import Any

import grimp
import pytest
from django.db import connection

from games.play import appending, services
from games.store import folding, journal
from games.store.models import Event, Stream
from tests.play import random_layout, record

STORE_INSIDE = "games.store."


def test_only_the_one_append_reaches_the_fast_path() -> None:
    graph = grimp.build_graph("games", "scoring", "scarney_site", include_external_packages=False)
    importers = graph.find_modules_that_directly_import("games.store.fast_append")
    outside_the_store = {m for m in importers if not m.startswith(STORE_INSIDE)}
    assert outside_the_store == {"games.play.appending"}


def started_game() -> tuple[uuid.UUID, Any]:
    rng = random.Random(3)
    game = services.game_start(kind="scarney-solitaire", seats=[{"name": "Fay"}])
    record(game.pk, random_layout(rng))
    folded = folding.load(Stream.objects.get(pk=game.pk))
    return game.pk, folded.engine.rules.legal_events(folded.state)[0]


@pytest.mark.django_db(transaction=True)
def test_a_game_move_by_its_stream_id_is_written_by_the_one_append_in_one_statement(
    django_assert_max_num_queries: Any,
) -> None:
    # given a game on PostgreSQL, laid out, and a legal move
    game_id, move = started_game()
    # when the move is appended by the stream's id
    with django_assert_max_num_queries(1):
        recorded = appending.append(
            game_id,
            uuid.uuid4(),
            move.type,
            dict(move.data),
            appending.recorded_meta(None, {}),
            expected_version=2,
        )
    # then the fast path wrote it, inside the one append: one statement, no lock taken
    assert connection.vendor == "postgresql"
    assert recorded.created and recorded.folded.version == 3
    assert Event.objects.filter(stream_id=game_id).count() == 3


@pytest.mark.django_db(transaction=True)
def test_what_the_fast_path_does_not_write_takes_the_locked_path_of_the_same_append() -> None:
    # given a game, and a legal move at a version the stream is not at
    game_id, move = started_game()
    # when it is appended by the stream's id; then the locked path refuses it, with the version
    with pytest.raises(journal.VersionConflict):
        appending.append(
            game_id,
            uuid.uuid4(),
            move.type,
            dict(move.data),
            appending.recorded_meta(None, {}),
            expected_version=7,
        )
    assert Event.objects.filter(stream_id=game_id).count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_client_event_on_a_match_is_appended_by_its_stream_id_under_the_lock() -> None:
    # given a sheet match (no fast path for a match)
    match = services.match_start(
        format="scarney-singles",
        players=[{"name": n} for n in "ABC"],
        entry="sheet",
    )
    # when a game's scores are appended by the match's id
    recorded = appending.append(
        match.pk,
        uuid.uuid4(),
        "game.scored",
        {"scores": [32, 19, 6]},
        appending.recorded_meta(None, {}),
        category="match",
    )
    # then it is recorded on the locked path
    assert recorded.created and recorded.folded.version == 2
