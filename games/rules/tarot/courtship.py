"""Courtship Rules (``courtship-rules``), four optional rules for Scarto, Tarocchi or Conference:
RULES.md 19.

Queen's Ruff (the Jack of the suit led, after its Queen was played but not led, wins against
everything), Royal Marriage (the Queen of the suit led after its King), Royal Affair (a
discarding player's Queen of another suit after the King of the suit led, or King of another suit
after the Queen of the suit led was led: D-CR-2), and Summoning Servants after a trick with a
King. The module decides a trick's winner by the precedence of 19.2 where rule 1 or 3 applies;
otherwise the base game does, and the winner is taken as recorded (recording mode, 16.4).

A Royal Affair needs to know the player could not follow suit: from the recorded hands, or from
his declaration (``"affair": true`` on ``card.played``) when the hands are not recorded.

What a hand takes and shows is declared in ``shapes``, with the servants' event types and the
names of the special plays.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from games.rules.base import (
    Move,
    check_expected,
    check_move,
)
from games.rules.errors import IllegalEvent
from games.rules.tarot import cards, recording, shapes
from games.rules.tarot.cards import TRUMP
from games.rules.tarot.recording import (
    BASE_GAMES,
    DEALT,
    DISCARDED,
    HAND_ENDED,
    PLAYED,
    WON,
    Table,
)
from games.rules.tarot.rule_modules import RecordedHandRules
from games.rules.tarot.shapes import AFFAIR, MARRIAGE, REFUSED, RUFF, SUMMONED
from games.rules.wording import player_at

KIND = "courtship-rules"
EVENT_TYPES = frozenset({DEALT, DISCARDED, PLAYED, WON, HAND_ENDED, SUMMONED, REFUSED})


@dataclass(frozen=True, slots=True)
class Ruleset:
    """House rules of Courtship Rules (Appendix E: D-TAR-3, D-CR-2)."""

    ALLOWED: ClassVar[Mapping[str, tuple[object, ...]]] = {
        "base_game": BASE_GAMES,
        "courtship_affair_queen_led": (True, False),
    }

    base_game: str | None = None
    courtship_affair_queen_led: bool = True


@dataclass(frozen=True, slots=True)
class State:
    """A hand: the table, the special plays of the trick in progress (index -> rule), and
    whether the last won trick's summons (one per trick, D-CR-3) is still open."""

    table: Table
    ruleset: Ruleset
    specials: tuple[tuple[int, str], ...] = ()
    # every trick's specials, in trick order, for the view
    history: tuple[tuple[tuple[int, str], ...], ...] = ()
    summons_open: bool = False
    summons: tuple[dict[str, Any], ...] = ()

    @property
    def over(self) -> bool:
        return self.table.over


class CourtshipRules(RecordedHandRules):
    """The rule engine of one hand under Courtship Rules, in recording mode."""

    kind = KIND
    title = "Courtship Rules"
    ruleset_type: type[Any] = Ruleset
    state_type = State
    seats_verb = "are kept for"
    events = shapes.COURTSHIP_EVENTS
    view_shape = shapes.COURTSHIP_VIEW

    def apply(self, state: State, move: Move) -> State:
        check_move(move, EVENT_TYPES, "Courtship Rules", state.table.over, cards.HAND_OVER)
        check_expected(move.type, self.expected(state))
        handler = _HANDLERS[move.type]
        state = handler(state, move.data)
        if move.type not in (SUMMONED, REFUSED, WON):
            state = dataclasses.replace(state, summons_open=False)
        return state

    def expected(self, state: State) -> list[str]:
        table = state.table
        if table.over:
            return []
        if table.trick_full:
            return [WON]
        summons = [SUMMONED, REFUSED] if state.summons_open else []
        if not table.started:
            return [DEALT, DISCARDED, PLAYED] if table.hands is None else [DISCARDED, PLAYED]
        can_end = table.hands is None and not table.current.plays
        return [PLAYED, *summons, *([HAND_ENDED] if can_end else [])]

    def legal_events(self, state: State) -> list[Move] | None:
        """Card plays from recorded hands, the winners 19.2 allow, every summons; else None."""
        table = state.table
        if table.over:
            return []
        if table.trick_full:
            decided = decided_winner(table.current.plays, state.specials)
            seats = [decided] if decided is not None else [s for s, _ in table.current.plays]
            return [Move(WON, {"winner": s}) for s in seats]
        plays = recording.table_moves(table)
        if plays is None:
            return None
        return [*plays, *_summons_moves(state)]

    def module_view(self, state: State) -> dict[str, Any]:
        return {
            "specials": [
                [{"play": i, "rule": rule} for i, rule in trick]
                for trick in (*state.history, state.specials)
            ],
            "summons_open": state.summons_open,
            "summons": list(state.summons),
        }


