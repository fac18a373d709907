"""Inline projections: called by games.services in the appending transaction.

Each module owns one read model and exposes ``handle(...)`` (one event, inline) and ``rebuild()``
(from the events alone). Both go through the same row-building function, so they cannot drift.
"""

from __future__ import annotations

from typing import Any

from scoring.projections import game_summary, match_standing, player_records

# Order matters for rebuild: player records are derived from the game summaries.
MODULES = (game_summary, match_standing, player_records)


def handle(stream: Any, folded: Any, event: Any, status_before: str | None) -> None:
    """Update the read models for one appended event (status_before None: the stream is new)."""
    if stream.category == "game":
        game_summary.handle(stream, folded, event, status_before)
        if status_before != stream.status:
            player_records.handle(folded, event, status_before, stream.status)
    else:
        match_standing.handle(stream, folded, event, status_before)
