"""Checks every game's conformance test makes, through the service layer.

``record`` appends one move as a table would (a fresh event id each time); ``assert_replays``
holds a stream's stored state equal to a replay of its events; ``projection_rows`` and
``assert_rebuild_equal`` hold ``rebuild_projections`` equal, row for row, to the inline read side.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from django.core.management import call_command
from django.forms.models import model_to_dict

from games.play import services
from games.rules.base import Move
from games.store import folding
from games.store.models import Stream
from scoring.models import (
    BonusAward,
    GameSummary,
    MatchStanding,
    PlayerRecord,
    Rating,
    RatingPoint,
    RatingResult,
)
from tests.declared import assert_move_declared


def record(stream_id: uuid.UUID, move: Move) -> folding.Folded:
    """Record ``move`` on a game or a sheet match; a legal move must never be refused."""
    recorded = services.event_record(
        stream_id=stream_id, event_id=uuid.uuid4(), type=move.type, data=dict(move.data)
    )
    assert recorded.created
    assert_move_declared(recorded.folded, move)
    return recorded.folded


def assert_replays(stream_id: uuid.UUID, folded: folding.Folded | None = None) -> folding.Folded:
    """The state a replay of the stream's events gives equals the stored (snapshot) state."""
    stream = Stream.objects.get(pk=stream_id)
    replayed = folding.refold(stream)
    assert replayed.state == folding.load(stream).state
    if folded is not None:
        assert replayed.state == folded.state
    return replayed


def projection_rows() -> dict[str, list[dict[str, Any]]]:
    def rows(model: Any, order: list[str]) -> list[dict[str, Any]]:
        return [model_to_dict(row) for row in model.objects.order_by(*order)]

    # Row ids differ between the inline and the rebuilt rows: compare the awards as a sorted list.
    bonuses = sorted(
        ({k: v for k, v in row.items() if k != "id"} for row in rows(BonusAward, ["game"])),
        key=lambda row: json.dumps(row, sort_keys=True, default=str),
    )

    def without_ids(model: Any, order: list[str]) -> list[dict[str, Any]]:
        return [{k: v for k, v in row.items() if k != "id"} for row in rows(model, order)]

    return {
        "games": rows(GameSummary, ["game"]),
        "bonuses": bonuses,
        "players": rows(PlayerRecord, ["player"]),
        "matches": rows(MatchStanding, ["match"]),
        "rating_results": rows(RatingResult, ["stream"]),
        "ratings": without_ids(Rating, ["player", "kind"]),
        "rating_points": without_ids(RatingPoint, ["player", "result"]),
    }


def assert_rebuild_equal() -> None:
    """rebuild_projections, from the events alone, gives exactly the inline rows."""
    inline = projection_rows()
    call_command("rebuild_projections", "--no-progress")
    assert projection_rows() == inline
