"""Close every complete match still without its closing event, and relay what the outbox holds."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.play import services
from games.store import outbox


class Command(BaseCommand):
    help = (
        "Register the close task of every complete match without its match.settled (or "
        "match.rated) and send every outbox row not done; beat does the same on a schedule."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        registered = services.match_close_sweep()
        outbox.publisher.join(timeout=30)  # the sends the sweep's commits handed over
        sent = outbox.relay_pending()
        self.stdout.write(f"{registered} match(es) to close; {sent} outbox row(s) sent.")
