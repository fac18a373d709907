"""The Last Laugh (``last-laugh``), the Court Jester rule for Scarto, Tarocchi or Conference:
RULES.md 18.

The Fool stays in play until the last trick, which it always wins. Its holder must play it when
trumps are led and he holds no court card, or when he holds a court card of the suit led, and
may not play it otherwise (18.1). Whoever wins a trick containing it is the Butt: he takes it
into his hand and puts another card in its place, chosen by the first rule of 18.2 that applies,
or sets the Fool aside and shows his hand (case 5).

Recording mode (16.4): tricks are recorded in play order with their winners as the base game
decides. With the hands recorded (``cards.dealt``), the service checks 18.1 and the Butt's
choice; without them it records them, and a Fool trick won by the Fool's player is the last.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from games.rules.base import (
    Move,
    Result,
    SeatScore,
    check_expected,
    check_move,
)
from games.rules.errors import IllegalEvent
from games.rules.tarot import cards
from games.rules.tarot.cards import (
    BASE_GAMES,
    DEALT,
    DISCARDED,
    FOOL,
    HAND_ENDED,
    PLAYED,
    TRUMP,
    WON,
    Table,
)

KIND = "last-laugh"
BUTT_DISCARDED = "butt.discarded"
SET_ASIDE = "fool.set_aside"
EXCHANGED = "fool.exchanged"
EVENT_TYPES = frozenset(
    {DEALT, DISCARDED, PLAYED, WON, HAND_ENDED, BUTT_DISCARDED, SET_ASIDE, EXCHANGED}
)
ASIDE = "aside"


@dataclass(frozen=True, slots=True)
class Ruleset:
    """House rules of Last Laugh (Appendix E): only ``base_game``, which must be named."""

    ALLOWED: ClassVar[Mapping[str, tuple[object, ...]]] = {"base_game": BASE_GAMES}

    base_game: str | None = None


@dataclass(frozen=True, slots=True)
class State:
    """A hand: the table, the Fool's holder (a seat, ``aside``, or None while unknown), the
    Butt, and what is due: a Butt's discard after a Fool trick, the exchange of case 5."""

    table: Table
    ruleset: Ruleset
    fool_holder: int | str | None = None
    butt: int | None = None
    butt_due: bool = False
    exchange_due: int | None = None  # the last trick's winner, who owes the Butt a card
    exchanged: str | None = None
    # Every Butt discard: (seat, card, shown, knocked), in order.
    butt_discards: tuple[tuple[int, str, bool, bool], ...] = ()

    @property
    def over(self) -> bool:
        return self.table.over and self.exchange_due is None


class LastLaughRules:
    """The rule engine of one Last Laugh hand in recording mode."""

    kind = KIND
    ruleset_type: type[Any] = Ruleset
    min_seats = 2
    max_seats = 6

    def initial_state(self, setup: Mapping[str, Any], ruleset: Any, seats: int) -> State:
        rules, table = cards.start_hand(self, setup, ruleset, seats, "Last Laugh", "is kept for")
        return State(table, rules)

    def apply(self, state: State, move: Move) -> State:
        check_move(move, EVENT_TYPES, "Last Laugh", state.over, cards.HAND_OVER)
        check_expected(move.type, self.expected(state))
        return _HANDLERS[move.type](state, move.data)

    def expected(self, state: State) -> list[str]:
        table = state.table
        if state.over:
            return []
        if state.exchange_due is not None:
            return [EXCHANGED]
        if state.butt_due:
            return [BUTT_DISCARDED, SET_ASIDE]
        if table.trick_full:
            return [WON]
        if not table.started:
            return [DEALT, DISCARDED, PLAYED] if table.hands is None else [DISCARDED, PLAYED]
        can_end = table.hands is None and not table.current.plays
        return [PLAYED, HAND_ENDED] if can_end else [PLAYED]

    def legal_events(self, state: State) -> list[Move] | None:
        """With the hands recorded, every move 18.1-18.3 allow; None without them."""
        table = state.table
        if state.over:
            return []
        if table.hands is None:
            return None
        if state.exchange_due is not None:
            return [Move(EXCHANGED, {"card": c}) for c in _exchange_choices(state)]
        if state.butt_due:
            return _butt_moves(state)
        if table.trick_full:
            decided = _decided_winner(state)
            seats = [decided] if decided is not None else [s for s, _ in table.current.plays]
            return [Move(WON, {"winner": s}) for s in seats if _winner_refusal(state, s) is None]
        moves = cards.table_moves(table) or []
        return [m for m in moves if _fool_refusal(state, m.data["seat"], m.data["card"]) is None]

    def current_player(self, state: State) -> int | None:
        if state.over:
            return None
        if state.exchange_due is not None:
            return state.exchange_due
        if state.butt_due:
            return state.butt
        return cards.table_player(state.table)

    def is_terminal(self, state: State) -> bool:
        return state.over

    def scores(self, state: State) -> tuple[SeatScore, ...]:
        """Scoring belongs to the base game (18.4): none is computed here."""
        return tuple(SeatScore(s, 0) for s in range(state.table.seats))

    def result(self, state: State) -> Result | None:
        return Result(self.scores(state), ()) if state.over else None

    def view(self, state: State) -> dict[str, Any]:
        return {
            **state.table.as_dict(),
            "base_game": state.ruleset.base_game,
            "fool_holder": state.fool_holder,
            "butt": state.butt,
            "butt_due": state.butt_due,
            "butt_discards": [
                {"seat": s, "card": c, "shown": shown, "knocked": knocked}
                for s, c, shown, knocked in state.butt_discards
            ],
            "exchange_due": state.exchange_due,
            "exchanged": state.exchanged,
        }


