"""Manchester Piccadilly and Manchester Truffle (RULES.md 20, 21): deals, announcements, discards,
the two parts' tricks, the Fool, first and second scores, the hand and the game of hands."""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Callable
from typing import Any

import pytest

from games.rules.base import Move, PlansDeals, fold_states
from games.rules.errors import BadRuleset, BadSetup, IllegalEvent
from games.rules.tarot import cards
from games.rules.tarot.cards import FOOL, PACK
from games.rules.tarot.manchester import tricks as manchester_tricks
from games.rules.tarot.manchester.game import (
    PICCADILLY_RULES,
    TRUFFLE_RULES,
    ManchesterRules,
)
from games.rules.tarot.manchester.match import PICCADILLY_MATCH
from games.rules.tarot.manchester.state import (
    HAND_OVER,
    M_DEAL,
    M_PLAY,
    M_SCORE,
    P_CHOOSE,
    P_DEAL,
    P_PLAY,
    P_SCORE,
    State,
    first_scores,
    game_points,
    hand_totals,
    score_sheet,
    second_scores,
)

PICC = PICCADILLY_RULES
# Dealer is seat 0, Opposite seat 1.
DEALER_13 = ["Ks", "Qs", "Cs", "Js", "10s", "9s", "8s", "T21", "T20", "T2", "Kb", "2b", "3b"]
OPPOSITE_13 = ["7s", "6s", "5s", "4s", "T1", "T5", "T3", FOOL, "Qb", "Cb", "2c", "3c", "4c"]


def act(rules: Any, state: State, type: str, **data: Any) -> State:
    return rules.apply(state, Move(type, data))  # type: ignore[no-any-return]


def refusal(rules: Any, state: State, type: str, **data: Any) -> IllegalEvent:
    with pytest.raises(IllegalEvent) as caught:
        rules.apply(state, Move(type, data))
    return caught.value


def dealt(rules: ManchesterRules = PICC, **ruleset: Any) -> State:
    state = rules.initial_state({"dealer": 0}, ruleset, 2)
    return act(rules, state, "cards.dealt", hands=[DEALER_13, OPPOSITE_13])


def announced(rules: ManchesterRules = PICC, **ruleset: Any) -> State:
    state = dealt(rules, **ruleset)
    state = act(rules, state, "value.announced", seat=1, value=26)
    return act(rules, state, "value.announced", seat=0, value=31)


def in_play(rules: ManchesterRules = PICC, **ruleset: Any) -> State:
    state = announced(rules, **ruleset)
    state = act(rules, state, "cards.discarded", seat=0, cards=["2b", "3b", "8s"])
    return act(rules, state, "cards.discarded", seat=1, cards=["2c", "3c", "4c"])


def run(
    rules: Any,
    state: State,
    until: Callable[[State], bool] = lambda s: False,
    prefer: Callable[[Move], bool] = lambda m: False,
) -> State:
    """Apply the first legal move (a preferred one if any) until ``until`` or the end."""
    while not rules.is_terminal(state) and not until(state):
        moves = rules.legal_events(state)
        assert moves, state.phase
        chosen = next((m for m in moves if prefer(m)), moves[0])
        state = rules.apply(state, chosen)
    return state


def avoid_fool(move: Move) -> bool:
    return move.type == "card.played" and move.data.get("card") != FOOL


def play_fool(move: Move) -> bool:
    return move.type == "card.played" and move.data.get("card") == FOOL


def deal_part_two(rules: Any, state: State) -> State:
    stock = list(state.stock)
    if rules is PICC:
        hands = [[stock[0:13], stock[13:26]], [stock[26:39], stock[39:52]]]
        return act(rules, state, "cards.dealt", hands=hands)
    return act(
        rules,
        state,
        "cards.dealt",
        hands=[stock[0:16], stock[16:32]],
        dummy=stock[32:48],
        talon=stock[48 : 48 + state.ruleset.truffle_talon],
    )


def whole_hand(rules: Any = PICC, seed_pack: list[str] | None = None, **ruleset: Any) -> State:
    state = rules.initial_state({"dealer": 0}, ruleset, 2)
    state = act(rules, state, "cards.dealt", pack=seed_pack or list(PACK))
    return run(rules, state)


# --- setup and rulesets ---------------------------------------------------------------------------


def test_a_hand_has_two_players_and_a_dealer_seat() -> None:
    with pytest.raises(BadSetup) as caught:
        PICC.initial_state({}, {}, 3)
    assert caught.value.code == "game.bad_seats"
    with pytest.raises(BadSetup) as caught:
        PICC.initial_state({"dealer": 2}, {}, 2)
    assert caught.value.code == "setup.bad_dealer"
    assert PICC.initial_state({}, {}, 2).dealer == 0  # seat 0 deals by default (0.5)


def test_game_length_is_an_even_number_of_hands_d_mp_6() -> None:
    assert PICC.initial_state({}, {"mp_hands": 4}, 2).ruleset.mp_hands == 4
    for bad in (3, 0, "2", True):
        with pytest.raises(BadRuleset) as caught:
            PICC.initial_state({}, {"mp_hands": bad}, 2)
        assert caught.value.code == "ruleset.bad_value"
    with pytest.raises(BadRuleset):
        PICC.initial_state({}, {"truffle_talon": 4}, 2)  # a Truffle house rule only
    assert TRUFFLE_RULES.initial_state({}, {"truffle_talon": 4}, 2).ruleset.truffle_talon == 4


# --- part one: deal, Even Stevens, discards -------------------------------------------------------


