"""The append-only log: events, past snapshots, the outbox of side effects, checkpoints."""

from __future__ import annotations

from typing import Any

from django.db import models

from games.store.models.streams import Stream


class ImmutableRowError(Exception):
    """Raised on any attempt to change or delete an event: corrections are new events."""


class EventQuerySet(models.QuerySet["Event"]):
    def update(self, **kwargs: Any) -> int:
        raise ImmutableRowError("Events are append-only: record a correcting event instead.")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise ImmutableRowError("Events are append-only and are never deleted.")


class Event(models.Model):
    """An immutable fact. Written only by games.store.journal; never updated, never deleted."""

    position = models.BigAutoField(primary_key=True, verbose_name="number")
    id = models.UUIDField(
        unique=True, help_text="Client-made; a retry sends the same one.", verbose_name="event id"
    )
    # No index of its own: the unique (stream, version) index serves every lookup by stream.
    stream = models.ForeignKey(
        Stream,
        on_delete=models.PROTECT,
        related_name="events",
        db_index=False,
        verbose_name="event log",
    )
    version = models.PositiveIntegerField(verbose_name="number in its log")
    type = models.CharField(max_length=60, verbose_name="what happened")
    schema_version = models.PositiveSmallIntegerField(default=1)
    data = models.JSONField(default=dict, verbose_name="details")
    meta = models.JSONField(default=dict, verbose_name="recorded with")
    recorded_at = models.DateTimeField()
    hash = models.CharField(max_length=64)

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["stream", "version"], name="event_stream_version"),
        ]

    def __str__(self) -> str:
        return f"{self.stream_id}#{self.version} {self.type}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ImmutableRowError("Events are append-only: record a correcting event instead.")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ImmutableRowError("Events are append-only and are never deleted.")


class PastSnapshot(models.Model):
    """A stream's state at a version that is a multiple of ``games.store.journal.KEEP_EVERY``, kept
    so that a state of the past (a retry's original answer, ``?at_version=``) folds at most that
    many events rather than the whole stream. A cache like ``Stream.snapshot``, authenticated
    the same way (games.store.folding); written by games.store.journal with the event of its
    version."""

    pk = models.CompositePrimaryKey("stream_id", "version")
    stream = models.ForeignKey(Stream, on_delete=models.CASCADE, related_name="+", db_index=False)
    version = models.PositiveIntegerField()
    snapshot = models.BinaryField()

    def __str__(self) -> str:
        return f"{self.stream_id}@{self.version}"


class Outbox(models.Model):
    """A side effect registered in the transaction that caused it; relayed after commit."""

    task = models.CharField(max_length=100)
    args = models.JSONField(default=list, verbose_name="arguments")
    key = models.CharField(max_length=200, unique=True, help_text="One side effect per key.")
    created_at = models.DateTimeField(auto_now_add=True, verbose_name="registered")
    dispatched_at = models.DateTimeField(null=True, blank=True, verbose_name="sent")
    # Set in the transaction that records the side effect's result (the closing event): a row
    # sent but not done is sent again after a timeout, so a lost task is never lost for good.
    done_at = models.DateTimeField(null=True, blank=True, verbose_name="done")
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True, default="")

    class Meta:
        # What an event asked to be done after it (a match closed, a document rendered).
        verbose_name = "background task"
        indexes = [
            models.Index(fields=["dispatched_at", "id"]),
            models.Index(fields=["done_at", "id"], name="outbox_not_done"),
        ]

    def __str__(self) -> str:
        return f"{self.task} {self.key}"


class Checkpoint(models.Model):
    """The heads of every stream at one moment, signed with a key the database does not hold.

    ``heads`` maps each stream id to ``[version, head hash]``; ``signature`` is the Ed25519
    signature of ``digest`` (SHA-256 of the heads' canonical JSON); ``key_id`` names the public
    key. A rewrite of history that recomputes the hash chain no longer matches a signed head.
    """

    created_at = models.DateTimeField(auto_now_add=True)
    heads = models.JSONField(default=dict)
    digest = models.CharField(max_length=64)
    signature = models.CharField(max_length=128)
    key_id = models.CharField(max_length=64)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"checkpoint {self.pk} of {len(self.heads)} streams"
