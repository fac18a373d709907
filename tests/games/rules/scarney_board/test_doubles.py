"""The Scarney Doubles rule engine: RULES.md 4.2-4.4 and 4.6 (one game of the match)."""

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import registry
from games.rules.base import Move, Rules, fold, make_ruleset
from games.rules.errors import BadRuleset, BadSetup, IllegalEvent
from games.rules.scarney_board.doubles import DOUBLES, Ruleset, State

# Row r holds the r-spot pawns, columns are B R Y G: rows mix colours, columns are one colour.
LAYOUT = {
    (row - 1) * 4 + col + 1: f"{colour}{row}"
    for row in range(1, 5)
    for col, colour in enumerate("BRYG")
}
# Taking off B1 (C1) and Y1 (C4) leaves no jump: C2/C3, C5/C9 and C8/C12 hold one colour each.
BLOCKED = {
    1: "B1", 2: "R3", 3: "R4", 4: "Y1",
    5: "G3", 6: "R1", 7: "R2", 8: "B3",
    9: "G4", 10: "Y2", 11: "Y3", 12: "B4",
    13: "G1", 14: "G2", 15: "Y4", 16: "B2",
}  # fmt: skip
REMOVER = Ruleset(doubles_second_takeoff_credit="remover")
PREMATURE = Ruleset(doubles_allow_premature_call=True)
CALL = Move("game.scarney_called", {})


def new_game(ruleset: Any = None, **setup: Any) -> State:
    return DOUBLES.initial_state(setup, ruleset, 2)


def play(state: State, *moves: Move) -> State:
    for move in moves:
        state = DOUBLES.apply(state, move)
    return state


def placements(layout: dict[int, str], colours: tuple[str, str]) -> list[Move]:
    """The layout placed alternately, the starter's colours first, circle by circle."""
    mine = [(c, p) for c, p in sorted(layout.items()) if p[0] in colours]
    theirs = [(c, p) for c, p in sorted(layout.items()) if p[0] not in colours]
    order = [pair for both in zip(mine, theirs, strict=True) for pair in both]
    return [Move("pawn.placed", {"circle": c, "pawn": p}) for c, p in order]


def placed(layout: dict[int, str] = LAYOUT, ruleset: Any = None, **setup: Any) -> State:
    colours = Move("colours.chosen", {"colours": ["B", "R"]})
    return play(new_game(ruleset, **setup), colours, *placements(layout, ("B", "R")))


def take(circle: int) -> Move:
    return Move("pawn.taken_off", {"circle": circle})


def jump(frm: int, to: int) -> Move:
    return Move("pawn.jumped", {"from": frm, "to": to})


def study(position: dict[str, str], ruleset: Any = None, **setup: Any) -> State:
    return new_game(ruleset, position=position, **setup)


def refusal(state: State, move: Move) -> IllegalEvent:
    with pytest.raises(IllegalEvent) as refused:
        DOUBLES.apply(state, move)
    return refused.value


def totals(state: State) -> list[int]:
    return [score.total for score in DOUBLES.scores(state)]


# --- the engine, its ruleset and its setup ------------------------------------------------------


def test_doubles_is_registered_for_exactly_two_players() -> None:
    assert registry.get("scarney-doubles") is DOUBLES
    assert isinstance(DOUBLES, Rules)
    assert (DOUBLES.min_seats, DOUBLES.max_seats) == (2, 2)
    with pytest.raises(BadSetup) as refused:
        DOUBLES.initial_state({}, None, 3)
    assert refused.value.code == "game.bad_seats"


def test_the_ruleset_holds_the_doubles_house_rules_with_their_defaults() -> None:
    assert make_ruleset(Ruleset, {}) == Ruleset("nonstarter", False, "alternate", "strict")
    variant = {
        "doubles_second_takeoff_credit": "remover",
        "doubles_allow_premature_call": True,
        "doubles_next_starter": "loser",
        "sheet_entry_validation": "lenient",
    }
    assert make_ruleset(Ruleset, variant) == Ruleset("remover", True, "loser", "lenient")
    for bad in [
        {"doubles_second_takeoff_credit": "starter"},
        {"doubles_allow_premature_call": "yes"},
        {"doubles_next_starter": "winner"},
        {"singles_tiebreak_games_count": True},
    ]:
        with pytest.raises(BadRuleset):
            make_ruleset(Ruleset, bad)


