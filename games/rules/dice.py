"""Dice as the table records them (RULES.md 1.3, 1.4): reading a ``dice.thrown`` event's faces.

Scarney dice show ``1 3 4 6 D`` (D dead, worth 0 where a number total is used; opposite faces
1-6, 3-4, D-D); ordinary dice ``1``..``6``. A throw is a multiset: order does not matter, so the
faces come back sorted. The service never rolls: faces arrive recorded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from games.rules.errors import BadSetup, IllegalEvent
from games.rules.shapes import SEAT, Boolean, Integer, ListOf, Nullable, Record, Text, record


class PotEntry(NamedTuple):
    """One chip movement of a pot's ledger: into the pot positive, out of it negative.

    ``kind`` names it (``ante``, ``double_down``, ``win``, ``put``, ``take`` ...); ``seat`` is None
    for a movement of no one seat (a remainder carried over). A named tuple, so a ledger packed
    as rows (Put-and-Take's) reads back as the same entries.
    """

    kind: str
    seat: int | None
    chips: int

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "chips": self.chips}


SCARNEY_FACES = ("1", "3", "4", "6", "D")
ORDINARY_FACES = ("1", "2", "3", "4", "5", "6")
DEAD = "D"
OPPOSITE = {"1": "6", "6": "1", "3": "4", "4": "3", "D": "D"}


def read_faces(
    data: Mapping[str, Any], count: int, faces: Sequence[str] = SCARNEY_FACES
) -> tuple[str, ...]:
    """The thrown faces, sorted, or IllegalEvent naming the dice (``throw.*`` codes)."""
    thrown = data.get("faces")
    if not isinstance(thrown, list | tuple):
        raise IllegalEvent(
            "event.bad_data",
            '\'faces\' must list the faces thrown, e.g. ["D", "3", "6"].',
            field="faces",
        )
    # Anything but one of the dice's faces, written as a string, is a bad face (RULES.md 1.3).
    unknown = [face for face in thrown if not isinstance(face, str) or face not in faces]
    if unknown:
        raise IllegalEvent(
            "throw.bad_face",
            f"{', '.join(repr(u) for u in unknown)} is not a face of these dice; "
            f"a die shows one of {' '.join(repr(f) for f in faces)}, written as a string.",
            faces=list(thrown),
        )
    if len(thrown) != count:
        raise IllegalEvent(
            "throw.wrong_dice_count",
            f"{count} {'die is' if count == 1 else 'dice are'} in the cup, "
            f"but {len(thrown)} faces were recorded ({' '.join(thrown) or 'none'}).",
            expected=count,
            faces=list(thrown),
        )
    return tuple(sorted(thrown))


def number_total(faces: Sequence[str]) -> int:
    """The spots of a throw, dead dice counting 0."""
    return sum(0 if face == DEAD else int(face) for face in faces)


def opposite(faces: Sequence[str]) -> tuple[str, ...]:
    """The faces underneath (RULES.md 1.3)."""
    return tuple(sorted(OPPOSITE[face] for face in faces))


# --- setup keys the dice games share (Straight Scarney Dice, Scarney 3000) ---------------------


def setup_flag(setup: Mapping[str, Any], key: str) -> bool:
    """A yes/no setup key (``seating_throws``, ``partner_throws``), false when absent."""
    value = setup.get(key, False)
    if not isinstance(value, bool):
        raise BadSetup("setup.bad_value", f"{key!r} must be true or false.", key=key)
    return value


def setup_first_shooter(setup: Mapping[str, Any], seats: int) -> int:
    """The seat that shoots first (seat 0 when absent)."""
    first = setup.get("first_shooter", 0)
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < seats:
        raise BadSetup(
            "setup.bad_value",
            f"'first_shooter' must be a seat from 0 to {seats - 1}, not {first!r}.",
            key="first_shooter",
        )
    return first


# --- declared shapes the dice families share (games/rules/shapes.py) ---------------------------

SCARNEY_DIE = Text(1, SCARNEY_FACES, doc='a Scarney die\'s face: "1", "3", "4", "6" or "D" (dead)')
ORDINARY_DIE = Text(1, ORDINARY_FACES, doc="an ordinary die's face, 1-6")
# A view's list that grows with play beyond any count the rules fix (extra frames, throws of a
# turn, play-offs): ample for any game a table plays.
LONG = 10_000


def choice(*values: str, doc: str = "") -> Text:
    """Text that is one of ``values``."""
    return Text(max(map(len, values)), values, doc=doc)


def thrown(die: Text, most: int, least: int = 1, doc: str = "") -> ListOf:
    """A throw's faces as a view shows them: as many as there are dice in the cup (``least`` to
    ``most``), each a face of ``die``."""
    return ListOf(die, most, least, doc=doc or "the faces thrown, one per die in the cup")


# Dice as a client records them (a throw, the dice kept, a group). How many dice there are and
# which faces they show are the rules' to judge, each with the code RULES.md names
# (``throw.wrong_dice_count``, ``throw.bad_face``, ``keep.not_showing``, ``group.wrong_dice``):
# a declaration bounding them would answer first, with the store's ``event.too_large`` or the
# schema's enum. So the data a client sends is bounded only against absurd input (at most
# MOST_DICE faces, each text of at most two characters), and the rule is said in words. The
# views, which the service writes, keep the exact counts and faces (``thrown``).
MOST_DICE = 32
RECORDED_FACE = Text(2, doc="a face as the table read it")


def recorded(die: Text, rule: str, doc: str) -> ListOf:
    """Faces a client records: ``doc``, then ``rule`` (the count the rules ask for) and the faces
    of ``die``, in words; anything else is the rules' to refuse, with their code."""
    faces = ", ".join(die.choices)
    return ListOf(RECORDED_FACE, MOST_DICE, doc=f"{doc}; {rule}, each one of {faces} (as text)")


