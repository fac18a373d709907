"""What Double Cameroon takes and shows (games/rules/shapes.py): its declarations, moved out of
:mod:`games.rules.dice_games.double_cameroon` to keep that module short, with the constants they
name (the event types, the phases, the counts of dice, throws, turns and seats).

:mod:`~games.rules.dice_games.double_cameroon` imports them from here: ``events = EVENTS``,
``view_shape = VIEW``, ``setup_shape = SETUP``. Going to Boston's, Multiplication's and Hearts
Due's declarations stay beside their rules (``boston``, ``hearts_due``), and each match format's
beside its format (``*_match``).
"""

from __future__ import annotations

from games.rules.dice import ORDINARY_DIE, choice, recorded, thrown
from games.rules.dice_games.double_cameroon_scoring import CATEGORIES, GROUP_SIZE
from games.rules.events import THROWN
from games.rules.shapes import SEAT, Boolean, Integer, ListOf, Nullable, Record, record

KEPT, GROUPED = "dice.kept", "dice.grouped"
THROW_1, KEEP, THROW_N, GROUP, OVER = "throw_1", "keep", "throw_n", "group", "over"

DICE = 10
THROWS = 3
TURNS = 5
MAX_SEATS = 20

CATEGORY = choice(*CATEGORIES, doc="a category of the sheet")
DICE_SET = ListOf(ORDINARY_DIE, DICE, doc="dice, in any order")
GROUP_DICE = ListOf(ORDINARY_DIE, GROUP_SIZE, GROUP_SIZE, doc="the five dice of the group")
EVENTS = {
    THROWN: record(
        "A throw of the dice in the cup: ten, then those not kept.",
        faces=recorded(
            ORDINARY_DIE,
            "one per die in the cup: ten, then those not kept",
            'the faces thrown, e.g. ["1", "4", "4", "6"]',
        ),
    ),
    KEPT: record(
        "The dice kept from those showing before the next throw (possibly none).",
        faces=recorded(
            ORDINARY_DIE,
            "among the ten showing, possibly none (another is keep.not_showing)",
            "the faces kept",
        ),
    ),
    GROUPED: record(
        "The ten dice split into two groups of five, each in a different unused category.",
        groups=ListOf(
            record(
                "A group of five dice and its category.",
                category=CATEGORY,
                dice=recorded(
                    ORDINARY_DIE,
                    "five, the two groups together the ten showing (else group.wrong_dice)",
                    "the group's dice",
                ),
            ),
            2,
            2,
            doc="the two groups",
        ),
    ),
}
SETUP = record("Double Cameroon takes no setup: seat 0 throws first.")
BOX_VIEW = record(
    "A category box filled.",
    category=CATEGORY,
    dice=GROUP_DICE,
    points=Integer(0, 50),
)
TURN_VIEW = record(
    "A finished turn: its throws, the dice kept before throws 2 and 3, its two boxes.",
    seat=SEAT,
    throws=ListOf(thrown(ORDINARY_DIE, DICE), THROWS, 1, doc="the turn's throws"),
    kept=ListOf(DICE_SET, THROWS - 1, doc="the dice kept after each throw but the last"),
    boxes=ListOf(BOX_VIEW, 2, 2),
    points=Integer(0, doc="what the two boxes scored"),
)
VIEW = record(
    dice=record(
        "What the table records next, the dice on the table, every turn.",
        turn=Nullable(SEAT, doc="the seat on turn, null once the game is over"),
        turn_of_player=Nullable(Integer(1, TURNS), doc="his turn's number, 1-5"),
        phase=choice(THROW_1, KEEP, THROW_N, GROUP, OVER, doc="what is recorded next"),
        next_throw=Nullable(Integer(1, THROWS), doc="the throw due, null if none is"),
        in_cup=Integer(0, DICE, doc="dice in the cup for the throw due"),
        showing=DICE_SET,
        kept=DICE_SET,
        locked=ListOf(ORDINARY_DIE, DICE, doc="dice kept for good (cameroon_kept_dice_locked)"),
        may_keep=Boolean(doc="dice may be kept for another throw (dice.kept)"),
        may_group=Boolean(doc="the ten dice may be grouped now (dice.grouped)"),
        open_categories=ListOf(CATEGORY, len(CATEGORIES), doc="the categories still open to him"),
        throws=ListOf(thrown(ORDINARY_DIE, DICE), THROWS, doc="this turn's throws"),
        turns=ListOf(TURN_VIEW, TURNS * MAX_SEATS, doc="every finished turn"),
    ),
    sheets=ListOf(
        record(
            "A player's sheet: his filled boxes by category, and his total (12.4).",
            seat=SEAT,
            boxes=Record(
                dict.fromkeys(CATEGORIES, BOX_VIEW),
                frozenset(CATEGORIES),
                "The boxes filled so far, by category (each category at most once).",
            ),
            total=Integer(0),
        ),
        MAX_SEATS,
    ),
)
