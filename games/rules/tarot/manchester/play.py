"""Manchester's deals and discards: part one's deal, start values and discards (RULES.md 20.2.1-3),
part two's deal, dummies and Truffle's talon (20.3.1-2, 21.1-3, D-MT-1)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from games.rules.base import Move
from games.rules.errors import IllegalEvent
from games.rules.tarot import cards
from games.rules.tarot.cards import FOOL, Trick
from games.rules.tarot.manchester.state import (
    DISCARDED,
    M_ANNOUNCE,
    M_DEAL,
    M_DISCARD,
    M_PLAY,
    P_CHOOSE,
    P_DISCARD,
    P_PLAY,
    PACKETS,
    PART_ONE_HANDS,
    PICCADILLY_HANDS,
    TRUFFLE,
    TRUFFLE_HANDS,
    TRUFFLE_PACKETS,
    Part,
    State,
    with_value,
)
from games.rules.wording import player_at

# --- the deal of part one (20.2.1, D-MP-2) ------------------------------------------------------


def seat_order(state: State) -> tuple[int, int]:
    """Opposite first: he receives the first packet and leads the first trick."""
    return (state.opposite, state.dealer)


def _deal_packets(
    pack: Sequence[str], receivers: int, packets: Sequence[int]
) -> tuple[list[list[str]], int]:
    """Deal ``pack`` in ``packets`` to ``receivers`` in rotation; the hands and cards used."""
    hands: list[list[str]] = [[] for _ in range(receivers)]
    at = 0
    for size in packets:
        for hand in hands:
            hand.extend(pack[at : at + size])
            at += size
    return hands, at


def _count_check(cards_: Sequence[Any], count: int, what: str) -> None:
    if len(cards_) != count:
        raise IllegalEvent(
            "deal.wrong_count",
            f"{what} must have {count} cards, not {len(cards_)}.",
            count=len(cards_),
            expected=count,
        )


def _list_of_hands(data: Mapping[str, Any], key: str, count: int) -> list[Any]:
    value = data.get(key)
    if value is None:  # every field of cards.dealt is optional, but a deal gives its hands
        raise IllegalEvent(
            "deal.wrong_count",
            f"The deal gives '{key}': {count} hands in seat order.",
            field=key,
            count=0,
            expected=count,
        )
    if not isinstance(value, list):
        raise IllegalEvent("event.bad_data", f"'{key}' must be a list of hands.", field=key)
    if len(value) != count:
        raise IllegalEvent(
            "deal.wrong_count",
            f"'{key}' must list {count} hands in seat order, not {len(value)}.",
            field=key,
            count=len(value),
            expected=count,
        )
    return value


def _dealt_part_one(state: State, data: Mapping[str, Any]) -> State:
    """``cards.dealt`` with the whole shuffled pack (``pack``, top card first), dealt by the
    service in packets 5-5-3 Opposite first (D-MP-2), or with each seat's 13 cards (``hands``)."""
    if "pack" in data:
        pack = data["pack"]
        if not isinstance(pack, list):
            raise IllegalEvent("event.bad_data", "'pack' must be a list of cards.", field="pack")
        _count_check(pack, 78, "The pack")
        order = cards.read_cards(pack, "pack")
        cards.check_partition([order], cards.PACK)
        packets, used = _deal_packets(order, 2, PACKETS)
        by_seat = {state.opposite: packets[0], state.dealer: packets[1]}
        hands = (tuple(by_seat[0]), tuple(by_seat[1]))
        return _after_deal(state, hands, order[used:], ordered=True)
    raw = _list_of_hands(data, "hands", 2)
    for seat, hand in enumerate(raw):
        if not isinstance(hand, list):
            raise IllegalEvent("event.bad_data", "Each hand must be a list of cards.")
        _count_check(hand, 13, f"{player_at(seat)}'s hand")
    parsed = tuple(cards.read_cards(hand, "hands") for hand in raw)
    cards.check_partition(parsed, set(cards.PACK) & {c for h in parsed for c in h})
    stock = cards.without(cards.PACK, [c for h in parsed for c in h])
    return _after_deal(state, parsed, stock, ordered=False)