# --- dealing and playing (18.1) -----------------------------------------------------------------


def _dealt(state: State, data: Mapping[str, Any]) -> State:
    table = cards.table_deal(state.table, data)
    assert table.hands is not None
    holder = next((s for s, hand in enumerate(table.hands) if FOOL in hand), None)
    return dataclasses.replace(state, table=table, fool_holder=holder)


def _discarded(state: State, data: Mapping[str, Any]) -> State:
    table = cards.table_discard(state.table, data)
    if FOOL in {c for pile in table.discards for c in pile}:
        raise IllegalEvent("fool.not_allowed", "The Fool stays in play: it cannot be discarded.")
    return dataclasses.replace(state, table=table)


def _played(state: State, data: Mapping[str, Any]) -> State:
    table = state.table
    again = (FOOL,) if state.fool_holder not in (None, ASIDE) else ()
    seat, card = cards.read_play(table, data, again)
    if card == FOOL and state.fool_holder not in (None, seat):
        where = "set aside" if state.fool_holder == ASIDE else f"held by seat {state.fool_holder}"
        raise IllegalEvent(
            "play.card_not_held", f"Seat {seat} cannot play the Fool: it is {where}.", seat=seat
        )
    refusal = _fool_refusal(state, seat, card)
    if refusal is not None:
        raise refusal
    return dataclasses.replace(state, table=cards.table_play(table, seat, card))


def _fool_refusal(state: State, seat: int, card: str) -> IllegalEvent | None:
    """18.1 with the hands known: must the Fool be played here, or may it not (D-LL-4)?"""
    hands = state.table.hands
    if hands is None or state.fool_holder != seat:
        return None
    if cards.table_last_trick(state.table):
        return None  # his last card is the Fool itself: the Last Laugh
    hand = hands[seat]
    must = _must_play_fool(hand, state.table.current.cards)
    if must and card != FOOL:
        return IllegalEvent(
            "fool.must_play",
            f"Seat {seat} must play the Fool, not {cards.name(card)}: {must}.",
            card=card,
        )
    if not must and card == FOOL:
        return IllegalEvent(
            "fool.not_allowed",
            f"Seat {seat} may not play the Fool now: before the last trick it is played only "
            "when trumps are led and he holds no court card, or when he holds a court card of "
            "the suit led.",
        )
    return None


