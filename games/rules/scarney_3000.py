"""Scarney 3000 (``scarney-3000``) and Partnership Scarney 3000 (``partnership-scarney-3000``).

RULES.md sections 9 and 10 (seed ``002_e33c43dc86c80c1e.txt``), dice of section 1.3. Five Scarney
dice; a turn is a run of throws: dead dice score 50 each (three or more are a bonus hand), three or
more of a number are a bonus hand that a dead die must confirm, a throw with neither busts the turn.
Scoring dice are set aside; when all five have scored, all five are thrown again. A shooter holding
200 confirmed points may stand; the first to stand at the target (3000) wins and collects the
difference from each loser (RULES.md 0.8). In the partnership game "We" and "They" add their
partners' turns, and each winning partner collects the side difference from his paired loser.

One game is a whole match: its format (a :class:`~games.rules.matches.ScoredMatch`) settles it and
takes finished sheets, entered turn by turn in seating order (Appendix B.4, C.4).

Events: ``dice.thrown {"faces": [...]}`` and ``shooter.stood {}``, each may name its ``"seat"``.
Setup: ``first_shooter`` (seat 0 by default) or ``seating_throws: true`` (RULES.md 0.5, 7.2: the
seats throw five dice, highest number total first, ties thrown again); the partnership game takes
``teams`` (alternate seats, "We" first) or ``partner_throws: true`` (8.1, D-PSD-1). Sheet:
``game.scored {"turns": [[per seat], ...], "cumulative"?: same shape, "scores"?: [per seat]}``,
a row per round in seating order, 0 (or null) for a bust or no turn.
Refusals: ``throw.bad_face``, ``throw.wrong_dice_count``, ``stand.below_minimum``,
``stand.unconfirmed_bonus``, ``turn.over``, ``turn.not_your_turn``, ``seating.throws_due``,
``game.over``, ``event.*``; setup ``game.bad_seats``, ``setup.*`` (``bad_teams``,
``teams_not_alternating``, ``conflict``, ``bad_value``, ``unknown_key``); sheets
``score.not_multiple_of_50``, ``score.below_minimum`` (lenient: warnings),
``sheet.cumulative_mismatch``, ``sheet.total_mismatch``, ``sheet.turn_not_due``,
``sheet.game_unfinished``.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from games.rules.base import BonusAward, Move, Result, SeatScore, make_ruleset
from games.rules.dice import DEAD, number_total, read_faces
from games.rules.errors import BadRuleset, BadSetup, IllegalEvent
from games.rules.matches import (
    GAME_SCORED,
    EntryWarning,
    GameEntry,
    ScoredMatch,
    ScoredMatchState,
    payments_settlement,
    ranked,
    register_format,
)
from games.rules.registry import register

KIND = "scarney-3000"
PARTNERSHIP_KIND = "partnership-scarney-3000"

THROWN = "dice.thrown"
STOOD = "shooter.stood"
EVENT_KEYS = {THROWN: frozenset({"faces", "seat"}), STOOD: frozenset({"seat"})}

DRAWING, MUST_THROW, MAY_STAND, OVER = "drawing", "must_throw", "may_stand", "over"
SCORED, UNCONFIRMED, BUST = "scored", "unconfirmed", "bust"

DICE = 5
DEAD_DIE_POINTS = 50
MINIMUM = 200
SIDE_NAMES = ("We", "They")

# Bonus hands (RULES.md 9.2): points by the number and how many dice show it.
DEAD_BONUS = {3: 200, 4: 400, 5: 3000}
PRINTED_TABLE: Mapping[str, Mapping[int, int]] = {
    "1": {3: 100, 4: 200, 5: 3000},
    "3": {3: 300, 4: 900, 5: 3000},
    "4": {3: 400, 4: 800, 5: 3000},
    "6": {3: 900, 4: 1200, 5: 3000},
}
# D-3000-1 variant: 100 x face for three, double for four (three 6s 600, four 3s 600).
PATTERN_TABLE: Mapping[str, Mapping[int, int]] = {
    **PRINTED_TABLE,
    "3": {3: 300, 4: 600, 5: 3000},
    "6": {3: 600, 4: 1200, 5: 3000},
}
BONUS_TABLES = {"as_printed": PRINTED_TABLE, "pattern": PATTERN_TABLE}
COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The house rules of Scarney 3000 and its partnership game (RULES.md Appendix E)."""

    ALLOWED: ClassVar[Mapping[str, tuple[object, ...]]] = {
        "s3000_bonus_table": ("as_printed", "pattern"),
        "s3000_equal_turns": (False, True),
        "sheet_entry_validation": ("strict", "lenient"),
    }

    s3000_bonus_table: str = "as_printed"
    s3000_target: int = 3000
    s3000_equal_turns: bool = False
    sheet_entry_validation: str = "strict"

    def __post_init__(self) -> None:
        target = self.s3000_target
        if not isinstance(target, int) or isinstance(target, bool) or target <= 0:
            raise BadRuleset(
                "ruleset.bad_value",
                f"House rule 's3000_target' must be a positive whole number, not {target!r}.",
                parameter="s3000_target",
            )


# --- one throw -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Throw:
    """One throw, itemised: its dead dice, its number bonus, what it confirmed, and its outcome."""

    faces: tuple[str, ...]
    dead_points: int
    bonus_face: str | None
    bonus_dice: int
    bonus_points: int
    confirmed: int
    outcome: str

    @property
    def dead(self) -> int:
        return self.faces.count(DEAD)

    @property
    def scoring_faces(self) -> tuple[str, ...]:
        """The dice set aside after the throw: dead dice and the number bonus (D-3000-4)."""
        if self.outcome == BUST:
            return ()
        return (DEAD,) * self.dead + (self.bonus_face or "",) * self.bonus_dice

    @property
    def points(self) -> int:
        """What the throw adds to the turn's confirmed points."""
        if self.outcome != SCORED:
            return 0
        return self.dead_points + self.bonus_points + self.confirmed