# --- special plays (19.1 rules 1-3) --------------------------------------------------------------


def special_play(
    trick: tuple[str, ...], card: str, could_follow: bool | None, queen_led_only: bool
) -> str | None:
    """Which courtship rule ``card``, played to ``trick``, invokes (None for an ordinary play).

    ``could_follow`` is whether the player held the suit led (None: unknown and undeclared).
    """
    if not trick or card not in cards.SUIT_CARDS:
        return None
    led = cards.suit_of(trick[0])
    if led in (None, TRUMP):
        return None
    rank, suit = cards.rank_of(card), card[-1]
    if suit == led:
        if rank == "J" and f"Q{led}" in trick[1:]:
            return RUFF
        if rank == "Q" and f"K{led}" in trick:
            return MARRIAGE
        return None
    if could_follow is not False:
        return None
    queen_led = trick[0] == f"Q{led}" if queen_led_only else f"Q{led}" in trick
    if (rank == "Q" and f"K{led}" in trick) or (rank == "K" and queen_led):
        return AFFAIR
    return None


def decided_winner(
    plays: tuple[tuple[int, str], ...], specials: tuple[tuple[int, str], ...]
) -> int | None:
    """19.2: a Queen's Ruff Jack wins; else with a trump the base game decides; else the last
    royal card (Marriage or Affair) wins (D-CR-1); else the base game decides."""
    rules = dict(specials)
    for index, rule in rules.items():
        if rule == RUFF:
            return plays[index][0]
    if any(cards.is_trump(c) or c in (cards.GOOD, cards.EVIL) for _, c in plays):
        return None
    royals = [i for i, rule in rules.items() if rule in (MARRIAGE, AFFAIR)]
    return plays[max(royals)][0] if royals else None


def _played(state: State, data: Mapping[str, Any]) -> State:
    """``card.played {"seat", "card", "affair"?}``; ``affair: true`` declares he cannot follow."""
    table = state.table
    seat, card = recording.read_play(table, data)
    declared = data.get("affair", False)
    if not isinstance(declared, bool):
        raise IllegalEvent("event.bad_data", "'affair' must be true or false.", field="affair")
    trick = table.current.cards
    could_follow = _could_follow(table, seat, trick)
    if declared and could_follow is True:
        raise IllegalEvent(
            "courtship.affair_not_allowed",
            f"{player_at(seat)} holds the suit led: {cards.name(card)} cannot be a Royal Affair.",
            card=card,
        )
    if could_follow is None and declared:
        could_follow = False
    rule = special_play(trick, card, could_follow, state.ruleset.courtship_affair_queen_led)
    if declared and rule != AFFAIR:
        raise IllegalEvent(
            "courtship.affair_not_allowed",
            f"{cards.name(card)} is no Royal Affair here: that needs the King of the suit led "
            "played (for a Queen of another suit) or its Queen led (for a King of another suit).",
            card=card,
        )
    specials = state.specials
    if rule is not None:
        specials = (*specials, (len(trick), rule))
    table = recording.table_play(table, seat, card)
    return dataclasses.replace(state, table=table, specials=specials)


def _could_follow(table: Table, seat: int, trick: tuple[str, ...]) -> bool | None:
    if table.hands is None or not trick:
        return None
    led = cards.suit_of(trick[0])
    return any(cards.suit_of(c) == led for c in table.hands[seat])


def _won(state: State, data: Mapping[str, Any]) -> State:
    table = state.table
    decided = decided_winner(table.current.plays, state.specials)
    winner = recording.read_winner(table, data, decided)
    has_king = any(cards.is_king(c) for c in table.current.cards)
    return dataclasses.replace(
        state,
        table=recording.table_win(table, winner),
        specials=(),
        history=(*state.history, state.specials),
        summons_open=has_king,
    )


def _ended(state: State, data: Mapping[str, Any]) -> State:
    return dataclasses.replace(state, table=recording.table_end(state.table), summons_open=False)


# --- Summoning Servants (19.1 rule 4, D-CR-3, D-CR-4) --------------------------------------------


def servant_of(table: Table, king: str) -> str:
    """The Jack of the King's suit, unless played earlier or discarded (D-CR-4): the Cavalier."""
    jack = f"J{king[-1]}"
    return f"C{king[-1]}" if jack in table.seen() else jack


