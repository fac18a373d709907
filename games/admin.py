"""Admin of the write side. Events are read-only: the admin must never bypass the rules."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.models import Event, Game, GameSeat, Match, MatchSeat, Outbox, Player, Stream


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "created_at"]
    search_fields = ["name"]


@admin.register(Stream)
class StreamAdmin(ReadOnlyAdmin):
    list_display = ["id", "category", "kind", "status", "version", "recorders", "created_at"]
    list_filter = ["category", "kind", "status"]
    exclude = ["snapshot"]

    def get_queryset(self, request: HttpRequest) -> Any:
        return (
            super().get_queryset(request).select_related("created_by").prefetch_related("keepers")
        )

    @admin.display(description="recorders")
    def recorders(self, stream: Stream) -> str:
        """Who records here besides the directors: the creator, then the keepers."""
        creator = stream.created_by.get_username() if stream.created_by else "(the service)"
        keepers = ", ".join(sorted(k.get_username() for k in stream.keepers.all()))
        return f"{creator}; keepers: {keepers}" if keepers else creator


class GameSeatInline(admin.TabularInline):
    model = GameSeat
    extra = 0
    can_delete = False


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ["stream", "kind", "match", "number", "created_at"]
    list_filter = ["kind"]
    inlines = [GameSeatInline]


class MatchSeatInline(admin.TabularInline):
    model = MatchSeat
    extra = 0
    can_delete = False


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = ["stream", "format", "entry", "created_at"]
    list_filter = ["format", "entry"]
    inlines = [MatchSeatInline]


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ["position", "stream", "version", "type", "recorded_at"]
    list_filter = ["type"]
    search_fields = ["id", "stream__id"]


@admin.register(Outbox)
class OutboxAdmin(ReadOnlyAdmin):
    list_display = ["id", "task", "key", "created_at", "dispatched_at", "done_at", "attempts"]