@pytest.mark.parametrize(
    ("setup", "code"),
    [
        ({"starter": 2}, "setup.bad_seat"),
        ({"to_move": 0}, "setup.to_move_without_position"),
        ({"position": {"C1": "B1"}, "to_move": 5}, "setup.bad_seat"),
        ({"active": 0}, "setup.unknown_key"),
        ({"position": {"C1": "Q1"}}, "setup.unknown_pawn"),
    ],
)
def test_a_bad_setup_is_refused(setup: dict[str, Any], code: str) -> None:
    with pytest.raises(BadSetup) as refused:
        new_game(**setup)
    assert refused.value.code == code


def test_the_starter_chooses_the_colours_and_places_first_the_nonstarter_second() -> None:
    state = new_game(starter=1)
    assert (state.starter, state.nonstarter) == (1, 0)
    assert DOUBLES.view(state)["roles"] == {"starter": 1, "nonstarter": 0}
    assert DOUBLES.current_player(state) == 1
    assert DOUBLES.expected(state) == ["colours.chosen"]
    assert len(DOUBLES.legal_events(state)) == 6
    state = play(state, Move("colours.chosen", {"colours": ["B", "R"]}))
    turns = []
    for move in placements(LAYOUT, ("B", "R")):
        turns.append(DOUBLES.current_player(state))
        assert move in DOUBLES.legal_events(state)
        state = DOUBLES.apply(state, move)
    assert turns == [1, 0] * 8
    assert state.phase == "takeoff_1"


def test_a_placement_of_the_side_not_on_turn_is_refused() -> None:
    state = play(new_game(), Move("colours.chosen", {"colours": ["B", "R"]}))
    assert refusal(state, Move("pawn.placed", {"circle": 1, "pawn": "G1"})).code == (
        "place.not_your_pawn"
    )
    assert refusal(state, take(1)).code == "place.required"
    assert refusal(new_game(), jump(1, 3)).code == "colours.required"


# --- the two take-offs (RULES.md 4.3, D-DBL-1) --------------------------------------------------


def test_the_nonstarter_takes_off_first_and_is_credited_with_it() -> None:
    state = placed()
    assert DOUBLES.current_player(state) == 1
    assert DOUBLES.expected(state) == ["pawn.taken_off"]
    assert DOUBLES.legal_events(state) == [take(c) for c in range(1, 9)]
    state = play(state, take(6))  # R2
    assert state.phase == "takeoff_2"
    assert DOUBLES.current_player(state) == 0
    assert DOUBLES.view(state)["credited"] == [[], ["R2"]]
    assert totals(state) == [0, 2]


def test_the_starters_take_off_is_credited_to_the_nonstarter_as_printed() -> None:
    state = play(placed(), take(6), take(3))  # R2, then Y1
    assert state.phase == "jumping"
    assert DOUBLES.view(state)["credited"] == [[], ["R2", "Y1"]]
    assert DOUBLES.view(state)["taken_off"] == ["R2", "Y1"]
    assert totals(state) == [0, 3]


def test_with_the_remover_variant_the_starter_is_credited_with_his_take_off() -> None:
    state = play(placed(ruleset=REMOVER), take(6), take(3))
    assert DOUBLES.view(state)["credited"] == [["Y1"], ["R2"]]
    assert totals(state) == [1, 2]


def test_take_offs_must_be_low_pawns_and_come_before_any_jump() -> None:
    state = placed()
    high = refusal(state, take(9))
    assert high.code == "takeoff.not_low_pawn"
    assert high.message.startswith("B3 on C9 cannot be taken off")
    assert refusal(state, jump(3, 1)).code == "takeoff.required"
    second = play(state, take(6))
    empty = refusal(second, take(6))
    assert (empty.code, empty.message) == (
        "takeoff.empty_circle",
        "There is no pawn on C6 to take off.",
    )
    assert refusal(second, jump(8, 6)).code == "takeoff.required"


