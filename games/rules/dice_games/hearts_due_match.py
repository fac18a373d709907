"""The Hearts Due match: one game, winner and totals only, and its finished sheet.

RULES.md 0.8 gives Hearts Due no settlement. A sheet (RULES.md 0.6) is entered round by round as
15.2 plays it: each seat on turn rolls once, in seat order; a roll scores 0, 5, 10, 15, 20, 25 or
35, or resets the total (Appendix C.5). The rolls are replayed through the game's own turn and end
rules (``hearts_due_target``, ``hearts_due_equal_turns``, extra rounds for a tie, RULES.md 0.7),
so the service derives every total and the winner itself.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from games.rules.base import Move
from games.rules.dice_games.hearts_due import (
    HEARTS_DUE,
    KIND,
    MAX_SEATS,
    RUN_SCORES,
    Ruleset,
    State,
    enter_roll,
)
from games.rules.errors import IllegalEvent, check_row_lengths, wrong_length
from games.rules.events import GAME_SCORED
from games.rules.matches import EntryWarning, GameEntry, OneGameMatch, ScoredMatchState, no_payments
from games.rules.shapes import Integer, ListOf, Nullable, Shape, Text, one_of, record
from games.rules.wording import player_at, players_at

RESET = "reset"
SHEET_KEYS = ("rolls", "cumulative", "scores")

Cell = int | str | None
Grid = tuple[tuple[Cell, ...], ...]
# The rounds of a sheet: none is fixed (a tie plays extra rounds); ample for any game.
MOST_ROUNDS = 10_000


def _rounds(cell: Shape, least: int, doc: str) -> ListOf:
    row = ListOf(cell, MAX_SEATS, HEARTS_DUE.min_seats, doc="one cell per seat, in seat order")
    return ListOf(row, MOST_ROUNDS, least, doc=doc)


ROLL_CELL = Nullable(
    one_of(
        Integer(doc="a roll's score: 0, 5, 10, 15, 20, 25 or 35 (a lenient sheet warns of others)"),
        Text(len(RESET), (RESET,), doc='"reset": three H\'s wiped out the total'),
        doc='a roll\'s score or "reset"',
    ),
    doc="null for a seat that did not roll in the round",
)
SHEET = record(
    "A finished sheet, round by round, each seat on turn rolling once.",
    optional=("cumulative", "scores"),
    rolls=_rounds(ROLL_CELL, 1, "the rounds of rolls, extra rounds included"),
    cumulative=Nullable(
        _rounds(
            Nullable(Integer(doc="the seat's total after the round"), doc="null: not written"),
            0,
            "the sheet's running totals, a row per round of rolls",
        )
    ),
    scores=Nullable(
        ListOf(Integer(), MAX_SEATS, HEARTS_DUE.min_seats, doc="each seat's final total")
    ),
)


@dataclass(frozen=True, slots=True)
class MatchRuleset(Ruleset):
    """The game's house rules, and how strictly a sheet is checked (RULES.md 0.6)."""

    ALLOWED: ClassVar[Mapping[str, tuple[object, ...]]] = {
        **Ruleset.ALLOWED,
        "sheet_entry_validation": ("strict", "lenient"),
    }

    sheet_entry_validation: str = "strict"


class HeartsDueMatch(OneGameMatch):
    """A Hearts Due match is one game: the highest total wins; nothing is paid (RULES.md 0.8)."""

    kind = KIND
    ruleset_type: type[Any] = MatchRuleset
    min_seats = HEARTS_DUE.min_seats
    max_seats = MAX_SEATS
    events = {GAME_SCORED: SHEET}

    def sheet_rule(self, ruleset: Mapping[str, Any]) -> str:
        """The rule a sheet's lines follow and how the match ends, in one sentence."""
        equal = (
            ", once everyone has rolled as often" if ruleset.get("hearts_due_equal_turns") else ""
        )
        return (
            f"A match is one game to {ruleset.get('hearts_due_target')}: the highest total "
            f"wins{equal}; nothing is paid."
        )

    def settlement(self, state: ScoredMatchState) -> dict[str, Any]:
        return no_payments(state.seats)

    def extra_handlers(self) -> Mapping[str, Any]:
        return {GAME_SCORED: self._sheet_game}

    def _sheet_game(self, state: ScoredMatchState, move: Move) -> ScoredMatchState:
        """A finished sheet, round by round, replayed through the game's turn and end rules."""
        rolls, cumulative, printed = read_sheet(move.data, state.seats)
        number = len(state.entries) + 1
        start = HEARTS_DUE.initial_state({}, state.ruleset, state.seats)
        strict = state.ruleset.sheet_entry_validation == "strict"
        game, after_rounds, issues = replay_sheet(start, rolls, strict)
        warnings = (*state.warnings, *(EntryWarning(number, i.code, i.message) for i in issues))
        _check_cumulative(after_rounds, cumulative)
        if printed is not None and printed != game.totals:
            raise IllegalEvent(
                "sheet.total_mismatch",
                f"The final totals are {list(game.totals)} as the rolls add up, not "
                f"{list(printed)}.",
                totals=list(game.totals),
                game=number,
            )
        entry = GameEntry(number, None, game.totals, game.winners)
        return dataclasses.replace(state, entries=(*state.entries, entry), warnings=warnings)


# --- the sheet (RULES.md 0.6, 15.2, 15.3, Appendix C.5) ------------------------------------------


