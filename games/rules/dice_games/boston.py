"""Going to Boston (``going-to-boston``) and Multiplication (``multiplication``): RULES.md 13, 14.

Every player antes into the pot, then takes one turn of three throws with no choices: the highest
of three dice is set aside, the higher of the next two, and the last die. Going to Boston scores
the sum of the three; Multiplication (first + second) × last. The highest score takes the pot; a
tie is played off or the pot split (``boston_tie``, D-BOS-1). A game is one round; a session of
rounds is a match, settled by the pot (RULES.md 0.8): ``boston_match``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from games.rules.base import Move, SeatScore, SetupWords, check_move, check_seat_count, make_ruleset
from games.rules.dice import ORDINARY_FACES, PotEntry, read_faces, recorded
from games.rules.dice_games import words
from games.rules.dice_games.turns import QueuedThrows
from games.rules.errors import BadSetup
from games.rules.events import THROWN
from games.rules.shapes import CHIPS, SEAT, SEATS, Integer, ListOf, Nullable, Text, record

BOSTON, MULTIPLICATION = "going-to-boston", "multiplication"
DICE = 3  # and so three throws: each sets one die aside
MIN_SEATS, MAX_SEATS = 2, 20
PLAYOFF, SPLIT = "playoff", "split"


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The house rules of Going to Boston and Multiplication (RULES.md Appendix E)."""

    ALLOWED: ClassVar[Mapping[str, tuple[object, ...]]] = {
        "boston_tie": (PLAYOFF, SPLIT),
        "sheet_entry_validation": ("strict", "lenient"),
    }
    POSITIVE: ClassVar[Mapping[str, str]] = {"ante_chips": ""}  # games.rules.base.make_ruleset

    ante_chips: int = 1
    boston_tie: str = PLAYOFF
    sheet_entry_validation: str = "strict"


@dataclass(frozen=True, slots=True)
class Turn:
    """A finished turn: its throws, the three dice set aside, and its score.

    ``playoff`` is 0 for the round itself and n for the n-th play-off of a tie.
    """

    seat: int
    playoff: int
    throws: tuple[tuple[str, ...], ...]
    aside: tuple[str, ...]
    score: int


@dataclass(frozen=True, slots=True)
class State:
    """The pot, the finished turns, and the turn on hand (the first seat of ``queue``)."""

    seats: int
    queue: tuple[int, ...]
    ledger: tuple[PotEntry, ...]
    ruleset: Ruleset = field(default_factory=Ruleset)
    first_player: int = 0
    playoff: int = 0
    throws: tuple[tuple[str, ...], ...] = ()
    turns: tuple[Turn, ...] = ()
    winners: tuple[int, ...] = ()

    @property
    def over(self) -> bool:
        return bool(self.winners)

    @property
    def aside(self) -> tuple[str, ...]:
        return set_aside(self.throws)


def set_aside(throws: Sequence[Sequence[str]]) -> tuple[str, ...]:
    """The dice set aside by the fixed procedure (RULES.md 13.3; D-MUL-1 for Multiplication)."""
    return tuple(max(throw, key=int) for throw in throws)


def boston_score(aside: Sequence[str]) -> int:
    """Going to Boston: the sum of the three set-aside dice (3 to 18)."""
    return sum(int(face) for face in aside)


def multiplication_score(aside: Sequence[str]) -> int:
    """Multiplication: (first + second set-aside die) × last die (2 to 72)."""
    first, second, last = (int(face) for face in aside)
    return (first + second) * last


# --- what the game takes and shows (games/rules/shapes.py) -----------------------------------

