"""The Scarney Solitaire rule engine: RULES.md 2.3-2.6 and Appendix A.4."""

import json
from typing import Any

import pytest

from games.rules import registry
from games.rules.base import Analysable, BonusAward, Move, Rules, fold, make_ruleset
from games.rules.errors import BadRuleset, BadSetup, IllegalEvent
from games.rules.scarney_board.solitaire import (
    SOLITAIRE,
    Ruleset,
    SolitaireRules,
    State,
    final_bonuses,
    game_rating,
    match_rating,
)
from games.rules.scarney_board.solve.solitaire import ANALYSED_SOLITAIRE

# Row r holds the r-spot pawns, columns are B R Y G: rows mix colours, columns are one colour.
LAYOUT = {
    f"C{(row - 1) * 4 + col + 1}": f"{colour}{row}"
    for row in range(1, 5)
    for col, colour in enumerate("BRYG")
}
CALLS_ALLOWED = Ruleset(solitaire_allow_scarney_call=True)


def new_game(ruleset: Ruleset | None = None) -> State:
    return SOLITAIRE.initial_state({}, ruleset, 1)


def laid_out(ruleset: Ruleset | None = None) -> State:
    return SOLITAIRE.apply(new_game(ruleset), Move("board.laid_out", {"position": LAYOUT}))


def study(position: dict[str, str], ruleset: Ruleset | None = None) -> State:
    return SOLITAIRE.initial_state({"position": position}, ruleset, 1)


def jump(frm: int | str, to: int | str, **over: int | str | None) -> Move:
    return Move("pawn.jumped", {"from": frm, "to": to, **over})


def refusal(state: State, move: Move) -> IllegalEvent:
    with pytest.raises(IllegalEvent) as refused:
        SOLITAIRE.apply(state, move)
    return refused.value


def total(state: State) -> int:
    return SOLITAIRE.scores(state)[0].total


def kinds(state: State) -> list[tuple[str, int, tuple[str, ...]]]:
    return [(b.kind, b.points, b.pawns) for b in SOLITAIRE.scores(state)[0].bonuses]


# --- the engine and its ruleset ---------------------------------------------------------------


def test_solitaire_is_registered_under_its_kind_and_follows_the_rules_protocol() -> None:
    # the registered engine is the game's with its solver's analysis on top (the solver builds
    # on the game, so the game never imports it)
    registered = registry.get("scarney-solitaire")
    assert registered is ANALYSED_SOLITAIRE and isinstance(registered, SolitaireRules)
    assert isinstance(registered, Analysable) and registered.title == "Scarney Solitaire"
    assert isinstance(SOLITAIRE, Rules)
    assert (SOLITAIRE.min_seats, SOLITAIRE.max_seats) == (1, 1)


def test_the_default_ruleset_follows_the_printed_rules() -> None:
    ruleset = make_ruleset(Ruleset, {})
    assert ruleset == Ruleset(False, "Try again!", "strict")


def test_house_rules_are_checked_against_their_allowed_values() -> None:
    assert (
        make_ruleset(Ruleset, {"solitaire_rating_below_20": None}).solitaire_rating_below_20 is None
    )
    with pytest.raises(BadRuleset) as refused:
        make_ruleset(Ruleset, {"sheet_entry_validation": "relaxed"})
    assert refused.value.code == "ruleset.bad_value"
    with pytest.raises(BadRuleset):
        make_ruleset(Ruleset, {"singles_tiebreak_games_count": True})


def test_a_ruleset_may_be_given_as_overrides_when_the_game_starts() -> None:
    state = SOLITAIRE.initial_state({}, {"solitaire_allow_scarney_call": True}, 1)
    assert state.ruleset == CALLS_ALLOWED


def test_solitaire_has_exactly_one_seat() -> None:
    with pytest.raises(BadSetup) as refused:
        SOLITAIRE.initial_state({}, None, 2)
    assert refused.value.code == "game.bad_seats"


def test_an_unknown_setup_key_is_refused() -> None:
    with pytest.raises(BadSetup) as refused:
        SOLITAIRE.initial_state({"positions": {}}, None, 1)
    assert refused.value.code == "setup.unknown_key"
    assert "positions" in refused.value.message


# --- layout and take-off ------------------------------------------------------------------------


