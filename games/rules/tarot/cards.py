"""The 78-card tarot pack of RULES.md 16.1, its card points (16.2) and the trick rules shared by
the tarot games: reading card codes with clear refusals, following suit, trumping and
overtrumping (20.2-20.3), the winner of a trick, and checks of a recorded deal.

Codes: rank ``K Q C J 10 9 8 7 6 5 4 3 2 A`` + suit ``s b c d`` (``Cc`` is the Cavalier of c),
trumps ``T1`` ... ``T21`` (the Magician is T1, the World T21: D-TAR-1), ``FOOL``; Conference
adds ``GOOD`` and ``EVIL``. The suit labels are the service's own (D-TAR-2).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.rules.base import Move, check_seat_count, make_ruleset
from games.rules.errors import BadSetup, IllegalEvent

SUITS = ("s", "b", "c", "d")
COURTS = ("K", "Q", "C", "J")
PIPS = ("10", "9", "8", "7", "6", "5", "4", "3", "2", "A")
RANKS = COURTS + PIPS  # highest first: the "rational ranking" of 16.1
FOOL = "FOOL"
MAGICIAN, WORLD = "T1", "T21"
HONOURS = (MAGICIAN, WORLD, FOOL)
GOOD, EVIL = "GOOD", "EVIL"
TRUMP = "T"  # the suit of a trump, as suit_of gives it
# The refusal of any move once a hand of a tarot game is over (game.over).
HAND_OVER = "The hand is over: no move can be recorded."

SUIT_CARDS = tuple(rank + suit for suit in SUITS for rank in RANKS)
TRUMPS = tuple(f"T{n}" for n in range(1, 22))
PACK = SUIT_CARDS + TRUMPS + (FOOL,)
CONFERENCE_PACK = PACK + (GOOD, EVIL)

_RANK_NAMES = {"K": "King", "Q": "Queen", "C": "Cavalier", "J": "Jack", "A": "Ace"}
# Card points of RULES.md 16.2; every card not listed is worth 1.
_POINTS = {"K": 5, "Q": 4, "C": 3, "J": 2, "A": 5}
PACK_POINTS = 146


def rank_of(card: str) -> str:
    """``K``, ``10``, ``A`` ... of a suit card; the number of a trump as text."""
    return card[1:] if card.startswith(TRUMP) and card[1:].isdigit() else card[:-1]


def suit_of(card: str) -> str | None:
    """The suit letter, ``T`` for a trump, None for the Fool (and for Good and Evil)."""
    if card in TRUMPS:
        return TRUMP
    if card in SUIT_CARDS:
        return card[-1]
    return None


def is_trump(card: str) -> bool:
    return card in TRUMPS


def is_court(card: str) -> bool:
    return card in SUIT_CARDS and rank_of(card) in COURTS


def is_king(card: str) -> bool:
    return card in SUIT_CARDS and rank_of(card) == "K"


def is_pip(card: str) -> bool:
    return card in SUIT_CARDS and rank_of(card) in PIPS


def strength(card: str) -> int:
    """Higher beats lower within a suit or among trumps (16.1); the Fool has none (0)."""
    if card in TRUMPS:
        return int(card[1:])
    if card in SUIT_CARDS:
        return len(RANKS) - RANKS.index(rank_of(card))
    return 0


def points(card: str) -> int:
    """Card points of RULES.md 16.2 (Honours 5, Kings 5, Queens 4, ... every other card 1)."""
    if card in HONOURS:
        return 5
    if card in SUIT_CARDS:
        return _POINTS.get(rank_of(card), 1)
    return 1


def points_of(cards: Iterable[str]) -> int:
    return sum(points(card) for card in cards)


def is_empty(card: str) -> bool:
    """An empty card is worth 1 point or less (pips 2-10, trumps 2-20)."""
    return points(card) <= 1


def name(card: str) -> str:
    """The card for a sentence: ``Cc (Cavalier of c)``, ``T21 (The World)``, ``the Fool``."""
    if card == FOOL:
        return "the Fool"
    if card == MAGICIAN:
        return "T1 (The Magician)"
    if card == WORLD:
        return "T21 (The World)"
    if card in TRUMPS:
        return f"{card} (trump {card[1:]})"
    if card in (GOOD, EVIL):
        return card.capitalize()
    rank = rank_of(card)
    return f"{card} ({_RANK_NAMES.get(rank, rank)} of {card[-1]})"


def names(cards: Iterable[str]) -> str:
    return ", ".join(name(card) for card in cards) or "no card"


# --- reading cards from event data -------------------------------------------------------------


def read_card(value: Any, field: str, pack: Sequence[str] = PACK) -> str:
    """A card code from event data, or IllegalEvent (``event.bad_data``, ``card.unknown``)."""
    if not isinstance(value, str):
        raise IllegalEvent(
            "event.bad_data", f"{field!r} must be a card code such as 'Ks' or 'T21'.", field=field
        )
    card = value.strip()
    card = card.upper() if card.upper() in (FOOL, GOOD, EVIL) else card
    if card not in pack:
        raise IllegalEvent(
            "card.unknown",
            f"{value!r} is not a card of this pack (ranks K Q C J 10-2 A with suits s b c d, "
            "trumps T1-T21, FOOL).",
            card=value,
        )
    return card


def read_cards(value: Any, field: str, pack: Sequence[str] = PACK) -> tuple[str, ...]:
    """A list of distinct card codes, or IllegalEvent (``card.duplicate`` for a repeat)."""
    if not isinstance(value, list | tuple):
        raise IllegalEvent("event.bad_data", f"{field!r} must be a list of cards.", field=field)
    cards = tuple(read_card(item, field, pack) for item in value)
    check_distinct(cards)
    return cards


def check_distinct(cards: Sequence[str]) -> None:
    seen: set[str] = set()
    for card in cards:
        if card in seen:
            raise IllegalEvent(
                "card.duplicate", f"{name(card)} appears twice: each card exists once.", card=card
            )
        seen.add(card)


def read_seat(data: Any, field: str, seats: int) -> int:
    value = data.get(field)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < seats:
        raise IllegalEvent(
            "event.bad_data", f"{field!r} must be a seat number from 0 to {seats - 1}.", field=field
        )
    return value


def without(hand: Sequence[str], cards: Iterable[str]) -> tuple[str, ...]:
    gone = set(cards)
    return tuple(card for card in hand if card not in gone)


# --- tricks: suit led, following, winner (RULES.md 20.2-20.3) ----------------------------------


def suit_led(trick: Sequence[str]) -> str | None:
    """The suit of the first card that is not the Fool (a Fool lead lets the next card set it)."""
    for card in trick:
        if card != FOOL:
            return suit_of(card)
    return None


def follow_refusal(hand: Sequence[str], trick: Sequence[str], card: str) -> IllegalEvent | None:
    """Why ``card`` breaks the follow, trump and overtrump rules of 20.2-20.3, else None.

    The Fool may always be played instead of the card the rules require. Overtrumping applies
    whenever a trump is already in the trick, a trump lead included (D-MP-5).
    """
    led = suit_led(trick)
    if card == FOOL or led is None:
        return None
    trumps = [c for c in hand if is_trump(c)]
    top = max((strength(c) for c in trick if is_trump(c)), default=0)
    higher = [c for c in trumps if strength(c) > top]
    if led != TRUMP and suit_of(card) != led and any(suit_of(c) == led for c in hand):
        return IllegalEvent(
            "play.must_follow",
            f"{name(card)} cannot be played: a card of suit {led} must follow the lead.",
            card=card,
        )
    if suit_of(card) == led and led != TRUMP:
        return None
    if trumps and not is_trump(card):
        return IllegalEvent(
            "play.must_trump",
            f"{name(card)} cannot be played: with no card of the suit led, a trump must be.",
            card=card,
        )
    if is_trump(card) and top and higher and strength(card) <= top:
        return IllegalEvent(
            "play.must_overtrump",
            f"{name(card)} cannot be played: a trump higher than T{top} is held ({names(higher)}).",
            card=card,
        )
    return None


def legal_cards(hand: Sequence[str], trick: Sequence[str]) -> list[str]:
    return [card for card in hand if follow_refusal(hand, trick, card) is None]


def winning_index(trick: Sequence[str]) -> int:
    """The winning card's place: the highest trump, else the highest card of the suit led.

    The Fool never wins; a card of another plain suit cannot win.
    """
    led = suit_led(trick)
    if any(is_trump(card) for card in trick):
        led = TRUMP
    best = max(
        (i for i, card in enumerate(trick) if card != FOOL and suit_of(card) == led),
        key=lambda i: strength(trick[i]),
    )
    return best


def check_partition(parts: Sequence[Sequence[str]], expected: Iterable[str]) -> None:
    """The dealt parts hold each card of ``expected`` exactly once (``card.duplicate`` ...)."""
    dealt = [card for part in parts for card in part]
    check_distinct(dealt)
    missing = sorted(set(expected) - set(dealt))
    extra = sorted(set(dealt) - set(expected))
    if missing or extra:
        raise IllegalEvent(
            "deal.wrong_cards",
            f"The deal must hold exactly the cards to be dealt; missing {names(missing)}, "
            f"not available {names(extra)}.",
            missing=missing,
            extra=extra,
        )


# --- recording mode (RULES.md 16.3-16.4): tricks of a base game the seeds do not describe -------

DEALT, DISCARDED, PLAYED, WON, HAND_ENDED = (
    "cards.dealt",
    "cards.discarded",
    "card.played",
    "trick.won",
    "hand.ended",
)
BASE_GAMES = ("scarto", "tarocchi", "conference")


@dataclass(frozen=True, slots=True)
class Trick:
    """One trick in play order: ``(seat, card)`` pairs, its leader and (once won) its winner."""

    leader: int
    plays: tuple[tuple[int, str], ...] = ()
    winner: int | None = None

    @property
    def cards(self) -> tuple[str, ...]:
        return tuple(card for _, card in self.plays)

    def seat_of(self, card: str) -> int | None:
        return next((seat for seat, c in self.plays if c == card), None)

    def as_dict(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "plays": [{"seat": seat, "card": card} for seat, card in self.plays],
            "winner": self.winner,
        }


@dataclass(frozen=True, slots=True)
class Table:
    """A hand of a base game recorded trick by trick; hands are None when not recorded."""

    seats: int
    pack: tuple[str, ...] = PACK
    hands: tuple[tuple[str, ...], ...] | None = None
    talon: tuple[str, ...] = ()
    discards: tuple[tuple[str, ...], ...] = ()
    tricks: tuple[Trick, ...] = ()
    current: Trick = Trick(0)
    over: bool = False

    @property
    def started(self) -> bool:
        return bool(self.tricks or self.current.plays)

    @property
    def trick_full(self) -> bool:
        return len(self.current.plays) == self.seats

    @property
    def to_play(self) -> int:
        return (self.current.leader + len(self.current.plays)) % self.seats

    def seen(self) -> set[str]:
        """Every card played or discarded so far this hand."""
        cards = {c for trick in (*self.tricks, self.current) for c in trick.cards}
        return cards | {c for pile in self.discards for c in pile}

    def pile(self, seat: int) -> tuple[str, ...]:
        """The cards of the tricks ``seat`` won, in order (the module may adjust them)."""
        return tuple(c for t in self.tricks if t.winner == seat for c in t.cards)

    def as_dict(self) -> dict[str, Any]:
        return {
            "hands": None if self.hands is None else [list(h) for h in self.hands],
            "talon": list(self.talon),
            "discards": [list(d) for d in self.discards],
            "tricks": [t.as_dict() for t in self.tricks],
            "trick": self.current.as_dict(),
            "to_play": None if self.over or self.trick_full else self.to_play,
        }


def new_table(setup: Any, seats: int, base_game: str) -> Table:
    """A table whose first trick is led by ``setup["leader"]`` (seat 0 by default, RULES.md 0.5)."""
    leader = setup.get("leader", 0) if isinstance(setup, Mapping) else 0
    if not isinstance(leader, int) or isinstance(leader, bool) or not 0 <= leader < seats:
        raise BadSetup("setup.bad_leader", f"'leader' must be a seat from 0 to {seats - 1}.")
    pack = CONFERENCE_PACK if base_game == "conference" else PACK
    return Table(seats, pack, discards=((),) * seats, current=Trick(leader))


def check_base_game(ruleset: Any, kind: str) -> None:
    """``base_game`` is required (D-TAR-3): the ruleset default is None, refused here."""
    if ruleset.base_game not in BASE_GAMES:
        raise BadSetup(
            "ruleset.base_game_required",
            f"{kind} is a rule module: its ruleset must name base_game ({', '.join(BASE_GAMES)}).",
            parameter="base_game",
        )


def start_hand(
    engine: Any, setup: Any, ruleset: Any, seats: int, name: str, verb: str
) -> tuple[Any, Table]:
    """The ruleset and the table of a recorded hand of a rule module (Courtship Rules, Last
    Laugh, Tontine): base_game required first, then the seat count, worded by ``verb``."""
    ruleset_type = engine.ruleset_type
    rules = ruleset if isinstance(ruleset, ruleset_type) else make_ruleset(ruleset_type, ruleset)
    check_base_game(rules, engine.kind)
    check_seat_count(engine, seats, name, verb, name_seats=False)
    return rules, new_table(setup, seats, rules.base_game or "")


def table_player(table: Table) -> int | None:
    """The seat the table waits for: none once over; a full trick's leader, whose trick is
    recorded won next; else the seat to play."""
    if table.over:
        return None
    return table.current.leader if table.trick_full else table.to_play


def table_deal(table: Table, data: Mapping[str, Any]) -> Table:
    """``cards.dealt {"hands": [[...] per seat], "talon": [...]}``, before the first card."""
    if table.started or table.hands is not None:
        raise IllegalEvent("deal.too_late", "The hands can be recorded only before any play.")
    hands = data.get("hands")
    if not isinstance(hands, list) or len(hands) != table.seats:
        raise IllegalEvent(
            "event.bad_data", f"'hands' must list {table.seats} hands, one per seat.", field="hands"
        )
    parts = [read_cards(h, "hands", table.pack) for h in hands]
    talon = read_cards(data.get("talon", []), "talon", table.pack)
    check_distinct([c for part in (*parts, talon) for c in part])
    return dataclasses.replace(table, hands=tuple(parts), talon=talon)


def table_discard(table: Table, data: Mapping[str, Any]) -> Table:
    """``cards.discarded {"seat", "cards"}``: the base game's discard, before the first card."""
    if table.started:
        raise IllegalEvent("discard.too_late", "Discards are recorded before the first trick.")
    seat = read_seat(data, "seat", table.seats)
    cards = read_cards(data.get("cards"), "cards", table.pack)
    for card in cards:
        _check_unseen(table, card)
        _check_held(table, seat, card)
    discards = list(table.discards)
    discards[seat] = discards[seat] + cards
    hands = table.hands
    if hands is not None:
        hands = tuple(without(h, cards) if s == seat else h for s, h in enumerate(hands))
    return dataclasses.replace(table, discards=tuple(discards), hands=hands)


