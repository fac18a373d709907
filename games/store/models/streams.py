"""The rows of play: players, and streams (games and matches) with their seats.

A game or a match *is* a stream: its row here carries the stream's version and a snapshot of the
folded state, so an append locks one row, folds one event and never replays the whole stream.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


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
        SEASON = "season"  # a club's season: its evenings gathered

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress"
        FINISHED = "finished"
        SETTLED = "settled"
        ABANDONED = "abandoned"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    category = models.CharField(max_length=10, choices=Category.choices, verbose_name="log of a")
    kind = models.CharField(
        max_length=60,
        help_text="Game kind or match format, by its identifier (high-low-scarney, tontine ...).",
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
