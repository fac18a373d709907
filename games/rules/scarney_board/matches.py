"""The matches of the Scarney board games for two or more: RULES.md 3.3-3.8, 4.5-4.6, 5.3, 5.7-5.8.

Three formats, each a :class:`~games.rules.matches.ScoredMatch`:

- ``scarney-singles``: five rounds, one game per player each, the active player moving clockwise
  from the first active player; tied leaders play extra rounds (0.7, D-SGL-5); the winner gets a
  match bonus of 100 and collects from each loser the difference (0.8).
- ``scarney-doubles``: games until a cumulative score reaches 100 with the two scores unequal; the
  starter alternates (or the loser starts, D-DBL-4); match bonus 100; the loser pays the difference.
- ``high-low-scarney``: games until a player reaches 100; the loser of a game starts the next; game
  bonuses of 20 per game won for both players, match bonus and shutout bonus for the winner; the
  signed difference of the totals is paid (D-HL-7).

A sheet line of Singles is either a whole round as the books write it (every player's own game,
or only the tied players' in an extra round) or one game (the active player's score, the others
0); a live Singles game is one game of one active player.

Who wins a game (the match's ``winners`` of each game and the standing's ``games_won``) is the
same whether the game was played live or entered from a sheet. A Singles game is won by nobody:
RULES.md names no game winner in Singles (each plays "his own games", the opponent "scores
nothing", 3.4; only the match has a winner, 3.7), so, as in a Solitaire match, ``games_won`` is 0
for every player; the live game's own result naming its active player is not counted. A Doubles
game is won by the higher score, and a 20-20 game by nobody (it has no loser either, D-DBL-4). A
High-Low game is won by the player the last pawn decides (5.5), the one who scores.
The optional first-player draw (3.3; 5.3 for High-Low) is the match event ``order.drawn``.
The draw and what the formats share live in :mod:`games.rules.scarney_board.draws`; what each
format takes from a table (its events) in :mod:`games.rules.scarney_board.shapes`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.rules.base import Move
from games.rules.errors import BadSetup, IllegalEvent
from games.rules.matches import (
    GameEntry,
    ScoredMatchState,
    cumulative,
    payments_settlement,
    ranked,
)
from games.rules.scarney_board import shapes
from games.rules.scarney_board.doubles import Ruleset as DoublesRuleset
from games.rules.scarney_board.draws import BoardMatch, first_player, tied_draw, two_pawn_pick
from games.rules.scarney_board.high_low import Ruleset as HighLowRuleset
from games.rules.scarney_board.high_low import high_low_score_possible
from games.rules.scarney_board.singles import Ruleset as SinglesRuleset
from games.rules.scarney_board.solitaire import attainable_totals
from games.rules.wording import player_at, players_at

MATCH_BONUS = 100
SHUTOUT_BONUS = 100
GAME_BONUS = 20  # High-Low: per game won, for each player (D-HL-6)
TARGET = 100  # Doubles and High-Low end once a cumulative score reaches it
SINGLES_ROUNDS = 5
DOUBLES_GAME_TOTAL = 40


def _bonus(kind: str, points: int) -> dict[str, Any]:
    return {"kind": kind, "points": points}


# --- Scarney Singles (RULES.md 3.3-3.8) --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SinglesProgress:
    """Where a Singles match stands: totals with and without extra games, who plays next."""

    totals: tuple[int, ...]  # every game, extra games included (they decide the winner)
    regular: tuple[int, ...]  # the five rounds only
    players: tuple[int, ...]  # the seats playing the current round, in playing order
    due: tuple[int, ...]  # those still to play in it
    round: int  # 1-based; rounds beyond five are extra rounds
    complete: bool


def singles_progress(state: ScoredMatchState) -> SinglesProgress:
    """Walk the games round by round: five rounds, then extra rounds of the tied leaders (0.7).

    Each round is played clockwise from the first active player. A live game is one player's
    game; so is a sheet line with one score (the active player's, the others 0); any other sheet
    line is a whole round, as the books write it.
    """
    n, first = state.seats, first_player(state)
    order = [(first + k) % n for k in range(n)]
    totals, regular = [0] * n, [0] * n
    entries = iter(state.entries)
    number = 0
    while True:
        number += 1
        players = tuple(order if number <= SINGLES_ROUNDS else _leaders(order, totals))
        if number > SINGLES_ROUNDS and len(players) == 1:
            return SinglesProgress(tuple(totals), tuple(regular), players, (), number, True)
        due = players
        while due:
            entry = next(entries, None)
            if entry is None:
                return SinglesProgress(tuple(totals), tuple(regular), players, due, number, False)
            for seat, score in enumerate(entry.scores):
                totals[seat] += score
                regular[seat] += score if number <= SINGLES_ROUNDS else 0
            due = due[1:] if entry.game is not None or is_one_game(entry.scores) else ()


def is_one_game(scores: tuple[int, ...]) -> bool:
    """A sheet line of one game: only one seat scores (no played game scores 0, Appendix C.1)."""
    return sum(1 for score in scores if score != 0) == 1


def _leaders(order: list[int], totals: list[int]) -> list[int]:
    best = max(totals)
    return [seat for seat in order if totals[seat] == best]


class SinglesMatch(BoardMatch):
    """``scarney-singles``: five rounds, a match bonus, the winner collects from each loser."""

    kind = "scarney-singles"
    min_seats = 2
    max_seats = shapes.SINGLES_MATCH_SEATS
    events = shapes.SINGLES_MATCH_EVENTS

    ruleset_type: type[Any] = SinglesRuleset

    def sheet_rule(self, ruleset: Mapping[str, Any]) -> str:
        return (
            "Only the active player scores in each game (the others 0); after "
            f"{SINGLES_ROUNDS} rounds the highest match score wins, with a bonus of {MATCH_BONUS}."
        )

    def is_complete(self, state: ScoredMatchState) -> bool:
        return singles_progress(state).complete

    def sheet_winners(self, state: ScoredMatchState, scores: tuple[int, ...]) -> tuple[int, ...]:
        """Nobody: a Singles game has no winner, only the match has (module docstring)."""
        return ()

    def winner(self, state: ScoredMatchState) -> int | None:
        progress = singles_progress(state)
        if not progress.complete:
            return None
        return progress.totals.index(max(progress.totals))

    def match_scores(self, state: ScoredMatchState) -> list[int]:
        """Match scores: extra games count unless D-SGL-5's house rule says they only decide."""
        progress = singles_progress(state)
        counts = getattr(state.ruleset, "singles_tiebreak_games_count", True)
        return list(progress.totals if counts else progress.regular)

    def standing(self, state: ScoredMatchState) -> list[dict[str, Any]]:
        scores, winner = self.match_scores(state), self.winner(state)
        bonuses = [
            [_bonus("match_bonus", MATCH_BONUS)] if seat == winner else []
            for seat in range(state.seats)
        ]
        return ranked(self._rows(state, scores, bonuses))

    def settlement(self, state: ScoredMatchState) -> dict[str, Any]:
        """Each loser pays the winner's total less his own match score (0.8, D-SGL-8)."""
        scores, winner = self.match_scores(state), self.winner(state)
        assert winner is not None
        total = scores[winner] + MATCH_BONUS
        payments = [
            (seat, winner, total - scores[seat]) for seat in range(state.seats) if seat != winner
        ]
        return payments_settlement(payments, state.seats)

    def next_game_setup(self, state: ScoredMatchState) -> dict[str, Any]:
        """The next game's active player, and his opponent: the player on his right (D-SGL-1)."""
        _refuse_pending_draw(state)
        progress = singles_progress(state)
        if progress.complete:
            return {}
        active = progress.due[0]
        return {"active": active, "opponent": (active - 1) % state.seats}

    def sheet_issues(self, state: ScoredMatchState, scores: tuple[int, ...]) -> list[IllegalEvent]:
        """One game (the active player's score, the others 0) or a whole round (each player of
        the round scores, the others 0); every score played is attainable (Appendix C.1)."""
        progress = singles_progress(state)
        one_game = is_one_game(scores)
        if not one_game and progress.due != progress.players:
            return [_round_begun(progress, scores)]
        playing = progress.due[:1] if one_game else progress.due
        if one_game:
            scorer = next(seat for seat, score in enumerate(scores) if score != 0)
            if scorer != playing[0]:
                return [_not_playing(scorer, scores[scorer], playing, progress.round)]
        issues = []
        for seat, score in enumerate(scores):
            if seat in playing and score not in attainable_totals():
                issues.append(_unattainable_singles(seat, score, progress.round))
            elif seat not in playing and score != 0:
                issues.append(_not_playing(seat, score, playing, progress.round))
        return issues


def _not_playing(seat: int, score: int, playing: tuple[int, ...], number: int) -> IllegalEvent:
    who = players_at(playing)
    return IllegalEvent(
        "score.unattainable",
        f"{player_at(seat)} is not the active player here (round {number}: {who}), so cannot score "
        f"{score}: only the active player scores in a Scarney Singles game.",
        seat=seat,
        score=score,
        game=number,
    )


def _round_begun(progress: SinglesProgress, scores: tuple[int, ...]) -> IllegalEvent:
    return IllegalEvent(
        "score.unattainable",
        f"Round {progress.round} is under way: {players_at(progress.due)} still play one game "
        f"each, so the next line is one game (the active player, {player_at(progress.due[0])}, "
        f"alone scores), not {list(scores)}.",
        scores=list(scores),
        game=progress.round,
    )


def _unattainable_singles(seat: int, score: int, number: int) -> IllegalEvent:
    possible = attainable_totals()
    below = max((s for s in possible if s < score), default=None)
    above = min((s for s in possible if s > score), default=None)
    nearest = " and ".join(str(s) for s in (below, above) if s is not None)
    return IllegalEvent(
        "score.unattainable",
        f"{score} is not a possible Scarney game score ({player_at(seat)}, game {number}); "
        f"the nearest possible scores are {nearest}.",
        seat=seat,
        score=score,
        game=number,
    )


def _refuse_pending_draw(state: ScoredMatchState) -> None:
    tied = tied_draw(state)
    if tied:
        raise BadSetup(
            "order.draw_pending",
            f"Seats {', '.join(map(str, tied))} tied in the draw and must draw again first.",
            seats=list(tied),
        )


# --- Scarney Doubles (RULES.md 4.5-4.6) --------------------------------------------------------


def _reported_starter(report: Mapping[str, Any], planned: int) -> int:
    """The starter a live game reports (its engine's ``match_report``), else the planned one."""
    started = report.get("starter")
    if isinstance(started, int) and not isinstance(started, bool) and started in (0, 1):
        return started
    return planned


def _two_player_winner(scores: tuple[int, ...]) -> int | None:
    if scores[0] == scores[1]:
        return None
    return 0 if scores[0] > scores[1] else 1


class DoublesMatch(BoardMatch):
    """``scarney-doubles``: to 100, scores unequal; match bonus 100; loser pays the difference."""

    kind = "scarney-doubles"
    min_seats = 2
    max_seats = 2
    events = shapes.DOUBLES_MATCH_EVENTS

    ruleset_type: type[Any] = DoublesRuleset

    def sheet_rule(self, ruleset: Mapping[str, Any]) -> str:
        return (
            f"The two scores of a game total {DOUBLES_GAME_TOTAL}; the match ends after the game "
            f"that takes a player to {TARGET} or more with the scores unequal, and the higher wins "
            f"a bonus of {MATCH_BONUS}."
        )

    def is_complete(self, state: ScoredMatchState) -> bool:
        """Over after a game leaving a score of 100 or more and the two scores unequal (D-DBL-5)."""
        scores = cumulative(state)
        return max(scores) >= TARGET and scores[0] != scores[1]

    def winner(self, state: ScoredMatchState) -> int | None:
        return _two_player_winner(tuple(cumulative(state))) if self.is_complete(state) else None

    def standing(self, state: ScoredMatchState) -> list[dict[str, Any]]:
        winner = self.winner(state)
        bonuses = [[_bonus("match_bonus", MATCH_BONUS)] if s == winner else [] for s in (0, 1)]
        return ranked(self._rows(state, cumulative(state), bonuses))

    def settlement(self, state: ScoredMatchState) -> dict[str, Any]:
        """The loser pays (winner's cumulative + 100) - his own cumulative (D-DBL-6)."""
        scores, winner = cumulative(state), self.winner(state)
        assert winner is not None
        loser = 1 - winner
        return payments_settlement(
            [(loser, winner, scores[winner] + MATCH_BONUS - scores[loser])], 2
        )

    def starters(self, state: ScoredMatchState) -> list[int]:
        """The starter of every game so far and of the next one (D-DBL-4)."""
        starters = [first_player(state)]
        by_loser = getattr(state.ruleset, "doubles_next_starter", "alternate") == "loser"
        for entry in state.entries:
            started = _reported_starter(entry.report, starters[-1])
            winner = _two_player_winner(entry.scores)
            # A drawn game (20-20) has no loser: the starter alternates then too.
            starters[-1] = started
            starters.append(1 - winner if by_loser and winner is not None else 1 - started)
        return starters

    def next_game_setup(self, state: ScoredMatchState) -> dict[str, Any]:
        _refuse_pending_draw(state)
        return {"starter": self.starters(state)[-1]}

    def sheet_issues(self, state: ScoredMatchState, scores: tuple[int, ...]) -> list[IllegalEvent]:
        """Every Doubles game shares out exactly 40 spots (4.4, C.2)."""
        if min(scores) >= 0 and sum(scores) == DOUBLES_GAME_TOTAL:
            return []
        number = len(state.entries) + 1
        return [
            IllegalEvent(
                "score.doubles_total",
                f"Scarney Doubles game scores must total 40 and none be negative; game {number}: "
                f"{' + '.join(map(str, scores))} = {sum(scores)}.",
                scores=list(scores),
                game=number,
            )
        ]


# --- High-Low Scarney (RULES.md 5.3, 5.7-5.8) --------------------------------------------------


class HighLowMatch(BoardMatch):
    """``high-low-scarney``: to 100; game, match and shutout bonuses; signed difference paid."""

    kind = "high-low-scarney"
    min_seats = 2
    max_seats = 2
    events = shapes.HIGH_LOW_MATCH_EVENTS

    def sheet_rule(self, ruleset: Mapping[str, Any]) -> str:
        return (
            "Only the winner of a game scores (the other 0); the first to reach "
            f"{TARGET} wins the match."
        )

    def draw(self, state: ScoredMatchState, move: Move) -> ScoredMatchState:
        return two_pawn_pick(state, move)

    ruleset_type: type[Any] = HighLowRuleset

    def is_complete(self, state: ScoredMatchState) -> bool:
        return max(cumulative(state)) >= TARGET

    def winner(self, state: ScoredMatchState) -> int | None:
        """The player who reached 100 (5.7); only one can, as only the game winner scores."""
        scores = cumulative(state)
        return scores.index(max(scores)) if max(scores) >= TARGET else None

    def standing(self, state: ScoredMatchState) -> list[dict[str, Any]]:
        """Bonuses come at the end of the match; the match winner ranks first (D-HL-7)."""
        scores, winner = cumulative(state), self.winner(state)
        bonuses: list[list[dict[str, Any]]] = [[], []]
        if winner is not None:
            for seat in (0, 1):
                won = sum(1 for e in state.entries if seat in e.winners)
                if won:
                    bonuses[seat].append(_bonus("game_bonus", GAME_BONUS * won))
            bonuses[winner].append(_bonus("match_bonus", MATCH_BONUS))
            if scores[1 - winner] == 0:
                bonuses[winner].append(_bonus("shutout_bonus", SHUTOUT_BONUS))
        rows = self._rows(state, scores, bonuses)
        if winner is None:
            return ranked(rows)
        rows.sort(key=lambda row: row["seat"] != winner)
        for rank, row in enumerate(rows, start=1):
            row["rank"] = rank
        return rows

    def settlement(self, state: ScoredMatchState) -> dict[str, Any]:
        """The loser pays the winner's total less his own; a negative amount reverses (D-HL-7)."""
        winner = self.winner(state)
        assert winner is not None
        totals = {row["seat"]: row["total"] for row in self.standing(state)}
        return payments_settlement([(1 - winner, winner, totals[winner] - totals[1 - winner])], 2)

    def starters(self, state: ScoredMatchState) -> list[int]:
        """Game 1's starter is the pick's; then the loser of the previous game starts (D-HL-8)."""
        starters = [first_player(state)]
        for entry in state.entries:
            started = _reported_starter(entry.report, starters[-1])
            starters[-1] = started
            winners = [seat for seat in entry.winners if seat in (0, 1)]
            starters.append(1 - winners[0] if len(winners) == 1 else 1 - started)
        return starters

    def next_game_setup(self, state: ScoredMatchState) -> dict[str, Any]:
        _refuse_pending_draw(state)
        return {"starter": self.starters(state)[-1]}

    def live_winners(self, state: ScoredMatchState, entry: GameEntry) -> tuple[int, ...]:
        """The winner the game's last pawn decided (5.5), as its rule engine reports him."""
        return entry.winners

    def sheet_winners(self, state: ScoredMatchState, scores: tuple[int, ...]) -> tuple[int, ...]:
        """Only the game winner enters a score (5.7)."""
        return tuple(seat for seat, score in enumerate(scores) if score != 0)

    def sheet_issues(self, state: ScoredMatchState, scores: tuple[int, ...]) -> list[IllegalEvent]:
        """One player scores, within the bounds of C.3."""
        number = len(state.entries) + 1
        scorers = [(seat, score) for seat, score in enumerate(scores) if score != 0]
        if len(scorers) != 1:
            return [
                IllegalEvent(
                    "score.unattainable",
                    f"Exactly one player, the winner, scores a High-Low game; game {number} "
                    f"gives {' and '.join(map(str, scores))}.",
                    scores=list(scores),
                    game=number,
                )
            ]
        seat, score = scorers[0]
        if high_low_score_possible(score):
            return []
        return [
            IllegalEvent(
                "score.unattainable",
                f"{score} is not a possible High-Low Scarney score ({player_at(seat)}, game "
                f"{number}): a winner scores 3 to 34, or an even score from 6 to 68 when the "
                "last pawn is black.",
                seat=seat,
                score=score,
                game=number,
            )
        ]


SINGLES_MATCH = SinglesMatch()
DOUBLES_MATCH = DoublesMatch()
HIGH_LOW_MATCH = HighLowMatch()