def evaluate(faces: Sequence[str], pending: int = 0, table: str = "as_printed") -> Throw:
    """A throw per RULES.md 9.3: A confirms (a dead die), B is unconfirmed, C busts."""
    faces = tuple(sorted(faces, key=_book_order))
    dead = faces.count(DEAD)
    bonus_face, bonus_dice = _number_bonus(faces)
    bonus_points = BONUS_TABLES[table][bonus_face][bonus_dice] if bonus_face else 0
    if dead:
        outcome = SCORED
    else:
        outcome = UNCONFIRMED if bonus_face else BUST
    return Throw(
        faces=faces,
        dead_points=dead_points(dead),
        bonus_face=bonus_face,
        bonus_dice=bonus_dice,
        bonus_points=bonus_points,
        confirmed=pending if outcome == SCORED else 0,
        outcome=outcome,
    )


def dead_points(dead: int) -> int:
    """50 a dead die for one or two; three or more are a bonus hand instead (D-3000-9)."""
    return DEAD_BONUS[dead] if dead >= 3 else DEAD_DIE_POINTS * dead


def _number_bonus(faces: tuple[str, ...]) -> tuple[str | None, int]:
    """The number shown three or more times and how often (at most one can on five dice)."""
    for face, count in Counter(faces).items():
        if face != DEAD and count >= 3:
            return face, count
    return None, 0


def show(faces: Sequence[str]) -> str:
    """A throw as the book writes it: dead dice first (``D 3 4 6 6``)."""
    return " ".join(sorted(faces, key=_book_order))


def _book_order(face: str) -> tuple[bool, str]:
    return (face != DEAD, face)


def hand_name(face: str, count: int) -> str:
    noun = "dead dice" if face == DEAD else f"{face}s"
    return f"{COUNT_WORDS[count]} {noun}"


# --- the game's state ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Turn:
    """A finished turn: the shooter, the score entered (0 for a bust) and its throws."""

    seat: int
    score: int
    throws: tuple[Throw, ...] = ()


@dataclass(frozen=True, slots=True)
class DrawThrow:
    """One seating (or partner) throw: the thrower, the faces and their number total."""

    seat: int
    faces: tuple[str, ...]
    total: int


@dataclass(frozen=True, slots=True)
class Draw:
    """Seating or partner throws in progress: groups of seats best first, one group throwing."""

    ranking: tuple[tuple[int, ...], ...]
    group: int  # index in ``ranking`` of the group throwing (again)
    pending: tuple[int, ...]  # its members still to throw, in seat order
    throws: tuple[DrawThrow, ...] = ()


@dataclass(frozen=True, slots=True)
class State:
    """A moment of the game: the turn in play (RULES.md 9.3 variables) and every finished turn.

    ``teams`` is empty when each plays for himself, else the two sides ("We" first). ``order``
    is the order of play, first shooter first. ``closing`` lists the seats still due before the
    final comparison under ``s3000_equal_turns`` (the rest of the round, then tie-break turns),
    the shooter first; None while no one has reached the target. While seating (partner) throws
    are recorded, ``draw`` holds them and ``shooter`` is the seat throwing.
    """

    seats: int
    ruleset: Ruleset = field(default_factory=Ruleset)
    teams: tuple[tuple[int, ...], ...] = ()
    order: tuple[int, ...] = ()
    draw: Draw | None = None
    draw_throws: tuple[DrawThrow, ...] = ()
    shooter: int = 0
    phase: str = MUST_THROW
    banked: int = 0
    pending: int = 0
    in_cup: int = DICE
    throws: tuple[Throw, ...] = ()
    turns: tuple[Turn, ...] = ()
    closing: tuple[int, ...] | None = None
    winners: tuple[int, ...] = ()


def totals(state: State) -> list[int]:
    """Each seat's cumulative score (the sum of his entered turns)."""
    sums = [0] * state.seats
    for turn in state.turns:
        sums[turn.seat] += turn.score
    return sums


def contestants(state: State) -> tuple[tuple[int, ...], ...]:
    """Who competes: the two sides, or each seat for himself."""
    return state.teams or tuple((seat,) for seat in range(state.seats))


def contestant_totals(state: State) -> list[int]:
    seat_totals = totals(state)
    return [sum(seat_totals[seat] for seat in group) for group in contestants(state)]


def _group_of(state: State, seat: int) -> tuple[int, ...]:
    return next(group for group in contestants(state) if seat in group)


def end_turn(state: State, score: int, throws: tuple[Throw, ...] = ()) -> State:
    """Enter the shooter's turn score (0 for a bust) and pass the dice (RULES.md 9.3, 9.4)."""
    shooter = state.shooter
    after = dataclasses.replace(
        state,
        phase=MUST_THROW,
        banked=0,
        pending=0,
        in_cup=DICE,
        throws=(),
        turns=(*state.turns, Turn(shooter, score, throws)),
    )
    group = _group_of(after, shooter)
    reached = score > 0 and sum(totals(after)[seat] for seat in group) >= state.ruleset.s3000_target
    if not state.ruleset.s3000_equal_turns:
        if reached:
            return _over(after, group)  # D-3000-3: the game ends at once
        return dataclasses.replace(after, shooter=_left_of(after, shooter))
    return _pass_for_equal_turns(after, reached)


def _left_of(state: State, seat: int) -> int:
    """The next shooter: play passes to the left, in the order of play."""
    return state.order[(state.order.index(seat) + 1) % len(state.order)]


