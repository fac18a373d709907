"""Partnership Straight Scarney Dice (``partnership-straight-scarney-dice``): RULES.md section 8.

Straight Scarney Dice (``games.rules.straight_dice.game``) played by two sides of two (or three):
everyone shoots his seven frames with his own double-downs, a side's score is the sum of its
members' totals, the higher side takes the pot and its partners divide it (odd chips by individual
score, D-PSD-3), a side tie gives everyone one more frame (D-PSD-2), and a Big Scarney wins the pot
for the shooter's side at once. Sides come from the setup (``{"teams": [[0, 2], [1, 3]]}``, the
match's teams, or by default alternate seats) or from recorded partner throws (D-PSD-1).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from games.rules.dice import PARTNER_THROWS, SCARNEY_FACES, TEAMS, first_shooter
from games.rules.errors import BadSetup
from games.rules.matches import ScoredMatchState
from games.rules.shapes import record
from games.rules.straight_dice.game import StraightDiceRules, events_declared, report_declared
from games.rules.straight_dice.match import StraightDiceMatch, sheet_events
from games.rules.straight_dice.play import State, start_play
from games.rules.straight_dice.throws import DICE, Ruleset
from games.rules.straight_dice.view import view_declared

KIND = "partnership-straight-scarney-dice"
PLAYERS = (4, 6)  # two against two, or three against three (D-PSD-4)
MOST_PLAYERS, SIDES = max(PLAYERS), 2


@dataclass(frozen=True, slots=True)
class PartnershipRuleset(Ruleset):
    """The house rules of Straight Scarney Dice plus the odd chips of the pot (D-PSD-3)."""

    ALLOWED: ClassVar[Mapping[str, tuple[object, ...]]] = {
        **Ruleset.ALLOWED,
        "partnership_odd_chips": ("by_individual_score", "carry_over"),
    }

    partnership_odd_chips: str = "by_individual_score"


class PartnershipDiceRules(StraightDiceRules):
    """The rule engine of ``partnership-straight-scarney-dice``: Straight Scarney Dice by sides."""

    kind = KIND
    title = "Partnership Straight Scarney Dice"
    dice_faces = SCARNEY_FACES
    most_dice = DICE
    name = "Partnership Straight Scarney Dice"
    ruleset_type: type[Any] = PartnershipRuleset
    min_seats = 4
    max_seats = 6
    events = events_declared(MOST_PLAYERS)
    view_shape = view_declared(MOST_PLAYERS, SIDES)
    setup_shape = record(
        "The sides: the teams given, alternate seats, or the throws for partners; and who shoots "
        "first.",
        optional=("teams", "partner_throws", "first_shooter"),
        teams=TEAMS,
        partner_throws=PARTNER_THROWS,
        first_shooter=first_shooter(MOST_PLAYERS),
    )
    report_shape = report_declared(MOST_PLAYERS, SIDES)

    def _check_seats(self, seats: int) -> None:
        if seats not in PLAYERS:
            raise BadSetup(
                "game.bad_seats",
                f"{self.name} is played by four (two against two) or six (three against three) "
                f"players, not {seats}.",
                seats=seats,
            )

    def throws_key(self) -> str:
        return "partner_throws"

    def sides_of(self, setup: Mapping[str, Any], seats: int) -> tuple[tuple[int, ...], ...]:
        """The setup's teams, which must alternate round the table; by default alternate seats."""
        teams = setup.get("teams")
        if teams is None or teams == []:
            return alternate_sides(seats)
        if setup.get("partner_throws"):
            raise BadSetup("setup.conflict", "Give either the teams or partner_throws, not both.")
        return check_sides(teams, seats)

    def needs_rethrow(self, state: State, ranking: tuple[tuple[int, ...], ...], i: int) -> bool:
        """A tie is thrown again only if it decides the first shooter or a side (D-PSD-1)."""
        group = ranking[i]
        start = sum(len(g) for g in ranking[:i])
        split = state.seats // 2
        return len(group) > 1 and (start == 0 or start < split < start + len(group))

    def seated(self, state: State, ranking: tuple[tuple[int, ...], ...]) -> State:
        """The highest totals form one side; partners alternate, highest total shooting first."""
        ranked = [seat for group in ranking for seat in group]
        split = state.seats // 2
        high, low = ranked[:split], ranked[split:]
        order = tuple(seat for pair in zip(high, low, strict=True) for seat in pair)
        sides = (tuple(sorted(high)), tuple(sorted(low)))
        return start_play(dataclasses.replace(state, sides=sides), order)


