"""Put-and-Take's session state: constants, the ruleset, the packed ledger, throws, turn order.

RULES.md section 11; the engine is :mod:`games.rules.put_and_take.game`.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import struct
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple, overload

from games.rules.dice import DEAD, PotEntry, number_total
from games.rules.events import DOUBLE_DOWN, THROWN

KIND = "scarney-put-and-take"
DICE = 3
REFILL_AT = 5  # a take leaving this many chips or fewer calls for a refill (11.6)
MAX_SEATS = 20  # "as many as can sit around the playing surface"

SEATING, ANTE, SHOOTING, ROUND_OVER, OVER = "seating", "ante", "shooting", "round_over", "over"
SCARNEY, PUT, TAKE, SPLIT = "scarney", "put", "take", "split"

SEATING_THROWN = "seating.thrown"
ANTED = "round.anted"
LEFT = "player.left"
JOINED = "player.joined"
ENDED = "session.ended"
EVENT_TYPES = frozenset({SEATING_THROWN, ANTED, DOUBLE_DOWN, THROWN, LEFT, JOINED, ENDED})


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The house rules of Put-and-Take (RULES.md Appendix E) with their defaults."""

    ALLOWED: ClassVar[Mapping[str, tuple[object, ...]]] = {
        "put_take_after_short_take": ("left_of_shooter", "same_shooter"),
        "put_take_abandoned_pot": ("split_equally", "to_contributors"),
        "sheet_entry_validation": ("strict", "lenient"),
    }
    # D-PT-6: any count of chips from 1 (games.rules.base.make_ruleset).
    POSITIVE: ClassVar[Mapping[str, str]] = {"ante_chips": "chips"}

    ante_chips: int = 1
    put_take_after_short_take: str = "left_of_shooter"
    put_take_abandoned_pot: str = "split_equally"
    sheet_entry_validation: str = "strict"


class Throw(NamedTuple):
    """A throw of a round: its class, what it called for and what actually moved."""

    round: int
    seat: int
    faces: tuple[str, ...]
    kind: str
    doubled: bool
    asked: int  # the chips the class calls for (put or take, doubled), else 0
    chips: int  # chips the shooter paid into the pot (+) or took out of it (-)
    refill: int = 0  # chips the refill after this take added
    short: bool = False  # a take larger than the pot (D-PT-1)


class RoundEnd(NamedTuple):
    """How a round ended: its winner (None after a short take or when abandoned) and why."""

    round: int
    winner: int | None
    how: str  # "scarney", "short_take" or "abandoned"


# --- packed histories ----------------------------------------------------------------------------
# A session's state is pickled after every event and its ledger and round results grow with the
# session: packed into bytes they pickle in microseconds, where a thousand NamedTuples take a
# millisecond. A movement is three bytes: its kind and seat in one, its chips in two (a larger
# amount, as big antes make, is kept whole aside); a round's end is one byte.

MOVEMENT_KINDS = ("ante", "put", "take", "win", "refill", "refund")
ROUND_ENDS = ("scarney", "short_take", "abandoned")
_SEAT_BITS = 5  # MAX_SEATS fits below 2**5
_SEAT_MASK = (1 << _SEAT_BITS) - 1
_RECORD = struct.Struct("<Bh")  # (kind << _SEAT_BITS | seat, chips)
_WIDE = -(1 << 15)  # chips beyond two bytes: the next of the ledger's wide amounts
_KIND_OF = tuple(kind for kind in MOVEMENT_KINDS for _ in range(_SEAT_MASK + 1))  # by head
assert MAX_SEATS <= _SEAT_MASK + 1


class Ledger(Sequence[PotEntry]):
    """The pot's movements in order: an immutable sequence of PotEntry, stored packed."""

    __slots__ = ("_data", "_wide")

    def __init__(self, data: bytes = b"", wide: tuple[int, ...] = ()) -> None:
        self._data = data
        self._wide = wide

    def plus(self, movement: PotEntry) -> Ledger:
        """This ledger with ``movement`` after its last."""
        kind, seat, chips = movement
        # Every Put-and-Take movement is one seat's: the packed row has no room for "no seat".
        assert seat is not None, "a Put-and-Take movement names its seat"
        head = MOVEMENT_KINDS.index(kind) << _SEAT_BITS | seat
        if _WIDE < chips <= -_WIDE - 1:
            return Ledger(self._data + _RECORD.pack(head, chips), self._wide)
        return Ledger(self._data + _RECORD.pack(head, _WIDE), (*self._wide, chips))

    def rows(self) -> Iterator[tuple[str, int, int]]:
        """Each movement as a plain ``(kind, seat, chips)``, the quickest to read."""
        wide = iter(self._wide)
        for head, chips in _RECORD.iter_unpack(self._data):
            yield _KIND_OF[head], head & _SEAT_MASK, next(wide) if chips == _WIDE else chips

    def __iter__(self) -> Iterator[PotEntry]:
        return itertools.starmap(PotEntry, self.rows())

    def __len__(self) -> int:
        return len(self._data) // _RECORD.size

    @overload
    def __getitem__(self, index: int) -> PotEntry: ...

    @overload
    def __getitem__(self, index: slice) -> Ledger: ...

    def __getitem__(self, index: int | slice) -> PotEntry | Ledger:
        movements = tuple(self)
        if isinstance(index, int):
            return movements[index]
        return functools.reduce(Ledger.plus, movements[index], Ledger())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Ledger):
            return NotImplemented
        return (self._data, self._wide) == (other._data, other._wide)

    def __hash__(self) -> int:
        return hash((self._data, self._wide))

    def __repr__(self) -> str:
        return f"Ledger({list(self)!r})"

    def __reduce__(self) -> tuple[type[Ledger], tuple[bytes, tuple[int, ...]]]:
        return Ledger, (self._data, self._wide)


