"""The write side: players, streams (games and matches) and the append-only event store.

A game or a match *is* a stream: its row here carries the stream's version and a snapshot of the
folded state, so an append locks one row, folds one event and never replays the whole stream.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.db import models


class ImmutableRowError(Exception):
    """Raised on any attempt to change or delete an event: corrections are new events."""


class Player(models.Model):
    """A person of the club's register. Two members may share a name; a member number is theirs
    alone. Merging two records of one person is a director's event (``player.merged`` on the
    register stream) that sets ``merged_into``; the row itself is never edited away."""

    name = models.CharField(max_length=100)
    member_number = models.CharField(max_length=30, null=True, blank=True, unique=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        verbose_name="login",
    )
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="merged"
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name="registered")

    class Meta:
        ordering = ["name", "id"]
        indexes = [models.Index(fields=["name"], name="player_name")]

    def __str__(self) -> str:
        return self.name


class Stream(models.Model):
    """One event stream: a game or a match. Locked while an event is appended to it."""

    class Category(models.TextChoices):
        GAME = "game"
        MATCH = "match"
        TOURNAMENT = "tournament"
        REGISTER = "register"  # the player register: registrations and merges

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress"
        FINISHED = "finished"
        SETTLED = "settled"
        ABANDONED = "abandoned"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    category = models.CharField(max_length=10, choices=Category.choices, verbose_name="log of a")
    kind = models.CharField(
        max_length=60,
        help_text="Game kind or match format (RULES.md 0.3).",
        verbose_name="game or format",
    )
    version = models.PositiveIntegerField(default=0, verbose_name="events recorded")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.IN_PROGRESS)
    # A cache of the folded state at `snapshot_version`; the events stay the source of truth.
    snapshot = models.BinaryField(null=True, blank=True, editable=False)
    snapshot_version = models.PositiveIntegerField(default=0, verbose_name="snapshot at event")
    head_hash = models.CharField(
        max_length=64, default="", editable=False, verbose_name="last event's hash"
    )
    is_public = models.BooleanField(default=True, verbose_name="public")
    # A tournament's match, or a game of one: its play is read as the tournament is
    # (games.tournaments.reading), following its ``published`` at once. Set when the stream is
    # made, never changed.
    in_tournament = models.ForeignKey(
        "Tournament",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        editable=False,
        verbose_name="played in tournament",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        verbose_name="started by",
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name="started")
    # Score-keepers named by the creator or a director: they may record in this stream (and, for
    # a match, in its games), as its creator and the directors may.
    keepers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="kept_streams",
        blank=True,
        verbose_name="score-keepers",
    )

    class Meta:
        # A game's, a match's, a tournament's or the register's events, in order: its log.
        verbose_name = "event log"
        indexes = [models.Index(fields=["category", "kind", "status"])]
        permissions = [
            ("direct", "Can direct: record in any game or match and reopen finished ones"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.id}"


class Match(models.Model):
    stream = models.OneToOneField(
        Stream,
        primary_key=True,
        on_delete=models.PROTECT,
        related_name="match",
        verbose_name="event log",
    )
    format = models.CharField(max_length=60)
    entry = models.CharField(
        max_length=10,
        choices=[("live", "live"), ("sheet", "sheet")],
        default="live",
        verbose_name="recorded",
    )
    players: models.ManyToManyField[Player, MatchSeat] = models.ManyToManyField(
        Player, through="MatchSeat", related_name="matches"
    )
    # A tournament's match: its round and table (set when the round is paired).
    tournament = models.ForeignKey(
        "Tournament", null=True, blank=True, on_delete=models.PROTECT, related_name="matches"
    )
    round_number = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name="round")
    table_number = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name="table")
    created_at = models.DateTimeField(auto_now_add=True, verbose_name="started")

    class Meta:
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return f"{self.format} match {self.stream_id}"

    @property
    def id(self) -> uuid.UUID:
        return self.stream_id


class MatchSeat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT)

    class Meta:
        verbose_name = "seat"
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="match_seat_unique"),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat}: {self.player_id}"


class Game(models.Model):
    stream = models.OneToOneField(
        Stream,
        primary_key=True,
        on_delete=models.PROTECT,
        related_name="game",
        verbose_name="event log",
    )
    kind = models.CharField(max_length=60, verbose_name="game")
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.PROTECT, related_name="games"
    )
    number = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name="game number")
    players: models.ManyToManyField[Player, GameSeat] = models.ManyToManyField(
        Player, through="GameSeat", related_name="games"
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name="started")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_number_in_match"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.stream_id}"

    @property
    def id(self) -> uuid.UUID:
        return self.stream_id


class GameSeat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT)

    class Meta:
        verbose_name = "seat"
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="game_seat_unique"),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat}: {self.player_id}"


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


class Tournament(models.Model):
    """A tournament or club evening: a stream of its own (``tournament.created`` ...).

    This row and its entries, rounds and tables are projections of that stream, rewritten by the
    services after each of its events; the admin shows them and never edits them.
    """

    stream = models.OneToOneField(
        Stream,
        primary_key=True,
        on_delete=models.PROTECT,
        related_name="tournament",
        verbose_name="event log",
    )
    name = models.CharField(max_length=200)
    format = models.CharField(max_length=60, verbose_name="game")
    system = models.CharField(max_length=20, verbose_name="pairing")
    status = models.CharField(max_length=20, default="entering")
    current_round = models.PositiveSmallIntegerField(default=0)
    published = models.BooleanField(default=True, verbose_name="public")
    created_at = models.DateTimeField(auto_now_add=True, verbose_name="created")

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    @property
    def id(self) -> uuid.UUID:
        return self.stream_id


class TournamentEntry(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    status = models.CharField(max_length=20, default="active")
    joined_round = models.PositiveSmallIntegerField(default=1, verbose_name="plays from round")

    class Meta:
        verbose_name = "entry"
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"


class TournamentTable(models.Model):
    """One table of one round: its players in seat order, its match, keepers and result."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    round_number = models.PositiveSmallIntegerField(verbose_name="round")
    number = models.PositiveSmallIntegerField(verbose_name="table")
    match = models.OneToOneField(
        Match, null=True, blank=True, on_delete=models.PROTECT, related_name="tournament_table"
    )
    # Names in seat order, for the admin and cards.
    players = models.JSONField(default=list, verbose_name="players (seat 1 starts)")
    keepers = models.JSONField(default=list, verbose_name="score-keepers")
    result = models.CharField(max_length=200, blank=True, default="")

    class Meta:
        verbose_name = "table"
        ordering = ["round_number", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round_number", "number"], name="tournament_table_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"round {self.round_number} table {self.number}"


class TableCode(models.Model):
    """A table's keeper code: whoever opens ``/t/{code}/`` records at that table, and nowhere
    else, as its ``keeper`` (a user made for the code alone, with no password).

    A credential, not a fact of play: it is issued when a round is paired, stops when the round
    closes (``expired``) or when a director revokes or reissues it (``revoked``), and its keeper
    is deactivated then, so a browser holding it is refused at once.
    """

    code = models.CharField(max_length=8, unique=True)
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="codes")
    round_number = models.PositiveSmallIntegerField()
    table_number = models.PositiveSmallIntegerField()
    match = models.ForeignKey(Stream, on_delete=models.CASCADE, related_name="table_codes")
    keeper = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_code"
    )
    issued_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    expired_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "table code"
        indexes = [
            models.Index(
                fields=["tournament", "round_number", "table_number"], name="table_code_table"
            )
        ]

    def __str__(self) -> str:
        return f"round {self.round_number} table {self.table_number}"

    @property
    def live(self) -> bool:
        return self.revoked_at is None and self.expired_at is None
