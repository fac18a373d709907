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

Hands are named, clockwise: part one ``dealer``, ``opposite``; Piccadilly ``dealer``,
``opposite``, ``dealer_dummy``, ``opposite_dummy``; Truffle ``dealer``, ``dummy``, ``opposite``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.rules.base import (
    DealPlan,
    DealTarget,
    Move,
    Result,
    SeatScore,
    check_move,
    make_ruleset,
)
from games.rules.errors import BadSetup, IllegalEvent
from games.rules.shapes import Integer, ListOf, Nullable, Record, Shape, Text, one_of, record
from games.rules.tarot import cards
from games.rules.tarot.cards import CARD
from games.rules.tarot.manchester.play import (
    legal_discards,
    legal_truffle_discards,
    on_announced,
    on_chosen,
    on_dealt,
    on_discarded,
    seat_order,
)
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
    PART_ONE_HANDS,
    PICCADILLY,
    PICCADILLY_HANDS,
    PLAYED,
    TRUFFLE,
    TRUFFLE_HANDS,
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

# --- what the games take and show (games/rules/shapes.py) --------------------------------------

SEAT = Integer(0, 1, doc="seat 0 or 1")
PART_ONE_CARDS, PART_ONE_TRICKS = 13, 10  # each seat's cards in part one, and its tricks
SET_ASIDE = 52  # the cards left for part two
# Part two: Piccadilly's hands of 13 (13 tricks), Truffle's of 16 (16 tricks).
PART_TWO_CARDS = {PICCADILLY: 13, TRUFFLE: 16}
PART_TWO_HANDS = {PICCADILLY: PICCADILLY_HANDS, TRUFFLE: TRUFFLE_HANDS}
PART_ONE = (M_DEAL, M_ANNOUNCE, M_DISCARD, M_PLAY, M_SCORE)
PHASES = {
    PICCADILLY: (*PART_ONE, P_DEAL, P_CHOOSE, P_PLAY, P_SCORE, HAND_OVER),
    TRUFFLE: (*PART_ONE, P_DEAL, P_DISCARD, P_PLAY, P_SCORE, HAND_OVER),
}
# A start value: the card points of 13 cards, each worth 1 to 5 (16.2): at most eleven cards of
# 5 (the Honours, Kings and Aces) and two Queens.
START_VALUE = Integer(13, 63, doc="the card points of the seat's 13 cards (20.2.2)")
PILES = ("seat 0", "seat 1", "dummy")  # the trick piles, as fool_debt names them


def cards_of(count: int, doc: str, shortest: int | None = None) -> ListOf:
    """``count`` cards (``shortest`` to ``count`` if given), each once."""
    return ListOf(CARD, count, count if shortest is None else shortest, doc=doc)


