"""The Last Laugh (``last-laugh``), the Court Jester rule for Scarto, Tarocchi or Conference:
RULES.md 18.

The Fool stays in play until the last trick, which it always wins. Its holder must play it when
trumps are led and he holds no court card, or when he holds a court card of the suit led, and
may not play it otherwise (18.1). Whoever wins a trick containing it is the Butt: he takes it
into his hand and puts another card in its place, chosen by the first rule of 18.2 that applies,
or sets the Fool aside and shows his hand (case 5); the last trick's winner then gives the Butt
an empty card for it, or any card of his pile if he has none (D-LL-3, D-LL-6): these cases are
``butt``'s. The hand cannot end while a seat holds the Fool (D-LL-5).

Recording mode (16.4): tricks are recorded in play order with their winners as the base game
decides. With the hands recorded (``cards.dealt``), the service checks 18.1 and the Butt's
choice; without them it records them, and a Fool trick won by the Fool's player is the last.
What a hand takes and shows (the Butt's events among them) is declared in ``shapes``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from games.rules.base import (
    Move,
    check_expected,
    check_move,
)
from games.rules.errors import IllegalEvent
from games.rules.tarot import butt, cards, recording, shapes
from games.rules.tarot.butt import BUTT_DISCARDED, EXCHANGED, SET_ASIDE
from games.rules.tarot.cards import FOOL, TRUMP
from games.rules.tarot.recording import (
    BASE_GAMES,
    DEALT,
    DISCARDED,
    HAND_ENDED,
    PLAYED,
    WON,
    Table,
)
from games.rules.tarot.rule_modules import RecordedHandRules
from games.rules.tarot.shapes import ASIDE
from games.rules.wording import player_at

KIND = "last-laugh"
EVENT_TYPES = frozenset(
    {DEALT, DISCARDED, PLAYED, WON, HAND_ENDED, BUTT_DISCARDED, SET_ASIDE, EXCHANGED}
)


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


class LastLaughRules(RecordedHandRules):
    """The rule engine of one Last Laugh hand in recording mode."""

    kind = KIND
    title = "Last Laugh"
    ruleset_type: type[Any] = Ruleset
    state_type = State
    seats_verb = "is kept for"
    events = shapes.LAST_LAUGH_EVENTS
    view_shape = shapes.LAST_LAUGH_VIEW

    def apply(self, state: State, move: Move) -> State:
        check_move(move, EVENT_TYPES, "Last Laugh", state.over, cards.HAND_OVER)
        if move.type == HAND_ENDED:
            _check_fool_played(state)  # D-LL-5: its own refusal, not "out of order"
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
        can_end = table.hands is None and not table.current.plays and _fool_in_hand(state) is None
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
        moves = recording.table_moves(table) or []
        return [m for m in moves if _fool_refusal(state, m.data["seat"], m.data["card"]) is None]

    def current_player(self, state: State) -> int | None:
        if state.over:
            return None
        if state.exchange_due is not None:
            return state.exchange_due
        if state.butt_due:
            return state.butt
        return recording.table_player(state.table)

    def module_view(self, state: State) -> dict[str, Any]:
        return {
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
    table = recording.table_deal(state.table, data)
    assert table.hands is not None
    holder = next((s for s, hand in enumerate(table.hands) if FOOL in hand), None)
    return dataclasses.replace(state, table=table, fool_holder=holder)


def _discarded(state: State, data: Mapping[str, Any]) -> State:
    table = recording.table_discard(state.table, data)
    if FOOL in {c for pile in table.discards for c in pile}:
        raise IllegalEvent("fool.not_allowed", "The Fool stays in play: it cannot be discarded.")
    return dataclasses.replace(state, table=table)


def _played(state: State, data: Mapping[str, Any]) -> State:
    table = state.table
    again = (FOOL,) if state.fool_holder not in (None, ASIDE) else ()
    seat, card = recording.read_play(table, data, again)
    if card == FOOL and state.fool_holder not in (None, seat):
        where = (
            "set aside" if state.fool_holder == ASIDE else f"held by {player_at(state.fool_holder)}"
        )
        raise IllegalEvent(
            "play.card_not_held",
            f"{player_at(seat)} cannot play the Fool: it is {where}.",
            seat=seat,
        )
    refusal = _fool_refusal(state, seat, card)
    if refusal is not None:
        raise refusal
    return dataclasses.replace(state, table=recording.table_play(table, seat, card))


def _fool_refusal(state: State, seat: int, card: str) -> IllegalEvent | None:
    """18.1 with the hands known: must the Fool be played here, or may it not (D-LL-4)?"""
    hands = state.table.hands
    if hands is None or state.fool_holder != seat:
        return None
    if recording.table_last_trick(state.table):
        return None  # his last card is the Fool itself: the Last Laugh
    hand = hands[seat]
    must = _must_play_fool(hand, state.table.current.cards)
    if must and card != FOOL:
        return IllegalEvent(
            "fool.must_play",
            f"{player_at(seat)} must play the Fool, not {cards.name(card)}: {must}.",
            card=card,
        )
    if not must and card == FOOL:
        return IllegalEvent(
            "fool.not_allowed",
            f"{player_at(seat)} may not play the Fool now: before the last trick it is played only "
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


# --- trick winners and the end of the hand (18.1 (4), 18.3, D-LL-5) ------------------------------


def _decided_winner(state: State) -> int | None:
    """The Fool's player wins the last trick; the module decides no other trick."""
    trick = state.table.current
    fool_seat = trick.seat_of(FOOL)
    if fool_seat is not None and recording.table_last_trick(_before_play(state)):
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
            f"The Fool wins the last trick: {player_at(decided)} takes it, not "
            f"{player_at(winner)}.",
            winner=decided,
        )
    last_known = state.table.hands is not None and recording.table_last_trick(_before_play(state))
    if fool_seat == winner and state.table.hands is not None and not last_known:
        return IllegalEvent(
            "trick.wrong_winner",
            f"The Fool never wins a trick before the last: {player_at(winner)} cannot win this "
            "one.",
            winner=winner,
        )
    return None


