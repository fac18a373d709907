"""The conformance test of STYLE.md for Scarney 3000 and its partnership game, through the services.

Seeded random throws (a Scarney die shows D one time in three) and stands, to the end of each
game: a legal event is never refused, illegal ones are refused and change nothing, take-backs
restore the exact prior state, replay equals the state, every entered turn is 0 or at least 200
and a multiple of 50, the winner (side) is at the target. Matches are driven to ``match.settled``
with nets summing to zero; sheets of Appendix B.4 settle through the services; the projections'
rebuild equals the inline rows.
"""

from __future__ import annotations

import json
import random
import uuid
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.play import services
from games.rules.base import Move
from games.rules.errors import IllegalEvent
from games.rules.scarney_3000.play import MAY_STAND, MUST_THROW, totals
from games.store import folding
from games.store.models import Event, Stream
from scoring.models import GameSummary
from tests.conformance import assert_rebuild_equal, assert_replays, record

pytestmark = pytest.mark.django_db

FACES = ["D", "D", "1", "3", "4", "6"]
STAND = Move("shooter.stood", {})
UNDO = Move("move.undone", {"reason": "conformance"})
FIXTURE = Path(__file__).parents[3] / "fixtures" / "sheet_scarney_3000_b4.json"


def random_throw(rng: random.Random, in_cup: int) -> Move:
    return Move("dice.thrown", {"faces": [rng.choice(FACES) for _ in range(in_cup)]})


def play_out(game_id: uuid.UUID, rng: random.Random) -> tuple[folding.Folded, int]:
    """Throw and stand at random to the end; some refusals and take-backs on the way."""
    folded = folding.load(Stream.objects.get(pk=game_id))
    rules = folded.engine.rules
    throws = 0
    while not rules.is_terminal(folded.state):
        before = folded.state
        if rng.random() < 0.03:
            assert_refused_unchanged(game_id, before, rng)
        if before.phase == MAY_STAND and rng.random() < 0.45:
            move = STAND
        else:
            move = random_throw(rng, before.in_cup)
            throws += 1
        folded = record(game_id, move)
        if not rules.is_terminal(folded.state) and rng.random() < 0.04:
            assert record(game_id, UNDO).state == before
            folded = record(game_id, move)
    return folded, throws


def assert_refused_unchanged(game_id: uuid.UUID, state: Any, rng: random.Random) -> None:
    """A throw of the wrong number of dice, or a stand below the minimum, changes nothing."""
    version = Stream.objects.get(pk=game_id).version
    if state.phase == MUST_THROW and rng.random() < 0.5:
        move, codes = STAND, {"stand.below_minimum", "stand.unconfirmed_bonus"}
    else:
        move, codes = random_throw(rng, state.in_cup % 5 + 1), {"throw.wrong_dice_count"}
    with pytest.raises(IllegalEvent) as refused:
        record(game_id, move)
    assert refused.value.code in codes
    assert Stream.objects.get(pk=game_id).version == version


def assert_game_within_the_rules(game_id: uuid.UUID, folded: folding.Folded) -> None:
    state, rules = folded.state, folded.engine.rules
    assert Stream.objects.get(pk=game_id).status == "finished"
    assert_replays(game_id, folded)
    assert rules.expected(state) == [] and rules.legal_events(state) is None
    assert all(t.score == 0 or (t.score >= 200 and t.score % 50 == 0) for t in state.turns)
    scores = rules.scores(state)
    assert [s.total for s in scores] == totals(state)
    assert all(s.total == s.points + sum(b.points for b in s.bonuses) for s in scores)
    # one kind, one value: the read side's bonus rows of a seat are identical within a kind
    awards = {(s.seat, b.kind, b.points, b.pawns) for s in scores for b in s.bonuses}
    assert len(awards) == len({award[:2] for award in awards})
    groups = state.teams or tuple((seat,) for seat in range(state.seats))
    side_totals = [sum(totals(state)[seat] for seat in group) for group in groups]
    winning = groups.index(state.winners)
    target = state.ruleset.s3000_target
    assert side_totals[winning] >= target
    if not state.ruleset.s3000_equal_turns:
        assert all(t < target for i, t in enumerate(side_totals) if i != winning)
    assert side_totals[winning] == max(side_totals)
    if state.teams:
        view_sides = [side["total"] for side in rules.view(state)["sides"]]
        assert view_sides == side_totals
    summary = GameSummary.objects.get(pk=game_id)
    assert [s["total"] for s in summary.scores] == totals(state)


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(min_value=0, max_value=2**32), equal=st.booleans())
def test_random_games_replay_and_score_within_the_rules(seed: int, equal: bool) -> None:
    rng = random.Random(seed)
    seats = [{"name": f"S3-{seed % 5}-{i}"} for i in range(rng.randint(2, 4))]
    ruleset = {"s3000_target": rng.choice([1500, 3000, 5000]), "s3000_equal_turns": equal}
    setup: dict[str, Any] = rng.choice(
        [{}, {"seating_throws": True}, {"first_shooter": len(seats) - 1}]
    )
    game = services.game_start(kind="scarney-3000", seats=seats, ruleset=ruleset, setup=setup)
    folded, throws = play_out(game.pk, rng)
    assert throws > 0
    assert sorted(folded.state.order) == list(range(len(seats)))
    assert_game_within_the_rules(game.pk, folded)


