"""Seeded random play through the service layer, shared by the conformance and rebuild tests."""

from __future__ import annotations

import random
import uuid

from games.play import services
from games.rules.base import Move
from games.store import folding
from tests.declared import assert_move_declared

PAWNS = [colour + str(spots) for colour in "BRYG" for spots in range(1, 5)]


def record(game_id: uuid.UUID, move: Move) -> folding.Folded:
    recorded = services.event_record(
        stream_id=game_id, event_id=uuid.uuid4(), type=move.type, data=dict(move.data)
    )
    assert recorded.created
    assert_move_declared(recorded.folded, move)
    return recorded.folded


def random_layout(rng: random.Random) -> Move:
    layout = rng.sample(PAWNS, 16)
    return Move("board.laid_out", {"position": {f"C{i + 1}": p for i, p in enumerate(layout)}})


def play_out(game_id: uuid.UUID, rng: random.Random, undo_rate: float = 0.1) -> folding.Folded:
    """Lay out a random board and play random legal moves to the end, with some take-backs."""
    folded = record(game_id, random_layout(rng))
    rules = folded.engine.rules
    while legal := rules.legal_events(folded.state):
        before = folded.state
        folded = record(game_id, rng.choice(legal))
        if rng.random() < undo_rate:
            folded = record(game_id, Move("move.undone", {"reason": "test"}))
            assert folded.state == before
    return folded


def play_random_game(seed: int) -> tuple[uuid.UUID, folding.Folded]:
    rng = random.Random(seed)
    game = services.game_start(kind="scarney-solitaire", seats=[{"name": f"P{seed % 7}"}])
    return game.pk, play_out(game.pk, rng)
