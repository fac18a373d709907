"""The conformance test of STYLE.md for the three multi-player Scarney board games.

Seeded random legal play through the service layer: standalone games of ``scarney-singles``,
``scarney-doubles`` and ``high-low-scarney``, from the colour choice to the end, with some
take-backs. A legal event is never refused, a take-back restores the exact prior state, a replay
of the stream equals its state, the scores keep their invariants (Singles: an attainable total for
the active player only, Appendix C.1; Doubles: 40; High-Low: the bounds of Appendix C.3), a
finished game has no legal events, and the projections' rebuild equals the inline rows.
"""

from __future__ import annotations

import random
import uuid
from typing import Any

import pytest

from games.play import services
from games.rules.base import Move
from games.rules.scarney_board.solitaire import attainable_totals
from games.store import folding
from games.store.models import Stream
from scoring.models import GameSummary
from tests.conformance import assert_rebuild_equal, assert_replays, record

pytestmark = pytest.mark.django_db

SEEDS = range(10)


def start(kind: str, rng: random.Random) -> uuid.UUID:
    """A game of ``kind`` with random seats, roles and house rules."""
    seats = rng.randint(2, 5) if kind == "scarney-singles" else 2
    setup: dict[str, Any] = {}
    ruleset: dict[str, Any] = {}
    if kind == "scarney-singles":
        setup["active"] = rng.randrange(seats)
    else:
        setup["starter"] = rng.randrange(2)
    if kind == "scarney-doubles":
        ruleset["doubles_second_takeoff_credit"] = rng.choice(["nonstarter", "remover"])
        ruleset["doubles_allow_premature_call"] = rng.random() < 0.3
    names = [{"name": f"{kind[8:11]}{rng.randrange(4)}-{i}"} for i in range(seats)]
    game = services.game_start(kind=kind, seats=names, ruleset=ruleset, setup=setup)
    return game.pk


def play_out(game_id: uuid.UUID, rng: random.Random, undo_rate: float = 0.1) -> folding.Folded:
    """Random legal moves to the end, taking some back and recording them again."""
    folded = folding.load(Stream.objects.get(pk=game_id))
    rules = folded.engine.rules
    while legal := rules.legal_events(folded.state):
        before = folded.state
        # A Scarney call ends a Singles game at once: make it rare, so most games play out.
        calls = [m for m in legal if m.type == "game.scarney_called"]
        move = (
            calls[0]
            if calls and rng.random() < 0.05
            else rng.choice([m for m in legal if m.type != "game.scarney_called"] or legal)
        )
        after = record(game_id, move)
        if rng.random() < undo_rate and not rules.is_terminal(after.state):
            undone = record(game_id, Move("move.undone", {"reason": "test"}))
            assert undone.state == before
            assert_replays(game_id, undone)
            after = record(game_id, move)
        folded = after
    return folded


def check_scores(kind: str, folded: folding.Folded) -> list[int]:
    rules, state = folded.engine.rules, folded.state
    totals = [score.total for score in rules.scores(state)]
    result = rules.result(state)
    assert result is not None
    if kind == "scarney-singles":
        assert result.winners == (state.active,)
        assert totals[state.active] in attainable_totals()
        assert sum(totals) == totals[state.active]
    elif kind == "scarney-doubles":
        assert sum(totals) == 40
    else:
        (winner,) = result.winners
        assert totals[1 - winner] == 0
        doubled = state.last_pawn.startswith("B")
        score = totals[winner]
        assert (score % 2 == 0 and 4 <= score <= 74) if doubled else 2 <= score <= 37
    return totals


@pytest.mark.parametrize("kind", ["scarney-singles", "scarney-doubles", "high-low-scarney"])
def test_random_legal_games_replay_score_within_the_rules_and_rebuild(kind: str) -> None:
    for seed in SEEDS:
        rng = random.Random(f"{kind}-{seed}")
        game_id = start(kind, rng)
        folded = play_out(game_id, rng)
        stream = Stream.objects.get(pk=game_id)
        assert stream.status == "finished"
        assert_replays(game_id, folded)
        rules = folded.engine.rules
        assert rules.legal_events(folded.state) == [] and rules.expected(folded.state) == []
        totals = check_scores(kind, folded)
        summary = GameSummary.objects.get(pk=game_id)
        assert summary.status == "finished"
        assert [s["total"] for s in summary.scores] == totals
    assert_rebuild_equal()


def test_a_high_low_trap_is_played_from_its_position_through_the_services() -> None:
    position = {"C2": "R3", "C4": "R4", "C5": "G4", "C9": "G2"}  # Appendix A.5.1
    game = services.game_start(
        kind="high-low-scarney",
        seats=[{"name": "A"}, {"name": "B"}],
        setup={"position": position},
    )
    record(game.pk, Move("pawns.removed", {"circles": ["C5"]}))
    folded = record(game.pk, Move("pawns.removed", {"circles": [2, "C4"]}))
    assert_replays(game.pk, folded)
    result = folded.engine.rules.result(folded.state)
    assert result is not None and result.winners == (0,)
    assert [s.total for s in result.scores] == [4, 0]
    assert Stream.objects.get(pk=game.pk).status == "finished"
    assert_rebuild_equal()