DIE = Text(1, ORDINARY_FACES, doc="a die's face, 1-6")
THROW = ListOf(DIE, DICE, 1, doc="one throw's faces")
EVENTS = {
    THROWN: record(
        "One throw of the dice in the cup: three, then two, then one.",
        faces=recorded(
            DIE,
            "three, then two, then one",
            'the faces thrown, e.g. ["6", "2", "2"]',
        ),
    )
}
SETUP = record(
    "Who throws first (D-BOS-2) and the chips a split left in the pot (D-BOS-1).",
    optional=("first_player", "carried"),
    first_player=SEAT,
    carried=Integer(0, doc="chips carried in the pot from the last round"),
)
TURN_VIEW = record(
    "A finished turn.",
    seat=SEAT,
    playoff=Integer(0, doc="0 for the round itself, n for the n-th play-off of a tie"),
    throws=ListOf(THROW, DICE, doc="the turn's throws"),
    set_aside=ListOf(DIE, DICE, doc="the die set aside from each throw, in order"),
    score=Integer(2, 72, doc="the turn's score"),
    how=Text(40, doc='the score worked out, e.g. "6 + 5 + 4 = 15"'),
)
POT_VIEW = record(
    "Chips in the pot and each seat's chips received minus paid.",
    balance=CHIPS,
    nets=ListOf(CHIPS, MAX_SEATS),
)
VIEW = record(
    dice=record(
        "The round: whose throw, the dice in the cup, this turn's dice set aside, every turn.",
        turn=Nullable(SEAT, doc="the seat throwing, null once the round is over"),
        throw=Nullable(Integer(1, DICE), doc="which throw of the turn is next (1-3)"),
        in_cup=Integer(0, DICE, doc="dice in the cup for the next throw"),
        throws=ListOf(THROW, DICE - 1, doc="this turn's throws so far, each its faces"),
        set_aside=ListOf(DIE, DICE, doc="this turn's dice set aside so far"),
        playoff=Integer(0, doc="0 in the round itself, n in the n-th play-off of a tie"),
        to_throw=ListOf(SEAT, MAX_SEATS, doc="the seats still to throw in this round or play-off"),
        turns=ListOf(TURN_VIEW, 1000, doc="every finished turn, play-offs included"),
        winners=SEATS,
    ),
    pot=POT_VIEW,
)


class BostonRules(QueuedThrows):
    """The rule engine of one round of Going to Boston or Multiplication."""

    ruleset_type: type[Any] = Ruleset
    events = EVENTS
    setup_shape = SETUP
    view_shape = VIEW
    report_shape = record(
        "The round's chip nets and what stays in the pot.",
        nets=POT_VIEW.fields["nets"],
        pot_left=CHIPS,
    )
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    setup_words = SetupWords(
        "The setup takes only 'first_player' and 'carried'; {unknown} is unknown."
    )

    dice_faces = ORDINARY_FACES
    most_dice = DICE

    def word_throws(self, game: dict[str, Any], names: Mapping[int, str]) -> dict[str, Any]:
        """This turn's throws, and what its page shows besides, in words (ThrowsDice)."""
        return words.boston(game, names)

    def __init__(self, kind: str, name: str, score: Callable[[Sequence[str]], int]) -> None:
        self.kind = kind
        self.name = name
        self.title = name
        self.score = score

    def start(self, setup: Mapping[str, Any], ruleset: Any, seats: int) -> State:
        """Every seat antes; the first player (seat 0 unless the setup says) throws first."""
        check_seat_count(self, seats, self.name)
        rules = ruleset if isinstance(ruleset, Ruleset) else make_ruleset(Ruleset, ruleset)
        first, carried = _read_setup(setup, seats)
        # Chips a split left in the pot stay there for this round (D-BOS-1); then every ante.
        carry = [PotEntry("carry", None, carried)] if carried else []
        antes = [PotEntry("ante", seat, rules.ante_chips) for seat in range(seats)]
        ledger = tuple(carry + antes)
        order = tuple((first + i) % seats for i in range(seats))
        return State(seats=seats, queue=order, ledger=ledger, ruleset=rules, first_player=first)

    def apply(self, state: State, move: Move) -> State:
        """The state after a throw, or IllegalEvent (RULES.md 13.3)."""
        over, hint = "The round is over: the pot is taken.", "; a throw is dice.thrown"
        check_move(move, (THROWN,), self.name, state.over, over, hint)
        faces = read_faces(move.data, DICE - len(state.throws), ORDINARY_FACES)
        throws = (*state.throws, faces)
        if len(throws) < DICE:
            return dataclasses.replace(state, throws=throws)
        return self._turn_done(state, throws)

    def scores(self, state: State) -> tuple[SeatScore, ...]:
        """Each seat's turn score in the round itself (play-off scores only break the tie)."""
        points = {t.seat: t.score for t in state.turns if t.playoff == 0}
        return tuple(SeatScore(seat, points.get(seat, 0)) for seat in range(state.seats))

    def view(self, state: State) -> dict[str, Any]:
        """Whose throw, how many dice in the cup, the dice set aside, every turn; the pot."""
        return {"dice": self._dice_view(state), "pot": pot_view(state)}

    def pot_ledger(self, state: State) -> list[dict[str, Any]]:
        """Every chip movement so far: antes, a carried remainder, the win or the split."""
        return [entry.as_dict() for entry in state.ledger]

    def pot_ledger_start(self, state: State) -> int:
        return 0  # a game's ledger keeps every movement: a game is bounded

    def match_report(self, state: State) -> dict[str, Any]:
        """The round's chip nets and what stays in the pot, for the session (the match)."""
        view = pot_view(state)
        return {"nets": view["nets"], "pot_left": view["balance"]}

    # --- a turn and the round's end ---

    def _turn_done(self, state: State, throws: tuple[tuple[str, ...], ...]) -> State:
        aside = set_aside(throws)
        turn = Turn(state.queue[0], state.playoff, throws, aside, self.score(aside))
        after = dataclasses.replace(
            state, throws=(), turns=(*state.turns, turn), queue=state.queue[1:]
        )
        return after if after.queue else _decide(after)

    def _dice_view(self, state: State) -> dict[str, Any]:
        return {
            "turn": self.current_player(state),
            "throw": None if state.over else len(state.throws) + 1,
            "in_cup": 0 if state.over else DICE - len(state.throws),
            "throws": [list(throw) for throw in state.throws],
            "set_aside": list(state.aside),
            "playoff": state.playoff,
            "to_throw": list(state.queue),
            "turns": [self._turn_view(turn) for turn in state.turns],
            "winners": list(state.winners),
        }

    def _turn_view(self, turn: Turn) -> dict[str, Any]:
        first, second, last = turn.aside
        how = (
            f"({first} + {second}) × {last}"
            if self.kind == MULTIPLICATION
            else f"{first} + {second} + {last}"
        )
        return {
            "seat": turn.seat,
            "playoff": turn.playoff,
            "throws": [list(t) for t in turn.throws],
            "set_aside": list(turn.aside),
            "score": turn.score,
            "how": f"{how} = {turn.score}",
        }


