"""``manage.py rebuild_projections``: drop every read model and rebuild it from the events."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand
from tqdm import tqdm

from scoring import projections
from scoring.replay import count_events


class Command(BaseCommand):
    help = "Drop and rebuild every read model from the events alone, with a progress bar."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--no-progress", action="store_true", help="Hide the progress bar.")

    def handle(self, *args: Any, no_progress: bool = False, **options: Any) -> None:
        started = time.perf_counter()
        total = count_events()
        with tqdm(
            total=total, unit="ev", desc="events", disable=no_progress, file=self.stderr._out
        ) as bar:
            for module in projections.MODULES:
                name = module.__name__.rsplit(".", 1)[-1]
                bar.set_description(name)
                rows = module.rebuild(progress=bar.update)
                self.stdout.write(f"{name}: {rows} rows")
        seconds = time.perf_counter() - started
        self.stdout.write(f"Rebuilt from {total} events in {seconds:.1f} s.")