def _after_deal(
    state: State, hands: tuple[tuple[str, ...], ...], stock: Sequence[str], ordered: bool
) -> State:
    return dataclasses.replace(
        state, phase=M_ANNOUNCE, dealt=hands, stock=tuple(stock), stock_ordered=ordered
    )


def on_announced(state: State, data: Mapping[str, Any]) -> State:
    """``value.announced {"seat", "value"}``: Even Stevens, the card points of his 13 (20.2.2)."""
    seat = cards.read_seat(data, "seat", 2)
    value = data.get("value")
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalEvent("event.bad_data", "'value' must be a whole number.", field="value")
    if state.start_values[seat] is not None:
        raise IllegalEvent(
            "announce.already_made", f"{player_at(seat)} has already announced his start value."
        )
    total = cards.points_of(state.dealt[seat])
    if value != total:
        raise IllegalEvent(
            "announce.wrong_total",
            f"{player_at(seat)}'s 13 cards are worth {total} card points, not {value}.",
            value=total,
        )
    values = with_value(state.start_values, seat, value)
    phase = M_DISCARD if None not in values else M_ANNOUNCE
    return dataclasses.replace(state, start_values=values, phase=phase)


# --- discards (20.2.3, D-MP-7; 21.1) ------------------------------------------------------------


def _restricted(card: str) -> bool:
    """Trumps, Honours (the Fool included) and Kings may be discarded only when needed."""
    return cards.is_trump(card) or card == FOOL or cards.is_king(card)


