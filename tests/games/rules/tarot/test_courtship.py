"""Courtship Rules (RULES.md 19): Queen's Ruff, Royal Marriage, Royal Affair (D-CR-2), the order
of precedence of 19.2 (D-CR-1) and Summoning Servants (D-CR-3, D-CR-4)."""

from __future__ import annotations

from typing import Any

import pytest

from games.rules.base import Move, fold_states
from games.rules.errors import BadSetup, IllegalEvent
from games.rules.tarot.courtship import (
    AFFAIR,
    COURTSHIP_RULES,
    MARRIAGE,
    RUFF,
    State,
    decided_winner,
    special_play,
)

RULES = COURTSHIP_RULES
RULESET = {"base_game": "scarto"}


def act(state: State, type: str, **data: Any) -> State:
    return RULES.apply(state, Move(type, data))


def refusal(state: State, type: str, **data: Any) -> IllegalEvent:
    with pytest.raises(IllegalEvent) as caught:
        RULES.apply(state, Move(type, data))
    return caught.value


def start(seats: int = 4, **ruleset: Any) -> State:
    return RULES.initial_state({}, {**RULESET, **ruleset}, seats)


def dealt(*hands: list[str], **ruleset: Any) -> State:
    return act(start(len(hands), **ruleset), "cards.dealt", hands=[list(h) for h in hands])


def play(state: State, *played: str, affair: bool = False) -> State:
    for card in played:
        data: dict[str, Any] = {"seat": state.table.to_play, "card": card}
        if affair:
            data["affair"] = True
        state = RULES.apply(state, Move("card.played", data))
    return state


def test_base_game_is_required_d_tar_3() -> None:
    with pytest.raises(BadSetup) as caught:
        RULES.initial_state({}, {}, 4)
    assert caught.value.code == "ruleset.base_game_required"


def test_queens_ruff_jack_beats_the_king_and_every_trump_even_the_world() -> None:
    state = play(start(), "2s", "Qs", "T21", "Js")
    assert state.specials == ((3, RUFF),)
    wrong = refusal(state, "trick.won", winner=2)
    assert wrong.code == "trick.wrong_winner" and wrong.data["winner"] == 3
    assert RULES.legal_events(state) == [Move("trick.won", {"winner": 3})]
    state = act(state, "trick.won", winner=3)
    assert state.table.tricks[-1].winner == 3


def test_no_ruff_when_the_queen_was_the_card_led() -> None:
    assert special_play(("Qs",), "Js", None, True) is None
    state = play(start(), "Qs", "Js", "2s", "3s")
    assert state.specials == ()
    assert act(state, "trick.won", winner=0).table.tricks[-1].winner == 0  # the base game's


def test_royal_marriage_queen_after_her_king_takes_the_trick_unless_trumped() -> None:
    state = play(start(), "2s", "Ks", "Qs", "3s")
    assert state.specials == ((2, MARRIAGE),)
    assert refusal(state, "trick.won", winner=1).code == "trick.wrong_winner"
    trumped = play(start(), "2s", "Ks", "Qs", "T2")
    assert decided_winner(trumped.table.current.plays, trumped.specials) is None
    assert act(trumped, "trick.won", winner=3).table.tricks[-1].winner == 3


def test_royal_affair_a_void_players_queen_of_another_suit_after_the_king_led_suit() -> None:
    state = dealt(["2s", "3c"], ["Ks", "4c"], ["Qb", "5c"], ["3s", "6c"])
    state = play(state, "2s", "Ks", "Qb")
    assert state.specials == ((2, AFFAIR),)
    state = play(state, "3s")
    assert RULES.legal_events(state) == [Move("trick.won", {"winner": 2})]
    follower = dealt(["2s", "3c"], ["Ks", "4c"], ["Qb", "4s"], ["3s", "6c"])
    follower = play(follower, "2s", "Ks")
    refused = refusal(follower, "card.played", seat=2, card="Qb", affair=True)
    assert refused.code == "courtship.affair_not_allowed"


def test_royal_affair_king_of_another_suit_needs_the_queen_led_by_default_d_cr_2() -> None:
    assert special_play(("Qs", "2s"), "Kb", False, True) == AFFAIR
    assert special_play(("2s", "Qs"), "Kb", False, True) is None
    assert special_play(("2s", "Qs"), "Kb", False, False) == AFFAIR
    assert special_play(("2s", "Qs"), "Kb", True, False) is None  # he could follow
    state = play(start(courtship_affair_queen_led=False), "2s", "Qs")
    state = play(state, "Kb", affair=True)
    assert state.specials == ((2, AFFAIR),)
    literal = play(start(), "2s", "Qs")
    refused = refusal(literal, "card.played", seat=2, card="Kb", affair=True)
    assert refused.code == "courtship.affair_not_allowed"


def test_without_hands_an_affair_is_declared_and_checked() -> None:
    state = play(start(), "2s", "Ks")
    undeclared = play(state, "Qb")
    assert undeclared.specials == ()  # not declared: an ordinary discard
    declared = play(state, "Qb", affair=True)
    assert declared.specials == ((2, AFFAIR),)
    assert refusal(state, "card.played", seat=2, card="5b", affair=True).code == (
        "courtship.affair_not_allowed"
    )
    assert refusal(state, "card.played", seat=2, card="Qb", affair="yes").code == ("event.bad_data")