def round_end_byte(winner: int | None, how: str) -> bytes:
    """A round's end packed: how it ended, and its winner plus one (0 for none)."""
    return bytes([ROUND_ENDS.index(how) << _SEAT_BITS | (0 if winner is None else winner + 1)])


def _round_end(number: int, byte: int) -> RoundEnd:
    winner = byte & _SEAT_MASK
    return RoundEnd(number, winner - 1 if winner else None, ROUND_ENDS[byte >> _SEAT_BITS])


@dataclass(frozen=True, slots=True)
class Seating:
    """The seating throws (11.2): ranked groups, best first; a group of several is still tied."""

    groups: tuple[tuple[int, ...], ...]
    pending: tuple[tuple[int, int], ...] = ()  # (seat, total) of the throw-off under way
    throws: tuple[tuple[int, tuple[str, ...]], ...] = ()


@dataclass(frozen=True, slots=True)
class State:
    """A session: the phase, turn order, pot, ledger, nets, the latest round's throws and how
    each round ended.

    Only what the rules and the view need, so that an event costs the same late in a long
    session as early: the throws of earlier rounds are in the event stream, not here.
    """

    ruleset: Ruleset
    seats: int
    order: tuple[int, ...]  # clockwise turn order; order[0] shoots first in round 1
    phase: str = ANTE
    away: frozenset[int] = frozenset()
    seating: Seating | None = None
    round: int = 0
    first_shooter: int = 0  # of the round under way
    next_first: int = 0  # where the next round starts (moved left past absent seats)
    shooter: int | None = None
    doubled: bool = False
    balance: int = 0
    ledger: Ledger = Ledger()
    seat_nets: tuple[int, ...] = ()  # each seat's chips received minus paid, kept as they move
    # The ledger keeps the movements of the round under way (or just over until the next antes):
    # a session's snapshot must not grow with it. ``ledger_start``: the movements before them,
    # each listed by /pot/ from the state it was made in (HasPotLedger.pot_ledger_start).
    ledger_start: int = 0
    throws: tuple[Throw, ...] = ()  # of the round under way, or of the last one until the antes
    round_ends: bytes = b""  # round_end_byte of each round ended, in order

    @property
    def rounds(self) -> tuple[RoundEnd, ...]:
        """How each round ended, in order (round n is the n-th)."""
        return tuple(_round_end(number, byte) for number, byte in enumerate(self.round_ends, 1))

    def last_round(self) -> tuple[RoundEnd, ...]:
        """How the last round over ended (none before the first): read from its byte alone."""
        if not self.round_ends:
            return ()
        return (_round_end(len(self.round_ends), self.round_ends[-1]),)

    # A snapshot of an older shape must not load into this one field by field: refuse it, and
    # the stream is refolded from its events (games.store.folding.unpack).
    def __getstate__(self) -> tuple[Any, ...]:
        return (_STATE_SHAPE, *(getattr(self, name) for name in _STATE_FIELDS))

    def __setstate__(self, values: tuple[Any, ...]) -> None:
        if values[0] != _STATE_SHAPE or len(values) != len(_STATE_FIELDS) + 1:
            raise ValueError("a Put-and-Take state of an older shape")
        for name, value in zip(_STATE_FIELDS, values[1:], strict=True):
            object.__setattr__(self, name, value)


_STATE_SHAPE = "put-and-take/3"
_STATE_FIELDS = tuple(field.name for field in dataclasses.fields(State))


def classify(faces: Sequence[str]) -> tuple[str, int]:
    """The class of a three-dice throw (11.4) and the chips it names (before double down)."""
    counts = Counter(faces)
    if len(counts) == 1:
        return SCARNEY, 0
    if counts[DEAD] == 2:
        return PUT, number_total(faces)
    pairs = [face for face, count in counts.items() if count == 2]
    if pairs:
        single = next(face for face in faces if face != pairs[0])
        return TAKE, number_total([single])  # D-PT-7: a dead single is a push
    return SPLIT, 0


def nets(state: State) -> list[int]:
    """Each seat's chips received minus chips paid."""
    return list(state.seat_nets)


# --- turn order ----------------------------------------------------------------------------------


def seated_from(state: State, seat: int) -> int:
    """``seat`` if seated, else the first seated player on his left."""
    start = state.order.index(seat)
    for step in range(len(state.order)):
        candidate = state.order[(start + step) % len(state.order)]
        if candidate not in state.away:
            return candidate
    return seat


def left_of(state: State, seat: int) -> int:
    """The seated player on ``seat``'s left (the next clockwise)."""
    return seated_from(state, state.order[(state.order.index(seat) + 1) % len(state.order)])


def turn_from(state: State, seat: int) -> list[int]:
    """Every seated player in turn order, starting from ``seat``."""
    start = state.order.index(seat)
    ring = state.order[start:] + state.order[:start]
    return [s for s in ring if s not in state.away]
