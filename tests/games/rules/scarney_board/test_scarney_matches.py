"""The matches of Scarney Singles, Doubles and High-Low (RULES.md 3.3-3.8, 4.5-4.6, 5.3, 5.7-5.8,
0.6-0.8, Appendix B.1-B.3 and C.1-C.3)."""

from __future__ import annotations

import json
import random
import uuid
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.base import Move, fold
from games.rules.errors import BadSetup, IllegalEvent
from games.rules.matches import ScoredMatchState, cumulative
from games.rules.registry import match_rules
from games.rules.scarney_board.board import ALL_PAWNS
from games.rules.scarney_board.draws import tied_draw
from games.rules.scarney_board.matches import (
    DOUBLES_MATCH,
    HIGH_LOW_MATCH,
    SINGLES_MATCH,
    high_low_score_possible,
    singles_progress,
)

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"


def fixture(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / name).read_text())  # type: ignore[no-any-return]


def scored(scores: list[int], **more: Any) -> Move:
    return Move("game.scored", {"scores": scores, **more})


def finished(scores: list[int], winners: list[int], **report: Any) -> Move:
    data = {"game": str(uuid.uuid4()), "scores": scores, "winners": winners, "report": report}
    return Move("game.finished", data)


def drawn(*picks: tuple[int, str]) -> Move:
    return Move("order.drawn", {"draws": [{"seat": s, "pawn": p} for s, p in picks]})


def start(match: Any, seats: int, **ruleset: Any) -> ScoredMatchState:
    return match.initial_state(ruleset, seats)  # type: ignore[no-any-return]


def play(match: Any, state: ScoredMatchState, moves: list[Move]) -> ScoredMatchState:
    return fold(match, state, moves)


def refusal(match: Any, state: ScoredMatchState, move: Move) -> IllegalEvent:
    with pytest.raises(IllegalEvent) as refused:
        match.apply(state, move)
    return refused.value


def totals(match: Any, state: ScoredMatchState) -> dict[int, int]:
    return {row["seat"]: row["total"] for row in match.standing(state)}


def settle(match: Any, state: ScoredMatchState) -> dict[str, Any]:
    """The closing event's settlement, recorded: it must be accepted exactly once."""
    event = match.closing_event(state)
    assert event is not None and event[0] == "match.settled"
    settled = match.apply(state, Move(*event))
    assert match.is_settled(settled) and match.closing_event(settled) is None
    assert refusal(match, settled, Move(*event)).code == "match.already_settled"
    assert sum(event[1]["nets"]) == 0
    return event[1]  # type: ignore[no-any-return]


# --- formats and seats -------------------------------------------------------------------------


def test_the_three_formats_are_registered_under_their_game_ids() -> None:
    assert match_rules("scarney-singles") is SINGLES_MATCH
    assert match_rules("scarney-doubles") is DOUBLES_MATCH
    assert match_rules("high-low-scarney") is HIGH_LOW_MATCH


@pytest.mark.parametrize(
    ("match", "bad"),
    [(SINGLES_MATCH, 1), (SINGLES_MATCH, 17), (DOUBLES_MATCH, 3), (HIGH_LOW_MATCH, 1)],
)
def test_a_match_refuses_a_number_of_players_its_game_does_not_take(match: Any, bad: int) -> None:
    with pytest.raises(BadSetup) as refused:
        match.initial_state({}, bad)
    assert refused.value.code == "match.bad_seats"


def test_the_match_ruleset_is_the_game_ruleset_with_its_house_rules() -> None:
    assert start(SINGLES_MATCH, 2).ruleset.singles_tiebreak_games_count is True
    assert start(DOUBLES_MATCH, 2, doubles_next_starter="loser").ruleset.doubles_next_starter == (
        "loser"
    )
    assert start(HIGH_LOW_MATCH, 2).ruleset.sheet_entry_validation == "strict"


# --- Scarney Singles ---------------------------------------------------------------------------


def test_singles_sheet_b1_strict_refuses_a_game_four_of_38() -> None:
    sheet = fixture("sheet_singles_b1.json")
    state = play(
        SINGLES_MATCH, start(SINGLES_MATCH, 3), [scored(g["scores"]) for g in sheet["games"][:3]]
    )
    refused = refusal(SINGLES_MATCH, state, scored(sheet["games"][3]["scores"]))
    assert refused.code == sheet["strict"]["code"]
    assert refused.data["seat"] == 0 and refused.data["score"] == 38 and refused.data["game"] == 4
    assert "nearest possible scores are 37 and 49" in refused.message