def _summons_refusal(state: State, card: str, from_seat: int) -> IllegalEvent | None:
    table = state.table
    trick = table.tricks[-1]
    king = f"K{card[-1]}" if card in cards.SUIT_CARDS else ""
    if king not in trick.cards or cards.rank_of(card) not in ("J", "C"):
        return IllegalEvent(
            "servant.no_king",
            f"{cards.name(card)} serves no King of the last trick ({cards.names(trick.cards)}).",
            card=card,
        )
    due = servant_of(table, king)
    if card != due or card in table.seen():
        return IllegalEvent(
            "servant.wrong_card",
            f"The servant of {cards.name(king)} to summon is {cards.name(due)}, "
            f"not {cards.name(card)}.",
            card=card,
        )
    if table.hands is not None and card not in table.hands[from_seat]:
        return IllegalEvent(
            "play.card_not_held",
            f"{player_at(from_seat)} does not hold {cards.name(card)}.",
            card=card,
        )
    if from_seat == trick.winner and trick.seat_of(king) == from_seat:
        return IllegalEvent(
            "servant.own_hand",
            f"{player_at(from_seat)} played {cards.name(king)} himself: he cannot summon its "
            "servant from his own hand.",
        )
    return None


def _summoned(state: State, data: Mapping[str, Any]) -> State:
    """``servant.summoned {"card", "from_seat"}``: the servant joins the last trick and its
    holder takes back the card he had played to it."""
    table = state.table
    card = cards.read_card(data.get("card"), "card", table.pack)
    from_seat = cards.read_seat(data, "from_seat", table.seats)
    refusal = _summons_refusal(state, card, from_seat)
    if refusal is not None:
        raise refusal
    trick = table.tricks[-1]
    returned = next(c for s, c in trick.plays if s == from_seat)
    plays = tuple((s, card if s == from_seat else c) for s, c in trick.plays)
    hands = table.hands
    if hands is not None:
        hands = tuple(
            (*cards.without(h, (card,)), returned) if s == from_seat else h
            for s, h in enumerate(hands)
        )
    tricks = (*table.tricks[:-1], dataclasses.replace(trick, plays=plays))
    record = {"card": card, "from_seat": from_seat, "returned": returned}
    return dataclasses.replace(
        state,
        table=dataclasses.replace(table, tricks=tricks, hands=hands),
        summons_open=False,
        summons=(*state.summons, record),
    )


def _refused(state: State, data: Mapping[str, Any]) -> State:
    """``servant.refused {"holder", "card"?}``: the Cavalier was called, yet ``holder`` still
    holds the Jack and says so; nothing is summoned."""
    table = state.table
    holder = cards.read_seat(data, "holder", table.seats)
    jacks = [
        f"J{c[-1]}"
        for c in table.tricks[-1].cards
        if cards.is_king(c) and f"J{c[-1]}" not in table.seen()
    ]
    if "card" in data:
        jack = cards.read_card(data.get("card"), "card", table.pack)
        jacks = [j for j in jacks if j == jack]
    held = table.hands is None or any(j in table.hands[holder] for j in jacks)
    if not jacks or not held:
        raise IllegalEvent(
            "servant.wrong_card",
            f"{player_at(holder)} holds no Jack that a King of the last trick could summon.",
            holder=holder,
        )
    return dataclasses.replace(
        state, summons_open=False, summons=(*state.summons, {"refused_by": holder})
    )


def _summons_moves(state: State) -> list[Move]:
    if not state.summons_open or state.table.hands is None:
        return []
    moves = []
    for king in (c for c in state.table.tricks[-1].cards if cards.is_king(c)):
        servant = servant_of(state.table, king)
        for seat in range(state.table.seats):
            if _summons_refusal(state, servant, seat) is None:
                moves.append(Move(SUMMONED, {"card": servant, "from_seat": seat}))
    return moves


def _dealt(state: State, data: Mapping[str, Any]) -> State:
    return dataclasses.replace(state, table=recording.table_deal(state.table, data))


def _discarded(state: State, data: Mapping[str, Any]) -> State:
    return dataclasses.replace(state, table=recording.table_discard(state.table, data))


_HANDLERS = {
    DEALT: _dealt,
    DISCARDED: _discarded,
    PLAYED: _played,
    WON: _won,
    HAND_ENDED: _ended,
    SUMMONED: _summoned,
    REFUSED: _refused,
}

COURTSHIP_RULES = CourtshipRules()
