"""Scarney Put-and-Take Dice (``scarney-put-and-take``): RULES.md section 11.

Three Scarney dice and a running pot. Every seated player antes; the shooter throws until a put
passes the dice to his left; takes draw chips from the pot, puts pay into it, a Scarney (three of
a kind) wins it and ends the round. A pot left with five chips or fewer after a take is refilled
by a fresh ante from everyone; a take larger than the pot empties it and ends the round.

One game stream is one whole *session*: RULES.md 11.7's state machine goes from ``ROUND_OVER``
straight to the next ``round.anted``, so the rounds live inside the stream and the nets are the
session's (RULES.md 0.2, 0.8 "running pot"). The match format is therefore one game per match:
the session, settled by each player's net chips. Events beyond API.md's (suggested names, 0.5):
``seating.thrown {"faces"}`` (11.2's seating throws, optional, before the first round),
``round.anted {}``, ``player.left {"seat"}`` / ``player.joined {"seat"}`` (D-PT-9, between
rounds) and ``session.ended {}`` (mid-round it abandons the round and returns the pot, D-PT-5).
The stream's seat numbers never change; the seating throws give the clockwise turn order.
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
from games.rules.dice import (
    LONG,
    SCARNEY_DIE,
    SCARNEY_FACES,
    choice,
    number_total,
    pot_view_shape,
    recorded,
    seat_of,
    seating_throw_view,
    thrown,
)
from games.rules.events import DOUBLE_DOWN, THROWN
from games.rules.put_and_take import words
from games.rules.put_and_take.play import (
    HANDLERS,
    may_throw_for_seats,
    seating_incomplete,
    seating_thrower,
)
from games.rules.put_and_take.state import (
    ANTE,
    ANTED,
    DICE,
    ENDED,
    EVENT_TYPES,
    JOINED,
    KIND,
    LEFT,
    MAX_SEATS,
    OVER,
    PUT,
    ROUND_ENDS,
    ROUND_OVER,
    SCARNEY,
    SEATING,
    SEATING_THROWN,
    SHOOTING,
    SPLIT,
    TAKE,
    Ruleset,
    Seating,
    State,
    Throw,
    nets,
    seated_from,
)
from games.rules.shapes import SEAT, Boolean, Integer, ListOf, Nullable, Record, record

# --- what the game takes and shows (games/rules/shapes.py) -----------------------------------

FACES = thrown(SCARNEY_DIE, DICE, DICE, doc='the three faces thrown, e.g. ["D", "4", "D"]')
RECORDED = recorded(SCARNEY_DIE, "three, one per die", 'the faces thrown, e.g. ["D", "4", "D"]')
PLAYER = seat_of(MAX_SEATS, doc="the player's seat")
EVENTS = {
    SEATING_THROWN: record(
        "A seating throw of three dice, by the next player to throw for his seat.",
        faces=RECORDED,
    ),
    ANTED: record("Everyone seated antes: a round begins."),
    DOUBLE_DOWN: record("The shooter doubles what his next throw puts or takes."),
    THROWN: record(
        "The shooter's throw of the three dice.",
        optional=("opposite",),
        faces=RECORDED,
        opposite=Boolean(doc="Put-and-Take has no Opposite: only false is taken"),
    ),
    LEFT: record("A player leaves, between rounds (D-PT-9).", seat=PLAYER),
    JOINED: record("A player who left comes back, between rounds (D-PT-9).", seat=PLAYER),
    ENDED: record(
        "The session ends; mid-round the round is abandoned and the pot returned (D-PT-5)."
    ),
}
THROW_VIEW = Record(
    {
        "round": Integer(1),
        "seat": SEAT,
        "faces": FACES,
        "class": choice(SCARNEY, PUT, TAKE, SPLIT, doc="the throw's class (put, take ...)"),
        "push": Boolean(doc="a take of nothing (a dead single, D-PT-7)"),
        "doubled": Boolean(doc="double down was called for it"),
        "asked": Integer(0, doc="the chips its class calls for (doubled), else 0"),
        "chips": Integer(doc="chips the shooter paid into the pot (+) or took from it (-)"),
        "refill": Integer(0, doc="chips the refill after this take added"),
        "short": Boolean(doc="a take larger than the pot: it empties the pot and ends the round"),
    },
    doc="A throw of the round: its class, what it called for and what moved.",
)
ROUND_END_VIEW = record(
    "How a round ended.",
    round=Integer(1),
    winner=Nullable(SEAT, doc="null after a short take or when abandoned"),
    how=choice(*ROUND_ENDS),
)
VIEW = record(
    phase=choice(SEATING, ANTE, SHOOTING, ROUND_OVER, OVER, doc="where the session is"),
    dice=record(
        "Whose throw, the dice, double down, the round's throws itemised, the turn order.",
        round=Integer(0, doc="the round under way or just over, 0 before the first"),
        shooter=Nullable(SEAT, doc="the shooter, null between rounds"),
        first_shooter=Nullable(SEAT, doc="the round's first shooter, null before the first round"),
        throwing_for=Nullable(choice("seating", "round"), doc="what the next throw is for"),
        thrower=Nullable(SEAT, doc="who throws next, null between rounds"),
        in_cup=Integer(0, DICE),
        double_down=record(
            "Double down for the shooter's next throw.",
            open=Boolean(doc="the shooter may call it"),
            called=Boolean(doc="it is called"),
        ),
        order=ListOf(SEAT, MAX_SEATS, doc="the clockwise turn order"),
        away=ListOf(SEAT, MAX_SEATS, doc="the seats of the players who left"),
        throws=ListOf(THROW_VIEW, LONG, doc="the round's throws (the last round's until antes)"),
        rounds=ListOf(ROUND_END_VIEW, 1, doc="how the last round over ended"),
        seating=Nullable(
            record(
                "The seating throws, which seat the players and choose the first shooter.",
                groups=ListOf(
                    ListOf(SEAT, MAX_SEATS, 1),
                    MAX_SEATS,
                    doc="groups of seats, best first (several: still tied)",
                ),
                throws=ListOf(seating_throw_view(SCARNEY_DIE, DICE), LONG),
            ),
            doc="null if no seating throw was made",
        ),
    ),
    pot=pot_view_shape(MAX_SEATS),
)


class PutAndTakeRules(GameRules):
    """The rule engine of ``scarney-put-and-take`` (the ``Rules`` protocol of games.rules.base)."""

    kind = KIND
    title = "Scarney Put-and-Take"
    dice_faces = SCARNEY_FACES
    most_dice = DICE
    ruleset_type: type[Any] = Ruleset
    min_seats = 2
    max_seats = MAX_SEATS
    events = EVENTS
    view_shape = VIEW
    setup_shape = record("Put-and-Take takes no setup.")
    setup_words = SetupWords("Put-and-Take takes no setup; {unknown} is unknown.", names_keys=False)
    report_shape = record(
        "What the session's match needs beyond the nets.",
        rounds=Integer(0, doc="rounds played"),
        abandoned=Boolean(doc="the session ended mid-round"),
    )

    def word_throws(self, game: dict[str, Any], names: Mapping[int, str]) -> dict[str, Any]:
        """This turn's throws, and what its page shows besides, in words (ThrowsDice)."""
        return words.put_and_take(game, names)

    def start(self, setup: Mapping[str, Any], ruleset: Any, seats: int) -> State:
        """A session before its first round; seat 0 shoots first unless seats are thrown for."""
        check_seat_count(self, seats, "Put-and-Take")
        rules = ruleset if isinstance(ruleset, Ruleset) else make_ruleset(Ruleset, ruleset)
        return State(rules, seats, tuple(range(seats)), seat_nets=(0,) * seats)

    def apply(self, state: State, move: Move) -> State:
        """The state after ``move``, or IllegalEvent with a RULES.md 11.7 refusal code."""
        over = "The session is over: no move can be recorded."
        check_move(move, EVENT_TYPES, "Put-and-Take", state.phase == OVER, over)
        if state.phase == SEATING and move.type not in (SEATING_THROWN, ENDED):
            raise seating_incomplete(state)
        return HANDLERS[move.type](state, move)

    def expected(self, state: State) -> list[str]:
        """Event types the table may record next."""
        if state.phase == SEATING:
            return [SEATING_THROWN, ENDED]
        if state.phase == SHOOTING:
            return [THROWN, ENDED] if state.doubled else [THROWN, DOUBLE_DOWN, ENDED]
        if state.phase == OVER:
            return []
        between = [ANTED, LEFT, JOINED, ENDED] if state.away else [ANTED, LEFT, ENDED]
        return [SEATING_THROWN, *between] if may_throw_for_seats(state) else between

    def legal_events(self, state: State) -> list[Move] | None:
        """None while the dice decide; no moves once the session is over."""
        return [] if state.phase == OVER else None

    def current_player(self, state: State) -> int | None:
        """The shooter; between rounds the next round's first shooter; the seating thrower."""
        if state.phase == SHOOTING:
            return state.shooter
        if state.phase == SEATING:
            assert state.seating is not None
            return seating_thrower(state.seating)
        if state.phase == OVER:
            return None
        return seated_from(state, state.next_first)

    def is_terminal(self, state: State) -> bool:
        return state.phase == OVER

    def scores(self, state: State) -> tuple[SeatScore, ...]:
        """Each seat's net chips so far (its points)."""
        return tuple(SeatScore(seat, net) for seat, net in enumerate(nets(state)))

    def result(self, state: State) -> Result | None:
        """Once the session ends: the nets, and the seats with the best net."""
        if state.phase != OVER:
            return None
        scores = self.scores(state)
        best = max(score.points for score in scores)
        return Result(scores, tuple(s.seat for s in scores if s.points == best))

    def view(self, state: State) -> dict[str, Any]:
        return {
            "phase": state.phase,
            "dice": _dice_view(state),
            "pot": {"balance": state.balance, "nets": nets(state)},
        }

    def pot_ledger(self, state: State) -> list[dict[str, Any]]:
        """The chip movements of the round under way (or just over), in order (into the pot
        positive); those of earlier rounds were listed from the states before."""
        rows = state.ledger.rows()
        return [{"kind": kind, "seat": seat, "chips": chips} for kind, seat, chips in rows]

    def pot_ledger_start(self, state: State) -> int:
        return state.ledger_start

    def match_report(self, state: State) -> dict[str, Any]:
        """What the session's match needs beyond the nets: rounds played and how they ended."""
        return {
            "rounds": state.round,
            "abandoned": any(end.how == "abandoned" for end in state.rounds),
        }


