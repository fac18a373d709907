"""The High-Low Scarney rule engine: RULES.md 5.2-5.6 and 5.8, Appendix A.5.1 and C.3."""

import json
import random
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import registry
from games.rules.base import Move, Rules, fold, make_ruleset
from games.rules.errors import BadRuleset, BadSetup, IllegalEvent
from games.rules.scarney_board.board import EMPTY_BOARD, with_pawn
from games.rules.scarney_board.high_low import HIGH_LOW, Ruleset, State
from games.rules.scarney_board.placing import Sides

# Row r holds the r-spot pawns, columns are B R Y G: rows mix colours, columns are one colour.
LAYOUT = {
    (row - 1) * 4 + col + 1: f"{colour}{row}"
    for row in range(1, 5)
    for col, colour in enumerate("BRYG")
}
# Appendix A.5.1, the four-pawn trap: player A (seat 0) moves first.
TRAP_1 = {"C2": "R3", "C4": "R4", "C5": "G4", "C9": "G2"}


def new_game(**setup: Any) -> State:
    return HIGH_LOW.initial_state(setup, None, 2)


def play(state: State, *moves: Move) -> State:
    for move in moves:
        state = HIGH_LOW.apply(state, move)
    return state


def remove(*circles: int | str) -> Move:
    return Move("pawns.removed", {"circles": list(circles)})


def placements(colours: tuple[str, str]) -> list[Move]:
    mine = [(c, p) for c, p in sorted(LAYOUT.items()) if p[0] in colours]
    theirs = [(c, p) for c, p in sorted(LAYOUT.items()) if p[0] not in colours]
    order = [pair for both in zip(mine, theirs, strict=True) for pair in both]
    return [Move("pawn.placed", {"circle": c, "pawn": p}) for c, p in order]


def placed(**setup: Any) -> State:
    colours = Move("colours.chosen", {"colours": ["B", "R"]})
    return play(new_game(**setup), colours, *placements(("B", "R")))


def study(position: dict[str, str], **setup: Any) -> State:
    return new_game(position=position, **setup)


def refusal(state: State, move: Move) -> IllegalEvent:
    with pytest.raises(IllegalEvent) as refused:
        HIGH_LOW.apply(state, move)
    return refused.value


def totals(state: State) -> list[int]:
    return [score.total for score in HIGH_LOW.scores(state)]


def near_end(board: dict[int, str], piles: tuple[tuple[str, ...], ...], to_move: int) -> State:
    """A game two pawns from its end, the piles as given (16 pawns in all)."""
    cells = EMPTY_BOARD
    for circle, pawn in board.items():
        cells = with_pawn(cells, circle, pawn)
    assert len(board) + len(piles[0]) + len(piles[1]) == 16
    return State("play", Sides(0, 1), cells, (piles[0], piles[1]), to_move, 1 - to_move)


# --- the engine, its ruleset and its setup ------------------------------------------------------


def test_high_low_is_registered_for_exactly_two_players() -> None:
    assert registry.get("high-low-scarney") is HIGH_LOW
    assert isinstance(HIGH_LOW, Rules)
    assert (HIGH_LOW.min_seats, HIGH_LOW.max_seats) == (2, 2)
    with pytest.raises(BadSetup) as refused:
        HIGH_LOW.initial_state({}, None, 1)
    assert refused.value.code == "game.bad_seats"


def test_the_ruleset_has_only_the_sheet_check() -> None:
    assert make_ruleset(Ruleset, {}) == Ruleset("strict")
    assert make_ruleset(Ruleset, {"sheet_entry_validation": "lenient"}) == Ruleset("lenient")
    with pytest.raises(BadRuleset):
        make_ruleset(Ruleset, {"doubles_next_starter": "loser"})


