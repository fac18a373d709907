"""Manchester's hand: constants, the two rulesets, the state of a hand and its scores.

RULES.md sections 20 and 21 (20.2.6, 20.3.5, 20.4, 21.6 for the scores); the engine is
:mod:`games.rules.tarot.manchester.game`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from games.rules.errors import BadRuleset
from games.rules.tarot import cards
from games.rules.tarot.cards import Trick

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
    nobody; Dealer's discards are in Opposite's pile if Dealer won no trick, 21.2)."""
    if state.phase != HAND_OVER or state.part is None:
        return None
    part = state.part
    return (
        cards.points_of(part.piles[0]) + part.tricks_won(0),
        cards.points_of(part.piles[1]) + part.tricks_won(1),
    )


def hand_totals(state: State) -> tuple[int, int]:
    first, second = first_scores(state) or (0, 0), second_scores(state) or (0, 0)
    return (first[0] + second[0], first[1] + second[1])


def game_points(state: State) -> tuple[int, int]:
    """The hand's winner scores the difference of the hand totals; equal totals score nothing."""
    totals = hand_totals(state)
    diff = totals[0] - totals[1]
    return (max(diff, 0), max(-diff, 0))


def score_sheet(state: State) -> dict[str, Any]:
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


def dummies_view(state: State) -> dict[str, Any]:
    part = state.part
    if part is None or state.phase in (P_DEAL, P_CHOOSE) or state.first is None:
        return {}
    return {
        label: list(hand)
        for label, hand in zip(part.labels, part.hands, strict=True)
        if "dummy" in label
    }


def with_value(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return tuple(value if i == index else v for i, v in enumerate(values))
