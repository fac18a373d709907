"""Recording mode (RULES.md 16.3-16.4): a hand of a base game the seeds do not describe, Scarto,
Tarocchi or Conference (the ruleset's ``base_game``, required: D-TAR-3), recorded trick by trick
for the rule modules Tontine (17), the Last Laugh (18) and Courtship Rules (19).

The table checks what needs no base game: the deal and the discards before the first card; each
card played on turn, once, and from the seat's hand when the hands are recorded; a complete trick
before its winner, who is taken as recorded unless the module decides (16.3); the end of the
hand after a won trick, or once the recorded hands are played out. Each module adds its own rules
on top and keeps its own state beside the ``Table``. What a recorded hand takes and shows (its
events' data, setup and view) is declared in ``shapes``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from games.rules.base import Move, check_seat_count, make_ruleset
from games.rules.errors import BadSetup, IllegalEvent
from games.rules.tarot.cards import (
    CONFERENCE_PACK,
    PACK,
    Trick,
    check_distinct,
    name,
    names,
    read_card,
    read_cards,
    read_seat,
    without,
)
from games.rules.wording import player_at

DEALT, DISCARDED, PLAYED, WON, HAND_ENDED = (
    "cards.dealt",
    "cards.discarded",
    "card.played",
    "trick.won",
    "hand.ended",
)
BASE_GAMES = ("scarto", "tarocchi", "conference")

MOST_SEATS = 6  # the rule modules are kept for 2 to 6 players


@dataclass(frozen=True, slots=True)
class Table:
    """A hand of a base game recorded trick by trick; hands are None when not recorded."""

    seats: int
    pack: tuple[str, ...] = PACK
    hands: tuple[tuple[str, ...], ...] | None = None
    talon: tuple[str, ...] = ()
    discards: tuple[tuple[str, ...], ...] = ()
    tricks: tuple[Trick, ...] = ()
    current: Trick = Trick(0)
    over: bool = False

    @property
    def started(self) -> bool:
        return bool(self.tricks or self.current.plays)

    @property
    def trick_full(self) -> bool:
        return len(self.current.plays) == self.seats

    @property
    def to_play(self) -> int:
        return (self.current.leader + len(self.current.plays)) % self.seats

    def seen(self) -> set[str]:
        """Every card played or discarded so far this hand."""
        cards = {c for trick in (*self.tricks, self.current) for c in trick.cards}
        return cards | {c for pile in self.discards for c in pile}

    def pile(self, seat: int) -> tuple[str, ...]:
        """The cards of the tricks ``seat`` won, in order (the module may adjust them)."""
        return tuple(c for t in self.tricks if t.winner == seat for c in t.cards)

    def as_dict(self) -> dict[str, Any]:
        return {
            "hands": None if self.hands is None else [list(h) for h in self.hands],
            "talon": list(self.talon),
            "discards": [list(d) for d in self.discards],
            "tricks": [t.as_dict() for t in self.tricks],
            "trick": self.current.as_dict(),
            "to_play": None if self.over or self.trick_full else self.to_play,
        }


def new_table(setup: Any, seats: int, base_game: str) -> Table:
    """A table whose first trick is led by ``setup["leader"]`` (seat 0 by default, RULES.md 0.5)."""
    leader = setup.get("leader", 0) if isinstance(setup, Mapping) else 0
    if not isinstance(leader, int) or isinstance(leader, bool) or not 0 <= leader < seats:
        raise BadSetup("setup.bad_leader", f"'leader' must be a seat from 0 to {seats - 1}.")
    pack = CONFERENCE_PACK if base_game == "conference" else PACK
    return Table(seats, pack, discards=((),) * seats, current=Trick(leader))


def check_base_game(ruleset: Any, kind: str) -> None:
    """``base_game`` is required (D-TAR-3): the ruleset default is None, refused here."""
    if ruleset.base_game not in BASE_GAMES:
        raise BadSetup(
            "ruleset.base_game_required",
            f"{kind} is a rule module: its ruleset must name base_game ({', '.join(BASE_GAMES)}).",
            parameter="base_game",
        )


def start_hand(
    engine: Any, setup: Any, ruleset: Any, seats: int, name: str, verb: str
) -> tuple[Any, Table]:
    """The ruleset and the table of a recorded hand of a rule module (Courtship Rules, Last
    Laugh, Tontine): base_game required first, then the seat count, worded by ``verb``."""
    ruleset_type = engine.ruleset_type
    rules = ruleset if isinstance(ruleset, ruleset_type) else make_ruleset(ruleset_type, ruleset)
    check_base_game(rules, engine.kind)
    check_seat_count(engine, seats, name, verb, name_seats=False)
    return rules, new_table(setup, seats, rules.base_game or "")


def table_player(table: Table) -> int | None:
    """The seat the table waits for: none once over; a full trick's leader, whose trick is
    recorded won next; else the seat to play."""
    if table.over:
        return None
    return table.current.leader if table.trick_full else table.to_play


def table_deal(table: Table, data: Mapping[str, Any]) -> Table:
    """``cards.dealt {"hands": [[...] per seat], "talon": [...]}``, before the first card."""
    if table.started or table.hands is not None:
        raise IllegalEvent("deal.too_late", "The hands can be recorded only before any play.")
    hands = data.get("hands")
    if not isinstance(hands, list):
        raise IllegalEvent("event.bad_data", "'hands' must be a list of hands.", field="hands")
    if len(hands) != table.seats:
        raise IllegalEvent(
            "deal.wrong_count",
            f"'hands' must list {table.seats} hands, one per seat, not {len(hands)}.",
            field="hands",
            count=len(hands),
            expected=table.seats,
        )
    parts = [read_cards(h, "hands", table.pack) for h in hands]
    talon = read_cards(data.get("talon", []), "talon", table.pack)
    check_distinct([c for part in (*parts, talon) for c in part])
    return dataclasses.replace(table, hands=tuple(parts), talon=talon)


def table_discard(table: Table, data: Mapping[str, Any]) -> Table:
    """``cards.discarded {"seat", "cards"}``: the base game's discard, before the first card."""
    if table.started:
        raise IllegalEvent("discard.too_late", "Discards are recorded before the first trick.")
    seat = read_seat(data, "seat", table.seats)
    cards = read_cards(data.get("cards"), "cards", table.pack)
    for card in cards:
        _check_unseen(table, card)
        _check_held(table, seat, card)
    discards = list(table.discards)
    discards[seat] = discards[seat] + cards
    hands = table.hands
    if hands is not None:
        hands = tuple(without(h, cards) if s == seat else h for s, h in enumerate(hands))
    return dataclasses.replace(table, discards=tuple(discards), hands=hands)


