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
from collections.abc import Mapping
from typing import Any

from games.rules.base import (
    GameRules,
    Move,
    Result,
    SeatScore,
    SetupWords,
    check_seat_count,
    make_ruleset,
)
from games.rules.dice import (
    PARTNER_THROWS,
    SCARNEY_DIE,
    SCARNEY_FACES,
    SEATING_THROWS,
    TEAMS,
    first_shooter,
    number_total,
    read_faces,
    recorded,
    seat_of,
    setup_first_shooter,
    setup_flag,
)
from games.rules.errors import BadSetup, IllegalEvent
from games.rules.events import STOOD, THROWN
from games.rules.scarney_3000 import words
from games.rules.scarney_3000.play import (
    DRAWING,
    MAY_STAND,
    MUST_THROW,
    OVER,
    Draw,
    DrawThrow,
    State,
    apply_stand,
    apply_throw,
    check_move,
    is_int,
    split_group,
    start_play,
    totals,
)
from games.rules.scarney_3000.throws import DICE, Ruleset
from games.rules.scarney_3000.view import (
    dice_view,
    report_declared,
    report_of,
    scores_of,
    sheet_view,
    sides_view,
    view_declared,
)
from games.rules.shapes import Record, record
from games.rules.wording import player_at

KIND = "scarney-3000"
PARTNERSHIP_KIND = "partnership-scarney-3000"
MAX_SEATS, MAX_PARTNERS = 16, 6

# --- what the games take and show (games/rules/shapes.py) ------------------------------------


def events_declared(most_seats: int) -> dict[str, Record]:
    """A throw and a stand (RULES.md 9.3), each may name its shooter; nothing else."""
    named_seat = seat_of(
        most_seats, doc="the shooter's seat, if the table names it: refused unless he is on turn"
    )
    return {
        THROWN: record(
            "A throw of the dice in the cup (the five of a seating or partner throw).",
            optional=("seat",),
            faces=recorded(
                SCARNEY_DIE,
                "one per die in the cup: five, then the dice not set aside",
                'the faces thrown, e.g. ["D", "3", "6", "6", "6"]',
            ),
            seat=named_seat,
        ),
        STOOD: record(
            "The shooter stands: his confirmed points (200 or more) are entered.",
            optional=("seat",),
            seat=named_seat,
        ),
    }


# --- the rule engine -----------------------------------------------------------------------------


class Scarney3000Rules(GameRules):
    """The rule engine of ``scarney-3000`` (the ``Rules`` protocol of games.rules.base)."""

    kind = KIND
    title = "Scarney 3000"
    dice_faces = SCARNEY_FACES
    most_dice = DICE
    ruleset_type: type[Any] = Ruleset
    min_seats = 2
    max_seats = MAX_SEATS
    name = "Scarney 3000"

    DRAW_KEY = "seating_throws"
    events = events_declared(MAX_SEATS)
    view_shape = view_declared(MAX_SEATS, sides=False)
    setup_shape = record(
        "Who shoots first: seat 0, first_shooter, or the seating throws of the rules of play.",
        optional=("first_shooter", "seating_throws"),
        first_shooter=first_shooter(MAX_SEATS),
        seating_throws=SEATING_THROWS,
    )
    report_shape = report_declared(MAX_SEATS, sides=False)
    setup_words = SetupWords("{game}'s setup takes only {keys}; {unknown} is unknown.")

    def word_throws(self, game: dict[str, Any], names: Mapping[int, str]) -> dict[str, Any]:
        """This turn's throws, and what its page shows besides, in words (ThrowsDice)."""
        return words.scarney_3000(game, names)

    def start(self, setup: Mapping[str, Any], ruleset: Any, seats: int) -> State:
        """Seat 0 (or ``first_shooter``) shoots first, unless the draw is to be recorded."""
        rules = ruleset if isinstance(ruleset, Ruleset) else make_ruleset(Ruleset, ruleset)
        self._check_seats(seats)
        state = State(seats=seats, ruleset=rules, teams=self._teams(setup, seats))
        if setup_flag(setup, self.DRAW_KEY):
            if "first_shooter" in setup:
                raise BadSetup(
                    "setup.conflict", f"Give either first_shooter or {self.DRAW_KEY}, not both."
                )
            everyone = tuple(range(seats))
            draw = Draw((everyone,), 0, everyone)
            return dataclasses.replace(state, phase=DRAWING, draw=draw, order=everyone)
        first = setup_first_shooter(setup, seats)
        return start_play(state, tuple((first + i) % seats for i in range(seats)))

    def _check_seats(self, seats: int) -> None:
        check_seat_count(self, seats, self.name)

    def _teams(self, setup: Mapping[str, Any], seats: int) -> tuple[tuple[int, ...], ...]:
        return ()

    def apply(self, state: State, move: Move) -> State:
        """The state after a throw or a stand, or IllegalEvent with a RULES.md 9.3 code."""
        check_move(state, move, self.name)
        if state.draw is not None:
            return self._draw_throw(state, state.draw, move)
        if move.type == THROWN:
            return apply_throw(state, move)
        return apply_stand(state)

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
        return scores_of(state)

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
                f"The {self.DRAW_KEY.replace('_', ' ')} come first: {player_at(state.shooter)} "
                "throws the five dice next.",
                seat=state.shooter,
            )
        faces = read_faces(move.data, DICE)
        throw = DrawThrow(state.shooter, faces, number_total(faces))
        draw = dataclasses.replace(draw, pending=draw.pending[1:], throws=(*draw.throws, throw))
        if draw.pending:
            return dataclasses.replace(state, draw=draw, shooter=draw.pending[0])
        ranking = split_group(draw)
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
    title = "Partnership Scarney 3000"
    dice_faces = SCARNEY_FACES
    most_dice = DICE
    min_seats = 4
    max_seats = MAX_PARTNERS
    name = "Partnership Scarney 3000"

    DRAW_KEY = "partner_throws"
    events = events_declared(MAX_PARTNERS)
    view_shape = view_declared(MAX_PARTNERS, sides=True)
    setup_shape = record(
        'The sides: the teams given ("We" first), alternate seats, or the throws for partners; '
        "and who shoots first.",
        optional=("teams", "first_shooter", "partner_throws"),
        teams=TEAMS,
        first_shooter=first_shooter(MAX_PARTNERS),
        partner_throws=PARTNER_THROWS,
    )
    report_shape = report_declared(MAX_PARTNERS, sides=True)

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
        or not all(is_int(seat) for team in teams for seat in team)
    ):
        raise BadSetup(
            f"{scope}.bad_teams",
            "'teams' must list two sides of seat numbers, e.g. [[0, 2], [1, 3]].",
        )
    sides = tuple(tuple(sorted(team)) for team in teams)
    if len(sides[0]) != len(sides[1]) or sorted(sides[0] + sides[1]) != list(range(seats)):
        raise BadSetup(
            f"{scope}.bad_teams",
            f"The two sides must share the seat numbers 0 to {seats - 1}, each once, "
            f"not {[list(side) for side in sides]}.",
        )
    return sides


SCARNEY_3000 = Scarney3000Rules()
PARTNERSHIP_SCARNEY_3000 = PartnershipScarney3000Rules()
