"""The Scarney dice engines against second, plain readings of RULES.md (7.5, 9.2-9.4, 11.4-11.6).

Each reference below is written from the rule text alone, with none of the engines' code: a
throw's worth, a frame's or a turn's state machine, a round's pot. Every throw of one to five
dice is compared one by one (not as counted totals), and seeded random play compares the state
machines event by event: the refusal code of an illegal event, the points held, the dice in the
cup, the shooter, the pot and the ledger.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from itertools import product
from typing import Any

import pytest

from games.rules import registry
from games.rules.base import Move, make_ruleset
from games.rules.errors import IllegalEvent
from games.rules.put_and_take.game import PUT_AND_TAKE
from games.rules.put_and_take.state import classify
from games.rules.scarney_3000.play import MAY_STAND, OVER
from games.rules.scarney_3000.throws import Ruleset as Ruleset3000
from games.rules.straight_dice.game import StraightDiceRules
from games.rules.straight_dice.partnership import PartnershipDiceRules
from games.rules.straight_dice.throws import Ruleset as StraightRuleset
from games.rules.straight_dice.throws import evaluate as straight_evaluate
from games.store import event_types
from games.store.canonical import canonical

FACES = ("1", "3", "4", "6", "D")
OPP = {"1": "6", "6": "1", "3": "4", "4": "3", "D": "D"}


def _throw(faces: Any, **extra: Any) -> Move:
    return Move("dice.thrown", {"faces": list(faces), **extra})


def _code(rules: Any, state: Any, move: Move) -> tuple[Any, str | None]:
    """The state after ``move`` and None, or the unchanged state and the refusal code; the data
    checked first as the service checks it (the store, against the game's declaration), so that
    a declared bound answering in the rules' place would show as a code that differs."""
    try:
        data = canonical(dict(move.data))
        event_types.check_data(move.type, data)
        event_types.check_stream_data("game", rules.kind, move.type, data)
        return rules.apply(state, move), None
    except IllegalEvent as refusal:
        return state, refusal.code


# --- Scarney 3000 (RULES.md 9.2, 9.3, 9.4) -------------------------------------------------------

S3000: Any = registry.get("scarney-3000")
P3000: Any = registry.get("partnership-scarney-3000")
THREE = {"D": 200, "1": 100, "3": 300, "4": 400, "6": 900}
FOUR = {"D": 400, "1": 200, "3": 900, "4": 800, "6": 1200}


def ref_3000_throw(faces: tuple[str, ...], pending: int) -> tuple[str, int, int, int]:
    """9.3 read plainly: (case A/B/C, points banked, pending after, dice to throw next)."""
    n, d = len(faces), faces.count("D")
    numbers = Counter(f for f in faces if f != "D")
    bonus = [(face, k) for face, k in numbers.items() if k >= 3]
    bonus_points = 0
    set_aside = d
    if bonus:
        face, k = bonus[0]
        bonus_points = 3000 if k == 5 else FOUR[face] if k == 4 else THREE[face]
        set_aside += k
    nxt = (n - set_aside) or 5
    if d:
        dead = 3000 if d == 5 else FOUR["D"] if d == 4 else THREE["D"] if d == 3 else 50 * d
        return "A", pending + dead + bonus_points, 0, nxt
    if bonus:
        return "B", 0, pending + bonus_points, nxt
    return "C", 0, 0, 5


@pytest.mark.parametrize("dice", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("pending", [0, 100, 350])
def test_every_scarney_3000_throw_of_one_to_five_dice_matches_the_plain_reading(
    dice: int, pending: int
) -> None:
    """RULES.md 9.3: each throw of ``next_n`` dice, case by case, with and without pending."""
    base = dataclasses.replace(S3000.initial_state({}, {}, 2), in_cup=dice, pending=pending)
    for faces in product(FACES, repeat=dice):
        case, gained, pending_after, nxt = ref_3000_throw(faces, pending)
        after = S3000.apply(base, _throw(faces))
        if case == "C":
            assert after.shooter == 1 and after.turns[-1].score == 0, faces
            continue
        assert (after.banked, after.pending, after.in_cup) == (gained, pending_after, nxt), faces
        assert after.phase == (MAY_STAND if case == "A" and gained >= 200 else "must_throw")


class Ref3000:
    """Scarney 3000's turn machine (9.3) and the end of the game (9.4, D-3000-3) for play.

    With ``equal_turns`` (D-3000-3 variant) the round is completed once someone reaches the
    target, then the highest total wins; tied leaders (only they) shoot one more turn each (0.7).
    """

    def __init__(
        self, seats: int, target: int, sides: list[list[int]], equal_turns: bool = False
    ) -> None:
        self.seats, self.target, self.sides, self.equal = seats, target, sides, equal_turns
        self.totals = [0] * seats
        self.shooter, self.banked, self.pending, self.n = 0, 0, 0, 5
        self.may_stand = self.after_b = False
        self.closing: list[int] | None = None
        self.winner: int | None = None
        self.winners: tuple[int, ...] = ()

    def throw(self, faces: tuple[str, ...]) -> str | None:
        if self.winner is not None:
            return "game.over"
        if len(faces) != self.n:
            return "throw.wrong_dice_count"
        case, gained, self.pending, self.n = ref_3000_throw(faces, self.pending)
        if case == "C":
            self._end(0)
            return None
        self.banked += gained
        self.after_b = case == "B"
        self.may_stand = case == "A" and self.banked >= 200
        return None

    def stand(self) -> str | None:
        if self.winner is not None:
            return "game.over"
        if not self.may_stand:
            return "stand.unconfirmed_bonus" if self.after_b else "stand.below_minimum"
        self._end(self.banked)
        return None

    def _side_total(self, side: list[int]) -> int:
        return sum(self.totals[seat] for seat in side)

    def _end(self, score: int) -> None:
        shooter = self.shooter
        self.totals[shooter] += score
        self.banked, self.pending, self.n = 0, 0, 5
        self.may_stand = self.after_b = False
        self.shooter = (shooter + 1) % self.seats
        side = next(side for side in self.sides if shooter in side)
        reached = score > 0 and self._side_total(side) >= self.target
        if not self.equal:
            if reached:
                self.winner, self.winners = shooter, tuple(side)
            return
        if self.closing is None:
            if not reached:
                return
            self.closing = list(range(shooter + 1, self.seats))  # the rest of the round
        else:
            self.closing = self.closing[1:]
        if self.closing:
            self.shooter = self.closing[0]
            return
        best = max(self._side_total(side) for side in self.sides)
        leaders = [side for side in self.sides if self._side_total(side) == best]
        if len(leaders) == 1:
            self.winner, self.winners = leaders[0][0], tuple(leaders[0])
            return
        self.closing = sorted(seat for side in leaders for seat in side)
        self.shooter = self.closing[0]


# Seeds 199, 227, 253, 353 and 359 play equal-turns games whose leaders tie and shoot again.
@pytest.mark.parametrize("seed", [*range(24), 199, 227, 253, 353, 359])
def test_scarney_3000_play_matches_the_plain_turn_machine_event_by_event(seed: int) -> None:
    """RULES.md 9.3 (states, refusals), 9.4 and D-3000-3 (the first to stand at the target);
    section 10 (a side's total reaching the target) for every fourth seed; from seed 16 the
    equal-turns variant with a low target, so that tied leaders shoot again (0.7)."""
    rng = random.Random(seed)
    seats, target = 2 + seed % 3, 3000 if seed % 2 else 1500
    equal = seed >= 16
    if equal:
        target = 400
    sides = [[seat] for seat in range(seats)]
    game: Any = S3000
    if seed % 4 == 3:
        seats, game = 4 + seed % 8 // 4 * 2, P3000
        sides = [list(range(0, seats, 2)), list(range(1, seats, 2))]
    pool = "1346DD" if seed % 2 else "11346D"  # more number bonuses: longer confirmation chains
    house = {"s3000_target": target, "s3000_equal_turns": equal}
    state = game.initial_state({}, make_ruleset(Ruleset3000, house), seats)
    ref = Ref3000(seats, target, sides, equal)
    for _ in range(3000):
        if rng.random() < 0.25:
            move, expected = Move("shooter.stood", {}), ref.stand()
        else:
            count = ref.n if rng.random() < 0.95 else rng.choice([1, 2, 3, 4, 5])
            faces = tuple(rng.choice(pool) for _ in range(count))
            move, expected = _throw(faces), ref.throw(faces)
        state, code = _code(game, state, move)
        assert code == expected, (move, code, expected)
        if ref.winner is not None:
            assert state.phase == OVER and state.winners == tuple(sorted(ref.winners))
            break
        assert (state.shooter, state.banked, state.pending, state.in_cup) == (
            ref.shooter,
            ref.banked,
            ref.pending,
            ref.n,
        )
        assert [s.total for s in game.scores(state)] == ref.totals
    assert ref.winner is not None


# --- Straight Scarney Dice (RULES.md 7.5, 7.6, D-SSD-1, D-SSD-2) ---------------------------------

STRAIGHT = StraightDiceRules()
PARTNERSHIP = PartnershipDiceRules()
HOUSE: list[dict[str, Any]] = [
    {},
    {"little_scarney_counts_live_die": True},
    {"little_scarney_on_four_dice": True},
]


def ref_straight_throw(
    top: tuple[str, ...], dd: bool, opposite: bool, house: dict[str, bool]
) -> tuple[str, int, int]:
    """7.5's "evaluating a throw" read plainly: (outcome, points added, dead dice)."""
    faces = tuple(OPP[f] for f in top) if opposite else top
    n, d = len(faces), faces.count("D")
    if n == 5 and len(set(faces)) == 1:
        return "big", 0, 0
    if n == 5 and d == 4:
        live = [f for f in faces if f != "D"][0]
        extra = 0
        if house.get("little_scarney_counts_live_die"):
            extra = int(live) * (2 if dd and live in "16" else 1)
        return "little", 25 + extra, 4
    if n == 4 and d == 4 and house.get("little_scarney_on_four_dice"):
        return "little_four", 25, 4
    if d:
        return ("crap" if d == n else "scoreless"), 0, d
    spots = sum(int(f) for f in faces)
    if dd and (n >= 2 or faces[0] in "16"):
        spots *= 2
    shape = sorted(Counter(faces).values(), reverse=True)
    if shape[0] == 4:
        bonus = 40
    elif shape[:2] == [3, 2]:
        bonus = 30
    elif shape[0] == 3:
        bonus = 20
    elif shape[:2] == [2, 2]:
        bonus = 10
    else:
        bonus = 0
    return "points", spots + bonus, 0


@pytest.mark.parametrize("house", HOUSE)
@pytest.mark.parametrize("dice", [1, 2, 3, 4, 5])
def test_every_straight_dice_throw_doubled_or_not_matches_the_plain_reading(
    dice: int, house: dict[str, bool]
) -> None:
    """RULES.md 7.5 rules 1-4, one-die doubling, Opposite (D-SSD-8), D-SSD-1 and D-SSD-2."""
    names = {"big_scarney": "big", "crap_out": "crap", "scoreless": "scoreless"}
    ruleset = make_ruleset(StraightRuleset, house)
    for faces in product(FACES, repeat=dice):
        for dd, opposite in product((False, True), (False, True) if dice == 1 else (False,)):
            outcome, points, dead = ref_straight_throw(faces, dd, opposite, house)
            got = straight_evaluate(faces, doubled=dd, opposite=opposite, ruleset=ruleset)
            if outcome == "little_four":
                outcome = "little"
            name = names.get(got.outcome, "little" if got.outcome == "little_scarney" else "points")
            assert (name, got.points, got.dead) == (outcome, points, dead), (faces, dd, opposite)


class RefFrames:
    """Straight Scarney Dice's frame machine (7.5), rounds of seven frames (7.4) and pot (7.3).

    With sides of two or three, the partnership game (8.2, 8.3): side totals, a side tie gives
    everyone one more frame, the winning partners divide the pot, odd chips by individual total.
    """

    def __init__(
        self, seats: int, ante: int, house: dict[str, Any], sides: list[list[int]]
    ) -> None:
        self.seats, self.house, self.sides = seats, house, sides
        self.ledger = [("ante", seat, ante) for seat in range(seats)]
        self.scores: list[list[int]] = [[] for _ in range(seats)]
        self.shooter, self.frame = 0, 1
        self.live, self.acc, self.dd, self.holding = 5, 0, False, False
        self.due: list[int] = []
        self.winner: int | None = None
        self.winners: tuple[int, ...] = ()

    def double_down(self) -> str | None:
        if self.holding:
            return "double_down.not_allowed"
        if self.dd:
            return "double_down.already_called"
        self.dd = True
        self.ledger.append(("double_down", self.shooter, 1))
        return None

    def stand(self) -> str | None:
        if not self.holding:
            return "stand.no_point_score"
        self._end(self.acc)
        return None

    def throw(self, faces: tuple[str, ...], opposite: bool) -> str | None:
        if any(f not in FACES for f in faces):
            return "throw.bad_face"
        if len(faces) != self.live:
            return "throw.wrong_dice_count"
        if opposite and self.live != 1:
            return "opposite.not_allowed"
        outcome, points, dead = ref_straight_throw(faces, self.dd, opposite, self.house)
        self.dd = False
        self.live -= dead
        if outcome == "big":
            self.scores[self.shooter].append(self.acc)
            self._win(self.shooter)
        elif outcome in ("crap", "scoreless"):
            self.acc, self.holding = 0, False
            if outcome == "crap":
                self._end(0)
        elif outcome == "little_four":
            self._end(self.acc + points)
        else:
            self.acc, self.holding = self.acc + points, True
        return None

    def _end(self, score: int) -> None:
        """The frame is over; the next shooter is the next seat due (7.4), or the game ends."""
        self.scores[self.shooter].append(score)
        self.live, self.acc, self.dd, self.holding = 5, 0, False, False
        while True:
            self.shooter = (self.shooter + 1) % self.seats
            if self.shooter == 0:  # a round is complete
                self.frame += 1
                if self.frame > 7:  # 0.7: only the tied leaders shoot one more frame each
                    side_totals = [sum(sum(self.scores[s]) for s in side) for side in self.sides]
                    best = max(side_totals)
                    leaders = [
                        side for side in self.sides if side_totals[self.sides.index(side)] == best
                    ]
                    self.due = [seat for side in leaders for seat in side]
                    if len(leaders) == 1:
                        self._win(leaders[0][0])
                        return
            if self.frame <= 7 or self.shooter in self.due:
                return

    def _win(self, seat: int) -> None:
        self.winner = seat
        side = next(side for side in self.sides if seat in side)
        self.winners = tuple(side)
        share, odd = divmod(sum(chips for _, _, chips in self.ledger), len(side))
        if self.house.get("partnership_odd_chips") == "carry_over":
            odd = 0
        totals = {member: sum(self.scores[member]) for member in side}
        # 8.3: odd chips one each by individual total, highest first; equal: seating order
        first = sorted(side, key=lambda member: (-totals[member], member))[:odd]
        for member in side:
            chips = share + (member in first)
            if chips:
                self.ledger.append(("win", member, -chips))


def _frame_move(rng: random.Random, live: int, deadly: bool) -> tuple[str, tuple[str, ...], bool]:
    """A random event; ``deadly`` dice crap out often, so totals tie and extra frames follow."""
    roll = rng.random()
    if roll < 0.12:
        return "stand", (), False
    if roll < 0.2:
        return "double", (), False
    count = live if rng.random() < 0.95 else rng.choice([1, 2, 3, 4, 5])
    # numbers often, so frames hold points; dead dice often enough for crap-outs and Scarneys
    faces = tuple(rng.choice("1DDDD" if deadly else "1346D") for _ in range(count))
    while deadly and count == 5 and len(set(faces)) == 1:
        faces = tuple(rng.choice("1DDDD") for _ in range(count))
    if rng.random() < 0.01:
        faces = ("D",) * count
    return "throw", faces, rng.random() < (0.5 if count == 1 else 0.02)


@pytest.mark.parametrize("seed", range(40))
def test_straight_dice_play_matches_the_plain_frame_machine_event_by_event(seed: int) -> None:
    """RULES.md 7.3-7.7: refusals, points held, dice live, frames, extra frames, the pot."""
    rng = random.Random(seed)
    seats, ante, house = 2 + seed % 3, 1 + seed % 2, HOUSE[seed % 3]
    sides, game = [[seat] for seat in range(seats)], STRAIGHT
    if seed % 5 == 4:  # the partnership game, four or six players
        seats, game, ante = 4 + seed % 10 // 5 * 2, PARTNERSHIP, 1 + seed % 4
        sides = [list(range(0, seats, 2)), list(range(1, seats, 2))]
        house = {**house, "partnership_odd_chips": ("carry_over", "by_individual_score")[seed % 2]}
    ruleset = make_ruleset(game.ruleset_type, {"ante_chips": ante, **house})
    state = game.initial_state({}, ruleset, seats)
    ref = RefFrames(seats, ante, house, sides)
    for _ in range(6000):
        kind, faces, opposite = _frame_move(rng, ref.live, seed % 2 == 1)
        if kind == "stand":
            move, expected = Move("shooter.stood", {}), ref.stand()
        elif kind == "double":
            move, expected = Move("double_down.called", {}), ref.double_down()
        else:
            move = _throw(faces, **({"opposite": True} if opposite else {}))
            expected = ref.throw(faces, opposite)
        state, code = _code(game, state, move)
        assert code == expected, (move, code, expected)
        ledger = [(m["kind"], m["seat"], m["chips"]) for m in game.pot_ledger(state)]
        assert ledger == ref.ledger
        frames = [[f.score for f in state.frames if f.seat == s and f.ended] for s in range(seats)]
        assert frames == ref.scores
        assert [score.total for score in game.scores(state)] == [sum(f) for f in frames]
        if ref.winner is not None:
            assert state.over and state.winners == ref.winners
            break
        frame = state.frame
        assert frame is not None and frame.seat == ref.shooter
        assert (frame.live, frame.held, frame.double_down) == (ref.live, ref.acc, ref.dd)
        assert frame.holding == ref.holding
    assert ref.winner is not None


# --- Scarney Put-and-Take (RULES.md 11.3-11.6, D-PT-1..4, D-PT-7, D-PT-8) ------------------------


def ref_class(faces: tuple[str, ...]) -> tuple[str, int]:
    """11.4's table read plainly: the class and the chips named (before double down)."""
    a, b, c = sorted(faces)
    if a == b == c:
        return "scarney", 0
    if sorted(faces).count("D") == 2:
        return "put", int(next(f for f in faces if f != "D"))
    if a == b or b == c:
        single = c if a == b else a
        return "take", 0 if single == "D" else int(single)
    return "split", 0


def test_every_put_and_take_throw_is_classed_as_the_plain_reading_of_11_4() -> None:
    for faces in product(FACES, repeat=3):
        assert classify(faces) == ref_class(faces), faces


class RefSession:
    """A session's pot (11.3, 11.5, 11.6): antes, puts, takes, refills, short takes, Scarney."""

    def __init__(self, seats: int, ante: int, same_shooter: bool) -> None:
        self.seats, self.ante, self.same_shooter = seats, ante, same_shooter
        self.pot, self.nets = 0, [0] * seats
        self.ledger: list[tuple[str, int, int]] = []
        self.shooter: int | None = None
        self.first, self.next_first, self.dd = 0, 0, False

    def _move(self, kind: str, seat: int, chips: int) -> None:
        if chips:
            self.pot += chips
            self.nets[seat] -= chips
            self.ledger.append((kind, seat, chips))

    def _everyone(self, kind: str) -> None:
        for step in range(self.seats):
            self._move(kind, (self.first + step) % self.seats, self.ante)

    def anted(self) -> str | None:
        if self.shooter is not None:
            return "round.already_anted"
        self.first = self.shooter = self.next_first
        self._everyone("ante")
        return None

    def double_down(self) -> str | None:
        if self.shooter is None:
            return "round.not_anted"
        if self.dd:
            return "double_down.already_called"
        self.dd = True
        return None

    def throw(self, faces: tuple[str, ...]) -> str | None:
        if self.shooter is None:
            return "round.not_anted"
        kind, chips = ref_class(faces)
        chips *= 2 if self.dd else 1
        self.dd = False
        shooter = self.shooter
        if kind == "scarney":
            self._move("win", shooter, -self.pot)
            self._round_over(shooter, short=False)
        elif kind == "put":
            self._move("put", shooter, chips)
            self.shooter = (shooter + 1) % self.seats
        elif kind == "take" and chips > self.pot:  # D-PT-1: a short take ends the round
            self._move("take", shooter, -self.pot)
            self._round_over(shooter, short=True)
        elif kind == "take":
            self._move("take", shooter, -chips)
            if chips and self.pot <= 5:  # 11.6, D-PT-3: one refill; a push none
                self._everyone("refill")
        return None

    def _round_over(self, winner: int, short: bool) -> None:
        stays = short and self.same_shooter
        self.next_first = winner if stays else (winner + 1) % self.seats
        self.shooter = None


@pytest.mark.parametrize("seed", range(30))
def test_put_and_take_play_matches_the_plain_pot_event_by_event(seed: int) -> None:
    """RULES.md 11.3-11.7: the ledger, the pot, the shooter and every refusal, throw by throw."""
    rng = random.Random(seed)
    seats, ante, same = 2 + seed % 5, 1 + seed % 3, seed % 4 == 3
    rules = {"ante_chips": ante}
    if same:
        rules["put_take_after_short_take"] = "same_shooter"  # type: ignore[assignment]
    state = PUT_AND_TAKE.initial_state({}, rules, seats)
    ref = RefSession(seats, ante, same)
    for _ in range(400):
        roll = rng.random()
        if roll < 0.1 or (ref.shooter is None and roll < 0.8):
            move, expected = Move("round.anted", {}), ref.anted()
        elif roll < 0.3:
            move, expected = Move("double_down.called", {}), ref.double_down()
        else:
            faces = tuple(rng.choice(FACES) for _ in range(3))
            move, expected = _throw(faces), ref.throw(faces)
        state, code = _code(PUT_AND_TAKE, state, move)
        assert code == expected, (move, code, expected)
        # the state keeps the round's movements; those before are counted (listed by /pot/)
        ledger = [(m["kind"], m["seat"], m["chips"]) for m in PUT_AND_TAKE.pot_ledger(state)]
        start = PUT_AND_TAKE.pot_ledger_start(state)
        assert start + len(ledger) == len(ref.ledger) and ledger == ref.ledger[start:]
        assert PUT_AND_TAKE.view(state)["pot"] == {"balance": ref.pot, "nets": ref.nets}
        assert state.shooter == ref.shooter and state.doubled == ref.dd
        if ref.shooter is None:
            assert PUT_AND_TAKE.current_player(state) == ref.next_first


# --- a throw's count and faces, checked as the service checks them (RULES.md 1.3, 1.4) ---------

# The dice each game throws at the start (7.5, 9.3, 11.7, 12.2, 13.3, 15.2), the faces they show,
# and the moves before a throw is due.
CUPS = {
    "straight-scarney-dice": (5, FACES, ()),
    "scarney-3000": (5, FACES, ()),
    "scarney-put-and-take": (3, FACES, (Move("round.anted", {}),)),
    "double-cameroon": (10, ("1", "2", "3", "4", "5", "6"), ()),
    "going-to-boston": (3, ("1", "2", "3", "4", "5", "6"), ()),
    "multiplication": (3, ("1", "2", "3", "4", "5", "6"), ()),
    "hearts-due": (6, ("1", "2", "3", "4", "5", "6"), ()),
}
# Faces a table may misread: every die's, and some no die of the game shows.
ANY_FACES = ("1", "2", "3", "4", "5", "6", "D", "0", "7", "H", "66")


def ref_throw_code(cup: int, faces_of_die: tuple[str, ...], faces: tuple[str, ...]) -> str | None:
    """1.3 / 1.4 and each game's state machine read plainly: a face no die shows is a bad face;
    else as many faces as dice in the cup, or the wrong count; else a throw the game scores."""
    if any(face not in faces_of_die for face in faces):
        return "throw.bad_face"
    if len(faces) != cup:
        return "throw.wrong_dice_count"
    return None


@pytest.mark.parametrize("kind", sorted(CUPS))
def test_every_count_and_face_of_a_first_throw_gets_the_plain_readings_code(kind: str) -> None:
    """Zero to 40 dice (beyond the cup, up to beyond the store's guard of 32), each face good or
    not: the code is RULES.md's (throw.wrong_dice_count, throw.bad_face), never the store's,
    until the count is absurd (event.too_large)."""
    rules: Any = registry.get(kind)
    cup, faces_of_die, before = CUPS[kind]
    state = rules.initial_state({}, make_ruleset(rules.ruleset_type, {}), 2)
    for move in before:
        state = rules.apply(state, move)
    rng = random.Random(kind)
    for count in [*range(0, 2 * cup + 3), 31, 32, 33, 40]:
        for _ in range(6):
            faces = tuple(rng.choice(faces_of_die) for _ in range(count))
            if rng.random() < 0.5 and count:
                faces = (*faces[1:], rng.choice(ANY_FACES))
            expected = "event.too_large" if count > 32 else ref_throw_code(cup, faces_of_die, faces)
            _, code = _code(rules, state, _throw(faces))
            assert code == expected, (kind, faces, code, expected)
