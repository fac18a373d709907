"""The tournament's stream and its rows: every service of the context locks the stream, appends
through play's one append (which folds through ``games.tournaments.core.fold`` and refuses what
does not fit) and rewrites the tournament's rows, projections the admin and the lists read.
"""

from __future__ import annotations

import uuid
from typing import Any

from games.play import appending
from games.store import event_types, folding, journal
from games.store.canonical import canonical
from games.store.models import (
    Stream,
    Tournament,
    TournamentEntry,
    TournamentTable,
)
from games.tournaments.core import state as ts


def lock(tournament_id: uuid.UUID) -> Stream:
    stream = journal.lock_stream(tournament_id)
    if stream.category != Stream.Category.TOURNAMENT:
        raise Stream.DoesNotExist(f"There is no tournament {tournament_id}.")
    return stream


def append(
    stream: Stream,
    type: str,
    data: dict[str, Any],
    user: Any,
    folded: folding.Folded | None = None,
    *,
    event_id: uuid.UUID | None = None,
    meta: dict[str, Any] | None = None,
) -> folding.Folded:
    # appending.append folds (refusing what does not fit) before it writes anything.
    recorded = appending.append(
        stream, event_id or uuid.uuid4(), type, data, stored_meta(user, meta), folded
    )
    _project(stream, recorded.folded.state)
    return recorded.folded


def stored_meta(user: Any, meta: dict[str, Any] | None) -> dict[str, Any]:
    """The meta stored with a director's event: the client's (checked as a game event's is,
    ``meta.*`` refusals) and who recorded it."""
    return appending.recorded_meta(user, event_types.check_meta(canonical(meta or {})))


def _project(stream: Stream, state: ts.TournamentState) -> None:
    """Rewrite the tournament's rows from its state (they are few: entries and tables)."""
    current = state.current
    # ``published`` is read by every read of the tournament's play (games.tournaments.reading):
    # rewritten here, in the event's transaction, it takes effect with its commit.
    Tournament.objects.filter(pk=stream.pk).update(
        status=state.status,
        current_round=current.number if current else 0,
        published=state.published,
    )
    names = state.labels()
    for entry in state.entries:
        TournamentEntry.objects.update_or_create(
            tournament_id=stream.pk,
            player_id=entry.player,
            defaults={
                "status": "withdrawn" if entry.withdrawn_after is not None else "active",
                "joined_round": entry.joined,
            },
        )
    for played in state.rounds:
        for table in played.tables:
            _project_table(stream, played, table, names)


def _project_table(
    stream: Stream, played: ts.Round, table: ts.Table, names: dict[int, str]
) -> None:
    result = ""
    if table.result is not None:
        points = " - ".join(f"{p:g}" for p in table.result.points)
        result = f"{table.result.how}: {points}"
    TournamentTable.objects.update_or_create(
        tournament_id=stream.pk,
        round_number=played.number,
        number=table.number,
        defaults={
            "match_id": table.match,
            "players": [names.get(p, str(p)) for p in table.players],
            "keepers": list(table.keepers),
            "result": result,
        },
    )


def account(user: Any) -> Any:
    """The user to name as a row's creator: none for the service or an anonymous request."""
    return user if getattr(user, "is_authenticated", False) else None