def _pass_for_equal_turns(state: State, reached: bool) -> State:
    """D-3000-3 variant: the round is completed, then ties are broken per RULES.md 0.7."""
    if state.closing is None:
        if not reached:
            return dataclasses.replace(state, shooter=_left_of(state, state.shooter))
        # The round began with the first shooter, so it ends with the last in the order of play.
        due = state.order[state.order.index(state.shooter) + 1 :]
    else:
        due = state.closing[1:]
    if due:
        return dataclasses.replace(state, closing=due, shooter=due[0])
    return _compare(state)


def _compare(state: State) -> State:
    """The highest total wins; tied leaders (only they) shoot one more turn each, in order."""
    scores = contestant_totals(state)
    best = max(scores)
    groups = zip(contestants(state), scores, strict=True)
    leaders = [group for group, score in groups if score == best]
    if len(leaders) == 1:
        return _over(state, leaders[0])
    tied = tuple(seat for seat in state.order if any(seat in group for group in leaders))
    return dataclasses.replace(state, closing=tied, shooter=tied[0])


def _over(state: State, winners: tuple[int, ...]) -> State:
    return dataclasses.replace(state, phase=OVER, winners=tuple(sorted(winners)), closing=None)


# --- the rule engine -----------------------------------------------------------------------------


class Scarney3000Rules:
    """The rule engine of ``scarney-3000`` (the ``Rules`` protocol of games.rules.base)."""

    kind = KIND
    ruleset_type: type[Any] = Ruleset
    min_seats = 2
    max_seats = 16
    name = "Scarney 3000"

    SETUP_KEYS: ClassVar[frozenset[str]] = frozenset({"first_shooter", "seating_throws"})
    DRAW_KEY = "seating_throws"

    def initial_state(self, setup: Mapping[str, Any], ruleset: Any, seats: int) -> State:
        """Seat 0 (or ``first_shooter``) shoots first, unless the draw is to be recorded."""
        rules = ruleset if isinstance(ruleset, Ruleset) else make_ruleset(Ruleset, ruleset)
        self._check_seats(seats)
        setup = _setup_of(setup)
        _refuse_unknown_setup(setup, self.SETUP_KEYS, self.name)
        state = State(seats=seats, ruleset=rules, teams=self._teams(setup, seats))
        if _flag(setup, self.DRAW_KEY):
            if "first_shooter" in setup:
                raise BadSetup(
                    "setup.conflict", f"Give either first_shooter or {self.DRAW_KEY}, not both."
                )
            everyone = tuple(range(seats))
            draw = Draw((everyone,), 0, everyone)
            return dataclasses.replace(state, phase=DRAWING, draw=draw, order=everyone)
        first = _first_shooter(setup, seats)
        return start_play(state, tuple((first + i) % seats for i in range(seats)))

    def _check_seats(self, seats: int) -> None:
        if not self.min_seats <= seats <= self.max_seats:
            raise BadSetup(
                "game.bad_seats",
                f"{self.name} is played by {self.min_seats} to {self.max_seats} players, "
                f"not {seats}.",
                seats=seats,
            )

    def _teams(self, setup: Mapping[str, Any], seats: int) -> tuple[tuple[int, ...], ...]:
        return ()

    def apply(self, state: State, move: Move) -> State:
        """The state after a throw or a stand, or IllegalEvent with a RULES.md 9.3 code."""
        _check_move(state, move, self.name)
        if state.draw is not None:
            return self._draw_throw(state, state.draw, move)
        if move.type == THROWN:
            return _throw(state, move)
        return _stand(state)

    def expected(self, state: State) -> list[str]:
        phases = {DRAWING: [THROWN], MUST_THROW: [THROWN], MAY_STAND: [THROWN, STOOD]}
        return phases.get(state.phase, [])

    def legal_events(self, state: State) -> list[Move] | None:
        """None: the dice decide what is thrown; the table records it."""
        return None

    def current_player(self, state: State) -> int | None:
        return None if state.phase == OVER else state.shooter

    def is_terminal(self, state: State) -> bool:
        return state.phase == OVER

    def scores(self, state: State) -> tuple[SeatScore, ...]:
        """Each seat's entered turns summed; bonus hands itemised as awards."""
        return tuple(_seat_score(state, seat) for seat in range(state.seats))

    def result(self, state: State) -> Result | None:
        if state.phase != OVER:
            return None
        return Result(self.scores(state), winners=state.winners)

    def view(self, state: State) -> dict[str, Any]:
        view: dict[str, Any] = {
            "dice": dice_view(state),
            "target": state.ruleset.s3000_target,
            "totals": totals(state),
            "sheet": sheet_view(state),
        }
        if state.teams:
            view["sides"] = sides_view(state)
        return view

    def match_report(self, state: State) -> dict[str, Any]:
        """Every turn in order (busts as 0), the order of play and the sides, for the match."""
        return report_of(state)

    # --- seating throws (RULES.md 7.2 by 9.1; partner throws 8.1 by 10) ---

    def _draw_throw(self, state: State, draw: Draw, move: Move) -> State:
        if move.type != THROWN:
            raise IllegalEvent(
                "seating.throws_due",
                f"The {self.DRAW_KEY.replace('_', ' ')} come first: seat {state.shooter} "
                "throws the five dice next.",
                seat=state.shooter,
            )
        faces = read_faces(move.data, DICE)
        throw = DrawThrow(state.shooter, faces, number_total(faces))
        draw = dataclasses.replace(draw, pending=draw.pending[1:], throws=(*draw.throws, throw))
        if draw.pending:
            return dataclasses.replace(state, draw=draw, shooter=draw.pending[0])
        ranking = _split_group(draw)
        for index, group in enumerate(ranking):
            if self._needs_rethrow(ranking, index, state.seats):
                again = Draw(ranking, index, group, draw.throws)
                return dataclasses.replace(state, draw=again, shooter=group[0])
        seated = dataclasses.replace(state, draw=None, draw_throws=draw.throws)
        return self._seated(seated, ranking)

    def _needs_rethrow(self, ranking: tuple[tuple[int, ...], ...], index: int, seats: int) -> bool:
        """Every tie is thrown again among the tied players (D-SSD-9)."""
        return len(ranking[index]) > 1

    def _seated(self, state: State, ranking: tuple[tuple[int, ...], ...]) -> State:
        """The highest total shoots first, the next highest on his left, and so on (7.2)."""
        return start_play(state, tuple(seat for group in ranking for seat in group))


