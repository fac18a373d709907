"""Admin of the read models: read-only, they are rebuilt from the events."""

from django.contrib import admin

from games.admin.base import ReadOnlyAdmin
from scoring.models import BonusAward, GameSummary, MatchStanding, PlayerRecord


@admin.register(GameSummary)
class GameSummaryAdmin(ReadOnlyAdmin):
    list_display = ["game", "kind", "status", "version", "rating", "updated_at"]
    list_filter = ["kind", "status"]


@admin.register(BonusAward)
class BonusAwardAdmin(ReadOnlyAdmin):
    list_display = ["game", "seat", "kind", "points"]
    list_filter = ["kind"]


@admin.register(PlayerRecord)
class PlayerRecordAdmin(ReadOnlyAdmin):
    list_display = ["player", "games_played", "games_finished", "best_total", "points_total"]


@admin.register(MatchStanding)
class MatchStandingAdmin(ReadOnlyAdmin):
    list_display = ["match", "format", "status", "rating", "updated_at"]