def test_the_pack_is_dealt_in_packets_of_five_five_three_opposite_first_d_mp_2() -> None:
    state = PICC.initial_state({"dealer": 0}, {}, 2)
    state = act(PICC, state, "cards.dealt", pack=list(PACK))
    opposite = PACK[0:5] + PACK[10:15] + PACK[20:23]
    dealer = PACK[5:10] + PACK[15:20] + PACK[23:26]
    assert state.dealt == (dealer, opposite)
    assert state.stock == PACK[26:] and len(state.stock) == 52 and state.stock_ordered


def test_a_deal_of_the_wrong_size_or_with_repeats_is_refused() -> None:
    state = PICC.initial_state({}, {}, 2)
    assert refusal(PICC, state, "cards.dealt", pack=list(PACK[:77])).code == "deal.wrong_count"
    short = [DEALER_13[:12], OPPOSITE_13]
    assert refusal(PICC, state, "cards.dealt", hands=short).code == "deal.wrong_count"
    twice = [DEALER_13, [*OPPOSITE_13[:12], "Ks"]]
    assert refusal(PICC, state, "cards.dealt", hands=twice).code == "card.duplicate"
    assert refusal(PICC, state, "cards.dealt", hands="x").code == "event.bad_data"
    assert refusal(PICC, state, "value.announced", seat=0, value=1).code == "event.out_of_order"


def test_even_stevens_start_values_are_the_card_points_of_thirteen_cards() -> None:
    state = dealt()
    wrong = refusal(PICC, state, "value.announced", seat=0, value=30)
    assert wrong.code == "announce.wrong_total" and wrong.data["value"] == 31
    assert PICC.current_player(state) == 1  # Opposite first
    state = announced()
    assert state.start_values == (31, 26)
    assert state.phase == "M_DISCARD"


def test_discards_of_trumps_honours_or_kings_are_refused_while_others_are_held() -> None:
    state = announced()
    king = refusal(PICC, state, "cards.discarded", seat=0, cards=["Ks", "2b", "3b"])
    assert king.code == "discard.restricted_card" and "Ks (King of s)" in king.message
    fool = refusal(PICC, state, "cards.discarded", seat=1, cards=[FOOL, "2c", "3c"])
    assert fool.code == "discard.restricted_card"  # the Fool is an Honour
    assert refusal(PICC, state, "cards.discarded", seat=0, cards=["2b"]).code == (
        "discard.wrong_count"
    )
    assert refusal(PICC, state, "cards.discarded", seat=0, cards=["2b", "3b", "Ac"]).code == (
        "play.card_not_held"
    )


def test_restricted_cards_only_make_up_three_and_must_be_shown_d_mp_7() -> None:
    restricted = ["T21", "T20", "T19", "T18", "T17", "T16", "T15", "Ks", "Kb", "Kc", "Kd"]
    hand = [*restricted, "2s", "3s"]
    other = [c for c in PACK if c not in hand][:13]
    state = PICC.initial_state({"dealer": 0}, {}, 2)
    state = act(PICC, state, "cards.dealt", hands=[hand, other])
    state = act(PICC, state, "value.announced", seat=0, value=cards.points_of(hand))
    state = act(PICC, state, "value.announced", seat=1, value=cards.points_of(other))
    two = refusal(PICC, state, "cards.discarded", seat=0, cards=["T16", "T15", "2s"], shown=[])
    assert two.code == "discard.restricted_card"
    hidden = refusal(PICC, state, "cards.discarded", seat=0, cards=["T15", "2s", "3s"])
    assert hidden.code == "discard.not_shown" and "T15" in hidden.message
    state = act(PICC, state, "cards.discarded", seat=0, cards=["T15", "2s", "3s"], shown=["T15"])
    assert state.discards[0] == ("T15", "2s", "3s")
    assert all(m.data["seat"] == 1 for m in PICC.legal_events(state) or [])


# --- part one: play -------------------------------------------------------------------------------


def test_opposite_leads_and_the_other_must_follow_trump_and_overtrump() -> None:
    state = in_play()
    assert state.phase == M_PLAY and PICC.current_player(state) == 1
    turn = refusal(PICC, state, "card.played", card="Ks", hand="dealer")
    assert turn.code == "play.not_your_turn"
    assert refusal(PICC, state, "card.played", card="7s", seat=0).code == "play.not_your_turn"
    assert refusal(PICC, state, "card.played", card="Ks").code == "play.card_not_held"
    state = act(PICC, state, "card.played", card="7s")
    assert refusal(PICC, state, "card.played", card="T2").code == "play.must_follow"
    assert refusal(PICC, state, "card.played", card="Ac").code == "play.card_not_held"
    state = act(PICC, state, "card.played", card="Ks")
    assert refusal(PICC, state, "card.played", card="Qs").code == "event.out_of_order"
    wrong = refusal(PICC, state, "trick.won", winner="opposite")
    assert wrong.code == "trick.wrong_winner" and wrong.data["winner"] == "dealer"
    state = act(PICC, state, "trick.won", winner="dealer")
    # Leads alternate whoever wins (D-MP-1): Dealer leads the second trick.
    assert state.part is not None and state.part.current.leader == 0
    state = act(PICC, state, "card.played", card="Kb")
    state = act(PICC, state, "card.played", card="Qb")
    state = act(PICC, state, "trick.won", winner="dealer")
    assert state.part is not None and state.part.current.leader == 1  # Opposite leads the third
    state = act(PICC, state, "card.played", card="Cb")
    assert refusal(PICC, state, "card.played", card="Qs").code == "play.must_trump"
    state = act(PICC, state, "card.played", card="T2")
    state = act(PICC, state, "trick.won", winner="dealer")
    state = act(PICC, state, "card.played", card="Qs")  # Dealer leads the fourth
    state = act(PICC, state, "card.played", card="6s")
    state = act(PICC, state, "trick.won", winner="dealer")
    state = act(PICC, state, "card.played", card="T3")  # Opposite leads a trump
    over = refusal(PICC, state, "card.played", card="T2")
    assert over.code == "play.card_not_held"  # T2 already went on the third trick
    state = act(PICC, state, "card.played", card="T20")
    assert PICC.legal_events(state) == [Move("trick.won", {"winner": "dealer"})]


