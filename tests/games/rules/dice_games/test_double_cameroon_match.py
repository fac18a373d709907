"""The Double Cameroon match: one game, no settlement (RULES.md 0.8), shared wins (12.4), and its
finished sheet: ten boxes per seat (12.3, D-DC-2) checked against Appendix C.5."""

from __future__ import annotations

import random
import uuid
from collections import Counter
from typing import Any

import pytest

from games.rules.base import Move, make_ruleset
from games.rules.dice_games.double_cameroon import DOUBLE_CAMEROON, KEEP, THROW_1, THROW_N, State
from games.rules.dice_games.double_cameroon_match import MatchRuleset, attainable
from games.rules.dice_games.double_cameroon_scoring import CATEGORIES, unused_categories
from games.rules.errors import BadRuleset, BadSetup, IllegalEvent
from games.rules.matches import ScoredMatchState
from games.rules.registry import formats, match_rules

MATCH: Any = match_rules("double-cameroon")
FACES = {"aces": 1, "twos": 2, "threes": 3, "fours": 4, "fives": 5, "sixes": 6}

# Seat 0: 50 + 30 + 21 + 28 (6 6 6 5 5) + 18 + 10 + 8 + 6 + 4 + 3 = 178.
BEST = {
    "five_of_a_kind": 50,
    "large_cameroon": 30,
    "little_cameroon": 21,
    "full_house": 28,
    "sixes": 18,
    "fives": 10,
    "fours": 8,
    "threes": 6,
    "twos": 4,
    "aces": 3,
}
# Seat 1: no five of a kind or cameroons; 0 there (D-DC-2). 7 + 24 + 15 + 4 + 9 + 2 + 1 = 62.
POOR = {
    "five_of_a_kind": 0,
    "large_cameroon": 0,
    "little_cameroon": 0,
    "full_house": 7,
    "sixes": 24,
    "fives": 15,
    "fours": 4,
    "threes": 9,
    "twos": 2,
    "aces": 1,
}


def new_match(seats: int = 2, **house: Any) -> ScoredMatchState:
    state: ScoredMatchState = MATCH.initial_state(make_ruleset(MATCH.ruleset_type, house), seats)
    return state


def sheet(boxes: Any, house: dict[str, Any] | None = None, **more: Any) -> ScoredMatchState:
    state: ScoredMatchState = MATCH.apply(
        new_match(len(boxes), **(house or {})), Move("game.scored", {"boxes": boxes, **more})
    )
    return state


def refused(boxes: Any, house: dict[str, Any] | None = None, **more: Any) -> IllegalEvent:
    with pytest.raises(IllegalEvent) as refusal:
        sheet(boxes, house, **more)
    return refusal.value


def scores(state: ScoredMatchState) -> list[int]:
    return list(state.entries[0].scores)


# --- Appendix C.5 -------------------------------------------------------------------------------


def test_the_attainable_boxes_are_appendix_c5s() -> None:
    full_house = {0} | {3 * x + 2 * y for x in range(1, 7) for y in range(1, 7) if x != y}
    assert attainable("five_of_a_kind", False) == {0, 50}
    assert attainable("large_cameroon", False) == {0, 30}
    assert attainable("little_cameroon", False) == {0, 21}
    assert attainable("full_house", False) == full_house
    for category, face in FACES.items():
        assert attainable(category, False) == {k * face for k in range(6)}
        assert attainable(category, True) == attainable(category, False)


def test_five_of_a_kind_counts_as_a_full_house_only_by_house_rule() -> None:
    five_alike = {5 * face for face in range(1, 7)}
    full_house = attainable("full_house", False)
    assert attainable("full_house", True) == full_house | five_alike
    # 5, 10, 25 and 30 are only five alike: 15 and 20 are also 3x + 2y (3 + 12, 18 + 2).
    assert sorted(five_alike - full_house) == [5, 10, 25, 30]


# --- the format ---------------------------------------------------------------------------------


def test_the_format_is_registered_with_the_games_house_rules_and_sheet_validation() -> None:
    assert "double-cameroon" in formats()
    assert (MATCH.min_seats, MATCH.max_seats) == (1, 20)
    assert new_match().ruleset == MatchRuleset(False, False, "strict")
    with pytest.raises(BadSetup) as bad_seats:
        new_match(21)
    assert bad_seats.value.code == "match.bad_seats"
    with pytest.raises(BadRuleset) as bad:
        new_match(sheet_entry_validation="loose")
    assert bad.value.code == "ruleset.bad_value"