def test_there_are_exactly_two_take_offs() -> None:
    state = play(placed(), take(6), take(3))
    error = refusal(state, take(5))
    assert error.code == "takeoff.already_made"
    assert error.message == "The take-off is made (R2, Y1); no more pawns are taken off."


# --- jumps, captures and the sweep --------------------------------------------------------------


def test_the_nonstarter_jumps_first_then_the_players_alternate_each_credited_his_captures() -> None:
    state = play(placed(), take(6), take(3))  # R2 and Y1 off
    assert DOUBLES.current_player(state) == 1
    assert DOUBLES.legal_events(state) == [jump(1, 3), jump(8, 6)]
    state = play(state, jump(8, 6))  # G2 jumps Y2, credited to the nonstarter
    assert DOUBLES.current_player(state) == 0
    assert DOUBLES.view(state)["credited"] == [[], ["R2", "Y1", "Y2"]]
    state = play(state, jump(1, 3))  # B1 jumps R1, credited to the starter
    assert DOUBLES.current_player(state) == 1
    assert DOUBLES.view(state)["credited"] == [["R1"], ["R2", "Y1", "Y2"]]
    assert totals(state) == [1, 5]


def test_either_player_may_jump_with_any_pawn() -> None:
    # G3 and R1 have no owner: seat 1 jumps with G3, then seat 0 with R1.
    state = study({"C1": "G3", "C2": "B4", "C4": "R1"})
    assert DOUBLES.current_player(state) == 1  # the nonstarter moves first
    state = play(state, jump(1, 3))
    assert DOUBLES.legal_events(state) == [jump(4, 2)]
    over = play(state, jump(4, 2))
    assert over.phase == "over"
    assert DOUBLES.view(over)["credited"] == [["G3", "R1"], ["B4"]]
    assert DOUBLES.view(over)["sweep"] == {"seat": 0, "pawns": ["R1"]}
    assert totals(over) == [4, 4]
    result = DOUBLES.result(over)
    assert result is not None and result.winners == (0, 1)


def test_the_last_jumper_sweeps_every_pawn_left_on_the_board() -> None:
    state = study({"C1": "G3", "C2": "B4", "C8": "R1", "C16": "Y4"}, starter=1)
    assert DOUBLES.current_player(state) == 0  # the nonstarter, seat 0
    over = play(state, jump(1, 3))
    assert over.phase == "over" and DOUBLES.is_terminal(over)
    assert DOUBLES.view(over)["sweep"] == {"seat": 0, "pawns": ["G3", "R1", "Y4"]}
    assert totals(over) == [4 + 3 + 1 + 4, 0]
    assert DOUBLES.result(over).winners == (0,)  # type: ignore[union-attr]
    assert DOUBLES.legal_events(over) == [] and DOUBLES.expected(over) == []
    assert DOUBLES.current_player(over) is None
    assert refusal(over, jump(3, 1)).code == "game.over"


def test_when_nobody_can_jump_after_the_take_offs_the_starter_sweeps() -> None:
    state = play(placed(BLOCKED), take(1), take(4))  # B1 by the nonstarter, Y1 by the starter
    assert state.phase == "over"  # D-DBL-3
    assert DOUBLES.view(state)["sweep"]["seat"] == 0
    assert totals(state) == [38, 2]
    assert sum(totals(state)) == 40
    remover = play(placed(BLOCKED, REMOVER), take(1), take(4))
    assert totals(remover) == [39, 1]


def test_a_study_position_without_a_jump_is_swept_by_the_player_who_moved_last() -> None:
    state = study({"C1": "B1", "C16": "R4"}, to_move=0)
    assert state.phase == "over"
    assert DOUBLES.view(state)["sweep"] == {"seat": 1, "pawns": ["B1", "R4"]}
    assert totals(state) == [0, 5]


