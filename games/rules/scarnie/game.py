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

from games.rules.base import (
    GameRules,
    Move,
    Result,
    SeatScore,
    SetupWords,
    check_move,
    check_seat_count,
    make_ruleset,
)
from games.rules.errors import IllegalEvent
from games.rules.events import REMOVED
from games.rules.scarnie.play import colours_seen, in_dealing, in_play, legal_removals
from games.rules.scarnie.state import (
    COLOUR_LIMITS,
    DEALING,
    EVENT_TYPES,
    FACED_UP,
    KIND,
    MAX_REMOVED,
    MULTIPLIERS,
    OVER,
    PAWN_NUMBERS,
    PLAY,
    POSITIONS,
    STATIONS,
    TARGET,
    Ruleset,
    State,
    at,
    pawns_left,
    state_from_setup,
)
from games.rules.shapes import Integer, ListOf, MapOf, Nullable, Text, one_of, record
from games.rules.wording import player_at

# --- what the game takes and shows (games/rules/shapes.py) -----------------------------------

MAX_SEATS = 4
SEAT = Integer(0, MAX_SEATS - 1, doc="a seat number, 0-3")
STATION = Integer(1, STATIONS, doc="a station, 1-4")
POSITION = Integer(1, POSITIONS, doc="a position on its station, 1-7")
PAWN_NUMBER = Integer(min(PAWN_NUMBERS), max(PAWN_NUMBERS), doc="a pawn's number, 1-28")
PAWN_COLOUR = Text(1, tuple(COLOUR_LIMITS), doc="a pawn's colour: a (20 pawns) or b (8)")
PAWN_LABEL = Text(3, pattern="^([1-9]|1[0-9]|2[0-8])[ab]$", doc='a pawn and its colour, "17a"')
AT = Text(4, pattern="^S[1-4]P[1-7]$", doc='a position written out (6.1), e.g. "S2P5"')
MARK = Text(choices=tuple(MULTIPLIERS), doc="the position's mark (scarnie_position_marks)")
# A number as a JSON key (number_key): "3" or "03".
STATION_KEY = Text(2, pattern="^0?[1-4]$", doc='a station, "1"-"4"')
PAWN_KEY = Text(2, pattern="^(0?[1-9]|1[0-9]|2[0-8])$", doc='a pawn\'s number, "1"-"28"')
COLOURS_SEEN = MapOf(
    PAWN_COLOUR,
    key=Text(2, pattern="^([1-9]|1[0-9]|2[0-8])$", doc='a pawn\'s number, "1"-"28"'),
    longest=len(PAWN_NUMBERS),
    doc='the colour of every pawn faced up in the session so far, {"17": "a", ...}',
)
SCORES = ListOf(Integer(0, doc="points"), MAX_SEATS, 2, doc="per seat, in seat order")

