"""The Hearts Due match: one game, no settlement (RULES.md 0.8), and its finished sheet (0.6, 15,
Appendix C.5): rolls round by round, replayed through the turn and end rules."""

from __future__ import annotations

import random
import uuid
from typing import Any

import pytest

from games.rules.base import Move, fold, make_ruleset
from games.rules.dice_games.hearts_due import HEARTS_DUE, State
from games.rules.dice_games.hearts_due_match import MatchRuleset
from games.rules.errors import BadRuleset, BadSetup, IllegalEvent
from games.rules.matches import ScoredMatchState
from games.rules.registry import formats, match_rules

MATCH: Any = match_rules("hearts-due")


def new_match(seats: int = 2, **house: Any) -> ScoredMatchState:
    state: ScoredMatchState = MATCH.initial_state(make_ruleset(MATCH.ruleset_type, house), seats)
    return state


def sheet(
    rolls: list[list[Any]], seats: int = 2, house: dict[str, Any] | None = None, **more: Any
) -> ScoredMatchState:
    state: ScoredMatchState = MATCH.apply(
        new_match(seats, **(house or {})), Move("game.scored", {"rolls": rolls, **more})
    )
    return state


def refused(
    rolls: Any, seats: int = 2, house: dict[str, Any] | None = None, **more: Any
) -> IllegalEvent:
    with pytest.raises(IllegalEvent) as refusal:
        sheet(rolls, seats, house, **more)
    return refusal.value


def scores(state: ScoredMatchState) -> list[int]:
    return list(state.entries[0].scores)


# Two players to 100: seat 0 reaches 105 in round 3; seat 1 still rolls (equal turns).
TO_100 = [[35, 35], [35, 35], [35, 10]]


# --- the format ---------------------------------------------------------------------------------


def test_the_format_is_registered_with_the_games_house_rules_and_sheet_validation() -> None:
    assert "hearts-due" in formats()
    assert (MATCH.min_seats, MATCH.max_seats) == (2, 20)
    assert new_match().ruleset == MatchRuleset(3, 100, True, "strict")
    with pytest.raises(BadSetup) as bad_seats:
        new_match(1)
    assert bad_seats.value.code == "match.bad_seats"
    for house in ({"hearts_due_target": 0}, {"sheet_entry_validation": "loose"}):
        with pytest.raises(BadRuleset) as bad:
            new_match(**house)
        assert bad.value.code == "ruleset.bad_value"


def test_a_match_is_one_game_with_no_roles_to_set() -> None:
    state = new_match()
    assert MATCH.next_game_number(state) == 1
    assert MATCH.next_game_setup(state) == {}
    assert MATCH.closing_event(state) is None
    done = sheet(TO_100)
    assert MATCH.is_complete(done) and MATCH.next_game_number(done) is None
    with pytest.raises(IllegalEvent) as over:
        MATCH.apply(done, Move("game.scored", {"rolls": TO_100}))
    assert over.value.code == "match.over"


# --- the sheet ----------------------------------------------------------------------------------


def test_a_sheet_derives_the_totals_and_completes_the_round_for_equal_turns() -> None:
    state = sheet(TO_100)
    assert scores(state) == [105, 80]
    assert state.entries[0].winners == (0,)
    assert MATCH.games(state) == [
        {"number": 1, "game": None, "scores": [105, 80], "cumulative": [105, 80], "winners": [0]}
    ]


def test_equal_turns_need_the_last_roll_of_the_round() -> None:
    refusal = refused([[35, 35], [35, 35], [35, None]])
    assert refusal.code == "sheet.turn_missing"
    assert refusal.data == {"seat": 1, "round": 3}
    assert "Seat 1" in refusal.message and "round 3" in refusal.message


def test_without_equal_turns_the_game_ends_at_the_target() -> None:
    house = {"hearts_due_equal_turns": False}
    state = sheet([[35, 35], [35, 35], [35, None]], house=house)
    assert scores(state) == [105, 70]
    assert state.entries[0].winners == (0,)
    refusal = refused(TO_100, house=house)
    assert refusal.code == "sheet.turn_not_due"
    assert refusal.data == {"seat": 1, "round": 3}
    assert "won by seat 0" in refusal.message


def test_a_reset_wipes_out_the_whole_total() -> None:
    state = sheet([[35, 35], [35, "reset"], [35, 35]])
    assert scores(state) == [105, 35]
    assert refused([[35, 35], [35, "Reset"], [35, 35]]).code == "event.bad_data"


def test_the_target_is_the_house_rules() -> None:
    state = sheet([[10, 15], [20, "reset"]], house={"hearts_due_target": 30})
    assert scores(state) == [30, 0]
    refusal = refused([[10, 15], [20, "reset"]])
    assert refusal.code == "sheet.game_unfinished"
    assert refusal.data == {"totals": [30, 0]}