def test_singles_sheet_b1_lenient_c_wins_313_and_collects_105_and_185() -> None:
    sheet = fixture("sheet_singles_b1.json")
    expected = sheet["lenient"]
    moves = [scored(g["scores"], cumulative=g["cumulative"]) for g in sheet["games"]]
    state = play(SINGLES_MATCH, start(SINGLES_MATCH, 3, sheet_entry_validation="lenient"), moves)
    assert [g["cumulative"] for g in SINGLES_MATCH.games(state)] == [
        g["cumulative"] for g in sheet["games"]
    ]
    assert [(w["game"], w["code"]) for w in SINGLES_MATCH.warnings(state)] == [
        (w["game"], w["code"]) for w in expected["warnings"]
    ]
    assert SINGLES_MATCH.is_complete(state)
    rows = {row["seat"]: row for row in SINGLES_MATCH.standing(state)}
    assert [rows[s]["match_score"] for s in range(3)] == expected["match_scores"]
    assert [rows[s]["bonuses"] for s in range(3)] == expected["bonuses"]
    assert [rows[s]["total"] for s in range(3)] == expected["totals"]
    assert rows[expected["winner"]]["rank"] == 1
    settlement = settle(SINGLES_MATCH, state)
    assert settlement["payments"] == expected["payments"]
    assert settlement["nets"] == expected["nets"]


def test_a_sheet_line_with_a_wrong_cumulative_figure_is_refused() -> None:
    state = play(SINGLES_MATCH, start(SINGLES_MATCH, 3), [scored([32, 19, 6])])
    refused = refusal(SINGLES_MATCH, state, scored([24, 77, 34], cumulative=[56, 96, 41]))
    assert refused.code == "sheet.cumulative_mismatch"
    assert refused.data["cumulative"] == [56, 96, 40]


def test_singles_sheet_scores_outside_appendix_c1_are_refused() -> None:
    state = start(SINGLES_MATCH, 2)
    for impossible in (38, 48, 191, -5, 101):
        assert refusal(SINGLES_MATCH, state, scored([20, impossible])).code == "score.unattainable"
    for possible in (1, 37, 49, 190, 170, 110):
        assert SINGLES_MATCH.sheet_issues(state, (possible, possible)) == []


def test_singles_sheet_b1_entered_game_by_game_gives_the_same_settlement() -> None:
    # given each round's line split into its three games, the active player's score alone
    sheet = fixture("sheet_singles_b1.json")
    lines = []
    for game in sheet["games"]:
        for seat, score in enumerate(game["scores"]):
            lines.append(scored([score if s == seat else 0 for s in range(3)]))
    state = play(SINGLES_MATCH, start(SINGLES_MATCH, 3, sheet_entry_validation="lenient"), lines)
    assert [(w["game"], w["code"]) for w in SINGLES_MATCH.warnings(state)] == [
        (10, "score.unattainable")
    ]
    assert [
        row["total"] for row in sorted(SINGLES_MATCH.standing(state), key=lambda r: r["seat"])
    ] == sheet["lenient"]["totals"]
    assert settle(SINGLES_MATCH, state)["payments"] == sheet["lenient"]["payments"]


def test_a_one_game_sheet_line_is_the_active_players_alone() -> None:
    state = start(SINGLES_MATCH, 3)
    refused = refusal(SINGLES_MATCH, state, scored([0, 19, 0]))
    assert refused.code == "score.unattainable" and refused.data["seat"] == 1
    state = SINGLES_MATCH.apply(state, scored([32, 0, 0]))
    # a round under way takes no whole-round line
    assert refusal(SINGLES_MATCH, state, scored([24, 77, 34])).code == "score.unattainable"
    state = SINGLES_MATCH.apply(state, scored([0, 19, 0]))
    assert singles_progress(state).due == (2,)


def test_singles_active_player_moves_clockwise_and_the_opponent_sits_on_his_right() -> None:
    # given three players and the first active player seat 0 (no draw)
    state = start(SINGLES_MATCH, 3)
    roles = []
    for _ in range(6):
        setup = SINGLES_MATCH.next_game_setup(state)
        roles.append((setup["active"], setup["opponent"]))
        scores = [0, 0, 0]
        scores[setup["active"]] = 30
        state = SINGLES_MATCH.apply(state, finished(scores, [setup["active"]]))
    assert roles == [(0, 2), (1, 0), (2, 1), (0, 2), (1, 0), (2, 1)]


def test_with_two_players_the_opponent_is_the_other_player() -> None:
    state = start(SINGLES_MATCH, 2)
    assert SINGLES_MATCH.next_game_setup(state) == {"active": 0, "opponent": 1}
    state = SINGLES_MATCH.apply(state, finished([12, 0], [0]))
    assert SINGLES_MATCH.next_game_setup(state) == {"active": 1, "opponent": 0}


def live_singles(state: ScoredMatchState, by_seat: list[int], games: int) -> ScoredMatchState:
    """``games`` live games, each active player scoring his ``by_seat`` figure."""
    for _ in range(games):
        active = SINGLES_MATCH.next_game_setup(state)["active"]
        scores = [0] * state.seats
        scores[active] = by_seat[active]
        state = SINGLES_MATCH.apply(state, finished(scores, [active]))
    return state


def test_a_live_singles_match_is_five_games_per_player() -> None:
    state = live_singles(start(SINGLES_MATCH, 3), [20, 30, 25], 14)
    assert not SINGLES_MATCH.is_complete(state)
    assert SINGLES_MATCH.next_game_number(state) == 15
    state = live_singles(state, [20, 30, 25], 1)
    assert SINGLES_MATCH.is_complete(state) and SINGLES_MATCH.next_game_number(state) is None
    assert totals(SINGLES_MATCH, state) == {0: 100, 1: 250, 2: 125}
    assert settle(SINGLES_MATCH, state)["payments"] == [
        {"from": 0, "to": 1, "points": 150},
        {"from": 2, "to": 1, "points": 125},
    ]
    assert refusal(SINGLES_MATCH, state, finished([1, 0, 0], [0])).code == "match.over"


