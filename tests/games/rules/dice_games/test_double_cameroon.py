"""The Double Cameroon rule engine: RULES.md 12 (turns, keeping, grouping, the ten categories)."""

from itertools import combinations_with_replacement
from typing import Any

import pytest

from games.rules import registry
from games.rules.base import Move, Rules, fold, make_ruleset
from games.rules.dice_games.double_cameroon import DOUBLE_CAMEROON, Ruleset, State, groupings
from games.rules.dice_games.double_cameroon_scoring import CATEGORIES, category_points
from games.rules.errors import BadRuleset, BadSetup, IllegalEvent

GAME = DOUBLE_CAMEROON
LOCKED = Ruleset(cameroon_kept_dice_locked=True)


def throw(faces: str) -> Move:
    return Move("dice.thrown", {"faces": faces.split()})


def keep(faces: str) -> Move:
    return Move("dice.kept", {"faces": faces.split()})


def group(first: str, dice1: str, second: str, dice2: str) -> Move:
    groups = [
        {"category": first, "dice": dice1.split()},
        {"category": second, "dice": dice2.split()},
    ]
    return Move("dice.grouped", {"groups": groups})


def new_game(seats: int = 1, ruleset: Ruleset | None = None) -> State:
    return GAME.initial_state({}, ruleset, seats)


def played(moves: list[Move], seats: int = 1, ruleset: Ruleset | None = None) -> State:
    return fold(GAME, new_game(seats, ruleset), moves)


def refusal(state: State, move: Move) -> IllegalEvent:
    with pytest.raises(IllegalEvent) as refused:
        GAME.apply(state, move)
    return refused.value


FIRST_THROW = "6 6 6 2 1 3 4 5 2 2"
# A turn of one throw kept whole: large Cameroon 2 3 4 5 6 and sixes 6 6 1 2 2.
QUICK_TURN = [
    throw(FIRST_THROW),
    group("large_cameroon", "2 3 4 5 6", "sixes", "6 6 1 2 2"),
]


# --- the engine ---------------------------------------------------------------------------------


def test_double_cameroon_is_registered_and_follows_the_rules_protocol() -> None:
    assert registry.get("double-cameroon") is GAME
    assert isinstance(GAME, Rules)
    assert GAME.min_seats == 1


def test_the_default_ruleset_keeps_dice_free_and_five_of_a_kind_no_full_house() -> None:
    assert make_ruleset(Ruleset, {}) == Ruleset(False, False)
    with pytest.raises(BadRuleset):
        make_ruleset(Ruleset, {"cameroon_kept_dice_locked": 1})


def test_a_setup_or_no_seat_is_refused() -> None:
    with pytest.raises(BadSetup):
        GAME.initial_state({"position": {}}, None, 1)
    with pytest.raises(BadSetup) as refused:
        new_game(0)
    assert refused.value.code == "game.bad_seats"


# --- the ten categories (RULES.md 12.3, D-DC-2, D-DC-3, D-DC-5) ----------------------------------


@pytest.mark.parametrize(
    ("category", "dice", "points"),
    [
        ("five_of_a_kind", "4 4 4 4 4", 50),
        ("five_of_a_kind", "4 4 4 4 3", 0),
        ("large_cameroon", "6 2 5 3 4", 30),
        ("large_cameroon", "1 2 3 4 5", 0),
        ("little_cameroon", "5 4 3 2 1", 21),
        ("little_cameroon", "2 3 4 5 6", 0),
        ("full_house", "3 3 3 5 5", 19),  # D-DC-5: the sum of all five dice
        ("full_house", "6 6 1 1 1", 15),
        ("full_house", "6 6 6 6 1", 0),
        ("full_house", "2 2 2 2 2", 0),  # D-DC-3: five of a kind is no full house
        ("sixes", "6 6 6 2 1", 18),  # the book's example
        ("fives", "5 1 5 2 3", 10),
        ("fours", "4 4 4 4 4", 20),
        ("threes", "1 2 4 5 6", 0),  # D-DC-2: none of the number scores 0
        ("twos", "2 2 1 1 1", 4),
        ("aces", "1 1 1 1 6", 4),
    ],
)
def test_each_category_scores_as_the_table_says(category: str, dice: str, points: int) -> None:
    assert category_points(category, dice.split()) == points


