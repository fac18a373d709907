"""Tontine (``tontine``), a scoring module for Scarto, Tarocchi or Conference: RULES.md 17.

Within each group of cards only the last one played scores, carrying the whole group's value,
and only if its winner claimed it face up (17.1-17.3). The base game is not in the seeds, so the
hand runs in recording mode (16.4): tricks are recorded in play order and their winners taken as
recorded; the service checks what Tontine defines (claims) and computes the hand result (17.4):
three players, points - 37 each; four players in two sides (seats 0 and 2 against 1 and 3), the
side with 56 or more wins the difference. A card is claimed as its trick is won, before the next
card is played (D-TON-6); the Fool by the trick's winner or by its player (D-TON-7).

One stream is one hand. A game of hands is a match (``TontineMatch``); the base game's target
is unknown, so the table closes the match with ``match.ended`` and it settles at once (0.8).

What a hand and a match take and show is declared in ``shapes``, with the event types
``card.claimed`` and ``match.ended`` and the groups and their values (17.2, ``GROUP_VALUES``).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from games.rules.base import Move, Result, SeatScore, check_move
from games.rules.errors import BadSetup, IllegalEvent
from games.rules.matches import ScoredMatch, ScoredMatchState, payments_settlement, ranked
from games.rules.tarot import cards, recording, shapes
from games.rules.tarot.cards import FOOL
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
from games.rules.tarot.shapes import CLAIMED, GROUP_VALUES, MATCH_ENDED, TOTAL
from games.rules.wording import player_at, players_at

KIND = "tontine"
EVENT_TYPES = frozenset({DEALT, DISCARDED, PLAYED, WON, HAND_ENDED, CLAIMED})

THREE_PLAYER_SHARE = TOTAL // 3  # 111 / 3 = 37
SIDE_TARGET = 56
_COURT_GROUPS = {"K": "kings", "Q": "queens", "C": "cavaliers", "J": "jacks"}
# Individual values under Tontine (17.2): Aces 1, other trumps (and Good, Evil) 0.
_TONTINE_POINTS = {"K": 5, "Q": 4, "C": 3, "J": 2}


@dataclass(frozen=True, slots=True)
class Ruleset:
    """House rules of Tontine (Appendix E). ``base_game`` has no default: it must be named."""

    ALLOWED: ClassVar[Mapping[str, tuple[object, ...]]] = {
        "base_game": BASE_GAMES,
        "tontine4_below_56": ("no_score", "higher_side_wins_difference"),
        "sheet_entry_validation": ("strict", "lenient"),
    }

    base_game: str | None = None
    tontine4_below_56: str = "no_score"
    sheet_entry_validation: str = "strict"


@dataclass(frozen=True, slots=True)
class State:
    """A hand: the recorded tricks and each claim ``(seat, card)`` in the order made."""

    table: Table
    ruleset: Ruleset
    claims: tuple[tuple[int, str], ...] = ()

    @property
    def over(self) -> bool:
        return self.table.over


def group_of(card: str) -> str | None:
    """The Tontine group of a card; None for trumps 2-20, Good and Evil (worth 0)."""
    if card in cards.HONOURS:
        return "honours"
    if card in cards.SUIT_CARDS:
        rank = cards.rank_of(card)
        return _COURT_GROUPS.get(rank, f"pips_{card[-1]}")
    return None


def tontine_value(card: str) -> int:
    """A card's individual value under Tontine (17.2): Aces 1, Honours 5, other trumps 0."""
    if card in cards.HONOURS:
        return 5
    if card in cards.SUIT_CARDS:
        return _TONTINE_POINTS.get(cards.rank_of(card), 1)
    return 0


