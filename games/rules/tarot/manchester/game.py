"""Manchester Piccadilly (``manchester-piccadilly``) and Manchester Truffle
(``manchester-truffle``), two-player tarot games: RULES.md sections 20 and 21.

A hand is played in two parts. Part one (Manchester): 13 cards each, announced start values,
three discards, ten tricks of two cards. Part two: Piccadilly plays four hands of 13 (each player
a hand and a dummy) for 13 tricks; Truffle plays three hands of 16 (Dealer, a dummy played in turn
by both, Opposite) for 16 tricks. The hand total is first score + second score; the higher total
wins the difference in game points.

Deals arrive recorded: the shuffled pack (``pack``, dealt by the service in packets, Opposite
first: D-MP-2; Piccadilly's four hands go Opposite, Dealer, Opposite, Dealer; Truffle's Opposite,
Dealer, dummy) or the hands themselves.

One game stream is one hand; a game of ``mp_hands`` hands is a match of that many hands
(``ManchesterMatch``), with the dealer alternating (RULES.md 20.1, D-MP-6). The state machine of
20.5 is per hand, so a hand is the natural stream; the match adds up the game points.
What a hand takes and shows (its events, view, setup and report) is declared in ``shapes``.

Hands are named, clockwise: part one ``dealer``, ``opposite``; Piccadilly ``dealer``,
``opposite``, ``dealer_dummy``, ``opposite_dummy``; Truffle ``dealer``, ``dummy``, ``opposite``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.rules.base import (
    DealPlan,
    DealTarget,
    GameRules,
    Move,
    Result,
    SeatScore,
    check_move,
    make_ruleset,
)
from games.rules.errors import BadSetup, IllegalEvent
from games.rules.tarot import cards
from games.rules.tarot.manchester.play import (
    legal_discards,
    legal_truffle_discards,
    on_announced,
    on_chosen,
    on_dealt,
    on_discarded,
    seat_order,
)
from games.rules.tarot.manchester.shapes import REPORT, SETUP, manchester_events, manchester_view
from games.rules.tarot.manchester.state import (
    ANNOUNCED,
    CHOSEN,
    DEALT,
    DISCARDED,
    EVENT_TYPES,
    HAND_OVER,
    M_ANNOUNCE,
    M_DEAL,
    M_DISCARD,
    M_PLAY,
    M_SCORE,
    P_CHOOSE,
    P_DEAL,
    P_DISCARD,
    P_PLAY,
    P_SCORE,
    PAID,
    PICCADILLY,
    PLAYED,
    TRUFFLE,
    WON,
    Ruleset,
    State,
    TruffleRuleset,
    dummies_view,
    game_points,
    hand_totals,
    score_sheet,
)
from games.rules.tarot.manchester.tricks import (
    on_paid,
    on_played,
    on_won,
    payment_choices,
    player_of,
    trick_winner,
)


class ManchesterRules(GameRules):
    """The rule engine of one hand of ``manchester-piccadilly`` or ``manchester-truffle``."""

    min_seats = 2
    max_seats = 2

    setup_shape = SETUP

    def __init__(self, kind: str, title: str, ruleset_type: type[Any]) -> None:
        self.kind = kind
        self.title = title
        self.ruleset_type = ruleset_type
        self.events = manchester_events(kind)
        self.view_shape = manchester_view(kind)
        self.report_shape = REPORT

    def deal_plan(self, phase: str | None, ruleset: Mapping[str, Any]) -> DealPlan:
        """Part one: 13 cards to each seat from the whole pack (20.2). Part two, from what part
        one left: Piccadilly, each seat's two hands of 13 (20.3); Truffle, 16 to each seat and
        the dummy, then the talon Dealer takes (21.1, D-MT-1)."""
        if phase == M_DEAL:
            seats = tuple(DealTarget("seat", seat=s, count=13) for s in (0, 1))
            return DealPlan(seats, {"hands": [0, 1]})
        if self.kind == PICCADILLY:
            hands = tuple(
                DealTarget("hand", seat=s, hand=n, count=13) for s in (0, 1) for n in (1, 2)
            )
            return DealPlan(hands, {"hands": [[0, 1], [2, 3]]}, whole_pack=False)
        talon = int(ruleset.get("truffle_talon", 3))
        targets = (
            DealTarget("seat", seat=0, count=16),
            DealTarget("seat", seat=1, count=16),
            DealTarget("dummy", count=16),
            DealTarget("dealer_talon", count=talon),
        )
        return DealPlan(targets, {"hands": [0, 1], "dummy": 2, "talon": 3}, whole_pack=False)

    def start(self, setup: Mapping[str, Any], ruleset: Any, seats: int) -> State:
        """A hand awaiting its deal; ``setup["dealer"]`` (seat 0 by default) deals it."""
        if seats != 2:
            raise BadSetup("game.bad_seats", f"{self.title} has two players, not {seats}.")
        rules = (
            ruleset
            if isinstance(ruleset, self.ruleset_type)
            else make_ruleset(self.ruleset_type, ruleset)
        )
        dealer = setup.get("dealer", 0)
        if type(dealer) is not int or dealer not in (0, 1):
            raise BadSetup(
                "setup.bad_dealer", f"'dealer' must be the seat number 0 or 1, not {dealer!r}."
            )
        return State(self.kind, rules, dealer)

    def apply(self, state: State, move: Move) -> State:
        """The state after ``move``, or IllegalEvent with a RULES.md 20.5 refusal code."""
        check_move(move, EVENT_TYPES, self.kind, state.phase == HAND_OVER, cards.HAND_OVER)
        allowed = self.expected(state)
        if move.type not in allowed:
            raise IllegalEvent(
                "event.out_of_order",
                f"{move.type} cannot be recorded now ({state.phase}); expected "
                f"{', '.join(allowed)}.",
                expected=allowed,
            )
        return _HANDLERS[move.type](state, move.data)

    def expected(self, state: State) -> list[str]:
        if state.phase in (M_PLAY, P_PLAY) and state.part is not None:
            return [WON] if state.part.trick_full else [PLAYED]
        return list(_EXPECTED.get(state.phase, ()))

    def legal_events(self, state: State) -> list[Move] | None:
        """Every legal move, except a deal from an unrecorded shuffle (None then)."""
        phase = state.phase
        if phase == HAND_OVER:
            return []
        if phase in (M_DEAL, P_DEAL):
            return [Move(DEALT, {})] if phase == P_DEAL and state.stock_ordered else None
        if phase == M_ANNOUNCE:
            return [
                Move(ANNOUNCED, {"seat": s, "value": cards.points_of(state.dealt[s])})
                for s in seat_order(state)
                if state.start_values[s] is None
            ]
        if phase == M_DISCARD:
            return legal_discards(state)
        if phase == P_CHOOSE:
            return [
                Move(CHOSEN, {"seat": s, "dummy": i})
                for s in seat_order(state)
                if state.dummies[s] is None
                for i in (0, 1)
            ]
        if phase == P_DISCARD:
            return legal_truffle_discards(state)
        part = state.part
        assert part is not None
        if phase in (M_SCORE, P_SCORE):
            return [Move(PAID, {"card": c}) for c in payment_choices(part)]
        if part.trick_full:
            winner = trick_winner(part)
            return [Move(WON, {"winner": part.labels[winner]})]
        hand = part.hands[part.to_play]
        return [Move(PLAYED, {"card": c}) for c in cards.legal_cards(hand, part.current.cards)]

    def current_player(self, state: State) -> int | None:
        phase = state.phase
        if phase == HAND_OVER:
            return None
        if phase in (M_DEAL, P_DEAL, P_DISCARD):
            return state.dealer
        if phase == M_ANNOUNCE:
            return next(s for s in seat_order(state) if state.start_values[s] is None)
        if phase == M_DISCARD:
            return next(s for s in seat_order(state) if state.discards[s] is None)
        if phase == P_CHOOSE:
            return next(s for s in seat_order(state) if state.dummies[s] is None)
        part = state.part
        assert part is not None
        if phase in (M_SCORE, P_SCORE):
            assert part.fool_debt is not None
            return part.fool_debt[0]
        return player_of(state, part, part.to_play)

    def is_terminal(self, state: State) -> bool:
        return state.phase == HAND_OVER

    def scores(self, state: State) -> tuple[SeatScore, ...]:
        """Game points of the hand (the winner's difference) once it is over; 0 before."""
        game = game_points(state) if state.phase == HAND_OVER else (0, 0)
        return tuple(SeatScore(seat, game[seat]) for seat in (0, 1))

    def result(self, state: State) -> Result | None:
        if state.phase != HAND_OVER:
            return None
        totals = hand_totals(state)
        best = max(totals)
        winners = tuple(s for s in (0, 1) if totals[s] == best)
        return Result(self.scores(state), winners)

    def view(self, state: State) -> dict[str, Any]:
        part = None if state.part is None else state.part.as_dict()  # made once for both keys
        return {
            "phase": state.phase,
            "dealer": state.dealer,
            "opposite": state.opposite,
            "part_one": None if state.first is None else state.first.as_dict(),
            "part": part,
            "hands": {} if part is None else part["hands"],
            "dummies": dummies_view(state),
            # Piccadilly while the dummies are chosen: each seat's two hands, as dummy.chosen's
            # 0 and 1 name them, so a page can show what each choice means.
            "options": [[list(h) for h in pair] for pair in state.options]
            if state.phase == P_CHOOSE
            else [],
            "dealt": [list(h) for h in state.dealt],
            "discards": [None if d is None else list(d) for d in state.discards],
            "talon": list(state.talon),
            "dead": list(state.dead),
            "truffle_discards": list(state.truffle_discards),
            "stock": len(state.stock),
            # Not "scores": the game JSON's own per-seat ``scores`` would hide it.
            "hand_sheet": score_sheet(state),
        }

    def match_report(self, state: State) -> dict[str, Any]:
        """The hand's figures for the match sheet."""
        return {"dealer": state.dealer, **score_sheet(state)}


_HANDLERS = {
    DEALT: on_dealt,
    ANNOUNCED: on_announced,
    DISCARDED: on_discarded,
    CHOSEN: on_chosen,
    PLAYED: on_played,
    WON: on_won,
    PAID: on_paid,
}
_EXPECTED = {
    M_DEAL: (DEALT,),
    M_ANNOUNCE: (ANNOUNCED,),
    M_DISCARD: (DISCARDED,),
    M_PLAY: (PLAYED, WON),
    M_SCORE: (PAID,),
    P_DEAL: (DEALT,),
    P_CHOOSE: (CHOSEN,),
    P_DISCARD: (DISCARDED,),
    P_PLAY: (PLAYED, WON),
    P_SCORE: (PAID,),
}


PICCADILLY_RULES = ManchesterRules(PICCADILLY, "Manchester Piccadilly", Ruleset)
TRUFFLE_RULES = ManchesterRules(TRUFFLE, "Manchester Truffle", TruffleRuleset)
