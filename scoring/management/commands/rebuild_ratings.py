"""``manage.py rebuild_ratings``: every rating found again from the events and rated in order.

``rebuild_projections`` rebuilds the ratings with every other read model; this rebuilds them
alone (after a change of the rating scale, say), in one transaction with the event table locked
in SHARE mode, as that command does: appends wait until it commits, reads go on.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand
from django.db import connection, transaction

from games.store import reactions
from scoring.projections import ratings


class Command(BaseCommand):
    help = (
        "Drop and rebuild the ratings (results, ratings, their history) from the events alone, "
        "in one transaction; appends wait meanwhile on PostgreSQL."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--workers",
            type=int,
            default=2,
            help="Processes folding the games outside matches on PostgreSQL (default 2).",
        )

    def handle(self, *args: Any, workers: int = 2, **options: Any) -> None:
        started = time.perf_counter()
        if connection.in_atomic_block or connection.vendor != "postgresql":
            workers = 1
        with transaction.atomic():
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute("LOCK TABLE games_event IN SHARE MODE")
            results = ratings.rebuild(workers=workers)
        reactions.publish(reactions.REBUILT)
        seconds = time.perf_counter() - started
        self.stdout.write(f"Rated {results} results again in {seconds:.1f} s.")