def _settlement(match_id: uuid.UUID, game_event: str = "game.finished") -> dict[str, Any]:
    stream = Stream.objects.get(pk=match_id)
    assert stream.status == "settled"
    types = Event.objects.filter(stream=stream).order_by("version").values_list("type", flat=True)
    assert list(types) == ["match.started", game_event, "match.settled"]
    settled = Event.objects.get(stream=stream, type="match.settled").data
    assert sum(settled["nets"]) == 0
    assert_replays(match_id)
    return dict(settled)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_live_match_is_one_game_settled_to_the_winner(
    seed: int, django_capture_on_commit_callbacks: Any
) -> None:
    rng = random.Random(seed)
    players = [{"name": f"M3-{seed}-{i}"} for i in range(seed + 1)]
    ruleset = {"s3000_target": 3000 if seed < 3 else 5000}
    match = services.match_start(format="scarney-3000", players=players, ruleset=ruleset)
    game = services.game_start(kind="scarney-3000", seats=None, match_id=match.pk)
    with django_capture_on_commit_callbacks(execute=True):
        folded, throws = play_out(game.pk, rng)
    assert_game_within_the_rules(game.pk, folded)
    settled = _settlement(match.pk)
    seat_totals = totals(folded.state)
    (winner,) = folded.state.winners
    assert settled["payments"] == [
        {"from": seat, "to": winner, "points": seat_totals[winner] - total}
        for seat, total in enumerate(seat_totals)
        if seat != winner and total != seat_totals[winner]
    ]
    with pytest.raises(IllegalEvent) as refused:
        record(game.pk, UNDO)
    assert refused.value.code == "undo.game_closed"
    assert_rebuild_equal()


@pytest.mark.parametrize(
    ("seed", "seats", "partner_throws"), [(4, 4, False), (5, 6, True), (6, 4, False), (7, 4, True)]
)
def test_a_partnership_match_settles_plus_or_minus_the_side_difference(
    seed: int, seats: int, partner_throws: bool, django_capture_on_commit_callbacks: Any
) -> None:
    rng = random.Random(seed)
    players = [{"name": f"P3-{seed}-{i}"} for i in range(seats)]
    # "We" are the odd seats, unless the partner throws form the sides
    teams = [] if partner_throws else [list(range(1, seats, 2)), list(range(0, seats, 2))]
    match = services.match_start(
        format="partnership-scarney-3000",
        players=players,
        teams=teams,
        ruleset={"s3000_equal_turns": seed == 6},
    )
    setup = {"partner_throws": True} if partner_throws else {}
    game = services.game_start(
        kind="partnership-scarney-3000", seats=None, match_id=match.pk, setup=setup
    )
    with django_capture_on_commit_callbacks(execute=True):
        folded, throws = play_out(game.pk, rng)
    state = folded.state
    if teams:
        assert state.teams == tuple(tuple(team) for team in teams)
    else:
        assert len(state.draw_throws) >= seats and state.order[0] in state.teams[0]
    assert_game_within_the_rules(game.pk, folded)
    settled = _settlement(match.pk)
    in_order = state.order.index
    won = sorted(state.winners, key=in_order)
    lost = sorted(next(team for team in state.teams if team != state.winners), key=in_order)
    delta = sum(totals(state)[s] for s in won) - sum(totals(state)[s] for s in lost)
    assert settled["nets"] == [delta if seat in won else -delta for seat in range(seats)]
    assert settled["payments"] == [
        {"from": loser, "to": winner, "points": delta}
        for winner, loser in zip(won, lost, strict=True)
    ]
    assert_rebuild_equal()


B4 = json.loads(FIXTURE.read_text())


