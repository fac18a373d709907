"""The conformance test of STYLE.md for Scarney Put-and-Take, through the service layer.

Seeded random sessions (each the one game of a match): seating throws, antes, double downs,
thousands of throws, players leaving and joining between rounds, take-backs, and an end between
rounds or mid-round. After every event the chips are conserved (nets + pot balance = 0) and the pot
never goes negative; at the end a replay equals the state, the pot endpoint's ledger is the
engine's, the match settles the session's nets (summing to zero), and the read side's rebuild
equals its inline rows.
"""

from __future__ import annotations

import random
import uuid
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.play import pot, services
from games.rules.base import Move
from games.rules.put_and_take.game import PUT_AND_TAKE
from games.rules.put_and_take.state import State, nets
from games.store import folding
from games.store.models import Stream
from tests.conformance import assert_rebuild_equal, assert_replays, record

pytestmark = pytest.mark.django_db

KIND = "scarney-put-and-take"
ANTE = Move("round.anted", {})
DOUBLE = Move("double_down.called", {})
END = Move("session.ended", {})
UNDO = Move("move.undone", {"reason": "misrecorded"})


def random_faces(rng: random.Random) -> list[str]:
    # D is on two faces of a Scarney die, so it comes up twice as often as each number.
    return [rng.choice("1346DD") for _ in range(3)]


def between_rounds(rng: random.Random, state: State, rounds_left: int) -> Move:
    """Antes, a seating throw, a player leaving or joining, or the end of the session."""
    if rounds_left <= 0:
        return END
    seated = [seat for seat in range(state.seats) if seat not in state.away]
    if "seating.thrown" in PUT_AND_TAKE.expected(state) and rng.random() < 0.5:
        return Move("seating.thrown", {"faces": random_faces(rng)})
    chance = rng.random()
    if chance < 0.1 and len(seated) > 2:
        return Move("player.left", {"seat": rng.choice(seated)})
    if chance < 0.2 and state.away:
        return Move("player.joined", {"seat": rng.choice(sorted(state.away))})
    return ANTE


def next_move(rng: random.Random, state: State, rounds_left: int) -> Move:
    if state.phase == "seating":
        return Move("seating.thrown", {"faces": random_faces(rng)})
    if state.phase != "shooting":
        return between_rounds(rng, state, rounds_left)
    if rounds_left <= 0 and rng.random() < 0.05:
        return END  # abandoned mid-round (D-PT-5)
    if not state.doubled and rng.random() < 0.25:
        return DOUBLE
    return Move("dice.thrown", {"faces": random_faces(rng)})


def assert_chips_conserved(state: State, before: State) -> None:
    if state.ledger_start == before.ledger_start:
        assert state.ledger[: len(before.ledger)] == before.ledger  # the round's only grows
    else:  # the antes start the round's ledger anew; the rounds before are counted, not kept
        assert state.ledger_start == before.ledger_start + len(before.ledger)
        assert before.balance == 0 and len(state.ledger) < 2 * state.seats
    view = PUT_AND_TAKE.view(state)["pot"]
    assert view["balance"] >= 0
    assert sum(view["nets"]) + view["balance"] == 0
    assert view["balance"] == sum(movement.chips for movement in state.ledger)
    if state.phase in ("round_over", "over"):
        assert view["balance"] == 0  # D-PT-8: nothing carries over to the next round


