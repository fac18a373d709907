"""Scarnie (``scarnie``): RULES.md section 6, with conventions 0.5-0.8.

Four stations of seven positions, one in front of each seat; 28 pawns numbered 1-28, twenty of
colour ``a`` and eight of colour ``b``. Players take turns removing one to three pawns of one colour
from one station; whoever removes ("kills") the last pawn loses the deal, and the deal's scorer
receives the last pawn's number times the multiplier of the position it stood on.

Structure (RULES.md 0.2: a *deal* is one board, the *game* the series of deals to 100): one game
stream of this kind is one deal, following the state machine of 6.5 (DEALING -> PLAY -> OVER); the
series to 100 is a match of format ``scarnie`` (:class:`ScarnieMatch`), complete once one player or
partnership leads alone with 100 or more. The match gives each deal its roles through
``next_game_setup``: the dealer (rotating left, 6.3), the deal number, the scores so far, the
partnerships and the colours of the pawns seen in earlier deals (a number's colour never changes
within a session, 6.4).

Scores at seat level: the deal's points go to the seat that scores (D-SCN-5). With partnerships
they go to the seat that moved before the killer, which always belongs to the opposing
partnership; a partnership's score is the sum of its two seats, so partners never count twice.

Events: ``deal.faced_up {"stations": {"1": [{"position", "pawn", "colour"}, ...], ...}}`` (6.4's
suggested name), ``pawns.removed {"station": 2, "positions": [1, 4]}`` (positions may also be
written ``"S2P1"``); on the match, ``dealer.drawn {"pawns": [n per seat]}`` (6.3, optional).
Refusals: ``deal.bad_station``, ``deal.duplicate_pawn``, ``deal.colour_changed``,
``deal.colour_count``, ``remove.count``, ``remove.duplicate``, ``remove.empty_position``,
``remove.two_stations``, ``remove.mixed_colours``, ``remove.empties_board``, plus the state
machine's own ``deal.required`` / ``deal.already_made`` and the draw's ``draw.*``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.rules.base import Move, Result, SeatScore, check_move, check_seat_count, make_ruleset
from games.rules.errors import IllegalEvent
from games.rules.events import REMOVED
from games.rules.scarnie.play import colours_seen, in_dealing, in_play, legal_removals
from games.rules.scarnie.state import (
    DEALING,
    EVENT_TYPES,
    FACED_UP,
    KIND,
    OVER,
    PLAY,
    STATIONS,
    TARGET,
    Ruleset,
    State,
    at,
    pawns_left,
    state_from_setup,
)

# --- the rule engine -----------------------------------------------------------------------------


class ScarnieRules:
    """The rule engine of one Scarnie deal (the ``Rules`` protocol of games.rules.base)."""

    kind = KIND
    title = "Scarnie"
    ruleset_type: type[Any] = Ruleset
    min_seats = 2
    max_seats = 4

    def initial_state(self, setup: Mapping[str, Any], ruleset: Any, seats: int) -> State:
        """The deal awaiting its pawns; the setup gives the match's roles (or a table's own)."""
        check_seat_count(self, seats, "Scarnie")
        rules = ruleset if isinstance(ruleset, Ruleset) else make_ruleset(Ruleset, ruleset)
        return state_from_setup(setup, rules, seats)

    def apply(self, state: State, move: Move) -> State:
        """The state after ``move``, or IllegalEvent with a RULES.md 6.4/6.5 refusal code."""
        # The end's sentence names the kill, so it is refused here rather than in check_move.
        check_move(move, EVENT_TYPES, "Scarnie", over=False)
        if state.phase == OVER:
            raise IllegalEvent("game.over", f"The deal is over: {_kill_sentence(state)}.")
        if state.phase == DEALING:
            return in_dealing(state, move)
        return in_play(state, move)

    def expected(self, state: State) -> list[str]:
        return {DEALING: [FACED_UP], PLAY: [REMOVED]}.get(state.phase, [])

    def legal_events(self, state: State) -> list[Move] | None:
        """Every legal removal; None while the deal (a chance event) is awaited."""
        if state.phase == DEALING:
            return None
        if state.phase == OVER:
            return []
        return [
            Move(REMOVED, {"station": station, "positions": list(positions)})
            for station, positions in legal_removals(state)
        ]

    def current_player(self, state: State) -> int | None:
        """The dealer while the deal is awaited (he calls "Play"), then the player on turn."""
        return None if state.phase == OVER else state.turn

    def is_terminal(self, state: State) -> bool:
        return state.phase == OVER

    def scores(self, state: State) -> tuple[SeatScore, ...]:
        """The deal's points per seat (all 0 until the last pawn is killed)."""
        return tuple(SeatScore(seat, points) for seat, points in enumerate(deal_points(state)))

    def result(self, state: State) -> Result | None:
        """Once the last pawn is killed: the points, and the scorers (or partnership) as winners."""
        if state.phase != OVER:
            return None
        return Result(self.scores(state), winners=deal_winners(state))

    def view(self, state: State) -> dict[str, Any]:
        """The four stations with their pawns and marks, whose turn, the deal and the scores."""
        points = deal_points(state)
        so_far = [before + now for before, now in zip(state.scores_before, points, strict=True)]
        return {
            "stations": {str(s): _station_view(state, s) for s in range(1, STATIONS + 1)},
            "phase": state.phase,
            "deal": state.deal,
            "dealer": state.dealer,
            "on_turn": self.current_player(state),
            "pawns_left": len(pawns_left(state)),
            "removals": [removal.as_dict() for removal in state.removals],
            "last_pawn": last_pawn(state),
            "scores_so_far": so_far,
            "partnerships": [
                {"seats": list(team), "score": sum(so_far[s] for s in team)} for team in state.teams
            ],
            "target": TARGET,
        }

    def match_report(self, state: State) -> dict[str, Any]:
        """What the match needs: the dealer (for the rotation), the kill, the colours seen."""
        return {
            "deal": state.deal,
            "dealer": state.dealer,
            "last_pawn": last_pawn(state),
            "colours": colours_seen(state),
        }


