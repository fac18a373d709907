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

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from games.rules.base import Move, Result, SeatScore, make_ruleset
from games.rules.dice import DEAD, number_total, read_faces
from games.rules.errors import BadRuleset, BadSetup, IllegalEvent
from games.rules.matches import (
    ScoredMatch,
    ScoredMatchState,
    cumulative,
    payments_settlement,
    ranked,
    register_format,
)
from games.rules.registry import register

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
    """How a round ended: its winner (None when abandoned) and why."""

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


class PutAndTakeRules:
    """The rule engine of ``scarney-put-and-take`` (the ``Rules`` protocol of games.rules.base)."""

    kind = KIND
    ruleset_type: type[Any] = Ruleset
    min_seats = 2
    max_seats = MAX_SEATS

    def initial_state(self, setup: Mapping[str, Any], ruleset: Any, seats: int) -> State:
        """A session before its first round; seat 0 shoots first unless seats are thrown for."""
        if not self.min_seats <= seats <= self.max_seats:
            raise BadSetup(
                "game.bad_seats",
                f"Put-and-Take is played by 2 to {MAX_SEATS} players, not {seats}.",
                seats=seats,
            )
        if setup is not None and not isinstance(setup, Mapping):
            raise BadSetup("setup.not_an_object", "The setup must be a JSON object.")
        if setup:
            keys = ", ".join(sorted(str(key) for key in setup))
            raise BadSetup("setup.unknown_key", f"Put-and-Take takes no setup; {keys} is unknown.")
        return State(checked_ruleset(ruleset), seats, tuple(range(seats)))

    def apply(self, state: State, move: Move) -> State:
        """The state after ``move``, or IllegalEvent with a RULES.md 11.7 refusal code."""
        if not isinstance(move.type, str) or move.type not in EVENT_TYPES:
            raise IllegalEvent(
                "event.unknown_type",
                f"{move.type!r} is not an event of Put-and-Take.",
                type=move.type,
            )
        if not isinstance(move.data, Mapping):
            raise IllegalEvent("event.bad_data", f"The data of {move.type} must be an object.")
        if state.phase == OVER:
            raise IllegalEvent("game.over", "The session is over: no move can be recorded.")
        if state.phase == SEATING and move.type not in (SEATING_THROWN, ENDED):
            raise _seating_incomplete(state)
        return _HANDLERS[move.type](state, move)

    def expected(self, state: State) -> list[str]:
        """Event types the table may record next."""
        if state.phase == SEATING:
            return [SEATING_THROWN, ENDED]
        if state.phase == SHOOTING:
            return [THROWN, ENDED] if state.doubled else [THROWN, DOUBLE_DOWN, ENDED]
        if state.phase == OVER:
            return []
        between = [ANTED, LEFT, JOINED, ENDED] if state.away else [ANTED, LEFT, ENDED]
        return [SEATING_THROWN, *between] if _may_throw_for_seats(state) else between

    def legal_events(self, state: State) -> list[Move] | None:
        """None while the dice decide; no moves once the session is over."""
        return [] if state.phase == OVER else None

    def current_player(self, state: State) -> int | None:
        """The shooter; between rounds the next round's first shooter; the seating thrower."""
        if state.phase == SHOOTING:
            return state.shooter
        if state.phase == SEATING:
            assert state.seating is not None
            return _seating_thrower(state.seating)
        if state.phase == OVER:
            return None
        return _seated_from(state, state.next_first)

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
        """Every chip movement so far, in order (into the pot positive)."""
        return [movement._asdict() for movement in state.ledger]

    def match_report(self, state: State) -> dict[str, Any]:
        """What the session's match needs beyond the nets: rounds played and how they ended."""
        return {
            "rounds": state.round,
            "abandoned": any(end.how == "abandoned" for end in state.rounds),
        }


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


def _seated_from(state: State, seat: int) -> int:
    """``seat`` if seated, else the first seated player on his left."""
    start = state.order.index(seat)
    for step in range(len(state.order)):
        candidate = state.order[(start + step) % len(state.order)]
        if candidate not in state.away:
            return candidate
    return seat


def _left_of(state: State, seat: int) -> int:
    """The seated player on ``seat``'s left (the next clockwise)."""
    return _seated_from(state, state.order[(state.order.index(seat) + 1) % len(state.order)])