class PartnershipScarney3000Rules(Scarney3000Rules):
    """The rule engine of ``partnership-scarney-3000``: two sides of alternate seats (§10)."""

    kind = PARTNERSHIP_KIND
    min_seats = 4
    max_seats = 6
    name = "Partnership Scarney 3000"

    SETUP_KEYS = frozenset({"teams", "first_shooter", "partner_throws"})
    DRAW_KEY = "partner_throws"

    def _check_seats(self, seats: int) -> None:
        if seats not in (4, 6):
            raise BadSetup(
                "game.bad_seats",
                f"{self.name} is played two against two or three against three, not by {seats}.",
                seats=seats,
            )

    def _teams(self, setup: Mapping[str, Any], seats: int) -> tuple[tuple[int, ...], ...]:
        """The setup's sides, alternate seats by default; none yet if partner throws form them."""
        if setup.get("partner_throws") is True:
            if setup.get("teams"):
                raise BadSetup(
                    "setup.conflict", "Give either the teams or partner_throws, not both."
                )
            return ()
        return read_teams(setup.get("teams"), seats, "setup")

    def _needs_rethrow(self, ranking: tuple[tuple[int, ...], ...], index: int, seats: int) -> bool:
        """Only a tie for the highest total or across the sides' split is thrown again (D-PSD-1)."""
        group = ranking[index]
        start = sum(len(g) for g in ranking[:index])
        split = seats // 2
        return len(group) > 1 and (start == 0 or start < split < start + len(group))

    def _seated(self, state: State, ranking: tuple[tuple[int, ...], ...]) -> State:
        """The highest totals are one side ("We"); partners alternate, the highest first (§10)."""
        ranked = [seat for group in ranking for seat in group]
        split = state.seats // 2
        high, low = ranked[:split], ranked[split:]
        order = tuple(seat for pair in zip(high, low, strict=True) for seat in pair)
        teams = (tuple(sorted(high)), tuple(sorted(low)))
        return start_play(dataclasses.replace(state, teams=teams), order)


def _setup_of(setup: Any) -> Mapping[str, Any]:
    if setup is None:
        return {}
    if not isinstance(setup, Mapping):
        raise BadSetup("setup.not_an_object", "The setup must be a JSON object.")
    return setup


def _refuse_unknown_setup(setup: Mapping[str, Any], known: frozenset[str], name: str) -> None:
    unknown = sorted(str(key) for key in setup if key not in known)
    if unknown:
        takes = f"only {', '.join(sorted(known))}" if known else "nothing"
        raise BadSetup(
            "setup.unknown_key",
            f"{name}'s setup takes {takes}; {', '.join(unknown)} is unknown.",
            keys=unknown,
        )


def start_play(state: State, order: tuple[int, ...]) -> State:
    """The first shooter in the order of play takes the five dice."""
    return dataclasses.replace(state, order=order, shooter=order[0], phase=MUST_THROW)


def _split_group(draw: Draw) -> tuple[tuple[int, ...], ...]:
    """The ranking with the group just thrown split by its new number totals, highest first."""
    group = draw.ranking[draw.group]
    latest = {throw.seat: throw.total for throw in draw.throws[-len(group) :]}
    split = tuple(
        tuple(seat for seat in group if latest[seat] == total)
        for total in sorted(set(latest.values()), reverse=True)
    )
    return (*draw.ranking[: draw.group], *split, *draw.ranking[draw.group + 1 :])


def _flag(setup: Mapping[str, Any], key: str) -> bool:
    value = setup.get(key, False)
    if not isinstance(value, bool):
        raise BadSetup("setup.bad_value", f"{key!r} must be true or false.", key=key)
    return value


def _first_shooter(setup: Mapping[str, Any], seats: int) -> int:
    first = setup.get("first_shooter", 0)
    if not _is_int(first) or not 0 <= first < seats:
        raise BadSetup(
            "setup.bad_value",
            f"'first_shooter' must be a seat from 0 to {seats - 1}, not {first!r}.",
            key="first_shooter",
        )
    return int(first)


def alternate_sides(seats: int) -> tuple[tuple[int, ...], ...]:
    """Partners sit alternately: the even seats ("We") against the odd."""
    return (tuple(range(0, seats, 2)), tuple(range(1, seats, 2)))


def read_teams(teams: Any, seats: int, scope: str) -> tuple[tuple[int, ...], ...]:
    """The two sides, in the order given ("We" first); partners sit alternately (§10).

    None or empty gives the seating's own sides, the even seats against the odd.
    """
    if not teams:
        return alternate_sides(seats)
    sides = read_sides(teams, seats, scope)
    if set(sides) != set(alternate_sides(seats)):
        evens, odds = alternate_sides(seats)
        raise BadSetup(
            f"{scope}.teams_not_alternating",
            f"Partners sit alternately: with {seats} players the sides are seats "
            f"{list(evens)} and {list(odds)}, not {[list(s) for s in sides]}.",
            teams=[list(s) for s in sides],
        )
    return sides