def test_five_of_a_kind_counts_as_a_full_house_under_the_house_rule() -> None:
    ruleset = Ruleset(cameroon_five_counts_as_full_house=True)
    assert category_points("full_house", "2 2 2 2 2".split(), ruleset) == 10
    assert category_points("full_house", "3 3 3 5 5".split(), ruleset) == 19


def test_each_category_scores_exactly_the_values_appendix_c_allows() -> None:
    every_five = list(combinations_with_replacement("123456", 5))
    values = {c: {category_points(c, five) for five in every_five} for c in CATEGORIES}
    assert values["five_of_a_kind"] == {0, 50}
    assert values["large_cameroon"] == {0, 30}
    assert values["little_cameroon"] == {0, 21}
    full_houses = {3 * x + 2 * y for x in range(1, 7) for y in range(1, 7) if x != y}
    assert values["full_house"] == {0} | full_houses
    for face, category in enumerate(["aces", "twos", "threes", "fours", "fives", "sixes"], 1):
        assert values[category] == {n * face for n in range(6)}


def test_there_are_ten_categories_so_five_turns_each() -> None:
    assert len(CATEGORIES) == 10 and len(set(CATEGORIES)) == 10


# --- a turn (RULES.md 12.2) ----------------------------------------------------------------------


def test_a_turn_of_three_throws_keeps_dice_then_groups_and_scores_both_boxes() -> None:
    state = new_game()
    assert GAME.expected(state) == ["dice.thrown"]
    assert GAME.view(state)["dice"]["in_cup"] == 10
    state = GAME.apply(state, throw(FIRST_THROW))
    assert GAME.expected(state) == ["dice.kept", "dice.grouped"]
    state = GAME.apply(state, keep("6 6 6"))
    dice = GAME.view(state)["dice"]
    assert (dice["in_cup"], dice["next_throw"], dice["kept"]) == (7, 2, ["6", "6", "6"])
    state = GAME.apply(state, throw("6 6 1 1 2 3 4"))
    state = GAME.apply(state, keep("6 6 6 6 6"))
    state = GAME.apply(state, throw("5 5 5 5 1"))
    assert GAME.expected(state) == ["dice.grouped"]
    assert GAME.view(state)["dice"]["showing"] == "1 5 5 5 5 6 6 6 6 6".split()
    state = GAME.apply(state, group("five_of_a_kind", "6 6 6 6 6", "fives", "5 5 5 5 1"))
    assert GAME.scores(state)[0].points == 70
    sheet = GAME.view(state)["sheets"][0]
    assert sheet["boxes"]["five_of_a_kind"] == {
        "category": "five_of_a_kind",
        "dice": ["6", "6", "6", "6", "6"],
        "points": 50,
    }
    assert sheet["boxes"]["fives"]["points"] == 20 and sheet["total"] == 70
    turn = GAME.view(state)["dice"]["turns"][0]
    assert turn["points"] == 70 and len(turn["throws"]) == 3 and len(turn["kept"]) == 2
    assert GAME.expected(state) == ["dice.thrown"]


def test_keeping_all_ten_ends_the_throwing() -> None:
    state = played([throw(FIRST_THROW), keep(FIRST_THROW)])
    assert GAME.expected(state) == ["dice.grouped"]
    assert refusal(state, throw("1")).code == "throw.too_many"


def test_grouping_straight_after_a_throw_keeps_all_ten() -> None:
    state = played(QUICK_TURN)
    assert GAME.scores(state)[0].points == 30 + 12


def test_keeping_none_throws_all_ten_again_and_dice_kept_before_may_be_thrown_again() -> None:
    state = played([throw(FIRST_THROW), keep("6 6 6"), throw("1 1 1 1 1 1 1")])
    # D-DC-1: the sixes kept before throw 2 may go back in the cup for throw 3
    state = GAME.apply(state, keep("1 1 1 1 1"))
    assert GAME.view(state)["dice"]["in_cup"] == 5
    state = played([throw(FIRST_THROW), keep("")])
    assert GAME.view(state)["dice"]["in_cup"] == 10
    assert refusal(state, throw("1 2 3")).code == "throw.wrong_dice_count"


