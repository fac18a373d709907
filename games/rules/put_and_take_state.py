"""Put-and-Take's session state: constants, the ruleset, the ledger, throws, turn order.

RULES.md section 11; the engine is :mod:`games.rules.put_and_take`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from games.rules.base import make_ruleset
from games.rules.dice import DEAD, number_total
from games.rules.errors import BadRuleset

KIND = "scarney-put-and-take"
DICE = 3
REFILL_AT = 5  # a take leaving this many chips or fewer calls for a refill (11.6)
MAX_SEATS = 20  # "as many as can sit around the playing surface"

SEATING, ANTE, SHOOTING, ROUND_OVER, OVER = "seating", "ante", "shooting", "round_over", "over"
SCARNEY, PUT, TAKE, SPLIT = "scarney", "put", "take", "split"

SEATING_THROWN = "seating.thrown"
ANTED = "round.anted"
DOUBLE_DOWN = "double_down.called"
THROWN = "dice.thrown"
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

    ante_chips: int = 1
    put_take_after_short_take: str = "left_of_shooter"
    put_take_abandoned_pot: str = "split_equally"
    sheet_entry_validation: str = "strict"


# The ledger, the throws and the rounds grow with the session and the whole state is pickled
# after every event: immutable NamedTuples pickle several times faster than slotted dataclasses.
class Movement(NamedTuple):
    """One chip movement of the pot ledger: into the pot positive, out of it negative."""

    kind: str
    seat: int
    chips: int


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


@dataclass(frozen=True, slots=True)
class Seating:
    """The seating throws (11.2): ranked groups, best first; a group of several is still tied."""

    groups: tuple[tuple[int, ...], ...]
    pending: tuple[tuple[int, int], ...] = ()  # (seat, total) of the throw-off under way
    throws: tuple[tuple[int, tuple[str, ...]], ...] = ()


@dataclass(frozen=True, slots=True)
class State:
    """A session: the phase, turn order, pot, ledger, every throw and how each round ended."""

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
    ledger: tuple[Movement, ...] = ()
    round_start: int = 0  # index of the round's first ledger movement
    throws: tuple[Throw, ...] = ()
    rounds: tuple[RoundEnd, ...] = ()


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
    """Each seat's chips received minus chips paid, from the ledger alone."""
    totals = [0] * state.seats
    for movement in state.ledger:
        totals[movement.seat] -= movement.chips
    return totals


def checked_ruleset(ruleset: Any) -> Ruleset:
    """The effective ruleset; ``ante_chips`` must be a positive whole number (D-PT-6)."""
    rules = ruleset if isinstance(ruleset, Ruleset) else make_ruleset(Ruleset, ruleset)
    ante = rules.ante_chips
    if not isinstance(ante, int) or isinstance(ante, bool) or ante < 1:
        raise BadRuleset(
            "ruleset.bad_value",
            f"House rule 'ante_chips' must be a positive whole number of chips, not {ante!r}.",
            parameter="ante_chips",
        )
    return rules


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
