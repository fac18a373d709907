"""The first-player draw of the Scarney board-game matches (RULES.md 3.3, D-SGL-6; 5.3 for High-Low)
and :class:`BoardMatch`, what the three formats of :mod:`games.rules.scarney_board.matches` share:
the draw, its guard on game entries, and the standing rows."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from games.rules.base import Move
from games.rules.errors import IllegalEvent
from games.rules.events import GAME_FINISHED, GAME_SCORED, ORDER_DRAWN
from games.rules.matches import GameEntry, ScoredMatch, ScoredMatchState
from games.rules.scarney_board.board import parse_pawn, spots_of
from games.rules.wording import player_at, players_at

Handler = Callable[[ScoredMatchState, Move], ScoredMatchState]


def first_player(state: ScoredMatchState) -> int:
    """The first active player / starter: seat 0 unless a draw decided otherwise (RULES.md 0.5)."""
    return int(state.extra.get("first", 0))


def tied_draw(state: ScoredMatchState) -> tuple[int, ...]:
    """The seats that must draw again after a tie for the highest pick (empty when none)."""
    return tuple(state.extra.get("tied", ()))


def _read_draws(move: Move) -> list[tuple[int, str]]:
    draws = move.data.get("draws")
    if not isinstance(draws, list) or not draws:
        raise IllegalEvent(
            "event.bad_data",
            "'draws' of order.drawn must list each drawing seat's pick, as "
            '[{"seat": 0, "pawn": "R4"}, ...].',
            field="draws",
        )
    picks = []
    for draw in draws:
        seat = draw.get("seat") if isinstance(draw, Mapping) else None
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise IllegalEvent(
                "event.bad_data",
                "Every draw of order.drawn names a seat (a whole number) and a pawn.",
                field="draws",
            )
        picks.append((seat, parse_pawn(draw.get("pawn"))))
    return picks


def _check_draw_due(state: ScoredMatchState) -> None:
    if state.entries:
        raise IllegalEvent(
            "order.too_late", "The first player is drawn before the first game of the match."
        )
    if "first" in state.extra and not tied_draw(state):
        raise IllegalEvent(
            "order.already_drawn",
            f"The draw is over: {player_at(first_player(state))} plays first.",
            seat=first_player(state),
        )


def _check_draw_seats(picks: list[tuple[int, str]], due: tuple[int, ...]) -> None:
    seats = sorted(seat for seat, _ in picks)
    if seats != sorted(due):
        raise IllegalEvent(
            "order.wrong_seats",
            f"This draw is made by {players_at(sorted(due))}, each once; "
            f"it lists {players_at(seats)}.",
            seats=sorted(due),
        )
    pawns = [pawn for _, pawn in picks]
    for pawn in pawns:
        if pawns.count(pawn) > 1:
            raise IllegalEvent(
                "order.duplicate_pawn",
                f"{pawn} is picked twice: each player picks a different pawn.",
                pawn=pawn,
            )


def _after_draw(state: ScoredMatchState, picks: list[tuple[int, str]]) -> ScoredMatchState:
    best = max(spots_of(pawn) for _, pawn in picks)
    top = tuple(sorted(seat for seat, pawn in picks if spots_of(pawn) == best))
    draws = (*state.extra.get("draws", ()), tuple(picks))
    if len(top) > 1:
        extra = {"first": top[0], "tied": top, "draws": draws}
    else:
        extra = {"first": top[0], "tied": (), "draws": draws}
    return dataclasses.replace(state, extra=extra)


def order_drawn(state: ScoredMatchState, move: Move) -> ScoredMatchState:
    """The Singles pawn draw (3.3): the highest spots play first; only the tied draw again."""
    _check_draw_due(state)
    picks = _read_draws(move)
    _check_draw_seats(picks, tied_draw(state) or tuple(range(state.seats)))
    return _after_draw(state, picks)


def two_pawn_pick(state: ScoredMatchState, move: Move) -> ScoredMatchState:
    """The High-Low pick (5.3): two pawns of one colour, the higher starts; no tie can occur."""
    _check_draw_due(state)
    picks = _read_draws(move)
    _check_draw_seats(picks, tuple(range(state.seats)))
    if len({pawn[0] for _, pawn in picks}) != 1:
        names = " and ".join(pawn for _, pawn in picks)
        raise IllegalEvent(
            "order.not_same_colour",
            f"The starter is picked from two pawns of one colour, not {names}.",
            pawns=[pawn for _, pawn in picks],
        )
    return _after_draw(state, picks)


def _guarded(handler: Handler) -> Handler:
    """A game entry is refused while a tied draw is still to be repeated."""

    def guarded(state: ScoredMatchState, move: Move) -> ScoredMatchState:
        tied = tied_draw(state)
        if tied:
            raise IllegalEvent(
                "order.draw_pending",
                f"Seats {', '.join(map(str, tied))} tied in the draw and must draw again first.",
                seats=list(tied),
            )
        return handler(state, move)

    return guarded


class BoardMatch(ScoredMatch):
    """What the three formats share: the draw, its guard, and the standing rows."""

    def draw(self, state: ScoredMatchState, move: Move) -> ScoredMatchState:
        """``order.drawn``: the pick that decides the first active player or starter."""
        return order_drawn(state, move)

    def extra_handlers(self) -> Mapping[str, Any]:
        return {
            ORDER_DRAWN: self.draw,
            GAME_SCORED: _guarded(self._game_scored),
            GAME_FINISHED: _guarded(self._live_game),
        }

    def _live_game(self, state: ScoredMatchState, move: Move) -> ScoredMatchState:
        """A live game, its winners counted by :meth:`live_winners` (as its sheet line would)."""
        after = self._game_finished(state, move)
        entry = after.entries[-1]
        counted = dataclasses.replace(entry, winners=self.live_winners(state, entry))
        return dataclasses.replace(after, entries=(*after.entries[:-1], counted))

    def live_winners(self, state: ScoredMatchState, entry: GameEntry) -> tuple[int, ...]:
        """Who won a live game: whom the same scores entered from a sheet would name, so that
        ``games_won`` does not depend on how a game was entered."""
        return self.sheet_winners(state, entry.scores)

    def expected(self, state: ScoredMatchState) -> list[str]:
        """The match events due next: a draw again after a tie, else games until complete."""
        if tied_draw(state):
            return [ORDER_DRAWN]
        if self.is_complete(state):
            return []
        games = [GAME_FINISHED, GAME_SCORED]
        # The draw is due only before the first game and until it has decided.
        drawn = bool(state.entries) or "first" in state.extra
        return games if drawn else [ORDER_DRAWN, *games]

    def winner(self, state: ScoredMatchState) -> int | None:
        """The match winner once the match is complete."""
        raise NotImplementedError

    def _rows(
        self, state: ScoredMatchState, scores: list[int], bonuses: list[list[dict[str, Any]]]
    ) -> list[dict[str, Any]]:
        return [
            {
                "seat": seat,
                "match_score": scores[seat],
                "bonuses": bonuses[seat],
                "total": scores[seat] + sum(b["points"] for b in bonuses[seat]),
                "games_won": sum(1 for e in state.entries if seat in e.winners),
                "rank": 0,
            }
            for seat in range(state.seats)
        ]

    def sheet_winners(self, state: ScoredMatchState, scores: tuple[int, ...]) -> tuple[int, ...]:
        """The one highest score of a sheet line wins it; a shared highest score wins nothing."""
        best = max(scores)
        top = tuple(seat for seat, score in enumerate(scores) if score == best)
        return top if len(top) == 1 else ()