def read_sides(teams: Any, seats: int, scope: str) -> tuple[tuple[int, ...], ...]:
    """Two sides of equal size holding every seat once (partner throws may seat them anyhow)."""
    if (
        not isinstance(teams, list | tuple)
        or len(teams) != 2
        or not all(isinstance(team, list | tuple) for team in teams)
        or not all(_is_int(seat) for team in teams for seat in team)
    ):
        raise BadSetup(
            f"{scope}.bad_teams",
            "'teams' must list two sides of seat numbers, e.g. [[0, 2], [1, 3]].",
        )
    sides = tuple(tuple(sorted(team)) for team in teams)
    if len(sides[0]) != len(sides[1]) or sorted(sides[0] + sides[1]) != list(range(seats)):
        raise BadSetup(
            f"{scope}.bad_teams",
            f"The two sides must share the seats 0 to {seats - 1}, each once, "
            f"not {[list(side) for side in sides]}.",
        )
    return sides


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --- moves ---------------------------------------------------------------------------------------


def _check_move(state: State, move: Move, name: str) -> None:
    if not isinstance(move.type, str) or move.type not in EVENT_KEYS:
        raise IllegalEvent(
            "event.unknown_type", f"{move.type!r} is not an event of {name}.", type=move.type
        )
    if not isinstance(move.data, Mapping):
        raise IllegalEvent("event.bad_data", f"The data of {move.type} must be an object.")
    if state.phase == OVER:
        raise IllegalEvent("game.over", "The game is over: no throw or stand can be recorded.")
    unknown = sorted(str(key) for key in move.data if key not in EVENT_KEYS[move.type])
    if unknown:
        raise IllegalEvent(
            "event.bad_data",
            f"{move.type} takes {', '.join(sorted(EVENT_KEYS[move.type])) or 'nothing'}; "
            f"{', '.join(unknown)} is unknown (Scarney 3000 has no Opposite or double down).",
            fields=unknown,
        )
    if "seat" in move.data:
        _check_shooter(state, move.data["seat"])


def _check_shooter(state: State, seat: Any) -> None:
    """An event naming its shooter is checked: a finished (or future) turn takes no dice."""
    if not _is_int(seat) or not 0 <= seat < state.seats:
        raise IllegalEvent(
            "event.bad_data", f"'seat' must be a seat number from 0 to {state.seats - 1}."
        )
    if seat == state.shooter:
        return
    last = state.turns[-1] if state.turns else None
    if last is not None and last.seat == seat:
        how = f"stood on {last.score}" if last.score else "bust"
        raise IllegalEvent(
            "turn.over",
            f"Seat {seat}'s turn is over ({how}); seat {state.shooter} is the shooter.",
            seat=seat,
            shooter=state.shooter,
        )
    doing = "throws for the draw" if state.draw else "is the shooter"
    raise IllegalEvent(
        "turn.not_your_turn",
        f"Seat {seat} is not on turn: seat {state.shooter} {doing}.",
        seat=seat,
        shooter=state.shooter,
    )


def _throw(state: State, move: Move) -> State:
    faces = read_faces(move.data, state.in_cup)
    throw = evaluate(faces, state.pending, state.ruleset.s3000_bonus_table)
    throws = (*state.throws, throw)
    if throw.outcome == BUST:
        return end_turn(state, 0, throws)  # C: banked and pending are lost
    in_cup = state.in_cup - len(throw.scoring_faces) or DICE
    if throw.outcome == UNCONFIRMED:
        pending = state.pending + throw.bonus_points
        return dataclasses.replace(
            state, phase=MUST_THROW, pending=pending, in_cup=in_cup, throws=throws
        )
    banked = state.banked + throw.points
    phase = MAY_STAND if banked >= MINIMUM else MUST_THROW
    return dataclasses.replace(
        state, phase=phase, banked=banked, pending=0, in_cup=in_cup, throws=throws
    )


def _stand(state: State) -> State:
    if state.phase == MAY_STAND:
        return end_turn(state, state.banked, state.throws)
    last = state.throws[-1] if state.throws else None
    if last is not None and last.outcome == UNCONFIRMED:
        raise IllegalEvent(
            "stand.unconfirmed_bonus",
            f"Seat {state.shooter} cannot stand on an unconfirmed bonus: "
            f"{hand_name(last.bonus_face or '', last.bonus_dice)} on {show(last.faces)} "
            f"({state.pending} points pending) need a dead die on the next throw of "
            f"{_dice(state.in_cup)}.",
            pending=state.pending,
            banked=state.banked,
        )
    raise IllegalEvent(
        "stand.below_minimum",
        f"Seat {state.shooter} holds {state.banked} confirmed points"
        f"{_thrown(state.throws)}; a turn needs {MINIMUM} to stand, so the "
        f"{_dice(state.in_cup)} must be thrown.",
        banked=state.banked,
        minimum=MINIMUM,
    )


def _dice(count: int) -> str:
    return f"{count} {'die' if count == 1 else 'dice'}"


def _thrown(throws: tuple[Throw, ...]) -> str:
    if not throws:
        return " (nothing thrown yet)"
    return " (thrown: " + "; ".join(show(t.faces) for t in throws) + ")"


# --- scores and views ----------------------------------------------------------------------------


def _seat_score(state: State, seat: int) -> SeatScore:
    """Points are the turn scores less their bonus hands, which are itemised."""
    entered = [turn for turn in state.turns if turn.seat == seat]
    bonuses = tuple(
        award
        for number, turn in enumerate(entered, start=1)
        if turn.score
        for award in turn_bonuses(turn, number)
    )
    total = sum(turn.score for turn in entered)
    return SeatScore(seat, total - sum(award.points for award in bonuses), bonuses)


