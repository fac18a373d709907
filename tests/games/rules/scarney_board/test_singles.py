"""The Scarney Singles rule engine: RULES.md 3.2-3.6 and 3.8 (one game of the match)."""

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import registry
from games.rules.base import Move, Rules, fold, make_ruleset
from games.rules.errors import BadRuleset, BadSetup, IllegalEvent
from games.rules.scarney_board.singles import SINGLES, Ruleset, State
from games.rules.scarney_board.solitaire import attainable_totals

# Row r holds the r-spot pawns, columns are B R Y G: rows mix colours, columns are one colour.
LAYOUT = {
    (row - 1) * 4 + col + 1: f"{colour}{row}"
    for row in range(1, 5)
    for col, colour in enumerate("BRYG")
}


def new_game(seats: int = 3, ruleset: Any = None, **setup: Any) -> State:
    return SINGLES.initial_state(setup, ruleset, seats)


def play(state: State, *moves: Move) -> State:
    for move in moves:
        state = SINGLES.apply(state, move)
    return state


def placements(colours: tuple[str, str]) -> list[Move]:
    """LAYOUT's pawns placed alternately: the active player's colours first, circle by circle."""
    mine = [(c, p) for c, p in sorted(LAYOUT.items()) if p[0] in colours]
    theirs = [(c, p) for c, p in sorted(LAYOUT.items()) if p[0] not in colours]
    order = [pair for both in zip(mine, theirs, strict=True) for pair in both]
    return [Move("pawn.placed", {"circle": c, "pawn": p}) for c, p in order]


def placed(seats: int = 3, **setup: Any) -> State:
    """A game with LAYOUT placed, the active player holding black and red."""
    colours = Move("colours.chosen", {"colours": ["B", "R"]})
    return play(new_game(seats, **setup), colours, *placements(("B", "R")))


def study(position: dict[str, str], seats: int = 3, **setup: Any) -> State:
    return new_game(seats, position=position, **setup)


def jump(frm: int, to: int) -> Move:
    return Move("pawn.jumped", {"from": frm, "to": to})


TAKE_C6 = Move("pawn.taken_off", {"circle": "C6"})  # R2
CALL = Move("game.scarney_called", {})


def refusal(state: State, move: Move) -> IllegalEvent:
    with pytest.raises(IllegalEvent) as refused:
        SINGLES.apply(state, move)
    return refused.value


def totals(state: State) -> list[int]:
    return [score.total for score in SINGLES.scores(state)]


# --- the engine, its ruleset and its setup ------------------------------------------------------


def test_singles_is_registered_for_two_to_sixteen_players() -> None:
    assert registry.get("scarney-singles") is SINGLES
    assert isinstance(SINGLES, Rules)
    assert (SINGLES.min_seats, SINGLES.max_seats) == (2, 16)  # D-SGL-7
    for seats in (1, 17):
        with pytest.raises(BadSetup) as refused:
            new_game(seats)
        assert refused.value.code == "game.bad_seats"


def test_the_ruleset_holds_the_singles_house_rules_with_their_defaults() -> None:
    assert make_ruleset(Ruleset, {}) == Ruleset(True, "strict")
    lenient = make_ruleset(
        Ruleset, {"singles_tiebreak_games_count": False, "sheet_entry_validation": "lenient"}
    )
    assert lenient == Ruleset(False, "lenient")
    for overrides in [
        {"sheet_entry_validation": "loose"},
        {"singles_tiebreak_games_count": 1},
        {"doubles_allow_premature_call": True},
    ]:
        with pytest.raises(BadRuleset):
            make_ruleset(Ruleset, overrides)
    assert new_game(
        ruleset={"sheet_entry_validation": "lenient"}
    ).ruleset.sheet_entry_validation == ("lenient")