def test_over_a_trump_lead_a_higher_trump_is_due_when_held_d_mp_5() -> None:
    state = act(PICC, in_play(), "card.played", card="T3")
    assert PICC.expected(state) == ["card.played"]
    over = refusal(PICC, state, "card.played", card="T2")
    assert over.code == "play.must_overtrump" and "T20" in over.message
    assert refusal(PICC, state, "card.played", card="Ks").code == "play.must_trump"
    state = act(PICC, state, "card.played", card="T20")
    assert PICC.expected(state) == ["trick.won"]


def test_with_the_winner_house_rule_the_winner_leads_d_mp_1() -> None:
    state = in_play(mp_manchester_lead="winner")
    for card in ("7s", "Ks"):
        state = act(PICC, state, "card.played", card=card)
    state = act(PICC, state, "trick.won", winner="dealer")
    assert state.part is not None and state.part.current.leader == 0
    state = act(PICC, state, "card.played", card="Qs")
    state = act(PICC, state, "card.played", card="6s")
    state = act(PICC, state, "trick.won", winner="dealer")
    assert state.part is not None and state.part.current.leader == 0  # Dealer won: he leads


def test_an_excused_fool_returns_to_its_owner_who_pays_an_empty_card() -> None:
    state = in_play()
    state = act(PICC, state, "card.played", card=FOOL)  # Opposite leads the Fool
    state = act(PICC, state, "card.played", card="Ks")
    state = act(PICC, state, "trick.won", winner="dealer")
    part = state.part
    assert part is not None and FOOL in part.piles[1] and "Ks" in part.piles[0]
    assert part.fool_debt == (1, 0)
    state = run(PICC, state, until=lambda s: s.phase != M_PLAY)
    assert state.phase == M_SCORE and PICC.current_player(state) == 1
    part = state.part
    assert part is not None
    pile = part.piles[1]
    if part.tricks_won(1):
        full = next(c for c in pile if not cards.is_empty(c) and c != FOOL)
        assert refusal(PICC, state, "fool.paid", card=full).code == "fool.payment"
        assert refusal(PICC, state, "fool.paid", card="Ks").code == "fool.payment"
    paid = PICC.legal_events(state)[0].data["card"]  # type: ignore[index]
    after = act(PICC, state, "fool.paid", card=paid)
    assert after.phase == P_DEAL and after.first is not None
    assert paid in after.first.piles[0] and paid not in after.first.piles[1]
    assert sum(first_scores(after) or ()) == 0


def test_an_owner_with_no_trick_surrenders_the_fool() -> None:
    state = in_play()
    state = act(PICC, state, "card.played", card=FOOL)
    state = act(PICC, state, "card.played", card="Ks")
    state = act(PICC, state, "trick.won", winner="dealer")
    part = state.part
    assert part is not None
    # Opposite won nothing yet: were the part over now, only the Fool itself could pay.
    scoring = dataclasses.replace(state, phase=M_SCORE)
    assert PICC.legal_events(scoring) == [Move("fool.paid", {"card": FOOL})]
    assert refusal(PICC, scoring, "fool.paid", card="2c").code == "fool.payment"
    after = act(PICC, scoring, "fool.paid", card=FOOL)
    assert after.first is not None and FOOL in after.first.piles[0]


def test_the_fool_is_not_lost_on_the_last_trick_of_part_one_d_mp_3() -> None:
    state = run(PICC, in_play(), until=lambda s: s.phase != M_PLAY, prefer=avoid_fool)
    assert state.first is not None or state.part is not None
    part = state.part if state.phase == M_SCORE else state.first
    assert part is not None
    last = part.tricks[-1]
    assert FOOL in last.cards and last.winner == 0
    assert FOOL in part.piles[1]  # back with Opposite, who owes Dealer a card


def test_first_scores_are_pile_points_less_start_values_and_sum_to_zero() -> None:
    state = run(PICC, in_play(), until=lambda s: s.phase == P_DEAL)
    assert state.first is not None
    first = first_scores(state)
    assert first is not None and sum(first) == 0
    assert first[0] == cards.points_of(state.first.piles[0]) - 31
    assert sorted(state.first.piles[0] + state.first.piles[1]) == sorted(DEALER_13 + OPPOSITE_13)


# --- part two: Piccadilly -------------------------------------------------------------------------


def test_piccadilly_hands_and_dummies_sit_dealer_opposite_and_their_dummies() -> None:
    state = run(PICC, in_play(), until=lambda s: s.phase == P_DEAL)
    state = deal_part_two(PICC, state)
    assert state.phase == P_CHOOSE
    state = act(PICC, state, "dummy.chosen", seat=1, dummy=0)
    assert refusal(PICC, state, "dummy.chosen", seat=1, dummy=1).code == "dummy.already_chosen"
    assert refusal(PICC, state, "dummy.chosen", seat=0, dummy=2).code == "event.bad_data"
    assert PICC.view(state)["dummies"] == {}  # laid face up only once both have chosen
    state = act(PICC, state, "dummy.chosen", seat=0, dummy=1)
    part = state.part
    assert state.phase == P_PLAY and part is not None
    assert part.labels == ("dealer", "opposite", "dealer_dummy", "opposite_dummy")
    assert part.owners == (0, 1, 0, 1)
    assert part.hands[2] == state.options[0][1] and part.hands[0] == state.options[0][0]
    assert part.hands[3] == state.options[1][0]
    assert set(PICC.view(state)["dummies"]) == {"dealer_dummy", "opposite_dummy"}
    assert part.current.leader == 0 and PICC.current_player(state) == 0  # Dealer leads


