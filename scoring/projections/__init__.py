"""Inline projections: the read models the write side keeps in step (``games.store.reactions``).

Each module owns one read model and exposes ``handle(...)`` (one event, inline) and ``rebuild()``
(from the events alone). Both go through the same row-building function, so they cannot drift.
This package is what the scoring app registers with the write side: ``handle`` for the locked
path, ``append_clauses`` for the fast path's one statement.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.db import connection, transaction

from games.store import reactions
from scoring.projections import (
    check,
    game_summary,
    match_standing,
    player_records,
    ratings,
)

# Order matters for rebuild: player records are derived from the game summaries.
MODULES = (game_summary, match_standing, player_records, ratings)


def handle(stream: Any, folded: Any, event: Any, status_before: str | None) -> None:
    """Update the read models for one appended event (status_before None: the stream is new)."""
    if stream.category == "game":
        game_summary.handle(stream, folded, event, status_before)
        if status_before != stream.status:
            # The kind's rating lock before the players' records' row locks, as in every path.
            ratings.handle_game(stream, folded, event, status_before)
            player_records.handle(folded, event, status_before, stream.status)
    elif stream.category == "match":
        match_standing.handle(stream, folded, event, status_before)
        ratings.handle_match(stream, folded, event, status_before)
    elif stream.category == "tournament":
        # The tournament's own rows are its service's to project (games.tournaments);
        # a voided or re-paired table changes what its match counts for.
        ratings.handle_tournament(stream, folded, event)


def append_clauses(
    folded: Any, status: str, recorded_at: datetime, before: Any = None
) -> list[tuple[str, Any]] | None:
    """The read-model updates of a game's legal move on the fast path, as statement pieces: the
    summary always; once the move ends the game, its bonus rows and the players' records too.
    ``before``: the state the move was folded onto (the statement writes only if the stream is
    still there), whose summary row the statement updates. None for the end of a rated game:
    rating it takes the kind's lock and the players' ratings, which the locked path reads."""
    if status != "in_progress" and ratings.rated_game(folded):
        return None
    fields = game_summary.summary_fields(folded, status)
    kept = before is not None and game_summary.same_scores(before, folded)
    clauses = [game_summary.update_clause(fields, recorded_at, scores_kept=kept)]
    if status != "in_progress":
        clauses += [game_summary.bonus_clause(fields), player_records.finish_clause(folded)]
    return clauses


def differences() -> list[str]:
    """Every read model row that differs from a re-fold of the events (``scoring.projections.
    check``), each naming its row and field."""
    return check.differences()


def rebuild_all(
    progress: Callable[[int], None] | None = None,
    report: Callable[[str, int], None] | None = None,
    workers: int = 2,
) -> None:
    """Drop and rebuild every read model from the events alone, in one transaction.

    On PostgreSQL the event table is first locked in SHARE mode until the commit: appends wait,
    so no event can land after the replay has read its stream and be missing from the rebuilt
    read models; reading events goes on. The game summaries are emptied with TRUNCATE, so their
    readers wait for the commit as well. ``workers`` processes fold the games on PostgreSQL when
    called outside a transaction (they see committed events only); ``report(module, rows)``
    follows each module's rebuild.
    """
    if connection.in_atomic_block or connection.vendor != "postgresql":
        workers = 1
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("LOCK TABLE games_event IN SHARE MODE")
        for module in MODULES:
            rows = module.rebuild(progress=progress, workers=workers)
            if report:
                report(module.__name__.rsplit(".", 1)[-1], rows)
    # Rebuilt rows keep their versions: answers kept from them must be built anew.
    reactions.publish(reactions.REBUILT)