def read_play(
    table: Table, data: Mapping[str, Any], again: Collection[str] = ()
) -> tuple[int, str]:
    """The seat and card of ``card.played``, checked: on turn, unseen (unless it may come back
    into play, as Last Laugh's Fool does), held if hands known."""
    if table.trick_full:
        raise IllegalEvent(
            "trick.winner_due", "The trick is complete: record who won it (trick.won)."
        )
    seat = read_seat(data, "seat", table.seats)
    card = read_card(data.get("card"), "card", table.pack)
    if seat != table.to_play:
        raise IllegalEvent(
            "play.not_your_turn",
            f"{player_at(seat)} cannot play {name(card)}: {player_at(table.to_play)} plays next.",
            seat=seat,
        )
    if card not in again:
        _check_unseen(table, card)
    _check_held(table, seat, card)
    return seat, card


def table_play(table: Table, seat: int, card: str) -> Table:
    hands = table.hands
    if hands is not None:
        hands = tuple(without(h, (card,)) if s == seat else h for s, h in enumerate(hands))
    current = dataclasses.replace(table.current, plays=(*table.current.plays, (seat, card)))
    return dataclasses.replace(table, hands=hands, current=current)


def read_winner(table: Table, data: Mapping[str, Any], decided: int | None) -> int:
    """The winner of ``trick.won``: a seat, and the module's winner where the module decides."""
    if not table.trick_full:
        raise IllegalEvent(
            "trick.incomplete",
            f"The trick has {len(table.current.plays)} of {table.seats} cards: it is not won yet.",
        )
    winner = read_seat(data, "winner", table.seats)
    if decided is not None and winner != decided:
        raise IllegalEvent(
            "trick.wrong_winner",
            f"{player_at(decided)} wins this trick ({names(table.current.cards)}), not "
            f"{player_at(winner)}.",
            winner=decided,
        )
    return winner


def table_win(table: Table, winner: int, auto_end: bool = True) -> Table:
    """Close the trick; the winner leads the next; with hands known, empty hands end the hand
    (unless the module still takes events after the last trick: ``auto_end=False``)."""
    done = dataclasses.replace(table.current, winner=winner)
    over = auto_end and table.hands is not None and not any(table.hands)
    return dataclasses.replace(
        table, tricks=(*table.tricks, done), current=Trick(winner), over=over
    )


def table_end(table: Table) -> Table:
    """``hand.ended``: after a complete, won trick; with hands recorded, once they are empty."""
    if table.hands is not None and any(table.hands):
        raise IllegalEvent(
            "hand.not_over", "The hands are recorded: the hand ends when they are played out."
        )
    if table.current.plays or not table.tricks:
        raise IllegalEvent("hand.not_over", "A hand ends after a complete, won trick.")
    return dataclasses.replace(table, over=True)


def table_can_end(table: Table) -> bool:
    if table.over or table.current.plays or not table.tricks:
        return False
    return table.hands is None or not any(table.hands)


def table_last_trick(table: Table) -> bool:
    """With hands known: the trick in progress is the hand's last one."""
    if table.hands is None:
        return False
    return all(
        len(h) + (1 if s in {p for p, _ in table.current.plays} else 0) <= 1
        for s, h in enumerate(table.hands)
    )


def table_moves(table: Table) -> list[Move] | None:
    """Every ``card.played`` the hands allow (no module rule applied), or None without hands."""
    if table.over or table.hands is None or table.trick_full:
        return None
    seat = table.to_play
    return [Move(PLAYED, {"seat": seat, "card": card}) for card in table.hands[seat]]


def _check_unseen(table: Table, card: str) -> None:
    if card in table.seen():
        raise IllegalEvent(
            "card.already_played",
            f"{name(card)} has already been played or discarded this hand.",
            card=card,
        )


def _check_held(table: Table, seat: int, card: str) -> None:
    if table.hands is not None and card not in table.hands[seat]:
        raise IllegalEvent(
            "play.card_not_held",
            f"{player_at(seat)} does not hold {name(card)}.",
            card=card,
            seat=seat,
        )