def test_a_study_position_starts_with_jumps_and_no_take_off() -> None:
    state = study({"C1": "G3", "C2": "B4", "C8": "R1"}, to_move=0)
    assert state.phase == "jumping" and state.study
    assert DOUBLES.current_player(state) == 0
    assert totals(state) == [0, 0]
    error = refusal(state, take(8))
    assert error.code == "takeoff.already_made"
    assert "study position" in error.message


# --- the Scarney call (D-DBL-2) -----------------------------------------------------------------


def test_scarney_cannot_be_called_while_a_jump_exists() -> None:
    state = play(placed(), take(6), take(3))
    assert DOUBLES.expected(state) == ["pawn.jumped"]
    assert CALL not in DOUBLES.legal_events(state)
    error = refusal(play(state, jump(8, 6)), CALL)
    assert error.code == "game.scarney_not_due"
    assert error.message == (
        "Scarney cannot be called now: jumps remain (B1 on C1 can still jump R1 on C2 to "
        "C3); the game ends only when none is left "
        "(house rule doubles_allow_premature_call is off)."
    )


@pytest.mark.parametrize("ruleset", [None, PREMATURE])
def test_scarney_cannot_be_called_before_both_take_offs(ruleset: Any) -> None:
    for state in [new_game(ruleset), placed(ruleset=ruleset), play(placed(), take(6))]:
        assert refusal(state, CALL).code == "game.scarney_not_due"


def test_with_the_house_rule_the_player_who_just_jumped_may_call_and_sweep() -> None:
    state = play(placed(ruleset=PREMATURE), take(6), take(3))
    error = refusal(state, CALL)  # nobody has jumped yet
    assert error.code == "game.scarney_not_due"
    assert "nobody has" in error.message
    state = play(state, jump(8, 6))
    assert DOUBLES.expected(state) == ["pawn.jumped", "game.scarney_called"]
    assert CALL in DOUBLES.legal_events(state)
    over = play(state, CALL)
    assert over.phase == "over"
    assert DOUBLES.view(over)["sweep"]["seat"] == 1  # the nonstarter jumped last
    assert totals(over) == [0, 40]


# --- the scores total 40 -------------------------------------------------------------------------


def test_a_jumped_game_shares_out_exactly_forty() -> None:
    state = play(placed(), take(6), take(3), jump(8, 6))
    # 40 = R2 + Y1 + Y2 credited so far, plus the 35 spots the last jumper will sweep.
    assert totals(state) == [0, 5]
    while not DOUBLES.is_terminal(state):
        state = play(state, DOUBLES.legal_events(state)[0])
    assert sum(totals(state)) == 40


# --- malformed events, undo, the match report ---------------------------------------------------


def test_an_event_the_game_does_not_know_is_refused() -> None:
    error = refusal(placed(), Move("pawns.removed", {"circles": [1]}))
    assert error.code == "event.unknown_type"


def test_malformed_jump_data_is_refused() -> None:
    state = play(placed(), take(6), take(3))
    for data in [{"from": 8}, {"from": [8], "to": 6}, {"from": 8, "to": 6, "over": 1.5}]:
        assert refusal(state, Move("pawn.jumped", data)).code == "event.bad_data"


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
KEYS = st.sampled_from(["circle", "pawn", "colours", "from", "to", "over"])
TYPES = ["colours.chosen", "pawn.placed", "pawn.taken_off", "pawn.jumped", "game.scarney_called"]


@settings(max_examples=60, deadline=None)
@given(
    kind=st.sampled_from(TYPES),
    data=st.one_of(JSON, st.dictionaries(KEYS, JSON, max_size=3)),
    phase=st.integers(0, 4),
)
def test_malformed_data_of_any_shape_is_refused_never_crashes(
    kind: str, data: Any, phase: int
) -> None:
    states = [new_game(PREMATURE), placed(ruleset=PREMATURE)]
    states += [play(states[1], take(6)), play(states[1], take(6), take(3))]
    states.append(play(states[3], jump(8, 6)))
    try:
        after = DOUBLES.apply(states[phase], Move(kind, data))
    except IllegalEvent as refused:
        json.dumps(refused.data)
    else:
        assert isinstance(after, State)