def read_play(
    table: Table, data: Mapping[str, Any], again: Collection[str] = ()
) -> tuple[int, str]:
    """The seat and card of ``card.played``, checked: on turn, unseen (unless it may come back
    into play, as Last Laugh's Fool does), held if hands known."""
    if table.trick_full:
        raise IllegalEvent(
            "trick.winner_due", "The trick is complete: record who won it (trick.won)."
        )
    seat = read_seat(data, "seat", table.seats)
    card = read_card(data.get("card"), "card", table.pack)
    if seat != table.to_play:
        raise IllegalEvent(
            "play.not_your_turn",
            f"Seat {seat} cannot play {name(card)}: seat {table.to_play} plays next.",
            seat=seat,
        )
    if card not in again:
        _check_unseen(table, card)
    _check_held(table, seat, card)
    return seat, card


def table_play(table: Table, seat: int, card: str) -> Table:
    hands = table.hands
    if hands is not None:
        hands = tuple(without(h, (card,)) if s == seat else h for s, h in enumerate(hands))
    current = dataclasses.replace(table.current, plays=(*table.current.plays, (seat, card)))
    return dataclasses.replace(table, hands=hands, current=current)


def read_winner(table: Table, data: Mapping[str, Any], decided: int | None) -> int:
    """The winner of ``trick.won``: a seat, and the module's winner where the module decides."""
    if not table.trick_full:
        raise IllegalEvent(
            "trick.incomplete",
            f"The trick has {len(table.current.plays)} of {table.seats} cards: it is not won yet.",
        )
    winner = read_seat(data, "winner", table.seats)
    if decided is not None and winner != decided:
        raise IllegalEvent(
            "trick.wrong_winner",
            f"Seat {decided} wins this trick ({names(table.current.cards)}), not seat {winner}.",
            winner=decided,
        )
    return winner


