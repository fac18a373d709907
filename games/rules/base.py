"""The interface every rule engine implements, and the pure fold over an event stream.

A rule engine is one object per game kind (OpenSpiel's game API): immutable states, ``apply``
returning the next state or raising :class:`IllegalEvent`. Nothing here may import a framework,
touch a clock, a random source or I/O: dice and shuffles arrive as recorded events.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable

from games.rules.errors import BadRuleset, BadSetup, IllegalEvent
from games.rules.events import UNDO
from games.rules.shapes import Record


@dataclass(frozen=True, slots=True)
class Move:
    """One recorded event as the rule engine sees it: a type and its JSON data."""

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class BonusAward:
    """One itemised bonus: its kind, its points, and the pawns (or dice, cards) it covers."""

    kind: str
    points: int
    why: str = ""
    pawns: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "points": self.points,
            "why": self.why,
            "pawns": list(self.pawns),
        }


@dataclass(frozen=True, slots=True)
class SeatScore:
    """A seat's game points and bonuses; ``total`` is derived, never stored."""

    seat: int
    points: int
    bonuses: tuple[BonusAward, ...] = ()

    @property
    def total(self) -> int:
        return self.points + sum(b.points for b in self.bonuses)

    def as_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "points": self.points,
            "bonuses": [b.as_dict() for b in self.bonuses],
            "total": self.total,
        }


@dataclass(frozen=True, slots=True)
class Result:
    """A finished game: every seat's score, the winning seat(s), and the rating if any."""

    scores: tuple[SeatScore, ...]
    winners: tuple[int, ...]
    rating: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "totals": [s.total for s in self.scores],
            "winner": list(self.winners),
            "rating": self.rating,
        }


def highest_wins(scores: tuple[SeatScore, ...]) -> Result:
    """The result in which the highest total wins; equal highest totals share the win."""
    best = max(score.total for score in scores)
    return Result(scores, winners=tuple(s.seat for s in scores if s.total == best))


S = TypeVar("S")


@runtime_checkable
class Rules(Protocol[S]):
    """What every game kind provides. ``S`` is the game's immutable state type."""

    kind: str
    title: str  # the game's name as the rule books print it ("High-Low Scarney")
    ruleset_type: type[Any]
    min_seats: int
    max_seats: int
    # Declared shapes (games/rules/shapes.py), from which the store's check of a client's data,
    # the OpenAPI schema and the pages' reading come: the data of each event type ``apply`` takes
    # (``move.undone`` is every game's, declared in games/rules/events.py), what ``view`` gives,
    # and the ``setup`` ``initial_state`` takes.
    events: Mapping[str, Record]
    view_shape: Record
    setup_shape: Record

    def initial_state(self, setup: Mapping[str, Any], ruleset: Any, seats: int) -> S:
        """The state before the first recorded move (raises BadSetup)."""

    def apply(self, state: S, move: Move) -> S:
        """The next state, or IllegalEvent; never mutates ``state``."""

    def expected(self, state: S) -> list[str]:
        """Event types the table may record next (empty once the game is over)."""

    def legal_events(self, state: S) -> list[Move] | None:
        """Every legal move where the choice is finite, else None."""

    def current_player(self, state: S) -> int | None:
        """The seat to move, or None when the game is over."""

    def is_terminal(self, state: S) -> bool:
        """True once no further move is possible."""

    def scores(self, state: S) -> tuple[SeatScore, ...]:
        """Every seat's score so far, bonuses itemised."""

    def result(self, state: S) -> Result | None:
        """The final result, or None while the game goes on."""

    def view(self, state: S) -> dict[str, Any]:
        """The game-specific part of the public state (``board``, ``dice``, ``pot`` ...)."""


# --- the start every game shares: its setup checked against its declaration ---------------------


