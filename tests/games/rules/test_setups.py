"""Setups and counted house rules are checked once, by the shared start (games.rules.base), from
what each game declares: its ``setup_shape`` (and ``setup_words``), its ruleset's ``POSITIVE``.
The refusals read as each game has always worded them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from games.rules import registry
from games.rules.base import GameRules
from games.rules.dice_games.boston import BostonRules
from games.rules.dice_games.hearts_due import HeartsDueRules
from games.rules.errors import BadRuleset, BadSetup
from games.rules.tarot.courtship import CourtshipRules
from games.rules.tarot.last_laugh import LastLaughRules
from games.rules.tarot.tontine import TontineRules

RULES = Path(__file__).resolve().parents[3] / "games" / "rules"
REQUIRED = {"tontine": {"base_game": "scarto"}, "last-laugh": {"base_game": "scarto"}}
REQUIRED["courtship-rules"] = REQUIRED["tontine"]

# Each game's refusal of the setup keys "aa" and "zz", as its own start has always worded it.
TAKES_TWO = {
    "double-cameroon": ("Double Cameroon takes no setup.", False),
    "going-to-boston": (
        "The setup takes only 'first_player' and 'carried'; aa, zz is unknown.",
        True,
    ),
    "hearts-due": ("Hearts Due takes no setup.", False),
    "high-low-scarney": (
        "High-Low Scarney's setup takes only position, starter, to_move; aa, zz are unknown.",
        True,
    ),
    "scarney-3000": (
        "Scarney 3000's setup takes only first_shooter, seating_throws; aa, zz is unknown.",
        True,
    ),
    "scarney-put-and-take": ("Put-and-Take takes no setup; aa, zz is unknown.", False),
    "scarney-solitaire": (
        "Scarney Solitaire's setup takes only 'position'; aa, zz is unknown.",
        True,
    ),
    "scarnie": (
        "Scarnie's setup takes colours, deal, dealer, scores_before, teams; aa, zz is unknown.",
        True,
    ),
    "straight-scarney-dice": (
        "Straight Scarney Dice's setup takes first_shooter, seating_throws; aa, zz is unknown.",
        True,
    ),
    "tontine": ("Tontine's setup takes only leader; aa, zz are unknown.", True),
    "manchester-truffle": (
        "Manchester Truffle's setup takes only dealer; aa, zz are unknown.",
        True,
    ),
}


def seats_of(rules: Any) -> int:
    return 4 if rules.kind.startswith("partnership") else rules.min_seats


def test_no_family_checks_its_setup_keys_or_a_counted_house_rule_itself() -> None:
    # given every module of every family
    modules = [path for path in RULES.glob("*/**/*.py")]
    # then none refuses an unknown setup key, a setup that is not an object, or a house rule
    # that is not a positive whole number: the shared start does, from the declarations
    checking = {
        str(path.relative_to(RULES))
        for path in modules
        for text in [path.read_text()]
        if "setup.unknown_key" in text
        or "setup.not_an_object" in text
        or "positive whole number" in text
    }
    assert not checking


@pytest.mark.parametrize("kind", registry.kinds())
def test_every_game_refuses_a_setup_key_it_does_not_declare(kind: str) -> None:
    rules = registry.get(kind)
    assert isinstance(rules, GameRules)
    with pytest.raises(BadSetup) as refused:
        rules.initial_state({"zz": 1}, REQUIRED.get(kind, {}), seats_of(rules))
    assert refused.value.code == "setup.unknown_key"
    with pytest.raises(BadSetup) as refused:
        rules.initial_state(["zz"], REQUIRED.get(kind, {}), seats_of(rules))  # type: ignore[arg-type]
    assert refused.value.code == "setup.not_an_object"


@pytest.mark.parametrize("kind", sorted(TAKES_TWO))
def test_an_unknown_setup_key_is_refused_in_the_games_own_words(kind: str) -> None:
    rules = registry.get(kind)
    sentence, names_keys = TAKES_TWO[kind]
    with pytest.raises(BadSetup) as refused:
        rules.initial_state({"zz": 1, "aa": 2}, REQUIRED.get(kind, {}), seats_of(rules))
    assert refused.value.message == sentence
    assert refused.value.data == ({"keys": ["aa", "zz"]} if names_keys else {})


@pytest.mark.parametrize("kind", registry.kinds())
def test_a_bad_seat_count_is_refused_before_an_unknown_setup_key(kind: str) -> None:
    rules = registry.get(kind)
    with pytest.raises(BadSetup) as refused:
        rules.initial_state({"zz": 1}, REQUIRED.get(kind, {}), 99)
    assert refused.value.code == "game.bad_seats"


COUNTED = [
    ("going-to-boston", "ante_chips", "a positive whole number"),
    ("hearts-due", "hearts_due_target", "a positive whole number"),
    ("scarney-3000", "s3000_target", "a positive whole number"),
    ("straight-scarney-dice", "ante_chips", "a positive whole number of chips"),
    ("partnership-straight-scarney-dice", "ante_chips", "a positive whole number of chips"),
    ("scarney-put-and-take", "ante_chips", "a positive whole number of chips"),
]


@pytest.mark.parametrize(("kind", "name", "wanted"), COUNTED)
@pytest.mark.parametrize("value", [0, -1, "3", True, 2.5, None])
def test_a_counted_house_rule_is_a_positive_whole_number_of_game_and_match(
    kind: str, name: str, wanted: str, value: Any
) -> None:
    rules, match = registry.get(kind), registry.match_rules(kind)
    sentence = f"House rule {name!r} must be {wanted}, not {value!r}."
    with pytest.raises(BadRuleset) as refused:
        rules.initial_state({}, {name: value}, seats_of(rules))
    assert (refused.value.message, refused.value.data) == (sentence, {"parameter": name})
    with pytest.raises(BadRuleset) as refused:
        match.initial_state({name: value}, seats_of(rules))
    assert (refused.value.message, refused.value.data) == (sentence, {"parameter": name})


def test_a_session_may_leave_its_rounds_unset_but_not_at_zero() -> None:
    match = registry.match_rules("going-to-boston")
    assert match.initial_state({"session_rounds": None}, 3).ruleset.session_rounds is None
    with pytest.raises(BadRuleset, match="'session_rounds' must be a positive whole number"):
        match.initial_state({"session_rounds": 0}, 3)


@pytest.mark.parametrize(
    ("engine", "shared"),
    [
        (BostonRules, ("expected", "legal_events", "current_player", "is_terminal", "result")),
        (HeartsDueRules, ("expected", "legal_events", "current_player", "is_terminal", "result")),
        (CourtshipRules, ("start", "current_player", "is_terminal", "scores", "result", "view")),
        (LastLaughRules, ("start", "is_terminal", "scores", "result", "view")),
        (TontineRules, ("start", "current_player", "is_terminal", "view")),
    ],
)
def test_the_engine_methods_a_family_shares_are_written_once(
    engine: type[Any], shared: tuple[str, ...]
) -> None:
    # the family's shared base writes them; the engine itself does not
    assert not set(shared) & set(vars(engine))


@pytest.mark.parametrize("kind", ["tontine", "last-laugh", "courtship-rules", "manchester-truffle"])
def test_a_stream_recorded_with_a_key_its_card_game_ignored_then_still_folds(kind: str) -> None:
    # given a game.started header with a setup key the card games took and ignored before the
    # shared check refused unknown keys at the start
    from games.store.folding.engines import GameEngine

    rules = registry.get(kind)
    header = {"setup": {"zz": 1}, "ruleset": REQUIRED.get(kind, {}), "seats": [0] * seats_of(rules)}
    # when the store folds it, then it starts as it was played: the unknown key left out
    assert GameEngine(kind).start(header) == rules.initial_state(
        {}, _ruleset(rules, kind), len(header["seats"])
    )


def _ruleset(rules: Any, kind: str) -> Any:
    from games.rules.base import make_ruleset

    return make_ruleset(rules.ruleset_type, REQUIRED.get(kind))