def turn_bonuses(turn: Turn, number: int) -> tuple[BonusAward, ...]:
    """The bonus hands of an entered turn; all were confirmed, as no one stands on pending.

    The kind names the hand (``three_6s``, ``four_dead_dice``): one kind has one value in a
    game, so a seat's awards of one kind are identical rows on the read side.
    """
    awards = []
    for throw in turn.throws:
        hands = [(DEAD, throw.dead, throw.dead_points, "")] if throw.dead >= 3 else []
        if throw.bonus_face:
            hands.append((throw.bonus_face, throw.bonus_dice, throw.bonus_points, " confirmed"))
        for face, count, points, confirmed in hands:
            name = hand_name(face, count)
            why = f"{name}{confirmed}, turn {number}"
            awards.append(BonusAward(name.replace(" ", "_"), points, why, (face,) * count))
    return tuple(awards)


def dice_view(state: State) -> dict[str, Any]:
    """Whose throw, the dice in the cup and set aside, the turn's points, every throw itemised."""
    over = state.phase == OVER
    return {
        "phase": state.phase,
        "shooter": None if over else state.shooter,
        "in_cup": 0 if over else state.in_cup,
        "set_aside": list(set_aside(state.throws)),
        "may_stand": state.phase == MAY_STAND,
        "must_throw": state.phase == MUST_THROW,
        "turn_points": state.banked,
        "pending": state.pending,
        "minimum": MINIMUM,
        "throws": throws_view(state.throws),
        "closing": None if state.closing is None else list(state.closing),
        "order": list(state.order),
        "draw": draw_view(state),
        "last_turn": last_turn_view(state),
    }


def last_turn_view(state: State) -> dict[str, Any] | None:
    """The turn just ended, so the table sees how a bust (or a stand) came about."""
    if not state.turns:
        return None
    turn = state.turns[-1]
    return {"seat": turn.seat, "score": turn.score, "throws": throws_view(turn.throws)}


def draw_view(state: State) -> dict[str, Any] | None:
    """The seating (partner) throws: every throw, and while they go on, who throws and why."""
    draw = state.draw
    throws = draw.throws if draw is not None else state.draw_throws
    if draw is None and not throws:
        return None
    return {
        "throws": [{"seat": t.seat, "faces": list(t.faces), "total": t.total} for t in throws],
        "ranking": None if draw is None else [list(group) for group in draw.ranking],
        "throwing": None if draw is None else list(draw.pending),
    }


def report_of(state: State) -> dict[str, Any]:
    """What the match keeps of a game: every turn (busts 0), the order of play, the sides."""
    return {
        "turns": [[turn.seat, turn.score] for turn in state.turns],
        "order": list(state.order),
        "sides": [list(team) for team in state.teams],
    }


def set_aside(throws: Sequence[Throw]) -> tuple[str, ...]:
    """The scoring dice put aside since the cup was last full (all five scored: all go back)."""
    aside: tuple[str, ...] = ()
    for throw in throws:
        aside = (*aside, *throw.scoring_faces)
        if len(aside) == DICE:
            aside = ()
    return aside


def throws_view(throws: Sequence[Throw]) -> list[dict[str, Any]]:
    """Each throw's parts: dead dice, bust numbers, the number bonus, what it confirmed."""
    rows = []
    banked = pending = 0
    for throw in throws:
        banked = banked + throw.points if throw.outcome == SCORED else banked
        pending = pending + throw.bonus_points if throw.outcome == UNCONFIRMED else 0
        if throw.outcome == BUST:
            banked = 0
        rows.append(throw_view(throw, banked, pending))
    return rows


def throw_view(throw: Throw, banked: int, pending: int) -> dict[str, Any]:
    bonus_status = {SCORED: "confirmed", UNCONFIRMED: "pending", BUST: "lost"}[throw.outcome]
    numbers = [f for f in throw.faces if f != DEAD and f != throw.bonus_face]
    return {
        "faces": list(throw.faces),
        "outcome": throw.outcome,
        "dead_dice": {
            "count": throw.dead,
            "points": throw.dead_points,
            "bonus": throw.dead >= 3,
        },
        "numbers": {"faces": numbers, "points": 0},
        "number_bonus": None
        if throw.bonus_face is None
        else {
            "hand": hand_name(throw.bonus_face, throw.bonus_dice),
            "faces": [throw.bonus_face] * throw.bonus_dice,
            "points": throw.bonus_points,
            "status": bonus_status,
        },
        "confirmation": throw.confirmed,
        "points": throw.points,
        "turn_points": banked,
        "pending": pending,
    }


def sheet_view(state: State) -> list[dict[str, Any]]:
    """Each seat's column as on the book's sheet: scoring turns, "score - cumulative"."""
    columns = []
    for seat in range(state.seats):
        running = 0
        entries = []
        for turn in state.turns:
            if turn.seat == seat and turn.score:
                running += turn.score
                entries.append({"score": turn.score, "cumulative": running})
        columns.append({"seat": seat, "entries": entries, "total": running})
    return columns


def sides_view(state: State) -> list[dict[str, Any]]:
    """The "We" and "They" columns: each side's seats and total."""
    return [
        {"name": name, "seats": list(group), "total": total}
        for name, group, total in zip(
            SIDE_NAMES, state.teams, contestant_totals(state), strict=True
        )
    ]


# --- settlement (RULES.md 0.8, 9.4, 10) ----------------------------------------------------------