def manchester_events(kind: str) -> dict[str, Record]:
    """The data of each event a hand of ``kind`` takes (RULES.md 20.5)."""
    two = PART_TWO_CARDS[kind]
    hand = Text(14, PART_TWO_HANDS[kind], doc="a hand, by name")
    part_one = ListOf(
        cards_of(PART_ONE_CARDS, "a seat's 13 cards"),
        2,
        2,
        doc="part one: each seat's 13 cards, in seat order",
    )
    pack = cards_of(len(cards.PACK), "part one: the whole pack, shuffled, top card first")
    if kind == PICCADILLY:
        dealt = record(
            "A deal. Part one: the whole shuffled pack (dealt in packets, Opposite first: "
            "D-MP-2), or each seat's cards. Part two: each seat's two hands, or nothing when "
            "part one gave the pack (its rest is dealt).",
            optional=("pack", "hands"),
            pack=pack,
            hands=one_of(
                part_one,
                ListOf(
                    ListOf(cards_of(two, "a hand of 13"), 2, 2, doc="a seat's two hands"),
                    2,
                    2,
                    doc="part two: each seat's two hands of 13, in seat order",
                ),
                doc="each seat's cards",
            ),
        )
    else:
        dealt = record(
            "A deal. Part one: the whole shuffled pack (dealt in packets, Opposite first: "
            "D-MP-2), or each seat's cards. Part two: each seat's 16 cards, the dummy's and the "
            "talon Dealer takes, or nothing when part one gave the pack (its rest is dealt).",
            optional=("pack", "hands", "dummy", "talon"),
            pack=pack,
            hands=one_of(
                part_one,
                ListOf(
                    cards_of(two, "a seat's 16 cards"),
                    2,
                    2,
                    doc="part two: each seat's 16 cards, in seat order",
                ),
                doc="each seat's cards",
            ),
            dummy=cards_of(two, "part two: the dummy's 16 cards"),
            talon=cards_of(4, "part two: the talon Dealer takes, truffle_talon (3 or 4) cards", 3),
        )
    events = {
        DEALT: dealt,
        ANNOUNCED: record(
            "A seat's start value (Even Stevens, 20.2.2).", seat=SEAT, value=START_VALUE
        ),
        DISCARDED: record(
            "A discard: each seat's three in part one (20.2.3)"
            + ("." if kind == PICCADILLY else "; in part two, Dealer's for the talon (21.1)."),
            optional=("shown",),
            seat=SEAT,
            cards=cards_of(3 if kind == PICCADILLY else 4, "the cards discarded", 3),
            shown=ListOf(
                CARD,
                len(cards.PACK),
                doc="the cards shown, each once: those of the trumps, Honours and Kings "
                "discarded"
                + ("" if kind == PICCADILLY else ", and every card of Dealer's part-two discard")
                + " (none if left out)",
            ),
        ),
        PLAYED: record(
            "A card played by the hand on turn; its hand and seat, if given, are checked.",
            optional=("hand", "seat"),
            card=CARD,
            hand=hand,
            seat=Integer(0, 1, doc="the seat playing the hand"),
        ),
        WON: record("The trick's winner, as the rules give it.", winner=hand),
        PAID: record(
            "The Fool's owner pays the winner of its trick a card of his pile: an empty one if "
            "he has one, the Fool itself if he won no trick (20.2.5, 20.3.4).",
            card=CARD,
        ),
    }
    if kind == PICCADILLY:
        events[CHOSEN] = record(
            "Which of his two hands a seat makes his dummy (20.3.1).",
            seat=SEAT,
            dummy=Integer(0, 1, doc="0 or 1: his first or second hand as dealt"),
        )
    return events


def _named_hands(labels: tuple[str, ...], most: int, doc: str) -> Record:
    hands = {label: cards_of(most, f"the {label} hand's cards", 0) for label in labels}
    return Record(hands, frozenset(), doc)


def _part_view(labels: tuple[str, ...], most: int, pile: int, doc: str) -> Record:
    """``Part.as_dict``: named hands of at most ``most`` cards, as many tricks; piles of at most
    ``pile`` cards."""
    hand = Text(14, labels, doc="a hand, by name")
    trick = record(
        "A trick: the hand that led it, its cards in play order, the hand that won it.",
        leader=hand,
        plays=ListOf(
            record("A card of the trick.", hand=hand, card=CARD), len(labels), doc="in order"
        ),
        winner=Nullable(hand, doc="the winning hand, null until won"),
    )
    return record(
        doc,
        hands=_named_hands(labels, most, "each hand's cards, by name"),
        tricks=ListOf(trick, most, doc="the tricks won, in order"),
        trick=trick,
        piles=ListOf(
            cards_of(pile, "a pile's cards", 0),
            3,
            3,
            doc="the trick piles of seat 0, seat 1 and (Truffle) the dummy",
        ),
        fool_debt=Nullable(
            record(
                "The Fool's owner owes its trick's winner a card.",
                owner=SEAT,
                to=Text(6, PILES, doc="the pile owed"),
            ),
            doc="the Fool's debt until paid at the end of the part, or null",
        ),
    )


def _pair(of: Shape, doc: str) -> ListOf:
    return ListOf(of, 2, 2, doc=doc)


def _sheet(over: bool) -> dict[str, Shape]:
    """``score_sheet``'s figures; ``over``: a finished hand's, every one given."""

    def given(shape: Shape, doc: str) -> Shape:
        return shape if over else Nullable(shape, doc=doc)

    return {
        "pile_points": given(
            ListOf(Integer(0, cards.PACK_POINTS), 3, 3, doc="seat 0, seat 1, the Truffle dummy"),
            "the card points of the current part's trick piles; null when no part is in play",
        ),
        "tricks_won": given(
            ListOf(Integer(0, 16), 3, 3, doc="seat 0, seat 1, the Truffle dummy"),
            "the current part's tricks won; null when no part is in play",
        ),
        "start_values": _pair(
            START_VALUE if over else Nullable(START_VALUE),
            "each seat's start value" + ("" if over else ", null until announced"),
        ),
        "first": given(
            _pair(Integer(-63, 63), "each seat's pile points - start value (they sum to 0)"),
            "part one's scores, null until it is over",
        ),
        "second": given(
            _pair(Integer(0), "each seat's pile points + one per trick won"),
            "part two's scores, null until the hand is over",
        ),
        "hand_totals": given(
            _pair(Integer(-63), "each seat's first + second score"),
            "the hand totals, null until the hand is over",
        ),
        "game_points": given(
            _pair(Integer(0), "the winner's difference of the hand totals, the other's 0"),
            "the game points, null until the hand is over",
        ),
    }


