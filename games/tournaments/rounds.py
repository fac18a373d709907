"""A tournament's rounds: pairing the next (by its system or by hand) and pairing the current
one again, the matches started for their tables, a duplicate round's layout.

The pairing is computed here, once, by the pure core (``games.tournaments.core.rounds``) and
recorded whole in ``round.paired`` with the matches it created, so a replay never pairs again.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Sequence
from typing import Any

from django.db import transaction

from games.play import permissions, services
from games.rules import registry
from games.rules.errors import IllegalEvent, StateConflict
from games.store import folding, journal, reactions
from games.store.models import (
    Match,
    Stream,
)
from games.tournaments import keepers, recording
from games.tournaments.core import events
from games.tournaments.core import rounds as pairings
from games.tournaments.core import state as ts


@transaction.atomic
def round_pair(
    *,
    tournament_id: uuid.UUID,
    user: Any,
    tables: Sequence[Sequence[int]] | None = None,
    seed: int | None = None,
    override: bool = False,
    reason: str | None = None,
    meta: dict[str, Any] | None = None,
) -> int:
    """Pair the next round (by the system, or ``tables`` by hand) and start its matches.

    The current round is closed first when all its results are in; while a table still plays
    the answer is 409 ``round.results_missing``, and while a result awaits its table's
    confirmation 409 ``round.results_unconfirmed`` unless the director ``override``s it with a
    ``reason`` (recorded in ``round.closed``). A random first round of ``tables`` without a
    ``seed`` draws one here and records it in ``round.paired``. Each table gets its keeper code.
    """
    permissions.check_director(user)
    stream = recording.lock(tournament_id)
    folded = folding.load(stream)
    current = folded.state.current
    if current is not None and not current.closed:
        closing = {"round": current.number, **_override(current, override, reason)}
        folded = recording.append(stream, events.ROUND_CLOSED, closing, user, folded, meta=meta)
        keepers.expire_closed(stream.pk, [current.number])  # its table codes stop with it
    data = _pairing(folded.state, tables, seed, _seeds(stream.pk, folded.state))
    _start_matches(stream, folded.header, folded.state, data)
    recording.append(stream, events.PAIRED, data, user, folded, meta=meta)
    keepers.issue_round(stream.pk, data["round"], data["tables"])
    return int(data["round"])


def _override(current: ts.Round, override: bool, reason: str | None) -> dict[str, Any]:
    """What closing the round records of a director's override (nothing without one)."""
    if current.missing:
        return {}  # the fold refuses it: round.results_missing says more than unconfirmed
    if not current.unconfirmed:
        return {}
    if not override:
        remedy = 'confirm it yourself, or pair anyway with {"override": true, "reason": "..."}'
        raise unconfirmed(current, remedy)
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 500:
        raise IllegalEvent(
            "tournament.reason_required",
            "Pairing over an unconfirmed result says why in 1 to 500 characters: "
            'send {"override": true, "reason": "..."}.',
            field="reason",
        )
    return {"reason": reason.strip()}


def unconfirmed(played: ts.Round, remedy: str) -> StateConflict:
    """409: the round's results are not all confirmed; ``remedy`` says what the director may do."""
    tables = ", ".join(str(n) for n in played.unconfirmed)
    return StateConflict(
        "round.results_unconfirmed",
        f"Round {played.number}'s result at table(s) {tables} is not confirmed by its players "
        f"yet: have them confirm it at the table, {remedy}.",
        unconfirmed=list(played.unconfirmed),
    )


@transaction.atomic
def round_repair(
    *,
    tournament_id: uuid.UUID,
    reason: str,
    user: Any,
    tables: Sequence[Sequence[int]] | None = None,
    meta: dict[str, Any] | None = None,
) -> int:
    """Pair the current round again (before any of its results): its matches are abandoned.

    The field is the one of now (``pairings.repair_current``): whoever withdrew since the round
    was paired is out of it, without a bye; a late entrant since then is in it.
    """
    permissions.check_director(user)
    stream = recording.lock(tournament_id)
    folded = folding.load(stream)
    state: ts.TournamentState = folded.state
    current = state.current
    if current is None:
        raise IllegalEvent("round.out_of_order", "No round is paired yet.")
    low, high = _seats(state)
    by_hand = None if tables is None else _hand_tables(tables)
    seeds = _seeds(stream.pk, state)
    data = pairings.repair_current(state, min_size=low, max_size=high, by_hand=by_hand, seeds=seeds)
    data["reason"] = reason
    if current.layouts and not data.get("layouts"):
        # A duplicate round paired again keeps its deal: written into the event, since the fold
        # of round.repaired takes the round as the event gives it (as it always has).
        data["layouts"] = list(current.layouts)
    _start_matches(stream, folded.header, state, data)
    recording.append(stream, events.REPAIRED, data, user, folded, meta=meta)
    keepers.issue_round(stream.pk, data["round"], data["tables"])
    old = [t.match for t in current.tables if t.match]
    # After the commit, outside the tournament's lock: a match's close takes its match's lock
    # and then the tournament's, so taking them the other way round here could deadlock. The
    # tournament already ignores a set-aside match's result (round.repaired names the new ones).
    transaction.on_commit(lambda: _set_aside(old))
    return int(data["round"])


