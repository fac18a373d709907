"""``manage.py verify_events``: re-check every stream's hash chain and re-fold it."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games import folding, store
from games.models import Stream


class Command(BaseCommand):
    help = "Re-check every event hash chain and re-fold every stream through the rule engines."

    def handle(self, *args: Any, **options: Any) -> None:
        problems: list[str] = []
        streams = events = 0
        for stream in Stream.objects.order_by("created_at", "pk").iterator():
            streams += 1
            events += stream.version
            problems.extend(verify_stream(stream))
        for problem in problems:
            self.stderr.write(problem)
        summary = f"Checked {streams} streams and {events} events: {len(problems)} problem(s)."
        if problems:
            raise CommandError(f"{summary} First: {problems[0]}")
        self.stdout.write(summary + " Every hash chain holds and every stream re-folds.")


def verify_stream(stream: Stream) -> list[str]:
    """What is wrong with one stream, each as a sentence naming the stream and version."""
    previous, expected_version = "", 1
    for row in stream.events.order_by("version"):
        where = f"stream {stream.pk} ({stream.kind}) version {row.version}"
        if row.version != expected_version:
            return [f"{where}: expected version {expected_version}, the chain has a gap."]
        if store.chain_hash(previous, row) != row.hash:
            return [f"{where}: hash mismatch, the event was altered after it was recorded."]
        previous, expected_version = row.hash, expected_version + 1
    if expected_version - 1 != stream.version:
        return [f"stream {stream.pk}: the stream row says version {stream.version}."]
    try:
        folding.refold(stream)
    except Exception as error:  # a stored event the rules now refuse is exactly what we report
        return [f"stream {stream.pk} ({stream.kind}): does not re-fold: {error}"]
    return []