def test_piccadilly_part_two_from_the_ordered_stock_alternates_opposite_first() -> None:
    state = PICC.initial_state({"dealer": 1}, {}, 2)
    state = act(PICC, state, "cards.dealt", pack=list(PACK))
    stock = run(PICC, state, until=lambda s: s.phase == P_DEAL).stock
    state = act(PICC, run(PICC, state, until=lambda s: s.phase == P_DEAL), "cards.dealt")
    first = stock[0:5] + stock[20:25] + stock[40:43]  # Opposite's first hand
    second = stock[10:15] + stock[30:35] + stock[46:49]  # Opposite's second hand
    assert state.options[0] == (first, second)  # seat 0 is Opposite when seat 1 deals
    assert state.options[1][0] == stock[5:10] + stock[25:30] + stock[43:46]


def test_part_two_is_dealt_from_the_set_aside_cards() -> None:
    state = run(PICC, in_play(), until=lambda s: s.phase == P_DEAL)
    assert refusal(PICC, state, "cards.dealt").code == "deal.wrong_count"  # stock order unknown
    stock = list(state.stock)
    bad = [[stock[0:13], stock[13:26]], [stock[26:39], [*stock[39:51], "Ks"]]]
    assert refusal(PICC, state, "cards.dealt", hands=bad).code == "deal.wrong_cards"


def test_a_whole_piccadilly_hand_scores_by_the_invariants_of_20_2_and_20_3() -> None:
    state = whole_hand()
    assert state.phase == HAND_OVER
    first, second = first_scores(state), second_scores(state)
    assert first is not None and second is not None
    assert sum(first) == 0
    assert sum(second) == (146 - sum(v or 0 for v in state.start_values)) + 13
    totals = hand_totals(state)
    assert totals == (first[0] + second[0], first[1] + second[1])
    points = game_points(state)
    assert sorted(points) == [0, abs(totals[0] - totals[1])]
    result = PICC.result(state)
    assert result is not None and [s.total for s in result.scores] == list(points)
    assert PICC.legal_events(state) == [] and PICC.expected(state) == []
    assert refusal(PICC, state, "card.played", card="Ks").code == "game.over"


def test_tricks_won_by_a_dummy_belong_to_its_owner_d_mp_8() -> None:
    state = whole_hand()
    part = state.part
    assert part is not None
    dummy_wins = sum(1 for t in part.tricks if t.winner in (2, 3))
    assert dummy_wins > 0
    second = second_scores(state)
    assert second is not None
    for seat in (0, 1):
        won = sum(1 for t in part.tricks if t.winner is not None and part.owners[t.winner] == seat)
        assert second[seat] == cards.points_of(part.piles[seat]) + won


def fool_in_stock_pack() -> list[str]:
    """A pack whose Fool is dealt in part two (position 60)."""
    pack = [c for c in PACK if c != FOOL]
    return [*pack[:60], FOOL, *pack[60:]]


def test_the_fool_is_lost_on_the_last_trick_of_part_two_d_mp_4() -> None:
    state = PICC.initial_state({"dealer": 0}, {}, 2)
    state = act(PICC, state, "cards.dealt", pack=fool_in_stock_pack())
    state = run(PICC, state, prefer=avoid_fool)
    part = state.part
    assert part is not None and state.phase == HAND_OVER
    last = part.tricks[-1]
    assert FOOL in last.cards and last.winner is not None
    assert FOOL in part.piles[part.owners[last.winner] or 0] and part.fool_debt is None


def test_the_fool_excused_in_part_two_costs_its_owner_a_card() -> None:
    state = PICC.initial_state({"dealer": 0}, {}, 2)
    state = act(PICC, state, "cards.dealt", pack=fool_in_stock_pack())
    state = run(PICC, state, until=lambda s: s.phase == P_PLAY)
    state = run(
        PICC, state, until=lambda s: s.phase != P_PLAY, prefer=play_fool
    )  # the Fool at its first chance
    part = state.part
    assert part is not None
    if part.fool_debt is not None:  # the Fool went to a trick its owner's side did not win
        assert state.phase == P_SCORE
        owner, to = part.fool_debt
        state = run(PICC, state)
        assert (
            state.part is not None
            and FOOL in state.part.piles[owner]
            or part.tricks_won(owner) == 0
        )
    assert state.phase == HAND_OVER
    second = second_scores(state)
    assert second is not None and sum(second) == 146 - sum(v or 0 for v in state.start_values) + 13


def test_undo_restores_the_exact_prior_state() -> None:
    start = PICC.initial_state({"dealer": 1}, {}, 2)
    moves = [Move("cards.dealt", {"pack": list(PACK)})]
    state = act(PICC, start, "cards.dealt", pack=list(PACK))
    moves.append(PICC.legal_events(state)[0])  # type: ignore[index]
    states = fold_states(PICC, start, [*moves, Move("move.undone", {})])
    assert states[-1] == state


def test_malformed_data_is_refused_not_raised() -> None:
    state = in_play()
    for data in ({}, {"card": 3}, {"card": None}, {"card": ["Ks"]}):
        assert refusal(PICC, state, "card.played", **data).code in ("event.bad_data",)
    assert refusal(PICC, state, "no.such").code == "event.unknown_type"
    with pytest.raises(IllegalEvent) as caught:
        PICC.apply(state, Move("card.played", [1]))  # type: ignore[arg-type]
    assert caught.value.code == "event.bad_data"
    assert refusal(PICC, dealt(), "value.announced", seat="0", value=31).code == "event.bad_data"