def test_the_match_bonus_comes_only_when_the_match_is_won() -> None:
    state = live_singles(start(SINGLES_MATCH, 2), [20, 30], 9)
    assert all(row["bonuses"] == [] for row in SINGLES_MATCH.standing(state))


def test_tied_leaders_play_extra_games_in_seating_order_and_they_count() -> None:
    # given A and C tied for the lead after five rounds, B behind
    state = live_singles(start(SINGLES_MATCH, 3), [30, 10, 30], 15)
    progress = singles_progress(state)
    assert not progress.complete and progress.due == (0, 2) and progress.round == 6
    # when A then C play an extra game each (opponents: the player on the right, tied or not)
    assert SINGLES_MATCH.next_game_setup(state) == {"active": 0, "opponent": 2}
    state = SINGLES_MATCH.apply(state, finished([25, 0, 0], [0]))
    assert SINGLES_MATCH.next_game_setup(state) == {"active": 2, "opponent": 1}
    assert not SINGLES_MATCH.is_complete(state)  # C has yet to play his extra game
    state = SINGLES_MATCH.apply(state, finished([0, 0, 31], [2]))
    # then C wins with the extra scores added (D-SGL-5)
    assert SINGLES_MATCH.is_complete(state)
    assert totals(SINGLES_MATCH, state) == {0: 175, 1: 50, 2: 281}
    assert settle(SINGLES_MATCH, state)["payments"] == [
        {"from": 0, "to": 2, "points": 106},
        {"from": 1, "to": 2, "points": 231},
    ]


def test_still_tied_after_an_extra_round_they_play_another() -> None:
    state = live_singles(start(SINGLES_MATCH, 2), [30, 30], 10)
    state = play(SINGLES_MATCH, state, [finished([20, 0], [0]), finished([0, 20], [1])])
    assert singles_progress(state).due == (0, 1) and singles_progress(state).round == 7
    state = play(SINGLES_MATCH, state, [finished([5, 0], [0]), finished([0, 6], [1])])
    assert SINGLES_MATCH.is_complete(state)
    assert totals(SINGLES_MATCH, state) == {0: 175, 1: 276}


def test_with_extra_games_not_counting_they_only_decide_the_winner() -> None:
    state = live_singles(
        start(SINGLES_MATCH, 3, singles_tiebreak_games_count=False), [30, 10, 30], 15
    )
    state = play(SINGLES_MATCH, state, [finished([25, 0, 0], [0]), finished([0, 0, 31], [2])])
    rows = {row["seat"]: row for row in SINGLES_MATCH.standing(state)}
    assert [rows[s]["match_score"] for s in range(3)] == [150, 50, 150]
    assert rows[2]["total"] == 250 and rows[2]["rank"] == 1
    assert settle(SINGLES_MATCH, state)["payments"] == [
        {"from": 0, "to": 2, "points": 100},
        {"from": 1, "to": 2, "points": 200},
    ]


def test_a_sheet_extra_round_holds_only_the_tied_players_scores() -> None:
    rows = [[30, 10, 30]] * 5
    state = play(SINGLES_MATCH, start(SINGLES_MATCH, 3), [scored(r) for r in rows])
    refused = refusal(SINGLES_MATCH, state, scored([25, 8, 31]))
    assert refused.code == "score.unattainable" and refused.data["seat"] == 1
    assert refusal(SINGLES_MATCH, state, scored([0, 0, 31])).data["seat"] == 2  # A plays first
    state = SINGLES_MATCH.apply(state, scored([25, 0, 31]))
    assert SINGLES_MATCH.is_complete(state) and totals(SINGLES_MATCH, state)[2] == 281


def games_won(match: Any, state: ScoredMatchState) -> list[int]:
    rows = {row["seat"]: row for row in match.standing(state)}
    return [rows[seat]["games_won"] for seat in range(state.seats)]


def test_a_singles_game_is_won_by_nobody_live_or_from_a_sheet() -> None:
    """RULES.md 3.4: each player plays "his own games", the opponent "scores nothing in that game"
    and only helps place; 3.6-3.7 score the game for the active player alone and name a winner
    only of the match. A Singles game, like a Solitaire game, has no winner, so every game's
    winners are empty and games_won is 0 for everyone, however the game was entered."""
    sheet = fixture("sheet_singles_b1.json")
    lenient = {"sheet_entry_validation": "lenient"}
    rounds = play(
        SINGLES_MATCH,
        start(SINGLES_MATCH, 3, **lenient),
        [scored(g["scores"]) for g in sheet["games"]],
    )
    one_by_one = play(
        SINGLES_MATCH,
        start(SINGLES_MATCH, 3, **lenient),
        [
            scored([score if s == seat else 0 for s in range(3)])
            for g in sheet["games"]
            for seat, score in enumerate(g["scores"])
        ],
    )
    live = start(SINGLES_MATCH, 3)
    for g in sheet["games"]:
        for seat, score in enumerate(g["scores"]):
            assert SINGLES_MATCH.next_game_setup(live)["active"] == seat
            # the game engine names its active player in winners; the match does not count it
            live = SINGLES_MATCH.apply(
                live, finished([score if s == seat else 0 for s in range(3)], [seat])
            )
    for state in (rounds, one_by_one, live):
        assert SINGLES_MATCH.is_complete(state)
        assert all(game["winners"] == [] for game in SINGLES_MATCH.games(state))
        assert games_won(SINGLES_MATCH, state) == [0, 0, 0]
        assert totals(SINGLES_MATCH, state) == dict(enumerate(sheet["lenient"]["totals"]))


