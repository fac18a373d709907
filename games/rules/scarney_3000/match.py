"""The Scarney 3000 match formats: one game each, settled by the difference, and its sheets.

RULES.md 0.8, 9.4 and 10 settle a finished game; a finished sheet (Appendix B.4, C.4) is
entered turn by turn in seating order and replayed through the game's own turn rules.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from games.rules.base import Move
from games.rules.errors import BadSetup, IllegalEvent, check_row_lengths, wrong_length
from games.rules.events import GAME_SCORED
from games.rules.matches import (
    EntryWarning,
    GameEntry,
    OneGameMatch,
    ScoredMatchState,
    payments_settlement,
)
from games.rules.scarney_3000.game import (
    KIND,
    MAX_PARTNERS,
    MAX_SEATS,
    PARTNERSHIP_KIND,
    PartnershipScarney3000Rules,
    Scarney3000Rules,
    alternate_sides,
    read_sides,
    read_teams,
)
from games.rules.scarney_3000.play import OVER, State, end_turn, is_int, totals
from games.rules.scarney_3000.throws import DEAD_DIE_POINTS, MINIMUM, Ruleset
from games.rules.scarney_3000.view import MOST_TURNS, SIDE_NAMES, report_of
from games.rules.shapes import Integer, ListOf, Nullable, Record, record
from games.rules.wording import player_at, players_at

# --- settlement (RULES.md 0.8, 9.4, 10) ----------------------------------------------------------


def settlement_payments(
    scores: Sequence[int],
    winners: Sequence[int],
    teams: Sequence[Sequence[int]] = (),
    order: Sequence[int] | None = None,
) -> list[tuple[int, int, int]]:
    """``(payer, payee, points)``: the difference to the winner, or the side difference paired."""
    if not winners:
        return []
    if not teams:
        winner = winners[0]
        return [
            (seat, winner, scores[winner] - score)
            for seat, score in enumerate(scores)
            if seat != winner
        ]
    position = list(order if order is not None else range(len(scores))).index
    won = sorted(next(team for team in teams if winners[0] in team), key=position)
    lost = sorted(next(team for team in teams if winners[0] not in team), key=position)
    delta = sum(scores[s] for s in won) - sum(scores[s] for s in lost)
    # D-P3000-1: the i-th loser pays the i-th winner, in the order of play from the first shooter.
    return [(loser, winner, delta) for winner, loser in zip(won, lost, strict=True)]


# --- what a table records on the match (games/rules/shapes.py) ------------------------------


def sheet_events(most_seats: int, least_seats: int) -> dict[str, Record]:
    """A finished sheet (``game.scored``): a row per round in seating order, one cell per seat."""

    def rounds(cell: Nullable, least: int, doc: str) -> ListOf:
        row = ListOf(cell, most_seats, least_seats, doc="one cell per seat, in seat order")
        return ListOf(row, MOST_TURNS, least, doc=doc)

    turn = Integer(
        doc="a turn's score: 0 for a bust, else 200 or more in fifties (a lenient sheet warns "
        "of others)"
    )
    running = Integer(doc="the seat's running total after the round")
    return {
        GAME_SCORED: record(
            "A finished sheet, entered turn by turn in seating order.",
            optional=("cumulative", "scores"),
            turns=rounds(
                Nullable(turn, doc="null (or 0) for a bust or no turn"),
                1,
                "the rounds, each seat's turn in seat order",
            ),
            cumulative=Nullable(
                rounds(
                    Nullable(running, doc="null where the sheet shows none"),
                    0,
                    "the sheet's running totals, a row per round of turns",
                )
            ),
            scores=Nullable(
                ListOf(Integer(), most_seats, least_seats, doc="each seat's final score")
            ),
        )
    }


# --- the match formats ---------------------------------------------------------------------------


class Scarney3000Match(OneGameMatch):
    """A Scarney 3000 match is one game; the winner collects the difference from each loser."""

    kind = KIND
    ruleset_type: type[Any] = Ruleset
    min_seats = 2
    max_seats = MAX_SEATS
    game_rules: Scarney3000Rules = Scarney3000Rules()
    events = sheet_events(MAX_SEATS, min_seats)

    def sheet_rule(self, ruleset: Mapping[str, Any]) -> str:
        """The rule a sheet's lines follow and how the match ends, in one sentence."""
        target = ruleset.get("s3000_target")
        if ruleset.get("s3000_equal_turns"):
            end = (
                f"once a player stands at {target} or more the round is played out, and the highest"
            )
        else:
            end = f"the first to stand at {target} or more"
        return (
            f"A match is one game: {end} wins and collects the difference from each other player."
        )

    def settlement(self, state: ScoredMatchState) -> dict[str, Any]:
        entry = state.entries[0]
        order = _report_seats(entry.report.get("order"), state.seats)
        sides = self.sides(state)
        payments = settlement_payments(entry.scores, entry.winners, sides, order)
        return payments_settlement(payments, state.seats)

    def sides(self, state: ScoredMatchState) -> tuple[tuple[int, ...], ...]:
        """Each plays for himself: no sides."""
        return ()

    def sheet_winners(self, state: ScoredMatchState, scores: tuple[int, ...]) -> tuple[int, ...]:
        """The seats of the highest seat (or side) total."""
        groups = self.sides(state) or tuple((seat,) for seat in range(state.seats))
        best = max(groups, key=lambda group: sum(scores[seat] for seat in group))
        return tuple(best)

    def extra_handlers(self) -> Mapping[str, Any]:
        return {GAME_SCORED: self._sheet_game}

    def _sheet_game(self, state: ScoredMatchState, move: Move) -> ScoredMatchState:
        """A finished sheet, turn by turn, replayed through the game's own turn rules."""
        turns, cumulative, printed = _read_sheet(move.data, state.seats)
        game = self.game_rules.initial_state(
            {"teams": [list(t) for t in state.teams]} if state.teams else {},
            state.ruleset,
            state.seats,
        )
        number = len(state.entries) + 1
        game, warnings = _replay_sheet(game, turns, cumulative, number)
        seat_totals = totals(game)
        if printed is not None and list(printed) != seat_totals:
            raise IllegalEvent(
                "sheet.total_mismatch",
                f"The final scores are {seat_totals} as the turns add up, not {list(printed)}.",
                totals=seat_totals,
                game=number,
            )
        entry = GameEntry(number, None, tuple(seat_totals), game.winners, report_of(game))
        return dataclasses.replace(
            state, entries=(*state.entries, entry), warnings=(*state.warnings, *warnings)
        )