def seating_throw_view(die: Text, dice: int) -> Record:
    """One seating (or partner) throw as a view shows it."""
    return record(
        "A seating throw: the thrower, the faces, their number total.",
        seat=SEAT,
        faces=thrown(die, dice, dice),
        total=Integer(0, doc="the number total (dead dice count 0)"),
    )


def pot_view_shape(most_seats: int) -> Record:
    """A pot as the views show it: its chips, and each seat's chips received minus paid."""
    return record(
        "Chips in the pot and each seat's chips received minus paid.",
        balance=Integer(0, doc="chips in the pot"),
        nets=ListOf(Integer(doc="chips received minus chips paid"), most_seats),
    )


# The setup keys of Straight Scarney Dice and Scarney 3000 (``setup_flag``, ``setup_first_shooter``)
# and of their partnership games.
PARTNERS = 6  # the most players of a partnership game: three against three


def seat_of(most_seats: int, doc: str = "a seat number, from 0") -> Integer:
    """A seat of a table of at most ``most_seats`` players."""
    return Integer(0, most_seats - 1, doc=doc)


def first_shooter(most_seats: int) -> Integer:
    return seat_of(most_seats, "the seat that shoots first (seat 0 when left out)")


SEATING_THROWS = Boolean(
    doc="true: the seats throw five dice for the order of play first, highest total first "
    "(false when left out; not with first_shooter)"
)
PARTNER_THROWS = Boolean(
    doc="true: the seats throw five dice for the sides and the order of play first, the highest "
    "totals one side (false when left out; not with teams or first_shooter)"
)
TEAMS = Nullable(
    ListOf(
        ListOf(seat_of(PARTNERS), PARTNERS // 2, 2, doc="a side's seats"),
        2,
        doc="the two sides, partners sitting alternately, e.g. [[0, 2], [1, 3]]; null or empty: "
        "the even seats against the odd",
    )
)
