"""Manchester Piccadilly (``manchester-piccadilly``) and Manchester Truffle
(``manchester-truffle``), two-player tarot games: RULES.md sections 20 and 21.

A hand is played in two parts. Part one (Manchester): 13 cards each, announced start values,
three discards, ten tricks of two cards. Part two: Piccadilly plays four hands of 13 (each player
a hand and a dummy) for 13 tricks; Truffle plays three hands of 16 (Dealer, a dummy played in turn
by both, Opposite) for 16 tricks. The hand total is first score + second score; the higher total
wins the difference in game points.

Deals arrive recorded: the shuffled pack (``pack``, dealt by the service in packets, Opposite
first: D-MP-2; Piccadilly's four hands go Opposite, Dealer, Opposite, Dealer; Truffle's Opposite,
Dealer, dummy) or the hands themselves.

One game stream is one hand; a game of ``mp_hands`` hands is a match of that many hands
(``ManchesterMatch``), with the dealer alternating (RULES.md 20.1, D-MP-6). The state machine of
20.5 is per hand, so a hand is the natural stream; the match adds up the game points.

Hands are named, clockwise: part one ``dealer``, ``opposite``; Piccadilly ``dealer``,
``opposite``, ``dealer_dummy``, ``opposite_dummy``; Truffle ``dealer``, ``dummy``, ``opposite``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, ClassVar

from games.rules import cards
from games.rules.base import Move, Result, SeatScore, make_ruleset
from games.rules.cards import FOOL, Trick
from games.rules.errors import BadRuleset, BadSetup, IllegalEvent
from games.rules.matches import ScoredMatch, ScoredMatchState, ranked, register_format
from games.rules.registry import register

PICCADILLY, TRUFFLE = "manchester-piccadilly", "manchester-truffle"

M_DEAL, M_ANNOUNCE, M_DISCARD, M_PLAY, M_SCORE = (
    "M_DEAL",
    "M_ANNOUNCE",
    "M_DISCARD",
    "M_PLAY",
    "M_SCORE",
)
P_DEAL, P_CHOOSE, P_DISCARD, P_PLAY, P_SCORE, HAND_OVER = (
    "P_DEAL",
    "P_CHOOSE",
    "P_DISCARD",
    "P_PLAY",
    "P_SCORE",
    "HAND_OVER",
)

DEALT, ANNOUNCED, DISCARDED, CHOSEN, PLAYED, WON, PAID = (
    "cards.dealt",
    "value.announced",
    "cards.discarded",
    "dummy.chosen",
    "card.played",
    "trick.won",
    "fool.paid",
)
EVENT_TYPES = frozenset({DEALT, ANNOUNCED, DISCARDED, CHOSEN, PLAYED, WON, PAID})

PART_ONE_HANDS = ("dealer", "opposite")
PICCADILLY_HANDS = ("dealer", "opposite", "dealer_dummy", "opposite_dummy")
TRUFFLE_HANDS = ("dealer", "dummy", "opposite")
DUMMY_PILE = 2  # the truffle dummy's trick pile (after seat 0's and seat 1's): nobody's
PACKETS = (5, 5, 3)
TRUFFLE_PACKETS = (5, 5, 6)


def _check_hands(value: Any) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 2 or value % 2:
        raise BadRuleset(
            "ruleset.bad_value",
            f"House rule 'mp_hands' cannot be {value!r}: a game is an even number of hands, "
            "each player dealing as often (D-MP-6).",
            parameter="mp_hands",
        )


@dataclass(frozen=True, slots=True)
class Ruleset:
    """House rules of Manchester Piccadilly (Appendix E: D-MP-1, D-MP-6)."""

    ALLOWED: ClassVar[Mapping[str, tuple[object, ...]]] = {
        "mp_manchester_lead": ("alternate", "winner"),
        "sheet_entry_validation": ("strict", "lenient"),
    }

    mp_manchester_lead: str = "alternate"
    mp_hands: int = 2
    sheet_entry_validation: str = "strict"

    def __post_init__(self) -> None:
        _check_hands(self.mp_hands)


@dataclass(frozen=True, slots=True)
class TruffleRuleset:
    """House rules of Manchester Truffle (Appendix E: D-MP-1, D-MP-6, D-MT-1)."""

    ALLOWED: ClassVar[Mapping[str, tuple[object, ...]]] = {
        "mp_manchester_lead": ("alternate", "winner"),
        "truffle_talon": (3, 4),
        "sheet_entry_validation": ("strict", "lenient"),
    }

    mp_manchester_lead: str = "alternate"
    mp_hands: int = 2
    truffle_talon: int = 3
    sheet_entry_validation: str = "strict"

    def __post_init__(self) -> None:
        _check_hands(self.mp_hands)


@dataclass(frozen=True, slots=True)
class Part:
    """One part of a hand: the named hands, the tricks, and the trick piles of seat 0, seat 1
    and (Truffle) the dummy. Trick plays name hands by their index in ``labels``."""

    labels: tuple[str, ...]
    owners: tuple[int | None, ...]
    hands: tuple[tuple[str, ...], ...]
    piles: tuple[tuple[str, ...], ...]
    current: Trick
    tricks: tuple[Trick, ...] = ()
    # (the Fool's owner, the pile he owes a card to), until paid at the end of the part
    fool_debt: tuple[int, int] | None = None

    @property
    def to_play(self) -> int:
        return (self.current.leader + len(self.current.plays)) % len(self.labels)

    @property
    def trick_full(self) -> bool:
        return len(self.current.plays) == len(self.labels)

    def pile_of(self, hand: int) -> int:
        owner = self.owners[hand]
        return DUMMY_PILE if owner is None else owner

    def tricks_won(self, pile: int) -> int:
        return sum(
            1 for t in self.tricks if t.winner is not None and self.pile_of(t.winner) == pile
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "hands": {label: list(h) for label, h in zip(self.labels, self.hands, strict=True)},
            "tricks": [_trick_dict(self, t) for t in self.tricks],
            "trick": _trick_dict(self, self.current),
            "piles": [list(p) for p in self.piles],
            "fool_debt": None
            if self.fool_debt is None
            else {"owner": self.fool_debt[0], "to": _pile_name(self.fool_debt[1])},
        }


@dataclass(frozen=True, slots=True)
class State:
    """One hand of Manchester Piccadilly or Truffle."""

    kind: str
    ruleset: Any
    dealer: int
    phase: str = M_DEAL
    dealt: tuple[tuple[str, ...], ...] = ()  # part one's 13 cards of seat 0 and seat 1
    stock: tuple[str, ...] = ()  # the 52 cards set aside for part two
    stock_ordered: bool = False
    start_values: tuple[int | None, ...] = (None, None)
    discards: tuple[tuple[str, ...] | None, ...] = (None, None)
    part: Part | None = None
    first: Part | None = None  # part one, once over
    options: tuple[tuple[tuple[str, ...], ...], ...] = ()  # Piccadilly: each seat's two hands
    dummies: tuple[int | None, ...] = (None, None)  # which of the two each chose as dummy
    talon: tuple[str, ...] = ()  # Truffle: the cards Dealer takes
    dead: tuple[str, ...] = ()  # Truffle: the card left over (D-MT-1)
    truffle_discards: tuple[str, ...] = ()
    pending_truffle: tuple[tuple[str, ...], ...] = field(default=())

    @property
    def opposite(self) -> int:
        return 1 - self.dealer


def _pile_name(pile: int) -> str:
    return "dummy" if pile == DUMMY_PILE else f"seat {pile}"


def _trick_dict(part: Part, trick: Trick) -> dict[str, Any]:
    return {
        "leader": part.labels[trick.leader],
        "plays": [{"hand": part.labels[h], "card": c} for h, c in trick.plays],
        "winner": None if trick.winner is None else part.labels[trick.winner],
    }


class ManchesterRules:
    """The rule engine of one hand of ``manchester-piccadilly`` or ``manchester-truffle``."""

    min_seats = 2
    max_seats = 2

    def __init__(self, kind: str, ruleset_type: type[Any]) -> None:
        self.kind = kind
        self.ruleset_type = ruleset_type

    def initial_state(self, setup: Mapping[str, Any], ruleset: Any, seats: int) -> State:
        """A hand awaiting its deal; ``setup["dealer"]`` (seat 0 by default) deals it."""
        if seats != 2:
            raise BadSetup("game.bad_seats", f"{self.kind} has two players, not {seats}.")
        rules = (
            ruleset
            if isinstance(ruleset, self.ruleset_type)
            else make_ruleset(self.ruleset_type, ruleset)
        )
        if setup is not None and not isinstance(setup, Mapping):
            raise BadSetup("setup.not_an_object", "The setup must be a JSON object.")
        dealer = (setup or {}).get("dealer", 0)
        if type(dealer) is not int or dealer not in (0, 1):
            raise BadSetup("setup.bad_dealer", f"'dealer' must be seat 0 or 1, not {dealer!r}.")
        return State(self.kind, rules, dealer)

    def apply(self, state: State, move: Move) -> State:
        """The state after ``move``, or IllegalEvent with a RULES.md 20.5 refusal code."""
        if not isinstance(move.type, str) or move.type not in EVENT_TYPES:
            raise IllegalEvent(
                "event.unknown_type",
                f"{move.type!r} is not an event of {self.kind}.",
                type=move.type,
            )
        if not isinstance(move.data, Mapping):
            raise IllegalEvent("event.bad_data", f"The data of {move.type} must be an object.")
        if state.phase == HAND_OVER:
            raise IllegalEvent("game.over", "The hand is over: no move can be recorded.")
        allowed = self.expected(state)
        if move.type not in allowed:
            raise IllegalEvent(
                "event.out_of_order",
                f"{move.type} cannot be recorded now ({state.phase}); expected "
                f"{', '.join(allowed)}.",
                expected=allowed,
            )
        return _HANDLERS[move.type](state, move.data)

    def expected(self, state: State) -> list[str]:
        if state.phase in (M_PLAY, P_PLAY) and state.part is not None:
            return [WON] if state.part.trick_full else [PLAYED]
        return list(_EXPECTED.get(state.phase, ()))

    def legal_events(self, state: State) -> list[Move] | None:
        """Every legal move, except a deal from an unrecorded shuffle (None then)."""
        phase = state.phase
        if phase == HAND_OVER:
            return []
        if phase in (M_DEAL, P_DEAL):
            return [Move(DEALT, {})] if phase == P_DEAL and state.stock_ordered else None
        if phase == M_ANNOUNCE:
            return [
                Move(ANNOUNCED, {"seat": s, "value": cards.points_of(state.dealt[s])})
                for s in _seat_order(state)
                if state.start_values[s] is None
            ]
        if phase == M_DISCARD:
            return _legal_discards(state)
        if phase == P_CHOOSE:
            return [
                Move(CHOSEN, {"seat": s, "dummy": i})
                for s in _seat_order(state)
                if state.dummies[s] is None
                for i in (0, 1)
            ]
        if phase == P_DISCARD:
            return _legal_truffle_discards(state)
        part = state.part
        assert part is not None
        if phase in (M_SCORE, P_SCORE):
            return [Move(PAID, {"card": c}) for c in _payment_choices(part)]
        if part.trick_full:
            winner = _winner(part)
            return [Move(WON, {"winner": part.labels[winner]})]
        hand = part.hands[part.to_play]
        return [Move(PLAYED, {"card": c}) for c in cards.legal_cards(hand, part.current.cards)]

    def current_player(self, state: State) -> int | None:
        phase = state.phase
        if phase == HAND_OVER:
            return None
        if phase in (M_DEAL, P_DEAL, P_DISCARD):
            return state.dealer
        if phase == M_ANNOUNCE:
            return next(s for s in _seat_order(state) if state.start_values[s] is None)
        if phase == M_DISCARD:
            return next(s for s in _seat_order(state) if state.discards[s] is None)
        if phase == P_CHOOSE:
            return next(s for s in _seat_order(state) if state.dummies[s] is None)
        part = state.part
        assert part is not None
        if phase in (M_SCORE, P_SCORE):
            assert part.fool_debt is not None
            return part.fool_debt[0]
        return _player_of(state, part, part.to_play)

    def is_terminal(self, state: State) -> bool:
        return state.phase == HAND_OVER

    def scores(self, state: State) -> tuple[SeatScore, ...]:
        """Game points of the hand (the winner's difference) once it is over; 0 before."""
        game = game_points(state) if state.phase == HAND_OVER else (0, 0)
        return tuple(SeatScore(seat, game[seat]) for seat in (0, 1))

    def result(self, state: State) -> Result | None:
        if state.phase != HAND_OVER:
            return None
        totals = hand_totals(state)
        best = max(totals)
        winners = tuple(s for s in (0, 1) if totals[s] == best)
        return Result(self.scores(state), winners)

    def view(self, state: State) -> dict[str, Any]:
        return {
            "phase": state.phase,
            "dealer": state.dealer,
            "opposite": state.opposite,
            "part_one": None if state.first is None else state.first.as_dict(),
            "part": None if state.part is None else state.part.as_dict(),
            "hands": {} if state.part is None else state.part.as_dict()["hands"],
            "dummies": _dummies(state),
            "dealt": [list(h) for h in state.dealt],
            "discards": [None if d is None else list(d) for d in state.discards],
            "talon": list(state.talon),
            "dead": list(state.dead),
            "truffle_discards": list(state.truffle_discards),
            "stock": len(state.stock),
            "scores": _score_sheet(state),
        }

    def match_report(self, state: State) -> dict[str, Any]:
        """The hand's figures for the match sheet."""
        return {"dealer": state.dealer, **_score_sheet(state)}


# --- the deal of part one (20.2.1, D-MP-2) ------------------------------------------------------


def _seat_order(state: State) -> tuple[int, int]:
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
    if not isinstance(value, list) or len(value) != count:
        raise IllegalEvent(
            "event.bad_data", f"'{key}' must list {count} hands in seat order.", field=key
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
        _count_check(hand, 13, f"Seat {seat}'s hand")
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


def _announced(state: State, data: Mapping[str, Any]) -> State:
    """``value.announced {"seat", "value"}``: Even Stevens, the card points of his 13 (20.2.2)."""
    seat = cards.read_seat(data, "seat", 2)
    value = data.get("value")
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalEvent("event.bad_data", "'value' must be a whole number.", field="value")
    if state.start_values[seat] is not None:
        raise IllegalEvent(
            "announce.already_made", f"Seat {seat} has already announced his start value."
        )
    total = cards.points_of(state.dealt[seat])
    if value != total:
        raise IllegalEvent(
            "announce.wrong_total",
            f"Seat {seat}'s 13 cards are worth {total} card points, not {value}.",
            value=total,
        )
    values = _with(state.start_values, seat, value)
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
            f"Seat {seat} must discard {count} cards, not {len(chosen)}.",
            count=len(chosen),
        )
    for card in chosen:
        if card not in hand:
            raise IllegalEvent(
                "play.card_not_held",
                f"Seat {seat} cannot discard {cards.name(card)}: he does not hold it.",
                card=card,
            )
    return chosen, shown


def _discarded(state: State, data: Mapping[str, Any]) -> State:
    if state.phase == P_DISCARD:
        return _truffle_discarded(state, data)
    seat = cards.read_seat(data, "seat", 2)
    if state.discards[seat] is not None:
        raise IllegalEvent("discard.already_made", f"Seat {seat} has already discarded.")
    hand = state.dealt[seat]
    chosen, shown = _read_discard(data, hand, seat, 3)
    others = sum(1 for c in hand if not _restricted(c))
    allowed = max(0, 3 - others)
    restricted = [c for c in chosen if _restricted(c)]
    if len(restricted) > allowed:
        raise IllegalEvent(
            "discard.restricted_card",
            f"Seat {seat} cannot discard {cards.names(restricted)}: trumps, Honours and Kings "
            f"may be discarded only to make up three, and he holds {others} other cards.",
            cards=restricted,
        )
    _check_shown(restricted, shown, seat)
    discards = _with(state.discards, seat, chosen)
    if None in discards:
        return dataclasses.replace(state, discards=discards)
    return _start_part_one(dataclasses.replace(state, discards=discards))


def _check_shown(required: Sequence[str], shown: Sequence[str], seat: int) -> None:
    hidden = [c for c in required if c not in shown]
    if hidden:
        raise IllegalEvent(
            "discard.not_shown",
            f"Seat {seat} must show {cards.names(hidden)} when discarding it.",
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


def _legal_discards(state: State) -> list[Move]:
    seat = next(s for s in _seat_order(state) if state.discards[s] is None)
    hand = state.dealt[seat]
    others = [c for c in hand if not _restricted(c)]
    needed = max(0, 3 - len(others))
    moves = []
    for chosen in combinations(hand, 3):
        restricted = [c for c in chosen if _restricted(c)]
        if len(restricted) <= needed:
            moves.append(
                Move(DISCARDED, {"seat": seat, "cards": list(chosen), "shown": restricted})
            )
    return moves


# --- tricks (20.2.4-5, 20.3.3-4, 21.4) -----------------------------------------------------------


def _player_of(state: State, part: Part, hand: int) -> int:
    """The seat playing ``hand``; the Truffle dummy is played by Opposite at odd tricks (D-MT-2)."""
    owner = part.owners[hand]
    if owner is not None:
        return owner
    return state.opposite if len(part.tricks) % 2 == 0 else state.dealer


def _played(state: State, data: Mapping[str, Any]) -> State:
    """``card.played {"card", "hand"?, "seat"?}``: the hand on turn plays; hand and seat checked."""
    part = state.part
    assert part is not None
    if part.trick_full:
        raise IllegalEvent("trick.winner_due", "The trick is complete: record trick.won.")
    on_turn = part.to_play
    card = cards.read_card(data.get("card"), "card")
    label = data.get("hand", part.labels[on_turn])
    seat = data.get("seat", _player_of(state, part, on_turn))
    if label != part.labels[on_turn] or seat != _player_of(state, part, on_turn):
        raise IllegalEvent(
            "play.not_your_turn",
            f"{cards.name(card)} cannot be played now: the {part.labels[on_turn]} hand plays "
            f"next, played by seat {_player_of(state, part, on_turn)}.",
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
    hands = _with(part.hands, on_turn, cards.without(hand, (card,)))
    current = dataclasses.replace(part.current, plays=(*part.current.plays, (on_turn, card)))
    return dataclasses.replace(state, part=dataclasses.replace(part, hands=hands, current=current))


def _winner(part: Part) -> int:
    plays = part.current.plays
    return plays[cards.winning_index([c for _, c in plays])][0]


def _won(state: State, data: Mapping[str, Any]) -> State:
    """``trick.won {"winner": hand}``, checked against the rules' winner (trick.wrong_winner)."""
    part = state.part
    assert part is not None
    if not part.trick_full:
        raise IllegalEvent("trick.incomplete", "The trick is not complete: it cannot be won yet.")
    winner = _winner(part)
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


def _payment_choices(part: Part) -> list[str]:
    assert part.fool_debt is not None
    owner = part.fool_debt[0]
    if part.tricks_won(owner) == 0:
        return [FOOL]
    pile = [c for c in part.piles[owner] if c != FOOL]
    empty = [c for c in pile if cards.is_empty(c)]
    return empty or pile


def _paid(state: State, data: Mapping[str, Any]) -> State:
    """``fool.paid {"card"}``: the Fool's owner pays the trick's winner from his pile."""
    part = state.part
    assert part is not None and part.fool_debt is not None
    owner, to = part.fool_debt
    card = cards.read_card(data.get("card"), "card")
    choices = _payment_choices(part)
    if card not in choices:
        why = (
            "he won no trick, so he surrenders the Fool itself"
            if choices == [FOOL]
            else f"he pays one card of his trick pile, an empty one if he has one: "
            f"{cards.names(choices)}"
        )
        raise IllegalEvent(
            "fool.payment",
            f"Seat {owner} cannot pay {cards.name(card)} for the Fool: {why}.",
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
    return dataclasses.replace(state, phase=HAND_OVER)


# --- part two: the deal, dummies, Truffle's talon (20.3.1-2, 21.1-3, D-MT-1) ---------------------


def _dealt(state: State, data: Mapping[str, Any]) -> State:
    if state.phase == M_DEAL:
        return _dealt_part_one(state, data)
    if state.kind == TRUFFLE:
        return _dealt_truffle(state, data)
    if "hands" not in data:
        if not state.stock_ordered:
            raise IllegalEvent(
                "event.bad_data",
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
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            raise IllegalEvent(
                "event.bad_data", f"Seat {seat} receives two hands of 13 cards.", field="hands"
            )
        for hand in pair:
            if not isinstance(hand, list | tuple):
                raise IllegalEvent("event.bad_data", "Each hand must be a list of cards.")
            _count_check(hand, 13, f"Each of seat {seat}'s hands")
        options.append(tuple(cards.read_cards(list(h), "hands") for h in pair))
    cards.check_partition([h for pair in options for h in pair], state.stock)
    return dataclasses.replace(state, phase=P_CHOOSE, options=tuple(options))


def _chosen(state: State, data: Mapping[str, Any]) -> State:
    """``dummy.chosen {"seat", "dummy": 0|1}``: which of his two hands becomes his dummy."""
    seat = cards.read_seat(data, "seat", 2)
    index = data.get("dummy")
    if type(index) is not int or index not in (0, 1):
        raise IllegalEvent("event.bad_data", "'dummy' must be 0 or 1.", field="dummy")
    if state.dummies[seat] is not None:
        raise IllegalEvent("dummy.already_chosen", f"Seat {seat} has already chosen his dummy.")
    dummies = _with(state.dummies, seat, index)
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
                "event.bad_data",
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
            "play.not_your_turn", f"Only the dealer (seat {state.dealer}) discards now."
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


def _legal_truffle_discards(state: State) -> list[Move]:
    hand = (*state.pending_truffle[state.dealer], *state.talon)
    allowed = [c for c in hand if c not in cards.HONOURS and not cards.is_king(c)]
    return [
        Move(DISCARDED, {"seat": state.dealer, "cards": list(c), "shown": list(c)})
        for c in combinations(allowed, state.ruleset.truffle_talon)
    ]


# --- scores (20.2.6, 20.3.5, 20.4, 21.6) ---------------------------------------------------------


def first_scores(state: State) -> tuple[int, int] | None:
    """Card points of each part-one pile minus the start value; they sum to 0."""
    if state.first is None:
        return None
    values = state.start_values
    return (
        cards.points_of(state.first.piles[0]) - (values[0] or 0),
        cards.points_of(state.first.piles[1]) - (values[1] or 0),
    )


def second_scores(state: State) -> tuple[int, int] | None:
    """Card points of part two's piles plus one per trick won (the Truffle dummy's count for
    nobody; Dealer's discards go to Opposite if Dealer won no trick, 21.2)."""
    if state.phase != HAND_OVER or state.part is None:
        return None
    part = state.part
    piles = [list(part.piles[0]), list(part.piles[1])]
    if state.kind == TRUFFLE and part.tricks_won(state.dealer) == 0:
        for card in state.truffle_discards:
            piles[state.dealer].remove(card)
            piles[state.opposite].append(card)
    return (
        cards.points_of(piles[0]) + part.tricks_won(0),
        cards.points_of(piles[1]) + part.tricks_won(1),
    )


def hand_totals(state: State) -> tuple[int, int]:
    first, second = first_scores(state) or (0, 0), second_scores(state) or (0, 0)
    return (first[0] + second[0], first[1] + second[1])


def game_points(state: State) -> tuple[int, int]:
    """The hand's winner scores the difference of the hand totals; equal totals score nothing."""
    totals = hand_totals(state)
    diff = totals[0] - totals[1]
    return (max(diff, 0), max(-diff, 0))


def _score_sheet(state: State) -> dict[str, Any]:
    first, second = first_scores(state), second_scores(state)
    over = state.phase == HAND_OVER
    part = state.part
    return {
        # the current part's trick piles so far: seat 0, seat 1 (and the Truffle dummy)
        "pile_points": None if part is None else [cards.points_of(p) for p in part.piles],
        "tricks_won": None if part is None else [part.tricks_won(p) for p in range(3)],
        "start_values": list(state.start_values),
        "first": None if first is None else list(first),
        "second": None if second is None else list(second),
        "hand_totals": list(hand_totals(state)) if over else None,
        "game_points": list(game_points(state)) if over else None,
    }


def _dummies(state: State) -> dict[str, Any]:
    part = state.part
    if part is None or state.phase in (P_DEAL, P_CHOOSE) or state.first is None:
        return {}
    return {
        label: list(hand)
        for label, hand in zip(part.labels, part.hands, strict=True)
        if "dummy" in label
    }


def _with(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return tuple(value if i == index else v for i, v in enumerate(values))


_HANDLERS = {
    DEALT: _dealt,
    ANNOUNCED: _announced,
    DISCARDED: _discarded,
    CHOSEN: _chosen,
    PLAYED: _played,
    WON: _won,
    PAID: _paid,
}
_EXPECTED = {
    M_DEAL: (DEALT,),
    M_ANNOUNCE: (ANNOUNCED,),
    M_DISCARD: (DISCARDED,),
    M_PLAY: (PLAYED, WON),
    M_SCORE: (PAID,),
    P_DEAL: (DEALT,),
    P_CHOOSE: (CHOSEN,),
    P_DISCARD: (DISCARDED,),
    P_PLAY: (PLAYED, WON),
    P_SCORE: (PAID,),
}


# --- the game of hands: a match of ``mp_hands`` hands (D-MP-6, settlement "game points") ---------


class ManchesterMatch(ScoredMatch):
    """A game of ``mp_hands`` hands, the dealer alternating from seat 0; game points add up and
    the higher total wins; equal totals are a draw (RULES.md 20.4, 0.8)."""

    min_seats = 2
    max_seats = 2

    def __init__(self, kind: str, ruleset_type: type[Any]) -> None:
        self.kind = kind
        self.ruleset_type = ruleset_type

    def is_complete(self, state: ScoredMatchState) -> bool:
        return len(state.entries) >= int(state.ruleset.mp_hands)

    def standing(self, state: ScoredMatchState) -> list[dict[str, Any]]:
        totals = [sum(e.scores[s] for e in state.entries) for s in (0, 1)]
        rows = [
            {
                "seat": s,
                "match_score": totals[s],
                "bonuses": [],
                "total": totals[s],
                "games_won": sum(1 for e in state.entries if e.scores[s] > 0),
                "rank": 0,
            }
            for s in (0, 1)
        ]
        return ranked(rows)

    def settlement(self, state: ScoredMatchState) -> dict[str, Any]:
        """Game points are scores, not payments: the totals and the winner (a draw: both)."""
        totals = [sum(e.scores[s] for e in state.entries) for s in (0, 1)]
        winners = [s for s in (0, 1) if totals[s] == max(totals)]
        return {"payments": [], "nets": [0, 0], "game_points": totals, "winners": winners}

    def next_game_setup(self, state: ScoredMatchState) -> dict[str, Any]:
        return {"dealer": len(state.entries) % 2}

    def sheet_issues(self, state: ScoredMatchState, scores: tuple[int, ...]) -> list[IllegalEvent]:
        """Only the hand's winner scores game points, never a negative number."""
        if min(scores) < 0 or min(scores) > 0:
            return [
                IllegalEvent(
                    "score.unattainable",
                    f"A hand gives game points {list(scores)}: only the winner scores, "
                    "the difference of the hand totals, and the other 0.",
                    scores=list(scores),
                )
            ]
        return []


PICCADILLY_RULES = register(ManchesterRules(PICCADILLY, Ruleset))
TRUFFLE_RULES = register(ManchesterRules(TRUFFLE, TruffleRuleset))
PICCADILLY_MATCH = register_format(ManchesterMatch(PICCADILLY, Ruleset))
TRUFFLE_MATCH = register_format(ManchesterMatch(TRUFFLE, TruffleRuleset))
