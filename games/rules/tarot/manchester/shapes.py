"""What Manchester Piccadilly and Truffle take and show (games/rules/shapes.py): each hand's
events (``manchester_events``, RULES.md 20.5), its view at every phase (``manchester_view``), its
setup and its report for the match sheet (20.4), and the events of the game of hands.

The engine, ``game``, names them on its rules (``events``, ``view_shape``, ``setup_shape``,
``report_shape``) and ``match`` on its formats; the names they use (games, hands, phases, event
types) are ``state``'s.
"""

from __future__ import annotations

from games.rules.events import GAME_SCORED
from games.rules.shapes import Integer, ListOf, Nullable, Record, Shape, Text, one_of, record
from games.rules.tarot import cards
from games.rules.tarot.cards import CARD
from games.rules.tarot.manchester.state import (
    ANNOUNCED,
    CHOSEN,
    DEALT,
    DISCARDED,
    HAND_OVER,
    M_ANNOUNCE,
    M_DEAL,
    M_DISCARD,
    M_PLAY,
    M_SCORE,
    P_CHOOSE,
    P_DEAL,
    P_DISCARD,
    P_PLAY,
    P_SCORE,
    PAID,
    PART_ONE_HANDS,
    PICCADILLY,
    PICCADILLY_HANDS,
    PLAYED,
    TRUFFLE,
    TRUFFLE_HANDS,
    WON,
)

# --- a hand: its events, view, setup and report (20.5, 20.4) -------------------------------------

SEAT = Integer(0, 1, doc="seat 0 or 1")
PART_ONE_CARDS, PART_ONE_TRICKS = 13, 10  # each seat's cards in part one, and its tricks
SET_ASIDE = 52  # the cards left for part two
# Part two: Piccadilly's hands of 13 (13 tricks), Truffle's of 16 (16 tricks).
PART_TWO_CARDS = {PICCADILLY: 13, TRUFFLE: 16}
PART_TWO_HANDS = {PICCADILLY: PICCADILLY_HANDS, TRUFFLE: TRUFFLE_HANDS}
PART_ONE = (M_DEAL, M_ANNOUNCE, M_DISCARD, M_PLAY, M_SCORE)
PHASES = {
    PICCADILLY: (*PART_ONE, P_DEAL, P_CHOOSE, P_PLAY, P_SCORE, HAND_OVER),
    TRUFFLE: (*PART_ONE, P_DEAL, P_DISCARD, P_PLAY, P_SCORE, HAND_OVER),
}
# A start value: the card points of 13 cards, each worth 1 to 5 (16.2): at most eleven cards of
# 5 (the Honours, Kings and Aces) and two Queens.
START_VALUE = Integer(13, 63, doc="the card points of the seat's 13 cards (20.2.2)")
PILES = ("seat 0", "seat 1", "dummy")  # the trick piles, as fool_debt names them


def cards_of(count: int, doc: str, shortest: int | None = None) -> ListOf:
    """``count`` cards (``shortest`` to ``count`` if given), each once."""
    return ListOf(CARD, count, count if shortest is None else shortest, doc=doc)


def dealt_cards(doc: str) -> ListOf:
    """Cards a deal gives: how many is the rules' to judge (deal.wrong_count, RULES.md 20.5), so
    the declaration bounds them by the pack alone and says the count in words (``doc``)."""
    return ListOf(CARD, len(cards.PACK), doc=f"{doc} (another count is deal.wrong_count)")


