"""What the rule modules take and show (games/rules/shapes.py): the declarations of a recorded
hand (``recording``'s table: its events' data, its setup, ``table_view``), of the Butt's events
(``butt``), and of Courtship Rules, Tontine and the Last Laugh, each module's events and view.

Each rules class names its own (``events``, ``view_shape``, ``setup_shape``). The names these
declarations use and the modules cannot give them (for a module imports this one) are here too,
and the modules take them from here: Courtship's servant events and special plays, Tontine's
claim, its groups and their values (17.2) and its match's end, the Last Laugh's ``aside``. The
recorded hand's event types are ``recording``'s, the Butt's ``butt``'s; a card's shapes are
``cards``'s; Manchester's declarations are ``manchester.shapes``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.rules.events import GAME_SCORED
from games.rules.shapes import (
    Boolean,
    Integer,
    ListOf,
    Nullable,
    Record,
    Shape,
    Text,
    one_of,
    record,
)
from games.rules.tarot import cards
from games.rules.tarot.butt import BUTT_DISCARDED, EXCHANGED, SET_ASIDE
from games.rules.tarot.cards import ANY_CARD, CONFERENCE_PACK, FOOL
from games.rules.tarot.recording import (
    BASE_GAMES,
    DEALT,
    DISCARDED,
    HAND_ENDED,
    MOST_SEATS,
    PLAYED,
    WON,
)

# --- a recorded hand (16.3-16.4) -----------------------------------------------------------------
# Tontine, the Last Laugh and Courtship Rules each declare their events and view from these.

MODULE_SEAT = Integer(0, MOST_SEATS - 1, doc="a seat number, from 0")
# A hand, talon or discard: cards of the pack, each once (Conference's pack holds 80).
MODULE_CARDS = ListOf(ANY_CARD, len(CONFERENCE_PACK), doc="cards, each once")
BASE_GAME = Text(16, BASE_GAMES, doc="the base game whose hand is recorded (D-TAR-3)")

DEALT_DATA = record(
    "The hands as dealt, before the first card; the talon, if any, beside them.",
    optional=("talon",),
    hands=ListOf(MODULE_CARDS, MOST_SEATS, 2, doc="each seat's cards, in seat order"),
    talon=ListOf(ANY_CARD, len(CONFERENCE_PACK), doc="the talon's cards (none if left out)"),
)
DISCARDED_DATA = record(
    "A seat's discard by the base game's rules, before the first card.",
    seat=MODULE_SEAT,
    cards=MODULE_CARDS,
)
PLAYED_DATA = record(
    "A card played to the trick by the seat on turn.", seat=MODULE_SEAT, card=ANY_CARD
)
WON_DATA = record(
    "The complete trick's winner, as the base game gives it (unless the module decides).",
    winner=MODULE_SEAT,
)
ENDED_DATA = record(
    "The hand is over: after a complete, won trick (with the hands recorded, once played out)."
)
SETUP = record(
    "Who leads the first trick.",
    optional=("leader",),
    leader=Integer(0, MOST_SEATS - 1, doc="the seat leading the first trick (seat 0 if left out)"),
)

TRICK_VIEW = record(
    "A trick: who led it, its cards in play order, and who won it.",
    leader=MODULE_SEAT,
    plays=ListOf(
        record("A card of the trick.", seat=MODULE_SEAT, card=ANY_CARD),
        MOST_SEATS,
        doc="the cards played, in order",
    ),
    winner=Nullable(MODULE_SEAT, doc="the trick's winner, null until it is won"),
)
# Each non-Fool card lies in one trick at most, and every trick holds one: 80 tricks at most.
MOST_TRICKS = len(CONFERENCE_PACK)


def table_view(doc: str, **fields: Shape) -> Record:
    """The view of a rule module's hand: the table (``Table.as_dict``), the ruleset's base game,
    and the module's own ``fields``."""
    table = {
        "hands": Nullable(
            ListOf(MODULE_CARDS, MOST_SEATS, 2),
            doc="each seat's cards in hand, in seat order; null when the hands are not recorded",
        ),
        "talon": MODULE_CARDS,
        "discards": ListOf(MODULE_CARDS, MOST_SEATS, 2, doc="each seat's discards, in seat order"),
        "tricks": ListOf(TRICK_VIEW, MOST_TRICKS, doc="the tricks won, in order"),
        "trick": TRICK_VIEW,
        "to_play": Nullable(
            MODULE_SEAT,
            doc="the seat to play next; null once the trick is complete or the hand is over",
        ),
        "base_game": BASE_GAME,
    }
    return Record({**table, **fields}, frozenset(), doc)


# --- Courtship Rules (19) ------------------------------------------------------------------------

SUMMONED = "servant.summoned"
REFUSED = "servant.refused"
RUFF, MARRIAGE, AFFAIR = "queens_ruff", "royal_marriage", "royal_affair"