def read_sheet(
    data: Mapping[str, Any], seats: int
) -> tuple[Grid, tuple[tuple[int | None, ...], ...] | None, tuple[int, ...] | None]:
    """``rolls`` (rounds of one cell per seat), optional ``cumulative`` rows and ``scores``."""
    unknown = sorted(str(key) for key in data if key not in SHEET_KEYS)
    if unknown:
        raise IllegalEvent(
            "event.bad_data",
            f"A Hearts Due sheet takes rolls, cumulative and scores; {', '.join(unknown)} "
            "is unknown.",
            fields=unknown,
        )
    rolls = data.get("rolls")
    check_row_lengths("rolls", rolls, seats, "one cell per seat in each round")
    if not _is_grid(rolls, seats, _is_cell) or not rolls:
        raise IllegalEvent(
            "event.bad_data",
            f"'rolls' must list rounds, each of {seats} cells in seat order: a roll's score, "
            '"reset" for three H\'s, or null for a seat that did not roll.',
            field="rolls",
        )
    cumulative = data.get("cumulative")
    check_row_lengths("cumulative", cumulative, seats, "one figure per seat in each round")
    if isinstance(cumulative, list) and len(cumulative) != len(rolls):
        raise wrong_length("cumulative", cumulative, len(rolls), "one row per round of 'rolls'")
    if cumulative is not None and not _is_grid(
        cumulative, seats, lambda c: c is None or _is_int(c)
    ):
        raise IllegalEvent(
            "event.bad_data",
            f"'cumulative' must list one row per round of 'rolls' ({len(rolls)}), each of "
            f"{seats} whole numbers (or null).",
            field="cumulative",
        )
    printed = data.get("scores")
    if isinstance(printed, list) and len(printed) != seats:
        raise wrong_length("scores", printed, seats, "one final total per seat")
    if printed is not None and (not isinstance(printed, list) or not all(map(_is_int, printed))):
        raise IllegalEvent(
            "event.bad_data",
            f"'scores' must list {seats} whole numbers, each seat's final total.",
            field="scores",
        )
    return (
        tuple(tuple(row) for row in rolls),
        None if cumulative is None else tuple(tuple(row) for row in cumulative),
        None if printed is None else tuple(printed),
    )


def replay_sheet(
    game: State, rolls: Grid, strict: bool = True
) -> tuple[State, list[tuple[int, ...]], list[IllegalEvent]]:
    """Enter each roll written, in seat order: the game, its totals after each round, and the
    impossible rolls accepted (``strict`` refuses the first instead, RULES.md 0.6)."""
    issues = []
    after_rounds = []
    for number, row in enumerate(rolls, start=1):
        for seat, cell in enumerate(row):
            due = not game.over and game.queue[0] == seat
            if cell is None:
                if due:
                    raise IllegalEvent(
                        "sheet.turn_missing",
                        f"{player_at(seat)} was due to roll in round {number}, but the sheet has "
                        "no roll for him there.",
                        seat=seat,
                        round=number,
                    )
                continue
            if not due:
                raise _roll_not_due(game, seat, cell, number)
            issue = roll_issue(cell, seat, number)
            if issue is not None and strict:
                raise issue
            if issue is not None:
                issues.append(issue)
            reset = cell == RESET
            game = enter_roll(game, (), 0 if reset else int(cell), reset)
        after_rounds.append(game.totals)
    if not game.over:
        raise IllegalEvent(
            "sheet.game_unfinished",
            f"The game is not decided on this sheet (totals {list(game.totals)}, target "
            f"{game.ruleset.hearts_due_target}): {players_at(game.queue)} still roll.",
            totals=list(game.totals),
        )
    return game, after_rounds, issues


def roll_issue(cell: Cell, seat: int, number: int) -> IllegalEvent | None:
    """Why a written roll is impossible (Appendix C.5), or None."""
    if cell == RESET or cell in RUN_SCORES:
        return None
    allowed = ", ".join(map(str, RUN_SCORES))
    return IllegalEvent(
        "score.unattainable",
        f"No Hearts Due roll scores {cell} ({player_at(seat)}, round {number}): a roll scores "
        f"{allowed}, or resets the total.",
        score=cell,
        seat=seat,
        round=number,
    )


def _roll_not_due(game: State, seat: int, cell: Cell, number: int) -> IllegalEvent:
    if game.over:
        why = f"the game was over, won by {players_at(game.winners)}"
    else:
        why = f"{player_at(game.queue[0])} was due to roll"
    return IllegalEvent(
        "sheet.turn_not_due",
        f"{player_at(seat)} has a roll ({cell}) in round {number}, but {why}.",
        seat=seat,
        round=number,
    )


def _check_cumulative(
    after_rounds: list[tuple[int, ...]], cumulative: tuple[tuple[int | None, ...], ...] | None
) -> None:
    """Each running total written must be the seat's total after that round."""
    if cumulative is None:
        return
    for number, (derived, row) in enumerate(zip(after_rounds, cumulative, strict=True), start=1):
        for seat, sent in enumerate(row):
            if sent is not None and sent != derived[seat]:
                raise IllegalEvent(
                    "sheet.cumulative_mismatch",
                    f"{player_at(seat)}'s total after round {number} is {derived[seat]}, not "
                    f"{sent}.",
                    seat=seat,
                    round=number,
                    cumulative=derived[seat],
                )


def _is_grid(rows: Any, seats: int, cell_ok: Any) -> bool:
    return isinstance(rows, list) and all(
        isinstance(row, list) and len(row) == seats and all(cell_ok(cell) for cell in row)
        for row in rows
    )


def _is_cell(cell: Any) -> bool:
    return cell is None or cell == RESET or _is_int(cell)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


HEARTS_DUE_MATCH = HeartsDueMatch()
