"""The Last Laugh, the Court Jester rule (RULES.md 18): the Fool's obligations, the Fool winning
the last trick, the Butt's discard by the first rule that applies, case 5 and its exchange."""

from __future__ import annotations

from typing import Any

import pytest

from games.rules.base import Move, fold_states
from games.rules.errors import BadSetup, IllegalEvent
from games.rules.tarot.butt import butt_rule
from games.rules.tarot.cards import FOOL
from games.rules.tarot.last_laugh import LAST_LAUGH_RULES, State

RULES = LAST_LAUGH_RULES
RULESET = {"base_game": "tarocchi"}


def act(state: State, type: str, **data: Any) -> State:
    return RULES.apply(state, Move(type, data))


def refusal(state: State, type: str, **data: Any) -> IllegalEvent:
    with pytest.raises(IllegalEvent) as caught:
        RULES.apply(state, Move(type, data))
    return caught.value


def dealt(*hands: list[str]) -> State:
    state = RULES.initial_state({}, RULESET, len(hands))
    return act(state, "cards.dealt", hands=[list(h) for h in hands])


def play(state: State, *played: str) -> State:
    for card in played:
        state = act(state, "card.played", seat=state.table.to_play, card=card)
    return state


def fool_trick(butt_hand: list[str]) -> State:
    """Seat 0 leads 2s holding ``butt_hand``; seat 1 must play the Fool (he holds Cs); seat 0
    wins by the base game's rules and becomes the Butt."""
    state = dealt(["2s", *butt_hand], [FOOL, "Cs", "3b", "4b"], ["5s", "6b", "7b", "8b"])
    state = play(state, "2s", FOOL, "5s")
    return act(state, "trick.won", winner=0)


def test_base_game_is_required_d_tar_3() -> None:
    with pytest.raises(BadSetup) as caught:
        RULES.initial_state({}, {}, 3)
    assert caught.value.code == "ruleset.base_game_required"


def test_with_no_court_card_the_fool_must_go_to_a_trump_lead_d_ll_1() -> None:
    state = play(dealt(["T5", "2s"], [FOOL, "3s"], ["T6", "4s"]), "T5")
    refused = refusal(state, "card.played", seat=1, card="3s")
    assert refused.code == "fool.must_play" and "trumps are led" in refused.message
    assert RULES.legal_events(state) == [Move("card.played", {"seat": 1, "card": FOOL})]


def test_with_a_court_card_of_the_suit_led_the_fool_must_be_played() -> None:
    state = play(dealt(["2s", "3d"], [FOOL, "Qs", "3s"], ["4s", "5d"]), "2s")
    assert refusal(state, "card.played", seat=1, card="Qs").code == "fool.must_play"
    # D-LL-2: the forced Fool replaces the card the base game would require (follow with 3s).
    assert refusal(state, "card.played", seat=1, card="3s").code == "fool.must_play"


def test_otherwise_the_fool_may_not_be_played_before_the_last_trick() -> None:
    state = dealt(["2s", "T4"], [FOOL, "3s", "Qb"], ["4s", "T5"])
    assert refusal(play(state, "2s"), "card.played", seat=1, card=FOOL).code == "fool.not_allowed"
    trumps = dealt(["T4", "2s"], [FOOL, "3s", "Qb"], ["T5", "4s"])
    # Trumps led, but he holds a court card (Qb): no obligation, so no Fool.
    assert refusal(play(trumps, "T4"), "card.played", seat=1, card=FOOL).code == (
        "fool.not_allowed"
    )
    leading = dealt([FOOL, "Qs"], ["2s", "3s"])
    assert refusal(leading, "card.played", seat=0, card=FOOL).code == "fool.not_allowed"


def test_either_obligation_forces_the_fool_d_ll_4() -> None:
    state = play(dealt(["2s", "3d"], [FOOL, "Ks", "Qd"], ["4s", "5d"]), "2s")
    assert [m.data["card"] for m in RULES.legal_events(state) or []] == [FOOL]