def test_the_last_royal_card_played_wins_d_cr_1() -> None:
    state = play(start(), "2s", "Ks", "Qs")
    state = play(state, "Qb", affair=True)
    assert state.specials == ((2, MARRIAGE), (3, AFFAIR))
    assert RULES.legal_events(state) == [Move("trick.won", {"winner": 3})]


def test_a_ruff_outranks_a_royal_card() -> None:
    plays = ((0, "2s"), (1, "Ks"), (2, "Qs"), (3, "Js"))
    assert decided_winner(plays, ((2, MARRIAGE), (3, RUFF))) == 3


def test_summoning_the_jack_brings_it_into_the_trick_and_returns_the_holders_card() -> None:
    state = dealt(["2s", "Js"], ["Ks", "3c"], ["4s", "5c"], ["5s", "6c"])
    state = act(play(state, "2s", "Ks", "4s", "5s"), "trick.won", winner=1)
    assert RULES.expected(state) == ["card.played", "servant.summoned", "servant.refused"]
    assert Move("servant.summoned", {"card": "Js", "from_seat": 0}) in (
        RULES.legal_events(state) or []
    )
    state = act(state, "servant.summoned", card="Js", from_seat=0)
    assert state.table.tricks[-1].cards == ("Js", "Ks", "4s", "5s")
    assert state.table.hands is not None and sorted(state.table.hands[0]) == ["2s"]
    # One summons per trick (D-CR-3).
    assert refusal(state, "servant.summoned", card="Js", from_seat=0).code == "event.out_of_order"


def test_the_cavalier_is_summoned_once_the_jack_is_played_or_discarded_d_cr_4() -> None:
    state = start()
    state = act(state, "cards.discarded", seat=2, cards=["Jb"])
    state = act(play(state, "Kb", "2b", "3b", "4b"), "trick.won", winner=0)
    assert refusal(state, "servant.summoned", card="Jb", from_seat=1).code == ("servant.wrong_card")
    summoned = act(state, "servant.summoned", card="Cb", from_seat=1)
    assert summoned.summons[-1] == {"card": "Cb", "from_seat": 1, "returned": "2b"}
    played = act(play(start(), "Js", "Ks", "2s", "3s"), "trick.won", winner=1)
    assert refusal(played, "servant.summoned", card="Js", from_seat=2).code == (
        "servant.wrong_card"
    )


def test_the_caller_summons_from_his_own_hand_only_if_he_did_not_play_the_king() -> None:
    state = act(play(start(), "Ks", "2s", "3s", "4s"), "trick.won", winner=0)
    assert refusal(state, "servant.summoned", card="Js", from_seat=0).code == "servant.own_hand"
    other = act(play(start(), "2s", "Ks", "3s", "4s"), "trick.won", winner=0)
    assert act(other, "servant.summoned", card="Js", from_seat=0).summons


def test_a_cavalier_called_while_the_jack_is_held_is_refused_by_its_holder() -> None:
    state = act(play(start(), "2s", "Ks", "3s", "4s"), "trick.won", winner=1)
    assert refusal(state, "servant.summoned", card="Cs", from_seat=2).code == ("servant.wrong_card")
    state = act(state, "servant.refused", holder=3)
    assert state.summons[-1] == {"refused_by": 3} and not state.summons_open
    played = act(play(start(), "Js", "Ks", "3s", "4s"), "trick.won", winner=1)
    assert refusal(played, "servant.refused", holder=3).code == "servant.wrong_card"


def test_a_servant_must_serve_a_king_of_the_last_trick() -> None:
    state = act(play(start(), "2s", "Ks", "3s", "4s"), "trick.won", winner=1)
    assert refusal(state, "servant.summoned", card="Jb", from_seat=2).code == "servant.no_king"
    assert refusal(state, "servant.summoned", card="9s", from_seat=2).code == "servant.no_king"
    moved_on = play(state, "5s")
    assert refusal(moved_on, "servant.summoned", card="Js", from_seat=2).code == (
        "event.out_of_order"
    )
    held = dealt(["2s", "9c"], ["Ks", "3c"], ["4s", "Js"], ["5s", "6c"])
    held = act(play(held, "2s", "Ks", "4s", "5s"), "trick.won", winner=1)
    assert refusal(held, "servant.summoned", card="Js", from_seat=0).code == "play.card_not_held"


def test_undo_takes_back_a_summons_and_malformed_data_is_refused() -> None:
    first = start()
    moves = [
        Move("card.played", {"seat": s, "card": c}) for s, c in enumerate(["2s", "Ks", "3s", "4s"])
    ]
    moves.append(Move("trick.won", {"winner": 1}))
    before = fold_states(RULES, first, moves)[-1]
    after = fold_states(
        RULES,
        first,
        [*moves, Move("servant.summoned", {"card": "Js", "from_seat": 2}), Move("move.undone", {})],
    )[-1]
    assert after == before
    assert refusal(before, "servant.summoned", card="Js", from_seat="2").code == "event.bad_data"
    assert refusal(before, "servant.refused").code == "event.bad_data"
    assert refusal(before, "nope").code == "event.unknown_type"