@pytest.mark.parametrize(
    ("seats", "setup", "active", "opponent"),
    [
        (3, {}, 0, 2),  # the opponent is the player on the active player's right
        (2, {}, 0, 1),  # with two players, the other one (D-SGL-1)
        (2, {"active": 1}, 1, 0),
        (5, {"active": 2}, 2, 1),
        (16, {"active": 0}, 0, 15),
        (4, {"active": 1, "opponent": 0}, 1, 0),  # as the match names him
    ],
)
def test_the_active_player_and_his_opponent(
    seats: int, setup: dict[str, int], active: int, opponent: int
) -> None:
    state = new_game(seats, **setup)
    assert (state.active, state.opponent) == (active, opponent)
    assert SINGLES.view(state)["roles"] == {"active": active, "opponent": opponent}


@pytest.mark.parametrize(
    ("setup", "code"),
    [
        ({"active": 3}, "setup.bad_seat"),
        ({"opponent": "1"}, "setup.bad_seat"),
        ({"active": 1, "opponent": 1}, "setup.same_seat"),
        ({"starter": 0}, "setup.unknown_key"),
        ({"position": {}}, "setup.empty_position"),
        ({"position": {"C1": "B1", "C2": "B1"}}, "setup.duplicate_pawn"),
    ],
)
def test_a_bad_setup_is_refused(setup: dict[str, Any], code: str) -> None:
    with pytest.raises(BadSetup) as refused:
        new_game(3, **setup)
    assert refused.value.code == code


@pytest.mark.parametrize(
    ("seats", "setup", "right"),
    [
        (4, {"active": 1, "opponent": 3}, 0),
        (3, {"opponent": 1}, 2),
        (5, {"active": 4, "opponent": 0}, 3),
    ],
)
def test_the_opponent_is_always_the_player_on_the_active_players_right(
    seats: int, setup: dict[str, int], right: int
) -> None:
    """RULES.md 3.8 D-SGL-1 (Fixed): "The player on the active player's right places the other
    eight pawns"; 3.4: "the opponent is the player on the active player's right". A setup naming
    anyone else as the opponent is refused, not played with another helper."""
    with pytest.raises(BadSetup) as refused:
        new_game(seats, **setup)
    assert refused.value.code == "setup.bad_opponent"
    assert refused.value.data["opponent"] == right
    assert f"seat {right}" in refused.value.message


# --- colours and placing (RULES.md 3.5) ---------------------------------------------------------


def test_the_active_player_chooses_any_two_colours_first() -> None:
    state = new_game(3, active=1)
    assert state.phase == "colours"
    assert SINGLES.expected(state) == ["colours.chosen"]
    assert SINGLES.current_player(state) == 1
    assert len(SINGLES.legal_events(state)) == 6  # D-SGL-2
    chosen = SINGLES.apply(state, Move("colours.chosen", {"colours": ["Y", "G"]}))
    assert chosen.phase == "placing"
    assert SINGLES.view(chosen)["colours"] == [["B", "R"], ["Y", "G"], []]


def test_the_active_player_and_the_opponent_place_alternately_active_first() -> None:
    state = play(new_game(3, active=1), Move("colours.chosen", {"colours": ["B", "R"]}))
    turns = []
    for move in placements(("B", "R")):
        turns.append(SINGLES.current_player(state))
        assert SINGLES.expected(state) == ["pawn.placed"]
        assert move in SINGLES.legal_events(state)
        state = SINGLES.apply(state, move)
    assert turns == [1, 0] * 8
    assert state.phase == "takeoff"
    assert SINGLES.current_player(state) == 1
    assert SINGLES.view(state)["board"]["C7"] == "Y2"


def test_a_placement_of_the_side_not_on_turn_is_refused() -> None:
    state = play(new_game(3), Move("colours.chosen", {"colours": ["B", "R"]}))
    error = refusal(state, Move("pawn.placed", {"circle": 1, "pawn": "Y1"}))
    assert error.code == "place.not_your_pawn"
    assert "Y1" in error.message


def test_a_colour_choice_or_placement_after_the_placing_is_refused() -> None:
    state = placed()
    assert refusal(state, Move("colours.chosen", {"colours": ["B", "R"]})).code == (
        "colours.already_chosen"
    )
    late = refusal(state, Move("pawn.placed", {"circle": 1, "pawn": "B1"}))
    assert late.code == "place.all_placed"
    jumping = play(state, TAKE_C6)
    assert refusal(jumping, Move("pawn.placed", {"circle": 6, "pawn": "R2"})).code == (
        "place.all_placed"
    )