# --- Manchester Truffle ---------------------------------------------------------------------------


def truffle_part_two(**ruleset: Any) -> State:
    state = in_play(TRUFFLE_RULES, **ruleset)
    state = run(TRUFFLE_RULES, state, until=lambda s: s.phase == P_DEAL)
    return deal_part_two(TRUFFLE_RULES, state)


def test_truffle_deals_sixteen_each_and_dealer_takes_three_one_card_dead_d_mt_1() -> None:
    state = truffle_part_two()
    assert len(state.talon) == 3 and len(state.dead) == 1
    hand = (*state.pending_truffle[0], *state.talon)
    king = next(c for c in hand if cards.is_king(c) or c in cards.HONOURS)
    plain = [c for c in hand if not cards.is_king(c) and c not in cards.HONOURS]
    banned = refusal(TRUFFLE_RULES, state, "cards.discarded", seat=0, cards=[king, *plain[:2]])
    assert banned.code == "discard.restricted_card"
    hidden = refusal(TRUFFLE_RULES, state, "cards.discarded", seat=0, cards=plain[:3])
    assert hidden.code == "discard.not_shown"
    assert refusal(
        TRUFFLE_RULES, state, "cards.discarded", seat=1, cards=plain[:3], shown=plain[:3]
    ).code == ("play.not_your_turn")
    state = act(TRUFFLE_RULES, state, "cards.discarded", seat=0, cards=plain[:3], shown=plain[:3])
    part = state.part
    assert part is not None and part.labels == ("dealer", "dummy", "opposite")
    assert [len(h) for h in part.hands] == [16, 16, 16]
    assert part.piles[0] == tuple(plain[:3])


def test_truffle_talon_four_takes_and_discards_all_four() -> None:
    state = truffle_part_two(truffle_talon=4)
    assert len(state.talon) == 4 and state.dead == ()
    moves = TRUFFLE_RULES.legal_events(state)
    assert moves and all(len(m.data["cards"]) == 4 for m in moves)


def test_the_truffle_deal_from_an_ordered_stock_packets_five_five_six() -> None:
    state = TRUFFLE_RULES.initial_state({"dealer": 0}, {}, 2)
    state = act(TRUFFLE_RULES, state, "cards.dealt", pack=list(PACK))
    state = run(TRUFFLE_RULES, state, until=lambda s: s.phase == P_DEAL)
    stock = state.stock
    state = act(TRUFFLE_RULES, state, "cards.dealt")
    opposite = stock[0:5] + stock[15:20] + stock[30:36]
    assert state.pending_truffle[1] == opposite
    assert state.dead == stock[48:49] and state.talon == stock[49:52]


def test_opposite_plays_the_dummy_at_odd_tricks_dealer_at_even_d_mt_2() -> None:
    state = run(TRUFFLE_RULES, truffle_part_two(), until=lambda s: s.phase == P_PLAY)
    part = state.part
    assert part is not None and part.current.leader == 0
    state = act(
        TRUFFLE_RULES, state, "card.played", card=TRUFFLE_RULES.legal_events(state)[0].data["card"]
    )  # type: ignore[index]
    assert TRUFFLE_RULES.current_player(state) == 1  # the dummy, played by Opposite at trick 1
    card = TRUFFLE_RULES.legal_events(state)[0].data["card"]  # type: ignore[index]
    assert refusal(TRUFFLE_RULES, state, "card.played", card=card, seat=0).code == (
        "play.not_your_turn"
    )
    state = act(TRUFFLE_RULES, state, "card.played", card=card, seat=1, hand="dummy")
    state = run(
        TRUFFLE_RULES, state, until=lambda s: s.part is not None and len(s.part.tricks) == 1
    )
    state = run(
        TRUFFLE_RULES,
        state,
        until=lambda s: s.part is not None and s.part.to_play == 1 and not s.part.trick_full,
    )
    assert TRUFFLE_RULES.current_player(state) == 0  # trick 2: Dealer plays the dummy


def test_a_fool_in_the_dummy_returns_to_its_pile_and_pays_nothing_d_mt_3() -> None:
    state = truffle_part_two()
    part_dummy = state.pending_truffle[2]
    assert FOOL not in part_dummy  # the scripted deal keeps the Fool in part one
    pack = [c for c in PACK if c != FOOL]
    # Dummy cards are stock[32:48] by deal_part_two: put the Fool there (stock index 32 = 58).
    pack = [*pack[:58], FOOL, *pack[58:]]
    state = TRUFFLE_RULES.initial_state({"dealer": 0}, {}, 2)
    state = act(TRUFFLE_RULES, state, "cards.dealt", pack=pack)
    state = run(TRUFFLE_RULES, state, until=lambda s: s.phase == P_DEAL)
    state = deal_part_two(TRUFFLE_RULES, state)
    assert FOOL in state.pending_truffle[2]
    state = run(
        TRUFFLE_RULES,
        state,
        until=lambda s: s.part is not None and any(FOOL in t.cards for t in s.part.tricks),
        prefer=play_fool,
    )
    part = state.part
    assert part is not None
    assert any(part.hands)  # an early trick, not the last
    assert FOOL in part.piles[2] and part.fool_debt is None


