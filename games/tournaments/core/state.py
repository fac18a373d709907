"""A tournament stream folded: its entries, its rounds with their tables and results.

Every step of a director's evening is an event on the tournament's stream (API.md
"Tournaments"). This module folds them, refusing an event that does not fit the tournament as it
stands with a coded :class:`IllegalEvent`, like a game's rules do. It decides nothing by itself:
the pairing of a round arrives whole in ``round.paired`` (computed by ``rounds.pair_next`` and
recorded by the service), so a replay gives the same rounds whatever a pairing library would now
choose.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.rules.base import Move
from games.rules.errors import BadSetup, IllegalEvent, StateConflict
from games.rules.events import TOURNAMENT_CREATED
from games.rules.shapes import (
    PAWN,
    REASON,
    Boolean,
    Integer,
    ListOf,
    MapOf,
    Nullable,
    Number,
    Record,
    Text,
    one_of,
    record,
)
from games.tournaments.core import standings, tiebreaks

CREATED = TOURNAMENT_CREATED
ENTERED = "player.entered"
WITHDREW = "player.withdrew"
BYE_REQUESTED = "bye.requested"
PAIRED = "round.paired"
REPAIRED = "round.repaired"
LAID_OUT = "round.laid_out"
KEEPER_ASSIGNED = "keeper.assigned"
RESULT_RECORDED = "result.recorded"
RESULT_ADJUSTED = "result.adjusted"
FORFEIT = "result.forfeited"
VOIDED = "game.voided"
ROUND_CLOSED = "round.closed"
LABELLED = "player.labelled"
CONFIRMED = "table.confirmed"  # the tournament's copy of a match's result.confirmed
PUBLISHED = "tournament.published"
UNPUBLISHED = "tournament.unpublished"

SYSTEMS = ("swiss", "round_robin", "tables")
# Written by the service from its own computation or from a match's settlement.
SERVICE_ONLY = frozenset(
    {CREATED, ENTERED, PAIRED, REPAIRED, KEEPER_ASSIGNED, RESULT_RECORDED, CONFIRMED}
)
# A director's corrections, each with a reason (POST /tournaments/{id}/events/).
CORRECTIONS = frozenset(
    {
        WITHDREW,
        BYE_REQUESTED,
        RESULT_ADJUSTED,
        FORFEIT,
        VOIDED,
        ROUND_CLOSED,
        LABELLED,
        PUBLISHED,
        UNPUBLISHED,
    }
)
EVENT_TYPES = SERVICE_ONLY | CORRECTIONS | {LAID_OUT}

ENTERING, RUNNING, FINISHED = "entering", "running", "finished"

# --- what each event's data holds (games/rules/shapes.py; the store checks a director's) -----

_PLAYER = Integer(1, doc="a player's id")
_ROUND = Integer(1, doc="round number")
_TABLE = Integer(1, doc="table number")
_LABEL = Text(40, doc="how the entry is shown: unique within the tournament")
_POSITION = MapOf(
    PAWN,
    Text(3, pattern="^C([1-9]|1[0-6])$"),
    16,
    doc='a board position, {circle: pawn}, e.g. {"C1": "B4"}',
)
_PAIRED_TABLE = record(
    "A table of the round: its players in seat order and its match.",
    optional=("match",),
    table=_TABLE,
    players=ListOf(_PLAYER, 64, 1),
    match=Text(36, doc="the table's match id"),
)
_BYE = record(
    "A player without a table this round.",
    optional=("requested",),
    player=_PLAYER,
    points=Number(0, 1, doc="the points the bye gives"),
    requested=Boolean(doc="true for a bye the player asked for"),
)
_PAIRING = {
    "round": _ROUND,
    "tables": ListOf(_PAIRED_TABLE, 1000),
    "byes": ListOf(_BYE, 1000),
    "seed": Integer(0, 2**31 - 1, doc="the draw's seed, where one was drawn"),
    "layouts": ListOf(_POSITION, 16, doc="a duplicate round's deal: one layout per game"),
    "seeds": ListOf(
        _PLAYER, 1000, doc="the first round's initial order (top seed first), where it is by rating"
    ),
}
EVENT_SHAPES: Mapping[str, Record] = {
    CREATED: record(
        'A tournament\'s settings (API.md "Tournaments").',
        optional=("confirm_results",),
        name=Text(200, doc="the tournament's name"),
        format=Text(40, doc="the match format played at every table"),
        system=Text(16, SYSTEMS, doc="how rounds are paired"),
        rounds=Nullable(Integer(1, 1000), doc="the rounds planned (null: as many as run)"),
        table_size=Integer(1, 64, doc="players per table"),
        entry=Text(8, ("live", "sheet"), doc="games played live, or entered from sheets"),
        ruleset=MapOf(
            one_of(Boolean(), Integer(), Text(64), doc="a house rule's value"),
            doc="the matches' house rules, as given (the format's own names)",
        ),
        tiebreaks=ListOf(Text(32, tiebreaks.TIEBREAKS), 8, doc="the tie-breaks, in order"),
        double=Boolean(doc="every pairing played twice (double round robin)"),
        seeding=Text(16, doc="how the first round is seeded"),
        published=Boolean(doc="whether the public sees the tournament"),
        confirm_results=Boolean(doc="results played at the tables wait for confirmation"),
    ),
    ENTERED: record(
        "A player entered (late, with a reason); ``label`` when the director typed one.",
        optional=("reason", "label"),
        player=_PLAYER,
        name=Text(100, doc="the player's name"),
        label=_LABEL,
        reason=REASON,
    ),
    LABELLED: record(
        "A director names an entry otherwise (two players of one name told apart).",
        optional=("reason",),
        player=_PLAYER,
        label=_LABEL,
        reason=REASON,
    ),
    CONFIRMED: record(
        "A seat agreed to its table's result (result.confirmed on the table's match), or a "
        "director confirmed it for the table.",
        optional=("seat", "director"),
        round=_ROUND,
        table=_TABLE,
        seat=Integer(0, 63, doc="the seat that agreed"),
        director=Boolean(doc="true: a director confirmed the whole table's result"),
    ),
    PAIRED: record(
        "A round's pairing, whole.",
        optional=("seed", "layouts", "seeds"),
        **_PAIRING,
    ),
    REPAIRED: record(
        "The current round paired again, with why.",
        optional=("seed", "layouts", "seeds"),
        reason=REASON,
        **_PAIRING,
    ),
    KEEPER_ASSIGNED: record(
        "A user keeps score at a table this round.",
        round=_ROUND,
        table=_TABLE,
        user=Text(150, doc="the keeper's username"),
    ),
    RESULT_RECORDED: record(
        "A table's match closed: its ranks, scores and nets, by seat.",
        optional=("rating", "confirmed"),
        round=_ROUND,
        table=_TABLE,
        match=Text(36, doc="the match's id"),
        ranks=ListOf(Integer(1), 64),
        scores=ListOf(Number(), 64),
        net=ListOf(Number(), 64),
        rating=Nullable(Text(64), doc="the match's rating, where the format rates"),
        confirmed=Boolean(doc="true: entered by a director, so confirmed by its entry"),
    ),
    WITHDREW: record("A player leaves the tournament.", player=_PLAYER, reason=REASON),
    BYE_REQUESTED: record(
        "A player sits out a round, for the points given.",
        player=_PLAYER,
        round=_ROUND,
        points=Number(0, 1, doc="0, 0.5 or 1"),
        reason=REASON,
    ),
    RESULT_ADJUSTED: record(
        "A director sets a table's match points.",
        round=_ROUND,
        table=_TABLE,
        points=ListOf(Number(0, 1), 64, doc="match points per seat, 0 to 1"),
        reason=REASON,
    ),
    FORFEIT: record(
        "A player forfeits his table's match.",
        round=_ROUND,
        table=_TABLE,
        player=_PLAYER,
        reason=REASON,
    ),
    VOIDED: record("A table's game is void.", round=_ROUND, table=_TABLE, reason=REASON),
    ROUND_CLOSED: record(
        "A round closed (by a director, with a reason; or before the next is paired).",
        optional=("reason",),
        round=_ROUND,
        reason=REASON,
    ),
    PUBLISHED: record(
        "A director makes the tournament public: anyone reads it and its play from now on."
    ),
    UNPUBLISHED: record(
        "A director takes the tournament from the public: from now on only its creator, "
        "keepers, linked entrants and the directors read it and its play.",
        reason=REASON,
    ),
    LAID_OUT: record(
        "A duplicate round's layouts: one position per game of the round's matches; a director "
        "who gives none has them dealt by the service, which records its seed.",
        optional=("layouts", "seed"),
        round=_ROUND,
        layouts=ListOf(_POSITION, 16, 1),
        seed=Integer(0, 2**31 - 1, doc="the seed of a deal made by the service"),
    ),
}


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


# --- events -----------------------------------------------------------------------------------


def apply(state: TournamentState, move: Move) -> TournamentState:
    """The tournament after ``move``, or IllegalEvent saying why it does not fit."""
    handler = _HANDLERS.get(move.type)
    if handler is None:
        raise IllegalEvent(
            "event.unknown_type",
            f"A tournament records none of {move.type!r}; "
            f"it records {', '.join(sorted(_HANDLERS))}.",
        )
    if move.type in _NEEDS_REASON:
        _check_reason(move)
    return handler(state, move.data)


# A director's correction says why; closing a round needs no reason (it changes no result).
# Nor does a label, which only says who is who, nor making the tournament public.
_NEEDS_REASON = (CORRECTIONS | {REPAIRED}) - {ROUND_CLOSED, LABELLED, PUBLISHED}


def _check_reason(move: Move) -> None:
    reason = move.data.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise IllegalEvent(
            "tournament.reason_required",
            f'A director\'s {move.type} says why: send {{"reason": "..."}}.',
            field="reason",
        )


def _entered(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    player = data["player"]
    if any(e.player == player for e in state.entries):
        raise IllegalEvent(
            "tournament.already_entered", f"{data['name']} is already entered.", field="player"
        )
    if state.settings.system == "round_robin" and state.rounds:
        raise IllegalEvent(
            "tournament.entries_closed",
            "A round robin's schedule is fixed by its first round: no late entries.",
        )
    joined = len(state.rounds) + 1
    label = data.get("label")
    if label is not None:
        _check_label(state, player, label)
    entry = Entry(player, data["name"], joined, given_label=label)
    return dataclasses.replace(state, entries=(*state.entries, entry))


def _labelled(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    entry = state.entry(data.get("player"))
    _check_label(state, entry.player, data.get("label"))
    return _replace_entry(state, dataclasses.replace(entry, given_label=data["label"].strip()))


def _check_label(state: TournamentState, player: int, label: Any) -> None:
    if not isinstance(label, str) or not label.strip() or len(label) > 40:
        raise IllegalEvent(
            "tournament.bad_label", 'A label is 1 to 40 characters, e.g. "Pat K.".', field="label"
        )
    others = {p: shown for p, shown in state.labels().items() if p != player}
    if label.strip().casefold() in {shown.casefold() for shown in others.values()}:
        raise IllegalEvent(
            "tournament.label_taken",
            f"Another entry is already shown as {label.strip()!r}: choose another label.",
            field="label",
        )


def _withdrew(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    entry = state.entry(data.get("player"))
    if entry.withdrawn_after is not None:
        raise IllegalEvent(
            "tournament.already_withdrawn", f"{entry.name} has already withdrawn.", field="player"
        )
    # He keeps the rounds already paired (a table in play finishes or is forfeited).
    gone = dataclasses.replace(entry, withdrawn_after=len(state.rounds))
    return _replace_entry(state, gone)


def _bye_requested(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    entry = state.entry(data.get("player"))
    number = data.get("round", len(state.rounds) + 1)
    if number != len(state.rounds) + 1:
        raise IllegalEvent(
            "bye.round_paired",
            f"A bye is requested for the next round to pair ({len(state.rounds) + 1}).",
            field="round",
        )
    points = data.get("points", 0)
    if points not in (0, 0.5, 1):
        raise IllegalEvent("bye.bad_points", "A requested bye scores 0, 0.5 or 1.", field="points")
    request = (number, entry.player, float(points))
    kept = tuple(r for r in state.requested_byes if r[:2] != request[:2])
    return dataclasses.replace(state, requested_byes=(*kept, request))


def _paired(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    number = data["round"]
    if number != len(state.rounds) + 1:
        raise IllegalEvent("round.out_of_order", f"The next round is {len(state.rounds) + 1}.")
    if state.rounds and not state.rounds[-1].closed:
        raise results_missing(state.rounds[-1])
    return dataclasses.replace(state, rounds=(*state.rounds, _round_from(data)))


def _repaired(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    current = state.current
    if current is None or data["round"] != current.number:
        raise IllegalEvent("round.out_of_order", "Only the current round may be re-paired.")
    if any(t.result is not None for t in current.tables):
        raise IllegalEvent(
            "round.has_results",
            f"Round {current.number} already has results: it can no longer be re-paired.",
        )
    # The round as the event gives it: a duplicate round's layouts are in the event when the
    # service kept them (games.tournaments.rounds.round_repair); older events re-pair without them.
    again = _round_from(data)
    return _replace_round(_refielded(state, again), again)


def _refielded(state: TournamentState, played: Round) -> TournamentState:
    """The entries as a re-pairing leaves them (``rounds.repair_current``): a player who
    withdrew after the round was first paired and is not in it now last played the round
    before; a late entrant it seats (or gives a bye) plays from this round."""
    number = played.number
    present = {p for t in played.tables for p in t.players} | {p for p, _ in played.byes}

    def moved(entry: Entry) -> Entry:
        if entry.withdrawn_after == number and entry.player not in present:
            return dataclasses.replace(entry, withdrawn_after=number - 1)
        if entry.joined > number and entry.player in present:
            return dataclasses.replace(entry, joined=number)
        return entry

    return dataclasses.replace(state, entries=tuple(moved(e) for e in state.entries))


def _round_from(data: Mapping[str, Any]) -> Round:
    tables = tuple(
        Table(t["table"], tuple(t["players"]), t.get("match"), tuple(t.get("keepers", ())))
        for t in data["tables"]
    )
    byes = tuple((b["player"], float(b["points"])) for b in data.get("byes", ()))
    layouts = tuple(data.get("layouts", ()))
    return Round(data["round"], tables, byes, data.get("seed"), layouts)


def may_lay_out(state: TournamentState, number: Any) -> Round:
    """The round ``number`` if its layouts may be recorded now, or IllegalEvent saying why."""
    if not state.settings.duplicate:
        raise IllegalEvent(
            "round.not_duplicate", "Only a duplicate Solitaire round has a layout to record."
        )
    played = state.round(number)
    if played.layouts:
        raise IllegalEvent(
            "round.already_laid_out", f"Round {played.number}'s layouts are already recorded."
        )
    return played


def _laid_out(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    # The positions themselves are checked by the service (tournaments.layouts.check) when
    # they are recorded, so that layouts recorded before that check still fold.
    played = may_lay_out(state, data.get("round"))
    layouts = data.get("layouts")
    if not isinstance(layouts, list) or not layouts:
        raise IllegalEvent(
            "round.bad_layouts", "'layouts' lists the position of each game of the round."
        )
    return _replace_round(state, dataclasses.replace(played, layouts=tuple(layouts)))


def _keeper_assigned(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    played = state.round(data.get("round"))
    table = played.table(data.get("table"))
    keepers = tuple(sorted({*table.keepers, data["user"]}))
    return _replace_table(state, played, dataclasses.replace(table, keepers=keepers))


def _result_recorded(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    played = state.round(data["round"])
    table = played.table(data["table"])
    if table.match != data.get("match"):
        return state  # a match set aside when its round was paired again
    if table.result is not None and table.result.how != "played":
        return state  # a director's result stands over the match's
    ranks = tuple(data["ranks"])
    points = tuple(data.get("points") or _rank_points(ranks))
    result = Result(
        "played",
        points,
        tuple(data["scores"]),
        tuple(data["net"]),
        ranks,
        data.get("rating"),
        by_director=bool(data.get("confirmed", False)) or not state.settings.confirm_results,
    )
    return _replace_table(state, played, dataclasses.replace(table, result=result))


def _confirmed(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    played = state.round(data.get("round"))
    table = played.table(data.get("table"))
    if data.get("director"):
        return _replace_table(state, played, dataclasses.replace(table, director_confirmed=True))
    seat = data.get("seat")
    if not isinstance(seat, int) or not 0 <= seat < len(table.players):
        raise IllegalEvent(
            "result.bad_seat",
            f"Table {table.number} has seats 0 to {len(table.players) - 1}, not {seat!r}.",
            field="seat",
        )
    seats = tuple(sorted({*table.confirmed_seats, seat}))
    return _replace_table(state, played, dataclasses.replace(table, confirmed_seats=seats))


def _result_adjusted(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    played, table = _corrected_table(state, data)
    points = data.get("points")
    if (
        not isinstance(points, list)
        or len(points) != len(table.players)
        or not all(_is_points(p) for p in points)
    ):
        raise IllegalEvent(
            "result.bad_points",
            f"'points' lists one number of match points (0 to 1) per seat of table "
            f"{table.number}: {len(table.players)} in seat order.",
            field="points",
        )
    old = table.result
    result = Result(
        "adjusted",
        tuple(float(p) for p in points),
        old.scores if old else tuple(0 for _ in table.players),
        old.net if old else tuple(0 for _ in table.players),
        reason=data["reason"],
    )
    return _replace_table(state, played, dataclasses.replace(table, result=result))


def _forfeited(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    played, table = _corrected_table(state, data)
    loser = data.get("player")
    if loser not in table.players:
        raise IllegalEvent(
            "result.not_at_table",
            f"Player {loser!r} does not sit at table {table.number} of round {played.number}.",
            field="player",
        )
    # The player who forfeits scores nothing; everyone else at the table a win.
    points = tuple(0.0 if p == loser else 1.0 for p in table.players)
    zeros = tuple(0 for _ in table.players)
    result = Result("forfeit", points, zeros, zeros, reason=data["reason"])
    return _replace_table(state, played, dataclasses.replace(table, result=result))


def _voided(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    # The table's whole match: a tournament takes a table's result from its match as a whole,
    # and no match format takes one game out of a match (docs/DESIGN.md "Tournaments").
    played, table = _corrected_table(state, data)
    zeros = tuple(0 for _ in table.players)
    points = tuple(0.0 for _ in table.players)
    result = Result("voided", points, zeros, zeros, reason=data["reason"])
    return _replace_table(state, played, dataclasses.replace(table, result=result))


def _round_closed(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    played = state.round(data.get("round"))
    if played.closed:
        raise IllegalEvent("round.closed", f"Round {played.number} is already closed.")
    if played.missing:
        raise results_missing(played)
    return _replace_round(state, dataclasses.replace(played, closed=True))


def _published(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    if state.published:
        raise IllegalEvent("tournament.already_published", "The tournament is public already.")
    return dataclasses.replace(state, published=True)


def _unpublished(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    if not state.published:
        raise IllegalEvent("tournament.not_published", "The tournament is not public.")
    return dataclasses.replace(state, published=False)


def _corrected_table(state: TournamentState, data: Mapping[str, Any]) -> tuple[Round, Table]:
    played = state.round(data.get("round"))
    if played.closed:
        raise IllegalEvent(
            "round.closed",
            f"Round {played.number} is closed; its results no longer change.",
            field="round",
        )
    return played, played.table(data.get("table"))


def results_missing(played: Round) -> StateConflict:
    tables = ", ".join(str(n) for n in played.missing)
    return StateConflict(
        "round.results_missing",
        f"Round {played.number} is still playing: no result yet from table(s) {tables}.",
        missing=list(played.missing),
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


def _rank_points(ranks: tuple[int, ...]) -> tuple[float, ...]:
    """Match points by rank (standings.table_points); a one-player table's come later, from
    the whole field of its duplicate round."""
    return (0.0,) if len(ranks) == 1 else standings.table_points(ranks)


def _is_points(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 1


def _replace_entry(state: TournamentState, entry: Entry) -> TournamentState:
    entries = tuple(entry if e.player == entry.player else e for e in state.entries)
    return dataclasses.replace(state, entries=entries)


def _replace_round(state: TournamentState, played: Round) -> TournamentState:
    rounds = tuple(played if r.number == played.number else r for r in state.rounds)
    return dataclasses.replace(state, rounds=rounds)


def _replace_table(state: TournamentState, played: Round, table: Table) -> TournamentState:
    tables = tuple(table if t.number == table.number else t for t in played.tables)
    return _replace_round(state, dataclasses.replace(played, tables=tables))


_HANDLERS = {
    ENTERED: _entered,
    WITHDREW: _withdrew,
    BYE_REQUESTED: _bye_requested,
    PAIRED: _paired,
    REPAIRED: _repaired,
    LAID_OUT: _laid_out,
    KEEPER_ASSIGNED: _keeper_assigned,
    RESULT_RECORDED: _result_recorded,
    RESULT_ADJUSTED: _result_adjusted,
    FORFEIT: _forfeited,
    VOIDED: _voided,
    ROUND_CLOSED: _round_closed,
    LABELLED: _labelled,
    CONFIRMED: _confirmed,
    PUBLISHED: _published,
    UNPUBLISHED: _unpublished,
}