def alternate_sides(seats: int) -> tuple[tuple[int, ...], ...]:
    """Partners sit alternately: the even seats against the odd ones."""
    return (tuple(range(0, seats, 2)), tuple(range(1, seats, 2)))


def check_sides(teams: Any, seats: int, scope: str = "setup") -> tuple[tuple[int, ...], ...]:
    """Two sides of equal size covering every seat once, partners alternating (8.1, D-PSD-4)."""
    if (
        not isinstance(teams, list | tuple)
        or len(teams) != 2
        or not all(isinstance(team, list | tuple) for team in teams)
        or not all(isinstance(s, int) and not isinstance(s, bool) for team in teams for s in team)
    ):
        raise BadSetup(
            f"{scope}.bad_teams",
            "'teams' must list two sides of seat numbers, e.g. [[0, 2], [1, 3]].",
        )
    sides = tuple(tuple(sorted(team)) for team in teams)
    if sorted(seat for side in sides for seat in side) != list(range(seats)):
        raise BadSetup(
            f"{scope}.bad_teams",
            f"The two sides must hold every seat from 0 to {seats - 1} exactly once, "
            f"not {[list(side) for side in sides]}.",
        )
    if sorted(sides) != sorted(alternate_sides(seats)):
        raise BadSetup(
            f"{scope}.teams_not_alternating",
            f"Partners sit alternately: the sides are {[list(s) for s in alternate_sides(seats)]}, "
            f"not {[list(side) for side in sides]}.",
        )
    return tuple(sorted(sides))


def reported_sides(sides: Any, seats: int) -> tuple[tuple[int, ...], ...]:
    """A game report's two sides of equal size holding every seat once, or () if it has none."""
    if (
        not isinstance(sides, list)
        or len(sides) != 2
        or not all(isinstance(side, list) for side in sides)
        or not all(isinstance(s, int) and not isinstance(s, bool) for side in sides for s in side)
        or len(sides[0]) != len(sides[1])
        or sorted(sides[0] + sides[1]) != list(range(seats))
    ):
        return ()
    return tuple(tuple(side) for side in sides)


class PartnershipDiceMatch(StraightDiceMatch):
    """One partnership game: the winning side divides the pot (RULES.md 8.3)."""

    kind = KIND
    ruleset_type: type[Any] = PartnershipRuleset
    min_seats = 4
    max_seats = 6
    events = sheet_events(MOST_PLAYERS, min_seats)

    def sheet_rule(self, ruleset: Mapping[str, Any]) -> str:
        """The rule a sheet's lines follow and how the match ends, in one sentence."""
        return (
            "A match is one game of seven frames each: the side with the higher total takes the "
            "pot, divided among its partners."
        )

    def check_teams(self, teams: Any, seats: int) -> tuple[tuple[int, ...], ...]:
        if seats not in PLAYERS:
            raise BadSetup(
                "match.bad_seats",
                f"A {KIND} match has four or six players, not {seats}.",
                seats=seats,
            )
        if not teams:
            return ()
        return check_sides(teams, seats, "match")

    def sides(self, state: ScoredMatchState) -> tuple[tuple[int, ...], ...]:
        """The sides the game was played with (partner throws may have formed them, 8.1), else
        the match's teams, else alternate seats."""
        if state.entries:
            reported = reported_sides(state.entries[0].report.get("sides"), state.seats)
            if reported:
                return reported
        return state.teams or alternate_sides(state.seats)

    def next_game_setup(self, state: ScoredMatchState) -> dict[str, Any]:
        """The match's teams, when it has them, are its game's sides."""
        return {"teams": [list(team) for team in state.teams]} if state.teams else {}


PARTNERSHIP_DICE = PartnershipDiceRules()
PARTNERSHIP_DICE_MATCH = PartnershipDiceMatch()