def test_a_new_game_waits_for_the_layout() -> None:
    state = new_game()
    assert state.phase == "layout"
    assert SOLITAIRE.expected(state) == ["board.laid_out"]
    assert SOLITAIRE.legal_events(state) is None
    assert SOLITAIRE.current_player(state) == 0
    assert SOLITAIRE.scores(state)[0].total == 0
    assert SOLITAIRE.result(state) is None


def test_laying_out_the_board_puts_every_pawn_on_its_circle() -> None:
    state = laid_out()
    assert state.phase == "takeoff"
    assert SOLITAIRE.view(state)["board"]["C7"] == "Y2"
    assert SOLITAIRE.expected(state) == ["pawn.taken_off"]
    assert SOLITAIRE.scores(state)[0].points == 0


def test_only_the_eight_low_pawns_may_be_taken_off() -> None:
    moves = SOLITAIRE.legal_events(laid_out())
    assert moves == [Move("pawn.taken_off", {"circle": c}) for c in range(1, 9)]


def test_taking_off_a_low_pawn_credits_its_spots_and_starts_the_jumping() -> None:
    state = SOLITAIRE.apply(laid_out(), Move("pawn.taken_off", {"circle": "C6"}))
    assert state.phase == "jumping"
    assert state.removed == ("R2",)
    assert SOLITAIRE.view(state)["board"]["C6"] is None
    assert SOLITAIRE.scores(state)[0].points == 2
    assert SOLITAIRE.legal_events(state) == [jump(8, 6)]  # G2 over Y2; R4 over R3 is one colour


def test_a_high_pawn_cannot_be_taken_off() -> None:
    error = refusal(laid_out(), Move("pawn.taken_off", {"circle": 9}))
    assert error.code == "takeoff.not_low_pawn"
    assert error.message.startswith("B3 on C9 cannot be taken off")


def test_a_jump_before_the_take_off_is_refused() -> None:
    assert refusal(laid_out(), jump(3, 1)).code == "takeoff.required"


def test_a_second_take_off_is_refused_naming_the_first() -> None:
    state = SOLITAIRE.apply(laid_out(), Move("pawn.taken_off", {"circle": 6}))
    error = refusal(state, Move("pawn.taken_off", {"circle": 5}))
    assert error.code == "takeoff.already_made"
    assert "R2" in error.message


def test_any_move_before_the_layout_is_refused() -> None:
    for move in [Move("pawn.taken_off", {"circle": 1}), jump(3, 1), Move("game.scarney_called")]:
        assert refusal(new_game(), move).code == "setup.layout_required"


def test_the_board_is_laid_out_only_once() -> None:
    assert refusal(laid_out(), Move("board.laid_out", {"position": LAYOUT})).code == (
        "setup.already_laid_out"
    )


@pytest.mark.parametrize(
    ("change", "code", "named"),
    [
        ({"C16": None}, "setup.incomplete_layout", ["C16", "G4"]),
        ({"C16": "B1"}, "setup.duplicate_pawn", ["B1", "C1", "C16"]),
        ({"C16": "G5"}, "setup.unknown_pawn", ["G5", "C16"]),
        ({"C17": "G4"}, "setup.unknown_circle", ["C17"]),
    ],
)
def test_a_bad_layout_is_refused_naming_the_pawns_and_circles(
    change: dict[str, str | None], code: str, named: list[str]
) -> None:
    position = {**LAYOUT, **change}
    error = refusal(new_game(), Move("board.laid_out", {"position": position}))
    assert error.code == code
    assert all(name in error.message for name in named)


# --- jumps --------------------------------------------------------------------------------------

# G3 on C11 beside G4 on C10 and R1 on C12; B2 on C7 above G3, R4 on C9, Y1 alone on C4.
CROWDED = {"C11": "G3", "C10": "G4", "C12": "R1", "C7": "B2", "C9": "R4", "C4": "Y1"}


def test_a_jump_moves_the_pawn_and_removes_the_pawn_jumped() -> None:
    state = study(CROWDED)
    after = SOLITAIRE.apply(state, jump("C11", "C3", over="C7"))
    board = SOLITAIRE.view(after)["board"]
    assert (board["C11"], board["C7"], board["C3"]) == (None, None, "G3")
    assert after.removed == ("B2",)
    assert state.board[10] == "G3"  # the earlier state is untouched