def manchester_view(kind: str) -> Record:
    """``ManchesterRules.view``, at every phase."""
    two = PART_TWO_CARDS[kind]
    labels = PART_TWO_HANDS[kind]
    picc = kind == PICCADILLY
    part_one = _part_view(
        PART_ONE_HANDS, PART_ONE_TRICKS, 2 * PART_ONE_CARDS, "Part one: ten tricks of two cards."
    )
    part_two = _part_view(labels, two, SET_ASIDE, f"Part two: {two} tricks of {len(labels)} cards.")
    nothing = record("Empty: nothing to show at this phase.")
    return record(
        f"A hand of Manchester {'Piccadilly' if picc else 'Truffle'}: its phase (20.5), its parts, "
        "deals and discards, and its sheet.",
        phase=Text(10, PHASES[kind], doc="the hand's phase (20.5)"),
        dealer=SEAT,
        opposite=SEAT,
        part_one=Nullable(part_one, doc="part one once it is over, else null"),
        part=Nullable(one_of(part_one, part_two), doc="the part in play (or over), or null"),
        hands=one_of(
            nothing,
            part_one.fields["hands"],
            part_two.fields["hands"],
            doc="the part's hands by name, as part.hands (none while no part is in play)",
        ),
        dummies=one_of(
            nothing,
            _named_hands(tuple(h for h in labels if "dummy" in h), two, "the dummies' cards"),
            doc="part two's dummies, face up, by name (none before part two's play)",
        ),
        options=ListOf(
            _pair(cards_of(two, f"a hand of {two}"), "the seat's hands 0 and 1"),
            2 if picc else 0,
            doc="while the dummies are chosen, each seat's two hands (dummy.chosen's 0 and 1)"
            if picc
            else "always empty: Truffle's dummy is not chosen",
        ),
        dealt=ListOf(
            cards_of(PART_ONE_CARDS, "a seat's 13 cards"),
            2,
            doc="part one's cards of seat 0 and seat 1 as dealt (none before the deal)",
        ),
        discards=_pair(
            Nullable(cards_of(3, "the seat's three discards")),
            "each seat's part-one discards, null until made",
        ),
        talon=ListOf(CARD, 0 if picc else 4, doc="Truffle: the talon Dealer takes"),
        dead=ListOf(CARD, 0 if picc else 1, doc="Truffle: the card left over (D-MT-1)"),
        truffle_discards=ListOf(CARD, 0 if picc else 4, doc="Truffle: Dealer's discards"),
        stock=Integer(0, SET_ASIDE, doc="the number of cards set aside for part two"),
        hand_sheet=Record(
            _sheet(over=False),
            frozenset(),
            "The hand's figures: piles so far, start values, first and second scores, totals.",
        ),
    )


REPORT = Record(
    {"dealer": SEAT, **_sheet(over=True)},
    frozenset(),
    "A finished hand's dealer and figures, for the match's sheet (20.4).",
)
SETUP = record(
    "Who deals the hand.",
    optional=("dealer",),
    dealer=Integer(0, 1, doc="the dealer's seat (seat 0 if left out); a match alternates it"),
)


class ManchesterRules:
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

    def initial_state(self, setup: Mapping[str, Any], ruleset: Any, seats: int) -> State:
        """A hand awaiting its deal; ``setup["dealer"]`` (seat 0 by default) deals it."""
        if seats != 2:
            raise BadSetup("game.bad_seats", f"{self.kind} has two players, not {seats}.")
        rules = (
            ruleset
            if isinstance(ruleset, self.ruleset_type)
            else make_ruleset(self.ruleset_type, ruleset)
        )
        if setup is not None and not isinstance(setup, Mapping):
            raise BadSetup("setup.not_an_object", "The setup must be a JSON object.")
        dealer = (setup or {}).get("dealer", 0)
        if type(dealer) is not int or dealer not in (0, 1):
            raise BadSetup("setup.bad_dealer", f"'dealer' must be seat 0 or 1, not {dealer!r}.")
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