def test_a_tie_plays_extra_rounds_among_the_tied_only() -> None:
    house = {"hearts_due_target": 30}
    rolls: list[list[Any]] = [[15, 15, 0], [15, 15, 5], [5, 0, None]]
    state = sheet(rolls, seats=3, house=house)
    assert scores(state) == [35, 30, 5]
    assert state.entries[0].winners == (0,)
    # The player out of the tie has no roll in the extra round.
    refusal = refused([[15, 15, 0], [15, 15, 5], [5, 0, 5]], seats=3, house=house)
    assert refusal.code == "sheet.turn_not_due"
    assert refusal.data == {"seat": 2, "round": 3}
    # A tie still unbroken when the sheet ends leaves the game undecided.
    unbroken = refused([[15, 15, 0], [15, 15, 5], [5, 5, None]], seats=3, house=house)
    assert unbroken.code == "sheet.game_unfinished"


def test_the_rows_after_the_end_must_be_empty() -> None:
    assert scores(sheet([*TO_100, [None, None]])) == [105, 80]
    refusal = refused([*TO_100, [5, None]])
    assert refusal.code == "sheet.turn_not_due"
    assert refusal.data == {"seat": 0, "round": 4}


@pytest.mark.parametrize("value", [0, 5, 10, 15, 20, 25, 35])
def test_every_roll_score_of_the_table_is_accepted(value: int) -> None:
    # Seat 0 reaches a target of 1; seat 1 completes the round (and 35 all plays one more).
    rolls = [[35, value], [5, 0]] if value == 35 else [[35, value]]
    state = sheet(rolls, house={"hearts_due_target": 1})
    assert scores(state) == ([40, 35] if value == 35 else [35, value])
    assert state.entries[0].winners == (0,)


def test_a_zero_roll_does_not_reach_a_target_of_one() -> None:
    state = sheet([[0, 5]], house={"hearts_due_target": 1, "hearts_due_equal_turns": False})
    assert scores(state) == [0, 5]
    assert state.entries[0].winners == (1,)


@pytest.mark.parametrize("value", [30, 7, -5, 40, 1])
def test_strict_refuses_an_impossible_roll_naming_seat_round_and_value(value: int) -> None:
    refusal = refused([[35, 35], [35, value], [35, 35]])
    assert refusal.code == "score.unattainable"
    assert refusal.data == {"score": value, "seat": 1, "round": 2}
    assert f"scores {value}" in refusal.message and "seat 1, round 2" in refusal.message


def test_lenient_accepts_an_impossible_roll_with_a_warning() -> None:
    state = sheet([[35, 35], [35, 30], [35, 42]], house={"sheet_entry_validation": "lenient"})
    assert scores(state) == [105, 107]
    assert state.entries[0].winners == (1,)
    warnings = MATCH.warnings(state)
    assert [(w["game"], w["code"]) for w in warnings] == [(1, "score.unattainable")] * 2
    assert "scores 30 (seat 1, round 2)" in warnings[0]["message"]
    assert "scores 42 (seat 1, round 3)" in warnings[1]["message"]


def test_cumulative_figures_must_be_the_derived_ones() -> None:
    good = [[35, 35], [70, 70], [105, None]]
    assert scores(sheet(TO_100, cumulative=good)) == [105, 80]
    refusal = refused(TO_100, cumulative=[[35, 35], [70, 70], [105, 90]])
    assert refusal.code == "sheet.cumulative_mismatch"
    assert refusal.data == {"seat": 1, "round": 3, "cumulative": 80}
    after_reset = refused([[35, 35], [35, "reset"], [35, 35]], cumulative=[[35, 35], [70, 70], []])
    assert after_reset.code == "sheet.wrong_length"
    reset_row = refused(
        [[35, 35], [35, "reset"], [35, 35]], cumulative=[[35, 35], [70, 70], [105, 35]]
    )
    assert reset_row.data == {"seat": 1, "round": 2, "cumulative": 0}


def test_given_totals_must_be_the_derived_ones() -> None:
    assert scores(sheet(TO_100, scores=[105, 80])) == [105, 80]
    refusal = refused(TO_100, scores=[105, 90])
    assert refusal.code == "sheet.total_mismatch"
    assert refusal.data == {"totals": [105, 80], "game": 1}


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"rolls": []},
        {"rolls": "35 35"},
        {"rolls": [35, 35]},
        {"rolls": [[35, True]]},
        {"rolls": [[35, 2.5]]},
        {"rolls": [[35, "35"]]},
        {"rolls": [[35, {}]]},
        {"rolls": TO_100, "cumulative": "x"},
        {"rolls": TO_100, "cumulative": [[35, 35], [70, 70], [105, "80"]]},
        {"rolls": TO_100, "scores": [105, None]},
        {"rolls": TO_100, "scores": {"0": 105}},
        {"rolls": TO_100, "frames": []},
    ],
)
def test_malformed_sheets_are_bad_data(data: dict[str, Any]) -> None:
    with pytest.raises(IllegalEvent) as refusal:
        MATCH.apply(new_match(), Move("game.scored", data))
    assert refusal.value.code == "event.bad_data"


