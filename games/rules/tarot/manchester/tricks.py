"""Manchester's tricks and the Fool's payment, in both parts (RULES.md 20.2.4-5, 20.3.3-4, 21.4)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from games.rules.errors import IllegalEvent
from games.rules.tarot import cards
from games.rules.tarot.cards import FOOL, Trick
from games.rules.tarot.manchester.state import (
    DUMMY_PILE,
    HAND_OVER,
    M_PLAY,
    M_SCORE,
    P_DEAL,
    P_PLAY,
    P_SCORE,
    TRUFFLE,
    Part,
    State,
    with_value,
)
from games.rules.wording import player_at

# --- tricks (20.2.4-5, 20.3.3-4, 21.4) -----------------------------------------------------------


def player_of(state: State, part: Part, hand: int) -> int:
    """The seat playing ``hand``; the Truffle dummy is played by Opposite at odd tricks (D-MT-2)."""
    owner = part.owners[hand]
    if owner is not None:
        return owner
    return state.opposite if len(part.tricks) % 2 == 0 else state.dealer


def on_played(state: State, data: Mapping[str, Any]) -> State:
    """``card.played {"card", "hand"?, "seat"?}``: the hand on turn plays; hand and seat checked."""
    part = state.part
    assert part is not None
    if part.trick_full:
        raise IllegalEvent("trick.winner_due", "The trick is complete: record trick.won.")
    on_turn = part.to_play
    card = cards.read_card(data.get("card"), "card")
    label = data.get("hand", part.labels[on_turn])
    seat = data.get("seat", player_of(state, part, on_turn))
    if label != part.labels[on_turn] or seat != player_of(state, part, on_turn):
        raise IllegalEvent(
            "play.not_your_turn",
            f"{cards.name(card)} cannot be played now: the {part.labels[on_turn]} hand plays "
            f"next, played by {player_at(player_of(state, part, on_turn))}.",
            hand=part.labels[on_turn],
        )
    hand = part.hands[on_turn]
    if card not in hand:
        raise IllegalEvent(
            "play.card_not_held",
            f"The {part.labels[on_turn]} hand does not hold {cards.name(card)}.",
            card=card,
        )
    refusal = cards.follow_refusal(hand, part.current.cards, card)
    if refusal is not None:
        raise refusal
    hands = with_value(part.hands, on_turn, cards.without(hand, (card,)))
    current = dataclasses.replace(part.current, plays=(*part.current.plays, (on_turn, card)))
    return dataclasses.replace(state, part=dataclasses.replace(part, hands=hands, current=current))


def trick_winner(part: Part) -> int:
    plays = part.current.plays
    return plays[cards.winning_index([c for _, c in plays])][0]


def on_won(state: State, data: Mapping[str, Any]) -> State:
    """``trick.won {"winner": hand}``, checked against the rules' winner (trick.wrong_winner)."""
    part = state.part
    assert part is not None
    if not part.trick_full:
        raise IllegalEvent("trick.incomplete", "The trick is not complete: it cannot be won yet.")
    winner = trick_winner(part)
    named = data.get("winner")
    if named != part.labels[winner]:
        raise IllegalEvent(
            "trick.wrong_winner",
            f"The {part.labels[winner]} hand wins {cards.names(part.current.cards)}, "
            f"not {named!r}.",
            winner=part.labels[winner],
        )
    part = _gather(part, winner, last=not any(part.hands), part_two=state.phase == P_PLAY)
    part = dataclasses.replace(part, current=Trick(_next_leader(state, part, winner)))
    state = dataclasses.replace(state, part=part)
    if any(part.hands):
        return state
    if part.fool_debt is not None:
        return dataclasses.replace(state, phase=M_SCORE if state.phase == M_PLAY else P_SCORE)
    return _end_of_part(state)


def _gather(part: Part, winner: int, last: bool, part_two: bool) -> Part:
    """The winner's pile takes the trick; an excused Fool returns to its owner's pile and leaves
    a debt, except on the last trick of part two, where it is lost (D-MP-3, D-MP-4, D-MT-3)."""
    trick = dataclasses.replace(part.current, winner=winner)
    piles = list(part.piles)
    to = part.pile_of(winner)
    debt = part.fool_debt
    for hand, card in trick.plays:
        if card == FOOL and not (last and part_two):
            owner = part.pile_of(hand)
            piles[owner] = (*piles[owner], card)
            if owner != DUMMY_PILE and owner != to:
                debt = (owner, to)
        else:
            piles[to] = (*piles[to], card)
    return dataclasses.replace(
        part, piles=tuple(piles), tricks=(*part.tricks, trick), fool_debt=debt
    )


def _next_leader(state: State, part: Part, winner: int) -> int:
    """Part one alternates the lead (D-MP-1) unless the house plays ``winner``; part two: winner."""
    if state.phase == M_PLAY and state.ruleset.mp_manchester_lead == "alternate":
        return 1 if len(part.tricks) % 2 == 0 else 0
    return winner


# --- the Fool's payment (20.2.5, 20.3.4) ---------------------------------------------------------


def payment_choices(part: Part) -> list[str]:
    assert part.fool_debt is not None
    owner = part.fool_debt[0]
    if part.tricks_won(owner) == 0:
        return [FOOL]
    pile = [c for c in part.piles[owner] if c != FOOL]
    empty = [c for c in pile if cards.is_empty(c)]
    return empty or pile


def on_paid(state: State, data: Mapping[str, Any]) -> State:
    """``fool.paid {"card"}``: the Fool's owner pays the trick's winner from his pile."""
    part = state.part
    assert part is not None and part.fool_debt is not None
    owner, to = part.fool_debt
    card = cards.read_card(data.get("card"), "card")
    choices = payment_choices(part)
    if card not in choices:
        why = (
            "he won no trick, so he surrenders the Fool itself"
            if choices == [FOOL]
            else f"he pays one card of his trick pile, an empty one if he has one: "
            f"{cards.names(choices)}"
        )
        raise IllegalEvent(
            "fool.payment",
            f"{player_at(owner)} cannot pay {cards.name(card)} for the Fool: {why}.",
            card=card,
            choices=choices,
        )
    piles = list(part.piles)
    piles[owner] = cards.without(piles[owner], (card,))
    piles[to] = (*piles[to], card)
    part = dataclasses.replace(part, piles=tuple(piles), fool_debt=None)
    return _end_of_part(dataclasses.replace(state, part=part))


def _end_of_part(state: State) -> State:
    if state.first is None:
        return dataclasses.replace(state, phase=P_DEAL, first=state.part, part=None)
    return dataclasses.replace(state, phase=HAND_OVER, part=_discards_settled(state))


def _discards_settled(state: State) -> Part | None:
    """Truffle: Dealer's three discards go to Opposite's pile if Dealer won no trick in part two
    (21.2), so the piles, their points and the second score all show where the cards went."""
    part = state.part
    if state.kind != TRUFFLE or part is None or part.tricks_won(state.dealer) > 0:
        return part
    piles = list(part.piles)
    discards = set(state.truffle_discards)
    piles[state.dealer] = tuple(c for c in piles[state.dealer] if c not in discards)
    piles[state.opposite] = (*piles[state.opposite], *state.truffle_discards)
    return dataclasses.replace(part, piles=tuple(piles))
