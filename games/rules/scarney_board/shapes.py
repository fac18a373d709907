"""What the Scarney board games take and show (games/rules/shapes.py): the family's declarations.

Here are the pieces the games share: a circle's and a pawn's names, the board and a study position
as views and setups give them, the take-off and the jump (Solitaire, Singles, Doubles), the colour
choice and the placing (Singles, Doubles, High-Low), a seat and the views of the colours and the
pawns still to place; the events of the three formats of :mod:`~games.rules.scarney_board.matches`
(a sheet's line and the first-player draw); and Scarney Solitaire's events, setup and view, with
the phases and the event type they name. Singles, Doubles and High-Low Scarney build their own
events, setup, view and report from these pieces beside their rules; the Solitaire match declares
its events beside its format (``solitaire_match``).

The rule modules import what they declare from here (``events = SOLITAIRE_EVENTS``, ...). This
module reads only :mod:`~games.rules.scarney_board.board` and
:mod:`~games.rules.scarney_board.placing`, never a game's module.
"""

from __future__ import annotations

from games.rules.events import GAME_SCORED, JUMPED, ORDER_DRAWN, SCARNEY_CALLED, TAKEN_OFF
from games.rules.scarney_board.board import ALL_PAWNS, CIRCLES, COLOURS
from games.rules.scarney_board.placing import COLOURS_CHOSEN, PAWN_PLACED
from games.rules.shapes import (
    CIRCLE,
    PAWN,
    Integer,
    ListOf,
    MapOf,
    Nullable,
    Record,
    Text,
    one_of,
    record,
)

# --- the board, shared (RULES.md 1.1, 1.2) -----------------------------------------------------

# A circle as a board's key: "C7" in a view; "C7" or "c7" in a client's position (a JSON key is
# text, so 7 cannot be one).
CIRCLE_NAME = Text(3, pattern="^C([1-9]|1[0-6])$", doc='a circle name "C1"-"C16"')
CIRCLE_KEY = Text(3, pattern="^[Cc]([1-9]|1[0-6])$", doc='a circle name "C1"-"C16" (any case)')
# A pawn as a client gives it: parse_pawn takes either case ("b4" is B4); views show upper case.
PAWN_GIVEN = Text(
    2,
    pattern="^[BRYGbryg][1-4]$",
    doc='a pawn: colour B, R, Y or G (either case) and spots 1-4, e.g. "B4"',
)
COLOUR = Text(1, COLOURS, doc="a colour: B (black), R (red), Y (yellow) or G (green)")

BOARD_VIEW = MapOf(
    Nullable(PAWN, doc="the pawn on the circle, null if empty"),
    key=CIRCLE_NAME,
    longest=len(CIRCLES),
    doc='all 16 circles, each with its pawn or null: {"C1": "B4", "C2": null, ...}',
)
STUDY_POSITION = Nullable(
    MapOf(
        Nullable(PAWN_GIVEN, doc="the pawn on the circle; null leaves it empty"),
        key=CIRCLE_KEY,
        longest=len(CIRCLES),
    ),
    doc='a study position, circle: pawn ({"C6": "B4", "C7": "R1"}); null or left out: the '
    "pawns are laid out or placed at the table",
)
TAKEOFF_DATA = record(
    "The low pawn (1 or 2 spots) taken off before the first jump.",
    circle=CIRCLE,
)
JUMP_DATA = record(
    "A jump: the pawn on 'from' jumps the adjacent pawn of another colour to the empty 'to'.",
    optional=("over",),
    **{
        "from": CIRCLE,
        "to": CIRCLE,
        "over": Nullable(CIRCLE, doc="the circle jumped, checked if given (null: not given)"),
    },
)

# --- the colours and the placing (placing), and the seats of the games for two or more ---------

PLACING_EVENTS = {
    COLOURS_CHOSEN: record(
        "The first side's two colours: it holds those eight pawns, the other side the rest.",
        # Which and how many are the rules' to judge (colours.invalid, RULES.md 3.5).
        colours=ListOf(
            Text(1, doc="a colour B, R, Y or G (either case)"),
            len(CIRCLES),
            doc='two different colours, e.g. ["B", "R"] (else colours.invalid)',
        ),
    ),
    PAWN_PLACED: record(
        "One of the placing side's own pawns put on an empty circle.",
        # Which circles there are is the rules' to judge (setup.unknown_circle, RULES.md 3.5).
        circle=one_of(
            Integer(doc="a circle number 1-16; another is setup.unknown_circle"),
            Text(3, doc='a circle name "C1"-"C16" (any case); another is setup.unknown_circle'),
            doc='a circle: 1-16 or "C1"-"C16"',
        ),
        pawn=PAWN_GIVEN,
    ),
}


