"""``manage.py checkpoint``: sign the heads of every stream (docs/DESIGN.md "Checkpoints and
snapshots"); beat's ``scoring.checkpoint`` does the same on a schedule."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.store import checkpoints


class Command(BaseCommand):
    help = (
        "Sign the head (version and hash) of every stream with the checkpoint key "
        "(CHECKPOINT_KEY, or CHECKPOINT_KEY_FILE made on first use)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        made = checkpoints.create()
        for problem in made.problems:
            self.stderr.write(problem)
        if made.checkpoint is None and made.problems:
            # Not "nothing changed": the streams named may have moved, their new heads unsigned.
            self.stdout.write(
                f"No new checkpoint: the streams named kept their signed heads, no other stream "
                f"moved ({made.streams} streams)."
            )
        elif made.checkpoint is None:
            self.stdout.write(
                f"Nothing changed since the last checkpoint ({made.streams} streams)."
            )
        else:
            self.stdout.write(
                f"{checkpoints.describe(made.checkpoint)}: signed the heads of {made.streams} "
                f"streams, digest {made.checkpoint.digest}, key {made.checkpoint.key_id[:16]}."
            )
        if made.problems:
            raise CommandError(
                f"{len(made.problems)} problem(s); a stream whose history no longer leads to its "
                f"signed head kept that head. First: {made.problems[0]}"
            )
