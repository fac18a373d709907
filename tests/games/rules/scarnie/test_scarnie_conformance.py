"""The conformance test of STYLE.md for Scarnie, through the service layer.

Seeded random legal play: deals (games of kind ``scarnie``) recorded move by move with some
take-backs, inside matches of format ``scarnie`` played to 100 (RULES.md 6.7). A legal event is
never refused, a replay of every stream equals its state, the dealer passes left each deal, the
match settles as ``scarnie_settlement`` says, and the projections' rebuild equals the inline rows.
"""

from __future__ import annotations

import random
import uuid
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games.play import services
from games.rules.base import Move
from games.rules.errors import IllegalEvent
from games.store import folding
from games.store.models import Stream
from scoring.models import GameSummary, MatchStanding
from tests.conformance import assert_rebuild_equal, assert_replays, record

pytestmark = pytest.mark.django_db


def pawn_colours(rng: random.Random) -> dict[int, str]:
    """One colouring of the 28 pawns for a whole match: a pawn keeps its colour (6.4)."""
    colours = ["a"] * 20 + ["b"] * 8
    rng.shuffle(colours)
    return dict(zip(range(1, 29), colours, strict=True))


def deal_move(rng: random.Random, stations: int, colours: dict[int, str]) -> Move:
    """The faced-up deal: seven random pawns on each station in play (the table's shuffle)."""
    numbers = rng.sample(range(1, 29), 7 * stations)
    return Move(
        "deal.faced_up",
        {
            "stations": {
                str(s): [
                    {"position": p, "pawn": n, "colour": colours[n]}
                    for p, n in enumerate(numbers[7 * s - 7 : 7 * s], start=1)
                ]
                for s in range(1, stations + 1)
            }
        },
    )


def play_deal(
    game_id: uuid.UUID, rng: random.Random, colours: dict[int, str], undo_rate: float = 0.1
) -> folding.Folded:
    """Deal, then random legal removals to the kill, taking some back; checks every step."""
    state = folding.load(Stream.objects.get(pk=game_id)).state
    stations = 4 if state.ruleset.scarnie_fill_all_stations else state.seats
    folded = record(game_id, deal_move(rng, stations, colours))
    assert folded.engine.rules.current_player(folded.state) == state.dealer  # D-SCN-9
    return play_out(game_id, folded, rng, undo_rate)


def play_out(
    game_id: uuid.UUID, folded: folding.Folded, rng: random.Random, undo_rate: float
) -> folding.Folded:
    rules = folded.engine.rules
    while legal := rules.legal_events(folded.state):
        before = folded.state
        move = rng.choice(legal)
        after = record(game_id, move)
        if rng.random() < undo_rate and not rules.is_terminal(after.state):
            folded = record(game_id, Move("move.undone", {"reason": "test"}))
            assert folded.state == before
            after = record(game_id, move)
        folded = after
    return folded


def check_finished_deal(game_id: uuid.UUID, folded: folding.Folded) -> None:
    rules = folded.engine.rules
    state = folded.state
    assert_replays(game_id, folded)
    assert rules.legal_events(state) == [] and rules.expected(state) == []
    last = state.removals[-1]
    worth = last.pawns[0].number * state.ruleset.multiplier(last.station, last.positions[0])
    scores = [s.total for s in rules.scores(state)]
    assert scores[last.seat] == 0 and set(scores) <= {0, worth}
    summary = GameSummary.objects.get(pk=game_id)
    assert summary.status == "finished"
    assert [s["total"] for s in summary.scores] == scores


def random_house_rules(rng: random.Random, seats: int) -> dict[str, Any]:
    marks = {str(p): rng.choice(["plain", "plain", "draw", "double", "triple"]) for p in (5, 6, 7)}
    return {
        "scarnie_position_marks": marks,
        "scarnie_fill_all_stations": seats < 4 and rng.random() < 0.4,
        "scarnie_scorer": rng.choice(["previous_player", "all_others"]),
        "scarnie_settlement": rng.choice(["none", "difference"]),
    }