def table_win(table: Table, winner: int, auto_end: bool = True) -> Table:
    """Close the trick; the winner leads the next; with hands known, empty hands end the hand
    (unless the module still takes events after the last trick: ``auto_end=False``)."""
    done = dataclasses.replace(table.current, winner=winner)
    over = auto_end and table.hands is not None and not any(table.hands)
    return dataclasses.replace(
        table, tricks=(*table.tricks, done), current=Trick(winner), over=over
    )


def table_end(table: Table) -> Table:
    """``hand.ended``: after a complete, won trick; with hands recorded, once they are empty."""
    if table.hands is not None and any(table.hands):
        raise IllegalEvent(
            "hand.not_over", "The hands are recorded: the hand ends when they are played out."
        )
    if table.current.plays or not table.tricks:
        raise IllegalEvent("hand.not_over", "A hand ends after a complete, won trick.")
    return dataclasses.replace(table, over=True)


def table_can_end(table: Table) -> bool:
    if table.over or table.current.plays or not table.tricks:
        return False
    return table.hands is None or not any(table.hands)


def table_last_trick(table: Table) -> bool:
    """With hands known: the trick in progress is the hand's last one."""
    if table.hands is None:
        return False
    return all(
        len(h) + (1 if s in {p for p, _ in table.current.plays} else 0) <= 1
        for s, h in enumerate(table.hands)
    )


def table_moves(table: Table) -> list[Move] | None:
    """Every ``card.played`` the hands allow (no module rule applied), or None without hands."""
    if table.over or table.hands is None or table.trick_full:
        return None
    seat = table.to_play
    return [Move(PLAYED, {"seat": seat, "card": card}) for card in table.hands[seat]]


def _check_unseen(table: Table, card: str) -> None:
    if card in table.seen():
        raise IllegalEvent(
            "card.already_played",
            f"{name(card)} has already been played or discarded this hand.",
            card=card,
        )


def _check_held(table: Table, seat: int, card: str) -> None:
    if table.hands is not None and card not in table.hands[seat]:
        raise IllegalEvent(
            "play.card_not_held", f"Seat {seat} does not hold {name(card)}.", card=card, seat=seat
        )
