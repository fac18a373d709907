"""A tournament as it stands: its settings, entries, rounds with their tables and results.

Every step of a director's evening is an event on the tournament's stream (API.md "Tournaments",
declared in ``events``); ``fold`` moves this state by them. These classes are what the snapshot
pickles and what the standings, the pairing and the shapes read.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.rules.errors import BadSetup, IllegalEvent
from games.tournaments.core.events import SYSTEMS

ENTERING, RUNNING, FINISHED = "entering", "running", "finished"


@dataclass(frozen=True, slots=True)
class Entry:
    """A player entered: he is paired from round ``joined`` until he withdraws."""

    player: int
    name: str
    joined: int
    withdrawn_after: int | None = None  # the last round he was paired in, once he withdrew
    given_label: str | None = None  # what the director typed; else labels() makes one

    def active_in(self, round_number: int) -> bool:
        left = self.withdrawn_after is not None and round_number > self.withdrawn_after
        return round_number >= self.joined and not left


@dataclass(frozen=True, slots=True)
class Result:
    """What a table's players took from it: points, match totals, settlement nets.

    ``how`` is ``played`` (from the match), ``adjusted`` (points set by the director), ``forfeit``
    or ``voided``. ``ranks`` are the match's ranks (1 wins), empty for a director's result.
    """

    how: str
    points: tuple[float, ...]
    scores: tuple[int, ...]
    net: tuple[int, ...]
    ranks: tuple[int, ...] = ()
    rating: str | None = None
    reason: str = ""
    by_director: bool = False  # entered by a director: confirmed by its entry

    @property
    def needs_confirming(self) -> bool:
        """A result the table played and nobody who may speak for it has confirmed yet."""
        return self.how == "played" and not self.by_director


@dataclass(frozen=True, slots=True)
class Table:
    number: int
    players: tuple[int, ...]  # seat order: seat 0 starts
    match: str | None
    keepers: tuple[str, ...] = ()
    result: Result | None = None
    confirmed_seats: tuple[int, ...] = ()  # the seats that agreed to the result
    director_confirmed: bool = False

    @property
    def unconfirmed(self) -> bool:
        """Finished, and not yet agreed by every seat or confirmed by a director."""
        result = self.result
        if result is None or not result.needs_confirming or self.director_confirmed:
            return False
        return len(self.confirmed_seats) < len(self.players)


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    tables: tuple[Table, ...]
    byes: tuple[tuple[int, float], ...]  # (player, points)
    seed: int | None = None
    layouts: tuple[Any, ...] = ()  # duplicate Solitaire: one position per game of the match
    closed: bool = False

    def table(self, number: Any) -> Table:
        for table in self.tables:
            if table.number == number:
                return table
        raise IllegalEvent(
            "round.no_such_table", f"Round {self.number} has no table {number!r}.", field="table"
        )

    @property
    def missing(self) -> tuple[int, ...]:
        """The tables still without a result."""
        return tuple(t.number for t in self.tables if t.result is None)

    @property
    def unconfirmed(self) -> tuple[int, ...]:
        """The tables whose result awaits its players' agreement (none once closed: a closed
        round's results are final, those of tournaments older than confirmations included)."""
        if self.closed:
            return ()
        return tuple(t.number for t in self.tables if t.unconfirmed)


@dataclass(frozen=True, slots=True)
class Settings:
    name: str
    format: str
    system: str
    rounds: int | None
    table_size: int
    entry: str
    tiebreaks: tuple[str, ...]
    double: bool = False
    # or "random": the first round at random, its seed recorded; or "rating": the initial order
    # by the players' ratings in the format's game, recorded in round 1's round.paired
    seeding: str = "entry"
    # Results played at the tables wait for their players' confirmation; tournaments made
    # before confirmations existed took them as entered.
    confirm_results: bool = False

    @property
    def duplicate(self) -> bool:
        """Duplicate Solitaire: every player of a round plays the same layouts alone."""
        return self.format == "scarney-solitaire"