def _turn_from(state: State, seat: int) -> list[int]:
    """Every seated player in turn order, starting from ``seat``."""
    start = state.order.index(seat)
    ring = state.order[start:] + state.order[:start]
    return [s for s in ring if s not in state.away]


# --- seating (11.2) ------------------------------------------------------------------------------


def _may_throw_for_seats(state: State) -> bool:
    # Seats are thrown for before anything else, by everyone at the table.
    return (
        state.phase in (ANTE, SEATING)
        and state.round == 0
        and not state.away
        and (state.seating is None or state.phase == SEATING)
    )


def _seating_thrower(seating: Seating) -> int:
    tied = next(group for group in seating.groups if len(group) > 1)
    thrown = {seat for seat, _ in seating.pending}
    return next(seat for seat in tied if seat not in thrown)


def _seating_throw(state: State, move: Move) -> State:
    if not _may_throw_for_seats(state):
        raise IllegalEvent(
            "seating.closed",
            "Seats are thrown for only before the first round, by every player; "
            f"the turn order is seats {_order_text(state.order)}.",
        )
    faces = read_faces(move.data, DICE)
    seating = state.seating or Seating(groups=(tuple(range(state.seats)),))
    seat = _seating_thrower(seating)
    seating = dataclasses.replace(
        seating,
        pending=(*seating.pending, (seat, number_total(faces))),
        throws=(*seating.throws, (seat, faces)),
    )
    seating = _settle_throw_off(seating)
    if all(len(group) == 1 for group in seating.groups):
        order = tuple(group[0] for group in seating.groups)
        return dataclasses.replace(
            state, phase=ANTE, seating=seating, order=order, next_first=order[0]
        )
    return dataclasses.replace(state, phase=SEATING, seating=seating)


def _settle_throw_off(seating: Seating) -> Seating:
    """Once every tied player has thrown, split the group by total, highest first."""
    index = next(i for i, group in enumerate(seating.groups) if len(group) > 1)
    tied = seating.groups[index]
    if len(seating.pending) < len(tied):
        return seating
    totals = dict(seating.pending)
    split = tuple(
        tuple(seat for seat in tied if totals[seat] == total)
        for total in sorted(set(totals.values()), reverse=True)
    )
    groups = seating.groups[:index] + split + seating.groups[index + 1 :]
    return dataclasses.replace(seating, groups=groups, pending=())


def _seating_incomplete(state: State) -> IllegalEvent:
    assert state.seating is not None
    seat = _seating_thrower(state.seating)
    return IllegalEvent(
        "seating.incomplete",
        f"The seating throws are not finished: seat {seat} throws the three dice next "
        "(seating.thrown).",
        seat=seat,
    )


# --- between rounds: antes, leaving and joining (11.3, D-PT-9) ---------------------------------


def _ante(state: State, move: Move) -> State:
    if state.phase == SHOOTING:
        raise IllegalEvent(
            "round.already_anted", f"Round {state.round} is under way: its antes are in."
        )
    seated = _turn_from(state, _seated_from(state, state.next_first))
    if len(seated) < 2:
        raise IllegalEvent(
            "round.too_few_players",
            f"A round needs two seated players; only {len(seated)} is seated.",
        )
    ante = state.ruleset.ante_chips
    antes = tuple(Movement("ante", seat, ante) for seat in seated)
    return dataclasses.replace(
        state,
        phase=SHOOTING,
        round=state.round + 1,
        first_shooter=seated[0],
        shooter=seated[0],
        doubled=False,
        balance=state.balance + ante * len(seated),
        ledger=state.ledger + antes,
        round_start=len(state.ledger),
    )


def _leave(state: State, move: Move) -> State:
    seat = _seat_of(state, move)
    if seat in state.away:
        raise IllegalEvent("player.already_left", f"Seat {seat} has already left.", seat=seat)
    return dataclasses.replace(state, away=state.away | {seat})


def _join(state: State, move: Move) -> State:
    seat = _seat_of(state, move)
    if seat not in state.away:
        raise IllegalEvent("player.already_seated", f"Seat {seat} is already seated.", seat=seat)
    return dataclasses.replace(state, away=state.away - {seat})