@pytest.mark.parametrize(
    ("setup", "code"),
    [
        ({"starter": -1}, "setup.bad_seat"),
        ({"to_move": 1}, "setup.to_move_without_position"),
        ({"position": {"C1": "B3"}}, "setup.too_few_pawns"),
        ({"position": {}}, "setup.empty_position"),
        ({"position": TRAP_1, "to_move": "A"}, "setup.bad_seat"),
        ({"opponent": 1}, "setup.unknown_key"),
    ],
)
def test_a_bad_setup_is_refused(setup: dict[str, Any], code: str) -> None:
    with pytest.raises(BadSetup) as refused:
        new_game(**setup)
    assert refused.value.code == code


# --- colours, placing, and the starter moving first (5.3) ---------------------------------------


def test_the_starter_chooses_places_first_and_moves_first() -> None:
    state = new_game(starter=1)
    assert HIGH_LOW.current_player(state) == 1
    assert HIGH_LOW.expected(state) == ["colours.chosen"]
    state = play(state, Move("colours.chosen", {"colours": ["B", "R"]}))
    turns = []
    for move in placements(("B", "R")):
        turns.append(HIGH_LOW.current_player(state))
        state = HIGH_LOW.apply(state, move)
    assert turns == [1, 0] * 8
    assert state.phase == "play"
    assert HIGH_LOW.current_player(state) == 1
    assert HIGH_LOW.expected(state) == ["pawns.removed"]
    assert HIGH_LOW.view(state)["roles"] == {"starter": 1}


def test_removals_wait_for_the_colours_and_the_placing() -> None:
    assert refusal(new_game(), remove(1)).code == "colours.required"
    state = play(new_game(), Move("colours.chosen", {"colours": ["Y", "G"]}))
    assert refusal(state, remove(1)).code == "place.required"
    assert refusal(state, Move("pawn.placed", {"circle": 1, "pawn": "B1"})).code == (
        "place.not_your_pawn"
    )
    assert refusal(placed(), Move("pawn.placed", {"circle": 1, "pawn": "B1"})).code == (
        "place.all_placed"
    )


# --- removals (5.4) -----------------------------------------------------------------------------


def test_a_single_pawn_may_be_removed_anywhere_and_is_credited_to_the_remover() -> None:
    state = play(placed(), remove("C11"))
    assert HIGH_LOW.view(state)["board"]["C11"] is None
    assert HIGH_LOW.view(state)["credited"] == [["Y3"], []]
    assert HIGH_LOW.current_player(state) == 1
    state = play(state, remove(16))
    assert HIGH_LOW.view(state)["credited"] == [["Y3"], ["G4"]]
    assert HIGH_LOW.view(state)["spots_removed"] == [3, 4]
    assert totals(state) == [0, 0]  # only the winner scores, at the end


def test_a_pair_or_triple_of_one_colour_in_a_column_may_be_removed() -> None:
    state = play(placed(), remove(1, 5, 9))  # B1 B2 B3 down column 1
    assert HIGH_LOW.view(state)["credited"] == [["B1", "B2", "B3"], []]
    state = play(state, remove("C4", "C16"))  # G1 and G4, G2 and G3 between (D-HL-3)
    assert HIGH_LOW.view(state)["credited"][1] == ["G1", "G4"]


def test_empty_circles_between_the_chosen_pawns_do_not_block() -> None:
    state = study({"C1": "R1", "C4": "R2", "C16": "B4"})
    assert play(state, remove(1, 4)).board[0] is None


def test_every_legal_removal_is_listed() -> None:
    state = study(TRAP_1)
    removals = [m.data["circles"] for m in HIGH_LOW.legal_events(state)]
    # four singles, R3+R4 along row 1, G4+G2 down column 1 (A.5.8: six legal first moves)
    assert removals == [[2], [4], [5], [9], [2, 4], [5, 9]]
    full = HIGH_LOW.legal_events(placed())
    # 16 singles; each column is one colour: 6 pairs and 4 triples in each of 4 columns
    assert len(full) == 16 + 4 * (6 + 4)


def test_with_two_pawns_left_only_singles_remain_legal() -> None:
    state = study({"C1": "R1", "C2": "R2"})
    assert [m.data["circles"] for m in HIGH_LOW.legal_events(state)] == [[1], [2]]


