"""The JSON shapes of a tournament, a round, its standings and its settlement, and of a season:
one each.

Read from the tournament's folded state (``games.tournaments``) and used as they are by the API,
the pages, the room's scoreboard and the printed documents, so all of them show the same thing.
"""

from __future__ import annotations

import uuid
from typing import Any

from games.store import folding
from games.store.models import Season, Stream, Tournament
from games.tournaments import season_standings
from games.tournaments.core import rounds, settlement
from games.tournaments.core import state as ts
from games.tournaments.core.season.state import FIELD


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
    labels = state.labels()
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
        "published": state.published,
        "entries": [
            {
                "player": e.player,
                "name": e.name,
                "label": labels[e.player],
                "status": "withdrawn" if e.withdrawn_after is not None else "active",
                "joined": e.joined,
            }
            for e in state.entries
        ],
    }


def round_json(
    state: ts.TournamentState, number: int, codes: dict[int, str] | None = None
) -> dict[str, Any]:
    """One round: its tables with their seats, keepers, match status and result; its byes.

    ``codes`` (table: code) are given for a director only: a table's code lets whoever holds
    it record at that table.
    """
    played = state.round(number)
    names = {e.player: e.name for e in state.entries}
    labels = state.labels()
    statuses = dict(
        Stream.objects.filter(pk__in=[t.match for t in played.tables if t.match]).values_list(
            "pk", "status"
        )
    )
    return {
        "number": played.number,
        "status": "finished" if played.closed or not played.missing else "playing",
        "closed": played.closed,
        "tables": [_table_json(t, played, (names, labels), statuses, codes) for t in played.tables],
        "byes": [
            {"player": p, "name": names.get(p, ""), "label": labels.get(p, ""), "points": pts}
            for p, pts in played.byes
        ],
        "missing": list(played.missing),
        "unconfirmed": list(played.unconfirmed),
        "seed": played.seed,
        "layouts": list(played.layouts),
    }


def _table_json(
    table: ts.Table,
    played: ts.Round,
    shown: tuple[dict[int, str], dict[int, str]],
    statuses: dict[Any, str],
    codes: dict[int, str] | None,
) -> dict[str, Any]:
    names, labels = shown
    result = table.result
    answer = {
        "table": table.number,
        "seats": [
            {"seat": i, "player": p, "name": names.get(p, ""), "label": labels.get(p, "")}
            for i, p in enumerate(table.players)
        ],
        "match": table.match,
        "keepers": list(table.keepers),
        "status": _table_status(table, played, statuses),
        "confirmed": list(table.confirmed_seats),
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
    if codes is not None:
        code = codes.get(table.number)
        answer["code"] = code
        answer["keeper_url"] = f"/t/{code}/" if code else None
    return answer


def _table_status(table: ts.Table, played: ts.Round, statuses: dict[Any, str]) -> str | None:
    """in_progress, unconfirmed (played, awaiting its players' agreement), finished, settled."""
    if not table.match:
        return None
    if not played.closed and table.unconfirmed:
        return "unconfirmed"
    return statuses.get(uuid.UUID(table.match), "in_progress")


def standings_json(state: ts.TournamentState, upto: int | None = None) -> dict[str, Any]:
    """The standings after round ``upto`` (default: the last complete round), with their
    tie-breaks and how they were reached; ``in_play`` names the round being played, if any.
    A row counting a result its table has not confirmed yet says so (``unconfirmed``)."""
    upto = state.last_complete if upto is None else upto
    table = rounds.standings_at(state, upto)
    names = {e.player: e.name for e in state.entries}
    pending = _unconfirmed_players(state, upto)
    return {
        "round": table.round,
        "in_play": state.in_play,
        "rows": [
            {
                "rank": row.rank,
                "player": row.player,
                "name": names.get(row.player, row.name),
                "label": row.name,
                "points": row.points,
                "played": row.played,
                "tiebreaks": row.tiebreaks,
                "net": row.net,
                "unconfirmed": row.player in pending,
                "ratings": [{"round": r, "rating": rating} for r, rating in row.ratings],
            }
            for row in table.rows
        ],
        "explain": table.explain,
    }


def _unconfirmed_players(state: ts.TournamentState, upto: int) -> set[int]:
    return {
        player
        for played in state.rounds[:upto]
        for table in played.tables
        if table.number in played.unconfirmed
        for player in table.players
    }


def settlement_json(state: ts.TournamentState) -> dict[str, Any]:
    """Who owes whom tonight: each player's net, paid with the fewest transfers."""
    results, _ = rounds.inputs(state, len(state.rounds))
    nets = settlement.evening_nets(results)
    names = state.labels()  # a payment line names whom to pay: by label
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


# --- a season --------------------------------------------------------------------------


def season_summary_json(season: Season) -> dict[str, Any]:
    """A season as a list shows it: its settings, from its row alone."""
    points = season.points
    return {
        "id": str(season.pk),
        "name": season.name,
        "format": season.format or None,
        "counting": {"best": season.best},
        "points": points if points == FIELD else {"by_place": [float(p) for p in points]},
        "published": season.published,
        "closed": season.closed,
        "created_at": season.created_at.isoformat(),
    }


def season_json(season: Season, user: Any) -> dict[str, Any]:
    """A season as the API shows it: its settings, its stream's version and the evenings
    ``user`` may read (by date)."""
    heads = season_standings.readable_evenings(user, season_standings.evening_heads(season))
    version = Stream.objects.filter(pk=season.pk).values_list("version", flat=True).first()
    return {
        **season_summary_json(season),
        "evenings": [
            {"tournament": str(h.tournament), "name": h.name, "date": h.date} for h in heads
        ],
        "version": version or 0,
    }
