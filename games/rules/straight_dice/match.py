"""The Straight Scarney Dice match format: one game, settled by the pot, and its score pads.

RULES.md 0.8 settles a finished game; a finished pad (0.6, Appendix B.5, C.5) is checked
against the play it records. The partnership format (``partnership``) derives from it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.rules.base import Move
from games.rules.dice import LONG, PotEntry, seat_of
from games.rules.errors import IllegalEvent, is_seat_number, seat_unknown, wrong_length
from games.rules.events import GAME_SCORED
from games.rules.matches import (
    EntryWarning,
    GameEntry,
    OneGameMatch,
    ScoredMatchState,
    payments_settlement,
)
from games.rules.shapes import Integer, ListOf, Nullable, Record, record
from games.rules.straight_dice.game import KIND, MAX_SEATS
from games.rules.straight_dice.play import (
    FRAMES,
    balance,
    divide_pot,
    leading_sides,
    nets,
    paid_in,
)
from games.rules.straight_dice.throws import Ruleset
from games.rules.wording import player_at

# --- what a table records on the match (games/rules/shapes.py) ------------------------------


def sheet_events(most_seats: int, least_seats: int) -> dict[str, Record]:
    """A finished score pad (``game.scored``), frame by frame, with its optional figures."""

    def per_seat(shape: Integer | ListOf, doc: str) -> ListOf:
        return ListOf(shape, most_seats, least_seats, doc=doc)

    frame = Integer(doc="a frame's score: 0 or more (a lenient sheet warns of less)")
    return {
        GAME_SCORED: record(
            "A finished score pad, as the book's pad is kept: every seat's frame scores.",
            optional=("big_scarney", "double_downs", "cumulative", "scores"),
            frames=per_seat(
                ListOf(frame, LONG, 1, doc="the seat's frame scores: seven, then extra frames"),
                "each seat's frame scores, in seat order",
            ),
            big_scarney=Nullable(
                seat_of(most_seats), doc="the seat whose Big Scarney ended the game"
            ),
            double_downs=per_seat(
                Integer(0, doc="the seat's double-downs (a chip each)"),
                "each seat's number of double-downs (none when left out)",
            ),
            cumulative=Nullable(
                per_seat(
                    ListOf(Integer(), LONG, doc="the seat's running total after each frame"),
                    "the pad's running totals, checked against the frames",
                )
            ),
            scores=Nullable(
                per_seat(Integer(), "the pad's game totals, checked against the frames")
            ),
        )
    }


# --- the match: one game, settled by the pot (RULES.md 0.8) --------------------------------------


class StraightDiceMatch(OneGameMatch):
    """A Straight Scarney Dice match is one game: the winner (side) takes the pot.

    A live game reports its pot through ``match_report``; a sheet game (``game.scored``) gives
    every seat's frame scores, ``{"frames": [[10, 12, ...], ...]}``, from which the service derives
    the totals, checks the frames of extra play (0.7) and works out the pot: ``ante_chips`` from
    everyone plus the optional ``double_downs`` (chips per seat). Optional ``scores`` (the game
    scores) and ``cumulative`` (each seat's running totals, frame by frame) are checked against
    the derived figures; ``big_scarney`` names the seat whose Big Scarney ended the game.
    """

    kind = KIND
    report_needs = ("nets",)
    ruleset_type: type[Any] = Ruleset
    min_seats = 2
    max_seats = MAX_SEATS
    events = sheet_events(MAX_SEATS, min_seats)

    def sheet_rule(self, ruleset: Mapping[str, Any]) -> str:
        """The rule a sheet's lines follow and how the match ends, in one sentence."""
        return "A match is one game of seven frames each: the highest total takes the pot."

    def sides(self, state: ScoredMatchState) -> tuple[tuple[int, ...], ...]:
        return tuple((seat,) for seat in range(state.seats))

    def standing(self, state: ScoredMatchState) -> list[dict[str, Any]]:
        """Winners first (a Big Scarney wins whatever the scores), then by side total."""
        entry = state.entries[0] if state.entries else None
        totals = list(entry.scores) if entry else [0] * state.seats
        winners = set(entry.winners) if entry else set()
        chips = list(entry.report.get("nets", [])) if entry else []
        rows: list[dict[str, Any]] = []
        for number, side in enumerate(self.sides(state)):
            side_total = sum(totals[seat] for seat in side)
            for seat in side:
                rows.append(
                    {
                        "seat": seat,
                        "match_score": totals[seat],
                        "bonuses": [],
                        "total": totals[seat],
                        "games_won": 1 if seat in winners else 0,
                        "side": number,
                        "side_total": side_total,
                        "chips": chips[seat] if len(chips) == state.seats else 0,
                    }
                )
        return _ranked(rows, winners)

    def games(self, state: ScoredMatchState) -> list[dict[str, Any]]:
        """The game row, with the score pad's frames: "frame score - cumulative" per seat."""
        rows = super().games(state)
        for row, entry in zip(rows, state.entries, strict=True):
            frames = entry.report.get("frames", [])
            row["frames"] = [
                [[score, sum(seat_frames[: i + 1])] for i, score in enumerate(seat_frames)]
                for seat_frames in frames
            ]
            row["pot"] = entry.report.get("pot")
            row["big_scarney"] = entry.report.get("big_scarney")
        return rows

    def settlement(self, state: ScoredMatchState) -> dict[str, Any]:
        """Every loser's chips paid to the winners: payments from each net, nets summing to 0."""
        report = state.entries[0].report
        return pot_settlement(list(report["nets"]), int(report.get("left_in_pot", 0)))

    def extra_handlers(self) -> Mapping[str, Any]:
        return {GAME_SCORED: self._sheet_game}

    def _sheet_game(self, state: ScoredMatchState, move: Move) -> ScoredMatchState:
        """A finished score pad, frame by frame (RULES.md 0.6, Appendix B.5, C.5)."""
        sheet = read_sheet(move.data, state.seats)
        sides = self.sides(state)
        count_issue = frame_count_issue(sheet.frames, sides, sheet.big_scarney)
        if count_issue:
            raise IllegalEvent("sheet.frame_count", count_issue)
        totals = [sum(frames) for frames in sheet.frames]
        _check_sheet_figures(move.data, sheet.frames, totals)
        warnings = state.warnings
        for issue in _frame_issues(sheet.frames):
            if state.ruleset.sheet_entry_validation == "strict":
                raise issue
            warnings = (*warnings, EntryWarning(1, issue.code, issue.message))
        side = _sheet_winning_side(sides, totals, sheet.big_scarney)
        winners = tuple(sorted(side))
        report = sheet_report(sheet, totals, winners, state.ruleset, sides)
        entry = GameEntry(1, None, tuple(totals), winners, report)
        return dataclasses.replace(state, entries=(entry,), warnings=warnings)


def _ranked(rows: list[dict[str, Any]], winners: set[int]) -> list[dict[str, Any]]:
    def key(row: dict[str, Any]) -> tuple[bool, int]:
        return (row["seat"] in winners, row["side_total"])

    for row in rows:
        row["rank"] = 1 + sum(1 for other in rows if key(other) > key(row))
    return sorted(rows, key=lambda row: (row["rank"], row["seat"]))


def pot_settlement(chip_nets: list[int], left_in_pot: int = 0) -> dict[str, Any]:
    """Payments of chips from the seats that lost chips to those that won them, in seat order.

    Chips left in the pot (``partnership_odd_chips = carry_over``) are paid by no one: the nets
    are then the pot's own, summing to minus what stays in the pot.
    """
    debtors = [[seat, -net] for seat, net in enumerate(chip_nets) if net < 0]
    payments = []
    for payee, owed in ((seat, net) for seat, net in enumerate(chip_nets) if net > 0):
        for debtor in debtors:
            paid = min(owed, debtor[1])
            if paid:
                payments.append((debtor[0], payee, paid))
                debtor[1] -= paid
                owed -= paid
    settlement = payments_settlement(payments, len(chip_nets))
    if left_in_pot:
        settlement["nets"] = list(chip_nets)
        settlement["left_in_pot"] = left_in_pot
    return settlement


@dataclass(frozen=True, slots=True)
class Sheet:
    frames: tuple[tuple[int, ...], ...]
    big_scarney: int | None
    double_downs: tuple[int, ...]


def read_sheet(data: Mapping[str, Any], seats: int) -> Sheet:
    """The frames (and optional Big Scarney, double-downs) of a sheet game, or event.bad_data."""
    frames = data.get("frames")
    if isinstance(frames, list) and len(frames) != seats:
        raise wrong_length("frames", frames, seats, "one row of frame scores per seat")
    if not isinstance(frames, list) or not all(
        isinstance(row, list) and row and all(map(_is_int, row)) for row in frames
    ):
        raise IllegalEvent(
            "event.bad_data",
            f"'frames' of game.scored must list, for each of the {seats} seats in seat order, "
            "that seat's frame scores (whole numbers, seven or more).",
            field="frames",
        )
    big = data.get("big_scarney")
    if is_seat_number(big) and not 0 <= big < seats:
        raise seat_unknown(big, seats, "big_scarney")
    if big is not None and not is_seat_number(big):
        raise IllegalEvent(
            "event.bad_data",
            f"'big_scarney' must be the seat (0 to {seats - 1}) whose Big Scarney ended the game.",
            field="big_scarney",
        )
    downs = data.get("double_downs", [0] * seats)
    if isinstance(downs, list) and len(downs) != seats:
        raise wrong_length("double_downs", downs, seats, "one number of double-downs per seat")
    if not isinstance(downs, list) or not all(_is_int(n) and n >= 0 for n in downs):
        raise IllegalEvent(
            "event.bad_data",
            f"'double_downs' must give each of the {seats} seats its number of double-downs.",
            field="double_downs",
        )
    return Sheet(tuple(tuple(row) for row in frames), big, tuple(downs))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def frame_count_issue(
    frames: Sequence[Sequence[int]], sides: Sequence[tuple[int, ...]], big_scarney: int | None
) -> str:
    """Why the number of frames per seat is not what play gives (7.4, 0.7, 7.5 rule 1), or "".

    Play is replayed round by round from seat 0: seven frames each, then one more for the members
    of the tied leading sides until the tie is broken; a Big Scarney (the named seat's last frame)
    stops the game at once.
    """
    seats = len(frames)
    played, totals = [0] * seats, [0] * seats
    for number in range(1, max(map(len, frames)) + 2):
        if number <= FRAMES:
            shooters = list(range(seats))
        else:
            leaders = leading_sides(sides, totals)
            if len(leaders) == 1:
                break
            shooters = sorted(seat for side in leaders for seat in side)
        for seat in shooters:
            if played[seat] == len(frames[seat]):
                return f"{player_at(seat)}'s frame {number} is missing: play was not over."
            totals[seat] += frames[seat][played[seat]]
            played[seat] += 1
            if seat == big_scarney and played[seat] == len(frames[seat]):
                return _extra_frames(frames, played)
    return _extra_frames(frames, played)


def _extra_frames(frames: Sequence[Sequence[int]], played: list[int]) -> str:
    for seat, row in enumerate(frames):
        if len(row) > played[seat]:
            return (
                f"{player_at(seat)} has {len(row)} frames, but play ends after {played[seat]} "
                "(seven each, then extra frames only for tied leaders, and none after a "
                "Big Scarney)."
            )
    return ""


def _check_sheet_figures(
    data: Mapping[str, Any], frames: Sequence[Sequence[int]], totals: list[int]
) -> None:
    """A sheet's own running and total figures, if sent, must be the derived ones (0.6)."""
    running = [[sum(row[: i + 1]) for i in range(len(row))] for row in frames]
    sent = data.get("cumulative")
    if sent is not None and sent != running:
        seat, i = _first_difference(sent, running)
        raise IllegalEvent(
            "sheet.cumulative_mismatch",
            f"{player_at(seat)}'s cumulative score after frame {i + 1} is {running[seat][i]}, "
            "not what the sheet shows.",
            cumulative=running,
        )
    scores = data.get("scores")
    if scores is not None and scores != totals:
        raise IllegalEvent(
            "sheet.total_mismatch",
            f"The game scores are {totals} (the sums of the frame scores), not {scores}.",
            scores=totals,
        )


def _first_difference(sent: Any, running: list[list[int]]) -> tuple[int, int]:
    for seat, row in enumerate(running):
        given = sent[seat] if isinstance(sent, list) and seat < len(sent) else None
        for i, value in enumerate(row):
            if not isinstance(given, list) or i >= len(given) or given[i] != value:
                return seat, i
    return 0, 0


def _frame_issues(frames: Sequence[Sequence[int]]) -> list[IllegalEvent]:
    """A frame score is any whole number of 0 or more (Appendix C.5)."""
    return [
        IllegalEvent(
            "score.unattainable",
            f"No frame can score {score} ({player_at(seat)}, frame {i + 1}): a frame scores 0 or "
            "more.",
            seat=seat,
            frame=i + 1,
            score=score,
        )
        for seat, row in enumerate(frames)
        for i, score in enumerate(row)
        if score < 0
    ]


def _sheet_winning_side(
    sides: Sequence[tuple[int, ...]], totals: list[int], big_scarney: int | None
) -> tuple[int, ...]:
    if big_scarney is not None:
        return next(side for side in sides if big_scarney in side)
    return leading_sides(sides, totals)[0]


def sheet_report(
    sheet: Sheet,
    totals: list[int],
    winners: tuple[int, ...],
    ruleset: Any,
    sides: Sequence[tuple[int, ...]],
) -> dict[str, Any]:
    """The pot of a sheet game: everyone's ante and double-downs, shared by the winners."""
    seats = len(totals)
    ledger = [PotEntry("ante", seat, ruleset.ante_chips) for seat in range(seats)]
    ledger += [PotEntry("double_down", seat, 1) for seat in range(seats)
               for _ in range(sheet.double_downs[seat])]  # fmt: skip
    shares = divide_pot(balance(ledger), winners, totals, ruleset)
    ledger += [PotEntry("win", seat, -chips) for seat, chips in shares if chips]
    return {
        "pot": paid_in(ledger),
        "nets": nets(ledger, seats),
        "left_in_pot": balance(ledger),
        "big_scarney": sheet.big_scarney,
        "frames": [list(row) for row in sheet.frames],
        "sides": [list(side) for side in sides],
    }


STRAIGHT_DICE_MATCH = StraightDiceMatch()