def manchester_events(kind: str) -> dict[str, Record]:
    """The data of each event a hand of ``kind`` takes (RULES.md 20.5)."""
    hand = Text(14, PART_TWO_HANDS[kind], doc="a hand, by name")
    part_one = ListOf(
        dealt_cards("a seat's 13 cards"),
        2,
        2,
        doc="part one: each seat's 13 cards, in seat order",
    )
    pack = dealt_cards("part one: the whole pack, shuffled, top card first")
    if kind == PICCADILLY:
        dealt = record(
            "A deal. Part one: the whole shuffled pack (dealt in packets, Opposite first: "
            "D-MP-2), or each seat's cards. Part two: each seat's two hands, or nothing when "
            "part one gave the pack (its rest is dealt).",
            optional=("pack", "hands"),
            pack=pack,
            hands=one_of(
                part_one,
                ListOf(
                    ListOf(dealt_cards("a hand of 13"), 2, 2, doc="a seat's two hands"),
                    2,
                    2,
                    doc="part two: each seat's two hands of 13, in seat order",
                ),
                doc="each seat's cards",
            ),
        )
    else:
        dealt = record(
            "A deal. Part one: the whole shuffled pack (dealt in packets, Opposite first: "
            "D-MP-2), or each seat's cards. Part two: each seat's 16 cards, the dummy's and the "
            "talon Dealer takes, or nothing when part one gave the pack (its rest is dealt).",
            optional=("pack", "hands", "dummy", "talon"),
            pack=pack,
            hands=one_of(
                part_one,
                ListOf(
                    dealt_cards("a seat's 16 cards"),
                    2,
                    2,
                    doc="part two: each seat's 16 cards, in seat order",
                ),
                doc="each seat's cards",
            ),
            dummy=dealt_cards("part two: the dummy's 16 cards"),
            talon=dealt_cards("part two: the talon Dealer takes, truffle_talon (3 or 4) cards"),
        )
    events = {
        DEALT: dealt,
        ANNOUNCED: record(
            "A seat's start value (Even Stevens, 20.2.2).", seat=SEAT, value=START_VALUE
        ),
        DISCARDED: record(
            "A discard: each seat's three in part one (20.2.3)"
            + ("." if kind == PICCADILLY else "; in part two, Dealer's for the talon (21.1)."),
            optional=("shown",),
            seat=SEAT,
            cards=cards_of(3 if kind == PICCADILLY else 4, "the cards discarded", 3),
            shown=ListOf(
                CARD,
                len(cards.PACK),
                doc="the cards shown, each once: those of the trumps, Honours and Kings "
                "discarded"
                + ("" if kind == PICCADILLY else ", and every card of Dealer's part-two discard")
                + " (none if left out)",
            ),
        ),
        PLAYED: record(
            "A card played by the hand on turn; its hand and seat, if given, are checked.",
            optional=("hand", "seat"),
            card=CARD,
            hand=hand,
            seat=Integer(0, 1, doc="the seat playing the hand"),
        ),
        WON: record("The trick's winner, as the rules give it.", winner=hand),
        PAID: record(
            "The Fool's owner pays the winner of its trick a card of his pile: an empty one if "
            "he has one, the Fool itself if he won no trick (20.2.5, 20.3.4).",
            card=CARD,
        ),
    }
    if kind == PICCADILLY:
        events[CHOSEN] = record(
            "Which of his two hands a seat makes his dummy (20.3.1).",
            seat=SEAT,
            dummy=Integer(0, 1, doc="0 or 1: his first or second hand as dealt"),
        )
    return events


def _named_hands(labels: tuple[str, ...], most: int, doc: str) -> Record:
    hands = {label: cards_of(most, f"the {label} hand's cards", 0) for label in labels}
    return Record(hands, frozenset(), doc)


def _part_view(labels: tuple[str, ...], most: int, pile: int, doc: str) -> Record:
    """``Part.as_dict``: named hands of at most ``most`` cards, as many tricks; piles of at most
    ``pile`` cards."""
    hand = Text(14, labels, doc="a hand, by name")
    trick = record(
        "A trick: the hand that led it, its cards in play order, the hand that won it.",
        leader=hand,
        plays=ListOf(
            record("A card of the trick.", hand=hand, card=CARD), len(labels), doc="in order"
        ),
        winner=Nullable(hand, doc="the winning hand, null until won"),
    )
    return record(
        doc,
        hands=_named_hands(labels, most, "each hand's cards, by name"),
        tricks=ListOf(trick, most, doc="the tricks won, in order"),
        trick=trick,
        piles=ListOf(
            cards_of(pile, "a pile's cards", 0),
            3,
            3,
            doc="the trick piles of seat 0, seat 1 and (Truffle) the dummy",
        ),
        fool_debt=Nullable(
            record(
                "The Fool's owner owes its trick's winner a card.",
                owner=SEAT,
                to=Text(6, PILES, doc="the pile owed"),
            ),
            doc="the Fool's debt until paid at the end of the part, or null",
        ),
    )


def _pair(of: Shape, doc: str) -> ListOf:
    return ListOf(of, 2, 2, doc=doc)