def test_the_dummys_tricks_count_for_nobody_and_truffle_totals_balance() -> None:
    state = whole_hand(TRUFFLE_RULES)
    part = state.part
    assert part is not None and state.phase == HAND_OVER
    second = second_scores(state)
    assert second is not None
    player_tricks = part.tricks_won(0) + part.tricks_won(1)
    assert player_tricks + part.tricks_won(2) == 16
    lost = cards.points_of(part.piles[2]) + cards.points_of(state.dead)
    stock_points = 146 - sum(v or 0 for v in state.start_values)
    assert sum(second) == stock_points - lost + player_tricks


def test_a_dealer_with_no_truffle_trick_gives_his_discards_to_opposite() -> None:
    state = whole_hand(TRUFFLE_RULES)
    part = state.part
    assert part is not None
    discards = state.truffle_discards
    everything = [c for pile in part.piles for c in pile if c not in discards]
    tricks = tuple(dataclasses.replace(t, winner=2) for t in part.tricks)
    crafted = dataclasses.replace(part, tricks=tricks, piles=(discards, tuple(everything), ()))
    # when the part ends with Dealer's discards in his pile and no trick his (21.2)
    over = manchester_tricks._end_of_part(dataclasses.replace(state, phase=P_PLAY, part=crafted))
    # then they are Opposite's: in his pile, and in his second score
    assert over.phase == HAND_OVER and over.part is not None
    assert over.part.piles[0] == () and set(discards) <= set(over.part.piles[1])
    second = second_scores(over)
    assert second == (0, cards.points_of(everything) + cards.points_of(discards) + 16)


# --- the game of hands: a match of mp_hands hands -------------------------------------------------


def finished(scores: list[int]) -> Move:
    return Move("game.finished", {"game": str(uuid.uuid4()), "scores": scores})


def test_a_game_is_two_hands_with_the_dealer_alternating() -> None:
    match = PICCADILLY_MATCH
    state = match.initial_state({}, 2)
    assert match.next_game_setup(state) == {"dealer": 0}
    state = match.apply(state, finished([12, 0]))
    assert match.next_game_setup(state) == {"dealer": 1} and not match.is_complete(state)
    state = match.apply(state, finished([0, 5]))
    assert match.is_complete(state)
    assert [r["seat"] for r in match.standing(state)] == [0, 1]
    assert match.standing(state)[0]["total"] == 12
    assert match.settlement(state) == {
        "payments": [],
        "nets": [0, 0],
        "game_points": [12, 5],
        "winners": [0],
    }


def test_equal_game_totals_are_a_draw_and_mp_hands_sets_the_length() -> None:
    match = PICCADILLY_MATCH
    state = match.initial_state({"mp_hands": 4}, 2)
    for scores in ([7, 0], [0, 7], [0, 0], [3, 0]):
        assert not match.is_complete(state)
        state = match.apply(state, finished(scores))
    assert match.is_complete(state)
    assert match.settlement(state)["winners"] == [0]
    draw = match.apply(match.apply(match.initial_state({}, 2), finished([4, 0])), finished([0, 4]))
    assert match.settlement(draw)["winners"] == [0, 1]
    with pytest.raises(BadRuleset):
        match.initial_state({"mp_hands": 3}, 2)


def test_a_sheet_hand_scores_only_its_winner() -> None:
    match = PICCADILLY_MATCH
    state = match.initial_state({}, 2)
    with pytest.raises(IllegalEvent) as caught:
        match.apply(state, Move("game.scored", {"scores": [5, 3]}))
    assert caught.value.code == "score.unattainable"
    lenient = match.initial_state({"sheet_entry_validation": "lenient"}, 2)
    lenient = match.apply(lenient, Move("game.scored", {"scores": [-1, 3]}))
    assert match.warnings(lenient)[0]["code"] == "score.unattainable"
    state = match.apply(state, Move("game.scored", {"scores": [0, 9]}))
    assert match.games(state)[0]["winners"] == [1]


def test_the_view_shows_hands_tricks_scores_and_the_report() -> None:
    state = whole_hand()
    view = PICC.view(state)
    assert view["phase"] == HAND_OVER
    assert view["hand_sheet"]["game_points"] == list(game_points(state))
    assert len(view["part_one"]["tricks"]) == 10 and len(view["part"]["tricks"]) == 13
    assert PICC.match_report(state)["hand_totals"] == list(hand_totals(state))


def test_the_match_rows_carry_each_live_hand_sheet_as_the_view_shows_it() -> None:
    state = whole_hand()
    report = PICC.match_report(state)
    hand = {"game": str(uuid.uuid4()), "scores": list(game_points(state)), "report": report}
    match = PICCADILLY_MATCH.initial_state({}, 2)
    match = PICCADILLY_MATCH.apply(match, Move("game.finished", hand))
    match = PICCADILLY_MATCH.apply(match, Move("game.scored", {"scores": [0, 9]}))
    live, sheet = PICCADILLY_MATCH.games(match)
    assert live["hand_sheet"] == PICC.view(state)["hand_sheet"]
    assert live["hand_sheet"]["game_points"] == live["scores"] == list(game_points(state))
    assert sheet["hand_sheet"] is None  # a hand from a sheet has only its game points


# --- a worked hand: every figure of 20.2.6, 20.3.5 and 20.4 computed by hand ----------------------

# Part one (Dealer seat 0): each holds a run of one suit, Dealer T21, Opposite the Fool.
WORKED_DEALER = ["Ks", "Qs", "Cs", "Js", "10s", "9s", "8s", "7s", "6s", "T21", "2b", "3b", "4b"]
WORKED_OPPOSITE = ["Kd", "Qd", "Cd", "Jd", "10d", "9d", "8d", "7d", "6d", FOOL, "2c", "3c", "4c"]
# Part two: Dealer's hand, Opposite's hand, Dealer's dummy, Opposite's dummy.
WORKED_PART_TWO = (
    ["T20", "T19", "T18", "T17", "T16", "T15", "T14", "5s", "4s", "3s", "2s", "As", "5d"],
    ["Kb", "Qb", "Cb", "Jb", "10b", "9b", "8b", "7b", "6b", "5b", "Ab", "4d", "3d"],
    ["Kc", "Qc", "Cc", "Jc", "10c", "9c", "8c", "7c", "6c", "5c", "Ac", "2d", "Ad"],
    ["T13", "T12", "T11", "T10", "T9", "T8", "T7", "T6", "T5", "T4", "T3", "T2", "T1"],
)