class PartnershipScarney3000Match(Scarney3000Match):
    """One Partnership Scarney 3000 game: each winning partner collects the side difference."""

    kind = PARTNERSHIP_KIND
    min_seats = 4
    max_seats = MAX_PARTNERS
    game_rules = PartnershipScarney3000Rules()
    events = sheet_events(MAX_PARTNERS, min_seats)

    def sheet_rule(self, ruleset: Mapping[str, Any]) -> str:
        """The rule a sheet's lines follow and how the match ends, in one sentence."""
        return (
            f"A match is one game to {ruleset.get('s3000_target')}, each turn added to the "
            "shooter's side: each partner of the winning side collects the side difference."
        )

    def check_teams(self, teams: Any, seats: int) -> tuple[tuple[int, ...], ...]:
        if seats not in (4, 6):
            raise BadSetup(
                "match.bad_seats",
                f"Partnership Scarney 3000 is two against two or three against three, not {seats}.",
                seats=seats,
            )
        return read_teams(teams, seats, "match") if teams else ()

    def sides(self, state: ScoredMatchState) -> tuple[tuple[int, ...], ...]:
        """The game's sides (partner throws may have formed them), else the match's teams."""
        if state.entries:
            reported = state.entries[0].report.get("sides")
            if isinstance(reported, list) and reported:
                try:
                    return read_sides(reported, state.seats, "match")
                except BadSetup:
                    pass  # not a report of this service: fall back on the match's teams
        return state.teams or alternate_sides(state.seats)

    def standing(self, state: ScoredMatchState) -> list[dict[str, Any]]:
        """Each partner's own total, his side and its total; the side total ranks."""
        scores = _entry_scores(state)
        teams = self.sides(state)
        sides = [sum(scores[seat] for seat in team) for team in teams]
        rows = []
        for index, team in enumerate(teams):
            for seat in team:
                rows.append(
                    {
                        "seat": seat,
                        "side": SIDE_NAMES[index],
                        "side_total": sides[index],
                        "match_score": scores[seat],
                        "bonuses": [],
                        "total": scores[seat],
                        "games_won": int(bool(state.entries) and seat in state.entries[0].winners),
                        "rank": 1 + sum(1 for other in sides if other > sides[index]),
                    }
                )
        return sorted(rows, key=lambda row: (row["rank"], row["seat"]))

    def next_game_setup(self, state: ScoredMatchState) -> dict[str, Any]:
        """The match's teams, if it has them, are its game's sides; else the game may draw."""
        return {"teams": [list(team) for team in state.teams]} if state.teams else {}


def _entry_scores(state: ScoredMatchState) -> tuple[int, ...]:
    return state.entries[0].scores if state.entries else (0,) * state.seats


def _report_seats(order: Any, seats: int) -> list[int] | None:
    """A game report's order of play, if it is one (every seat once)."""
    if (
        isinstance(order, list)
        and all(is_int(seat) for seat in order)
        and sorted(order) == list(range(seats))
    ):
        return [int(seat) for seat in order]
    return None


# --- sheet entry (RULES.md 0.6, Appendix B.4, C.4) -----------------------------------------------

Grid = tuple[tuple[int | None, ...], ...]