SERVANT = cards.card_shape(
    (f"{rank}{suit}" for suit in cards.SUITS for rank in ("J", "C")),
    "a servant: the Jack of the King's suit, or its Cavalier if the Jack is out (D-CR-4)",
)
JACK = cards.card_shape((f"J{suit}" for suit in cards.SUITS), "a Jack")
COURTSHIP_EVENTS = {
    DEALT: DEALT_DATA,
    DISCARDED: DISCARDED_DATA,
    PLAYED: record(
        "A card played to the trick by the seat on turn.",
        optional=("affair",),
        seat=MODULE_SEAT,
        card=ANY_CARD,
        affair=Boolean(
            doc="true: a Royal Affair, the player declaring he cannot follow suit (for the "
            "hands not recorded); false if left out"
        ),
    ),
    WON: WON_DATA,
    HAND_ENDED: ENDED_DATA,
    SUMMONED: record(
        "Summoning Servants (19.1 rule 4): a King's servant joins the last trick, its holder "
        "taking back the card he had played to it.",
        card=SERVANT,
        from_seat=MODULE_SEAT,
    ),
    REFUSED: record(
        "The Cavalier was called, yet its holder still holds the Jack and says so: nothing is "
        "summoned.",
        optional=("card",),
        holder=MODULE_SEAT,
        card=JACK,
    ),
}
SPECIAL_VIEW = record(
    "A special play of a trick.",
    play=Integer(
        1, MOST_SEATS - 1, doc="the card's place in the trick (the lead, 0, is never one)"
    ),
    rule=Text(14, (RUFF, MARRIAGE, AFFAIR), doc="the courtship rule the card invokes"),
)
SUMMONS_VIEW = one_of(
    record(
        "A servant summoned.",
        card=SERVANT,
        from_seat=MODULE_SEAT,
        returned=ANY_CARD,
    ),
    record("A summons refused: the holder of the Jack said so.", refused_by=MODULE_SEAT),
    doc="a summons, or its refusal",
)
COURTSHIP_VIEW = table_view(
    "A hand under Courtship Rules: the recorded table, the special plays and the summonses.",
    specials=ListOf(
        ListOf(SPECIAL_VIEW, MOST_SEATS - 1),
        MOST_TRICKS + 1,
        doc="each trick's special plays, in trick order, the trick in progress last",
    ),
    summons_open=Boolean(doc="true while the last won trick's King may summon its servant"),
    summons=ListOf(SUMMONS_VIEW, MOST_TRICKS, doc="every summons and refusal, in order"),
)


# --- Tontine (17) --------------------------------------------------------------------------------

CLAIMED = "card.claimed"
MATCH_ENDED = "match.ended"
# Group -> value carried by its last-played card (17.2); 111 in all.
GROUP_VALUES = {
    "kings": 20,
    "queens": 16,
    "cavaliers": 12,
    "jacks": 8,
    "honours": 15,
    **{f"pips_{suit}": 10 for suit in cards.SUITS},
}
TOTAL = sum(GROUP_VALUES.values())

GROUP_CARD = cards.card_shape(
    (*cards.SUIT_CARDS, *cards.HONOURS),
    "a card of a Tontine group (17.2): a suit card, or an Honour (T1, T21, FOOL)",
)
TONTINE_EVENTS = {
    DEALT: DEALT_DATA,
    DISCARDED: DISCARDED_DATA,
    PLAYED: PLAYED_DATA,
    WON: WON_DATA,
    HAND_ENDED: ENDED_DATA,
    CLAIMED: record(
        "A group card of the trick just won, left face up (17.3): by the trick's winner, the Fool "
        "by its winner or its player (D-TON-7); before the next card is played (D-TON-6).",
        seat=MODULE_SEAT,
        card=GROUP_CARD,
    ),
}
GROUP_VIEW = record(
    "A group's last played card (D-TON-1), who holds it face up, and what the group is worth.",
    card=GROUP_CARD,
    seat=Nullable(MODULE_SEAT, doc="the seat that claimed the card; null while unclaimed"),
    value=Integer(min(GROUP_VALUES.values()), max(GROUP_VALUES.values()), doc="the group's value"),
)
TONTINE_VIEW = table_view(
    "A Tontine hand: the recorded table, the claims, each group's owner and the points.",
    claims=ListOf(
        record("A claim.", seat=MODULE_SEAT, card=GROUP_CARD),
        len(cards.SUIT_CARDS) + len(cards.HONOURS),
        doc="every claim, in the order made",
    ),
    groups=Record(
        {group: GROUP_VIEW for group in GROUP_VALUES},
        frozenset(GROUP_VALUES),
        "Each group of which a card is played, by name (kings, queens, cavaliers, jacks, "
        "honours, pips_s, pips_b, pips_c, pips_d).",
    ),
    points=ListOf(
        Integer(0, TOTAL), MOST_SEATS, 2, doc="each seat's points: the groups it holds face up"
    ),
    hand_result=Nullable(
        ListOf(Integer(-TOTAL, TOTAL), 4, 3),
        doc="once the hand is over, each seat's result: 3 players, points - 37; 4, the side "
        "difference (+ for the winning side, - for the other); null before the end and for "
        "other player counts (D-TON-5)",
    ),
)
TONTINE_MATCH_EVENTS = {
    GAME_SCORED: record(
        "One hand of a score sheet: each seat's hand result (17.4).",
        optional=("cumulative",),
        scores=ListOf(
            Integer(doc="a seat's hand result"),
            4,
            3,
            doc="one whole number per seat, in seat order: 3 players, points - 37; 4, +d for "
            "one side and -d for the other (strict sheets: a result the groups can give)",
        ),
        cumulative=ListOf(Integer(), 4, 3, doc="the running totals after this hand, per seat"),
    ),
    MATCH_ENDED: record(
        "The base game's target is reached: the table ends the match (after a hand at least)."
    ),
}