def sides(seats: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Partners sit opposite: seats 0 and 2 against 1 and 3."""
    return tuple(range(0, seats, 2)), tuple(range(1, seats, 2))


class TontineRules(RecordedHandRules):
    """The rule engine of one Tontine hand in recording mode."""

    kind = KIND
    title = "Tontine"
    ruleset_type: type[Any] = Ruleset
    state_type = State
    seats_verb = "is recorded for"
    events = shapes.TONTINE_EVENTS
    view_shape = shapes.TONTINE_VIEW

    def apply(self, state: State, move: Move) -> State:
        check_move(move, EVENT_TYPES, "Tontine", state.table.over, cards.HAND_OVER)
        table, data = state.table, move.data
        if move.type == CLAIMED:
            return _claim(state, data)
        if move.type == DEALT:
            return dataclasses.replace(state, table=recording.table_deal(table, data))
        if move.type == DISCARDED:
            return dataclasses.replace(state, table=recording.table_discard(table, data))
        if move.type == PLAYED:
            seat, card = recording.read_play(table, data)
            return dataclasses.replace(state, table=recording.table_play(table, seat, card))
        if move.type == WON:
            winner = recording.read_winner(table, data, None)
            # Claims of the last trick are still to come: the table says when the hand ends.
            table = recording.table_win(table, winner, auto_end=False)
            return dataclasses.replace(state, table=table)
        return dataclasses.replace(state, table=recording.table_end(table))

    def expected(self, state: State) -> list[str]:
        table = state.table
        if table.over:
            return []
        if table.trick_full:
            return [WON]
        if table.hands is not None and recording.table_can_end(table):
            # Every recorded card is played: the last trick's claims, then the end of the hand.
            return [CLAIMED, HAND_ENDED]
        base = [PLAYED]
        if not table.started:
            base = [DEALT, DISCARDED, PLAYED] if table.hands is None else [DISCARDED, PLAYED]
        # Claims only between a trick's win and the next card (D-TON-6).
        claim = [CLAIMED] if table.tricks and not table.current.plays else []
        end = (
            [HAND_ENDED] if table.hands is None and table.tricks and not table.current.plays else []
        )
        return [*base, *claim, *end]

    def legal_events(self, state: State) -> list[Move] | None:
        """Card plays from known hands, any winner (the base game's), claims of the last trick."""
        table = state.table
        if table.over:
            return []
        if table.trick_full:
            return [Move(WON, {"winner": seat}) for seat, _ in table.current.plays]
        if recording.table_can_end(table):
            return [*_claim_moves(state), Move(HAND_ENDED, {})]
        plays = recording.table_moves(table)
        if plays is None:
            return None
        return [*plays, *_claim_moves(state)]

    def scores(self, state: State) -> tuple[SeatScore, ...]:
        """The hand result once over (group points where D-TON-5 gives no result)."""
        if not state.table.over:
            return tuple(SeatScore(s, 0) for s in range(state.table.seats))
        result = hand_result(state)
        points = seat_points(state)
        return tuple(
            SeatScore(s, points[s] if result is None else result[s])
            for s in range(state.table.seats)
        )

    def result(self, state: State) -> Result | None:
        if not state.table.over:
            return None
        scores = self.scores(state)
        best = max(score.total for score in scores)
        return Result(scores, tuple(s.seat for s in scores if s.total == best))

    def module_view(self, state: State) -> dict[str, Any]:
        return {
            "claims": [{"seat": seat, "card": card} for seat, card in state.claims],
            "groups": group_owners(state),
            "points": seat_points(state),
            # Not "result": that is the game JSON's own key (the Result of the hand as a game).
            "hand_result": hand_result(state) if state.table.over else None,
        }


# --- claims (17.3, 17.5) -------------------------------------------------------------------------


def _claim(state: State, data: Mapping[str, Any]) -> State:
    """``card.claimed {"seat", "card"}``: a group card of a trick he won, left face up.

    The Fool goes where the base game's excuse rules send it, which the seeds do not give, so
    either the trick's winner or the Fool's player may claim it (17.5, D-TON-7). A card is
    claimed as its trick is won: only a card of the last trick won, before the next card is
    played (D-TON-6).
    """
    table = state.table
    seat = cards.read_seat(data, "seat", table.seats)
    card = cards.read_card(data.get("card"), "card", table.pack)
    if group_of(card) is None:
        raise IllegalEvent(
            "claim.not_group_card",
            f"{cards.name(card)} belongs to no Tontine group: it scores nothing.",
            card=card,
        )
    trick = next((t for t in table.tricks if card in t.cards), None)
    owners = () if trick is None else (trick.winner, trick.seat_of(card) if card == FOOL else None)
    if seat not in owners:
        raise IllegalEvent(
            "claim.not_won",
            f"{player_at(seat)} cannot claim {cards.name(card)}: he did not win it in a trick.",
            card=card,
            seat=seat,
        )
    if any(c == card for _, c in state.claims):
        raise IllegalEvent("claim.already_made", f"{cards.name(card)} is already claimed.")
    if trick is not table.tricks[-1] or table.current.plays:
        raise IllegalEvent(
            "claim.too_late",
            f"{player_at(seat)} cannot claim {cards.name(card)} now: a card is claimed as its "
            "trick is won, before the next card is played.",
            card=card,
            seat=seat,
        )
    return dataclasses.replace(state, claims=(*state.claims, (seat, card)))


def _claim_moves(state: State) -> list[Move]:
    """The winner's claims of the trick just won (D-TON-6), each group card not yet claimed."""
    table = state.table
    if not table.tricks or table.current.plays:
        return []
    last = table.tricks[-1]
    claimed = {c for _, c in state.claims}
    return [
        Move(CLAIMED, {"seat": last.winner, "card": card})
        for card in last.cards
        if group_of(card) is not None and card not in claimed
    ]


# --- the hand's result (17.4, D-TON-1..5) --------------------------------------------------------


def last_played(state: State) -> dict[str, str]:
    """Each group's last played card, by time (D-TON-1); unplayed groups are absent."""
    last: dict[str, str] = {}
    for trick in (*state.table.tricks, state.table.current):
        for card in trick.cards:
            group = group_of(card)
            if group is not None:
                last[group] = card
    return last


def group_owners(state: State) -> dict[str, dict[str, Any]]:
    """Per group: its last card, who holds it face up (the claimer, if it was claimed), value."""
    claimed = dict((card, seat) for seat, card in state.claims)
    rows = {}
    for group, card in last_played(state).items():
        rows[group] = {"card": card, "seat": claimed.get(card), "value": GROUP_VALUES[group]}
    return rows


def seat_points(state: State) -> list[int]:
    points = [0] * state.table.seats
    for row in group_owners(state).values():
        if row["seat"] is not None:
            points[row["seat"]] += row["value"]
    return points


def hand_result(state: State) -> list[int] | None:
    """Three players: points - 37 (D-TON-2); four: the side difference (D-TON-3, D-TON-4);
    any other count: no result (D-TON-5)."""
    points = seat_points(state)
    if state.table.seats == 3:
        return [p - THREE_PLAYER_SHARE for p in points]
    if state.table.seats != 4:
        return None
    return side_result(points, state.ruleset.tontine4_below_56)


def side_result(points: list[int], below_56: str) -> list[int]:
    a, b = sides(4)
    side_a, side_b = sum(points[s] for s in a), sum(points[s] for s in b)
    diff = side_a - side_b
    if max(side_a, side_b) < SIDE_TARGET and below_56 == "no_score":
        diff = 0
    return [diff if s in a else -diff for s in range(4)]


# --- the game of hands (settlement 0.8) ----------------------------------------------------------


def _match_ended(state: ScoredMatchState, move: Move) -> ScoredMatchState:
    """``match.ended {}``: the base game's target was reached (the seeds do not give it)."""
    if not state.entries:
        raise IllegalEvent("match.no_games", "A match ends after at least one hand.")
    return dataclasses.replace(state, extra={**state.extra, "ended": True})


class TontineMatch(ScoredMatch):
    """Hands of Tontine: results add up; three players settle in game points (the totals, which
    may sum below 0: D-TON-2), four in sides (each winner +difference, each loser -)."""

    kind = KIND
    ruleset_type: type[Any] = Ruleset
    min_seats = 3
    max_seats = 4
    events = shapes.TONTINE_MATCH_EVENTS

    def sheet_rule(self, ruleset: Mapping[str, Any]) -> str:
        """The rule a sheet's lines follow and how the match ends, in one sentence."""
        return (
            "Each line is a hand's results, which add up: with three players each his points less "
            "37, with four the sides' difference, to each winner and from each loser."
        )

    def initial_state(self, ruleset: Any, seats: int, teams: Any = None) -> ScoredMatchState:
        state = super().initial_state(ruleset, seats, teams)
        recording.check_base_game(state.ruleset, KIND)
        return state

    def extra_handlers(self) -> Mapping[str, Any]:
        return {MATCH_ENDED: _match_ended}

    def is_complete(self, state: ScoredMatchState) -> bool:
        return bool(state.extra.get("ended"))

    def standing(self, state: ScoredMatchState) -> list[dict[str, Any]]:
        totals = _totals(state)
        return ranked(
            [
                {
                    "seat": s,
                    "match_score": totals[s],
                    "bonuses": [],
                    "total": totals[s],
                    "games_won": sum(1 for e in state.entries if s in e.winners),
                    "rank": 0,
                }
                for s in range(state.seats)
            ]
        )

    def settlement(self, state: ScoredMatchState) -> dict[str, Any]:
        totals = _totals(state)
        if state.seats == 4:
            a, b = sides(4)
            pairs = [(loser, winner, totals[winner]) for winner, loser in zip(a, b, strict=True)]
            return payments_settlement(pairs, 4)
        return {"payments": [], "nets": totals, "game_points": totals}

    def next_game_setup(self, state: ScoredMatchState) -> dict[str, Any]:
        return {}

    def check_teams(self, teams: Any, seats: int) -> tuple[tuple[int, ...], ...]:
        """Four players play as two sides, partners opposite (seats 0 and 2, 1 and 3)."""
        if not teams:
            return sides(seats) if seats == 4 else ()
        fixed = sides(4)
        given = (
            sorted(tuple(sorted(t)) for t in teams)
            if isinstance(teams, list | tuple)
            and all(
                isinstance(t, list | tuple) and all(type(seat) is int for seat in t) for t in teams
            )
            else None
        )
        if seats != 4:
            raise BadSetup(
                "match.bad_teams", "Tontine's sides are fixed: four players, two against two."
            )
        if given != sorted(fixed):
            raise BadSetup(
                "match.bad_teams",
                f"Tontine's sides are fixed: {players_at((0, 2))} against {players_at((1, 3))}.",
            )
        return fixed

    def sheet_issues(self, state: ScoredMatchState, scores: tuple[int, ...]) -> list[IllegalEvent]:
        return [IllegalEvent("score.unattainable", why) for why in _sheet_problems(state, scores)]


def _totals(state: ScoredMatchState) -> list[int]:
    return [sum(e.scores[s] for e in state.entries) for s in range(state.seats)]


def _sheet_problems(state: ScoredMatchState, scores: tuple[int, ...]) -> list[str]:
    """A hand result must be possible (0.6): each player's (or side's) points a sum of whole
    groups of 17.2, no group counted twice; 3 players, points - 37; 4 players, +d for one side
    and -d for the other, d a difference the ruleset's 56 rule gives (D-TON-3)."""
    if state.seats == 3:
        points = tuple(s + THREE_PLAYER_SHARE for s in scores)
        if points not in group_splits(3):
            return [
                f"Hand results {list(scores)} are not points - 37 with each player's points "
                "a sum of whole Tontine groups (20, 16, 12, 8, 15, 10 each suit's pips)."
            ]
        return []
    a, b = sides(4)
    if len({scores[s] for s in a}) > 1 or any(scores[s] != -scores[a[0]] for s in b):
        return [f"Hand results {list(scores)} are not +d for one side and -d for the other."]
    below_56 = str(getattr(state.ruleset, "tontine4_below_56", "no_score"))
    possible = {side_result([x, y, 0, 0], below_56)[0] for x, y in group_splits(2)}
    if scores[0] not in possible:
        return [
            f"No two sides' group points give a hand result of {scores[0]:+d} "
            f"(tontine4_below_56 {below_56})."
        ]
    return []


@functools.cache
def group_splits(players: int) -> frozenset[tuple[int, ...]]:
    """Every way the groups' values can end up among ``players`` (a group may go to nobody)."""
    reach = {(0,) * players}
    for value in GROUP_VALUES.values():
        reach |= {
            tuple(p + value if i == k else p for i, p in enumerate(points))
            for points in reach
            for k in range(players)
        }
    return frozenset(reach)


TONTINE_RULES = TontineRules()
TONTINE_MATCH = TontineMatch()
