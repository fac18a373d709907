"""``manage.py rebuild_projections``: drop every read model and rebuild it from the events.

Everything happens in one transaction. On PostgreSQL it begins with ``LOCK TABLE games_event IN
SHARE MODE``: events can still be read, but appends wait until the rebuild commits, so none can
slip in between the replay of its stream and the commit. Readers of the game summaries wait for
the commit too (the tables are emptied with TRUNCATE). The games are folded by ``--workers``
processes (PostgreSQL only); this process writes everything.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand
from tqdm import tqdm

from scoring import projections
from scoring.replay import count_events


class Command(BaseCommand):
    help = (
        "Drop and rebuild every read model from the events alone, in one transaction, with a "
        "progress bar. On PostgreSQL the event table is locked in SHARE mode meanwhile: appends "
        "wait until the rebuild commits, and so do readers of the game summaries."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--no-progress", action="store_true", help="Hide the progress bar.")
        parser.add_argument(
            "--workers",
            type=int,
            default=2,
            help="Processes folding the games on PostgreSQL (default 2; 1: none forked).",
        )

    def handle(
        self, *args: Any, no_progress: bool = False, workers: int = 2, **options: Any
    ) -> None:
        started = time.perf_counter()
        total = count_events()
        with tqdm(
            total=total, unit="ev", desc="events", disable=no_progress, file=self.stderr._out
        ) as bar:

            def report(name: str, rows: int) -> None:
                self.stdout.write(f"{name}: {rows} rows")

            projections.rebuild_all(progress=bar.update, report=report, workers=workers)
        seconds = time.perf_counter() - started
        self.stdout.write(f"Rebuilt from {total} events in {seconds:.1f} s.")