@dataclass(frozen=True, slots=True)
class SetupWords:
    """How a game words its refusal of setup keys it does not take (``setup.unknown_key``).

    ``unknown`` is formatted with ``game`` (the game's title), ``keys`` (those it takes, sorted),
    ``unknown`` (those it does not, sorted) and ``are`` ("is" or "are"); left None, it is
    :data:`TAKES` or, for a game that takes no setup, :data:`TAKES_NONE`. ``names_keys`` puts
    the unknown keys in the refusal's data (``keys``).
    """

    unknown: str | None = None
    names_keys: bool = True


TAKES = "{game}'s setup takes only {keys}; {unknown} {are} unknown."
TAKES_NONE = "{game} takes no setup; {unknown} {are} unknown."


class GameRules:
    """The start every rule engine shares: ``initial_state`` checks the setup against the game's
    declared ``setup_shape`` (an object, of its keys only), then the game's own :meth:`start`
    reads it. Types and ranges of the values stay the game's to check, each with its own code.

    A game words the refusal of an unknown key with ``setup_words`` (:class:`SetupWords`).
    """

    title: str
    setup_shape: Record
    setup_words: SetupWords = SetupWords()

    def initial_state(self, setup: Mapping[str, Any] | None, ruleset: Any, seats: int) -> Any:
        """The state before the first recorded move (raises BadSetup)."""
        try:
            given = checked_setup(self, setup)
        except BadSetup:
            # A bad seat count or house rule is refused before the setup, as every game's own
            # start refuses them: starting without the setup raises that refusal, if any.
            self.start({}, ruleset, seats)
            raise
        return self.start(given, ruleset, seats)

    def start(self, setup: Mapping[str, Any], ruleset: Any, seats: int) -> Any:
        """The game's own start, from a setup of its declared keys only."""
        raise NotImplementedError


def checked_setup(rules: GameRules, setup: Any) -> Mapping[str, Any]:
    """``setup`` (None: none) if it is an object of the keys ``rules.setup_shape`` declares."""
    if setup is None:
        return {}
    if not isinstance(setup, Mapping):
        raise BadSetup("setup.not_an_object", "The setup must be a JSON object.")
    keys = rules.setup_shape.fields
    unknown = sorted(str(key) for key in setup if key not in keys)
    if not unknown:
        return setup
    words = rules.setup_words
    sentence = (words.unknown or (TAKES if keys else TAKES_NONE)).format(
        game=rules.title,
        keys=", ".join(sorted(keys)),
        unknown=", ".join(unknown),
        are="is" if len(unknown) == 1 else "are",
    )
    if words.names_keys:
        raise BadSetup("setup.unknown_key", sentence, keys=unknown)
    raise BadSetup("setup.unknown_key", sentence)


# --- capabilities a game may have, beyond the Rules protocol -----------------------------------
# The service asks ``isinstance(rules, HasPotLedger)`` (and so on): a game declares a capability by
# implementing its method, and mypy checks the signature where the game is used through it.


@dataclass(frozen=True, slots=True)
class DealTarget:
    """One receiver of a deal: a seat (``role`` "seat"), one of a seat's hands ("hand", with
    ``hand`` 1 or 2), the dummy ("dummy"), the talon ("talon") or the talon Dealer takes
    ("dealer_talon"); ``count`` cards, None for whatever the table gives it."""

    role: str
    seat: int | None = None
    hand: int | None = None
    count: int | None = None
    optional: bool = False


@dataclass(frozen=True, slots=True)
class DealPlan:
    """A deal as a table enters it: its receivers in order, the ``cards.dealt`` data with each
    receiver's index in place of its cards, and whether it deals the whole pack or what the
    earlier deals of the hand left."""

    targets: tuple[DealTarget, ...]
    shape: Mapping[str, Any]
    whole_pack: bool = True


@runtime_checkable
class PlansDeals(Protocol):
    """A card game whose deal is not one hand a seat and a talon: it says how it deals now."""

    def deal_plan(self, phase: str | None, ruleset: Mapping[str, Any]) -> DealPlan:
        """The deal of ``phase``, under the game's house rules as its JSON shows them."""


