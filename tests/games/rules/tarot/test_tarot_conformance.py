"""The conformance test of STYLE.md for the tarot games, through the service layer.

Seeded random legal play dealt from a seeded shuffle: Manchester Piccadilly and Truffle hands in
matches of ``mp_hands`` hands (dealer alternating, settled in game points), Tontine hands in a
match closed by ``match.ended`` (settled per 0.8), Last Laugh and Courtship Rules hands standing
alone. A legal event is never refused, take-backs restore the exact state, a replay of every
stream equals its state, the rules' invariants hold, and the projections' rebuild equals the
inline rows.
"""

from __future__ import annotations

import random
import uuid
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.play import services
from games.rules.base import Move
from games.rules.tarot import cards
from games.rules.tarot.manchester.state import first_scores, game_points, second_scores
from games.rules.tarot.tontine import hand_result, seat_points
from games.store import folding
from games.store.models import Stream
from scoring.models import GameSummary, MatchStanding
from tests.conformance import assert_rebuild_equal, assert_replays, record

pytestmark = pytest.mark.django_db

SETTINGS = settings(
    max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def shuffled(rng: random.Random, pack: tuple[str, ...] = cards.PACK) -> list[str]:
    order = list(pack)
    rng.shuffle(order)
    return order


def state_of(stream_id: uuid.UUID) -> Any:
    return folding.load(Stream.objects.get(pk=stream_id)).state


def part_two_deal(state: Any, rng: random.Random) -> Move:
    """Part two dealt as hands (the shuffle of the set-aside cards, recorded by hand)."""
    stock = shuffled(rng, state.stock)
    if state.kind == "manchester-piccadilly":
        return Move(
            "cards.dealt", {"hands": [[stock[0:13], stock[13:26]], [stock[26:39], stock[39:52]]]}
        )
    talon = state.ruleset.truffle_talon
    return Move(
        "cards.dealt",
        {
            "hands": [stock[0:16], stock[16:32]],
            "dummy": stock[32:48],
            "talon": stock[48 : 48 + talon],
        },
    )


def play_out(
    game_id: uuid.UUID, folded: folding.Folded, rng: random.Random, undo_rate: float
) -> folding.Folded:
    """Random legal moves to the end, some taken back and replayed."""
    rules = folded.engine.rules
    while not rules.is_terminal(folded.state):
        legal = rules.legal_events(folded.state)
        if legal is None:  # a Manchester part two whose stock order was not recorded
            move = part_two_deal(folded.state, rng)
        else:
            assert legal, rules.expected(folded.state)
            move = rng.choice(legal)
        before = folded.state
        after = record(game_id, move)
        if rng.random() < undo_rate and not rules.is_terminal(after.state):
            assert record(game_id, Move("move.undone", {"reason": "test"})).state == before
            after = record(game_id, move)
        folded = after
    assert rules.legal_events(folded.state) == [] and rules.expected(folded.state) == []
    return folded


def play_manchester_hand(game_id: uuid.UUID, rng: random.Random) -> folding.Folded:
    pack = shuffled(rng)
    if rng.random() < 0.5:
        deal = Move("cards.dealt", {"pack": pack})
    else:
        deal = Move("cards.dealt", {"hands": [pack[0:13], pack[13:26]]})
    folded = record(game_id, deal)
    return play_out(game_id, folded, rng, undo_rate=0.02)


def check_manchester_hand(game_id: uuid.UUID, folded: folding.Folded) -> None:
    state = folded.state
    assert_replays(game_id, folded)
    first, second = first_scores(state), second_scores(state)
    assert first is not None and second is not None and sum(first) == 0
    stock_points = 146 - sum(state.start_values)
    if state.kind == "manchester-piccadilly":
        assert sum(second) == stock_points + 13
    else:
        part = state.part
        lost = cards.points_of(part.piles[2]) + cards.points_of(state.dead)
        assert sum(second) == stock_points - lost + 16 - part.tricks_won(2)
    summary = GameSummary.objects.get(pk=game_id)
    assert summary.status == "finished"
    assert [s["total"] for s in summary.scores] == list(game_points(state))


def play_manchester_match(kind: str, seed: int, capture: Any) -> None:
    rng = random.Random(seed)
    ruleset: dict[str, Any] = {
        "mp_hands": rng.choice([2, 2, 4]),
        "mp_manchester_lead": rng.choice(["alternate", "winner"]),
    }
    if kind == "manchester-truffle":
        ruleset["truffle_talon"] = rng.choice([3, 4])
    players = [{"name": f"Tarot {seed % 5} {seat}"} for seat in range(2)]
    match = services.match_start(format=kind, players=players, ruleset=ruleset)
    dealers = []
    while Stream.objects.get(pk=match.pk).status == "in_progress":
        game = services.game_start(kind=kind, seats=None, match_id=match.pk)
        dealers.append(state_of(game.pk).dealer)
        with capture(execute=True):
            folded = play_manchester_hand(game.pk, rng)
        check_manchester_hand(game.pk, folded)
    assert dealers == [n % 2 for n in range(ruleset["mp_hands"])]  # equal deals each (D-MP-6)
    folded = assert_replays(match.pk)
    state, rules = folded.state, folded.engine.rules
    assert Stream.objects.get(pk=match.pk).status == "settled"
    assert state.settlement == rules.settlement(state)
    totals = state.settlement["game_points"]
    assert totals == [sum(e.scores[s] for e in state.entries) for s in (0, 1)]
    assert state.settlement["winners"] == [s for s in (0, 1) if totals[s] == max(totals)]
    assert MatchStanding.objects.get(pk=match.pk).winner == state.settlement["winners"]
    assert_rebuild_equal()


@SETTINGS
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_piccadilly_games_replay_and_settle_in_game_points(
    seed: int, django_capture_on_commit_callbacks: Any
) -> None:
    play_manchester_match("manchester-piccadilly", seed, django_capture_on_commit_callbacks)


@SETTINGS
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_truffle_games_replay_and_settle_in_game_points(
    seed: int, django_capture_on_commit_callbacks: Any
) -> None:
    play_manchester_match("manchester-truffle", seed, django_capture_on_commit_callbacks)


# --- the rule modules in recording mode ---------------------------------------------------------


def deal_module_hand(game_id: uuid.UUID, rng: random.Random, seats: int) -> folding.Folded:
    """Hands of a random size from a seeded shuffle; the rest of the pack is the talon."""
    pack = shuffled(rng)
    size = rng.randrange(4, 78 // seats + 1)
    hands = [pack[s * size : (s + 1) * size] for s in range(seats)]
    return record(game_id, Move("cards.dealt", {"hands": hands, "talon": pack[seats * size :]}))


def play_tontine_hand(game_id: uuid.UUID, rng: random.Random, seats: int) -> folding.Folded:
    folded = deal_module_hand(game_id, rng, seats)
    return play_out(game_id, folded, rng, undo_rate=0.05)


@SETTINGS
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_tontine_games_replay_and_settle_by_0_8(
    seed: int, django_capture_on_commit_callbacks: Any
) -> None:
    rng = random.Random(seed)
    seats = rng.choice([3, 4])
    ruleset = {
        "base_game": rng.choice(["scarto", "tarocchi"]),
        "tontine4_below_56": rng.choice(["no_score", "higher_side_wins_difference"]),
    }
    players = [{"name": f"Tontine {seed % 5} {seat}"} for seat in range(seats)]
    match = services.match_start(format="tontine", players=players, ruleset=ruleset)
    for _ in range(2):
        game = services.game_start(kind="tontine", seats=None, match_id=match.pk)
        with django_capture_on_commit_callbacks(execute=True):
            folded = play_tontine_hand(game.pk, rng, seats)
        assert_replays(game.pk, folded)
        points = seat_points(folded.state)
        assert 0 <= sum(points) <= 111
        result = hand_result(folded.state)
        assert result is not None
        if seats == 3:
            assert result == [p - 37 for p in points]
        else:
            assert sum(result) == 0
        summary = GameSummary.objects.get(pk=game.pk)
        assert [s["total"] for s in summary.scores] == result
    with django_capture_on_commit_callbacks(execute=True):
        record(match.pk, Move("match.ended", {}))
    folded = assert_replays(match.pk)
    state, rules = folded.state, folded.engine.rules
    assert Stream.objects.get(pk=match.pk).status == "settled"
    assert state.settlement == rules.settlement(state)
    totals = [sum(e.scores[s] for e in state.entries) for s in range(seats)]
    assert state.settlement["nets"] == totals
    if seats == 4:
        assert sum(state.settlement["nets"]) == 0
    assert_rebuild_equal()


@SETTINGS
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_last_laugh_and_courtship_hands_replay(seed: int) -> None:
    rng = random.Random(seed)
    for kind in ("last-laugh", "courtship-rules"):
        seats = rng.choice([3, 4, 5])
        ruleset: dict[str, Any] = {"base_game": rng.choice(["scarto", "tarocchi", "conference"])}
        if kind == "courtship-rules":
            ruleset["courtship_affair_queen_led"] = rng.choice([True, False])
        game = services.game_start(
            kind=kind,
            seats=[{"name": f"Module {seed % 3} {seat}"} for seat in range(seats)],
            ruleset=ruleset,
        )
        folded = deal_module_hand(game.pk, rng, seats)
        folded = play_out(game.pk, folded, rng, undo_rate=0.05)
        assert_replays(game.pk, folded)
        assert Stream.objects.get(pk=game.pk).status == "finished"
    assert_rebuild_equal()


def test_a_module_game_without_base_game_is_refused_and_hands_may_go_unrecorded() -> None:
    from games.rules.errors import BadSetup

    with pytest.raises(BadSetup) as caught:
        services.game_start(kind="tontine", seats=[{"name": f"T{i}"} for i in range(3)])
    assert caught.value.code == "ruleset.base_game_required"
    game = services.game_start(
        kind="tontine",
        seats=[{"name": f"T{i}"} for i in range(3)],
        ruleset={"base_game": "scarto"},
    )
    for card in ("Ks", "Kb", "Kc"):
        record(
            game.pk, Move("card.played", {"seat": state_of(game.pk).table.to_play, "card": card})
        )
    record(game.pk, Move("trick.won", {"winner": 2}))
    record(game.pk, Move("card.claimed", {"seat": 2, "card": "Kc"}))
    folded = record(game.pk, Move("hand.ended", {}))
    assert hand_result(folded.state) == [-37, -37, -17]
    assert_replays(game.pk, folded)


def test_the_api_shows_a_tarot_hand_and_refuses_with_the_rules_codes(api: Any) -> None:
    body = {"kind": "manchester-truffle", "seats": [{"name": "Dee"}, {"name": "Opp"}]}
    response = api.post("/api/v1/games/", body, format="json")
    assert response.status_code == 201, response.json()
    game = response.json()["id"]

    def post(type: str, data: Any) -> Any:
        event = {"id": str(uuid.uuid4()), "type": type, "data": data}
        return api.post(f"/api/v1/games/{game}/events/", event, format="json")

    assert post("cards.dealt", {"pack": list(cards.PACK)}).status_code == 201
    shown = api.get(f"/api/v1/games/{game}/").json()
    assert shown["expected"] == ["value.announced"] and shown["turn"] == 1
    assert len(shown["dealt"]) == 2 and shown["stock"] == 52
    wrong = post("value.announced", {"seat": 1, "value": 0})
    assert wrong.status_code == 422 and wrong.json()["code"] == "announce.wrong_total"
    assert post("card.played", {"card": [1, {}]}).status_code == 422
    # data the store cannot read is refused before the rules; a deal of the right shape out of
    # turn is the rules' to refuse
    bad = post("cards.dealt", {"hands": "nonsense"})
    assert bad.status_code == 422 and bad.json()["code"] == "event.bad_data"
    assert bad.json()["field"] == "hands"
    late = post("cards.dealt", {"pack": list(cards.PACK)})
    assert late.status_code == 422 and late.json()["code"] == "event.out_of_order"
    legal = shown["legal_events"]
    assert legal and post(legal[0]["type"], legal[0]["data"]).status_code == 201


def test_the_api_refuses_a_late_claim_and_an_end_with_the_fool_held(api: Any) -> None:
    """D-TON-6 and D-LL-5 through the API: ``claim.too_late`` and ``hand.fool_not_played``
    are 422 refusals, and nothing is recorded."""

    def start(kind: str) -> str:
        seats = [{"name": f"{kind} {seat}"} for seat in range(3)]
        body = {"kind": kind, "seats": seats, "ruleset": {"base_game": "scarto"}}
        response = api.post("/api/v1/games/", body, format="json")
        assert response.status_code == 201, response.json()
        return str(response.json()["id"])

    def post(game: str, type: str, data: Any) -> Any:
        event = {"id": str(uuid.uuid4()), "type": type, "data": data}
        return api.post(f"/api/v1/games/{game}/events/", event, format="json")

    tontine = start("tontine")
    hands = [["Kd", "2s"], ["3s", "4s"], ["5s", "6s"]]
    assert post(tontine, "cards.dealt", {"hands": hands}).status_code == 201
    for winner, played in ((0, ["Kd", "3s", "5s"]), (1, ["2s", "4s", "6s"])):
        for seat, card in enumerate(played):
            assert post(tontine, "card.played", {"seat": seat, "card": card}).status_code == 201
        assert post(tontine, "trick.won", {"winner": winner}).status_code == 201
    late = post(tontine, "card.claimed", {"seat": 0, "card": "Kd"})
    assert late.status_code == 422 and late.json()["code"] == "claim.too_late"
    assert post(tontine, "hand.ended", {}).status_code == 201
    assert api.get(f"/api/v1/games/{tontine}/").json()["points"] == [0, 0, 0]

    last_laugh = start("last-laugh")
    for seat, card in ((0, "2s"), (1, "FOOL"), (2, "5s")):
        assert post(last_laugh, "card.played", {"seat": seat, "card": card}).status_code == 201
    assert post(last_laugh, "trick.won", {"winner": 2}).status_code == 201
    assert post(last_laugh, "butt.discarded", {"card": "Qb"}).status_code == 201
    held = post(last_laugh, "hand.ended", {})
    assert held.status_code == 422 and held.json()["code"] == "hand.fool_not_played"
    assert api.get(f"/api/v1/games/{last_laugh}/").json()["fool_holder"] == 2
