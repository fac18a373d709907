"""Every rule engine answers any event, however malformed, with a state or a RuleError.

The API turns anything else into a 500, so this holds for every registered game kind: random
sequences of plausible and implausible events (throws of any faces and any number of dice, pawns
and circles, cards, groups, JSON of any shape) are applied from the start; an accepted event
moves the game on, a refused one must be an IllegalEvent with a dotted code and a sentence, and
every state reached must answer every query of the Rules protocol.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import registry
from games.rules.base import Move, make_ruleset
from games.rules.errors import IllegalEvent, RuleError

CODE = re.compile(r"^[a-z0-9_]+(\.[a-z0-9_]+)+$")
DOCUMENTED = (Path(__file__).parents[3] / "docs" / "ERRORS.md").read_text()


SEAT_NUMBER = re.compile(r"\bseats?(\(s\))? \[?-?\d", re.IGNORECASE)
MARKERS = re.compile("[\ue000\ue001]")
# A seat the table has not got is named by the number sent: nobody sits there to be named.
NAMES_NO_PLAYER = {"seat.unknown"}


def assert_well_formed(refusal: RuleError, seats: int) -> None:
    """A dotted code that docs/ERRORS.md lists, and a sentence; worded with the table's labels
    (as every face words it, games.play.refusals) it names players, never "seat 2", and no
    marker of a seat is left in it."""
    assert CODE.match(refusal.code), refusal.code
    assert f"`{refusal.code}`" in DOCUMENTED, f"{refusal.code} is not in docs/ERRORS.md"
    assert refusal.message.strip(), refusal.code
    assert not MARKERS.search(refusal.message), refusal.message
    worded = refusal.sentence({seat: f"Player {chr(65 + seat)}" for seat in range(seats)})
    assert not MARKERS.search(worded), worded
    if refusal.code not in NAMES_NO_PLAYER:
        assert not SEAT_NUMBER.search(worded), (refusal.code, worded)


TYPES = [
    "board.laid_out",
    "pawn.placed",
    "pawn.taken_off",
    "pawn.jumped",
    "pawns.removed",
    "pawns.dealt",
    "game.scarney_called",
    "colours.chosen",
    "order.drawn",
    "dice.thrown",
    "shooter.stood",
    "double_down.called",
    "dice.grouped",
    "dice.kept",
    "cards.dealt",
    "card.played",
    "cards.discarded",
    "hand.claimed",
    "round.started",
    "game.finished",
]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 20),
    st.sampled_from(["C7", "B4", "D", "6", "x"]),
    st.text(max_size=4),
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
faces = st.lists(st.sampled_from(["1", "2", "3", "4", "5", "6", "D", "7", ""]), max_size=11)
circles = st.integers(0, 17) | st.sampled_from(["C1", "C16", "C0", "c5"])
pawns = st.sampled_from([c + s for c in "BRYG" for s in "1234"] + ["X9", ""])
plausible = st.fixed_dictionaries(
    {},
    optional={
        "faces": faces,
        "opposite": st.booleans(),
        "circle": circles,
        "pawn": pawns,
        "from": circles,
        "to": circles,
        "over": circles,
        "circles": st.lists(circles, max_size=4),
        "colours": st.lists(st.sampled_from(list("BRYGX")), max_size=3),
        "station": st.integers(-1, 9),
        "positions": st.lists(st.integers(-1, 9), max_size=4),
        "seat": st.integers(-1, 5),
        "card": st.text(max_size=4),
        "cards": st.lists(st.text(max_size=4), max_size=4),
        "groups": json_values,
        "draws": json_values,
        "position": json_values,
        "dice": json_values,
    },
)
moves = st.lists(
    st.tuples(
        st.sampled_from(TYPES) | st.text(max_size=12),
        plausible | st.dictionaries(st.text(max_size=8), json_values, max_size=3),
    ),
    max_size=40,
)


def start(kind: str) -> tuple[Any, Any]:
    rules = registry.get(kind)
    ruleset = make_ruleset(rules.ruleset_type, REQUIRED_RULESET.get(kind, {}))
    return rules, rules.initial_state({}, ruleset, rules.min_seats)


# Rulesets a game cannot start without (a tarot module needs its base game, D-TAR-3).
REQUIRED_RULESET: dict[str, dict[str, Any]] = {
    "tontine": {"base_game": "scarto"},
    "last-laugh": {"base_game": "scarto"},
    "courtship-rules": {"base_game": "scarto"},
}


def answers_every_query(rules: Any, state: Any) -> None:
    rules.expected(state)
    rules.legal_events(state)
    rules.current_player(state)
    rules.scores(state)
    rules.view(state)
    if rules.is_terminal(state):
        assert rules.result(state) is not None


@pytest.mark.parametrize("kind", registry.kinds())
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(sequence=moves)
def test_any_event_gets_a_state_or_a_refusal_with_a_code(
    kind: str, sequence: list[tuple[str, Any]]
) -> None:
    rules, state = start(kind)
    for type, data in sequence:
        try:
            state = rules.apply(state, Move(type, data))
        except RuleError as refusal:
            assert isinstance(refusal, IllegalEvent), refusal
            assert_well_formed(refusal, rules.min_seats)
            continue
        answers_every_query(rules, state)


@pytest.mark.parametrize("kind", registry.kinds())
def test_every_game_follows_its_own_legal_events_to_the_end_or_a_throw(kind: str) -> None:
    # Where a game lists its legal events, each of them must be accepted.
    rules, state = start(kind)
    for _ in range(200):
        legal = rules.legal_events(state)
        if not legal:
            break
        for move in legal[:30]:
            rules.apply(state, move)
        state = rules.apply(state, legal[len(legal) // 2])


setups = st.fixed_dictionaries(
    {},
    optional={
        key: json_values | st.integers(-2, 17)
        for key in ("position", "active", "opponent", "starter", "to_move", "teams", "dealer")
    },
) | st.dictionaries(st.text(max_size=8), json_values, max_size=3)


@pytest.mark.parametrize("kind", registry.kinds())
@settings(max_examples=60, deadline=None)
@given(setup=setups, seats=st.integers(0, 17))
def test_any_setup_starts_a_game_or_is_refused_with_a_code(
    kind: str, setup: dict[str, Any], seats: int
) -> None:
    rules = registry.get(kind)
    ruleset = make_ruleset(rules.ruleset_type, REQUIRED_RULESET.get(kind, {}))
    # The service refuses a seat count out of range before the rules see it.
    seats = rules.min_seats + seats % (rules.max_seats - rules.min_seats + 1)
    try:
        state = rules.initial_state(setup, ruleset, seats)
    except RuleError as refusal:
        assert_well_formed(refusal, seats)
        return
    answers_every_query(rules, state)


@pytest.mark.parametrize("kind", registry.kinds())
@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_any_house_rule_value_is_taken_or_refused_with_a_code(kind: str, data: Any) -> None:
    rules = registry.get(kind)
    names = sorted(f.name for f in dataclasses.fields(rules.ruleset_type))
    overrides = data.draw(
        st.dictionaries(st.sampled_from(names) | st.text(max_size=6), json_values, max_size=3)
    )
    try:
        ruleset = make_ruleset(rules.ruleset_type, {**REQUIRED_RULESET.get(kind, {}), **overrides})
        state = rules.initial_state({}, ruleset, rules.min_seats)
    except RuleError as refusal:
        assert_well_formed(refusal, rules.min_seats)
        return
    answers_every_query(rules, state)
    for type, move_data in data.draw(moves):
        try:
            state = rules.apply(state, Move(type, move_data))
        except RuleError as refusal:
            assert_well_formed(refusal, rules.min_seats)
            continue
        answers_every_query(rules, state)


match_moves = st.lists(
    st.tuples(
        st.sampled_from(["game.scored", "game.finished", "match.settled", "order.drawn"])
        | st.sampled_from(["dealer.drawn", "match.ended"]),
        st.fixed_dictionaries(
            {},
            optional={
                "scores": st.lists(st.integers(-5, 400), max_size=5) | json_values,
                "cumulative": st.lists(st.integers(0, 400), max_size=5),
                "game": st.uuids().map(str) | json_values,
                "winners": st.lists(st.integers(-1, 5), max_size=3) | json_values,
                "frames": json_values,
                "turns": json_values,
                "draws": json_values,
                "pawns": json_values,
                "report": json_values,
            },
        ),
    ),
    max_size=12,
)


@pytest.mark.parametrize("format", registry.formats())
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_any_match_setup_and_entry_gets_a_state_or_a_refusal(format: str, data: Any) -> None:
    rules = registry.match_rules(format)
    seats = data.draw(st.integers(rules.min_seats, min(rules.max_seats, 6)))
    teams = data.draw(st.none() | json_values)
    lenient = data.draw(st.booleans())
    overrides = {**REQUIRED_RULESET.get(format, {})}
    if lenient:
        overrides["sheet_entry_validation"] = "lenient"
    try:
        state = rules.initial_state(make_ruleset(rules.ruleset_type, overrides), seats, teams)
    except RuleError as refusal:
        assert_well_formed(refusal, seats)
        return
    for type, move_data in data.draw(match_moves):
        try:
            state = rules.apply(state, Move(type, move_data))
        except RuleError as refusal:
            assert_well_formed(refusal, seats)
            continue
        rules.standing(state)
        rules.games(state)
        rules.warnings(state)
        rules.next_game_number(state)
        if rules.next_game_number(state) is not None:
            try:
                rules.next_game_setup(state)
            except RuleError as refusal:
                assert_well_formed(refusal, seats)
        rules.closing_event(state)