def test_a_jump_over_a_pawn_of_the_same_colour_is_refused() -> None:
    error = refusal(study(CROWDED), jump(11, 9))
    assert error.code == "jump.same_colour"
    assert error.message == "G3 on C11 cannot jump G4 on C10: pawns of one colour."


def test_a_jump_from_an_empty_circle_is_refused() -> None:
    error = refusal(study(CROWDED), jump(1, 9))
    assert error.code == "jump.empty_from"
    assert "C1" in error.message


@pytest.mark.parametrize("to", [6, 16, 4, 13])
def test_a_jump_that_is_not_two_circles_along_a_line_is_refused(to: int) -> None:
    error = refusal(study(CROWDED), jump(7, to))
    assert error.code == "jump.not_straight"
    assert error.message.startswith(f"B2 on C7 cannot jump to C{to}")


def test_a_jump_over_an_empty_circle_is_refused() -> None:
    error = refusal(study(CROWDED), jump(4, 2))
    assert error.code == "jump.nothing_to_jump"
    assert "Y1 on C4" in error.message and "C3" in error.message


def test_a_jump_onto_an_occupied_circle_is_refused() -> None:
    error = refusal(study(CROWDED), jump(12, 10))
    assert error.code == "jump.landing_occupied"
    assert error.message == "R1 on C12 cannot jump G3 on C11: C10 is taken by G4."


def test_an_over_circle_that_is_not_the_middle_one_is_refused() -> None:
    error = refusal(study(CROWDED), jump(11, 3, over=10))
    assert error.code == "jump.over_mismatch"
    assert "C7" in error.message and "C10" in error.message


def test_a_matching_or_null_over_circle_is_accepted() -> None:
    assert SOLITAIRE.apply(study(CROWDED), jump(11, 3, over=7)).removed == ("B2",)
    assert SOLITAIRE.apply(study(CROWDED), jump(11, 3, over=None)).removed == ("B2",)


def test_the_game_ends_when_no_jump_is_left() -> None:
    state = study({"C1": "G3", "C2": "B4", "C8": "R1"})
    over = SOLITAIRE.apply(state, jump(1, 3))
    assert over.phase == "over"
    assert SOLITAIRE.is_terminal(over)
    assert SOLITAIRE.expected(over) == []
    assert SOLITAIRE.legal_events(over) == []
    assert SOLITAIRE.current_player(over) is None


def test_any_move_after_the_end_is_refused() -> None:
    over = study({"C6": "R3"})
    assert refusal(over, jump(6, 8)).code == "game.over"
    assert refusal(over, Move("board.laid_out", {"position": LAYOUT})).code == "game.over"


# --- malformed events ---------------------------------------------------------------------------


def test_an_event_the_game_does_not_know_is_refused() -> None:
    error = refusal(study(CROWDED), Move("dice.thrown", {"faces": ["1"]}))
    assert error.code == "event.unknown_type"
    assert "dice.thrown" in error.message


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"to": 3}, "from"),
        ({"from": 11}, "to"),
        ({"from": [11], "to": 3}, "from"),
        ({"from": True, "to": 3}, "from"),
        ({"from": 11, "to": 3, "over": 7.0}, "over"),
    ],
)
def test_malformed_jump_data_is_refused_naming_the_field(data: dict[str, Any], field: str) -> None:
    error = refusal(study(CROWDED), Move("pawn.jumped", data))
    assert error.code == "event.bad_data"
    assert repr(field) in error.message


def test_event_data_that_is_not_an_object_is_refused() -> None:
    assert refusal(study(CROWDED), Move("pawn.jumped", [11, 3])).code == "event.bad_data"  # type: ignore[arg-type]


def test_a_layout_without_a_position_object_is_refused() -> None:
    error = refusal(new_game(), Move("board.laid_out", {"position": ["B1"]}))
    assert error.code == "event.bad_data"
    assert "'position'" in error.message


def test_a_circle_off_the_board_is_refused() -> None:
    assert refusal(study(CROWDED), jump(11, "C17")).code == "circle.unknown"


# --- study positions ----------------------------------------------------------------------------