@dataclass(frozen=True, slots=True)
class TournamentState:
    settings: Settings
    entries: tuple[Entry, ...] = ()
    rounds: tuple[Round, ...] = ()
    requested_byes: tuple[tuple[int, int, float], ...] = ()  # (round, player, points)
    # Who reads it and its play (games.tournaments.reading): anyone, or its own people only.
    published: bool = True

    def entry(self, player: Any) -> Entry:
        for entry in self.entries:
            if entry.player == player:
                return entry
        raise IllegalEvent(
            "tournament.not_entered", f"Player {player!r} is not entered.", field="player"
        )

    def round(self, number: Any) -> Round:
        if isinstance(number, int) and 1 <= number <= len(self.rounds):
            return self.rounds[number - 1]
        raise IllegalEvent(
            "round.no_such_round", f"There is no round {number!r} yet.", field="round"
        )

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def planned(self) -> int | None:
        """The rounds to play: as set, or a whole round robin (an odd field sits out in turn)."""
        if self.settings.system != "round_robin":
            return self.settings.rounds
        count = len(self.entries) + len(self.entries) % 2
        return (count - 1) * (2 if self.settings.double else 1)

    @property
    def status(self) -> str:
        if not self.rounds:
            return ENTERING
        last = self.rounds[-1]
        planned = self.planned
        if planned is not None and last.number >= planned and last.closed:
            return FINISHED
        return RUNNING

    def active(self, round_number: int) -> tuple[Entry, ...]:
        return tuple(e for e in self.entries if e.active_in(round_number))

    @property
    def last_complete(self) -> int:
        """The last round whose every table has a result (0 before any)."""
        done = 0
        for played in self.rounds:
            if played.missing and not played.closed:
                break
            done = played.number
        return done

    @property
    def in_play(self) -> int | None:
        """The round being played, if it has tables still without a result."""
        current = self.current
        return current.number if current and current.number > self.last_complete else None

    def with_entry(self, entry: Entry) -> TournamentState:
        """This state with ``entry`` in place of the entry of its player."""
        entries = tuple(entry if e.player == entry.player else e for e in self.entries)
        return dataclasses.replace(self, entries=entries)

    def with_round(self, played: Round) -> TournamentState:
        rounds = tuple(played if r.number == played.number else r for r in self.rounds)
        return dataclasses.replace(self, rounds=rounds)

    def with_table(self, played: Round, table: Table) -> TournamentState:
        tables = tuple(table if t.number == table.number else t for t in played.tables)
        return self.with_round(dataclasses.replace(played, tables=tables))

    def labels(self) -> dict[int, str]:
        """Each entry's label, unique within the tournament: the director's, else the name; two
        entries of one name without a label are told apart by their order, "Pat (2)"."""
        counts: dict[str, int] = {}
        for entry in self.entries:
            if not entry.given_label:
                key = entry.name.casefold()
                counts[key] = counts.get(key, 0) + 1
        given = {e.given_label.casefold() for e in self.entries if e.given_label}
        labels: dict[int, str] = {}
        for entry in self.entries:
            if entry.given_label:
                labels[entry.player] = entry.given_label
            elif counts[entry.name.casefold()] == 1 and entry.name.casefold() not in given:
                labels[entry.player] = entry.name
        # Numbered last, around every label already given (a director's, a name of its own).
        taken = {label.casefold() for label in labels.values()}
        seen: dict[str, int] = {}
        for entry in self.entries:
            if entry.player not in labels:
                labels[entry.player] = _numbered(entry.name, seen, taken)
        return {entry.player: labels[entry.player] for entry in self.entries}


# --- start ------------------------------------------------------------------------------------


def start(header: Mapping[str, Any]) -> TournamentState:
    """The tournament before its first entry, from ``tournament.created`` (checked already)."""
    return TournamentState(
        settings=settings_from(header), published=bool(header.get("published", True))
    )


def settings_from(header: Mapping[str, Any]) -> Settings:
    system = header.get("system")
    if system not in SYSTEMS:
        raise BadSetup(
            "tournament.bad_system",
            f"system must be one of {', '.join(SYSTEMS)}, not {system!r}.",
            field="system",
        )
    return Settings(
        name=header["name"],
        format=header["format"],
        system=system,
        rounds=header.get("rounds"),
        table_size=header.get("table_size", 2),
        entry=header.get("entry", "sheet"),
        tiebreaks=tuple(header.get("tiebreaks", ())),
        double=bool(header.get("double", False)),
        seeding=header.get("seeding", "entry"),
        confirm_results=bool(header.get("confirm_results", False)),
    )


# --- helpers ----------------------------------------------------------------------------------


def _numbered(name: str, seen: dict[str, int], taken: set[str]) -> str:
    """The next "name (n)" not taken yet (by a director's label, or an earlier entry)."""
    key = name.casefold()
    number = seen.get(key, 0)
    while True:
        number += 1
        label = f"{name} ({number})"
        if label.casefold() not in taken:
            seen[key] = number
            taken.add(label.casefold())
            return label