# Row 1: Y1 R4 B1 Y2; B2 on C8, B3 on C9, G1 on C16; C5 is empty.
REFUSING = {"C1": "Y1", "C2": "R4", "C3": "B1", "C4": "Y2", "C8": "B2", "C9": "B3", "C16": "G1"}


@pytest.mark.parametrize(
    ("circles", "code", "message"),
    [
        ([], "remove.count", "A move removes one, two or three pawns, not 0."),
        ([1, 2, 3, 4], "remove.count", "A move removes one, two or three pawns, not 4."),
        ([3, "C3"], "remove.duplicate", "C3 is named twice in one removal."),
        ([1, 5], "remove.empty_circle", "There is no pawn on C5 to remove."),
        ([1, 2], "remove.mixed_colours",
         "Y1 and R4 on C1 and C2 cannot go together: a pair or triple is of one colour."),
        ([3, 8, 16], "remove.mixed_colours",
         "B1, B2 and G1 on C3, C8 and C16 cannot go together: a pair or triple is of one colour."),
        ([3, 8], "remove.not_in_line", "B1 and B2 on C3 and C8 are not in one row or column."),
        ([1, 4], "remove.blocked",
         "Y1 and Y2 on C1 and C4 cannot be removed together: another colour lies between them "
         "(R4 on C2 and B1 on C3)."),
    ],
)  # fmt: skip
def test_an_illegal_removal_is_refused_naming_pawns_and_circles(
    circles: list[Any], code: str, message: str
) -> None:
    error = refusal(study(REFUSING), remove(*circles))
    assert error.code == code
    assert error.message == message


def test_one_pawn_of_another_colour_between_blocks_a_pair() -> None:
    state = study({"C1": "Y1", "C5": "R4", "C13": "Y2", "C16": "G1"})
    error = refusal(state, remove(1, 13))  # D-HL-2, empty C9 and R4 on C5 between
    assert error.code == "remove.blocked"
    assert error.message.endswith("(R4 on C5).")
    assert play(state, remove(1)).board[0] is None


def test_a_same_colour_pawn_between_does_not_block_and_need_not_be_taken() -> None:
    state = study({"C1": "Y1", "C5": "Y3", "C9": "Y2", "C13": "Y4", "C16": "G1"})
    after = play(state, remove(1, 13))  # D-HL-3: Y3 and Y2 between stay
    assert [p for p in after.board if p] == ["Y3", "Y2", "G1"]
    assert play(state, remove(1, 9, 13)).board[4] == "Y3"


def test_diagonals_are_not_lines() -> None:
    state = study({"C1": "B1", "C6": "B2", "C11": "B3", "C16": "R1"})
    assert refusal(state, remove(1, 6)).code == "remove.not_in_line"  # D-HL-1


def test_the_last_pawn_always_remains() -> None:
    state = study({"C1": "Y1", "C4": "Y2"})
    error = refusal(state, remove(1, 4))
    assert error.code == "remove.last_pawn"  # D-HL-4
    assert error.message == "Removing Y1 and Y2 would leave no pawn: the last pawn always remains."


@pytest.mark.parametrize("circles", [None, "C1", [[1]], [1.0], [True], {"C1": 1}])
def test_malformed_circles_are_refused(circles: Any) -> None:
    error = refusal(placed(), Move("pawns.removed", {"circles": circles}))
    assert error.code == "event.bad_data"


def test_a_circle_off_the_board_is_refused() -> None:
    assert refusal(placed(), remove("C17")).code == "circle.unknown"


# --- the end, the winner and the score (5.5, 5.6) -----------------------------------------------

# Seat 0's pile before its last move: eight pawns worth 19; G2 makes it nine worth 21.
NINE_BEFORE = ("R1", "R2", "R3", "R4", "Y1", "Y2", "Y3", "G3")