def test_a_match_is_one_game_with_no_roles_to_set() -> None:
    state = new_match()
    assert MATCH.next_game_number(state) == 1
    assert MATCH.next_game_setup(state) == {}
    assert MATCH.closing_event(state) is None
    done = sheet([BEST, POOR])
    assert MATCH.is_complete(done) and MATCH.next_game_number(done) is None
    with pytest.raises(IllegalEvent) as over:
        MATCH.apply(done, Move("game.scored", {"boxes": [BEST, POOR]}))
    assert over.value.code == "match.over"


# --- the sheet ----------------------------------------------------------------------------------


def test_a_sheet_derives_the_totals_and_the_winner() -> None:
    state = sheet([BEST, POOR])
    assert scores(state) == [178, 62]
    assert state.entries[0].winners == (0,)
    assert MATCH.games(state) == [
        {"number": 1, "game": None, "scores": [178, 62], "cumulative": [178, 62], "winners": [0]}
    ]


def test_one_player_may_keep_a_sheet() -> None:
    state = sheet([POOR])
    assert scores(state) == [62] and state.entries[0].winners == (0,)


def test_equal_highest_totals_share_the_win() -> None:
    state = sheet([POOR, BEST, dict(POOR)])
    assert state.entries[0].winners == (1,)
    tie = sheet([POOR, dict(POOR), {**POOR, "aces": 0}])
    assert scores(tie) == [62, 62, 61]
    assert tie.entries[0].winners == (0, 1)
    standing = MATCH.standing(tie)
    assert [(r["seat"], r["total"], r["rank"], r["games_won"]) for r in standing] == [
        (0, 62, 1, 1),
        (1, 62, 1, 1),
        (2, 61, 3, 0),
    ]


def test_every_category_is_on_the_sheet_exactly_once() -> None:
    lacking = {k: v for k, v in POOR.items() if k not in ("aces", "full_house")}
    refusal = refused([BEST, lacking])
    assert refusal.code == "sheet.category_missing"
    assert refusal.data == {"seat": 1, "categories": ["full_house", "aces"]}
    assert "Seat 1" in refusal.message and "full_house, aces" in refusal.message
    unknown = refused([{**BEST, "chance": 20}, POOR])
    assert unknown.code == "group.unknown_category"
    assert unknown.data == {"seat": 0, "category": "chance"}


@pytest.mark.parametrize(
    ("category", "value"),
    [
        ("five_of_a_kind", 25),
        ("large_cameroon", 20),
        ("little_cameroon", 15),
        ("full_house", 10),
        ("full_house", 29),
        ("sixes", 36),
        ("fives", 7),
        ("aces", 6),
        ("twos", -2),
    ],
)
def test_strict_refuses_an_impossible_box_naming_seat_category_and_value(
    category: str, value: int
) -> None:
    refusal = refused([BEST, {**POOR, category: value}])
    assert refusal.code == "score.unattainable"
    assert refusal.data == {"score": value, "seat": 1, "category": category}
    assert f"score {value} in {category} (seat 1)" in refusal.message


def test_the_house_rule_admits_five_alike_as_a_full_house() -> None:
    boxes = [BEST, {**POOR, "full_house": 30}]
    assert refused(boxes).code == "score.unattainable"
    state = sheet(boxes, house={"cameroon_five_counts_as_full_house": True})
    assert scores(state) == [178, 85]


def test_lenient_accepts_impossible_boxes_with_a_warning_each() -> None:
    boxes = [{**BEST, "sixes": 31, "little_cameroon": 22}, POOR]
    state = sheet(boxes, house={"sheet_entry_validation": "lenient"})
    assert scores(state) == [178 + 13 + 1, 62]
    warnings = MATCH.warnings(state)
    assert [(w["game"], w["code"]) for w in warnings] == [(1, "score.unattainable")] * 2
    assert "22 in little_cameroon (seat 0)" in warnings[0]["message"]
    assert "31 in sixes (seat 0)" in warnings[1]["message"]