def test_a_study_position_starts_with_jumps_and_scores_forty_less_the_spots_left() -> None:
    state = study(CROWDED)
    assert state.phase == "jumping" and state.study
    assert SOLITAIRE.expected(state) == ["pawn.jumped"]
    assert SOLITAIRE.scores(state)[0].points == 40 - 15
    assert SOLITAIRE.scores(state)[0].bonuses == ()


def test_no_take_off_is_due_in_a_study_position() -> None:
    error = refusal(study(CROWDED), Move("pawn.taken_off", {"circle": 3}))
    assert error.code == "takeoff.already_made"
    assert "study position" in error.message


def test_a_study_position_without_a_legal_jump_is_over_at_once() -> None:
    state = study({"C1": "G3", "C12": "G4"})
    assert state.phase == "over"
    assert total(state) == 63


@pytest.mark.parametrize(
    ("position", "code"),
    [
        ({}, "setup.empty_position"),
        ({"C1": "G3", "C2": "G3"}, "setup.duplicate_pawn"),
        ({"C1": "Z3"}, "setup.unknown_pawn"),
        ({"C0": "G3"}, "setup.unknown_circle"),
        ([["C1", "G3"]], "setup.bad_position"),
    ],
)
def test_a_bad_study_position_is_refused(position: Any, code: str) -> None:
    with pytest.raises(BadSetup) as refused:
        SOLITAIRE.initial_state({"position": position}, None, 1)
    assert refused.value.code == code


# --- the Scarney call (D-SOL-3) -----------------------------------------------------------------


def test_scarney_cannot_be_called_under_the_printed_rules() -> None:
    state = study(CROWDED)
    assert "game.scarney_called" not in SOLITAIRE.expected(state)
    assert refusal(state, Move("game.scarney_called")).code == "game.scarney_not_allowed"
    assert refusal(laid_out(), Move("game.scarney_called")).code == "game.scarney_not_allowed"


def test_with_the_house_rule_a_call_after_the_take_off_ends_the_game() -> None:
    state = study({"C1": "Y1", "C16": "G1", "C6": "B1", "C7": "R1"}, CALLS_ALLOWED)
    assert SOLITAIRE.expected(state) == ["pawn.jumped", "game.scarney_called"]
    assert Move("game.scarney_called") in (SOLITAIRE.legal_events(state) or [])
    over = SOLITAIRE.apply(state, Move("game.scarney_called"))
    assert over.phase == "over"
    assert total(over) == 36 + 40 + 20  # four 1-spots, two on corners


def test_with_the_house_rule_the_call_still_waits_for_the_take_off() -> None:
    assert refusal(laid_out(CALLS_ALLOWED), Move("game.scarney_called")).code == (
        "takeoff.required"
    )


# --- scoring (RULES.md 2.5 and Appendix A.4) ----------------------------------------------------


@pytest.mark.parametrize(
    ("position", "expected_total", "bonuses"),
    [
        ({"C6": "R3"}, 67, [("single_pawn", 30, ("R3",))]),
        ({"C6": "B3"}, 97, [("black_single_pawn", 60, ("B3",))]),
        ({"C2": "G1", "C6": "G2", "C11": "G3"}, 64, [("colour", 30, ("G1", "G2", "G3"))]),
        (
            {"C1": "G1", "C16": "G2", "C6": "G3"},
            84,
            [("colour_corner", 40, ("G1", "G2")), ("colour", 10, ("G3",))],
        ),
        ({"C2": "B1", "C6": "B2", "C11": "B3"}, 94, [("black", 60, ("B1", "B2", "B3"))]),
        (
            {"C2": "B4", "C8": "R4", "C9": "Y4", "C15": "G4"},
            64,
            [("number", 40, ("B4", "R4", "Y4", "G4"))],
        ),
        ({"C1": "B4", "C3": "R4", "C6": "Y4", "C8": "G4", "C9": "B1"}, 23, []),
    ],
)
def test_the_worked_values_of_the_rules_text_score_as_printed(
    position: dict[str, str], expected_total: int, bonuses: list[tuple[str, int, tuple[str, ...]]]
) -> None:
    state = study(position)
    assert state.phase == "over"
    assert total(state) == expected_total
    assert kinds(state) == bonuses


def test_a_lone_pawn_on_a_corner_earns_no_corner_bonus() -> None:
    assert total(study({"C1": "R3"})) == 67
    assert total(study({"C16": "B3"})) == 97