def test_the_fool_wins_the_last_trick() -> None:
    state = play(dealt(["2s"], [FOOL], ["Ks"]), "2s", FOOL, "Ks")
    wrong = refusal(state, "trick.won", winner=2)
    assert wrong.code == "trick.wrong_winner" and wrong.data["winner"] == 1
    state = act(state, "trick.won", winner=1)
    assert RULES.is_terminal(state) and RULES.expected(state) == []
    assert refusal(state, "card.played", seat=0, card="3s").code == "game.over"


def test_the_fool_never_wins_an_earlier_trick() -> None:
    state = dealt(["2s", "3s"], [FOOL, "Cs"], ["5s", "6s"])
    state = play(state, "2s", FOOL, "5s")
    assert refusal(state, "trick.won", winner=1).code == "trick.wrong_winner"


def test_the_butt_discards_a_court_card_of_the_suit_led_but_not_the_king() -> None:
    state = fool_trick(["Qs", "Js", "Ks"])
    assert state.butt == 0 and state.butt_due
    assert RULES.expected(state) == ["butt.discarded", "fool.set_aside"]
    assert refusal(state, "card.played", seat=0, card="Qs").code == "event.out_of_order"
    assert refusal(state, "butt.discarded", card="Ks").code == "butt.wrong_discard"
    assert refusal(state, "butt.discarded", card="Qs", knocked=True).code == "butt.wrong_discard"
    state = act(state, "butt.discarded", card="Qs")
    assert state.fool_holder == 0 and state.table.hands is not None
    assert sorted(state.table.hands[0]) == sorted(["Js", "Ks", FOOL])
    assert state.butt_discards == ((0, "Qs", False, False),)


def test_without_such_a_court_card_he_discards_another_and_knocks() -> None:
    state = fool_trick(["Ks", "Qb", "T3"])
    assert refusal(state, "butt.discarded", card="Qb").code == "butt.wrong_discard"
    assert refusal(state, "butt.discarded", card="T3", shown=True).code == "butt.wrong_discard"
    assert act(state, "butt.discarded", card="Qb", knocked=True).butt_discards[0][3] is True


def test_without_court_cards_his_highest_trump_save_magician_and_world_shown() -> None:
    state = fool_trick(["Ks", "T1", "T9", "T15", "T21"])
    assert butt_rule(("Ks", "T1", "T9", "T15", "T21"), "s") == (3, ["T15"])
    assert refusal(state, "butt.discarded", card="T9", shown=True).code == "butt.wrong_discard"
    assert refusal(state, "butt.discarded", card="T15").code == "butt.wrong_discard"
    assert act(state, "butt.discarded", card="T15", shown=True).fool_holder == 0


def test_without_such_a_trump_a_pip_card_shown() -> None:
    state = fool_trick(["Ks", "T1", "T21", "5d"])
    assert RULES.legal_events(state) == [
        Move("butt.discarded", {"card": "5d", "shown": True, "knocked": False})
    ]
    assert refusal(state, "fool.set_aside", hand_shown=True).code == "butt.wrong_discard"


def test_with_only_honours_and_kings_the_fool_is_set_aside_and_exchanged_later_d_ll_3() -> None:
    state = fool_trick(["Ks", "T1", "T21"])
    assert refusal(state, "butt.discarded", card="Ks").code == "butt.wrong_discard"
    assert refusal(state, "fool.set_aside", hand_shown=False).code == "butt.wrong_discard"
    state = act(state, "fool.set_aside", hand_shown=True)
    assert state.fool_holder == "aside"
    state = act(play(state, "Ks", "3b", "6b"), "trick.won", winner=0)
    state = act(play(state, "T1", "4b", "7b"), "trick.won", winner=2)
    state = act(play(state, "8b", "T21", "Cs"), "trick.won", winner=0)  # seat 2 leads
    assert RULES.is_terminal(state) and state.exchange_due is None  # the Butt won the last
    again = fool_trick(["Ks", "T1", "T21"])
    again = act(again, "fool.set_aside", hand_shown=True)
    again = act(play(again, "Ks", "3b", "6b"), "trick.won", winner=2)
    again = act(play(again, "7b", "T1", "4b"), "trick.won", winner=2)
    again = act(play(again, "8b", "T21", "Cs"), "trick.won", winner=2)
    assert again.exchange_due == 2 and not RULES.is_terminal(again)
    assert RULES.current_player(again) == 2
    assert refusal(again, "fool.exchanged", card="Ks").code == "fool.wrong_exchange"
    again = act(again, "fool.exchanged", card="7b")
    assert RULES.is_terminal(again) and again.exchanged == "7b"