@pytest.mark.parametrize(
    "data, field",
    [
        ({"rolls": [[35]]}, "rolls"),
        ({"rolls": [[35, 35, 35]]}, "rolls"),
        ({"rolls": TO_100, "cumulative": [[35, 35]]}, "cumulative"),
        ({"rolls": TO_100, "cumulative": [[35, 35], [70, 70], []]}, "cumulative"),
        ({"rolls": TO_100, "scores": [105]}, "scores"),
    ],
)
def test_rows_of_the_wrong_length_are_sheet_wrong_length(data: dict[str, Any], field: str) -> None:
    with pytest.raises(IllegalEvent) as refusal:
        MATCH.apply(new_match(), Move("game.scored", data))
    assert (refusal.value.code, refusal.value.data["field"]) == ("sheet.wrong_length", field)


# --- a live game, standing and settlement -------------------------------------------------------


def play_live(
    seats: int, rng: random.Random, rolls: list[Any] | None = None, **house: Any
) -> State:
    """A live game to its end; ``rolls`` collects every roll (the state keeps the latest only)."""
    game = HEARTS_DUE.initial_state({}, make_ruleset(MATCH.ruleset_type, house), seats)
    while not HEARTS_DUE.is_terminal(game):
        faces = [str(rng.randint(1, 6)) for _ in range(6)]
        game = HEARTS_DUE.apply(game, Move("dice.thrown", {"faces": faces}))
        if rolls is not None:
            rolls.append(game.rolls[-1])
    return game


def finished(game: State) -> Move:
    result = HEARTS_DUE.result(game)
    assert result is not None
    return Move(
        "game.finished",
        {
            "game": str(uuid.uuid4()),
            "scores": [s.total for s in result.scores],
            "winners": list(result.winners),
            "report": {},
        },
    )


def test_a_live_game_reports_its_totals_and_the_match_settles_with_no_payment() -> None:
    game = play_live(3, random.Random(7), hearts_due_target=50)
    state = MATCH.apply(new_match(3, hearts_due_target=50), finished(game))
    assert scores(state) == list(game.totals)
    assert state.entries[0].winners == game.winners
    standing = MATCH.standing(state)
    assert [row["total"] for row in standing] == sorted(game.totals, reverse=True)
    assert standing[0]["seat"] == game.winners[0] and standing[0]["rank"] == 1
    assert [row["games_won"] for row in standing] == [1, 0, 0]
    closing = MATCH.closing_event(state)
    assert closing == ("match.settled", {"payments": [], "nets": [0, 0, 0]})
    settled = MATCH.apply(state, Move(*closing))
    assert MATCH.is_settled(settled) and MATCH.closing_event(settled) is None
    with pytest.raises(IllegalEvent) as wrong:
        MATCH.apply(state, Move("match.settled", {"payments": [], "nets": [1, -1, 0]}))
    assert wrong.value.code == "match.settlement_mismatch"


def test_the_standing_shares_a_rank_on_equal_totals() -> None:
    state = sheet([[35, 20, 20], [35, 20, 20], [35, 20, 20]], seats=3)
    standing = MATCH.standing(state)
    assert [(r["seat"], r["total"], r["rank"], r["games_won"]) for r in standing] == [
        (0, 105, 1, 1),
        (1, 60, 2, 0),
        (2, 60, 2, 0),
    ]
    empty = MATCH.standing(new_match(3))
    assert [(r["total"], r["rank"], r["games_won"]) for r in empty] == [(0, 1, 0)] * 3


def as_sheet(seats: int, rolls: list[Any]) -> list[list[Any]]:
    """The live game's rolls written as a sheet: one row per round, "reset" for three H's."""
    rows: list[list[Any]] = []
    last = seats
    for roll in rolls:
        if roll.seat <= last:
            rows.append([None] * seats)
        rows[-1][roll.seat] = "reset" if roll.reset else roll.points
        last = roll.seat
    return rows


@pytest.mark.parametrize("seed", range(12))
def test_a_live_game_written_as_a_sheet_gives_the_same_result(seed: int) -> None:
    rng = random.Random(seed)
    seats = rng.randint(2, 4)
    house = {
        "hearts_due_target": rng.choice([20, 50, 100]),
        "hearts_due_equal_turns": rng.random() < 0.7,
        "hearts_due_reset_ones": rng.choice([3, "exactly_3"]),
    }
    rolls: list[Any] = []
    game = play_live(seats, rng, rolls, **house)
    state = sheet(as_sheet(seats, rolls), seats, house, scores=list(game.totals))
    assert scores(state) == list(game.totals)
    assert state.entries[0].winners == game.winners


def test_the_replay_matches_the_engine_fold_for_a_known_game() -> None:
    rolls = ["1 2 3 4 5 6", "1 2 3 4 5 6", "1 1 1 2 3 4", "1 2 4 5 6 6"]
    moves = [Move("dice.thrown", {"faces": faces.split()}) for faces in rolls]
    start = HEARTS_DUE.initial_state({}, None, 2)
    game = fold(HEARTS_DUE, start, moves)
    each = [fold(HEARTS_DUE, start, moves[: n + 1]).rolls[-1] for n in range(len(moves))]
    assert as_sheet(2, each) == [[35, 35], ["reset", 10]]
    assert game.totals == (0, 45)