def test_take_offs_and_jumps_wait_for_the_colours_and_the_placing() -> None:
    assert refusal(new_game(), TAKE_C6).code == "colours.required"
    state = play(new_game(), Move("colours.chosen", {"colours": ["B", "R"]}))
    assert refusal(state, jump(3, 1)).code == "place.required"


# --- take-off, jumps and the Scarney call -------------------------------------------------------


def test_the_active_player_takes_off_a_low_pawn_then_jumps_as_in_solitaire() -> None:
    state = placed()
    assert SINGLES.expected(state) == ["pawn.taken_off"]
    assert SINGLES.legal_events(state) == [
        Move("pawn.taken_off", {"circle": c}) for c in range(1, 9)
    ]
    state = play(state, TAKE_C6)
    assert state.phase == "jumping"
    assert state.removed == ("R2",)
    assert SINGLES.expected(state) == ["pawn.jumped", "game.scarney_called"]
    assert SINGLES.legal_events(state) == [jump(8, 6), CALL]
    state = play(state, jump(8, 6))
    assert state.removed == ("R2", "Y2")
    assert totals(state) == [4, 0, 0]


def test_a_jump_before_the_take_off_is_refused() -> None:
    error = refusal(placed(), jump(3, 1))
    assert error.code == "takeoff.required"
    assert error.message == "A 1- or 2-spot pawn must be taken off before the first jump."


def test_a_high_pawn_cannot_be_taken_off() -> None:
    error = refusal(placed(), Move("pawn.taken_off", {"circle": 9}))
    assert error.code == "takeoff.not_low_pawn"
    assert error.message.startswith("B3 on C9 cannot be taken off")


def test_only_one_pawn_is_taken_off() -> None:
    error = refusal(play(placed(), TAKE_C6), Move("pawn.taken_off", {"circle": 5}))
    assert error.code == "takeoff.already_made"
    assert error.message == "The take-off is made (R2); no more pawns are taken off."


def test_the_jump_refusals_of_solitaire_apply() -> None:
    state = play(placed(), TAKE_C6)
    same = refusal(state, jump(14, 6))
    assert same.code == "jump.same_colour"
    assert same.message == "R4 on C14 cannot jump R3 on C10: pawns of one colour."
    cases = [
        (jump(6, 8), "jump.empty_from", "There is no pawn on C6 to jump with."),
        (
            jump(2, 10),
            "jump.nothing_to_jump",
            "R1 on C2 cannot jump to C10: there is no pawn on C6.",
        ),
        (jump(1, 3), "jump.landing_occupied", "B1 on C1 cannot jump R1 on C2: C3 is taken by Y1."),
        (
            Move("pawn.jumped", {"from": 8, "to": 6, "over": 5}),
            "jump.over_mismatch",
            "A jump from C8 to C6 goes over C7, not C5.",
        ),
    ]
    for move, code, message in cases:
        error = refusal(state, move)
        assert (error.code, error.message) == (code, message)
    assert refusal(state, jump(1, 6)).code == "jump.not_straight"
    assert refusal(state, Move("pawn.jumped", {"from": 8})).code == "event.bad_data"


@pytest.mark.parametrize("state_of", [new_game, placed])
def test_scarney_cannot_be_called_before_the_take_off(state_of: Any) -> None:
    error = refusal(state_of(), CALL)
    assert error.code == "game.scarney_not_due"  # D-SGL-4
    assert error.message == (
        "Scarney cannot be called before the take-off: a 1- or 2-spot pawn must come off first."
    )
    mid_placing = play(new_game(), Move("colours.chosen", {"colours": ["B", "R"]}))
    assert refusal(mid_placing, CALL).code == "game.scarney_not_due"