def test_with_locked_dice_a_kept_die_stays_kept() -> None:
    state = played([throw(FIRST_THROW), keep("6 6 6"), throw("6 1 1 1 1 1 1")], ruleset=LOCKED)
    assert GAME.view(state)["dice"]["locked"] == ["6", "6", "6"]
    error = refusal(state, keep("1 1 1 1 1 1"))
    assert error.code == "keep.dropped_locked_die" and "6 6 6" in error.message
    state = GAME.apply(state, keep("6 6 6 6"))
    assert GAME.view(state)["dice"]["in_cup"] == 6


def test_a_turn_passes_clockwise_and_the_game_ends_after_five_turns_each() -> None:
    turns = [
        ("five_of_a_kind", "large_cameroon"),
        ("little_cameroon", "full_house"),
        ("sixes", "fives"),
        ("fours", "threes"),
        ("twos", "aces"),
    ]
    moves: list[Move] = []
    for first, second in turns:
        for _seat in range(2):
            moves += [throw(FIRST_THROW), group(first, "6 6 6 2 1", second, "2 2 3 4 5")]
    state = played(moves[:-1], seats=2)
    assert GAME.current_player(state) == 1
    assert GAME.view(state)["dice"]["open_categories"] == ["twos", "aces"]
    state = GAME.apply(state, moves[-1])
    assert GAME.is_terminal(state)
    assert GAME.expected(state) == [] and GAME.legal_events(state) == []
    # 0 + 0, 0 + 0, 18 + 5, 0 + 3, 2 + 0 for each: a shared win (D-DC-4)
    result = GAME.result(state)
    assert result is not None
    assert [s.total for s in result.scores] == [28, 28] and result.winners == (0, 1)
    assert refusal(state, throw(FIRST_THROW)).code == "game.over"


def test_the_higher_total_wins() -> None:
    second_turn = [throw(FIRST_THROW), group("aces", "6 6 6 2 1", "twos", "2 2 3 4 5")]
    state = played(QUICK_TURN + second_turn, 2)
    assert [s.points for s in GAME.scores(state)] == [42, 5]


# --- refusals ------------------------------------------------------------------------------------


def test_throw_refusals() -> None:
    state = new_game()
    assert refusal(state, throw("1 2 3")).code == "throw.wrong_dice_count"
    assert refusal(state, throw("1 2 3 4 5 6 7 1 2 3")).code == "throw.bad_face"
    assert refusal(state, keep("1")).code == "throw.required"
    assert refusal(state, group("aces", "1", "twos", "2")).code == "throw.required"
    state = played([throw(FIRST_THROW), keep("6")])
    assert refusal(state, keep("6")).code == "throw.required"
    assert refusal(state, throw("1 1 1 1 1 1 1 1")).code == "throw.wrong_dice_count"


def test_a_throw_needs_the_keep_recorded_first() -> None:
    state = played([throw(FIRST_THROW)])
    assert refusal(state, throw(FIRST_THROW)).code == "keep.required"


def test_only_dice_showing_can_be_kept() -> None:
    error = refusal(played([throw(FIRST_THROW)]), keep("6 6 6 6"))
    assert error.code == "keep.not_showing" and "6 6 6 6" in error.message


def test_no_fourth_throw_and_no_keep_after_the_third() -> None:
    state = played([throw(FIRST_THROW), keep(""), throw(FIRST_THROW), keep(""), throw(FIRST_THROW)])
    assert refusal(state, throw(FIRST_THROW)).code == "throw.too_many"
    assert refusal(state, keep("6")).code == "keep.no_throw_left"


