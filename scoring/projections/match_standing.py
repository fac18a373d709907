"""Match standing: every game's scores with the cumulative figures, the standing and the rating."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction

from games.play.representation import standing_fields
from games.store.folding import Folded
from scoring.models import MatchStanding
from scoring.replay import final_states


def handle(stream: Any, folded: Folded, event: Any, status_before: str | None) -> None:
    MatchStanding.objects.update_or_create(
        match_id=stream.pk,
        defaults={"updated_at": event.recorded_at, **standing_fields(folded, stream.status)},
    )


@transaction.atomic
def rebuild(progress: Callable[[int], None] | None = None, workers: int = 1) -> int:
    """Every match's standing from its events (few streams: ``workers`` is not used here)."""
    MatchStanding.objects.all().delete()
    rows = [
        MatchStanding(
            match_id=r.stream_id,
            updated_at=r.updated_at,
            **standing_fields(r.folded, status_of(r.status, r.folded)),
        )
        for r in final_states("match", progress)
    ]
    MatchStanding.objects.bulk_create(rows, batch_size=1000)
    return len(rows)


def status_of(stored: str | None, folded: Folded) -> str:
    if stored in ("settled", "abandoned"):
        return stored
    return (
        "finished" if folded.match_rules.next_game_number(folded.state) is None else "in_progress"
    )
