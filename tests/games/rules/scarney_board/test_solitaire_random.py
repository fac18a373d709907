"""Conformance: seeded random legal play of Scarney Solitaire to the end (STYLE.md, OpenSpiel's
random_sim_test), with takebacks along the way."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.base import Move, fold, fold_states
from games.rules.scarney_board.board import ALL_PAWNS, CIRCLES, circle_name, spots_left
from games.rules.scarney_board.solitaire import (
    SOLITAIRE,
    Ruleset,
    State,
    attainable_totals,
    final_bonuses,
)

UNDO = Move("move.undone", {"reason": "a slip at the table"})
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def random_layout(rng: random.Random) -> Move:
    pawns = list(ALL_PAWNS)
    rng.shuffle(pawns)
    return Move(
        "board.laid_out",
        {"position": {circle_name(c): p for c, p in zip(CIRCLES, pawns, strict=True)}},
    )


def play(start: State, first: list[Move], rng: random.Random) -> tuple[list[Move], list[State]]:
    """Random legal moves to the end, sometimes taking one back; returns moves and state stack."""
    moves, states = [], [start]
    for move in first:
        moves.append(move)
        states.append(SOLITAIRE.apply(states[-1], move))
    while not SOLITAIRE.is_terminal(states[-1]):
        if len(states) > len(first) + 1 and rng.random() < 0.15:  # keep the layout in force
            moves.append(UNDO)
            states.pop()
            continue
        legal = SOLITAIRE.legal_events(states[-1])
        assert legal, "a game in progress always has a legal move"
        move = rng.choice(legal)
        moves.append(move)
        states.append(SOLITAIRE.apply(states[-1], move))  # a legal event never raises
        check_invariants(states[-1])
    return moves, states


def check_invariants(state: State) -> None:
    (score,) = SOLITAIRE.scores(state)
    assert score.points == 40 - spots_left(state.board)
    if SOLITAIRE.is_terminal(state):
        bonus = sum(b.points for b in final_bonuses(state.board))
        assert score.total == 40 - spots_left(state.board) + bonus
        assert SOLITAIRE.legal_events(state) == []
        assert SOLITAIRE.expected(state) == []
        assert SOLITAIRE.result(state) is not None
    else:
        assert SOLITAIRE.result(state) is None


@settings(max_examples=200, deadline=None)
@given(seed=SEEDS, calls=st.booleans())
def test_random_legal_play_replays_and_scores_within_the_rules(seed: int, calls: bool) -> None:
    rng = random.Random(seed)
    start = SOLITAIRE.initial_state({}, Ruleset(solitaire_allow_scarney_call=calls), 1)
    moves, states = play(start, [random_layout(rng)], rng)
    end = states[-1]
    assert fold(SOLITAIRE, start, moves) == end
    assert fold_states(SOLITAIRE, start, moves) == states
    assert SOLITAIRE.scores(end)[0].total in attainable_totals()
    pawns_seen = sorted([p for p in end.board if p] + list(end.removed))
    assert pawns_seen == sorted(ALL_PAWNS)  # every pawn is on the board or was removed once


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS)
def test_an_undone_move_restores_the_exact_prior_state(seed: int) -> None:
    rng = random.Random(seed)
    start = SOLITAIRE.initial_state({}, None, 1)
    moves, states = play(start, [random_layout(rng)], rng)
    for cut in range(1, len(moves)):
        if moves[cut] != UNDO:
            before = fold(SOLITAIRE, start, moves[:cut])
            assert fold(SOLITAIRE, start, [*moves[: cut + 1], UNDO]) == before


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, size=st.integers(min_value=1, max_value=16))
def test_random_study_positions_play_out_legally(seed: int, size: int) -> None:
    rng = random.Random(seed)
    circles = rng.sample([circle_name(c) for c in CIRCLES], size)
    position = dict(zip(circles, rng.sample(ALL_PAWNS, size), strict=True))
    start = SOLITAIRE.initial_state({"position": position}, None, 1)
    moves, states = play(start, [], rng)
    assert fold(SOLITAIRE, start, moves) == states[-1]
    check_invariants(states[-1])