def test_a_take_back_restores_the_exact_prior_state() -> None:
    start = new_game()
    colours = Move("colours.chosen", {"colours": ["B", "R"]})
    moves = [colours, *placements(LAYOUT, ("B", "R")), take(6), take(3)]
    before = fold(DOUBLES, start, moves)
    assert fold(DOUBLES, start, [*moves, jump(8, 6), Move("move.undone", {})]) == before
    assert fold(DOUBLES, start, [*moves[:-1], Move("move.undone", {})]) == fold(
        DOUBLES, start, moves[:-2]
    )


def test_the_match_report_names_the_starter() -> None:
    over = play(placed(BLOCKED, starter=1), take(1), take(4))
    assert over.phase == "over"
    assert DOUBLES.match_report(over) == {"starter": 1}
    assert totals(over) == [2, 38]


# --- seeded random legal play: every game totals 40 ---------------------------------------------


@pytest.mark.parametrize("seed", range(60))
def test_random_legal_games_always_total_forty(seed: int) -> None:
    rng = random.Random(seed)
    ruleset = Ruleset(
        doubles_second_takeoff_credit=rng.choice(["nonstarter", "remover"]),
        doubles_allow_premature_call=rng.random() < 0.3,
    )
    state = new_game(ruleset, starter=rng.randrange(2))
    jumpers = []
    while not DOUBLES.is_terminal(state):
        legal = DOUBLES.legal_events(state)
        assert legal, state.phase
        move = rng.choice(legal)
        if move.type == "pawn.jumped":
            jumpers.append(DOUBLES.current_player(state))
        state = DOUBLES.apply(state, move)
        if state.phase not in ("colours", "placing"):
            # Every pawn is on the board or credited (the sweep is both, so it counts once).
            on_board = sum(int(p[1]) for p in state.board if p)
            assert sum(totals(state)) + on_board - sum(int(p[1]) for p in state.sweep) == 40
    assert sum(totals(state)) == 40
    assert jumpers == [state.nonstarter, state.starter] * (len(jumpers) // 2) + (
        [state.nonstarter] if len(jumpers) % 2 else []
    )
    expected_sweeper = jumpers[-1] if jumpers else state.starter
    assert state.sweeper == expected_sweeper
    assert DOUBLES.legal_events(state) == [] and DOUBLES.expected(state) == []
    json.dumps(DOUBLES.view(state))


@pytest.mark.parametrize("seed", range(4))
def test_the_legal_take_offs_and_jumps_are_exactly_those_accepted(seed: int) -> None:
    rng = random.Random(seed)
    state = new_game(PREMATURE)
    while state.phase in ("colours", "placing"):
        state = DOUBLES.apply(state, rng.choice(DOUBLES.legal_events(state)))
    for _ in range(seed):
        if not DOUBLES.is_terminal(state):
            legal = [m for m in DOUBLES.legal_events(state) if m.type != "game.scarney_called"]
            state = DOUBLES.apply(state, rng.choice(legal))
    candidates = [take(c) for c in range(1, 17)] + [
        jump(f, t) for f in range(1, 17) for t in range(1, 17)
    ]
    candidates.append(CALL)
    accepted = []
    for move in candidates:
        try:
            DOUBLES.apply(state, move)
        except IllegalEvent:
            continue
        accepted.append(move)
    assert sorted(map(repr, accepted)) == sorted(map(repr, DOUBLES.legal_events(state)))


@settings(max_examples=80, deadline=None)
@given(setup=st.dictionaries(st.sampled_from(["starter", "to_move", "position", "x"]), JSON))
def test_any_setup_starts_a_game_or_is_refused_as_a_bad_setup(setup: dict[str, Any]) -> None:
    try:
        state = DOUBLES.initial_state(setup, None, 2)
    except BadSetup as refused:
        json.dumps(refused.data)
    else:
        assert isinstance(state, State)