def _sheet(over: bool) -> dict[str, Shape]:
    """``score_sheet``'s figures; ``over``: a finished hand's, every one given."""

    def given(shape: Shape, doc: str) -> Shape:
        return shape if over else Nullable(shape, doc=doc)

    return {
        "pile_points": given(
            ListOf(Integer(0, cards.PACK_POINTS), 3, 3, doc="seat 0, seat 1, the Truffle dummy"),
            "the card points of the current part's trick piles; null when no part is in play",
        ),
        "tricks_won": given(
            ListOf(Integer(0, 16), 3, 3, doc="seat 0, seat 1, the Truffle dummy"),
            "the current part's tricks won; null when no part is in play",
        ),
        "start_values": _pair(
            START_VALUE if over else Nullable(START_VALUE),
            "each seat's start value" + ("" if over else ", null until announced"),
        ),
        "first": given(
            _pair(Integer(-63, 63), "each seat's pile points - start value (they sum to 0)"),
            "part one's scores, null until it is over",
        ),
        "second": given(
            _pair(Integer(0), "each seat's pile points + one per trick won"),
            "part two's scores, null until the hand is over",
        ),
        "hand_totals": given(
            _pair(Integer(-63), "each seat's first + second score"),
            "the hand totals, null until the hand is over",
        ),
        "game_points": given(
            _pair(Integer(0), "the winner's difference of the hand totals, the other's 0"),
            "the game points, null until the hand is over",
        ),
    }


def manchester_view(kind: str) -> Record:
    """``ManchesterRules.view``, at every phase."""
    two = PART_TWO_CARDS[kind]
    labels = PART_TWO_HANDS[kind]
    picc = kind == PICCADILLY
    part_one = _part_view(
        PART_ONE_HANDS, PART_ONE_TRICKS, 2 * PART_ONE_CARDS, "Part one: ten tricks of two cards."
    )
    part_two = _part_view(labels, two, SET_ASIDE, f"Part two: {two} tricks of {len(labels)} cards.")
    nothing = record("Empty: nothing to show at this phase.")
    return record(
        f"A hand of Manchester {'Piccadilly' if picc else 'Truffle'}: its phase (20.5), its parts, "
        "deals and discards, and its sheet.",
        phase=Text(10, PHASES[kind], doc="the hand's phase (20.5)"),
        dealer=SEAT,
        opposite=SEAT,
        part_one=Nullable(part_one, doc="part one once it is over, else null"),
        part=Nullable(one_of(part_one, part_two), doc="the part in play (or over), or null"),
        hands=one_of(
            nothing,
            part_one.fields["hands"],
            part_two.fields["hands"],
            doc="the part's hands by name, as part.hands (none while no part is in play)",
        ),
        dummies=one_of(
            nothing,
            _named_hands(tuple(h for h in labels if "dummy" in h), two, "the dummies' cards"),
            doc="part two's dummies, face up, by name (none before part two's play)",
        ),
        options=ListOf(
            _pair(cards_of(two, f"a hand of {two}"), "the seat's hands 0 and 1"),
            2 if picc else 0,
            doc="while the dummies are chosen, each seat's two hands (dummy.chosen's 0 and 1)"
            if picc
            else "always empty: Truffle's dummy is not chosen",
        ),
        dealt=ListOf(
            cards_of(PART_ONE_CARDS, "a seat's 13 cards"),
            2,
            doc="part one's cards of seat 0 and seat 1 as dealt (none before the deal)",
        ),
        discards=_pair(
            Nullable(cards_of(3, "the seat's three discards")),
            "each seat's part-one discards, null until made",
        ),
        talon=ListOf(CARD, 0 if picc else 4, doc="Truffle: the talon Dealer takes"),
        dead=ListOf(CARD, 0 if picc else 1, doc="Truffle: the card left over (D-MT-1)"),
        truffle_discards=ListOf(CARD, 0 if picc else 4, doc="Truffle: Dealer's discards"),
        stock=Integer(0, SET_ASIDE, doc="the number of cards set aside for part two"),
        hand_sheet=Record(
            _sheet(over=False),
            frozenset(),
            "The hand's figures: piles so far, start values, first and second scores, totals.",
        ),
    )


REPORT = Record(
    {"dealer": SEAT, **_sheet(over=True)},
    frozenset(),
    "A finished hand's dealer and figures, for the match's sheet (20.4).",
)
SETUP = record(
    "Who deals the hand.",
    optional=("dealer",),
    dealer=Integer(0, 1, doc="the dealer's seat (seat 0 if left out); a match alternates it"),
)


# --- the game of hands (20.4) --------------------------------------------------------------------

MATCH_EVENTS = {
    GAME_SCORED: record(
        "One hand of a score sheet: each seat's game points.",
        optional=("cumulative",),
        scores=ListOf(
            Integer(doc="a seat's game points"),
            2,
            2,
            doc="seat 0's and seat 1's game points: the winner's difference of the hand "
            "totals and the other's 0 (20.4; lenient sheets take any figures)",
        ),
        cumulative=ListOf(Integer(), 2, 2, doc="the running totals after this hand"),
    )
}