def test_the_draw_makes_the_highest_pick_the_first_active_player() -> None:
    state = SINGLES_MATCH.apply(start(SINGLES_MATCH, 3), drawn((0, "R2"), (1, "B1"), (2, "G4")))
    assert SINGLES_MATCH.next_game_setup(state) == {"active": 2, "opponent": 1}
    state = live_singles(state, [10, 10, 10], 1)
    assert SINGLES_MATCH.next_game_setup(state) == {"active": 0, "opponent": 2}


def test_a_tie_in_the_draw_is_drawn_again_by_the_tied_players_only() -> None:
    state = SINGLES_MATCH.apply(start(SINGLES_MATCH, 3), drawn((0, "R4"), (1, "B1"), (2, "G4")))
    assert SINGLES_MATCH.expected(state) == ["order.drawn"]
    assert refusal(SINGLES_MATCH, state, scored([30, 30, 30])).code == "order.draw_pending"
    with pytest.raises(BadSetup) as pending:
        SINGLES_MATCH.next_game_setup(state)
    assert pending.value.code == "order.draw_pending"
    wrong = refusal(SINGLES_MATCH, state, drawn((0, "R1"), (1, "B4"), (2, "G2")))
    assert wrong.code == "order.wrong_seats" and wrong.data["seats"] == [0, 2]
    # the re-draw may use pawns drawn before: the pawns are mixed again
    state = SINGLES_MATCH.apply(state, drawn((0, "G4"), (2, "Y3")))
    assert SINGLES_MATCH.next_game_setup(state)["active"] == 0
    assert refusal(SINGLES_MATCH, state, drawn((0, "G4"), (2, "Y3"))).code == (
        "order.already_drawn"
    )


@pytest.mark.parametrize(
    ("draws", "code"),
    [
        ([(0, "R4"), (1, "R4"), (2, "B1")], "order.duplicate_pawn"),
        ([(0, "R4"), (1, "B1")], "order.wrong_seats"),
        ([(0, "R4"), (0, "B1"), (2, "G1")], "order.wrong_seats"),
        ([(0, "R5"), (1, "B1"), (2, "G1")], "pawn.unknown"),
    ],
)
def test_a_draw_names_every_seat_once_with_different_pawns(
    draws: list[tuple[int, str]], code: str
) -> None:
    assert refusal(SINGLES_MATCH, start(SINGLES_MATCH, 3), drawn(*draws)).code == code


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"draws": []},
        {"draws": "R4"},
        {"draws": [7]},
        {"draws": [{"seat": True}]},
        {"draws": [{"seat": 0}]},
        {"draws": [{"seat": "0", "pawn": "R4"}]},
    ],
)
def test_a_malformed_draw_is_bad_data(data: dict[str, Any]) -> None:
    refused = refusal(SINGLES_MATCH, start(SINGLES_MATCH, 2), Move("order.drawn", data))
    assert refused.code in ("event.bad_data", "pawn.unknown")


@pytest.mark.parametrize(
    ("match", "picks"),
    [
        (SINGLES_MATCH, [(0, "R2"), (1, "B1"), (2, "G4")]),
        (DOUBLES_MATCH, [(0, "G2"), (1, "Y3")]),
        (HIGH_LOW_MATCH, [(0, "B1"), (1, "B3")]),
    ],
)
def test_once_the_draw_has_decided_only_games_are_expected(
    match: Any, picks: list[tuple[int, str]]
) -> None:
    """RULES.md 3.3 / 5.3: the draw is made once (re-drawn only by tied players); after a
    decisive draw another order.drawn is refused, so it is no longer among the expected events."""
    state = start(match, len(picks))
    assert match.expected(state) == ["order.drawn", "game.finished", "game.scored"]
    state = match.apply(state, drawn(*picks))
    assert match.expected(state) == ["game.finished", "game.scored"]
    assert refusal(match, state, drawn(*picks)).code == "order.already_drawn"


def test_the_draw_comes_before_the_first_game() -> None:
    state = SINGLES_MATCH.apply(start(SINGLES_MATCH, 2), scored([10, 10]))
    assert refusal(SINGLES_MATCH, state, drawn((0, "R4"), (1, "B1"))).code == "order.too_late"


# --- Scarney Doubles ---------------------------------------------------------------------------