@runtime_checkable
class ThrowsDice(Protocol):
    """A dice game: the faces its dice show (RULES.md 1.3, 1.4), the most it throws at once, and
    its throws in words for its page (the pieces are games.rules.wording's): this turn's throws
    as ``{"turn": wording.block(...)}`` and whatever else the kind shows (frames, a sheet, the
    last turn, a play-off), read off the game's JSON (``game``) with the seats' ``names``."""

    dice_faces: tuple[str, ...]
    most_dice: int

    def word_throws(self, game: dict[str, Any], names: Mapping[int, str]) -> dict[str, Any]: ...


@runtime_checkable
class HasPotLedger(Protocol):
    """A game played with a pot: its chip movements in order (RULES.md 0.7), each ``{"kind",
    "seat", "chips"}`` as ``games.rules.dice.PotEntry.as_dict`` gives it. ``pot_ledger`` gives
    those a state holds: every one, or, where a session goes on as long as the table plays, those
    from the ``pot_ledger_start``-th on (the earlier ones were given by the states before)."""

    def pot_ledger(self, state: Any) -> Sequence[Mapping[str, Any]]: ...

    def pot_ledger_start(self, state: Any) -> int: ...


@runtime_checkable
class ReportsToMatch(Protocol):
    """A game whose match needs facts beyond its scores (who moved last, the pot, the deal ...)."""

    report_shape: Record  # what match_report gives (games/rules/shapes.py)

    def match_report(self, state: Any) -> dict[str, Any]: ...


@runtime_checkable
class Analysable(Protocol):
    """A game with a solver: best play from a position, as ``{"winner", "line"}`` for two
    players, or ``{"value", "line", "from_start"}`` for one (``states``: the moves in force)."""

    def analyse(self, states: Sequence[Any]) -> dict[str, Any]: ...


def make_ruleset(ruleset_type: type[Any], overrides: Mapping[str, Any] | None) -> Any:
    """Build a frozen ruleset from defaults plus house-rule overrides, checking every key, every
    ``ALLOWED`` choice and every ``POSITIVE`` count the ruleset declares."""
    if overrides is None:
        overrides = {}
    if not isinstance(overrides, Mapping):
        raise BadRuleset("ruleset.not_an_object", "The ruleset must be a JSON object.")
    known = {f.name: f for f in dataclasses.fields(ruleset_type)}
    for name, value in overrides.items():
        if name not in known:
            raise BadRuleset(
                "ruleset.unknown_parameter",
                f"{name!r} is not a house rule of this game; known: {', '.join(sorted(known))}.",
                parameter=name,
            )
        _check_parameter(ruleset_type, name, value)
    ruleset = ruleset_type(**overrides)
    _check_counts(ruleset, known)
    return ruleset


# The widest range of a house rule's number (a target, a count): any game's sensible value lies
# far inside it; a house rule of ``ALLOWED`` values is narrower still.
LARGEST_PARAMETER = 1_000_000_000


def _check_parameter(ruleset_type: type[Any], name: str, value: Any) -> None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        if not -LARGEST_PARAMETER <= value <= LARGEST_PARAMETER:
            raise BadRuleset(
                "ruleset.bad_value",
                f"House rule {name!r} takes numbers from -{LARGEST_PARAMETER:,} to "
                f"{LARGEST_PARAMETER:,}.",
                parameter=name,
            )
    allowed = getattr(ruleset_type, "ALLOWED", {}).get(name)
    # Compare types too: 1 == True, yet 1 is not a valid value of a yes/no house rule.
    if allowed is not None and not any(type(value) is type(a) and value == a for a in allowed):
        choices = ", ".join(repr(a) for a in allowed)
        raise BadRuleset(
            "ruleset.bad_value",
            f"House rule {name!r} cannot be {value!r}; choose one of {choices}.",
            parameter=name,
        )


