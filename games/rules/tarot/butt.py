"""The Butt of the Last Laugh (``last-laugh``): RULES.md 18.2.

Whoever wins a trick containing the Fool (before the last trick) is the Butt: he takes the Fool
into his hand and puts another card into his trick pile in its place, chosen by the first of five
cases that applies to his hand: (1) a court card of the suit led, not the King; (2) any other
court card that is not a King, and he knocks; (3) his highest trump save the Magician and the
World, shown; (4) a pip card, shown; (5) none of these: he sets the Fool aside face up and shows
his whole hand. In case 5 whoever wins the last trick takes the Fool and, if that is not the
Butt, gives him an empty card from his trick pile for it (D-LL-3), or any card of the pile if he
has no empty card (D-LL-6).

Functions of the Butt's hand, the suit led to the Fool's trick and the trick piles; the state
and the order of events are ``last_laugh``'s, what the Butt's events take ``shapes``'s. With the
hands recorded the Butt's choice is checked; without them it is recorded as made (16.4).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from games.rules.base import Move
from games.rules.errors import IllegalEvent
from games.rules.tarot import cards
from games.rules.tarot.cards import FOOL
from games.rules.tarot.recording import Table
from games.rules.wording import player_at

BUTT_DISCARDED = "butt.discarded"
SET_ASIDE = "fool.set_aside"
EXCHANGED = "fool.exchanged"


def butt_rule(hand: tuple[str, ...], led: str | None) -> tuple[int, list[str]]:
    """The first rule of 18.2 that applies to the Butt's hand, and the cards it allows."""
    not_king = [c for c in hand if cards.is_court(c) and not cards.is_king(c)]
    of_suit = [c for c in not_king if c[-1] == led]
    if of_suit:
        return 1, of_suit
    if not_king:
        return 2, not_king
    trumps = [c for c in hand if cards.is_trump(c) and c not in (cards.MAGICIAN, cards.WORLD)]
    if trumps:
        return 3, [max(trumps, key=cards.strength)]
    pips = [c for c in hand if cards.is_pip(c)]
    if pips:
        return 4, pips
    return 5, []


def read_discard(data: Mapping[str, Any], pack: Sequence[str]) -> tuple[str, bool, bool]:
    """The card, ``shown`` and ``knocked`` of ``butt.discarded``: any card but the Fool."""
    card = cards.read_card(data.get("card"), "card", pack)
    shown, knocked = flag(data, "shown"), flag(data, "knocked")
    if card == FOOL:
        raise IllegalEvent("butt.wrong_discard", "The Butt keeps the Fool: he discards another.")
    return card, shown, knocked


def check_discard(
    butt: int, hand: tuple[str, ...], led: str | None, card: str, shown: bool, knocked: bool
) -> None:
    """With the Butt's hand known: the card is one his case allows, shown or knocked as due."""
    rule, allowed = butt_rule(hand, led)
    if card not in allowed or shown != (rule in (3, 4)) or knocked != (rule == 2):
        raise IllegalEvent(
            "butt.wrong_discard",
            f"The Butt ({player_at(butt)}) cannot discard {cards.name(card)} "
            f"(shown {shown}, knocked {knocked}): {rule_text(rule, allowed)}.",
            card=card,
            rule=rule,
        )


def check_set_aside(
    data: Mapping[str, Any], butt: int | None, hand: tuple[str, ...] | None, led: str | None
) -> None:
    """``fool.set_aside {"hand_shown": true}``: he shows his hand; with it known, case 5."""
    if flag(data, "hand_shown") is not True:
        raise IllegalEvent(
            "butt.wrong_discard", "Setting the Fool aside, the Butt shows his whole hand."
        )
    if hand is not None:
        rule, allowed = butt_rule(hand, led)
        if rule != 5:
            raise IllegalEvent(
                "butt.wrong_discard",
                f"The Butt ({player_at(butt)}) cannot set the Fool aside: "
                f"{rule_text(rule, allowed)}.",
                rule=rule,
            )


def butt_moves(hand: tuple[str, ...], led: str | None) -> list[Move]:
    """Every choice the Butt's case allows: its discards, or setting the Fool aside."""
    rule, allowed = butt_rule(hand, led)
    if rule == 5:
        return [Move(SET_ASIDE, {"hand_shown": True})]
    return [
        Move(BUTT_DISCARDED, {"card": c, "shown": rule in (3, 4), "knocked": rule == 2})
        for c in allowed
    ]


def rule_text(rule: int, allowed: list[str]) -> str:
    return {
        1: f"he holds court cards of the suit led and must discard one, not the King "
        f"({cards.names(allowed)})",
        2: f"he must discard another court card that is not a King and knock "
        f"({cards.names(allowed)})",
        3: f"he must discard and show his highest trump save the Magician and the World "
        f"({cards.names(allowed)})",
        4: f"he must discard and show a pip card ({cards.names(allowed)})",
        5: "he holds only the Magician, the World and Kings: he sets the Fool aside "
        "(fool.set_aside)",
    }[rule]


def take_fool(table: Table, butt: int, card: str) -> Table:
    """The Butt's discard joins his pile (as a discard); the Fool returns to his hand."""
    discards = list(table.discards)
    discards[butt] = (*discards[butt], card)
    hands = table.hands
    if hands is not None:
        hands = tuple(
            (*cards.without(h, (card,)), FOOL) if s == butt else h for s, h in enumerate(hands)
        )
    return dataclasses.replace(table, discards=tuple(discards), hands=hands)


# --- the exchange of case 5 (D-LL-3, D-LL-6) -----------------------------------------------------


def exchange_choices(pile: list[str]) -> list[str]:
    """The empty cards of the winner's trick pile; with none, any card of it (D-LL-6)."""
    return [c for c in pile if cards.is_empty(c)] or pile


def read_exchange(data: Mapping[str, Any], pack: Sequence[str], seat: int, pile: list[str]) -> str:
    """``fool.exchanged {"card"}``: the card seat ``seat`` gives the Butt from ``pile``."""
    card = cards.read_card(data.get("card"), "card", pack)
    choices = exchange_choices(pile)
    if card not in choices:
        empty = any(cards.is_empty(c) for c in choices)
        what = "an empty card" if empty else "a card (he has no empty card)"
        raise IllegalEvent(
            "fool.wrong_exchange",
            f"{player_at(seat)} must give the Butt {what} from his trick pile "
            f"for the Fool, not {cards.name(card)} ({cards.names(choices)}).",
            card=card,
        )
    return card


def flag(data: Mapping[str, Any], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise IllegalEvent("event.bad_data", f"'{key}' must be true or false.", field=key)
    return value
