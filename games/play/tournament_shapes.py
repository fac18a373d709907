"""The JSON shapes of a tournament, a round, its standings and its settlement: one each.

Read from the tournament's folded state (``games.tournaments``) and used as they are by the API,
the pages, the room's scoreboard and the printed documents, so all of them show the same thing.
"""

from __future__ import annotations

import uuid
from typing import Any

from games.store import folding
from games.store.models import Stream, Tournament
from games.tournaments import rounds, settlement
from games.tournaments import state as ts


def summary_json(tournament: Tournament) -> dict[str, Any]:
    """A tournament as the lists show it: from its row, without folding its stream."""
    return {
        "id": str(tournament.pk),
        "name": tournament.name,
        "format": tournament.format,
        "system": tournament.system,
        "status": tournament.status,
        "round": tournament.current_round,
        "created_at": tournament.created_at.isoformat(),
    }


def tournament_json(folded: folding.Folded, pk: uuid.UUID) -> dict[str, Any]:
    """A tournament: its settings, status, rounds planned and entries, folded from its events."""
    state: ts.TournamentState = folded.state
    settings = state.settings
    current = state.current
    return {
        "id": str(pk),
        "name": settings.name,
        "format": settings.format,
        "system": settings.system,
        "status": state.status,
        "version": folded.version,
        "round": current.number if current else 0,
        "rounds": rounds.planned_rounds(state),
        "table_size": settings.table_size,
        "entry": settings.entry,
        "tiebreaks": list(settings.tiebreaks),
        "double": settings.double,
        "entries": [
            {
                "player": e.player,
                "name": e.name,
                "status": "withdrawn" if e.withdrawn_after is not None else "active",
                "joined": e.joined,
            }
            for e in state.entries
        ],
    }


def round_json(state: ts.TournamentState, number: int) -> dict[str, Any]:
    """One round: its tables with their seats, keepers, match status and result; its byes."""
    played = state.round(number)
    names = {e.player: e.name for e in state.entries}
    statuses = dict(
        Stream.objects.filter(pk__in=[t.match for t in played.tables if t.match]).values_list(
            "pk", "status"
        )
    )
    return {
        "number": played.number,
        "status": "finished" if played.closed or not played.missing else "playing",
        "closed": played.closed,
        "tables": [_table_json(t, names, statuses) for t in played.tables],
        "byes": [{"player": p, "name": names.get(p, ""), "points": pts} for p, pts in played.byes],
        "missing": list(played.missing),
        "seed": played.seed,
        "layouts": list(played.layouts),
    }


def _table_json(table: ts.Table, names: dict[int, str], statuses: dict[Any, str]) -> dict[str, Any]:
    result = table.result
    return {
        "table": table.number,
        "seats": [
            {"seat": i, "player": p, "name": names.get(p, "")} for i, p in enumerate(table.players)
        ],
        "match": table.match,
        "keepers": list(table.keepers),
        "status": statuses.get(uuid.UUID(table.match), "in_progress") if table.match else None,
        "result": None
        if result is None
        else {
            "how": result.how,
            "points": list(result.points),
            "scores": list(result.scores),
            "net": list(result.net),
            "ranks": list(result.ranks),
            "rating": result.rating,
            "reason": result.reason,
        },
    }


def standings_json(state: ts.TournamentState, upto: int) -> dict[str, Any]:
    """The standings after round ``upto``, with their tie-breaks and how they were reached."""
    table = rounds.standings_at(state, upto)
    return {
        "round": table.round,
        "rows": [
            {
                "rank": row.rank,
                "player": row.player,
                "name": row.name,
                "points": row.points,
                "played": row.played,
                "tiebreaks": row.tiebreaks,
                "net": row.net,
                "ratings": [{"round": r, "rating": rating} for r, rating in row.ratings],
            }
            for row in table.rows
        ],
        "explain": table.explain,
    }


def settlement_json(state: ts.TournamentState) -> dict[str, Any]:
    """Who owes whom tonight: each player's net, paid with the fewest transfers."""
    results, _ = rounds.inputs(state, len(state.rounds))
    nets = settlement.evening_nets(results)
    names = {e.player: e.name for e in state.entries}
    # Chips left in a pot (a split remainder) stay there; the rest is paid between players.
    left = settlement.left_in_pot(nets)
    payments = settlement.fewest_transfers(nets)
    return {
        "nets": [
            {"player": p, "name": names.get(p, ""), "net": n} for p, n in sorted(nets.items())
        ],
        "payments": [
            {
                "from": payer,
                "from_name": names.get(payer, ""),
                "to": payee,
                "to_name": names.get(payee, ""),
                "points": amount,
            }
            for payer, payee, amount in payments
        ],
        "left_in_pot": left,
    }