def colours_view(seats: int, fewest: int = 2) -> ListOf:
    """The ``colours`` :func:`~games.rules.scarney_board.placing.view` gives, for a game of
    ``fewest`` to ``seats`` players."""
    return ListOf(
        ListOf(COLOUR, 2),
        seats,
        fewest,
        doc="each seat's two colours once chosen (empty before, and for a seat not placing)",
    )


def unplaced_view(seats: int, fewest: int = 2) -> ListOf:
    """The ``unplaced`` :func:`~games.rules.scarney_board.placing.view` gives, for a game of
    ``fewest`` to ``seats`` players."""
    return ListOf(
        ListOf(PAWN, len(ALL_PAWNS) // 2), seats, fewest, doc="each seat's pawns still to place"
    )


def seat_shape(seats: int) -> Integer:
    """A seat of a game of at most ``seats`` players."""
    return Integer(0, seats - 1, doc=f"a seat number, 0-{seats - 1}")


def setup_seat_shape(seats: int, doc: str) -> Nullable:
    """A seat a setup names (null or left out: the default)."""
    return Nullable(seat_shape(seats), doc=doc)


# --- the match formats (matches; the draw in draws) --------------------------------------------


def board_match_events(seats: int, sheet: str, draw: str, fewest: int = 2) -> dict[str, Record]:
    """What a format of ``fewest`` to ``seats`` players takes from a table: a sheet's line
    (``game.scored``, checked as :class:`~games.rules.matches.ScoredMatch` does) and the draw
    (``order.drawn``); ``sheet`` and ``draw`` say what the format's line and draw are."""
    seat = Integer(0, seats - 1, doc=f"a seat number, 0-{seats - 1}")
    return {
        GAME_SCORED: record(
            sheet,
            optional=("cumulative",),
            scores=ListOf(
                Integer(doc="a seat's game score"),
                seats,
                fewest,
                doc="one whole number per seat, in seat order",
            ),
            cumulative=Nullable(
                ListOf(Integer(), seats, fewest),
                doc="the running totals after this game, per seat: checked if given (null: not "
                "given)",
            ),
        ),
        ORDER_DRAWN: record(
            draw,
            draws=ListOf(
                record("One seat's pick.", seat=seat, pawn=PAWN_GIVEN),
                seats,
                fewest,
                doc='each drawing seat once with its pawn, e.g. [{"seat": 0, "pawn": "R4"}, ...]',
            ),
        ),
    }


SINGLES_MATCH_SEATS = 16  # two to sixteen players (D-SGL-7)
SINGLES_MATCH_EVENTS = board_match_events(
    SINGLES_MATCH_SEATS,
    "A sheet line: a whole round as the books write it (each player of the round his own "
    "game's score, the others 0) or one game (the active player's score, the others 0).",
    "The pawn draw for the first active player (3.3): every seat, or after a tie the tied "
    "seats again; the most spots plays first.",
)
DOUBLES_MATCH_EVENTS = board_match_events(
    2,
    "One game of a score sheet: the two scores, totalling 40 (4.4).",
    "The pawn draw for the first starter: the more spots starts; a tie draws again.",
)
HIGH_LOW_MATCH_EVENTS = board_match_events(
    2,
    "One game of a score sheet: the winner's score and 0 (5.7).",
    "The pick for the first starter (5.3): two pawns of one colour, one a seat; the higher starts.",
)

# --- Scarney Solitaire (solitaire, RULES.md 2) --------------------------------------------------

LAYOUT, TAKEOFF, JUMPING, OVER = "layout", "takeoff", "jumping", "over"
LAID_OUT = "board.laid_out"

SOLITAIRE_EVENTS = {
    LAID_OUT: record(
        "The layout: all 16 pawns on the 16 circles, once, first.",
        position=MapOf(
            # Which pawns there are is the rules' to judge (setup.unknown_pawn, RULES.md 2.4):
            # the layout takes any short text, the pawns said in words.
            Text(2, doc=f"{PAWN_GIVEN.doc}; another is setup.unknown_pawn"),
            key=CIRCLE_KEY,
            longest=len(CIRCLES),
            doc='every circle with its pawn: {"C1": "B4", "C2": "R1", ...}',
        ),
    ),
    TAKEN_OFF: TAKEOFF_DATA,
    JUMPED: JUMP_DATA,
    SCARNEY_CALLED: record(
        "Ends the game with jumps left: only under solitaire_allow_scarney_call, after the "
        "take-off."
    ),
}
SOLITAIRE_SETUP = record(
    "A study position (the books' end games) starts in the jumping phase; none: the player "
    "lays out the board.",
    optional=("position",),
    position=STUDY_POSITION,
)
SOLITAIRE_VIEW = record(
    board=BOARD_VIEW,
    phase=Text(
        choices=(LAYOUT, TAKEOFF, JUMPING, OVER),
        doc="layout (awaiting board.laid_out), takeoff, jumping, or over",
    ),
    removed=ListOf(PAWN, len(ALL_PAWNS) - 1, doc="the pawns taken off and jumped, in order"),
)
