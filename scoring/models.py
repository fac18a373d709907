"""Read models, each written only by its projection in scoring/projections/.

They are derived data: ``manage.py rebuild_projections`` drops and rebuilds them from the events.
"""

from __future__ import annotations

from django.db import models


class GameSummary(models.Model):
    game = models.OneToOneField(
        "games.Game", primary_key=True, on_delete=models.CASCADE, related_name="summary"
    )
    kind = models.CharField(max_length=60)
    match = models.ForeignKey("games.Match", null=True, blank=True, on_delete=models.CASCADE)
    number = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=20)
    version = models.PositiveIntegerField()
    turn = models.PositiveSmallIntegerField(null=True, blank=True)
    expected = models.JSONField(default=list)
    scores = models.JSONField(default=list, help_text="Per seat: points, bonuses, total.")
    rating = models.CharField(max_length=40, null=True, blank=True)
    started_at = models.DateTimeField()
    updated_at = models.DateTimeField()

    class Meta:
        verbose_name_plural = "game summaries"
        indexes = [models.Index(fields=["kind", "status"])]

    def __str__(self) -> str:
        return f"{self.kind} {self.game_id}: {self.status}"


class BonusAward(models.Model):
    """One itemised bonus of a finished game (RULES.md 2.5)."""

    game = models.ForeignKey(GameSummary, on_delete=models.CASCADE, related_name="bonus_awards")
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=40)
    points = models.IntegerField()
    pawns = models.JSONField(default=list)

    class Meta:
        ordering = ["game", "seat", "id"]

    def __str__(self) -> str:
        return f"{self.kind} {self.points}"


class PlayerRecord(models.Model):
    player = models.OneToOneField(
        "games.Player", primary_key=True, on_delete=models.CASCADE, related_name="record"
    )
    games_played = models.PositiveIntegerField(default=0)
    games_finished = models.PositiveIntegerField(default=0)
    best_total = models.IntegerField(null=True, blank=True)
    points_total = models.IntegerField(default=0)
    last_played = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"record of player {self.player_id}"


class MatchStanding(models.Model):
    match = models.OneToOneField(
        "games.Match", primary_key=True, on_delete=models.CASCADE, related_name="standing"
    )
    format = models.CharField(max_length=60)
    status = models.CharField(max_length=20)
    version = models.PositiveIntegerField()
    games = models.JSONField(default=list)
    standing = models.JSONField(default=list)
    winner = models.JSONField(default=list)
    rating = models.CharField(max_length=40, null=True, blank=True)
    # Sheet entries accepted under the lenient house rule, each naming its game (RULES.md 0.6).
    warnings = models.JSONField(default=list)
    updated_at = models.DateTimeField()

    class Meta:
        # The match list's order (newest first): without it each page sorts every standing.
        indexes = [models.Index(fields=["-updated_at"], name="matchstanding_updated_desc")]

    def __str__(self) -> str:
        return f"{self.format} {self.match_id}: {self.status}"