def test_the_butt_holds_the_fool_and_plays_it_to_the_last_trick() -> None:
    state = dealt(["2s", "Qs", "Js", "3d"], [FOOL, "Cs", "3b", "4b"], ["5s", "6b", "7b", "8b"])
    state = act(play(state, "2s", FOOL, "5s"), "trick.won", winner=0)
    state = act(state, "butt.discarded", card="Qs")
    assert refusal(state, "card.played", seat=0, card=FOOL).code == "fool.not_allowed"
    state = act(play(state, "3d", "3b", "6b"), "trick.won", winner=2)
    state = play(state, "7b")  # no trump led, no court card of b: the Fool stays
    assert refusal(state, "card.played", seat=0, card=FOOL).code == "fool.not_allowed"
    assert [m.data["card"] for m in RULES.legal_events(state) or []] == ["Js"]
    state = act(play(state, "Js", "4b"), "trick.won", winner=2)
    state = play(state, "8b", FOOL, "Cs")  # the last trick: the Fool's Last Laugh
    assert refusal(state, "trick.won", winner=2).code == "trick.wrong_winner"
    assert act(state, "trick.won", winner=0).table.over


def test_without_hands_a_fool_trick_won_by_its_player_ends_the_hand() -> None:
    state = RULES.initial_state({}, RULESET, 3)
    state = play(state, "2s", FOOL, "5s")
    state = act(state, "trick.won", winner=2)
    assert state.butt == 2 and RULES.legal_events(state) is None
    state = act(state, "butt.discarded", card="Qd", shown=False, knocked=True)
    assert state.fool_holder == 2
    state = play(state, "3s", "4s")  # seat 2 leads, seat 0 and seat 1 follow
    assert refusal(state, "card.played", seat=1, card=FOOL).code == "play.card_not_held"
    assert refusal(state, "card.played", seat=1, card="Qd").code == "card.already_played"
    state = act(play(state, "6s"), "trick.won", winner=0)
    state = act(play(state, "7s", "8s", FOOL), "trick.won", winner=2)
    assert RULES.is_terminal(state)


def test_the_hand_cannot_end_while_a_seat_holds_the_fool_d_ll_5() -> None:
    """RULES.md 18.1 (4), D-LL-5: the Fool is played to the last trick, so hand.ended is refused
    while a seat holds it; without hands, the trick its holder plays it to and wins is the last."""
    state = RULES.initial_state({}, RULESET, 3)
    state = play(state, "2s", FOOL, "5s")
    state = act(state, "trick.won", winner=2)
    state = act(state, "butt.discarded", card="Qb")
    assert state.fool_holder == 2
    refused = refusal(state, "hand.ended")
    assert refused.code == "hand.fool_not_played" and "seat 2" in refused.message.lower()
    assert refused.data == {"seat": 2}
    assert RULES.expected(state) == ["card.played"]
    state = play(state, "3s", "4s", "6s")  # seat 2 leads and keeps the Fool
    state = act(state, "trick.won", winner=1)
    assert refusal(state, "hand.ended").code == "hand.fool_not_played"
    state = act(play(state, "7s", FOOL, "8s"), "trick.won", winner=2)  # the Last Laugh
    assert RULES.is_terminal(state)
    # Before the Fool is seen, or once it is set aside (case 5), the hand may end.
    unseen = act(play(RULES.initial_state({}, RULESET, 3), "2s", "3s", "4s"), "trick.won", winner=2)
    assert RULES.expected(unseen) == ["card.played", "hand.ended"]
    assert RULES.is_terminal(act(unseen, "hand.ended"))