def play_session(
    seed: int, capture: Any, ruleset: dict[str, Any] | None = None, rounds: int | None = None
) -> tuple[uuid.UUID, uuid.UUID, folding.Folded, int]:
    """A match of one random session of about ``rounds`` rounds; also returns the throws made."""
    rng = random.Random(seed)
    players = [{"name": f"PT{seed % 11}-{n}"} for n in range(2 + seed % 4)]
    match = services.match_start(format=KIND, players=players, ruleset=ruleset or {})
    game = services.game_start(kind=KIND, seats=None, match_id=match.pk)
    folded = folding.load(Stream.objects.get(pk=game.pk))
    rounds, throws = rounds or 3 + seed % 5, 0
    while not PUT_AND_TAKE.is_terminal(folded.state):
        state = folded.state
        move = next_move(rng, state, rounds - len(state.rounds))
        if move == END:
            with capture(execute=True):
                folded = record(game.pk, move)
        else:
            folded = record(game.pk, move)
        assert_chips_conserved(folded.state, state)
        if not PUT_AND_TAKE.is_terminal(folded.state) and rng.random() < 0.05:
            folded = record(game.pk, UNDO)
            assert folded.state == state
        elif move.type == "dice.thrown":
            throws += 1
    return match.pk, game.pk, folded, throws


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_sessions_conserve_chips_replay_and_settle_their_nets(
    seed: int, django_capture_on_commit_callbacks: Any
) -> None:
    match_id, game_id, folded, _ = play_session(seed, django_capture_on_commit_callbacks)
    state = folded.state
    game_stream = Stream.objects.get(pk=game_id)
    assert game_stream.status == "finished"
    assert_replays(game_id, folded)
    assert PUT_AND_TAKE.expected(state) == [] and PUT_AND_TAKE.legal_events(state) == []
    # The pot endpoint names every movement of the session: the last round's as the engine's
    # ledger has them, those before counted by it; they sum to the nets, and the pot ends empty.
    served = pot.ledger(game_stream)
    listed = [{k: m[k] for k in ("kind", "seat", "chips")} for m in served["movements"]]
    assert len(listed) == state.ledger_start + len(state.ledger)
    assert listed[state.ledger_start :] == PUT_AND_TAKE.pot_ledger(state)
    summed = [0] * state.seats
    for movement in listed:
        summed[movement["seat"]] -= movement["chips"]
    assert summed == nets(state)
    assert served["balance"] == 0 and served["nets"] == nets(state)
    # The match took the session's nets and settled them: payments that sum to zero.
    match_stream = Stream.objects.get(pk=match_id)
    assert match_stream.status == "settled"
    match = assert_replays(match_id)
    settlement = match.state.settlement
    assert settlement["nets"] == nets(state) and sum(settlement["nets"]) == 0
    paid = [0] * state.seats
    for payment in settlement["payments"]:
        paid[payment["from"]] -= payment["points"]
        paid[payment["to"]] += payment["points"]
    assert paid == settlement["nets"]
    assert_rebuild_equal()


def test_thousands_of_throws_through_the_services(django_capture_on_commit_callbacks: Any) -> None:
    total = 0
    for seed in range(6):
        ruleset = {
            "ante_chips": 1 + seed % 3,
            "put_take_after_short_take": ("left_of_shooter", "same_shooter")[seed % 2],
            "put_take_abandoned_pot": ("split_equally", "to_contributors")[seed // 3 % 2],
        }
        _, game_id, folded, throws = play_session(
            1000 + seed, django_capture_on_commit_callbacks, ruleset, rounds=22
        )
        assert_replays(game_id, folded)
        total += throws
    assert total >= 1500
    assert_rebuild_equal()


def test_the_api_serves_the_dice_the_pot_and_its_ledger(api: Any) -> None:
    created = api.post(
        "/api/v1/games/",
        {"kind": KIND, "seats": [{"name": "Ann"}, {"name": "Bob"}], "ruleset": {"ante_chips": 2}},
        format="json",
    )
    assert created.status_code == 201, created.json()
    game = created.json()["id"]
    for type, data in [("round.anted", {}), ("double_down.called", {}), ("dice.thrown", {})]:
        if type == "dice.thrown":
            data = {"faces": ["D", "4", "D"]}
        answer = api.post(
            f"/api/v1/games/{game}/events/",
            {"id": str(uuid.uuid4()), "type": type, "data": data},
            format="json",
        )
        assert answer.status_code == 201, answer.json()
    body = answer.json()["game"]
    assert body["pot"] == {"balance": 12, "nets": [-10, -2]}
    assert body["dice"]["shooter"] == 1 and body["dice"]["throws"][0]["chips"] == 8
    assert body["expected"] == ["dice.thrown", "double_down.called", "session.ended"]
    refused = api.post(
        f"/api/v1/games/{game}/events/",
        {"id": str(uuid.uuid4()), "type": "dice.thrown", "data": {"faces": ["5", "4"]}},
        format="json",
    )
    assert refused.status_code == 422 and refused.json()["code"] == "throw.bad_face"
    ledger = api.get(f"/api/v1/games/{game}/pot/").json()
    assert [(m["kind"], m["seat"], m["chips"], m["type"]) for m in ledger["movements"]] == [
        ("ante", 0, 2, "round.anted"),
        ("ante", 1, 2, "round.anted"),
        ("put", 0, 8, "dice.thrown"),
    ]
    assert ledger["balance"] == 12 and ledger["nets"] == [-10, -2]


def test_a_sheet_session_is_entered_as_nets_and_settled(
    django_capture_on_commit_callbacks: Any,
) -> None:
    match = services.match_start(
        format=KIND, players=[{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}], entry="sheet"
    )
    with django_capture_on_commit_callbacks(execute=True):
        record(match.pk, Move("game.scored", {"scores": [5, -2, -3]}))
    assert Stream.objects.get(pk=match.pk).status == "settled"
    settled = assert_replays(match.pk).state.settlement
    assert settled == {
        "payments": [{"from": 1, "to": 0, "points": 2}, {"from": 2, "to": 0, "points": 3}],
        "nets": [5, -2, -3],
    }
    assert_rebuild_equal()