def _must_play_fool(hand: tuple[str, ...], trick: tuple[str, ...]) -> str:
    """Why the Fool's holder must play it to this trick (18.1 (1), (2)), or ''."""
    if not trick:
        return ""
    # Good and Evil (Conference) are played only as trumps (16.1): leading one leads trumps.
    led = TRUMP if trick[0] in (cards.GOOD, cards.EVIL) else cards.suit_of(trick[0])
    if led == TRUMP and not any(cards.is_court(c) for c in hand):
        return "trumps are led and he holds no court card"
    if led not in (None, TRUMP) and any(cards.is_court(c) and c[-1] == led for c in hand):
        return f"he holds a court card of the suit led ({led})"
    return ""


# --- trick winners and the Butt (18.2, 18.3) -----------------------------------------------------


def _decided_winner(state: State) -> int | None:
    """The Fool's player wins the last trick; the module decides no other trick."""
    trick = state.table.current
    fool_seat = trick.seat_of(FOOL)
    if fool_seat is not None and cards.table_last_trick(_before_play(state)):
        return fool_seat
    return None


def _before_play(state: State) -> Table:
    """The table as it stood before the trick in progress (for "is this the last trick")."""
    table = state.table
    if table.hands is None:
        return table
    hands = list(table.hands)
    for seat, card in table.current.plays:
        hands[seat] = (*hands[seat], card)
    return dataclasses.replace(table, hands=tuple(hands), current=cards.Trick(table.current.leader))


def _winner_refusal(state: State, winner: int) -> IllegalEvent | None:
    trick = state.table.current
    fool_seat = trick.seat_of(FOOL)
    decided = _decided_winner(state)
    if decided is not None and winner != decided:
        return IllegalEvent(
            "trick.wrong_winner",
            f"The Fool wins the last trick: seat {decided} takes it, not seat {winner}.",
            winner=decided,
        )
    last_known = state.table.hands is not None and cards.table_last_trick(_before_play(state))
    if fool_seat == winner and state.table.hands is not None and not last_known:
        return IllegalEvent(
            "trick.wrong_winner",
            f"The Fool never wins a trick before the last: seat {winner} cannot win this one.",
            winner=winner,
        )
    return None


def _won(state: State, data: Mapping[str, Any]) -> State:
    table = state.table
    winner = cards.read_winner(table, data, _decided_winner(state))
    refusal = _winner_refusal(state, winner)
    if refusal is not None:
        raise refusal
    fool_seat = table.current.seat_of(FOOL)
    table = cards.table_win(table, winner)
    if fool_seat is not None and fool_seat == winner:
        # The Last Laugh: the Fool's last trick ends the hand.
        return dataclasses.replace(state, table=dataclasses.replace(table, over=True))
    if fool_seat is not None:
        return dataclasses.replace(state, table=table, butt=winner, butt_due=True)
    return _after_last_trick(dataclasses.replace(state, table=table))


def _after_last_trick(state: State) -> State:
    """With the Fool set aside, the last trick's winner owes the Butt an empty card (D-LL-3)."""
    table = state.table
    if not table.over or state.fool_holder != ASIDE:
        return state
    winner = table.tricks[-1].winner
    if winner == state.butt:
        return state
    return dataclasses.replace(state, exchange_due=winner)


def _ended(state: State, data: Mapping[str, Any]) -> State:
    return _after_last_trick(dataclasses.replace(state, table=cards.table_end(state.table)))


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


def _butt_hand(state: State) -> tuple[str, ...] | None:
    hands = state.table.hands
    return None if hands is None or state.butt is None else hands[state.butt]


def _led_of_fool_trick(state: State) -> str | None:
    return cards.suit_led(state.table.tricks[-1].cards)


def _butt_discarded(state: State, data: Mapping[str, Any]) -> State:
    """``butt.discarded {"card", "shown", "knocked"}``: the Butt's card in the Fool's place."""
    butt = state.butt
    assert butt is not None
    card = cards.read_card(data.get("card"), "card", state.table.pack)
    shown, knocked = _flag(data, "shown"), _flag(data, "knocked")
    if card == FOOL:
        raise IllegalEvent("butt.wrong_discard", "The Butt keeps the Fool: he discards another.")
    hand = _butt_hand(state)
    if hand is not None:
        rule, allowed = butt_rule(hand, _led_of_fool_trick(state))
        if card not in allowed or shown != (rule in (3, 4)) or knocked != (rule == 2):
            raise IllegalEvent(
                "butt.wrong_discard",
                f"The Butt (seat {butt}) cannot discard {cards.name(card)} "
                f"(shown {shown}, knocked {knocked}): {_rule_text(rule, allowed)}.",
                card=card,
                rule=rule,
            )
    elif card in state.table.seen():
        raise IllegalEvent("card.already_played", f"{cards.name(card)} is already out of play.")
    table = _take_fool(state.table, butt, card)
    return dataclasses.replace(
        state,
        table=table,
        fool_holder=butt,
        butt_due=False,
        butt_discards=(*state.butt_discards, (butt, card, shown, knocked)),
    )