def test_case_5_exchange_without_an_empty_card_is_any_card_of_the_pile_d_ll_6() -> None:
    """D-LL-6: after the Fool is set aside (case 5), the last trick's winner gives the Butt an
    empty card from his trick pile for it; with none, any card of his pile."""
    state = dealt(["5s", "Ks", "Kd"], [FOOL, "Cs", "Qb"], ["2s", "T21", "T1"])
    state = act(play(state, "5s", FOOL, "2s"), "trick.won", winner=0)
    assert RULES.legal_events(state) == [Move("fool.set_aside", {"hand_shown": True})]
    state = act(state, "fool.set_aside", hand_shown=True)
    state = act(play(state, "Ks", "Cs", "T21"), "trick.won", winner=2)
    state = act(play(state, "T1", "Kd", "Qb"), "trick.won", winner=2)  # seat 2 leads
    assert state.exchange_due == 2 and RULES.current_player(state) == 2
    pile = ["Ks", "Cs", "T21", "T1", "Kd", "Qb"]  # no card worth 1 point or less
    assert RULES.legal_events(state) == [Move("fool.exchanged", {"card": c}) for c in pile]
    refused = refusal(state, "fool.exchanged", card="5s")
    assert refused.code == "fool.wrong_exchange" and "no empty card" in refused.message
    state = act(state, "fool.exchanged", card="Kd")
    assert RULES.is_terminal(state) and state.exchanged == "Kd"
    # Without hands: the hand ends once the Fool is aside, and the exchange follows.
    bare = act(play(RULES.initial_state({}, RULESET, 3), "5s", FOOL, "2s"), "trick.won", winner=0)
    bare = act(bare, "fool.set_aside", hand_shown=True)
    bare = act(play(bare, "Ks", "Cs", "T21"), "trick.won", winner=2)
    bare = act(bare, "hand.ended")
    assert bare.exchange_due == 2 and RULES.expected(bare) == ["fool.exchanged"]
    assert refusal(bare, "fool.exchanged", card="2s").code == "fool.wrong_exchange"
    assert RULES.is_terminal(act(bare, "fool.exchanged", card="T21"))


def test_fool_cannot_be_discarded_and_undo_restores_the_state() -> None:
    state = RULES.initial_state({}, RULESET, 3)
    assert refusal(state, "cards.discarded", seat=0, cards=[FOOL]).code == "fool.not_allowed"
    start = RULES.initial_state({}, RULESET, 2)
    moves = [Move("card.played", {"seat": 0, "card": "2s"})]
    assert fold_states(RULES, start, [*moves, Move("move.undone", {})])[-1] == start
    assert refusal(start, "butt.discarded", card="2s").code == "event.out_of_order"
    assert refusal(start, "card.played", seat=0, card=3).code == "event.bad_data"


def test_in_conference_a_good_or_evil_lead_is_a_trump_lead() -> None:
    """RULES.md 16.1 and 17: in Conference, Good and Evil are played only as trumps, so a lead of
    Good or Evil is a trump lead for 18.1 (1): with no court card the Fool must be played."""
    state = RULES.initial_state({}, {"base_game": "conference"}, 3)
    state = act(state, "cards.dealt", hands=[["GOOD", "2s"], [FOOL, "3s"], ["EVIL", "4s"]])
    state = play(state, "GOOD")
    refused = refusal(state, "card.played", seat=1, card="3s")
    assert refused.code == "fool.must_play" and "trumps are led" in refused.message
    assert RULES.legal_events(state) == [Move("card.played", {"seat": 1, "card": FOOL})]