def _seat_of(state: State, move: Move) -> int:
    """The seat a join or leave names; only between rounds (D-PT-9)."""
    seat = move.data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.seats:
        raise IllegalEvent(
            "event.bad_data",
            f"'seat' of {move.type} must be a seat number from 0 to {state.seats - 1}.",
            field="seat",
        )
    if state.phase == SHOOTING:
        raise IllegalEvent(
            "player.mid_round",
            f"Seat {seat} can join or leave only between rounds; round {state.round} is under way.",
            seat=seat,
        )
    return seat


# --- a round: double down and throws (11.4-11.6) -------------------------------------------------


def _double_down(state: State, move: Move) -> State:
    _check_round_on(state, move)
    if state.doubled:
        raise IllegalEvent(
            "double_down.already_called",
            f"Seat {state.shooter} has already called double down for this throw.",
        )
    return dataclasses.replace(state, doubled=True)


def _throw(state: State, move: Move) -> State:
    _check_round_on(state, move)
    if move.data.get("opposite"):
        raise IllegalEvent(
            "opposite.not_allowed", "Put-and-Take has no Opposite: the three dice count face up."
        )
    faces = read_faces(move.data, DICE)
    assert state.shooter is not None
    kind, chips = classify(faces)
    asked = chips * 2 if state.doubled else chips
    throw = Throw(state.round, state.shooter, faces, kind, state.doubled, asked, 0)
    state = dataclasses.replace(state, doubled=False)
    return _THROW_EFFECTS[kind](state, throw)


def _check_round_on(state: State, move: Move) -> None:
    if state.phase != SHOOTING:
        raise IllegalEvent(
            "round.not_anted",
            f"No round is under way: the antes of round {state.round + 1} come first "
            f"(round.anted), before {move.type}.",
        )


def _scarney(state: State, throw: Throw) -> State:
    """The shooter takes the whole pot and wins the round."""
    pot = state.balance
    state = _move_chips(state, "win", throw.seat, -pot)
    return _end_round(state, throw._replace(chips=-pot), throw.seat, "scarney")


def _put(state: State, throw: Throw) -> State:
    """The shooter pays into the pot and passes the dice to his left."""
    state = _move_chips(state, "put", throw.seat, throw.asked)
    throw = throw._replace(chips=throw.asked)
    return dataclasses.replace(
        state, shooter=_left_of(state, throw.seat), throws=(*state.throws, throw)
    )


def _take(state: State, throw: Throw) -> State:
    """The shooter takes from the pot and throws again; a short take ends the round."""
    if throw.asked > state.balance:
        pot = state.balance
        state = _move_chips(state, "take", throw.seat, -pot)
        short = throw._replace(chips=-pot, short=True)
        return _end_round(state, short, throw.seat, "short_take")
    state = _move_chips(state, "take", throw.seat, -throw.asked)
    refill = 0
    if throw.asked > 0 and state.balance <= REFILL_AT:  # D-PT-3: one refill, even if still low
        before = state.balance
        for seat in _turn_from(state, state.first_shooter):
            state = _move_chips(state, "refill", seat, state.ruleset.ante_chips)
        refill = state.balance - before
    throw = throw._replace(chips=-throw.asked, refill=refill)
    return dataclasses.replace(state, throws=(*state.throws, throw))


def _split(state: State, throw: Throw) -> State:
    return dataclasses.replace(state, throws=(*state.throws, throw))


def _move_chips(state: State, kind: str, seat: int, chips: int) -> State:
    if chips == 0:
        return state
    return dataclasses.replace(
        state,
        balance=state.balance + chips,
        ledger=(*state.ledger, Movement(kind, seat, chips)),
    )


def _end_round(state: State, throw: Throw, winner: int, how: str) -> State:
    """The pot is empty (D-PT-8); the next round starts left of the winner (D-PT-2 aside)."""
    stays = how == "short_take" and state.ruleset.put_take_after_short_take == "same_shooter"
    return dataclasses.replace(
        state,
        phase=ROUND_OVER,
        shooter=None,
        next_first=winner if stays else _left_of(state, winner),
        throws=(*state.throws, throw),
        rounds=(*state.rounds, RoundEnd(state.round, winner, how)),
    )


_THROW_EFFECTS = {SCARNEY: _scarney, PUT: _put, TAKE: _take, SPLIT: _split}


# --- the end of the session (D-PT-5) -------------------------------------------------------------