def test_a_scarney_call_ends_the_game_even_with_jumps_left() -> None:
    state = play(placed(), TAKE_C6)
    assert SINGLES.legal_events(state)[0].type == "pawn.jumped"
    over = play(state, CALL)  # D-SGL-3
    assert over.phase == "over" and over.called
    assert SINGLES.is_terminal(over)
    assert totals(over) == [2, 0, 0]  # 40 - 38 spots left, no bonus with 15 pawns
    assert SINGLES.legal_events(over) == []
    assert SINGLES.expected(over) == []
    assert SINGLES.current_player(over) is None
    assert refusal(over, CALL).code == "game.over"


def test_the_game_ends_by_itself_when_no_jump_is_left() -> None:
    state = study({"C1": "G3", "C2": "B4", "C8": "R1"})
    over = play(state, jump(1, 3))
    assert over.phase == "over" and not over.called
    assert totals(over) == [40 - 4, 0, 0]


# --- scoring (RULES.md 3.6: exactly as Solitaire, for the active player) ------------------------


@pytest.mark.parametrize(
    ("position", "total", "bonuses"),
    [
        ({"C6": "R3"}, 67, [("single_pawn", 30)]),
        ({"C6": "B3"}, 97, [("black_single_pawn", 60)]),
        ({"C1": "G1", "C16": "G2", "C6": "G3"}, 84, [("colour_corner", 40), ("colour", 10)]),
        ({"C2": "B4", "C8": "R4", "C9": "Y4", "C15": "G4"}, 64, [("number", 40)]),
        # Appendix B.1's attainable entries: 77, 110 and 53.
        ({"C1": "Y1", "C4": "Y2"}, 77, [("colour_corner", 40)]),
        ({"C2": "B1", "C5": "B2", "C7": "B3", "C10": "B4"}, 110, [("black", 80)]),
        ({"C2": "R3", "C7": "R4"}, 53, [("colour", 20)]),
    ],
)
def test_the_active_player_scores_exactly_as_in_solitaire_and_no_one_else_scores(
    position: dict[str, str], total: int, bonuses: list[tuple[str, int]]
) -> None:
    state = study(position, seats=4, active=2)
    if state.phase != "over":
        state = play(state, CALL)
    scores = SINGLES.scores(state)
    assert [s.seat for s in scores] == [0, 1, 2, 3]
    assert totals(state) == [0, 0, total, 0]
    assert [(b.kind, b.points) for b in scores[2].bonuses] == bonuses
    result = SINGLES.result(state)
    assert result is not None and result.winners == (2,)
    assert total in attainable_totals()


def test_the_bonus_is_judged_only_once_the_game_is_over() -> None:
    state = study({"C1": "G3", "C2": "B4", "C8": "R1"})
    assert SINGLES.scores(state)[0].bonuses == ()
    assert SINGLES.result(state) is None
    over = play(state, CALL)
    assert totals(over) == [40 - 8, 0, 0]  # three colours, three numbers: no bonus


def test_a_game_still_being_placed_scores_nothing() -> None:
    state = play(new_game(), Move("colours.chosen", {"colours": ["B", "R"]}))
    assert totals(state) == [0, 0, 0]


# --- study positions ----------------------------------------------------------------------------


def test_a_study_position_skips_colours_placing_and_take_off() -> None:
    state = study({"C11": "G3", "C10": "B4", "C12": "R1"}, seats=2, active=1)
    assert state.phase == "jumping" and state.study
    assert SINGLES.current_player(state) == 1
    assert totals(state) == [0, 40 - 8]
    assert CALL in SINGLES.legal_events(state)  # the take-off counts as made
    error = refusal(state, TAKE_C6)
    assert error.code == "takeoff.already_made"
    assert "study position" in error.message
    assert refusal(state, Move("colours.chosen", {"colours": ["B", "R"]})).code == (
        "colours.already_chosen"
    )


# --- malformed events and the fold --------------------------------------------------------------


def test_an_event_the_game_does_not_know_is_refused() -> None:
    error = refusal(placed(), Move("pawns.removed", {"circles": [1]}))
    assert error.code == "event.unknown_type"
    assert "'pawns.removed'" in error.message


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
KEYS = st.sampled_from(["circle", "pawn", "colours", "from", "to", "over"])