def _station_view(state: State, station: int) -> list[dict[str, Any]]:
    return [
        {
            "position": p,
            "at": at(station, p),
            "mark": state.ruleset.mark(station, p),
            "pawn": None if pawn is None else pawn.number,
            "colour": None if pawn is None else pawn.colour,
            "label": None if pawn is None else pawn.label,
        }
        for p, pawn in enumerate(state.stations[station - 1], start=1)
    ]


# --- scoring a deal (6.6) ------------------------------------------------------------------------


def killer(state: State) -> int | None:
    return state.removals[-1].seat if state.phase == OVER else None


def forcer(state: State) -> int | None:
    """The player who moved just before the killer (his right-hand neighbour)."""
    seat = killer(state)
    return None if seat is None else (seat - 1) % state.seats


def last_pawn(state: State) -> dict[str, Any] | None:
    """The killed pawn, where it stood, its mark and what it is worth, and who killed it."""
    if state.phase != OVER:
        return None
    removal = state.removals[-1]
    pawn, station, position = removal.pawns[0], removal.station, removal.positions[0]
    multiplier = state.ruleset.multiplier(station, position)
    return {
        "pawn": pawn.number,
        "colour": pawn.colour,
        "label": pawn.label,
        "station": station,
        "position": position,
        "at": at(station, position),
        "mark": state.ruleset.mark(station, position),
        "multiplier": multiplier,
        "points": pawn.number * multiplier,
        "killer": removal.seat,
        "scorers": list(scoring_seats(state)),
    }


def scoring_seats(state: State) -> tuple[int, ...]:
    """The seats credited with the deal's points (6.6, D-SCN-5); a partnership's is the forcer."""
    seat, before = killer(state), forcer(state)
    if seat is None or before is None:
        return ()
    if state.seats == 2 or state.teams or state.ruleset.scarnie_scorer == "previous_player":
        return (before,)
    return tuple(s for s in range(state.seats) if s != seat)


def deal_winners(state: State) -> tuple[int, ...]:
    """The scorers, or the whole partnership opposing the killer."""
    seat = killer(state)
    if seat is None:
        return ()
    if state.teams:
        return next(team for team in state.teams if seat not in team)
    return scoring_seats(state)


def deal_points(state: State) -> tuple[int, ...]:
    """Each seat's points of this deal: number x multiplier to the scorers, 0 to the others."""
    pawn = last_pawn(state)
    points = 0 if pawn is None else int(pawn["points"])
    scorers = scoring_seats(state)
    return tuple(points if seat in scorers else 0 for seat in range(state.seats))


def _kill_sentence(state: State) -> str:
    pawn = last_pawn(state)
    assert pawn is not None
    return f"seat {pawn['killer']} killed {pawn['label']} on {pawn['at']}"


SCARNIE = ScarnieRules()