def _read_sheet(
    data: Mapping[str, Any], seats: int
) -> tuple[Grid, Grid | None, tuple[int, ...] | None]:
    """``turns`` (rounds of one figure per seat), optional ``cumulative`` and ``scores``."""
    unknown = sorted(str(key) for key in data if key not in ("turns", "cumulative", "scores"))
    if unknown:
        raise IllegalEvent(
            "event.bad_data",
            f"A Scarney 3000 sheet takes turns, cumulative and scores; {', '.join(unknown)} "
            "is unknown.",
            fields=unknown,
        )
    turns = _read_grid(data.get("turns"), seats, "turns")
    if not turns:
        raise IllegalEvent("event.bad_data", "'turns' must list at least one round.")
    cumulative = None
    if data.get("cumulative") is not None:
        cumulative = _read_grid(data["cumulative"], seats, "cumulative")
        if len(cumulative) != len(turns):
            raise wrong_length("cumulative", cumulative, len(turns), "one row per round of 'turns'")
    printed = data.get("scores")
    if isinstance(printed, list | tuple) and len(printed) != seats:
        raise wrong_length("scores", printed, seats, "one final score per seat")
    if printed is not None and (
        not isinstance(printed, list | tuple) or not all(is_int(s) for s in printed)
    ):
        raise IllegalEvent(
            "event.bad_data",
            f"'scores' must list {seats} whole numbers, each seat's final score.",
            field="scores",
        )
    return turns, cumulative, None if printed is None else tuple(printed)


def _read_grid(rows: Any, seats: int, name: str) -> Grid:
    check_row_lengths(name, rows, seats, "one figure per seat in each round")
    if not isinstance(rows, list | tuple) or not all(
        isinstance(row, list | tuple)
        and len(row) == seats
        and all(cell is None or is_int(cell) for cell in row)
        for row in rows
    ):
        raise IllegalEvent(
            "event.bad_data",
            f"'{name}' must list rounds, each of {seats} whole numbers (or null) in seat order.",
            field=name,
        )
    return tuple(tuple(row) for row in rows)


def turn_issues(score: int, seat: int, round_number: int) -> list[IllegalEvent]:
    """Why a written turn score is impossible (Appendix C.4); a bust is 0."""
    where = f"{player_at(seat)}'s turn in round {round_number}"
    issues = []
    if score and score % DEAD_DIE_POINTS:
        issues.append(
            IllegalEvent(
                "score.not_multiple_of_50",
                f"{score} ({where}) is not a Scarney 3000 turn score: every turn scores "
                f"a multiple of {DEAD_DIE_POINTS}.",
                score=score,
                seat=seat,
            )
        )
    if score and score < MINIMUM:
        issues.append(
            IllegalEvent(
                "score.below_minimum",
                f"{score} ({where}) is below the {MINIMUM} a shooter needs to stand; "
                "a bust is written 0.",
                score=score,
                seat=seat,
            )
        )
    return issues


def _replay_sheet(
    game: State, turns: Grid, cumulative: Grid | None, number: int
) -> tuple[State, list[EntryWarning]]:
    """Enter each written turn in seating order; strict refuses, lenient warns (RULES.md 0.6)."""
    warnings = []
    for round_number, row in enumerate(turns, start=1):
        for seat, written in enumerate(row):
            score = written or 0
            if game.phase == OVER or game.shooter != seat:
                if score:
                    raise _turn_not_due(game, seat, score, round_number)
            else:
                for issue in turn_issues(score, seat, round_number):
                    if game.ruleset.sheet_entry_validation == "strict":
                        raise issue
                    warnings.append(EntryWarning(number, issue.code, issue.message))
                game = end_turn(game, score)
            _check_cumulative(game, cumulative, round_number, seat)
    if game.phase != OVER:
        raise IllegalEvent(
            "sheet.game_unfinished",
            f"No one reaches {game.ruleset.s3000_target} on this sheet (totals {totals(game)}): "
            "the game is not finished.",
            totals=totals(game),
        )
    return game, warnings


def _turn_not_due(game: State, seat: int, score: int, round_number: int) -> IllegalEvent:
    if game.phase == OVER:
        why = f"the game was over, won by {players_at(game.winners)}"
    else:
        why = f"{player_at(game.shooter)} was due to shoot"
    return IllegalEvent(
        "sheet.turn_not_due",
        f"{player_at(seat)} has {score} in round {round_number}, but {why}.",
        seat=seat,
        round=round_number,
    )


def _check_cumulative(game: State, cumulative: Grid | None, round_number: int, seat: int) -> None:
    if cumulative is None:
        return
    sent = cumulative[round_number - 1][seat]
    derived = totals(game)[seat]
    if sent is not None and sent != derived:
        raise IllegalEvent(
            "sheet.cumulative_mismatch",
            f"{player_at(seat)}'s cumulative score after round {round_number} is {derived}, not "
            f"{sent}.",
            seat=seat,
            round=round_number,
            cumulative=derived,
        )


SCARNEY_3000_MATCH = Scarney3000Match()
PARTNERSHIP_SCARNEY_3000_MATCH = PartnershipScarney3000Match()