# --- the Butt's events (18.2) and the Last Laugh (18) ---------------------------------------------

ASIDE = "aside"


@dataclass(frozen=True)
class OnlyTrue(Boolean):
    """A flag the rules take only as ``true`` (a shape kind of this module: JSON Schema
    ``enum: [true]``); ``false`` or no value is the rules' to refuse, with their own code."""

    def schema(self) -> dict[str, Any]:
        return {**super().schema(), "enum": [True]}


NOT_FOOL = cards.card_shape(
    (c for c in cards.CONFERENCE_PACK if c != FOOL),
    'a card other than the Fool: rank K Q C J 10-2 A and suit s b c d ("Cc", "10s"), or a '
    'trump "T1"-"T21"; Conference adds "GOOD" and "EVIL"',
)
BUTT_EVENTS = {
    BUTT_DISCARDED: record(
        "The Butt's card put in his trick pile in the Fool's place: 18.2 cases 1-4.",
        optional=("shown", "knocked"),
        card=NOT_FOOL,
        shown=Boolean(doc="true: shown, as cases 3 and 4 require (false if left out)"),
        knocked=Boolean(doc="true: he knocks, as case 2 requires (false if left out)"),
    ),
    SET_ASIDE: record(
        "Case 5 of 18.2: the Butt sets the Fool aside face up and shows his whole hand.",
        hand_shown=OnlyTrue(doc="true: he shows his whole hand"),
    ),
    EXCHANGED: record(
        "Case 5: the last trick's winner gives the Butt a card of his trick pile for the Fool, an "
        "empty one if he has one (D-LL-3, D-LL-6).",
        card=NOT_FOOL,
    ),
}
BUTT_DISCARD_VIEW = record(
    "A Butt's discard.",
    seat=MODULE_SEAT,
    card=NOT_FOOL,
    shown=Boolean(doc="shown (cases 3 and 4)"),
    knocked=Boolean(doc="knocked (case 2)"),
)
LAST_LAUGH_EVENTS = {
    DEALT: DEALT_DATA,
    DISCARDED: record(
        "A seat's discard by the base game's rules, before the first card: never the Fool, "
        "which stays in play.",
        seat=MODULE_SEAT,
        cards=ListOf(NOT_FOOL, len(cards.CONFERENCE_PACK) - 1, doc="cards, each once"),
    ),
    PLAYED: PLAYED_DATA,
    WON: WON_DATA,
    HAND_ENDED: ENDED_DATA,
    **BUTT_EVENTS,
}
LAST_LAUGH_VIEW = table_view(
    "A Last Laugh hand: the recorded table, where the Fool is, the Butt and what he owes.",
    fool_holder=Nullable(
        one_of(
            MODULE_SEAT,
            Text(5, (ASIDE,), doc='"aside": set aside face up by the Butt (case 5)'),
            doc="a seat, or aside",
        ),
        doc='who holds the Fool: a seat, "aside", or null while unknown (hands not recorded, or '
        "the Fool not dealt to a seat)",
    ),
    butt=Nullable(MODULE_SEAT, doc="the Butt: the last winner of a trick with the Fool, or null"),
    butt_due=Boolean(doc="true while the Butt's discard (or setting the Fool aside) is due"),
    butt_discards=ListOf(BUTT_DISCARD_VIEW, MOST_TRICKS, doc="every Butt's discard, in order"),
    exchange_due=Nullable(
        MODULE_SEAT, doc="the last trick's winner while he owes the Butt a card (case 5), or null"
    ),
    exchanged=Nullable(NOT_FOOL, doc="the card given the Butt for the Fool (case 5), or null"),
)
