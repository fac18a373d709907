"""Partnership Scarney 3000 (RULES.md 10): "We" and "They", side totals, the paired settlement.

Scarney 3000's throws and stands are tested in test_scarney_3000.py; here, what section 10
changes: sides of alternate seats, the side total reaching the target, each partner's net of
plus or minus the side difference with payments paired in seating order (D-P3000-1), and the
partnership match format.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from games.rules import registry
from games.rules.base import Move, make_ruleset
from games.rules.errors import BadSetup, IllegalEvent
from games.rules.registry import match_rules
from games.rules.scarney_3000.play import MUST_THROW, OVER, State
from games.rules.scarney_3000.throws import Ruleset

RULES: Any = registry.get("partnership-scarney-3000")
MATCH: Any = match_rules("partnership-scarney-3000")
STAND = Move("shooter.stood", {})
BUST = Move("dice.thrown", {"faces": ["1", "1", "3", "3", "4"]})


def start(seats: int = 4, setup: dict[str, Any] | None = None, **house_rules: Any) -> State:
    state: State = RULES.initial_state(setup or {}, make_ruleset(Ruleset, house_rules), seats)
    return state


def scoring_turn(points: int) -> list[Move]:
    """Single dead dice, 50 a throw, then a stand: a turn worth ``points``."""
    moves, cup = [], 5
    for _ in range(points // 50):
        moves.append(Move("dice.thrown", {"faces": ["D", *"1346"[: cup - 1]]}))
        cup = cup - 1 or 5
    return [*moves, STAND]


def turns(state: State, *scores: int) -> State:
    for score in scores:
        for move in scoring_turn(score) if score else [BUST]:
            state = RULES.apply(state, move)
    return state


def side_totals(state: State) -> dict[str, int]:
    return {side["name"]: side["total"] for side in RULES.view(state)["sides"]}


# --- sides ---------------------------------------------------------------------------------------


def test_without_teams_the_even_seats_are_we_and_the_odd_seats_they() -> None:
    assert start().teams == ((0, 2), (1, 3))
    assert start(6).teams == ((0, 2, 4), (1, 3, 5))


def test_teams_come_from_the_setup_and_the_first_listed_is_we() -> None:
    state = start(setup={"teams": [[3, 1], [0, 2]]})
    assert state.teams == ((1, 3), (0, 2))
    assert [side["name"] for side in RULES.view(state)["sides"]] == ["We", "They"]
    assert RULES.view(state)["sides"][0]["seats"] == [1, 3]


@pytest.mark.parametrize("teams", [[[0, 1], [2, 3]], [[0, 3], [1, 2]], [[3, 0], [2, 1]]])
def test_partners_must_sit_alternately(teams: Any) -> None:
    with pytest.raises(BadSetup) as refused:
        start(setup={"teams": teams})
    assert refused.value.code == "setup.teams_not_alternating"
    assert "the sides are seats [0, 2] and [1, 3]" in refused.value.message


@pytest.mark.parametrize(
    "teams",
    [
        [[0, 2], [1]],
        [[0, 2], [2, 3]],
        [[0, 2], [1, 3], []],
        [[0, 2], [1, "3"]],
        [[0, 2], [1, True]],
        [[0, 2], [1, 5]],
        "0213",
        {"We": [0, 2]},
    ],
)
def test_teams_must_be_two_sides_holding_every_seat_once(teams: Any) -> None:
    with pytest.raises(BadSetup) as refused:
        start(setup={"teams": teams})
    assert refused.value.code == "setup.bad_teams"


@pytest.mark.parametrize("seats", [2, 3, 5, 7])
def test_the_partnership_game_is_two_against_two_or_three_against_three(seats: int) -> None:
    with pytest.raises(BadSetup) as refused:
        start(seats)
    assert refused.value.code == "game.bad_seats"


def test_the_setup_takes_only_teams() -> None:
    with pytest.raises(BadSetup) as refused:
        start(setup={"teams": [[0, 2], [1, 3]], "first": 1})
    assert refused.value.code == "setup.unknown_key"


# --- play and the end ----------------------------------------------------------------------------


def test_each_turn_counts_for_the_shooters_side() -> None:
    state = turns(start(), 200, 450, 300, 0)
    assert side_totals(state) == {"We": 500, "They": 450}
    assert [s.total for s in RULES.scores(state)] == [200, 450, 300, 0]
    assert state.shooter == 0


def test_the_game_ends_when_a_sides_total_reaches_the_target() -> None:
    # given: no partner alone is near 1000, but together "We" reach it
    state = turns(start(s3000_target=1000), 500, 200, 500)
    # then
    assert state.phase == OVER and state.winners == (0, 2)
    assert RULES.result(state).winners == (0, 2)
    assert side_totals(state) == {"We": 1000, "They": 200}
    assert refusal_code(state, BUST) == "game.over"


def test_they_can_win_too() -> None:
    state = turns(start(s3000_target=1000), 200, 500, 200, 500)
    assert state.winners == (1, 3)


def test_with_equal_turns_the_round_is_completed_and_a_side_tie_is_shot_off() -> None:
    state = turns(start(s3000_target=1000, s3000_equal_turns=True), 500, 200, 500)
    assert state.phase == MUST_THROW and state.closing == (3,)
    state = turns(state, 800)  # They: 1000 as well, a side tie
    assert state.closing == (0, 1, 2, 3) and state.shooter == 0
    state = turns(state, 0, 200, 0, 0)
    assert state.phase == OVER and state.winners == (1, 3)
    assert side_totals(state) == {"We": 1000, "They": 1200}


def refusal_code(state: State, move: Move) -> str:
    with pytest.raises(IllegalEvent) as refused:
        RULES.apply(state, move)
    return refused.value.code


# --- the match and its settlement ----------------------------------------------------------------


def finished(state: State) -> Move:
    result = RULES.result(state)
    return Move(
        "game.finished",
        {
            "game": str(uuid.uuid4()),
            "scores": [s.total for s in result.scores],
            "winners": list(result.winners),
            "report": RULES.match_report(state),
        },
    )


def test_each_winning_partner_collects_the_side_difference_from_his_paired_loser() -> None:
    game = turns(start(s3000_target=1000), 500, 200, 500)
    state = MATCH.apply(MATCH.initial_state({"s3000_target": 1000}, 4), finished(game))
    settlement = MATCH.settlement(state)
    # We 1000 - They 200 = 800: seat 1 pays seat 0, seat 3 pays seat 2 (D-P3000-1)
    assert settlement == {
        "payments": [{"from": 1, "to": 0, "points": 800}, {"from": 3, "to": 2, "points": 800}],
        "nets": [800, -800, 800, -800],
    }


def test_payments_pair_winners_and_losers_in_seating_order_with_six_players() -> None:
    game = turns(start(6, s3000_target=1000), 200, 400, 0, 300, 250, 350)
    assert game.winners == (1, 3, 5)
    state = MATCH.apply(MATCH.initial_state({}, 6), finished(game))
    delta = (400 + 300 + 350) - (200 + 0 + 250)
    assert MATCH.settlement(state) == {
        "payments": [{"from": loser, "to": winner, "points": delta} for loser, winner in
                     [(0, 1), (2, 3), (4, 5)]],
        "nets": [-delta, delta] * 3,
    }  # fmt: skip


def test_the_standing_ranks_sides_and_shows_each_partners_total() -> None:
    game = turns(start(s3000_target=1000), 500, 200, 500)
    state = MATCH.apply(MATCH.initial_state({}, 4), finished(game))
    standing = MATCH.standing(state)
    assert [(r["seat"], r["side"], r["side_total"], r["total"], r["rank"]) for r in standing] == [
        (0, "We", 1000, 500, 1),
        (2, "We", 1000, 500, 1),
        (1, "They", 200, 200, 2),
        (3, "They", 200, 0, 2),
    ]
    assert [r["games_won"] for r in standing] == [1, 1, 0, 0]


def test_the_match_gives_its_teams_to_its_game() -> None:
    state = MATCH.initial_state({}, 4, [[1, 3], [0, 2]])
    setup = MATCH.next_game_setup(state)
    assert setup == {"teams": [[1, 3], [0, 2]]}
    assert RULES.initial_state(setup, Ruleset(), 4).teams == ((1, 3), (0, 2))
    untold = MATCH.initial_state({}, 4)
    assert untold.teams == () and MATCH.next_game_setup(untold) == {}
    assert MATCH.sides(untold) == ((0, 2), (1, 3))


@pytest.mark.parametrize(
    ("seats", "teams", "code"),
    [
        (5, [], "match.bad_seats"),
        (4, [[0, 1], [2, 3]], "match.teams_not_alternating"),
        (4, [[0, 2]], "match.bad_teams"),
    ],
)
def test_a_partnership_match_refuses_bad_seats_and_teams(seats: int, teams: Any, code: str) -> None:
    with pytest.raises(BadSetup) as refused:
        MATCH.initial_state({}, seats, teams)
    assert refused.value.code == code


def test_a_sheet_adds_turns_to_the_sides_and_settles_them() -> None:
    # given: rounds in seating order; "They" reach 3000 in round 3
    move = Move(
        "game.scored",
        {"turns": [[450, 900, 200, 0], [0, 1200, 300, 500], [250, 400, 0, 0]]},
    )
    # when
    state = MATCH.apply(MATCH.initial_state({}, 4), move)
    # then
    assert MATCH.games(state)[0]["scores"] == [700, 2500, 500, 500]
    assert MATCH.games(state)[0]["winners"] == [1, 3]
    delta = 3000 - 1200
    assert MATCH.settlement(state)["nets"] == [-delta, delta, -delta, delta]


def test_a_live_game_without_winners_falls_back_to_the_higher_side() -> None:
    move = Move("game.finished", {"game": str(uuid.uuid4()), "scores": [1000, 2900, 2000, 0]})
    state = MATCH.apply(MATCH.initial_state({}, 4), move)
    assert MATCH.games(state)[0]["winners"] == [0, 2]
    assert MATCH.settlement(state)["nets"] == [100, -100, 100, -100]


# --- partner throws (RULES.md 10 by 8.1, D-P3000-2 as D-PSD-1) -----------------------------------


def drawing() -> State:
    return start(setup={"partner_throws": True})


def draw(state: State, *throws: str) -> State:
    for text in throws:
        state = RULES.apply(state, Move("dice.thrown", {"faces": text.split()}))
    return state


def test_partner_throws_form_the_sides_highest_first_partners_alternating() -> None:
    # given: no sides before the throws; totals 10, 20, 5, 15
    assert drawing().teams == () and "sides" not in RULES.view(drawing())
    state = draw(drawing(), "6 3 1 D D", "6 6 4 3 1", "4 1 D D D", "6 4 3 1 1")
    # then: the two highest (seats 1 and 3) are "We"; seat 1 shoots first, partners alternate
    assert state.teams == ((1, 3), (0, 2)) and state.order == (1, 0, 3, 2)
    assert state.shooter == 1 and state.phase == MUST_THROW
    assert RULES.view(state)["sides"][0] == {"name": "We", "seats": [1, 3], "total": 0}


def test_a_tie_across_the_split_is_thrown_again_by_the_tied_only() -> None:
    # seats 0 and 2 tie at 10 for the second place: it decides the sides
    state = draw(drawing(), "6 3 1 D D", "6 6 4 3 1", "6 3 1 D D", "4 1 D D D")
    assert state.draw is not None and state.draw.pending == (0, 2)
    state = draw(state, "D D D D 1", "D D D D 3")
    assert state.teams == ((1, 2), (0, 3)) and state.order == (1, 0, 2, 3)


def test_a_tie_within_the_lower_side_is_not_thrown_again() -> None:
    state = draw(drawing(), "6 6 6 6 6", "6 6 4 3 1", "4 1 D D D", "4 1 D D D")
    assert state.draw is None and state.teams == ((0, 1), (2, 3))
    assert state.order == (0, 2, 1, 3)


def test_a_tie_for_the_highest_is_thrown_again_even_within_a_side() -> None:
    state = draw(drawing(), "6 6 6 6 6", "6 6 6 6 6", "4 1 D D D", "D D D D D")
    assert state.draw is not None and state.draw.pending == (0, 1)
    state = draw(state, "D D D D 1", "D D D D 3")
    assert state.teams == ((0, 1), (2, 3)) and state.order == (1, 2, 0, 3)


def test_teams_and_partner_throws_together_are_refused() -> None:
    with pytest.raises(BadSetup) as refused:
        start(setup={"partner_throws": True, "teams": [[0, 2], [1, 3]]})
    assert refused.value.code == "setup.conflict"


def test_payments_pair_in_the_order_of_play_from_the_first_shooter() -> None:
    # given: six players; partner throws rank seats 2, 0, 4, 1, 5, 3
    throws = ["6 6 6 6 1", "6 4 3 1 1", "6 6 6 6 6", "4 1 D D D", "6 6 4 3 1", "6 3 1 D D"]
    state = draw(start(6, setup={"partner_throws": True}, s3000_target=600), *throws)
    assert state.order == (2, 1, 0, 5, 4, 3) and state.teams == ((0, 2, 4), (1, 3, 5))
    # when: "We" win 600 to 0
    game = turns(state, 200, 0, 200, 0, 200)
    assert game.winners == (0, 2, 4)
    settled = MATCH.settlement(MATCH.apply(MATCH.initial_state({}, 6), finished(game)))
    # then: loser i pays winner i in the order of play: 1 pays 2, 5 pays 0, 3 pays 4
    assert settled["payments"] == [
        {"from": 1, "to": 2, "points": 600},
        {"from": 5, "to": 0, "points": 600},
        {"from": 3, "to": 4, "points": 600},
    ]
    assert settled["nets"] == [600, -600, 600, -600, 600, -600]


def test_sides_formed_by_partner_throws_need_not_alternate_by_seat_number() -> None:
    # given: totals 20, 10, 5, 15: seats 0 and 3 are partners and sit apart in the order of play
    state = draw(drawing(), "6 6 4 3 1", "6 3 1 D D", "4 1 D D D", "6 4 3 1 1")
    assert state.teams == ((0, 3), (1, 2)) and state.order == (0, 1, 3, 2)
    game = turns(state, 0, 1200, 0, 1800)  # seats 0, 1, 3, 2 in turn: They reach 3000
    assert game.winners == (1, 2)
    # when: the match settles the game it was told of
    match = MATCH.apply(MATCH.initial_state({}, 4), finished(game))
    # then: the game's sides count, not the seats' parity
    assert MATCH.sides(match) == ((0, 3), (1, 2))
    assert MATCH.settlement(match) == {
        "payments": [{"from": 0, "to": 1, "points": 3000}, {"from": 3, "to": 2, "points": 3000}],
        "nets": [-3000, 3000, 3000, -3000],
    }
    assert [row["side"] for row in MATCH.standing(match)] == ["They", "They", "We", "We"]
