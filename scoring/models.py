"""Read models, each written only by its projection in scoring/projections/.

They are derived data: ``manage.py rebuild_projections`` drops and rebuilds them from the events.
"""

from __future__ import annotations

from django.db import models


class GameSummary(models.Model):
    game = models.OneToOneField(
        "games.Game", primary_key=True, on_delete=models.CASCADE, related_name="summary"
    )
    kind = models.CharField(max_length=60, verbose_name="game")
    match = models.ForeignKey("games.Match", null=True, blank=True, on_delete=models.CASCADE)
    number = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name="game number")
    status = models.CharField(max_length=20)
    version = models.PositiveIntegerField(verbose_name="events recorded")
    turn = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name="seat to play")
    expected = models.JSONField(default=list, verbose_name="what it waits for")
    scores = models.JSONField(default=list, help_text="Per seat: points, bonuses, total.")
    rating = models.CharField(max_length=40, null=True, blank=True)
    started_at = models.DateTimeField(verbose_name="started")
    updated_at = models.DateTimeField(verbose_name="last recorded")

    class Meta:
        verbose_name_plural = "game summaries"
        indexes = [models.Index(fields=["kind", "status"])]

    def __str__(self) -> str:
        return f"{self.kind} {self.game_id}: {self.status}"


class BonusAward(models.Model):
    """One itemised bonus of a finished game (RULES.md 2.5)."""

    game = models.ForeignKey(GameSummary, on_delete=models.CASCADE, related_name="bonus_awards")
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=40, verbose_name="bonus")
    points = models.IntegerField()
    pawns = models.JSONField(default=list)

    class Meta:
        verbose_name = "bonus"
        verbose_name_plural = "bonuses"
        ordering = ["game", "seat", "id"]

    def __str__(self) -> str:
        return f"{self.kind} {self.points}"


class PlayerRecord(models.Model):
    player = models.OneToOneField(
        "games.Player", primary_key=True, on_delete=models.CASCADE, related_name="record"
    )
    games_played = models.PositiveIntegerField(default=0)
    games_finished = models.PositiveIntegerField(default=0)
    best_total = models.IntegerField(null=True, blank=True, verbose_name="best game")
    points_total = models.IntegerField(default=0, verbose_name="points in all")
    last_played = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"record of player {self.player_id}"


class MatchStanding(models.Model):
    match = models.OneToOneField(
        "games.Match", primary_key=True, on_delete=models.CASCADE, related_name="standing"
    )
    format = models.CharField(max_length=60)
    status = models.CharField(max_length=20)
    version = models.PositiveIntegerField(verbose_name="events recorded")
    games = models.JSONField(default=list)
    standing = models.JSONField(default=list)
    winner = models.JSONField(default=list)
    rating = models.CharField(max_length=40, null=True, blank=True)
    # Sheet entries accepted under the lenient house rule, each naming its game (RULES.md 0.6).
    warnings = models.JSONField(default=list)
    updated_at = models.DateTimeField(verbose_name="last recorded")

    class Meta:
        # The match list's order (newest first): without it each page sorts every standing.
        indexes = [models.Index(fields=["-updated_at"], name="matchstanding_updated_desc")]

    def __str__(self) -> str:
        return f"{self.format} {self.match_id}: {self.status}"


# --- ratings (scoring/ratings, docs/DESIGN.md "Ratings") -----------------------------------------


class RatingResult(models.Model):
    """One rated result: a finished match, or a finished game played outside any match.

    ``sides`` lists the players of each side (a side of one for a player on his own), in seat
    order; ``ranks`` each side's place (1 is first, equal places tie). ``position`` is the event
    that decided it, the order in which results are rated.
    """

    stream = models.OneToOneField(
        "games.Stream", primary_key=True, on_delete=models.CASCADE, related_name="rating_result"
    )
    kind = models.CharField(max_length=60, verbose_name="game")
    position = models.BigIntegerField(verbose_name="decided by event")
    at = models.DateTimeField(verbose_name="decided")
    sides = models.JSONField(default=list)
    ranks = models.JSONField(default=list)

    class Meta:
        indexes = [models.Index(fields=["kind", "position"], name="ratingresult_kind_position")]

    def __str__(self) -> str:
        return f"{self.kind} result {self.stream_id}"


class Rating(models.Model):
    """A player's rating in one game kind, after every result of his counted so far."""

    player = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="ratings")
    kind = models.CharField(max_length=60, verbose_name="game")
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.IntegerField()
    deviation = models.IntegerField()
    games = models.PositiveIntegerField(verbose_name="results counted")
    provisional = models.BooleanField()
    # The leaderboard's order as one number, highest first (scoring.ratings.scale.board).
    board = models.BigIntegerField()
    position = models.BigIntegerField(verbose_name="last result's event")
    updated_at = models.DateTimeField(verbose_name="last rated")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "kind"], name="rating_player_kind"),
        ]
        indexes = [models.Index(fields=["kind", "provisional", "board"], name="rating_board")]

    def __str__(self) -> str:
        return f"{self.kind} rating of player {self.player_id}: {self.rating}"


class RatingPoint(models.Model):
    """A player's rating just after one rated result: his rating's history."""

    player = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=60, verbose_name="game")
    result = models.ForeignKey(RatingResult, on_delete=models.CASCADE, related_name="points")
    position = models.BigIntegerField()
    at = models.DateTimeField()
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.IntegerField()
    deviation = models.IntegerField()
    games = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "result"], name="ratingpoint_player_result"),
        ]
        indexes = [
            models.Index(fields=["kind", "position"], name="ratingpoint_kind_position"),
            models.Index(fields=["player", "kind", "position"], name="ratingpoint_player_kind"),
        ]

    def __str__(self) -> str:
        return f"player {self.player_id} after {self.result_id}: {self.rating}"