def _read_discard(
    data: Mapping[str, Any], hand: Sequence[str], seat: int, count: int
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The discarded cards and those shown; each held, ``count`` of them."""
    chosen = cards.read_cards(data.get("cards"), "cards")
    shown = cards.read_cards(data.get("shown", []), "shown")
    if len(chosen) != count:
        raise IllegalEvent(
            "discard.wrong_count",
            f"{player_at(seat)} must discard {count} cards, not {len(chosen)}.",
            count=len(chosen),
        )
    for card in chosen:
        if card not in hand:
            raise IllegalEvent(
                "play.card_not_held",
                f"{player_at(seat)} cannot discard {cards.name(card)}: he does not hold it.",
                card=card,
            )
    return chosen, shown


def on_discarded(state: State, data: Mapping[str, Any]) -> State:
    if state.phase == P_DISCARD:
        return _truffle_discarded(state, data)
    seat = cards.read_seat(data, "seat", 2)
    if state.discards[seat] is not None:
        raise IllegalEvent("discard.already_made", f"{player_at(seat)} has already discarded.")
    hand = state.dealt[seat]
    chosen, shown = _read_discard(data, hand, seat, 3)
    others = sum(1 for c in hand if not _restricted(c))
    allowed = max(0, 3 - others)
    restricted = [c for c in chosen if _restricted(c)]
    if len(restricted) > allowed:
        raise IllegalEvent(
            "discard.restricted_card",
            f"{player_at(seat)} cannot discard {cards.names(restricted)}: trumps, Honours and "
            f"Kings may be discarded only to make up three, and he holds {others} other cards.",
            cards=restricted,
        )
    _check_shown(restricted, shown, seat)
    discards = with_value(state.discards, seat, chosen)
    if None in discards:
        return dataclasses.replace(state, discards=discards)
    return _start_part_one(dataclasses.replace(state, discards=discards))


def _check_shown(required: Sequence[str], shown: Sequence[str], seat: int) -> None:
    hidden = [c for c in required if c not in shown]
    if hidden:
        raise IllegalEvent(
            "discard.not_shown",
            f"{player_at(seat)} must show {cards.names(hidden)} when discarding it.",
            cards=hidden,
        )


def _start_part_one(state: State) -> State:
    hands = [cards.without(state.dealt[s], state.discards[s] or ()) for s in (0, 1)]
    part = Part(
        labels=PART_ONE_HANDS,
        owners=(state.dealer, state.opposite),
        hands=(hands[state.dealer], hands[state.opposite]),
        piles=(state.discards[0] or (), state.discards[1] or (), ()),
        current=Trick(1),  # Opposite leads the first trick (20.2.4)
    )
    return dataclasses.replace(state, phase=M_PLAY, part=part)


def legal_discards(state: State) -> list[Move]:
    seat = next(s for s in seat_order(state) if state.discards[s] is None)
    hand = state.dealt[seat]
    held_restricted = {c for c in hand if _restricted(c)}  # asked once a card, not per choice
    needed = max(0, 3 - (len(hand) - len(held_restricted)))
    moves = []
    for chosen in combinations(hand, 3):
        restricted = [c for c in chosen if c in held_restricted]
        if len(restricted) <= needed:
            moves.append(
                Move(DISCARDED, {"seat": seat, "cards": list(chosen), "shown": restricted})
            )
    return moves


# --- part two: the deal, dummies, Truffle's talon (20.3.1-2, 21.1-3, D-MT-1) ---------------------


def on_dealt(state: State, data: Mapping[str, Any]) -> State:
    if state.phase == M_DEAL:
        return _dealt_part_one(state, data)
    if state.kind == TRUFFLE:
        return _dealt_truffle(state, data)
    if "hands" not in data:
        if not state.stock_ordered:
            raise IllegalEvent(
                "deal.wrong_count",
                "Part one's deal gave the hands only: record part two's 'hands' too.",
                field="hands",
            )
        packets, _ = _deal_packets(state.stock, 4, PACKETS)
        by_seat = {
            state.opposite: (packets[0], packets[2]),
            state.dealer: (packets[1], packets[3]),
        }
        raw: list[Any] = [by_seat[0], by_seat[1]]
    else:
        raw = _list_of_hands(data, "hands", 2)
    options = []
    for seat, pair in enumerate(raw):
        if not isinstance(pair, list | tuple):
            raise IllegalEvent("event.bad_data", "Each seat's hands must be a list.", field="hands")
        if len(pair) != 2:
            raise IllegalEvent(
                "deal.wrong_count",
                f"{player_at(seat)} receives two hands of 13 cards, not {len(pair)}.",
                field="hands",
                count=len(pair),
                expected=2,
            )
        for hand in pair:
            if not isinstance(hand, list | tuple):
                raise IllegalEvent("event.bad_data", "Each hand must be a list of cards.")
            _count_check(hand, 13, f"Each of {player_at(seat)}'s hands")
        options.append(tuple(cards.read_cards(list(h), "hands") for h in pair))
    cards.check_partition([h for pair in options for h in pair], state.stock)
    return dataclasses.replace(state, phase=P_CHOOSE, options=tuple(options))


def on_chosen(state: State, data: Mapping[str, Any]) -> State:
    """``dummy.chosen {"seat", "dummy": 0|1}``: which of his two hands becomes his dummy."""
    seat = cards.read_seat(data, "seat", 2)
    index = data.get("dummy")
    if type(index) is not int or index not in (0, 1):
        raise IllegalEvent("event.bad_data", "'dummy' must be 0 or 1.", field="dummy")
    if state.dummies[seat] is not None:
        raise IllegalEvent(
            "dummy.already_chosen", f"{player_at(seat)} has already chosen his dummy."
        )
    dummies = with_value(state.dummies, seat, index)
    state = dataclasses.replace(state, dummies=dummies)
    if None in dummies:
        return state
    # Both dummies are laid face up together, once both players have chosen (20.3.1).
    d, o = state.dealer, state.opposite

    def pick(seat: int, dummy: bool) -> tuple[str, ...]:
        choice = state.dummies[seat]
        assert choice is not None
        return state.options[seat][choice if dummy else 1 - choice]

    part = Part(
        labels=PICCADILLY_HANDS,
        owners=(d, o, d, o),
        hands=(pick(d, False), pick(o, False), pick(d, True), pick(o, True)),
        piles=((), (), ()),
        current=Trick(0),  # Dealer leads the first trick (20.3.3)
    )
    return dataclasses.replace(state, phase=P_PLAY, part=part)


def _dealt_truffle(state: State, data: Mapping[str, Any]) -> State:
    """Opposite, Dealer and the dummy get 16 each (5-5-6); Dealer takes the talon (D-MT-1)."""
    talon_size = state.ruleset.truffle_talon
    parts: tuple[tuple[str, ...], ...]
    if "hands" not in data:
        if not state.stock_ordered:
            raise IllegalEvent(
                "deal.wrong_count",
                "Part one's deal gave the hands only: record part two's 'hands', 'dummy' and "
                "'talon' too.",
                field="hands",
            )
        packets, used = _deal_packets(state.stock, 3, TRUFFLE_PACKETS)
        rest = state.stock[used:]
        hands = {state.opposite: tuple(packets[0]), state.dealer: tuple(packets[1])}
        parts = (hands[0], hands[1], tuple(packets[2]))
        talon, dead = rest[len(rest) - talon_size :], rest[: len(rest) - talon_size]
    else:
        raw = _list_of_hands(data, "hands", 2)
        dummy, talon_raw = data.get("dummy"), data.get("talon")
        for what, hand in (("Seat 0's hand", raw[0]), ("Seat 1's hand", raw[1])):
            if not isinstance(hand, list):
                raise IllegalEvent("event.bad_data", "Each hand must be a list of cards.")
            _count_check(hand, 16, what)
        if not isinstance(dummy, list) or not isinstance(talon_raw, list):
            raise IllegalEvent(
                "event.bad_data", "'dummy' and 'talon' must be lists of cards.", field="dummy"
            )
        _count_check(dummy, 16, "The dummy")
        _count_check(talon_raw, talon_size, "The talon")
        parts = tuple(cards.read_cards(h, "hands") for h in (raw[0], raw[1], dummy))
        talon = cards.read_cards(talon_raw, "talon")
        dealt = [c for p in (*parts, talon) for c in p]
        cards.check_partition([dealt], set(dealt) & set(state.stock))
        dead = cards.without(state.stock, dealt)
    return dataclasses.replace(
        state, phase=P_DISCARD, pending_truffle=parts, talon=tuple(talon), dead=tuple(dead)
    )


def _truffle_discarded(state: State, data: Mapping[str, Any]) -> State:
    """Dealer discards as many as he took: no Honours or Kings, all shown (21.1)."""
    seat = cards.read_seat(data, "seat", 2)
    if seat != state.dealer:
        raise IllegalEvent(
            "play.not_your_turn", f"Only the dealer ({player_at(state.dealer)}) discards now."
        )
    hand = (*state.pending_truffle[seat], *state.talon)
    count = state.ruleset.truffle_talon
    chosen, shown = _read_discard(data, hand, seat, count)
    banned = [c for c in chosen if c in cards.HONOURS or cards.is_king(c)]
    if banned:
        raise IllegalEvent(
            "discard.restricted_card",
            f"The dealer cannot discard {cards.names(banned)}: Honours and Kings stay in hand.",
            cards=banned,
        )
    _check_shown(chosen, shown, seat)
    hands = list(state.pending_truffle)
    hands[seat] = cards.without(hand, chosen)
    d, o = state.dealer, state.opposite
    piles: list[tuple[str, ...]] = [(), (), ()]
    piles[d] = chosen
    part = Part(
        labels=TRUFFLE_HANDS,
        owners=(d, None, o),
        hands=(hands[d], hands[2], hands[o]),
        piles=tuple(piles),
        current=Trick(0),  # Dealer leads the first trick (21.4)
    )
    return dataclasses.replace(state, phase=P_PLAY, part=part, truffle_discards=chosen)


def legal_truffle_discards(state: State) -> list[Move]:
    hand = (*state.pending_truffle[state.dealer], *state.talon)
    allowed = [c for c in hand if c not in cards.HONOURS and not cards.is_king(c)]
    return [
        Move(DISCARDED, {"seat": state.dealer, "cards": list(c), "shown": list(c)})
        for c in combinations(allowed, state.ruleset.truffle_talon)
    ]
