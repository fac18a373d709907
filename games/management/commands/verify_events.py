"""``manage.py verify_events``: re-check every stream's hash chain against the signed checkpoints,
re-fold it, and with ``--projections`` compare every read model with a re-fold."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.store import checkpoints, reactions
from games.store.models import Stream


class Command(BaseCommand):
    help = (
        "Re-check every event hash chain and every head the checkpoints signed, and re-fold every "
        "stream through the rule engines; --projections also compares every read model row."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--projections",
            action="store_true",
            help="Also compare every read model row with a re-fold of the events.",
        )
        parser.add_argument(
            "--checkpoints",
            type=int,
            default=None,
            metavar="N",
            help="Check against the newest N checkpoints only (default: all of them).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        signed = checkpoints.signed_heads(options["checkpoints"])
        problems: list[str] = list(signed.problems)
        streams = events = 0
        seen: set[str] = set()
        for stream in Stream.objects.order_by("created_at", "pk").iterator():
            streams += 1
            events += stream.version
            seen.add(str(stream.pk))
            problems.extend(checkpoints.verify_stream(stream, signed.of(stream.pk)))
        problems.extend(checkpoints.missing_streams(signed, seen))
        if options["projections"]:
            problems.extend(reactions.current().differences())
        for problem in problems:
            self.stderr.write(problem)
        summary = f"Checked {streams} streams and {events} events: {len(problems)} problem(s)."
        if problems:
            raise CommandError(f"{summary} First: {problems[0]}")
        self.stdout.write(summary + " Every hash chain holds and every stream re-folds.")
        if signed.checkpoints:
            newest = signed.checkpoints[0]
            self.stdout.write(
                f"Every head signed by {len(signed.checkpoints)} checkpoint(s) still holds; the "
                f"newest is {checkpoints.describe(newest)}: events recorded since are covered "
                "by their hash chain only."
            )
        else:
            self.stdout.write(
                "No checkpoint: a rewrite that recomputes the hash chains would pass unnoticed "
                "(manage.py checkpoint signs every stream's head)."
            )
        if options["projections"]:
            self.stdout.write("Every read model row equals a re-fold of the events.")