@settings(max_examples=60, deadline=None)
@given(
    kind=st.sampled_from(
        [
            "colours.chosen",
            "pawn.placed",
            "pawn.taken_off",
            "pawn.jumped",
            "game.scarney_called",
            "nonsense",
        ]
    ),
    data=st.one_of(JSON, st.dictionaries(KEYS, JSON, max_size=3)),
    phase=st.integers(0, 3),
)
def test_malformed_data_of_any_shape_is_refused_never_crashes(
    kind: str, data: Any, phase: int
) -> None:
    state = [
        new_game(),
        play(new_game(), Move("colours.chosen", {"colours": ["B", "R"]})),
        placed(),
        play(placed(), TAKE_C6),
    ][phase]
    try:
        after = SINGLES.apply(state, Move(kind, data))
    except IllegalEvent as refused:
        json.dumps(refused.data)
    else:
        assert isinstance(after, State)


def test_a_take_back_restores_the_exact_prior_state() -> None:
    start = new_game()
    moves = [Move("colours.chosen", {"colours": ["B", "R"]}), *placements(("B", "R")), TAKE_C6]
    before_jump = fold(SINGLES, start, moves)
    undone = fold(SINGLES, start, [*moves, jump(8, 6), Move("move.undone", {})])
    assert undone == before_jump
    assert fold(SINGLES, start, [moves[0], Move("move.undone", {})]) == start


# --- seeded random legal play -------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_random_legal_games_end_with_an_attainable_total_for_the_active_player(seed: int) -> None:
    rng = random.Random(seed)
    seats = rng.randint(2, 6)
    state = new_game(seats, active=rng.randrange(seats))
    moves = 0
    while not SINGLES.is_terminal(state):
        legal = SINGLES.legal_events(state)
        assert legal, state.phase
        # Call Scarney rarely, so most games play out their jumps.
        choice = rng.choice([m for m in legal if m.type != "game.scarney_called"] or legal)
        if state.phase == "jumping" and rng.random() < 0.05:
            choice = CALL
        state = SINGLES.apply(state, choice)
        moves += 1
    assert SINGLES.legal_events(state) == [] and SINGLES.expected(state) == []
    scores = SINGLES.scores(state)
    assert [s.total for s in scores if s.seat != state.active] == [0] * (seats - 1)
    active = scores[state.active]
    assert active.points == 40 - sum(int(p[1]) for p in state.board if p)
    assert active.total in attainable_totals()
    assert moves >= 1 + 16 + 1
    json.dumps(SINGLES.view(state))


@pytest.mark.parametrize("seed", range(4))
def test_the_legal_jumps_are_exactly_the_jumps_accepted(seed: int) -> None:
    rng = random.Random(seed)
    state = new_game(2)
    while state.phase != "jumping":
        state = SINGLES.apply(state, rng.choice(SINGLES.legal_events(state)))
    for _ in range(seed):
        jumps = [m for m in SINGLES.legal_events(state) if m.type == "pawn.jumped"]
        if jumps:
            state = SINGLES.apply(state, rng.choice(jumps))
    accepted = set()
    for frm in range(1, 17):
        for to in range(1, 17):
            try:
                SINGLES.apply(state, jump(frm, to))
            except IllegalEvent:
                continue
            accepted.add((frm, to))
    listed = {(m.data["from"], m.data["to"]) for m in SINGLES.legal_events(state) if m.data}
    assert accepted == listed


@settings(max_examples=80, deadline=None)
@given(
    setup=st.dictionaries(st.sampled_from(["active", "opponent", "position", "x"]), JSON),
    seats=st.integers(2, 16),
)
def test_any_setup_starts_a_game_or_is_refused_as_a_bad_setup(
    setup: dict[str, Any], seats: int
) -> None:
    try:
        state = SINGLES.initial_state(setup, None, seats)
    except BadSetup as refused:
        json.dumps(refused.data)
    else:
        assert isinstance(state, State)