def settlement_payments(
    scores: Sequence[int],
    winners: Sequence[int],
    teams: Sequence[Sequence[int]] = (),
    order: Sequence[int] | None = None,
) -> list[tuple[int, int, int]]:
    """``(payer, payee, points)``: the difference to the winner, or the side difference paired."""
    if not winners:
        return []
    if not teams:
        winner = winners[0]
        return [
            (seat, winner, scores[winner] - score)
            for seat, score in enumerate(scores)
            if seat != winner
        ]
    position = list(order if order is not None else range(len(scores))).index
    won = sorted(next(team for team in teams if winners[0] in team), key=position)
    lost = sorted(next(team for team in teams if winners[0] not in team), key=position)
    delta = sum(scores[s] for s in won) - sum(scores[s] for s in lost)
    # D-P3000-1: the i-th loser pays the i-th winner, in the order of play from the first shooter.
    return [(loser, winner, delta) for winner, loser in zip(won, lost, strict=True)]


# --- the match formats ---------------------------------------------------------------------------


class Scarney3000Match(ScoredMatch):
    """A Scarney 3000 match is one game; the winner collects the difference from each loser."""

    kind = KIND
    ruleset_type: type[Any] = Ruleset
    min_seats = 2
    max_seats = 16
    game_rules: Scarney3000Rules = Scarney3000Rules()

    def is_complete(self, state: ScoredMatchState) -> bool:
        return bool(state.entries)

    def standing(self, state: ScoredMatchState) -> list[dict[str, Any]]:
        scores = _entry_scores(state)
        won = state.entries[0].winners if state.entries else ()
        return ranked(
            [
                {
                    "seat": seat,
                    "match_score": score,
                    "bonuses": [],
                    "total": score,
                    "games_won": int(seat in won),
                }
                for seat, score in enumerate(scores)
            ]
        )

    def settlement(self, state: ScoredMatchState) -> dict[str, Any]:
        entry = state.entries[0]
        order = _report_seats(entry.report.get("order"), state.seats)
        sides = self.sides(state)
        payments = settlement_payments(entry.scores, entry.winners, sides, order)
        return payments_settlement(payments, state.seats)

    def sides(self, state: ScoredMatchState) -> tuple[tuple[int, ...], ...]:
        """Each plays for himself: no sides."""
        return ()

    def next_game_setup(self, state: ScoredMatchState) -> dict[str, Any]:
        return {}

    def sheet_winners(self, state: ScoredMatchState, scores: tuple[int, ...]) -> tuple[int, ...]:
        """The seats of the highest seat (or side) total."""
        groups = self.sides(state) or tuple((seat,) for seat in range(state.seats))
        best = max(groups, key=lambda group: sum(scores[seat] for seat in group))
        return tuple(best)

    def extra_handlers(self) -> Mapping[str, Any]:
        return {GAME_SCORED: self._sheet_game}

    def _sheet_game(self, state: ScoredMatchState, move: Move) -> ScoredMatchState:
        """A finished sheet, turn by turn, replayed through the game's own turn rules."""
        turns, cumulative, printed = _read_sheet(move.data, state.seats)
        game = self.game_rules.initial_state(
            {"teams": [list(t) for t in state.teams]} if state.teams else {},
            state.ruleset,
            state.seats,
        )
        number = len(state.entries) + 1
        game, warnings = _replay_sheet(game, turns, cumulative, number)
        seat_totals = totals(game)
        if printed is not None and list(printed) != seat_totals:
            raise IllegalEvent(
                "sheet.total_mismatch",
                f"The final scores are {seat_totals} as the turns add up, not {list(printed)}.",
                totals=seat_totals,
                game=number,
            )
        entry = GameEntry(number, None, tuple(seat_totals), game.winners, report_of(game))
        return dataclasses.replace(
            state, entries=(*state.entries, entry), warnings=(*state.warnings, *warnings)
        )


class PartnershipScarney3000Match(Scarney3000Match):
    """One Partnership Scarney 3000 game: each winning partner collects the side difference."""

    kind = PARTNERSHIP_KIND
    min_seats = 4
    max_seats = 6
    game_rules = PartnershipScarney3000Rules()

    def check_teams(self, teams: Any, seats: int) -> tuple[tuple[int, ...], ...]:
        if seats not in (4, 6):
            raise BadSetup(
                "match.bad_seats",
                f"Partnership Scarney 3000 is two against two or three against three, not {seats}.",
                seats=seats,
            )
        return read_teams(teams, seats, "match") if teams else ()

    def sides(self, state: ScoredMatchState) -> tuple[tuple[int, ...], ...]:
        """The game's sides (partner throws may have formed them), else the match's teams."""
        if state.entries:
            reported = state.entries[0].report.get("sides")
            if isinstance(reported, list) and reported:
                try:
                    return read_sides(reported, state.seats, "match")
                except BadSetup:
                    pass  # not a report of this service: fall back on the match's teams
        return state.teams or alternate_sides(state.seats)

    def standing(self, state: ScoredMatchState) -> list[dict[str, Any]]:
        """Each partner's own total, his side and its total; the side total ranks."""
        scores = _entry_scores(state)
        teams = self.sides(state)
        sides = [sum(scores[seat] for seat in team) for team in teams]
        rows = []
        for index, team in enumerate(teams):
            for seat in team:
                rows.append(
                    {
                        "seat": seat,
                        "side": SIDE_NAMES[index],
                        "side_total": sides[index],
                        "match_score": scores[seat],
                        "bonuses": [],
                        "total": scores[seat],
                        "games_won": int(bool(state.entries) and seat in state.entries[0].winners),
                        "rank": 1 + sum(1 for other in sides if other > sides[index]),
                    }
                )
        return sorted(rows, key=lambda row: (row["rank"], row["seat"]))

    def next_game_setup(self, state: ScoredMatchState) -> dict[str, Any]:
        """The match's teams, if it has them, are its game's sides; else the game may draw."""
        return {"teams": [list(team) for team in state.teams]} if state.teams else {}