def test_grouping_refusals() -> None:
    state = played([throw(FIRST_THROW)])
    wrong = group("large_cameroon", "2 3 4 5 6", "sixes", "6 6 1 2 3")
    assert refusal(state, wrong).code == "group.wrong_dice"
    uneven = group("large_cameroon", "2 3 4 5", "sixes", "6 6 6 1 2 2")
    assert refusal(state, uneven).code == "group.wrong_dice"
    same = group("sixes", "2 3 4 5 6", "sixes", "6 6 1 2 2")
    assert refusal(state, same).code == "group.same_category"
    unknown = group("yacht", "2 3 4 5 6", "sixes", "6 6 1 2 2")
    assert refusal(state, unknown).code == "group.unknown_category"
    state = played(QUICK_TURN + [throw(FIRST_THROW)])
    used = group("aces", "2 3 4 5 6", "sixes", "6 6 1 2 2")
    error = refusal(state, used)
    assert error.code == "group.category_used" and "sixes" in error.message


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"groups": []},
        {"groups": "aces"},
        {"groups": [1, 2]},
        {"groups": [{"category": "aces", "dice": "11111"}, {"category": "twos", "dice": []}]},
        {"groups": [{"category": "aces", "dice": [1, 1]}, {"category": "twos", "dice": []}]},
        {"groups": [{"category": 3, "dice": []}, {"category": "twos", "dice": []}]},
    ],
)
def test_malformed_groupings_are_refused_not_crashed(data: Any) -> None:
    error = refusal(played([throw(FIRST_THROW)]), Move("dice.grouped", data))
    assert error.code in {"event.bad_data", "group.unknown_category"}


@pytest.mark.parametrize("data", [{}, {"faces": "666"}, {"faces": [6]}])
def test_malformed_keeps_are_refused(data: Any) -> None:
    assert refusal(played([throw(FIRST_THROW)]), Move("dice.kept", data)).code == "event.bad_data"


@pytest.mark.parametrize("faces", [["7"], ["1"] * 11, [*FIRST_THROW.split(), "1"]])
def test_a_keep_no_die_showing_gives_is_not_showing(faces: list[str]) -> None:
    # A face no die shows, or more dice than the ten, are judged against the dice showing (12.2).
    kept = Move("dice.kept", {"faces": faces})
    assert refusal(played([throw(FIRST_THROW)]), kept).code == "keep.not_showing"


def test_unknown_events_are_refused() -> None:
    assert refusal(new_game(), Move("shooter.stood", {})).code == "event.unknown_type"
    assert refusal(new_game(), Move("dice.thrown", [])).code == "event.bad_data"  # type: ignore[arg-type]


# --- listing groupings, undo ---------------------------------------------------------------------


def test_groupings_are_listed_only_when_few() -> None:
    assert GAME.legal_events(played([throw(FIRST_THROW)])) is None  # keeping: the table's
    moves: list[Move] = []
    pairs = [("aces", "twos"), ("threes", "fours"), ("fives", "sixes"), ("full_house", "fours")]
    pairs[-1] = ("full_house", "five_of_a_kind")
    for first, second in pairs:
        moves += [throw(FIRST_THROW), group(first, "6 6 6 2 1", second, "2 2 3 4 5")]
    tens = "1 1 1 1 1 2 2 2 2 2"
    state = played([*moves, throw(tens), keep(tens)])
    listed = GAME.legal_events(state)
    # three ways to split five aces and five twos into fives, each in two orders of categories
    assert listed is not None and len(listed) == 6
    assert {m.data["groups"][0]["category"] for m in listed} == {
        "large_cameroon",
        "little_cameroon",
    }
    for move in listed:
        GAME.apply(state, move)
    mixed = "1 2 3 4 5 6 1 2 3 4"
    assert len(groupings(tens.split(), CATEGORIES[:3])) == 18
    assert len(groupings(mixed.split(), CATEGORIES)) > 256
    assert GAME.legal_events(played([throw(mixed), keep(mixed)])) is None


def test_a_keep_and_a_grouping_can_be_taken_back() -> None:
    before = played([throw(FIRST_THROW)])
    after = fold(GAME, before, [keep("6 6"), Move("move.undone")])
    assert after == before
    after = fold(GAME, before, [QUICK_TURN[1], Move("move.undone")])
    assert after == before