def test_doubles_sheet_b2_strict_refuses_game_four_totalling_42() -> None:
    sheet = fixture("sheet_doubles_b2.json")
    state = play(
        DOUBLES_MATCH, start(DOUBLES_MATCH, 2), [scored(g["scores"]) for g in sheet["games"][:3]]
    )
    refused = refusal(DOUBLES_MATCH, state, scored(sheet["games"][3]["scores"]))
    assert refused.code == "score.doubles_total" and "20 + 22 = 42" in refused.message


def test_doubles_sheet_b2_lenient_b_wins_221_to_81_and_a_pays_140() -> None:
    sheet = fixture("sheet_doubles_b2.json")
    expected = sheet["lenient"]
    state = start(DOUBLES_MATCH, 2, sheet_entry_validation="lenient")
    for number, game in enumerate(sheet["games"], start=1):
        assert not DOUBLES_MATCH.is_complete(state)
        state = DOUBLES_MATCH.apply(state, scored(game["scores"], cumulative=game["cumulative"]))
        # B at 96 after game 4 is short of 100; 121 after game 5 ends the match
        assert DOUBLES_MATCH.is_complete(state) == (number == 5)
    assert [(w["game"], w["code"]) for w in DOUBLES_MATCH.warnings(state)] == [
        (w["game"], w["code"]) for w in expected["warnings"]
    ]
    rows = {row["seat"]: row for row in DOUBLES_MATCH.standing(state)}
    assert [rows[s]["match_score"] for s in (0, 1)] == expected["match_scores"]
    assert [rows[s]["bonuses"] for s in (0, 1)] == expected["bonuses"]
    assert [rows[s]["total"] for s in (0, 1)] == expected["totals"]
    settlement = settle(DOUBLES_MATCH, state)
    assert settlement["payments"] == expected["payments"] and settlement["nets"] == expected["nets"]


def test_doubles_sheet_b2_printed_cumulative_66_is_a_mismatch() -> None:
    sheet = fixture("sheet_doubles_b2.json")
    state = start(DOUBLES_MATCH, 2, sheet_entry_validation="lenient")
    state = play(DOUBLES_MATCH, state, [scored(g["scores"]) for g in sheet["games"][:3]])
    printed = sheet["printed_cumulative_after_game_4"]
    refused = refusal(DOUBLES_MATCH, state, scored([20, 22], cumulative=printed))
    assert refused.code == "sheet.cumulative_mismatch" and refused.data["cumulative"] == [66, 96]


@pytest.mark.parametrize("scores", [[41, -1], [20, 19], [40, 1], [0, 0]])
def test_doubles_game_scores_must_total_40_none_negative(scores: list[int]) -> None:
    assert refusal(DOUBLES_MATCH, start(DOUBLES_MATCH, 2), scored(scores)).code == (
        "score.doubles_total"
    )


def test_a_doubles_match_lasts_at_least_three_games() -> None:
    state = play(DOUBLES_MATCH, start(DOUBLES_MATCH, 2), [scored([40, 0]), scored([40, 0])])
    assert not DOUBLES_MATCH.is_complete(state)
    state = DOUBLES_MATCH.apply(state, scored([20, 20]))
    assert DOUBLES_MATCH.is_complete(state) and totals(DOUBLES_MATCH, state) == {0: 200, 1: 20}


def test_doubles_scores_equal_at_100_play_on_until_they_differ() -> None:
    state = play(DOUBLES_MATCH, start(DOUBLES_MATCH, 2), [scored([20, 20])] * 5)
    assert not DOUBLES_MATCH.is_complete(state)  # 100 - 100
    state = DOUBLES_MATCH.apply(state, scored([20, 20]))
    assert not DOUBLES_MATCH.is_complete(state)  # 120 - 120
    state = DOUBLES_MATCH.apply(state, scored([19, 21]))
    assert DOUBLES_MATCH.is_complete(state)
    assert settle(DOUBLES_MATCH, state)["payments"] == [{"from": 0, "to": 1, "points": 102}]


def test_doubles_starter_alternates_from_the_draw() -> None:
    state = DOUBLES_MATCH.apply(start(DOUBLES_MATCH, 2), drawn((0, "G2"), (1, "Y3")))
    starters = []
    for scores in ([30, 10], [30, 10], [10, 30]):
        starters.append(DOUBLES_MATCH.next_game_setup(state)["starter"])
        state = DOUBLES_MATCH.apply(state, finished(scores, [scores.index(max(scores))]))
    assert starters == [1, 0, 1]


def test_doubles_draw_ties_are_drawn_again() -> None:
    state = DOUBLES_MATCH.apply(start(DOUBLES_MATCH, 2), drawn((0, "G3"), (1, "Y3")))
    assert DOUBLES_MATCH.expected(state) == ["order.drawn"]
    state = DOUBLES_MATCH.apply(state, drawn((0, "B1"), (1, "Y3")))
    assert DOUBLES_MATCH.next_game_setup(state) == {"starter": 1}


def test_doubles_loser_starts_under_the_house_rule() -> None:
    state = start(DOUBLES_MATCH, 2, doubles_next_starter="loser")
    starters = []
    for scores in ([30, 10], [30, 10], [20, 20], [10, 30]):
        starters.append(DOUBLES_MATCH.next_game_setup(state)["starter"])
        state = DOUBLES_MATCH.apply(state, scored(scores))
    # loser B starts twice; a drawn game has no loser, so the starter alternates
    assert starters == [0, 1, 1, 0]
    assert DOUBLES_MATCH.next_game_setup(state) == {"starter": 0}