def play_match(seed: int, capture: Any) -> tuple[uuid.UUID, list[uuid.UUID]]:
    rng = random.Random(seed)
    seats = rng.choice([2, 3, 4])
    teams = [[0, 2], [1, 3]] if seats == 4 and rng.random() < 0.5 else []
    players = [{"name": f"Scarnie {seed % 5} {seat}"} for seat in range(seats)]
    ruleset = random_house_rules(rng, seats)
    match = services.match_start(format="scarnie", players=players, teams=teams, ruleset=ruleset)
    colours = pawn_colours(rng)
    games = []
    dealers = []
    while Stream.objects.get(pk=match.pk).status == "in_progress":
        game = services.game_start(kind="scarnie", seats=None, match_id=match.pk)
        games.append(game.pk)
        dealers.append(folding.load(game.stream).state.dealer)
        with capture(execute=True):
            folded = play_deal(game.pk, rng, colours)
        check_finished_deal(game.pk, folded)
        assert len(games) < 200, "a match to 100 that never ends"
    assert dealers == [(dealers[0] + n) % seats for n in range(len(dealers))]  # 6.3
    return match.pk, games


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_matches_to_100_replay_and_settle_by_the_rules(
    seed: int, django_capture_on_commit_callbacks: Any
) -> None:
    match_id, games = play_match(seed, django_capture_on_commit_callbacks)
    folded = assert_replays(match_id)
    rules = folded.engine.rules
    state = folded.state
    stream = Stream.objects.get(pk=match_id)
    assert stream.status == "settled"
    assert [entry.game for entry in state.entries] == [str(g) for g in games]
    # the winner is the one side with 100 or more, ahead of every other
    standing = rules.standing(state)
    winners = [row for row in standing if row["rank"] == 1]
    assert winners[0]["total"] >= 100
    assert all(row["total"] < winners[0]["total"] for row in standing if row["rank"] > 1)
    assert len(winners) == (2 if state.teams else 1)
    settlement = state.settlement
    assert settlement == rules.settlement(state) and sum(settlement["nets"]) == 0
    if state.ruleset.scarnie_settlement == "none":
        assert settlement == {"payments": [], "nets": [0] * state.seats}
    else:
        # each loser (each loser seat of a partnership) pays the winners' lead over him
        owed = sum(winners[0]["total"] - row["total"] for row in standing if row["rank"] > 1)
        assert sum(p["points"] for p in settlement["payments"]) == owed
        assert {p["to"] for p in settlement["payments"]} <= {w["seat"] for w in winners}
    row = MatchStanding.objects.get(pk=match_id)
    assert row.winner == [w["seat"] for w in winners]
    assert_rebuild_equal()


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_standalone_deals_replay_and_score_the_last_pawn(seed: int) -> None:
    rng = random.Random(seed)
    seats = rng.choice([2, 3, 4])
    setup = {"dealer": rng.randrange(seats)}
    if seats == 4 and rng.random() < 0.5:
        setup["teams"] = [[0, 2], [1, 3]]  # type: ignore[assignment]
    game = services.game_start(
        kind="scarnie",
        seats=[{"name": f"Deal {seed % 3} {seat}"} for seat in range(seats)],
        ruleset=random_house_rules(rng, seats),
        setup=setup,
    )
    folded = play_deal(game.pk, rng, pawn_colours(rng), undo_rate=0.2)
    check_finished_deal(game.pk, folded)
    assert Stream.objects.get(pk=game.pk).status == "finished"


def test_a_refused_removal_changes_nothing_and_a_finished_deal_takes_no_more() -> None:
    rng = random.Random(7)
    game = services.game_start(kind="scarnie", seats=[{"name": "Ann"}, {"name": "Bob"}])
    colours = pawn_colours(rng)
    record(game.pk, deal_move(rng, 2, colours))
    version = Stream.objects.get(pk=game.pk).version
    with pytest.raises(IllegalEvent) as refused:
        services.event_record(
            stream_id=game.pk,
            event_id=uuid.uuid4(),
            type="pawns.removed",
            data={"station": 3, "positions": [1]},
        )
    assert refused.value.code == "remove.empty_position"
    assert Stream.objects.get(pk=game.pk).version == version
    folded = play_out(game.pk, folding.load(Stream.objects.get(pk=game.pk)), rng, 0.0)
    check_finished_deal(game.pk, folded)
    with pytest.raises(IllegalEvent) as over:
        record(game.pk, Move("pawns.removed", {"station": 1, "positions": [1]}))
    assert over.value.code == "game.over"