def _check_counts(ruleset: Any, fields: Mapping[str, dataclasses.Field[Any]]) -> None:
    """Refuse a house rule the ruleset declares ``POSITIVE`` (a target, an ante, a number of
    rounds: ``{name: what it counts, or ""}``) unless it is a whole number of at least 1; one
    whose default is None may be None (``session_rounds``: one round per player)."""
    for name, unit in getattr(ruleset, "POSITIVE", {}).items():
        value = getattr(ruleset, name)
        if value is None and fields[name].default is None:
            continue
        if type(value) is not int or value < 1:
            counted = f" of {unit}" if unit else ""
            raise BadRuleset(
                "ruleset.bad_value",
                f"House rule {name!r} must be a positive whole number{counted}, not {value!r}.",
                parameter=name,
            )


def check_seat_count(
    rules: Any, seats: int, name: str, verb: str = "is played by", *, name_seats: bool = True
) -> None:
    """Refuse a seat count outside ``rules.min_seats``..``rules.max_seats``, naming the game.

    ``verb`` keeps each game's wording ("is kept for", "is recorded for"); ``name_seats`` puts
    the count in the refusal's data, as most games do.
    """
    if rules.min_seats <= seats <= rules.max_seats:
        return
    sentence = f"{name} {verb} {rules.min_seats} to {rules.max_seats} players, not {seats}."
    if name_seats:
        raise BadSetup("game.bad_seats", sentence, seats=seats)
    raise BadSetup("game.bad_seats", sentence)


def check_move(
    move: Move,
    types: Iterable[str],
    name: str,
    over: bool,
    over_sentence: str = "The game is over: no move can be recorded.",
    hint: str = "",
) -> None:
    """Refuse an unknown event type, data that is not an object, and any move after the end.

    ``hint`` ends the unknown-type sentence where a game names its one event ("; a roll is ...").
    """
    if not isinstance(move.type, str) or move.type not in types:
        raise IllegalEvent(
            "event.unknown_type", f"{move.type!r} is not an event of {name}{hint}.", type=move.type
        )
    if not isinstance(move.data, Mapping):
        raise IllegalEvent("event.bad_data", f"The data of {move.type} must be an object.")
    if over:
        raise IllegalEvent("game.over", over_sentence)


def check_expected(move_type: str, allowed: list[str]) -> None:
    """Refuse an event the table may not record now, listing those it may."""
    if move_type not in allowed:
        raise IllegalEvent(
            "event.out_of_order",
            f"{move_type} cannot be recorded now; expected {', '.join(allowed)}.",
            expected=allowed,
        )


def ruleset_as_dict(ruleset: Any) -> dict[str, Any]:
    """The effective ruleset, as frozen into a stream's first event."""
    return dataclasses.asdict(ruleset)


class Applies(Protocol[S]):
    """What a fold needs: a game's rule engine or a match format."""

    def apply(self, state: S, move: Move) -> S: ...


def fold(rules: Applies[S], initial: S, moves: Iterable[Move]) -> S:
    """Replay ``moves`` from ``initial``; ``move.undone`` takes back the last move in force."""
    states = fold_states(rules, initial, moves)
    return states[-1]


def fold_states(rules: Applies[S], initial: S, moves: Iterable[Move]) -> list[S]:
    """The stack of states of the moves still in force (the first is ``initial``)."""
    states = [initial]
    for move in moves:
        step(rules, states, move)
    return states


def step(rules: Applies[S], states: list[S], move: Move) -> None:
    """Apply one move to a stack of states in place (the stack is the caller's, not a state)."""
    if move.type == UNDO:
        if len(states) == 1:
            raise IllegalEvent("undo.nothing_to_undo", "There is no move to take back.")
        states.pop()
        return
    states.append(rules.apply(states[-1], move))