def _end_session(state: State, move: Move) -> State:
    if state.phase != SHOOTING:
        return dataclasses.replace(state, phase=OVER)
    assert state.shooter is not None
    turn = _turn_from(state, state.shooter)
    if state.ruleset.put_take_abandoned_pot == "to_contributors":
        shares = _pro_rata(state, turn)
    else:
        shares = {seat: state.balance // len(turn) for seat in turn}
    leftover = state.balance - sum(shares.values())
    for index in range(leftover):  # remainder chips one each, in turn from the shooter
        shares[turn[index % len(turn)]] += 1
    for seat in turn:
        state = _move_chips(state, "refund", seat, -shares[seat])
    end = RoundEnd(state.round, None, "abandoned")
    return dataclasses.replace(state, phase=OVER, shooter=None, rounds=(*state.rounds, end))


def _pro_rata(state: State, turn: list[int]) -> dict[int, int]:
    """What each put in this round, scaled down to the pot (whole chips, rounded down)."""
    paid = dict.fromkeys(turn, 0)
    for movement in state.ledger[state.round_start :]:
        if movement.chips > 0:
            paid[movement.seat] += movement.chips
    total = sum(paid.values())
    return {seat: state.balance * paid[seat] // total for seat in turn}


_HANDLERS = {
    SEATING_THROWN: _seating_throw,
    ANTED: _ante,
    DOUBLE_DOWN: _double_down,
    THROWN: _throw,
    LEFT: _leave,
    JOINED: _join,
    ENDED: _end_session,
}


# --- the view ------------------------------------------------------------------------------------


def _dice_view(state: State) -> dict[str, Any]:
    """Whose throw, how many dice, whether double down is open, and every throw itemised."""
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
        "rounds": [end._asdict() for end in state.rounds],
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


def _order_text(order: Sequence[int]) -> str:
    return ", ".join(str(seat) for seat in order)


PUT_AND_TAKE = PutAndTakeRules()
register(PUT_AND_TAKE)


# --- the match: one session, settled by the nets (RULES.md 0.8 "running pot") --------------------


class PutAndTakeMatch(ScoredMatch):
    """A Put-and-Take match is one session (one game stream); it settles each player's net."""

    kind = KIND
    ruleset_type: type[Any] = Ruleset
    min_seats = 2
    max_seats = MAX_SEATS

    def initial_state(self, ruleset: Any, seats: int, teams: Any = None) -> ScoredMatchState:
        return super().initial_state(checked_ruleset(ruleset), seats, teams)

    def is_complete(self, state: ScoredMatchState) -> bool:
        return len(state.entries) >= 1

    def standing(self, state: ScoredMatchState) -> list[dict[str, Any]]:
        winners = {seat for entry in state.entries for seat in entry.winners}
        rows = [
            {
                "seat": seat,
                "match_score": net,
                "bonuses": [],
                "total": net,
                "games_won": int(seat in winners),
                "rank": 0,
            }
            for seat, net in enumerate(cumulative(state))
        ]
        return ranked(rows)

    def settlement(self, state: ScoredMatchState) -> dict[str, Any]:
        """The nets as payments: each loser, in seat order, pays the winners in seat order."""
        return payments_settlement(transfers(cumulative(state)), state.seats)

    def next_game_setup(self, state: ScoredMatchState) -> dict[str, Any]:
        return {}

    def sheet_issues(self, state: ScoredMatchState, scores: tuple[int, ...]) -> list[IllegalEvent]:
        """Chips only change hands, so a session's nets sum to zero."""
        if sum(scores) == 0:
            return []
        return [
            IllegalEvent(
                "score.nets_not_zero",
                f"The nets {list(scores)} sum to {sum(scores)}; a session's nets sum to 0.",
                scores=list(scores),
            )
        ]


def transfers(net: Sequence[int]) -> list[tuple[int, int, int]]:
    """Payments ``(payer, payee, chips)`` giving ``net``: losers pay winners, in seat order."""
    owed = [[seat, -amount] for seat, amount in enumerate(net) if amount < 0]
    due = [[seat, amount] for seat, amount in enumerate(net) if amount > 0]
    payments = []
    while owed and due:
        chips = min(owed[0][1], due[0][1])
        payments.append((owed[0][0], due[0][0], chips))
        for side in (owed, due):
            side[0][1] -= chips
            if side[0][1] == 0:
                side.pop(0)
    return payments


PUT_AND_TAKE_MATCH = PutAndTakeMatch()
register_format(PUT_AND_TAKE_MATCH)