def test_nine_pawns_worth_21_score_21() -> None:
    state = near_end({6: "G2", 11: "Y4"}, (NINE_BEFORE, ("B1", "B2", "B3", "B4", "G1", "G4")), 0)
    over = play(state, remove(6))
    assert over.phase == "over"
    assert totals(over) == [21, 0]
    assert HIGH_LOW.result(over).winners == (0,)  # type: ignore[union-attr]
    assert HIGH_LOW.view(over)["doubled"] is False


def test_nine_pawns_worth_21_score_42_with_a_black_last_pawn() -> None:
    state = near_end({6: "G2", 11: "B3"}, (NINE_BEFORE, ("B1", "B2", "B4", "Y4", "G1", "G4")), 0)
    over = play(state, remove(6))
    assert totals(over) == [42, 0]
    assert HIGH_LOW.view(over)["doubled"] is True
    assert HIGH_LOW.match_report(over) == {"starter": 0, "last_pawn": "B3", "last_mover": 0}


def test_leaving_a_low_last_pawn_loses_and_the_other_player_scores_his_pile() -> None:
    state = near_end({6: "G2", 11: "Y4"}, (NINE_BEFORE, ("B1", "B2", "B3", "B4", "G1", "G4")), 0)
    over = play(state, remove(11))  # leaves G2: seat 0 moved last and loses
    assert HIGH_LOW.result(over).winners == (1,)  # type: ignore[union-attr]
    assert totals(over) == [0, 1 + 2 + 3 + 4 + 1 + 4]  # the loser's 23 spots are worthless
    assert HIGH_LOW.view(over)["last_pawn"] == "G2"


def test_a_black_low_last_pawn_doubles_the_other_players_score() -> None:
    state = near_end({6: "B1", 11: "Y4"}, (NINE_BEFORE, ("G2", "B2", "B3", "B4", "G1", "G4")), 1)
    over = play(state, remove(11))  # seat 1 leaves B1 and loses; seat 0 wins, doubled
    assert HIGH_LOW.result(over).winners == (0,)  # type: ignore[union-attr]
    assert totals(over) == [2 * 19, 0]


def test_a_finished_game_takes_no_more_moves() -> None:
    over = play(study(TRAP_1), remove(5), remove(2, 4))
    assert HIGH_LOW.is_terminal(over)
    assert HIGH_LOW.legal_events(over) == [] and HIGH_LOW.expected(over) == []
    assert HIGH_LOW.current_player(over) is None
    assert refusal(over, remove(9)).code == "game.over"
    assert refusal(over, Move("pawn.jumped", {})).code == "event.unknown_type"


def test_nothing_is_scored_and_there_is_no_result_before_the_end() -> None:
    state = play(placed(), remove(1, 5, 9))
    assert totals(state) == [0, 0]
    assert HIGH_LOW.result(state) is None
    assert HIGH_LOW.view(state)["last_pawn"] is None


# --- Appendix A.5.1: the four-pawn trap ---------------------------------------------------------


def test_the_four_pawn_trap_replays_as_printed() -> None:
    state = study(TRAP_1)
    assert HIGH_LOW.current_player(state) == 0  # A moves first
    state = play(state, remove("C5"))  # A removes G4
    assert HIGH_LOW.current_player(state) == 1
    over = play(state, remove("C2", "C4"))  # B removes R3 and R4 along row 1
    assert over.phase == "over"
    assert HIGH_LOW.view(over)["last_pawn"] == "G2"
    assert over.board[8] == "G2"
    # B removed the 15th pawn and left a 2-spot: A wins with the 4 spots he removed.
    assert HIGH_LOW.result(over).winners == (0,)  # type: ignore[union-attr]
    assert totals(over) == [4, 0]
    assert HIGH_LOW.match_report(over) == {"starter": 0, "last_pawn": "G2", "last_mover": 1}


def test_a_trap_may_start_with_either_player_to_move() -> None:
    state = study(TRAP_1, starter=1, to_move=0)
    assert HIGH_LOW.current_player(state) == 0
    assert HIGH_LOW.view(state)["roles"] == {"starter": 1}