def test_a_drawn_doubles_game_counts_for_nobody_live_or_from_a_sheet() -> None:
    """RULES.md 4.5: the match is won by "the higher cumulative score"; a 20-20 game has no
    higher score and no loser (D-DBL-4's "loser" variant alternates after it). A live 20-20 game
    counts in games_won exactly as the same sheet line does: for nobody."""
    lines = [([30, 10], [0]), ([20, 20], [0, 1]), ([5, 35], [1])]
    sheet = play(DOUBLES_MATCH, start(DOUBLES_MATCH, 2), [scored(s) for s, _ in lines])
    live = play(DOUBLES_MATCH, start(DOUBLES_MATCH, 2), [finished(s, w) for s, w in lines])
    for state in (sheet, live):
        assert [game["winners"] for game in DOUBLES_MATCH.games(state)] == [[0], [], [1]]
        assert games_won(DOUBLES_MATCH, state) == [1, 1]


def test_a_live_doubles_game_reports_its_starter() -> None:
    state = DOUBLES_MATCH.apply(start(DOUBLES_MATCH, 2), finished([25, 15], [0], starter=0))
    assert DOUBLES_MATCH.next_game_setup(state) == {"starter": 1}


# --- High-Low Scarney --------------------------------------------------------------------------


def test_high_low_sheet_b3_b_wins_294_to_42_by_252() -> None:
    sheet = fixture("sheet_high_low_b3.json")
    expected = sheet["result"]
    state = start(HIGH_LOW_MATCH, 2)
    for game in sheet["games"]:
        assert not HIGH_LOW_MATCH.is_complete(state)
        state = HIGH_LOW_MATCH.apply(state, scored(game["scores"], cumulative=game["cumulative"]))
        assert HIGH_LOW_MATCH.games(state)[-1]["winners"] == [game["winner"]]
    assert HIGH_LOW_MATCH.is_complete(state) and HIGH_LOW_MATCH.warnings(state) == []
    rows = {row["seat"]: row for row in HIGH_LOW_MATCH.standing(state)}
    assert [rows[s]["match_score"] for s in (0, 1)] == expected["match_scores"]
    assert [rows[s]["games_won"] for s in (0, 1)] == expected["games_won"]
    assert [rows[s]["bonuses"] for s in (0, 1)] == expected["bonuses"]
    assert [rows[s]["total"] for s in (0, 1)] == expected["totals"]
    settlement = settle(HIGH_LOW_MATCH, state)
    assert settlement["payments"] == expected["payments"] and settlement["nets"] == expected["nets"]


def test_high_low_game_scores_within_appendix_c3() -> None:
    possible = [s for s in range(-2, 80) if high_low_score_possible(s)]
    assert possible == [*range(3, 35), *range(36, 69, 2)]


@pytest.mark.parametrize("score", [2, 35, 37, 70, 72, 74])
def test_high_low_strict_sheet_refuses_scores_outside_3_34_and_even_6_68(score: int) -> None:
    for scores in ([score, 0], [0, score]):
        refused = refusal(HIGH_LOW_MATCH, start(HIGH_LOW_MATCH, 2), scored(scores))
        assert refused.code == "score.unattainable"
        assert "3 to 34" in refused.message and "6 to 68" in refused.message


@pytest.mark.parametrize("score", [3, 34, 36, 68])
def test_high_low_strict_sheet_accepts_the_ends_of_appendix_c3(score: int) -> None:
    state = HIGH_LOW_MATCH.apply(start(HIGH_LOW_MATCH, 2), scored([0, score]))
    assert HIGH_LOW_MATCH.warnings(state) == [] and cumulative(state) == [0, score]


@pytest.mark.parametrize("scores", [[0, 0], [10, 12], [0, 1], [39, 0], [0, 76], [-4, 0]])
def test_high_low_sheet_lines_c3_refuses(scores: list[int]) -> None:
    refused = refusal(HIGH_LOW_MATCH, start(HIGH_LOW_MATCH, 2), scored(scores))
    assert refused.code == "score.unattainable"


def test_high_low_lenient_sheet_keeps_the_line_with_its_warning() -> None:
    state = HIGH_LOW_MATCH.apply(
        start(HIGH_LOW_MATCH, 2, sheet_entry_validation="lenient"), scored([39, 0])
    )
    assert [w["code"] for w in HIGH_LOW_MATCH.warnings(state)] == ["score.unattainable"]


def test_high_low_shutout_bonus_when_the_loser_never_scored() -> None:
    state = play(HIGH_LOW_MATCH, start(HIGH_LOW_MATCH, 2), [scored([60, 0]), scored([44, 0])])
    rows = {row["seat"]: row for row in HIGH_LOW_MATCH.standing(state)}
    assert rows[0]["bonuses"] == [
        {"kind": "game_bonus", "points": 40},
        {"kind": "match_bonus", "points": 100},
        {"kind": "shutout_bonus", "points": 100},
    ]
    assert rows[0]["total"] == 344 and rows[1]["total"] == 0
    assert settle(HIGH_LOW_MATCH, state)["payments"] == [{"from": 1, "to": 0, "points": 344}]


