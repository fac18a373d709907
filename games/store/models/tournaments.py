"""A tournament's rows: the tournament, its entries, tables and table codes.

They are projections of the tournament's stream, rewritten by its services after each event.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models

from games.store.models.streams import Match, Player, Stream


class Season(models.Model):
    """A club's season: a stream of its own (``season.created``, ``tournament.added`` ...).

    This row, and each evening's ``Tournament.season``, are projections of that stream,
    rewritten by the service after each of its events; the admin shows them, never edits them.
    """

    stream = models.OneToOneField(
        Stream,
        primary_key=True,
        on_delete=models.PROTECT,
        related_name="season",
        verbose_name="event log",
    )
    name = models.CharField(max_length=200)
    format = models.CharField(max_length=60, blank=True, default="", verbose_name="game")
    best = models.PositiveIntegerField(null=True, blank=True, verbose_name="evenings counted")
    points = models.JSONField(default=list, verbose_name="points by place")
    published = models.BooleanField(default=True, verbose_name="public")
    closed = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True, verbose_name="created")

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    @property
    def id(self) -> uuid.UUID:
        return self.stream_id


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
    # Its stream's head, copied by the store in the transaction of each of its events
    # (games.store.folding.save): a season's standings read forty evenings' heads on every
    # request, and these narrow rows cost a fraction of forty probes into the streams.
    head_version = models.PositiveIntegerField(default=0, editable=False)
    head_hash = models.CharField(max_length=64, default="", editable=False)
    # The season it counts in, if any: a projection of the season's stream (an evening belongs
    # to one season), rewritten by games.tournaments.seasons.
    season = models.ForeignKey(
        Season,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="evenings",
        editable=False,
    )

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
