"""The 78-card tarot pack, its notation and card points (RULES.md 16.1-16.3), and the trick rules
shared by the tarot games: following, trumping, overtrumping, the winner; and, for every tarot
engine, malformed data refused and JSON views."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.base import Move
from games.rules.errors import BadRuleset, BadSetup, IllegalEvent
from games.rules.tarot import cards
from games.rules.tarot.cards import FOOL, PACK
from games.rules.tarot.courtship import COURTSHIP_RULES
from games.rules.tarot.last_laugh import LAST_LAUGH_RULES
from games.rules.tarot.manchester.game import PICCADILLY_RULES, TRUFFLE_RULES
from games.rules.tarot.tontine import TONTINE_RULES


def refused(fn: Any, *args: Any) -> IllegalEvent:
    with pytest.raises(IllegalEvent) as caught:
        fn(*args)
    return caught.value


def test_the_pack_has_78_distinct_cards_in_three_parts() -> None:
    assert len(PACK) == len(set(PACK)) == 78
    assert len(cards.SUIT_CARDS) == 56 and len(cards.TRUMPS) == 21
    assert cards.TRUMPS[0] == "T1" and cards.TRUMPS[-1] == "T21"
    assert {"Ks", "Cc", "10d", "Ab", "T1", "T21", "FOOL"} <= set(PACK)
    assert "GOOD" not in PACK and len(cards.CONFERENCE_PACK) == 80


def test_card_points_follow_the_manchester_table_and_total_146() -> None:
    by_kind = Counter()
    for card in PACK:
        if card in cards.HONOURS:
            by_kind["honours"] += cards.points(card)
        elif card in cards.SUIT_CARDS and cards.rank_of(card) in ("K", "Q", "C", "J", "A"):
            by_kind[cards.rank_of(card)] += cards.points(card)
        else:
            by_kind["others"] += cards.points(card)
    assert by_kind == {"honours": 15, "K": 20, "Q": 16, "C": 12, "J": 8, "A": 20, "others": 55}
    assert cards.points_of(PACK) == cards.PACK_POINTS == 146


def test_empty_cards_are_the_55_pips_and_middle_trumps_worth_one() -> None:
    empty = [c for c in PACK if cards.is_empty(c)]
    assert len(empty) == 55
    assert "2s" in empty and "10d" in empty and "T2" in empty and "T20" in empty
    assert not any(cards.is_empty(c) for c in ("As", "Jb", "T1", "T21", FOOL))


def test_rational_ranking_runs_king_to_ace_and_trumps_by_number() -> None:
    suit = ["Ks", "Qs", "Cs", "Js", "10s", "9s", "8s", "7s", "6s", "5s", "4s", "3s", "2s", "As"]
    assert sorted(suit, key=cards.strength, reverse=True) == suit
    assert cards.strength("T21") > cards.strength("T20") > cards.strength("T1")
    assert cards.strength(FOOL) == 0


def test_magician_and_world_are_trumps_one_and_twenty_one_d_tar_1() -> None:
    assert cards.MAGICIAN == "T1" and cards.WORLD == "T21"
    assert cards.is_trump("T1") and cards.is_trump("T21") and not cards.is_trump(FOOL)
    assert cards.name("T21") == "T21 (The World)" and cards.name("T1") == "T1 (The Magician)"


def test_suit_labels_are_the_services_own_d_tar_2() -> None:
    assert cards.SUITS == ("s", "b", "c", "d")
    assert cards.name("Cc") == "Cc (Cavalier of c)"
    assert (
        cards.suit_of("10d") == "d" and cards.suit_of("T5") == "T" and cards.suit_of(FOOL) is None
    )


def test_reading_cards_refuses_clearly() -> None:
    assert cards.read_card(" Ks ", "card") == "Ks"
    assert cards.read_card("fool", "card") == FOOL
    assert refused(cards.read_card, 7, "card").code == "event.bad_data"
    unknown = refused(cards.read_card, "Xs", "card")
    assert unknown.code == "card.unknown" and "'Xs'" in unknown.message
    assert refused(cards.read_card, "T22", "card").code == "card.unknown"
    assert refused(cards.read_card, "GOOD", "card").code == "card.unknown"
    assert cards.read_card("GOOD", "card", cards.CONFERENCE_PACK) == "GOOD"
    assert refused(cards.read_cards, "Ks", "cards").code == "event.bad_data"
    duplicate = refused(cards.read_cards, ["Ks", "Qs", "Ks"], "cards")
    assert duplicate.code == "card.duplicate" and "Ks (King of s)" in duplicate.message


def test_a_card_of_the_suit_led_must_follow() -> None:
    hand = ["Ks", "2b", "T4"]
    assert cards.follow_refusal(hand, ["5s"], "2b").code == "play.must_follow"  # type: ignore[union-attr]
    assert cards.follow_refusal(hand, ["5s"], "Ks") is None
    assert cards.legal_cards(hand, ["5s"]) == ["Ks"]


def test_without_the_suit_a_trump_must_be_played() -> None:
    refusal = cards.follow_refusal(["2b", "T4"], ["5s"], "2b")
    assert refusal is not None and refusal.code == "play.must_trump"
    assert cards.legal_cards(["2b", "3c"], ["5s"]) == ["2b", "3c"]  # neither: any card


def test_a_higher_trump_must_be_played_over_a_trump_lead_or_ruff_d_mp_5() -> None:
    hand = ["T2", "T9", "4c"]
    refusal = cards.follow_refusal(hand, ["T5"], "T2")
    assert refusal is not None and refusal.code == "play.must_overtrump"
    assert cards.legal_cards(hand, ["T5"]) == ["T9"]
    assert cards.legal_cards(hand, ["5s", "T7"]) == ["T9"]  # a ruff already in the trick
    assert cards.legal_cards(hand, ["5s", "T12"]) == ["T2", "T9"]  # none higher: any trump


def test_the_fool_may_always_be_played_and_never_wins() -> None:
    assert cards.follow_refusal(["Ks", FOOL], ["5s"], FOOL) is None
    assert cards.winning_index([FOOL, "2b"]) == 1
    assert cards.winning_index(["Qs", FOOL]) == 0


def test_a_fool_lead_lets_the_next_card_set_the_suit() -> None:
    assert cards.suit_led([FOOL, "4d"]) == "d"
    assert cards.legal_cards(["5d", "Kb"], [FOOL, "4d"]) == ["5d"]
    assert cards.winning_index([FOOL, "4d", "Kd", "Kb"]) == 2


def test_the_highest_trump_wins_else_the_highest_card_of_the_suit_led() -> None:
    assert cards.winning_index(["Ks", "T1"]) == 1
    assert cards.winning_index(["2s", "T3", "T20", "Ks"]) == 2
    assert cards.winning_index(["2s", "Kb", "As", "3s"]) == 3
    assert cards.winning_index(["Qs", "Ks"]) == 1


def test_looked_up_suits_strengths_and_points_are_those_of_the_codes() -> None:
    # The tables behind suit_of, strength, points and the is_ tests, against the notation of
    # 16.1 read from each code; a string that is no card has no suit, no strength, one point.
    for card in (*cards.CONFERENCE_PACK, "Xs", "T22", "", "fool"):
        trump = card in cards.TRUMPS
        suited = card in cards.SUIT_CARDS
        rank = card[:-1] if suited else None
        assert cards.is_trump(card) is trump
        assert cards.suit_of(card) == ("T" if trump else card[-1] if suited else None)
        assert cards.strength(card) == (
            int(card[1:]) if trump else 14 - cards.RANKS.index(rank) if suited else 0
        )
        assert cards.is_king(card) is (rank == "K")
        assert cards.is_court(card) is (rank in cards.COURTS)
        assert cards.is_pip(card) is (rank in cards.PIPS)
        honour = card in cards.HONOURS
        worth = {"K": 5, "Q": 4, "C": 3, "J": 2, "A": 5}.get(rank or "", 1)
        assert cards.points(card) == (5 if honour else worth)


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False))
def test_the_legal_cards_are_those_no_follow_rule_refuses(rng: random.Random) -> None:
    pack = list(PACK)
    rng.shuffle(pack)
    hand, trick = pack[: rng.randint(1, 18)], pack[18 : 18 + rng.randint(0, 3)]
    legal = cards.legal_cards(hand, trick)
    assert legal == [card for card in hand if cards.follow_refusal(hand, trick, card) is None]
    assert legal  # some card can always be played


def test_a_deal_must_partition_the_cards_to_deal() -> None:
    assert refused(cards.check_partition, [["Ks"], ["Qs"]], ["Ks", "Qs", "Cs"]).code == (
        "deal.wrong_cards"
    )
    assert refused(cards.check_partition, [["Ks"], ["Ks"]], ["Ks"]).code == "card.duplicate"


# --- every tarot engine: malformed data is refused, never raised; views are JSON ----------------

KEYS = [
    "seat",
    "card",
    "cards",
    "hands",
    "pack",
    "winner",
    "value",
    "dummy",
    "shown",
    "talon",
    "from_seat",
    "holder",
    "hand",
    "affair",
    "knocked",
    "hand_shown",
]
CODES = ["Ks", "Js", "Qs", "2s", "T1", "T21", "FOOL", "GOOD", "Cb", "Ab", "dealer", "dummy"]
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 80)
    | st.floats(allow_nan=False)
    | st.sampled_from(CODES)
    | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=14) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=20,
)


def sample_states(rules: Any, seats: int, ruleset: dict[str, Any], deal: Any) -> list[Any]:
    """States along one seeded random hand (every phase it passes through)."""
    rng = random.Random(11)
    state = rules.initial_state({}, ruleset, seats)
    states = [state]
    state = rules.apply(state, deal(rng))
    while not rules.is_terminal(state):
        states.append(state)
        moves = rules.legal_events(state)
        assert moves
        state = rules.apply(state, rng.choice(moves))
    return [*states[:: max(1, len(states) // 25)], state]


def _pack_deal(rng: random.Random) -> Move:
    pack = list(PACK)
    rng.shuffle(pack)
    return Move("cards.dealt", {"pack": pack})


def _hands_deal(seats: int) -> Any:
    def deal(rng: random.Random) -> Move:
        pack = list(PACK)
        rng.shuffle(pack)
        return Move("cards.dealt", {"hands": [pack[s * 8 : s * 8 + 8] for s in range(seats)]})

    return deal


SCARTO = {"base_game": "scarto"}
ENGINES = {
    "manchester-piccadilly": (PICCADILLY_RULES, 2, {}, _pack_deal),
    "manchester-truffle": (TRUFFLE_RULES, 2, {}, _pack_deal),
    "tontine": (TONTINE_RULES, 3, SCARTO, _hands_deal(3)),
    "last-laugh": (LAST_LAUGH_RULES, 3, SCARTO, _hands_deal(3)),
    "courtship-rules": (COURTSHIP_RULES, 4, SCARTO, _hands_deal(4)),
}
SAMPLES = {kind: sample_states(*spec) for kind, spec in ENGINES.items()}


def test_views_and_legal_events_of_every_engine_are_json() -> None:
    for kind, states in SAMPLES.items():
        rules = ENGINES[kind][0]
        for state in states:
            json.dumps(rules.view(state))
            json.dumps([m.data for m in rules.legal_events(state) or []])
            json.dumps([s.as_dict() for s in rules.scores(state)])


@settings(max_examples=300, deadline=None)
@given(
    kind=st.sampled_from(sorted(ENGINES)),
    index=st.integers(0, 30),
    type=st.sampled_from(
        [
            "cards.dealt",
            "cards.discarded",
            "card.played",
            "trick.won",
            "value.announced",
            "dummy.chosen",
            "fool.paid",
            "card.claimed",
            "hand.ended",
            "butt.discarded",
            "fool.set_aside",
            "fool.exchanged",
            "servant.summoned",
            "servant.refused",
            "x.y",
        ]
    ),
    data=st.dictionaries(st.sampled_from(KEYS), JSON, max_size=4),
)
def test_malformed_events_are_refused_never_raised(
    kind: str, index: int, type: str, data: dict[str, Any]
) -> None:
    rules = ENGINES[kind][0]
    states = SAMPLES[kind]
    state = states[index % len(states)]
    try:
        after = rules.apply(state, Move(type, data))
    except IllegalEvent:
        return
    json.dumps(rules.view(after))


@settings(max_examples=100, deadline=None)
@given(kind=st.sampled_from(sorted(ENGINES)), setup=JSON, ruleset=JSON)
def test_malformed_setups_and_rulesets_are_refused_never_raised(
    kind: str, setup: Any, ruleset: Any
) -> None:
    rules, seats, base, _ = ENGINES[kind]
    for chosen in (ruleset, base):
        try:
            rules.initial_state(setup, chosen, seats)
        except (BadSetup, BadRuleset):
            pass