def test_high_low_many_small_wins_reverse_the_payment() -> None:
    # A wins twenty games of 4; B wins 68 and 36 and so the match (D-HL-7)
    lines = [scored([4, 0])] * 20 + [scored([0, 68]), scored([0, 36])]
    state = play(HIGH_LOW_MATCH, start(HIGH_LOW_MATCH, 2), lines)
    assert HIGH_LOW_MATCH.is_complete(state)
    assert totals(HIGH_LOW_MATCH, state) == {0: 80 + 400, 1: 104 + 40 + 100}
    standing = HIGH_LOW_MATCH.standing(state)
    assert [(row["seat"], row["rank"]) for row in standing] == [(1, 1), (0, 2)]
    assert settle(HIGH_LOW_MATCH, state)["payments"] == [{"from": 1, "to": 0, "points": 236}]


def test_high_low_loser_of_a_game_starts_the_next() -> None:
    state = start(HIGH_LOW_MATCH, 2)
    starters = []
    for winner in (0, 0, 1, 0):
        starters.append(HIGH_LOW_MATCH.next_game_setup(state)["starter"])
        scores = [0, 0]
        scores[winner] = 10
        state = HIGH_LOW_MATCH.apply(state, finished(scores, [winner], starter=starters[-1]))
    assert starters == [0, 1, 1, 0]
    assert HIGH_LOW_MATCH.next_game_setup(state) == {"starter": 1}


def test_high_low_pick_of_two_pawns_of_one_colour_decides_the_first_starter() -> None:
    state = HIGH_LOW_MATCH.apply(start(HIGH_LOW_MATCH, 2), drawn((0, "Y1"), (1, "Y3")))
    assert HIGH_LOW_MATCH.next_game_setup(state) == {"starter": 1}
    refused = refusal(HIGH_LOW_MATCH, start(HIGH_LOW_MATCH, 2), drawn((0, "Y1"), (1, "B3")))
    assert refused.code == "order.not_same_colour"
    same = refusal(HIGH_LOW_MATCH, start(HIGH_LOW_MATCH, 2), drawn((0, "Y1"), (1, "Y1")))
    assert same.code == "order.duplicate_pawn"


def test_high_low_match_ends_the_first_time_a_player_reaches_100() -> None:
    state = play(HIGH_LOW_MATCH, start(HIGH_LOW_MATCH, 2), [scored([0, 68]), scored([0, 28])])
    assert not HIGH_LOW_MATCH.is_complete(state)  # 96
    state = HIGH_LOW_MATCH.apply(state, scored([0, 4]))
    assert HIGH_LOW_MATCH.is_complete(state) and HIGH_LOW_MATCH.winner(state) == 1
    assert refusal(HIGH_LOW_MATCH, state, scored([0, 4])).code == "match.over"


@pytest.mark.parametrize("match", [SINGLES_MATCH, DOUBLES_MATCH, HIGH_LOW_MATCH])
@pytest.mark.parametrize(
    "move",
    [
        Move("game.scored", {"scores": "x"}),
        Move("game.scored", {"scores": [1]}),
        Move("game.finished", {"game": "not-a-uuid", "scores": [1, 1]}),
        Move("match.started", {}),
        Move("order.drawn", []),  # type: ignore[arg-type]
    ],
)
def test_malformed_match_events_are_refused_with_a_code(match: Any, move: Move) -> None:
    codes = ("event.bad_data", "event.unknown_type", "sheet.wrong_length")
    assert refusal(match, start(match, 2), move).code in codes


def test_settlement_is_refused_before_the_match_is_complete() -> None:
    state = DOUBLES_MATCH.apply(start(DOUBLES_MATCH, 2), scored([20, 20]))
    assert DOUBLES_MATCH.closing_event(state) is None
    refused = refusal(DOUBLES_MATCH, state, Move("match.settled", {"payments": [], "nets": []}))
    assert refused.code == "match.not_finished"


def test_singles_takes_up_to_sixteen_players_the_pawns_of_the_draw() -> None:
    state = start(SINGLES_MATCH, 16)
    picks = [(seat, pawn) for seat, pawn in enumerate(ALL_PAWNS)]
    state = SINGLES_MATCH.apply(state, drawn(*picks))
    # four 4-spot pawns tie (B4, R4, Y4, G4 on seats 3, 7, 11, 15): only they draw again
    assert tied_draw(state) == (3, 7, 11, 15)


def test_doubles_both_past_100_unequal_ends_the_match() -> None:
    state = play(DOUBLES_MATCH, start(DOUBLES_MATCH, 2), [scored([30, 10]), scored([30, 10])])
    state = play(DOUBLES_MATCH, state, [scored([25, 15]), scored([5, 35])])
    assert cumulative(state) == [90, 70] and not DOUBLES_MATCH.is_complete(state)
    state = DOUBLES_MATCH.apply(state, scored([11, 29]))  # 101 - 99
    assert DOUBLES_MATCH.is_complete(state)
    state = play(DOUBLES_MATCH, start(DOUBLES_MATCH, 2), [scored([30, 10])] * 2)
    state = play(DOUBLES_MATCH, state, [scored([20, 20]), scored([10, 30]), scored([25, 15])])
    assert cumulative(state) == [115, 85] and DOUBLES_MATCH.is_complete(state)