# --- malformed events and the fold --------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
KEYS = st.sampled_from(["circle", "pawn", "colours", "circles"])


@settings(max_examples=60, deadline=None)
@given(
    kind=st.sampled_from(["colours.chosen", "pawn.placed", "pawns.removed"]),
    data=st.one_of(JSON, st.dictionaries(KEYS, JSON, max_size=3)),
    phase=st.integers(0, 2),
)
def test_malformed_data_of_any_shape_is_refused_never_crashes(
    kind: str, data: Any, phase: int
) -> None:
    chosen = play(new_game(), Move("colours.chosen", {"colours": ["B", "R"]}))
    state = [new_game(), chosen, placed()][phase]
    try:
        after = HIGH_LOW.apply(state, Move(kind, data))
    except IllegalEvent as refused:
        json.dumps(refused.data)
    else:
        assert isinstance(after, State)


def test_a_take_back_restores_the_exact_prior_state() -> None:
    start = study(TRAP_1)
    assert fold(HIGH_LOW, start, [remove(5), Move("move.undone", {})]) == start
    before = fold(HIGH_LOW, start, [remove(5)])
    assert fold(HIGH_LOW, start, [remove(5), remove(2, 4), Move("move.undone", {})]) == before


# --- seeded random legal play: the bounds of Appendix C.3 ---------------------------------------


@pytest.mark.parametrize("seed", range(60))
def test_random_legal_games_score_within_the_bounds_of_appendix_c3(seed: int) -> None:
    rng = random.Random(seed)
    state = new_game(starter=rng.randrange(2))
    removals = 0
    while not HIGH_LOW.is_terminal(state):
        legal = HIGH_LOW.legal_events(state)
        assert legal, state.phase
        move = rng.choice(legal)
        removals += move.type == "pawns.removed"
        state = HIGH_LOW.apply(state, move)
    assert removals >= 5  # 15 pawns, at most three a move
    assert all(len(pile) >= 2 for pile in state.piles)
    assert sum(len(pile) for pile in state.piles) == 15
    result = HIGH_LOW.result(state)
    assert result is not None and len(result.winners) == 1
    winner = result.winners[0]
    score = totals(state)[winner]
    assert totals(state)[1 - winner] == 0
    if state.last_pawn and state.last_pawn[0] == "B":
        assert score % 2 == 0 and 4 <= score <= 74
    else:
        assert 2 <= score <= 37
    json.dumps(HIGH_LOW.view(state))


@pytest.mark.parametrize("seed", range(6))
def test_the_legal_removals_are_exactly_the_removals_accepted(seed: int) -> None:
    rng = random.Random(seed)
    state = new_game()
    while state.phase != "play":  # a random layout
        state = HIGH_LOW.apply(state, rng.choice(HIGH_LOW.legal_events(state)))
    for _ in range(seed):
        state = HIGH_LOW.apply(state, rng.choice(HIGH_LOW.legal_events(state)))
    accepted = set()
    for size in (1, 2, 3):
        for circles in combinations(range(1, 17), size):
            try:
                HIGH_LOW.apply(state, remove(*circles))
            except IllegalEvent:
                continue
            accepted.add(circles)
    listed = {tuple(sorted(m.data["circles"])) for m in HIGH_LOW.legal_events(state)}
    assert accepted == listed
    assert len(listed) == len(HIGH_LOW.legal_events(state))  # no removal listed twice


@settings(max_examples=80, deadline=None)
@given(setup=st.dictionaries(st.sampled_from(["starter", "to_move", "position", "x"]), JSON))
def test_any_setup_starts_a_game_or_is_refused_as_a_bad_setup(setup: dict[str, Any]) -> None:
    try:
        state = HIGH_LOW.initial_state(setup, None, 2)
    except BadSetup as refused:
        json.dumps(refused.data)
    else:
        assert isinstance(state, State)