def play_trick(state: State, played: list[str], winner: str, rules: Any = PICC) -> State:
    for card in played:
        state = act(rules, state, "card.played", card=card)
    return act(rules, state, "trick.won", winner=winner)


def worked_part_one(rules: Any = PICC) -> State:
    """Part one of the worked hands, to the end of the Fool's payment (figures below)."""
    state = rules.initial_state({"dealer": 0}, {}, 2)
    state = act(rules, state, "cards.dealt", hands=[WORKED_DEALER, WORKED_OPPOSITE])
    state = act(rules, state, "value.announced", seat=1, value=27)
    state = act(rules, state, "value.announced", seat=0, value=27)
    state = act(rules, state, "cards.discarded", seat=0, cards=["2b", "3b", "4b"])
    state = act(rules, state, "cards.discarded", seat=1, cards=["2c", "3c", "4c"])
    # Trick 1: Opposite leads Kd; Dealer, void in d, must trump with his only trump.
    state = act(rules, state, "card.played", card="Kd")
    assert refusal(rules, state, "card.played", card="6s").code == "play.must_trump"
    state = play_trick(state, ["T21"], "dealer", rules)
    # Trick 2: Dealer leads (leads alternate, D-MP-1); Opposite excuses himself with the Fool.
    state = play_trick(state, ["Ks", FOOL], "dealer", rules)
    for lead, follow, winner in (
        ("Qd", "6s", "opposite"),
        ("Qs", "6d", "dealer"),
        ("Cd", "7s", "opposite"),
        ("Cs", "7d", "dealer"),
        ("Jd", "8s", "opposite"),
        ("Js", "8d", "dealer"),
        ("10d", "9s", "opposite"),
        ("10s", "9d", "dealer"),
    ):
        state = play_trick(state, [lead, follow], winner, rules)
    part = state.part
    assert state.phase == M_SCORE and part is not None and part.fool_debt == (1, 0)
    assert [cards.points_of(p) for p in part.piles[:2]] == [32, 22]
    # Opposite won tricks and holds empty cards: he must pay one of them, not the Qd.
    assert refusal(rules, state, "fool.paid", card="Qd").code == "fool.payment"
    state = act(rules, state, "fool.paid", card="2c")
    assert state.phase == P_DEAL and first_scores(state) == (6, -6)
    return state


def test_a_worked_hand_gives_the_first_and_second_scores_and_game_points_of_20_2_to_20_4() -> None:
    """RULES.md 20.2.6: first score = pile points (tricks, own discards, the Fool kept, less the
    card paid for it, plus the card received) - start value; 20.3.5: second score = pile points
    + 1 per trick won by hand or dummy (D-MP-8); 20.4: the higher hand total scores the
    difference. Figures worked by hand: start values 27 and 27; piles 32 and 22 before the
    Fool's payment (2c), 33 and 21 after: first scores +6, -6; part two Dealer wins 7 tricks
    worth 52 points, Opposite's dummy 6 tricks worth 40: second scores 59 and 46; hand totals
    65 and 40; game points 25 to Dealer."""
    state = worked_part_one()
    # Part two: the dummies are each player's second hand.
    dealer_hand, opposite_hand, dealer_dummy, opposite_dummy = WORKED_PART_TWO
    state = act(
        PICC,
        state,
        "cards.dealt",
        hands=[[dealer_hand, dealer_dummy], [opposite_hand, opposite_dummy]],
    )
    state = act(PICC, state, "dummy.chosen", seat=1, dummy=1)
    state = act(PICC, state, "dummy.chosen", seat=0, dummy=1)
    # Tricks 1-7: Dealer leads his trumps; Opposite's dummy must trump (none higher: any trump).
    others = zip(
        ["Kb", "Qb", "Cb", "Jb", "10b", "9b", "8b"],
        ["Kc", "Qc", "Cc", "Jc", "10c", "9c", "8c"],
        strict=True,
    )
    for n, (b, c) in enumerate(others):
        trump = f"T{20 - n}"
        state = act(PICC, state, "card.played", card=trump)
        state = act(PICC, state, "card.played", card=b)
        state = act(PICC, state, "card.played", card=c)
        state = play_trick(state, [f"T{n + 1}"], "dealer")
    # Trick 8: Dealer leads 5s; void in s, Opposite's dummy must trump and wins.
    state = act(PICC, state, "card.played", card="5s")
    state = act(PICC, state, "card.played", card="7b")
    state = act(PICC, state, "card.played", card="7c")
    state = play_trick(state, ["T8"], "opposite_dummy")
    # Tricks 9-13: Opposite's dummy leads its trumps; the others, void, play any card.
    rest = zip(
        ["4s", "3s", "2s", "As", "5d"],
        ["6b", "5b", "Ab", "4d", "3d"],
        ["6c", "5c", "Ac", "2d", "Ad"],
        strict=True,
    )
    for n, (d, o, dd) in enumerate(rest):
        state = play_trick(state, [f"T{9 + n}", d, o, dd], "opposite_dummy")
    assert state.phase == HAND_OVER
    part = state.part
    assert part is not None and (part.tricks_won(0), part.tricks_won(1)) == (7, 6)
    assert [cards.points_of(p) for p in part.piles[:2]] == [52, 40]
    assert second_scores(state) == (59, 46)
    assert hand_totals(state) == (65, 40)
    assert game_points(state) == (25, 0)
    result = PICC.result(state)
    assert result is not None and result.winners == (0,)
    assert [s.total for s in result.scores] == [25, 0]