# --- the view ------------------------------------------------------------------------------------


def _dice_view(state: State) -> dict[str, Any]:
    """Whose throw, how many dice, whether double down is open, the round's throws itemised.

    The throws are those of the round under way, or of the round just over until the next
    antes; ``rounds`` is the end of the last round over (a session runs as long as the table
    plays: a move's answer must not grow with it; every round is at /events/ and /pot/).
    """
    shooting = state.phase == SHOOTING
    return {
        "round": state.round,
        "shooter": state.shooter,
        "first_shooter": state.first_shooter if state.round else None,
        "throwing_for": "seating" if state.phase == SEATING else "round" if shooting else None,
        "thrower": PUT_AND_TAKE.current_player(state) if state.phase == SEATING else state.shooter,
        "in_cup": DICE if state.phase in (SEATING, SHOOTING) else 0,
        "double_down": {"open": shooting and not state.doubled, "called": state.doubled},
        "order": list(state.order),
        "away": sorted(state.away),
        "throws": [_throw_view(throw) for throw in state.throws],
        "rounds": [end._asdict() for end in state.last_round()],
        "seating": None if state.seating is None else _seating_view(state.seating),
    }


def _throw_view(throw: Throw) -> dict[str, Any]:
    return {
        "round": throw.round,
        "seat": throw.seat,
        "faces": list(throw.faces),
        "class": throw.kind,
        "push": throw.kind == TAKE and throw.asked == 0,
        "doubled": throw.doubled,
        "asked": throw.asked,
        "chips": throw.chips,
        "refill": throw.refill,
        "short": throw.short,
    }


def _seating_view(seating: Seating) -> dict[str, Any]:
    return {
        "groups": [list(group) for group in seating.groups],
        "throws": [
            {"seat": seat, "faces": list(faces), "total": number_total(faces)}
            for seat, faces in seating.throws
        ],
    }


PUT_AND_TAKE = PutAndTakeRules()
