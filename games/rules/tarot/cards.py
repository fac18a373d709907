"""The 78-card tarot pack of RULES.md 16.1, its card points (16.2) and the trick rules shared by
the tarot games: reading card codes with clear refusals, following suit, trumping and
overtrumping (20.2-20.3), the winner of a trick, a trick as recorded (16.3), and checks of a
recorded deal. The rule modules' recording mode (16.3-16.4) is ``recording``.

Codes: rank ``K Q C J 10 9 8 7 6 5 4 3 2 A`` + suit ``s b c d`` (``Cc`` is the Cavalier of c),
trumps ``T1`` ... ``T21`` (the Magician is T1, the World T21: D-TAR-1), ``FOOL``; Conference
adds ``GOOD`` and ``EVIL``. The suit labels are the service's own (D-TAR-2).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from games.rules.errors import IllegalEvent, is_seat_number, seat_unknown
from games.rules.shapes import Text

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

# --- a card as events and views give it (games/rules/shapes.py) -------------------------------

CARD_CODES = 'rank K Q C J 10-2 A and suit s b c d ("Cc", "10s"), a trump "T1"-"T21", or "FOOL"'
# A card of the 78-card pack (Manchester); the rule modules' pack adds Conference's two cards.
CARD = Text(4, PACK, doc=f"a card of the 78-card pack: {CARD_CODES}")
ANY_CARD = Text(4, CONFERENCE_PACK, doc=f'a card: {CARD_CODES}; Conference adds "GOOD" and "EVIL"')


def card_shape(choices: Iterable[str], doc: str) -> Text:
    """A card that is one of ``choices`` (a group's cards, the servants ...)."""
    return Text(4, tuple(choices), doc=doc)


_RANK_NAMES = {"K": "King", "Q": "Queen", "C": "Cavalier", "J": "Jack", "A": "Ace"}
# Card points of RULES.md 16.2; every card not listed is worth 1.
_POINTS = {"K": 5, "Q": 4, "C": 3, "J": 2, "A": 5}
PACK_POINTS = 146


def rank_of(card: str) -> str:
    """``K``, ``10``, ``A`` ... of a suit card; the number of a trump as text."""
    return card[1:] if card.startswith(TRUMP) and card[1:].isdigit() else card[:-1]


# Each card's suit, strength and points, looked up: a game's view asks them of every card in
# every hand and trick (the tuples above would be searched card by card). A string that is no
# card gets what the rules give it: no suit, no strength, one point.
_TRUMP_SET = frozenset(TRUMPS)
_SUIT_SET = frozenset(SUIT_CARDS)
_SUIT_OF: dict[str, str] = {
    **{card: card[-1] for card in SUIT_CARDS},
    **{card: TRUMP for card in TRUMPS},
}
_STRENGTH: dict[str, int] = {
    **{card: len(RANKS) - RANKS.index(rank_of(card)) for card in SUIT_CARDS},
    **{card: int(card[1:]) for card in TRUMPS},
}
_KINGS = frozenset(card for card in SUIT_CARDS if rank_of(card) == "K")
_COURT_CARDS = frozenset(card for card in SUIT_CARDS if rank_of(card) in COURTS)
_PIP_CARDS = frozenset(card for card in SUIT_CARDS if rank_of(card) in PIPS)


def suit_of(card: str) -> str | None:
    """The suit letter, ``T`` for a trump, None for the Fool (and for Good and Evil)."""
    return _SUIT_OF.get(card)


def is_trump(card: str) -> bool:
    return card in _TRUMP_SET


def is_court(card: str) -> bool:
    return card in _COURT_CARDS


def is_king(card: str) -> bool:
    return card in _KINGS


def is_pip(card: str) -> bool:
    return card in _PIP_CARDS


def strength(card: str) -> int:
    """Higher beats lower within a suit or among trumps (16.1); the Fool has none (0)."""
    return _STRENGTH.get(card, 0)


def _points(card: str) -> int:
    if card in HONOURS:
        return 5
    if card in _SUIT_SET:
        return _POINTS.get(rank_of(card), 1)
    return 1


_CARD_POINTS = {card: _points(card) for card in CONFERENCE_PACK}


def points(card: str) -> int:
    """Card points of RULES.md 16.2 (Honours 5, Kings 5, Queens 4, ... every other card 1)."""
    return _CARD_POINTS.get(card, 1)


def points_of(cards: Iterable[str]) -> int:
    return sum(_CARD_POINTS.get(card, 1) for card in cards)


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
    if not is_seat_number(value):
        raise IllegalEvent(
            "event.bad_data", f"{field!r} must be a seat number from 0 to {seats - 1}.", field=field
        )
    if not 0 <= value < seats:
        raise seat_unknown(value, seats, field)
    return value


def without(hand: Sequence[str], cards: Iterable[str]) -> tuple[str, ...]:
    gone = set(cards)
    return tuple(card for card in hand if card not in gone)


# --- tricks: suit led, following, winner (RULES.md 20.2-20.3), a trick as recorded (16.3) ------


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
    follow = _Follow(hand, trick)
    broken = follow.broken(card)
    if broken == "play.must_follow":
        return IllegalEvent(
            "play.must_follow",
            f"{name(card)} cannot be played: a card of suit {follow.led} must follow the lead.",
            card=card,
        )
    if broken == "play.must_trump":
        return IllegalEvent(
            "play.must_trump",
            f"{name(card)} cannot be played: with no card of the suit led, a trump must be.",
            card=card,
        )
    if broken == "play.must_overtrump":
        higher = [c for c in follow.trumps if strength(c) > follow.top]
        return IllegalEvent(
            "play.must_overtrump",
            f"{name(card)} cannot be played: a trump higher than T{follow.top} is held "
            f"({names(higher)}).",
            card=card,
        )
    return None


class _Follow:
    """The rules of 20.2-20.3 for one hand and trick: what they ask is worked out once, then
    each card is judged against it (legal_cards judges every card of the hand)."""

    def __init__(self, hand: Sequence[str], trick: Sequence[str]) -> None:
        self.led = suit_led(trick)
        self.trumps = [c for c in hand if c in _TRUMP_SET]
        self.top = max((strength(c) for c in trick if c in _TRUMP_SET), default=0)
        self.higher = any(strength(c) > self.top for c in self.trumps)
        self.holds_led = any(_SUIT_OF.get(c) == self.led for c in hand)

    def broken(self, card: str) -> str | None:
        """The code of the rule ``card`` breaks, or None."""
        led = self.led
        if card == FOOL or led is None:
            return None
        suit = _SUIT_OF.get(card)
        if led != TRUMP and suit != led and self.holds_led:
            return "play.must_follow"
        if suit == led and led != TRUMP:
            return None
        trump = card in _TRUMP_SET
        if self.trumps and not trump:
            return "play.must_trump"
        if trump and self.top and self.higher and strength(card) <= self.top:
            return "play.must_overtrump"
        return None


def legal_cards(hand: Sequence[str], trick: Sequence[str]) -> list[str]:
    follow = _Follow(hand, trick)
    return [card for card in hand if follow.broken(card) is None]


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