def _entry_scores(state: ScoredMatchState) -> tuple[int, ...]:
    return state.entries[0].scores if state.entries else (0,) * state.seats


def _report_seats(order: Any, seats: int) -> list[int] | None:
    """A game report's order of play, if it is one (every seat once)."""
    if (
        isinstance(order, list)
        and all(_is_int(seat) for seat in order)
        and sorted(order) == list(range(seats))
    ):
        return [int(seat) for seat in order]
    return None


# --- sheet entry (RULES.md 0.6, Appendix B.4, C.4) -----------------------------------------------

Grid = tuple[tuple[int | None, ...], ...]


def _read_sheet(
    data: Mapping[str, Any], seats: int
) -> tuple[Grid, Grid | None, tuple[int, ...] | None]:
    """``turns`` (rounds of one figure per seat), optional ``cumulative`` and ``scores``."""
    unknown = sorted(str(key) for key in data if key not in ("turns", "cumulative", "scores"))
    if unknown:
        raise IllegalEvent(
            "event.bad_data",
            f"A Scarney 3000 sheet takes turns, cumulative and scores; {', '.join(unknown)} "
            "is unknown.",
            fields=unknown,
        )
    turns = _read_grid(data.get("turns"), seats, "turns")
    if not turns:
        raise IllegalEvent("event.bad_data", "'turns' must list at least one round.")
    cumulative = None
    if data.get("cumulative") is not None:
        cumulative = _read_grid(data["cumulative"], seats, "cumulative")
        if len(cumulative) != len(turns):
            raise IllegalEvent(
                "event.bad_data",
                f"'cumulative' must have one row per round of 'turns' ({len(turns)}).",
                field="cumulative",
            )
    printed = data.get("scores")
    if printed is not None and (
        not isinstance(printed, list | tuple)
        or len(printed) != seats
        or not all(_is_int(s) for s in printed)
    ):
        raise IllegalEvent(
            "event.bad_data",
            f"'scores' must list {seats} whole numbers, each seat's final score.",
            field="scores",
        )
    return turns, cumulative, None if printed is None else tuple(printed)


def _read_grid(rows: Any, seats: int, name: str) -> Grid:
    if not isinstance(rows, list | tuple) or not all(
        isinstance(row, list | tuple)
        and len(row) == seats
        and all(cell is None or _is_int(cell) for cell in row)
        for row in rows
    ):
        raise IllegalEvent(
            "event.bad_data",
            f"'{name}' must list rounds, each of {seats} whole numbers (or null) in seat order.",
            field=name,
        )
    return tuple(tuple(row) for row in rows)


def turn_issues(score: int, seat: int, round_number: int) -> list[IllegalEvent]:
    """Why a written turn score is impossible (Appendix C.4); a bust is 0."""
    where = f"seat {seat}'s turn in round {round_number}"
    issues = []
    if score and score % DEAD_DIE_POINTS:
        issues.append(
            IllegalEvent(
                "score.not_multiple_of_50",
                f"{score} ({where}) is not a Scarney 3000 turn score: every turn scores "
                f"a multiple of {DEAD_DIE_POINTS}.",
                score=score,
                seat=seat,
            )
        )
    if score and score < MINIMUM:
        issues.append(
            IllegalEvent(
                "score.below_minimum",
                f"{score} ({where}) is below the {MINIMUM} a shooter needs to stand; "
                "a bust is written 0.",
                score=score,
                seat=seat,
            )
        )
    return issues


def _replay_sheet(
    game: State, turns: Grid, cumulative: Grid | None, number: int
) -> tuple[State, list[EntryWarning]]:
    """Enter each written turn in seating order; strict refuses, lenient warns (RULES.md 0.6)."""
    warnings = []
    for round_number, row in enumerate(turns, start=1):
        for seat, written in enumerate(row):
            score = written or 0
            if game.phase == OVER or game.shooter != seat:
                if score:
                    raise _turn_not_due(game, seat, score, round_number)
            else:
                for issue in turn_issues(score, seat, round_number):
                    if game.ruleset.sheet_entry_validation == "strict":
                        raise issue
                    warnings.append(EntryWarning(number, issue.code, issue.message))
                game = end_turn(game, score)
            _check_cumulative(game, cumulative, round_number, seat)
    if game.phase != OVER:
        raise IllegalEvent(
            "sheet.game_unfinished",
            f"No one reaches {game.ruleset.s3000_target} on this sheet (totals {totals(game)}): "
            "the game is not finished.",
            totals=totals(game),
        )
    return game, warnings


def _turn_not_due(game: State, seat: int, score: int, round_number: int) -> IllegalEvent:
    if game.phase == OVER:
        why = f"the game was over, won by seat(s) {list(game.winners)}"
    else:
        why = f"seat {game.shooter} was due to shoot"
    return IllegalEvent(
        "sheet.turn_not_due",
        f"Seat {seat} has {score} in round {round_number}, but {why}.",
        seat=seat,
        round=round_number,
    )


def _check_cumulative(game: State, cumulative: Grid | None, round_number: int, seat: int) -> None:
    if cumulative is None:
        return
    sent = cumulative[round_number - 1][seat]
    derived = totals(game)[seat]
    if sent is not None and sent != derived:
        raise IllegalEvent(
            "sheet.cumulative_mismatch",
            f"Seat {seat}'s cumulative score after round {round_number} is {derived}, not {sent}.",
            seat=seat,
            round=round_number,
            cumulative=derived,
        )


register(Scarney3000Rules())
register(PartnershipScarney3000Rules())
register_format(Scarney3000Match())
register_format(PartnershipScarney3000Match())
