"""A tournament stream folded: each event moves the state, or is refused.

This module folds a tournament's events, refusing an event that does not fit the tournament as it
stands with a coded :class:`IllegalEvent`, like a game's rules do. It decides nothing by itself:
the pairing of a round arrives whole in ``round.paired`` (computed by ``rounds.pair_next`` and
recorded by the service), so a replay gives the same rounds whatever a pairing library would now
choose.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from games.rules.base import Move
from games.rules.errors import IllegalEvent, StateConflict
from games.tournaments.core import standings
from games.tournaments.core.events import (
    BYE_REQUESTED,
    CONFIRMED,
    CORRECTIONS,
    ENTERED,
    FORFEIT,
    KEEPER_ASSIGNED,
    LABELLED,
    LAID_OUT,
    PAIRED,
    PUBLISHED,
    REPAIRED,
    RESULT_ADJUSTED,
    RESULT_RECORDED,
    ROUND_CLOSED,
    UNPUBLISHED,
    VOIDED,
    WITHDREW,
)
from games.tournaments.core.state import (
    Entry,
    Result,
    Round,
    Table,
    TournamentState,
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
    return state.with_entry(dataclasses.replace(entry, given_label=data["label"].strip()))


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
    return state.with_entry(gone)


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
    return _refielded(state, again).with_round(again)


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
    return state.with_round(dataclasses.replace(played, layouts=tuple(layouts)))


def _keeper_assigned(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    played = state.round(data.get("round"))
    table = played.table(data.get("table"))
    keepers = tuple(sorted({*table.keepers, data["user"]}))
    return state.with_table(played, dataclasses.replace(table, keepers=keepers))


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
    return state.with_table(played, dataclasses.replace(table, result=result))


def _confirmed(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    played = state.round(data.get("round"))
    table = played.table(data.get("table"))
    if data.get("director"):
        return state.with_table(played, dataclasses.replace(table, director_confirmed=True))
    seat = data.get("seat")
    if not isinstance(seat, int) or not 0 <= seat < len(table.players):
        raise IllegalEvent(
            "result.bad_seat",
            f"Table {table.number} has seats 0 to {len(table.players) - 1}, not {seat!r}.",
            field="seat",
        )
    seats = tuple(sorted({*table.confirmed_seats, seat}))
    return state.with_table(played, dataclasses.replace(table, confirmed_seats=seats))


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
    return state.with_table(played, dataclasses.replace(table, result=result))


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
    return state.with_table(played, dataclasses.replace(table, result=result))


def _voided(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    # The table's whole match: a tournament takes a table's result from its match as a whole,
    # and no match format takes one game out of a match (docs/DESIGN.md "Tournaments").
    played, table = _corrected_table(state, data)
    zeros = tuple(0 for _ in table.players)
    points = tuple(0.0 for _ in table.players)
    result = Result("voided", points, zeros, zeros, reason=data["reason"])
    return state.with_table(played, dataclasses.replace(table, result=result))


def _round_closed(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    played = state.round(data.get("round"))
    if played.closed:
        raise IllegalEvent("round.closed", f"Round {played.number} is already closed.")
    if played.missing:
        raise results_missing(played)
    return state.with_round(dataclasses.replace(played, closed=True))


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


def _rank_points(ranks: tuple[int, ...]) -> tuple[float, ...]:
    """Match points by rank (standings.table_points); a one-player table's come later, from
    the whole field of its duplicate round."""
    return (0.0,) if len(ranks) == 1 else standings.table_points(ranks)


def _is_points(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 1


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