def _read_setup(setup: Mapping[str, Any], seats: int) -> tuple[int, int]:
    """The first player (D-BOS-2) and chips carried in the pot from the last round (D-BOS-1)."""
    first = setup.get("first_player", 0)
    carried = setup.get("carried", 0)
    if not is_int(first) or not 0 <= first < seats:
        raise BadSetup(
            "setup.bad_first_player",
            f"'first_player' must be a seat from 0 to {seats - 1}, not {first!r}.",
        )
    if not is_int(carried) or carried < 0:
        raise BadSetup(
            "setup.bad_carried",
            f"'carried' must be the chips left in the pot (0 or more), not {carried!r}.",
        )
    return first, carried


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _decide(state: State) -> State:
    """After the last turn of the round or play-off: pay the pot, or play the tie off."""
    scores = {t.seat: t.score for t in state.turns if t.playoff == state.playoff}
    top = top_seats(scores, state.first_player, state.seats)
    if len(top) > 1 and state.ruleset.boston_tie == PLAYOFF:
        # D-BOS-1: only the tied players throw again, and only their new scores count.
        return dataclasses.replace(state, playoff=state.playoff + 1, queue=top)
    shares, _ = share_pot(pot_balance(state.ledger), len(top))
    kind = "win" if len(top) == 1 else "split"
    paid = tuple(PotEntry(kind, seat, -share) for seat, share in zip(top, shares, strict=True))
    return dataclasses.replace(state, ledger=state.ledger + paid, winners=tuple(sorted(top)))


def top_seats(scores: Mapping[int, int], first: int, seats: int) -> tuple[int, ...]:
    """The seats with the highest score, in playing order from the first player."""
    best = max(scores.values())
    order = [(first + i) % seats for i in range(seats)]
    return tuple(seat for seat in order if scores.get(seat) == best)


def share_pot(balance: int, winners: int) -> tuple[tuple[int, ...], int]:
    """Equal shares of the pot and the remainder that stays in it for the next round."""
    share, left = divmod(balance, winners)
    return (share,) * winners, left


def pot_balance(ledger: Sequence[PotEntry]) -> int:
    return sum(entry.chips for entry in ledger)


def pot_view(state: State) -> dict[str, Any]:
    """Chips in the pot and each seat's chips received minus paid (carried chips are no seat's)."""
    nets = [0] * state.seats
    for entry in state.ledger:
        if entry.seat is not None:
            nets[entry.seat] -= entry.chips
    return {"balance": pot_balance(state.ledger), "nets": nets}


GOING_TO_BOSTON = BostonRules(BOSTON, "Going to Boston", boston_score)
MULTIPLICATION_RULES = BostonRules(MULTIPLICATION, "Multiplication", multiplication_score)