def _rule_text(rule: int, allowed: list[str]) -> str:
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


def _take_fool(table: Table, butt: int, card: str) -> Table:
    """The Butt's discard joins his pile (as a discard); the Fool returns to his hand."""
    discards = list(table.discards)
    discards[butt] = (*discards[butt], card)
    hands = table.hands
    if hands is not None:
        hands = tuple(
            (*cards.without(h, (card,)), FOOL) if s == butt else h for s, h in enumerate(hands)
        )
    return dataclasses.replace(table, discards=tuple(discards), hands=hands)


def _set_aside(state: State, data: Mapping[str, Any]) -> State:
    """``fool.set_aside {"hand_shown": true}``: case 5, the Fool face up beside the Butt."""
    if _flag(data, "hand_shown") is not True:
        raise IllegalEvent(
            "butt.wrong_discard", "Setting the Fool aside, the Butt shows his whole hand."
        )
    hand = _butt_hand(state)
    if hand is not None:
        rule, allowed = butt_rule(hand, _led_of_fool_trick(state))
        if rule != 5:
            raise IllegalEvent(
                "butt.wrong_discard",
                f"The Butt (seat {state.butt}) cannot set the Fool aside: "
                f"{_rule_text(rule, allowed)}.",
                rule=rule,
            )
    return dataclasses.replace(state, fool_holder=ASIDE, butt_due=False)


def _butt_moves(state: State) -> list[Move]:
    hand = _butt_hand(state)
    assert hand is not None
    rule, allowed = butt_rule(hand, _led_of_fool_trick(state))
    if rule == 5:
        return [Move(SET_ASIDE, {"hand_shown": True})]
    return [
        Move(BUTT_DISCARDED, {"card": c, "shown": rule in (3, 4), "knocked": rule == 2})
        for c in allowed
    ]


def _flag(data: Mapping[str, Any], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise IllegalEvent("event.bad_data", f"'{key}' must be true or false.", field=key)
    return value


# --- the exchange of case 5 (D-LL-3) -------------------------------------------------------------


def _pile(state: State, seat: int) -> list[str]:
    """The cards of the tricks ``seat`` won (the Fool excepted) and his Butt discards."""
    won = [c for c in state.table.pile(seat) if c != FOOL]
    return won + [c for s, c, _, _ in state.butt_discards if s == seat]


def _exchange_choices(state: State) -> list[str]:
    assert state.exchange_due is not None
    pile = _pile(state, state.exchange_due)
    return [c for c in pile if cards.is_empty(c)] or pile


def _exchanged(state: State, data: Mapping[str, Any]) -> State:
    """``fool.exchanged {"card"}``: the last trick's winner gives the Butt an empty card."""
    card = cards.read_card(data.get("card"), "card", state.table.pack)
    choices = _exchange_choices(state)
    if card not in choices:
        raise IllegalEvent(
            "fool.wrong_exchange",
            f"Seat {state.exchange_due} must give the Butt an empty card from his trick pile "
            f"for the Fool, not {cards.name(card)} ({cards.names(choices)}).",
            card=card,
        )
    return dataclasses.replace(state, exchange_due=None, exchanged=card)


_HANDLERS = {
    DEALT: _dealt,
    DISCARDED: _discarded,
    PLAYED: _played,
    WON: _won,
    HAND_ENDED: _ended,
    BUTT_DISCARDED: _butt_discarded,
    SET_ASIDE: _set_aside,
    EXCHANGED: _exchanged,
}

LAST_LAUGH_RULES = LastLaughRules()