def test_the_api_shows_the_stations_the_turn_and_the_legal_removals(api: APIClient) -> None:
    body = {"kind": "scarnie", "seats": [{"name": "Ann"}, {"name": "Bob"}], "setup": {"dealer": 1}}
    created = api.post("/api/v1/games/", body, format="json")
    assert created.status_code == 201, created.json()
    game = created.json()
    assert game["expected"] == ["deal.faced_up"] and game["legal_events"] is None
    deal = deal_move(random.Random(3), 2, pawn_colours(random.Random(3)))
    event = {"id": str(uuid.uuid4()), "type": deal.type, "data": dict(deal.data)}
    answer = api.post(f"/api/v1/games/{game['id']}/events/", event, format="json")
    assert answer.status_code == 201, answer.json()
    shown = api.get(f"/api/v1/games/{game['id']}/").json()
    assert shown["turn"] == shown["on_turn"] == 1 and shown["deal"] == 1
    assert [len(shown["stations"][s]) for s in "1234"] == [7, 7, 7, 7]
    assert shown["stations"]["3"][0]["pawn"] is None
    assert {"type": "pawns.removed", "data": {"station": 1, "positions": [1]}} in shown[
        "legal_events"
    ]
    bad = {
        "id": str(uuid.uuid4()),
        "type": "pawns.removed",
        "data": {"station": 1, "positions": []},
    }
    refused = api.post(f"/api/v1/games/{game['id']}/events/", bad, format="json")
    assert refused.status_code == 422 and refused.json()["code"] == "remove.count"


def test_the_dealer_drawn_on_the_match_deals_first_and_the_deal_passes_left() -> None:
    # RULES.md 6.3: each player draws a pawn, the lowest deals; then the deal passes left
    players = [{"name": "Dee"}, {"name": "Eve"}, {"name": "Fay"}]
    match = services.match_start(format="scarnie", players=players)
    record(match.pk, Move("dealer.drawn", {"pawns": [12, 4, 27]}))
    rng = random.Random(11)
    colours = pawn_colours(rng)
    first = services.game_start(kind="scarnie", seats=None, match_id=match.pk)
    deal_1 = play_deal(first.pk, rng, colours, undo_rate=0.0)
    second = services.game_start(kind="scarnie", seats=None, match_id=match.pk)
    deal_2 = folding.load(second.stream).state
    assert (deal_1.state.dealer, deal_2.dealer, deal_2.deal) == (1, 2, 2)
    assert list(deal_2.scores_before) == [s.total for s in deal_1.engine.rules.scores(deal_1.state)]
    assert_replays(match.pk)


def test_a_sheet_match_to_100_settles_by_difference_and_rebuilds(
    django_capture_on_commit_callbacks: Any,
) -> None:
    # a score sheet of deals (RULES.md 0.6): seat 0 reaches 100 in the fifth deal
    players = [{"name": "Gus"}, {"name": "Hal"}, {"name": "Ivy"}]
    ruleset = {"scarnie_settlement": "difference", "scarnie_position_marks": {"7": "double"}}
    match = services.match_start(format="scarnie", players=players, ruleset=ruleset, entry="sheet")
    deals = [[0, 17, 0], [56, 0, 0], [0, 0, 9], [20, 0, 0], [24, 0, 0]]
    with django_capture_on_commit_callbacks(execute=True):
        for scores in deals:
            record(match.pk, Move("game.scored", {"scores": scores}))
    folded = assert_replays(match.pk)
    assert Stream.objects.get(pk=match.pk).status == "settled"
    assert folded.state.settlement == {
        "payments": [{"from": 1, "to": 0, "points": 83}, {"from": 2, "to": 0, "points": 91}],
        "nets": [174, -83, -91],
    }
    with pytest.raises(IllegalEvent) as refused:
        record(match.pk, Move("game.scored", {"scores": [1, 0, 0]}))
    assert refused.value.code == "match.over"
    assert_rebuild_equal()


def test_a_strict_sheet_refuses_a_deal_score_no_pawn_can_give() -> None:
    players = [{"name": "Jo"}, {"name": "Kit"}]
    match = services.match_start(format="scarnie", players=players, entry="sheet")
    with pytest.raises(IllegalEvent) as refused:
        record(match.pk, Move("game.scored", {"scores": [0, 29]}))
    assert refused.value.code == "score.unattainable" and "Seat 1 cannot score 29" in str(
        refused.value
    )