def test_black_pawns_on_corners_earn_forty_each() -> None:
    state = study({"C16": "B4", "C7": "B2"})
    assert kinds(state) == [("black_corner", 40, ("B4",)), ("black", 20, ("B2",))]
    assert total(state) == 94


def test_a_number_bonus_has_no_black_premium_but_doubles_on_corners() -> None:
    state = study({"C1": "B4", "C16": "R4"})
    assert kinds(state) == [("number_corner", 40, ("B4", "R4"))]
    assert total(state) == 72


def test_mixed_colours_and_numbers_earn_no_bonus() -> None:
    assert final_bonuses(study({"C1": "B4", "C16": "R3"}).board) == ()


def test_bonuses_are_itemised_only_once_the_game_is_over() -> None:
    state = study({"C1": "Y1", "C16": "G1", "C6": "B1", "C7": "R1"})  # all 1-spots, jumps left
    assert state.phase == "jumping"
    assert SOLITAIRE.scores(state)[0].bonuses == ()


def test_final_bonuses_explain_themselves() -> None:
    (award,) = final_bonuses(study({"C6": "B3"}).board)
    assert award == BonusAward("black_single_pawn", 60, "lone black 3-spot: 20 a spot", ("B3",))


# --- ratings (RULES.md 2.6) ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("score", "rating"),
    [
        (190, "Perfect game"),
        (150, "Perfect game"),
        (149, "Excellent game"),
        (125, "Excellent game"),
        (124, "Par game"),
        (95, "Par game"),
        (94, "Good game"),
        (75, "Good game"),
        (74, "Fair game"),
        (55, "Fair game"),
        (54, "Average game"),
        (35, "Average game"),
        (34, "Poor game"),
        (30, "Poor game"),
        (29, "Try again!"),
        (20, "Try again!"),
        (19, "Try again!"),
        (1, "Try again!"),
    ],
)
def test_game_ratings_follow_the_printed_table(score: int, rating: str) -> None:
    assert game_rating(score, Ruleset()) == rating


def test_below_20_a_game_may_go_unrated_by_house_rule() -> None:
    unrated = Ruleset(solitaire_rating_below_20=None)
    assert game_rating(19, unrated) is None
    assert game_rating(20, unrated) == "Try again!"


@pytest.mark.parametrize(
    ("score", "rating"),
    [
        (950, "Perfect match"),
        (700, "Perfect match"),
        (699, "Excellent match"),
        (625, "Excellent match"),
        (624, "Par match"),
        (475, "Par match"),
        (474, "Good match"),
        (375, "Good match"),
        (374, "Fair match"),
        (275, "Fair match"),
        (274, "Average match"),
        (175, "Average match"),
        (174, "Poor match"),
        (150, "Poor match"),
        (149, "Try again!"),
        (100, "Try again!"),
        (99, "You need practice!"),
        (5, "You need practice!"),
    ],
)
def test_match_ratings_follow_the_printed_table(score: int, rating: str) -> None:
    assert match_rating(score) == rating


# --- result and view ----------------------------------------------------------------------------


def test_a_finished_game_has_a_result_with_its_total_and_rating() -> None:
    state = study({"C8": "B4"})
    result = SOLITAIRE.result(state)
    assert result is not None
    assert result.winners == (0,)
    assert result.rating == "Par game"
    assert result.as_dict() == {"totals": [116], "winner": [0], "rating": "Par game"}


def test_a_game_in_progress_has_no_result() -> None:
    assert SOLITAIRE.result(study(CROWDED)) is None


def test_the_view_is_plain_json_with_all_sixteen_circles() -> None:
    state = SOLITAIRE.apply(laid_out(), Move("pawn.taken_off", {"circle": 6}))
    view = json.loads(json.dumps(SOLITAIRE.view(state)))
    assert view["phase"] == "jumping"
    assert view["removed"] == ["R2"]
    assert len(view["board"]) == 16 and view["board"]["C1"] == "B1" and view["board"]["C6"] is None


def test_an_undone_move_restores_the_exact_prior_state() -> None:
    start = laid_out()
    moves = [Move("pawn.taken_off", {"circle": 6}), jump(8, 6), Move("move.undone")]
    assert fold(SOLITAIRE, start, moves) == SOLITAIRE.apply(start, moves[0])