@pytest.mark.parametrize("name", ["B.4a", "B.4b"])
@pytest.mark.parametrize("mode", ["strict", "lenient"])
def test_the_b4_sheets_settle_through_the_services(
    name: str, mode: str, django_capture_on_commit_callbacks: Any
) -> None:
    case = next(c for c in B4["cases"] if c["name"] == name)
    match = services.match_start(
        format="scarney-3000",
        players=[{"name": p} for p in B4["players"]],
        ruleset={**B4["ruleset"], "sheet_entry_validation": mode},
        entry="sheet",
    )
    refused_case = next(c for c in B4["cases"] if c["name"] == "B.4-printed-cumulative")
    with pytest.raises(IllegalEvent) as refused:
        record(match.pk, Move("game.scored", refused_case["sheet"]))
    assert refused.value.code == "sheet.cumulative_mismatch"
    with django_capture_on_commit_callbacks(execute=True):
        record(match.pk, Move("game.scored", case["sheet"]))
    settled = _settlement(match.pk, "game.scored")
    expected = case["expected"]
    assert settled == {"payments": expected["payments"], "nets": expected["nets"]}
    assert_rebuild_equal()


def test_a_strict_sheet_refuses_an_impossible_turn_and_a_lenient_one_warns() -> None:
    players = [{"name": "A"}, {"name": "B"}]
    strict = services.match_start(format="scarney-3000", players=players, entry="sheet")
    with pytest.raises(IllegalEvent) as refused:
        record(strict.pk, Move("game.scored", {"turns": [[225, 3000]]}))
    assert refused.value.code == "score.not_multiple_of_50"
    lenient = services.match_start(
        format="scarney-3000",
        players=players,
        ruleset={"sheet_entry_validation": "lenient"},
        entry="sheet",
    )
    folded = record(lenient.pk, Move("game.scored", {"turns": [[225, 3000]]}))
    warnings = folded.engine.rules.warnings(folded.state)
    assert [w["code"] for w in warnings] == ["score.not_multiple_of_50"]


def test_the_api_serves_the_dice_the_turn_and_the_refusals(api: Any) -> None:
    body = {
        "kind": "scarney-3000",
        "seats": [{"name": "Ann"}, {"name": "Bob"}],
        "ruleset": {"s3000_target": 250},
    }
    game = api.post("/api/v1/games/", body, format="json").json()
    assert game["expected"] == ["dice.thrown"] and game["legal_events"] is None
    assert game["dice"]["in_cup"] == 5 and game["dice"]["shooter"] == 0

    def post(type: str, data: dict[str, Any]) -> Any:
        event = {"id": str(uuid.uuid4()), "type": type, "data": data}
        return api.post(f"/api/v1/games/{game['id']}/events/", event, format="json")

    for faces in ["D 3 4 6 6", "D 3 6 6", "D D 6"]:
        assert post("dice.thrown", {"faces": faces.split()}).status_code == 201
    wrong = post("dice.thrown", {"faces": ["D", "D"]})
    assert wrong.status_code == 422 and wrong.json()["code"] == "throw.wrong_dice_count"
    answer = post("dice.thrown", {"faces": ["D"]}).json()["game"]
    assert answer["dice"]["turn_points"] == 250 and answer["dice"]["may_stand"] is True
    assert answer["expected"] == ["dice.thrown", "shooter.stood"]
    done = post("shooter.stood", {}).json()["game"]
    assert done["status"] == "finished" and done["result"]["winner"] == [0]
    assert done["scores"][0]["total"] == 250 and done["sheet"][0]["entries"][0]["score"] == 250
    assert post("shooter.stood", {}).json()["code"] == "game.over"


def test_the_api_takes_a_partnership_sheet_with_its_teams(
    api: Any, django_capture_on_commit_callbacks: Any
) -> None:
    body = {
        "format": "partnership-scarney-3000",
        "players": [{"name": n} for n in "ABCD"],
        "teams": [[0, 2], [1, 3]],
        "entry": "sheet",
    }
    created = api.post("/api/v1/matches/", body, format="json")
    assert created.status_code == 201, created.json()
    match = created.json()["id"]
    event = {
        "id": str(uuid.uuid4()),
        "type": "game.scored",
        "data": {"turns": [[450, 900, 200, 0], [0, 1200, 300, 500], [250, 400, 0, 0]]},
    }
    with django_capture_on_commit_callbacks(execute=True):
        answer = api.post(f"/api/v1/matches/{match}/events/", event, format="json")
    assert answer.status_code == 201, answer.json()
    detail = api.get(f"/api/v1/matches/{match}/").json()
    assert detail["winner"] == [1, 3]
    assert [row["side_total"] for row in detail["standing"]] == [3000, 3000, 1200, 1200]
    assert detail["settlement"]["payments"] == [
        {"from": 0, "to": 1, "points": 1800},
        {"from": 2, "to": 3, "points": 1800},
    ]
    for sheet in ("history/", "score-sheet.csv", "score-sheet.html"):
        assert api.get(f"/api/v1/matches/{match}/{sheet}").status_code == 200
