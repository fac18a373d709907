"""Conformance of the Scarney board matches: seeded random legal play to the end of a match.

Every game of the match is played through the services with random legal moves (and some
take-backs), the match decides who plays next and when it ends, and the settlement task closes
it. Then: every stream replays to its state, Doubles games total 40, the settlement nets to zero
and pays the winner, and the projections' rebuild equals the inline rows.
"""

from __future__ import annotations

import random
import uuid
from typing import Any

import pytest

from games.play import services
from games.rules.base import Move
from games.rules.events import MATCH_SETTLED
from games.store import folding, journal
from games.store.models import Stream
from tests.conformance import assert_rebuild_equal, assert_replays, record

pytestmark = pytest.mark.django_db

UNDO = Move("move.undone", {"reason": "test"})


def play_game(game_id: uuid.UUID, rng: random.Random) -> folding.Folded:
    folded = folding.load(Stream.objects.get(pk=game_id))
    rules = folded.engine.rules
    while legal := rules.legal_events(folded.state):
        before = folded.state
        folded = record(game_id, rng.choice(legal))
        if rng.random() < 0.05 and not rules.is_terminal(folded.state):
            folded = record(game_id, UNDO)
            assert folded.state == before
    assert rules.is_terminal(folded.state)
    return folded


def play_match(format: str, players: int, seed: int, capture: Any) -> tuple[Any, list[Any]]:
    rng = random.Random(seed)
    match = services.match_start(
        format=format, players=[{"name": f"{format[:6]}{seed}-{i}"} for i in range(players)]
    )
    games = []
    with capture(execute=True):
        while True:
            stream = Stream.objects.get(pk=match.pk)
            if (
                folding.load(stream).engine.rules.next_game_number(folding.load(stream).state)
                is None
            ):
                break
            game = services.game_start(kind=format, seats=None, match_id=match.pk)
            games.append(play_game(game.pk, rng))
            assert len(games) < 60, "the match never ends"
    return match, games


def check_closed(match: Any, games: list[Any]) -> dict[str, Any]:
    stream = Stream.objects.get(pk=match.pk)
    assert stream.status == "settled"
    folded = assert_replays(match.pk)
    rules = folded.engine.rules
    settlement = journal.event_data(match.pk, MATCH_SETTLED)
    assert settlement is not None and sum(settlement["nets"]) == 0
    winners = [row["seat"] for row in rules.standing(folded.state) if row["rank"] == 1]
    assert len(winners) == 1
    assert all(p["to"] == winners[0] for p in settlement["payments"]) or format_is_high_low(match)
    assert [g["number"] for g in rules.games(folded.state)] == list(range(1, len(games) + 1))
    for number, game in enumerate(games, start=1):
        assert game.header["number"] == number
        assert_replays(
            uuid.UUID(str(Stream.objects.get(game__match=match, game__number=number).pk))
        )
    return settlement


def format_is_high_low(match: Any) -> bool:
    # D-HL-7: a negative difference reverses the payment, so the winner may pay.
    return bool(match.format == "high-low-scarney")


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2)])
def test_random_singles_matches_play_five_rounds_and_settle_to_the_winner(
    players: int, seed: int, django_capture_on_commit_callbacks: Any
) -> None:
    match, games = play_match("scarney-singles", players, seed, django_capture_on_commit_callbacks)
    assert len(games) >= 5 * players
    actives = [g.header["setup"]["active"] for g in games[: 5 * players]]
    assert actives == [n % players for n in range(5 * players)]  # the turn moves clockwise
    check_closed(match, games)
    assert_rebuild_equal()


@pytest.mark.parametrize("seed", [3, 4])
def test_random_doubles_matches_total_40_a_game_and_end_past_100(
    seed: int, django_capture_on_commit_callbacks: Any
) -> None:
    match, games = play_match("scarney-doubles", 2, seed, django_capture_on_commit_callbacks)
    totals = [[s.total for s in g.engine.rules.scores(g.state)] for g in games]
    assert all(sum(t) == 40 for t in totals)
    assert len(games) >= 3
    final = [sum(t[seat] for t in totals) for seat in (0, 1)]
    assert max(final) >= 100 and final[0] != final[1]
    settlement = check_closed(match, games)
    loser = 0 if final[0] < final[1] else 1
    assert settlement["payments"] == [
        {"from": loser, "to": 1 - loser, "points": final[1 - loser] + 100 - final[loser]}
    ]
    assert_rebuild_equal()


@pytest.mark.parametrize("seed", [5, 6])
def test_random_high_low_matches_the_loser_starts_and_the_match_ends_at_100(
    seed: int, django_capture_on_commit_callbacks: Any
) -> None:
    match, games = play_match("high-low-scarney", 2, seed, django_capture_on_commit_callbacks)
    for previous, game in zip(games, games[1:], strict=False):
        (winner,) = previous.engine.rules.result(previous.state).winners
        assert game.header["setup"]["starter"] == 1 - winner
    final = [sum(g.engine.rules.scores(g.state)[seat].total for g in games) for seat in (0, 1)]
    assert max(final) >= 100
    check_closed(match, games)
    assert_rebuild_equal()