def test_given_cumulative_figures_and_totals_must_be_the_derived_ones() -> None:
    assert scores(sheet([BEST, POOR], cumulative=[178, 62], scores=[178, 62])) == [178, 62]
    cumulative = refused([BEST, POOR], cumulative=[178, 63])
    assert cumulative.code == "sheet.cumulative_mismatch"
    assert cumulative.data == {"cumulative": [178, 62], "game": 1}
    totals = refused([BEST, POOR], scores=[180, 62])
    assert totals.code == "sheet.total_mismatch"
    assert totals.data == {"totals": [178, 62], "game": 1}
    assert "[178, 62]" in totals.message


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"boxes": "BEST"},
        {"boxes": [BEST, [0] * 10]},
        {"boxes": [BEST, {**POOR, "aces": True}]},
        {"boxes": [BEST, {**POOR, "aces": 1.0}]},
        {"boxes": [BEST, {**POOR, "aces": "1"}]},
        {"boxes": [BEST, {**POOR, "aces": None}]},
        {"boxes": [BEST, POOR], "turns": []},
    ],
)
def test_malformed_sheets_are_bad_data(data: dict[str, Any]) -> None:
    with pytest.raises(IllegalEvent) as refusal:
        MATCH.apply(new_match(), Move("game.scored", data))
    assert refusal.value.code == "event.bad_data"


@pytest.mark.parametrize("boxes", [[], [BEST], [BEST, POOR, POOR]])
def test_boxes_not_one_sheet_per_seat_are_sheet_wrong_length(boxes: list[Any]) -> None:
    with pytest.raises(IllegalEvent) as refusal:
        MATCH.apply(new_match(), Move("game.scored", {"boxes": boxes}))
    assert refusal.value.code == "sheet.wrong_length"
    assert refusal.value.data == {"field": "boxes", "count": len(boxes), "expected": 2}


# --- a live game, standing and settlement -------------------------------------------------------


def play_live(seats: int, rng: random.Random, **house: Any) -> State:
    """Random legal play: throw, keep some more dice or group, two random open categories."""
    game = DOUBLE_CAMEROON.initial_state({}, make_ruleset(MATCH.ruleset_type, house), seats)
    while not DOUBLE_CAMEROON.is_terminal(game):
        game = DOUBLE_CAMEROON.apply(game, random_move(game, rng))
    return game


def random_move(game: State, rng: random.Random) -> Move:
    if game.phase in (THROW_1, THROW_N):
        faces = [str(rng.randint(1, 6)) for _ in range(10 - len(game.kept))]
        return Move("dice.thrown", {"faces": faces})
    if game.phase == KEEP and rng.random() < 0.6:
        rest = Counter(game.showing) - Counter(game.kept)
        more = [die for die in rest.elements() if rng.random() < 0.4]
        return Move("dice.kept", {"faces": [*game.kept, *more]})
    dice = list(game.showing)
    rng.shuffle(dice)
    first, second = rng.sample(unused_categories(game.sheets[game.seat]), 2)
    groups = [{"category": first, "dice": dice[:5]}, {"category": second, "dice": dice[5:]}]
    return Move("dice.grouped", {"groups": groups})


def finished(game: State) -> Move:
    result = DOUBLE_CAMEROON.result(game)
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
    game = play_live(3, random.Random(3))
    totals = [s.total for s in DOUBLE_CAMEROON.scores(game)]
    state = MATCH.apply(new_match(3), finished(game))
    assert scores(state) == totals
    assert state.entries[0].winners == tuple(
        seat for seat, total in enumerate(totals) if total == max(totals)
    )
    standing = MATCH.standing(state)
    assert [row["total"] for row in standing] == sorted(totals, reverse=True)
    assert standing[0]["rank"] == 1 and standing[0]["games_won"] == 1
    closing = MATCH.closing_event(state)
    assert closing == ("match.settled", {"payments": [], "nets": [0, 0, 0]})
    settled = MATCH.apply(state, Move(*closing))
    assert MATCH.is_settled(settled) and MATCH.closing_event(settled) is None


def as_sheet(game: State) -> list[dict[str, int]]:
    return [{box.category: box.points for box in seat_sheet} for seat_sheet in game.sheets]


@pytest.mark.parametrize("seed", range(8))
def test_a_live_game_written_as_a_sheet_gives_the_same_result(seed: int) -> None:
    rng = random.Random(seed)
    house = {
        "cameroon_five_counts_as_full_house": rng.random() < 0.5,
        "cameroon_kept_dice_locked": rng.random() < 0.5,
    }
    game = play_live(rng.randint(1, 3), rng, **house)
    boxes = as_sheet(game)
    assert all(sorted(seat_sheet) == sorted(CATEGORIES) for seat_sheet in boxes)
    result = DOUBLE_CAMEROON.result(game)
    assert result is not None
    state = sheet(boxes, house, scores=[s.total for s in result.scores])
    assert state.entries[0].scores == tuple(s.total for s in result.scores)
    assert state.entries[0].winners == result.winners