def test_a_worked_truffle_hand_gives_the_scores_of_21() -> None:
    """RULES.md 21: part one as 20.2 (first scores +6, -6); the deal leaves T1 dead (D-MT-1);
    Dealer takes T4 T3 T2 and discards them (trumps other than Honours may go, shown); the
    dummy is played by Opposite at trick 1, Dealer at trick 2 (D-MT-2); Opposite wins 15
    tricks, the dummy the last (its Ad, 5d and 2s are lost: 7 points), Dealer none, so his
    discards go to Opposite (21.2). The 48 cards in play are worth 92 - 5 - 3 = 84. Second
    scores: Dealer 0; Opposite 84 - 7 + 3 + 15 = 95. Hand totals 6 and 89: Opposite scores 83."""
    rules = TRUFFLE_RULES
    state = worked_part_one(rules)
    dealer_hand = WORKED_PART_TWO[1][:11] + ["5s", "4s", "3s", "2s", "As"]
    dummy = WORKED_PART_TWO[2][:11] + ["5d", "4d", "3d", "2d", "T5"]
    opposite_hand = [f"T{n}" for n in range(20, 5, -1)] + ["Ad"]
    state = act(
        rules,
        state,
        "cards.dealt",
        hands=[dealer_hand, opposite_hand],
        dummy=dummy,
        talon=["T4", "T3", "T2"],
    )
    assert state.dead == ("T1",)
    state = act(
        rules, state, "cards.discarded", seat=0, cards=["T4", "T3", "T2"], shown=["T4", "T3", "T2"]
    )
    # Trick 1: Dealer leads Kb; Opposite plays the dummy, void in b: its only trump.
    state = act(rules, state, "card.played", card="Kb", seat=0)
    assert refusal(rules, state, "card.played", card="T5", seat=0).code == "play.not_your_turn"
    state = act(rules, state, "card.played", card="T5", seat=1, hand="dummy")
    # Opposite, void in b, must trump over T5: the Ad is refused.
    assert refusal(rules, state, "card.played", card="Ad", seat=1).code == "play.must_trump"
    state = play_trick(state, ["T6"], "opposite", rules)
    # Tricks 2-15: Opposite leads T20 down to T7; Dealer plays the dummy at even tricks.
    dealer_rest = dealer_hand[1:11] + ["5s", "4s", "3s", "As"]
    dummy_rest = dummy[:11] + ["4d", "3d", "2d"]
    for n, (d, dd) in enumerate(zip(dealer_rest, dummy_rest, strict=True)):
        state = act(rules, state, "card.played", card=f"T{20 - n}", seat=1)
        state = act(rules, state, "card.played", card=d, seat=0)
        dummy_player = 0 if n % 2 == 0 else 1  # trick n + 2
        state = act(rules, state, "card.played", card=dd, seat=dummy_player, hand="dummy")
        state = act(rules, state, "trick.won", winner="opposite")
    # Trick 16: Opposite leads Ad; the dummy (played by Dealer) follows with 5d and wins.
    state = play_trick(state, ["Ad", "2s", "5d"], "dummy", rules)
    assert state.phase == HAND_OVER
    part = state.part
    assert part is not None
    assert [part.tricks_won(p) for p in (0, 1, 2)] == [0, 15, 1]
    assert cards.points_of(part.piles[2]) == 7
    assert second_scores(state) == (0, 95)
    assert hand_totals(state) == (6, 89)
    assert game_points(state) == (0, 83)
    # the discards are in Opposite's pile, not Dealer's: piles plus tricks make the second score
    assert {"T4", "T3", "T2"} <= set(part.piles[1]) and not {"T4", "T3", "T2"} & set(part.piles[0])
    sheet = score_sheet(state)
    assert sheet["pile_points"] == [0, 80, 7]
    assert [sheet["pile_points"][p] + sheet["tricks_won"][p] for p in (0, 1)] == sheet["second"]


def test_each_deal_of_a_hand_is_planned_by_the_rules_for_the_table_to_enter() -> None:
    # part one: 13 to each seat from the whole pack
    first = PICC.deal_plan(M_DEAL, {})
    assert [(t.role, t.seat, t.count) for t in first.targets] == [("seat", 0, 13), ("seat", 1, 13)]
    assert first.whole_pack and first.shape == {"hands": [0, 1]}
    # Piccadilly's part two: each seat's two hands of 13, from what part one left
    second = PICC.deal_plan(P_DEAL, {})
    assert [(t.seat, t.hand, t.count) for t in second.targets] == [
        (0, 1, 13),
        (0, 2, 13),
        (1, 1, 13),
        (1, 2, 13),
    ]
    assert not second.whole_pack and second.shape == {"hands": [[0, 1], [2, 3]]}
    # Truffle's: 16 each to the seats and the dummy, then the talon Dealer takes (D-MT-1)
    truffle = TRUFFLE_RULES.deal_plan(P_DEAL, {"truffle_talon": 4})
    assert [(t.role, t.count) for t in truffle.targets] == [
        ("seat", 16),
        ("seat", 16),
        ("dummy", 16),
        ("dealer_talon", 4),
    ]
    assert truffle.shape == {"hands": [0, 1], "dummy": 2, "talon": 3}
    assert isinstance(PICC, PlansDeals) and isinstance(TRUFFLE_RULES, PlansDeals)