def _won(state: State, data: Mapping[str, Any]) -> State:
    table = state.table
    winner = recording.read_winner(table, data, _decided_winner(state))
    refusal = _winner_refusal(state, winner)
    if refusal is not None:
        raise refusal
    fool_seat = table.current.seat_of(FOOL)
    table = recording.table_win(table, winner)
    if fool_seat is not None and fool_seat == winner:
        # The Last Laugh: the Fool's last trick ends the hand.
        return dataclasses.replace(state, table=dataclasses.replace(table, over=True))
    if fool_seat is not None:
        return dataclasses.replace(state, table=table, butt=winner, butt_due=True)
    return _after_last_trick(dataclasses.replace(state, table=table))


def _after_last_trick(state: State) -> State:
    """With the Fool set aside, the last trick's winner owes the Butt a card (D-LL-3, D-LL-6)."""
    table = state.table
    if not table.over or state.fool_holder != ASIDE:
        return state
    winner = table.tricks[-1].winner
    if winner == state.butt:
        return state
    return dataclasses.replace(state, exchange_due=winner)


def _fool_in_hand(state: State) -> int | None:
    """The seat holding the Fool in his hand (not played to the trick in progress, not due to
    the Butt, not set aside), or None."""
    holder = state.fool_holder
    if not isinstance(holder, int) or state.butt_due or FOOL in state.table.current.cards:
        return None
    return holder


def _check_fool_played(state: State) -> None:
    """D-LL-5: the Fool is played to the last trick (18.1 (4)), so the hand cannot end while a
    seat holds it; without hands, the trick its holder plays it to and wins is the last."""
    seat = _fool_in_hand(state)
    if seat is not None:
        raise IllegalEvent(
            "hand.fool_not_played",
            f"The hand cannot end: {player_at(seat)} holds the Fool, which is played to the last "
            "trick and wins it.",
            seat=seat,
        )


def _ended(state: State, data: Mapping[str, Any]) -> State:
    """``hand.ended {}`` (without hands): once the Fool is set aside, the last trick's winner
    then owes the Butt the exchange of case 5 (D-LL-5)."""
    return _after_last_trick(dataclasses.replace(state, table=recording.table_end(state.table)))


# --- the Butt (18.2: his cases are in ``butt``), the exchange of case 5 (D-LL-3, D-LL-6) ---------


def _butt_hand(state: State) -> tuple[str, ...] | None:
    hands = state.table.hands
    return None if hands is None or state.butt is None else hands[state.butt]


def _led_of_fool_trick(state: State) -> str | None:
    return cards.suit_led(state.table.tricks[-1].cards)


def _butt_discarded(state: State, data: Mapping[str, Any]) -> State:
    """``butt.discarded {"card", "shown", "knocked"}``: the Butt's card in the Fool's place."""
    seat = state.butt
    assert seat is not None
    card, shown, knocked = butt.read_discard(data, state.table.pack)
    hand = _butt_hand(state)
    if hand is not None:
        butt.check_discard(seat, hand, _led_of_fool_trick(state), card, shown, knocked)
    elif card in state.table.seen():
        raise IllegalEvent("card.already_played", f"{cards.name(card)} is already out of play.")
    return dataclasses.replace(
        state,
        table=butt.take_fool(state.table, seat, card),
        fool_holder=seat,
        butt_due=False,
        butt_discards=(*state.butt_discards, (seat, card, shown, knocked)),
    )


def _set_aside(state: State, data: Mapping[str, Any]) -> State:
    """``fool.set_aside {"hand_shown": true}``: case 5, the Fool face up beside the Butt."""
    butt.check_set_aside(data, state.butt, _butt_hand(state), _led_of_fool_trick(state))
    return dataclasses.replace(state, fool_holder=ASIDE, butt_due=False)


def _butt_moves(state: State) -> list[Move]:
    hand = _butt_hand(state)
    assert hand is not None
    return butt.butt_moves(hand, _led_of_fool_trick(state))


def _pile(state: State, seat: int) -> list[str]:
    """The cards of the tricks ``seat`` won (the Fool excepted) and his Butt discards."""
    won = [c for c in state.table.pile(seat) if c != FOOL]
    return won + [c for s, c, _, _ in state.butt_discards if s == seat]


def _exchange_choices(state: State) -> list[str]:
    assert state.exchange_due is not None
    return butt.exchange_choices(_pile(state, state.exchange_due))


def _exchanged(state: State, data: Mapping[str, Any]) -> State:
    """``fool.exchanged {"card"}``: the last trick's winner gives the Butt an empty card from
    his pile, or any card of it if he has none (D-LL-6)."""
    seat = state.exchange_due
    assert seat is not None
    card = butt.read_exchange(data, state.table.pack, seat, _pile(state, seat))
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