def _set_aside(matches: list[str]) -> None:
    Stream.objects.filter(pk__in=matches).update(status=Stream.Status.ABANDONED)


def _pairing(
    state: ts.TournamentState,
    tables: Sequence[Sequence[int]] | None,
    seed: int | None,
    seeds: list[int],
) -> dict[str, Any]:
    settings = state.settings
    first = not state.rounds
    if seed is None and settings.system == "tables" and first and settings.seeding == "random":
        seed = secrets.randbelow(2**31)  # recorded in round.paired: the draw can be checked
    if tables is not None:
        tables = _hand_tables(tables)
    low, high = _seats(state)
    return pairings.pair_next(
        state, seed=seed, min_size=low, max_size=high, by_hand=tables, seeds=seeds
    )


def _seeds(tournament_id: uuid.UUID, state: ts.TournamentState) -> list[int]:
    """The initial order of a tournament seeded by rating, top seed first; [] for the others.

    For the first round the read side answers the entrants' ratings in the format's game
    (``reactions.RATINGS``): rated players by rating (entry order between equals), then the
    unrated in entry order. Round 1's ``round.paired`` records the order, and every later
    pairing reads it back from there, so neither they nor a replay ask the ratings again."""
    if state.settings.seeding != "rating":
        return []
    if state.rounds:
        first = journal.event_data(tournament_id, events.PAIRED) or {}
        return [int(player) for player in first.get("seeds", ())]
    players = [entry.player for entry in state.entries]
    known = reactions.ask(reactions.RATINGS, kind=state.settings.format, players=players) or {}
    rated = sorted((p for p in players if p in known), key=lambda p: -known[p])
    return rated + [p for p in players if p not in known]


def _seats(state: ts.TournamentState) -> tuple[int, int]:
    """The fewest and most players the tournament's format seats at a table."""
    rules = registry.match_rules(state.settings.format)
    return rules.min_seats, rules.max_seats


def _hand_tables(tables: Any) -> list[list[int]]:
    if not isinstance(tables, list) or not all(
        isinstance(t, list) and t and all(isinstance(p, int) for p in t) for t in tables
    ):
        raise IllegalEvent(
            "round.bad_tables",
            "'tables' lists each table's player ids in seat order, e.g. [[12, 7], [3, 9]].",
            field="tables",
        )
    return [list(t) for t in tables]


def _start_matches(
    stream: Stream, header: dict[str, Any], state: ts.TournamentState, data: dict[str, Any]
) -> None:
    """One match per table, created by the tournament's creator, its seats in pairing order."""
    settings = state.settings
    creator = stream.created_by
    labels = state.labels()  # the table shows its players as the tournament does
    for table in data["tables"]:
        match = services.match_start(
            format=settings.format,
            players=[{"player": p} for p in table["players"]],
            shown=[labels.get(p) for p in table["players"]],
            ruleset=header.get("ruleset") or {},
            entry=settings.entry,
            user=creator,
            tournament={
                "id": str(stream.pk),
                "round": data["round"],
                "table": table["table"],
            },
        )
        table["match"] = str(match.pk)


def duplicate_layout(match: Match, number: int | None) -> Any:
    """The position game ``number`` of a duplicate round's match starts from; None outside a
    duplicate round. Before the round's layouts are recorded it is 409 ``round.not_laid_out``:
    a game laid out by its player would be another deal than the field's."""
    if number is None or match.round_number is None or match.tournament_id is None:
        return None
    folded = folding.load(Stream.objects.get(pk=match.tournament_id))
    if not folded.state.settings.duplicate:
        return None
    played = folded.state.round(match.round_number)
    if number > len(played.layouts):
        raise StateConflict(
            "round.not_laid_out",
            f"Round {played.number} of this duplicate Solitaire tournament has no layout for "
            f"game {number} yet: every player of the round plays the same deal, so the director "
            "records it first (round.laid_out, with the layouts or without them to have them "
            "dealt).",
            round=played.number,
        )
    return played.layouts[number - 1]