EVENTS = {
    FACED_UP: record(
        "The deal faced up (6.4): seven pawns on each station in play, once, first.",
        stations=MapOf(
            ListOf(
                record(
                    "A pawn dealt and faced up.",
                    position=POSITION,
                    pawn=PAWN_NUMBER,
                    colour=PAWN_COLOUR,
                ),
                # How many is the rules' to judge (deal.bad_station, RULES.md 6.4): bounded by
                # the pawns there are.
                len(PAWN_NUMBERS),
                doc="the station's seven pawns, one on each position (else deal.bad_station)",
            ),
            key=STATION_KEY,
            longest=STATIONS,
            doc="each station in play (the players' own, or all four under "
            "scarnie_fill_all_stations) with its pawns",
        ),
    ),
    REMOVED: record(
        "One to three pawns of one colour from one station; never the last pawns together.",
        optional=("station",),
        station=Nullable(STATION, doc="the station, needed when a position is given as 1-7"),
        positions=ListOf(
            one_of(POSITION, AT, doc='a position: 1-7 on the station named, or like "S2P5"'),
            # How many is the rules' to judge (remove.count, RULES.md 6.5).
            len(PAWN_NUMBERS),
            doc="the positions emptied, one to three (else remove.count)",
        ),
    ),
}
SETUP = record(
    "The deal's roles and the session so far, as the match gives them (a table may give its own).",
    optional=("dealer", "deal", "scores_before", "teams", "colours"),
    dealer=Integer(0, MAX_SEATS - 1, doc="the dealer, who moves first (default seat 0)"),
    deal=Integer(1, doc="the deal's number in the game to 100 (default 1)"),
    scores_before=Nullable(SCORES, doc="each seat's points before this deal (null: all 0)"),
    teams=Nullable(
        ListOf(ListOf(SEAT, 2, 2), 2),
        doc="the partnerships, [[0, 2], [1, 3]] with four players; null or []: none",
    ),
    colours=Nullable(
        MapOf(PAWN_COLOUR, key=PAWN_KEY, longest=len(PAWN_NUMBERS)),
        doc='the colours of pawns seen in earlier deals, {"17": "a", ...} (a pawn\'s colour '
        "never changes within a session)",
    ),
)
LAST_PAWN = Nullable(
    record(
        "The killed pawn: where it stood, what it is worth, who killed it and who scores.",
        pawn=PAWN_NUMBER,
        colour=PAWN_COLOUR,
        label=PAWN_LABEL,
        station=STATION,
        position=POSITION,
        at=AT,
        mark=MARK,
        multiplier=Integer(0, max(MULTIPLIERS.values()), doc="the mark's multiplier, 0-3"),
        points=Integer(0, max(PAWN_NUMBERS) * max(MULTIPLIERS.values()), doc="number x multiplier"),
        killer=SEAT,
        scorers=ListOf(SEAT, MAX_SEATS - 1, 1, doc="the seats credited with the points"),
    ),
    doc="null until the last pawn is killed",
)
MOST_REMOVALS = STATIONS * POSITIONS  # every removal takes one pawn or more
VIEW = record(
    stations=MapOf(
        ListOf(
            record(
                "A position and the pawn on it.",
                position=POSITION,
                at=AT,
                mark=MARK,
                pawn=Nullable(PAWN_NUMBER, doc="null when empty"),
                colour=Nullable(PAWN_COLOUR, doc="null when empty"),
                label=Nullable(PAWN_LABEL, doc="null when empty"),
            ),
            POSITIONS,
            POSITIONS,
        ),
        key=Text(1, pattern="^[1-4]$", doc='a station, "1"-"4"'),
        longest=STATIONS,
        doc="all four stations, each with its seven positions",
    ),
    phase=Text(choices=(DEALING, PLAY, OVER), doc="dealing (awaiting deal.faced_up), play, over"),
    deal=Integer(1, doc="the deal's number in the game to 100"),
    dealer=SEAT,
    on_turn=Nullable(SEAT, doc="the dealer while the deal is awaited, then the seat to remove"),
    pawns_left=Integer(0, len(PAWN_NUMBERS), doc="pawns on the board"),
    removals=ListOf(
        record(
            "One move.",
            seat=SEAT,
            station=STATION,
            positions=ListOf(POSITION, MAX_REMOVED, 1),
            pawns=ListOf(PAWN_LABEL, MAX_REMOVED, 1),
        ),
        MOST_REMOVALS,
        doc="every removal of the deal, in order",
    ),
    last_pawn=LAST_PAWN,
    scores_so_far=ListOf(
        Integer(0, doc="points"),
        MAX_SEATS,
        2,
        doc="each seat's points: the earlier deals' and this one's",
    ),
    partnerships=ListOf(
        record("A partnership and its score.", seats=ListOf(SEAT, 2, 2), score=Integer(0)),
        2,
        doc="the two partnerships, or none",
    ),
    target=Integer(TARGET, TARGET, doc="the score that wins the game: 100"),
)
REPORT = record(
    "What the match needs: the deal, its dealer (for the rotation), the kill, the colours seen.",
    deal=Integer(1, doc="the deal's number"),
    dealer=SEAT,
    last_pawn=LAST_PAWN,
    colours=COLOURS_SEEN,
)

# --- the rule engine -----------------------------------------------------------------------------


class ScarnieRules(GameRules):
    """The rule engine of one Scarnie deal (the ``Rules`` protocol of games.rules.base)."""

    kind = KIND
    title = "Scarnie"
    ruleset_type: type[Any] = Ruleset
    events = EVENTS
    setup_shape = SETUP
    setup_words = SetupWords("{game}'s setup takes {keys}; {unknown} is unknown.")
    view_shape = VIEW
    report_shape = REPORT
    min_seats = 2
    max_seats = MAX_SEATS

    def start(self, setup: Mapping[str, Any], ruleset: Any, seats: int) -> State:
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
    return f"{player_at(pawn['killer'])} killed {pawn['label']} on {pawn['at']}"


SCARNIE = ScarnieRules()
