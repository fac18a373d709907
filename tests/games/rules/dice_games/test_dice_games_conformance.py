"""The conformance test of STYLE.md for RULES.md Part 5, through the service layer.

Seeded random legal play of Double Cameroon, Hearts Due, Going to Boston and Multiplication to
the end (and Boston and Multiplication sessions to their settlement): a legal event is never
refused, take-backs restore the exact prior state, chips are conserved, replay equals the state,
and the projections' rebuild equals the inline rows.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.play import services
from games.rules.base import Move
from games.rules.dice_games.boston_match import PRODUCTS, SUMS
from games.rules.dice_games.double_cameroon import DICE, GROUP, KEEP
from games.rules.dice_games.double_cameroon_scoring import category_points, unused_categories
from games.rules.dice_games.hearts_due import RUN_SCORES
from games.rules.errors import IllegalEvent
from games.store import folding
from games.store.models import Stream
from tests.conformance import assert_rebuild_equal, assert_replays, record

pytestmark = pytest.mark.django_db

UNDO = Move("move.undone", {"reason": "test"})


def faces(rng: random.Random, count: int) -> list[str]:
    return [str(rng.randint(1, 6)) for _ in range(count)]


def start(
    kind: str, seats: int, ruleset: dict[str, Any] | None = None
) -> tuple[uuid.UUID, folding.Folded]:
    game = services.game_start(
        kind=kind, seats=[{"name": f"P{i}"} for i in range(seats)], ruleset=ruleset
    )
    return game.pk, folding.load(Stream.objects.get(pk=game.pk))


def play(
    game_id: uuid.UUID,
    folded: folding.Folded,
    rng: random.Random,
    next_move: Callable[[Any, random.Random], Move],
    check: Callable[[Any, Any], None] = lambda before, after: None,
) -> folding.Folded:
    """Record random legal moves to the end, taking some back; ``check`` sees every step."""
    rules = folded.engine.rules
    while not rules.is_terminal(folded.state):
        before = folded.state
        move = next_move(before, rng)
        folded = record(game_id, move)
        check(before, folded.state)
        if rng.random() < 0.05 and not rules.is_terminal(folded.state):
            folded = record(game_id, UNDO)
            assert folded.state == before
    assert rules.expected(folded.state) == [] and rules.legal_events(folded.state) == []
    assert Stream.objects.get(pk=game_id).status == "finished"
    assert_replays(game_id, folded)
    return folded


# --- Double Cameroon ---------------------------------------------------------------------------


# 50 + 30 + 21, a full house of 6 6 6 5 5, and five of each number.
BEST_SHEET = 50 + 30 + 21 + 28 + 5 * (6 + 5 + 4 + 3 + 2 + 1)


def cameroon_move(state: Any, rng: random.Random) -> Move:
    if state.phase == KEEP and rng.random() < 0.8:
        optional = list(state.showing)
        for die in state.kept if state.ruleset.cameroon_kept_dice_locked else ():
            optional.remove(die)
        picked = [d for d in optional if rng.random() < 0.4]
        locked = list(state.kept) if state.ruleset.cameroon_kept_dice_locked else []
        return Move("dice.kept", {"faces": locked + picked})
    if state.phase in (KEEP, GROUP):
        dice = list(state.showing)
        rng.shuffle(dice)
        first, second = rng.sample(unused_categories(state.sheets[state.seat]), 2)
        groups = [{"category": first, "dice": dice[:5]}, {"category": second, "dice": dice[5:]}]
        return Move("dice.grouped", {"groups": groups})
    return Move("dice.thrown", {"faces": faces(rng, DICE - len(state.kept))})


@pytest.mark.parametrize("seed", range(6))
def test_random_double_cameroon_games_fill_every_box_and_replay(seed: int) -> None:
    rng = random.Random(seed)
    ruleset = {"cameroon_kept_dice_locked": seed % 2 == 1}
    game_id, folded = start("double-cameroon", 1 + seed % 3, ruleset)
    folded = play(game_id, folded, rng, cameroon_move)
    rules, state = folded.engine.rules, folded.state
    for seat, sheet in enumerate(state.sheets):
        assert unused_categories(sheet) == ()
        assert all(box.points == category_points(box.category, box.dice) for box in sheet)
        assert rules.scores(state)[seat].total == sum(box.points for box in sheet)
        assert 0 <= rules.scores(state)[seat].total <= BEST_SHEET
    result = rules.result(state)
    best = max(s.total for s in result.scores)
    assert result.winners == tuple(s.seat for s in result.scores if s.total == best)
    assert_rebuild_equal()


# --- Hearts Due ----------------------------------------------------------------------------------


def hearts_check(before: Any, after: Any) -> None:
    roll = after.rolls[-1]
    assert roll.points in RUN_SCORES
    assert roll.total == (0 if roll.reset else before.totals[roll.seat] + roll.points)


@pytest.mark.parametrize("seed", range(6))
def test_random_hearts_due_games_reach_the_target_with_equal_turns_and_replay(seed: int) -> None:
    rng = random.Random(seed)
    ruleset = {"hearts_due_target": 60, "hearts_due_equal_turns": seed != 3}
    game_id, folded = start("hearts-due", 2 + seed % 3, ruleset)

    def roll(state: Any, rng: random.Random) -> Move:
        return Move("dice.thrown", {"faces": faces(rng, 6)})

    folded = play(game_id, folded, rng, roll, hearts_check)
    state = folded.state
    # The state keeps the latest rolls only: every roll in force is the last of its own state.
    _, states = folding.state_stack(Stream.objects.get(pk=game_id))
    regular = [s.rolls[-1] for s in states[1:] if not s.rolls[-1].extra]
    counts = {seat: sum(1 for r in regular if r.seat == seat) for seat in range(state.seats)}
    if seed != 3:
        assert len(set(counts.values())) == 1  # D-HD-3: every player rolled as often
    assert max(state.totals) == state.totals[state.winners[0]] and len(state.winners) == 1
    assert_rebuild_equal()


# --- Going to Boston and Multiplication ----------------------------------------------------------


def boston_move(state: Any, rng: random.Random) -> Move:
    return Move("dice.thrown", {"faces": faces(rng, 3 - len(state.throws))})


def chips_conserved(before: Any, after: Any) -> None:
    from games.rules.dice_games.boston import pot_view

    carried = sum(e.chips for e in after.ledger if e.kind == "carry")
    pot = pot_view(after)
    assert pot["balance"] + sum(pot["nets"]) == carried and pot["balance"] >= 0
    assert after.ledger[: len(before.ledger)] == before.ledger  # the ledger only grows


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("kind", ["going-to-boston", "multiplication"])
def test_random_rounds_pay_the_pot_and_conserve_chips(kind: str, seed: int) -> None:
    rng = random.Random(seed)
    ruleset = {"boston_tie": "split" if seed % 2 else "playoff", "ante_chips": 1 + seed}
    game_id, folded = start(kind, 2 + seed % 3, ruleset)
    folded = play(game_id, folded, rng, boston_move, chips_conserved)
    state, rules = folded.state, folded.engine.rules
    allowed = SUMS if kind == "going-to-boston" else PRODUCTS
    assert all(turn.score in allowed for turn in state.turns)
    pot = rules.view(state)["pot"]
    if ruleset["boston_tie"] == "playoff":
        assert pot["balance"] == 0 and len(state.winners) == 1
    assert pot["balance"] < len(state.winners)  # at most a split's remainder stays
    assert_rebuild_equal()


@pytest.mark.parametrize("tie", ["playoff", "split"])
@pytest.mark.parametrize("kind", ["going-to-boston", "multiplication"])
def test_random_sessions_are_settled_by_the_pot(
    kind: str, tie: str, django_capture_on_commit_callbacks: Any
) -> None:
    rng = random.Random(f"{kind}{tie}")
    players = [{"name": f"S{i}"} for i in range(3)]
    ruleset = {"boston_tie": tie, "ante_chips": 2, "session_rounds": 4}
    match = services.match_start(format=kind, players=players, ruleset=ruleset)
    nets, left = [0, 0, 0], 0
    for number in range(1, 5):
        game = services.game_start(kind=kind, seats=None, match_id=match.pk)
        folded = folding.load(game.stream)
        assert folded.header["setup"] == {"first_player": (number - 1) % 3, "carried": left}
        if number < 4:
            folded = play(game.pk, folded, rng, boston_move, chips_conserved)
        else:
            with django_capture_on_commit_callbacks(execute=True):
                folded = play(game.pk, folded, rng, boston_move, chips_conserved)
        pot = folded.engine.rules.view(folded.state)["pot"]
        nets = [a + b for a, b in zip(nets, pot["nets"], strict=True)]
        left = pot["balance"]
    stream = Stream.objects.get(pk=match.pk)
    assert stream.status == "settled"
    settled = assert_replays(match.pk)
    settlement = settled.state.settlement
    assert settlement["nets"] == nets and settlement["pot_left"] == left
    assert sum(nets) + left == 0  # every chip anted is won or still in the pot
    paid = [0, 0, 0]
    for payment in settlement["payments"]:
        paid[payment["from"]] -= payment["points"]
        paid[payment["to"]] += payment["points"]
    assert [max(n, 0) for n in nets] == [max(p, 0) for p in paid]
    assert_rebuild_equal()


# --- malformed data of any shape is refused, never a crash ---------------------------------------

KEYS = ["faces", "groups", "category", "dice", "x"]
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.sampled_from(["1", "6", "7", "aces", ""]),
    lambda inner: (
        st.lists(inner, max_size=11)
        | st.dictionaries(
            st.sampled_from(["faces", "groups", "category", "dice", "x"]), inner, max_size=3
        )
    ),
    max_leaves=30,
)


def _states() -> list[tuple[Any, Any]]:
    """A few reachable states of each engine, in every phase."""
    from games.rules.base import fold
    from games.rules.dice_games.boston import GOING_TO_BOSTON, MULTIPLICATION_RULES
    from games.rules.dice_games.double_cameroon import DOUBLE_CAMEROON
    from games.rules.dice_games.hearts_due import HEARTS_DUE

    def thrown(text: str) -> Move:
        return Move("dice.thrown", {"faces": text.split()})

    cameroon = DOUBLE_CAMEROON.initial_state({}, None, 2)
    ten = thrown("1 2 3 4 5 6 6 6 2 2")
    keep = Move("dice.kept", {"faces": ["6", "6"]})
    states = [
        (DOUBLE_CAMEROON, fold(DOUBLE_CAMEROON, cameroon, moves))
        for moves in ([], [ten], [ten, keep], [ten, keep, thrown("1 1 1 1 1 1 1 1")])
    ]
    hearts = HEARTS_DUE.initial_state({}, None, 2)
    states += [(HEARTS_DUE, hearts), (HEARTS_DUE, HEARTS_DUE.apply(hearts, thrown("1 2 3 4 5 6")))]
    for rules in (GOING_TO_BOSTON, MULTIPLICATION_RULES):
        start = rules.initial_state({}, None, 2)
        states += [(rules, start), (rules, rules.apply(start, thrown("1 2 3")))]
    return states


STATES = _states()


@settings(max_examples=150, deadline=None)
@given(
    index=st.integers(0, len(STATES) - 1),
    type=st.sampled_from(["dice.thrown", "dice.kept", "dice.grouped", "x.y"]),
    data=JSON,
)
def test_any_data_is_either_applied_or_refused_with_a_code(
    index: int, type: str, data: Any
) -> None:
    rules, state = STATES[index]
    try:
        rules.apply(state, Move(type, data))
    except IllegalEvent as refused:
        assert refused.code and refused.message


# --- over the API: the pot, the dice, refusals as 422 --------------------------------------------


def test_a_round_over_the_api_shows_the_dice_the_pot_and_its_ledger(api: Any) -> None:
    body = {"kind": "multiplication", "seats": [{"name": "Ann"}, {"name": "Bob"}]}
    game = api.post("/api/v1/games/", body, format="json").json()
    assert game["pot"] == {"balance": 2, "nets": [-1, -1]}
    assert game["dice"]["in_cup"] == 3 and game["expected"] == ["dice.thrown"]

    def throw(*faces: str) -> Any:
        event = {"id": str(uuid.uuid4()), "type": "dice.thrown", "data": {"faces": list(faces)}}
        return api.post(f"/api/v1/games/{game['id']}/events/", event, format="json")

    refused = throw("3", "1")
    assert refused.status_code == 422 and refused.json()["code"] == "throw.wrong_dice_count"
    for faces in (["3", "1", "2"], ["4", "2"], ["6"], ["1", "1", "1"], ["1", "1"], ["1"]):
        answer = throw(*faces)
        assert answer.status_code == 201, answer.json()
    shown = answer.json()["game"]
    assert shown["status"] == "finished" and shown["result"]["winner"] == [0]
    assert shown["dice"]["turns"][0]["how"] == "(3 + 4) × 6 = 42"
    ledger = api.get(f"/api/v1/games/{game['id']}/pot/").json()
    assert ledger["balance"] == 0 and ledger["nets"] == [1, -1]
    assert [(m["kind"], m["seat"], m["chips"]) for m in ledger["movements"]] == [
        ("ante", 0, 1),
        ("ante", 1, 1),
        ("win", 0, -2),
    ]


def test_a_session_sheet_over_the_api_is_settled_by_the_pot(
    api: Any, django_capture_on_commit_callbacks: Any
) -> None:
    body = {
        "format": "going-to-boston",
        "players": [{"name": "Ann"}, {"name": "Bob"}],
        "entry": "sheet",
        "ruleset": {"ante_chips": 3},
    }
    match = api.post("/api/v1/matches/", body, format="json").json()
    url = f"/api/v1/matches/{match['id']}/events/"

    def enter(data: dict[str, Any]) -> Any:
        event = {"id": str(uuid.uuid4()), "type": "game.scored", "data": data}
        return api.post(url, event, format="json")

    refused = enter({"scores": [12, 12]})
    assert refused.status_code == 422 and refused.json()["code"] == "sheet.playoff_missing"
    with django_capture_on_commit_callbacks(execute=True):
        assert enter({"scores": [12, 12], "playoffs": [[4, 9]]}).status_code == 201
        assert enter({"scores": [3, 18]}).status_code == 201
    detail = api.get(f"/api/v1/matches/{match['id']}/").json()
    assert detail["status"] == "settled"
    assert detail["settlement"]["payments"] == [{"from": 0, "to": 1, "points": 6}]
    assert [row["total"] for row in detail["standing"]] == [6, -6]