def test_high_low_bonuses_come_only_at_the_end_of_the_match() -> None:
    state = play(HIGH_LOW_MATCH, start(HIGH_LOW_MATCH, 2), [scored([0, 44]), scored([30, 0])])
    assert all(row["bonuses"] == [] for row in HIGH_LOW_MATCH.standing(state))
    assert totals(HIGH_LOW_MATCH, state) == {0: 30, 1: 44}


def test_high_low_pick_comes_before_the_first_game_and_names_both_players() -> None:
    state = HIGH_LOW_MATCH.apply(start(HIGH_LOW_MATCH, 2), scored([0, 10]))
    assert refusal(HIGH_LOW_MATCH, state, drawn((0, "Y1"), (1, "Y3"))).code == "order.too_late"
    one = refusal(HIGH_LOW_MATCH, start(HIGH_LOW_MATCH, 2), drawn((0, "Y1")))
    assert one.code == "order.wrong_seats"


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-200, 200) | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
EVENT_DATA = st.fixed_dictionaries(
    {},
    optional={
        "scores": st.lists(st.integers(-5, 80), min_size=2, max_size=2) | JSON,
        "cumulative": JSON,
        "draws": st.lists(
            st.fixed_dictionaries({}, optional={"seat": JSON, "pawn": JSON}), max_size=3
        )
        | JSON,
        "game": st.uuids().map(str) | JSON,
        "winners": JSON,
        "report": st.fixed_dictionaries({}, optional={"starter": JSON}) | JSON,
    },
)


@settings(max_examples=60, deadline=None)
@given(
    match=st.sampled_from([SINGLES_MATCH, DOUBLES_MATCH, HIGH_LOW_MATCH]),
    lenient=st.booleans(),
    events=st.lists(
        st.tuples(st.sampled_from(["game.scored", "game.finished", "order.drawn"]), EVENT_DATA),
        max_size=6,
    ),
)
def test_any_json_gives_a_refusal_or_a_match_never_a_crash(
    match: Any, lenient: bool, events: list[tuple[str, dict[str, Any]]]
) -> None:
    state = start(match, 2, sheet_entry_validation="lenient" if lenient else "strict")
    for type, data in events:
        try:
            state = match.apply(state, Move(type, data))
        except IllegalEvent:
            continue
        match.standing(state)
        match.games(state)
        if match.is_complete(state):
            settle(match, state)
        elif not tied_draw(state):
            assert match.next_game_setup(state)


# --- live or from a sheet, the same games make the same match ----------------------------------


def _live_winners(match: Any, scores: list[int], active: int) -> list[int]:
    """What each game's rule engine reports: the active player (Singles), every highest score
    (Doubles: both at 20-20), the one scorer (High-Low)."""
    if match is SINGLES_MATCH:
        return [active]
    best = max(scores)
    return [seat for seat, score in enumerate(scores) if score == best]


def _next_scores(match: Any, state: ScoredMatchState, rng: random.Random) -> tuple[list[int], int]:
    """Possible scores of the next game and the seat that played it (Singles) or won it."""
    if match is SINGLES_MATCH:
        active = match.next_game_setup(state)["active"]
        scores = [0] * state.seats
        scores[active] = rng.choice([3, 20, 37, 49, 64, 97, 110])
        return scores, active
    if match is DOUBLES_MATCH:
        first = rng.choice([10, 18, 20, 20, 22, 30])
        return [first, 40 - first], 0
    winner = rng.randrange(2)
    scores = [0, 0]
    scores[winner] = rng.choice([3, 21, 34, 44, 68])
    return scores, winner


@settings(max_examples=30, deadline=None)
@given(
    match=st.sampled_from([SINGLES_MATCH, DOUBLES_MATCH, HIGH_LOW_MATCH]),
    seats=st.integers(2, 4),
    seed=st.integers(0, 2**32),
)
def test_the_same_games_live_or_from_a_sheet_make_the_same_match(
    match: Any, seats: int, seed: int
) -> None:
    """RULES.md 0.6: a finished sheet holds the same games as a match recorded live, so the
    standing (games_won included), the games' winners and the settlement must not depend on how
    each game was entered (3.7, 4.5, 5.7)."""
    rng = random.Random(seed)
    seats = seats if match is SINGLES_MATCH else 2
    live, sheet = start(match, seats), start(match, seats)
    while not match.is_complete(live):
        scores, seat = _next_scores(match, live, rng)
        live = match.apply(live, finished(scores, _live_winners(match, scores, seat)))
        sheet = match.apply(sheet, scored(scores))
        assert match.is_complete(sheet) == match.is_complete(live)
    assert match.standing(live) == match.standing(sheet)
    assert [g["winners"] for g in match.games(live)] == [g["winners"] for g in match.games(sheet)]
    assert match.settlement(live) == match.settlement(sheet)
