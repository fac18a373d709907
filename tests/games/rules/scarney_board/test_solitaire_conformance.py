"""The conformance test of STYLE.md for Scarney Solitaire, through the service layer.

Seeded random legal play to the end: a legal event is never refused, replay equals the state,
every total is 40 minus the spots left plus the bonus and lies in Appendix C's attainable set,
a finished game has no legal events, and take-backs restore the exact prior state.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules.scarney_board.solitaire import attainable_totals
from games.store import folding
from games.store.models import Stream
from scoring.models import GameSummary
from tests.play import play_random_game

pytestmark = pytest.mark.django_db

ATTAINABLE = attainable_totals()


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_legal_games_replay_and_score_within_the_rules(seed: int) -> None:
    game_id, folded = play_random_game(seed)
    rules = folded.engine.rules
    stream = Stream.objects.get(pk=game_id)
    assert stream.status == "finished"
    assert folding.refold(stream).state == folded.state
    assert rules.legal_events(folded.state) == []
    assert rules.expected(folded.state) == []
    score = rules.scores(folded.state)[0]
    spots_left = sum(int(p[1]) for p in folded.state.board if p)
    assert score.points == 40 - spots_left
    assert score.total == score.points + sum(b.points for b in score.bonuses)
    assert score.total in ATTAINABLE
    summary = GameSummary.objects.get(pk=game_id)
    assert summary.status == "finished" and summary.scores[0]["total"] == score.total
    assert summary.rating == rules.result(folded.state).rating
