"""The recorded streams, games, matches, events and outbox rows: read-only, as the events are."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db.models import IntegerField, OuterRef, Subquery
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from games.admin.base import ReadOnlyAdmin, ReadOnlyInline, events_link, events_url
from games.store.models import (
    Event,
    Game,
    GameSeat,
    Match,
    MatchSeat,
    Outbox,
    Stream,
)

# --- streams, games, matches, events ----------------------------------------------------------


@admin.register(Stream)
class StreamAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "category",
        "kind",
        "status",
        "version",
        "recorders",
        "created_at",
        "stream_events",
    ]
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

    @admin.display(description="events")
    def stream_events(self, stream: Stream) -> str:
        return events_link(stream.pk)


class GameSeatInline(ReadOnlyInline):
    model = GameSeat


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ["stream", "kind", "match", "number", "created_at", "stream_events"]
    list_filter = ["kind"]
    readonly_fields = ["stream_events"]
    inlines = [GameSeatInline]

    @admin.display(description="events")
    def stream_events(self, game: Game) -> str:
        return events_link(game.pk)


class MatchSeatInline(ReadOnlyInline):
    model = MatchSeat


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = [
        "stream",
        "format",
        "entry",
        "tournament",
        "round_number",
        "table_number",
        "created_at",
        "stream_events",
    ]
    list_filter = ["format", "entry"]
    list_select_related = ["stream", "tournament"]
    readonly_fields = ["table_page", "stream_events"]
    inlines = [MatchSeatInline]

    @admin.display(description="events")
    def stream_events(self, match: Match) -> str:
        return events_link(match.pk)

    @admin.display(description="page")
    def table_page(self, match: Match) -> str:
        """The way on from the record: the match's page, where it is played and agreed."""
        page = reverse("scoring-pages:match", args=[match.pk])
        return format_html('<a href="{}">the table\'s page</a>', page)


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    """Every event read-only, with who recorded it, when, and from which device."""

    list_display = [
        "position",
        "stream_link",
        "version",
        "type",
        "recorded_by",
        "recorded_at",
        "device",
    ]
    list_filter = ["stream__category", "type"]
    list_select_related = ["stream"]
    search_fields = ["id", "stream__id"]
    readonly_fields = ["recorded_by", "device"]

    def get_queryset(self, request: HttpRequest) -> Any:
        # meta["recorded_by"] is a user id: name him in the same query, not one query a row.
        users = get_user_model().objects.filter(pk=OuterRef("recorder_id"))
        return (
            super()
            .get_queryset(request)
            .annotate(recorder_id=Cast(KT("meta__recorded_by"), IntegerField()))
            .annotate(recorder_name=Subquery(users.values("username")[:1]))
        )

    @admin.display(description="event log", ordering="stream")
    def stream_link(self, event: Event) -> str:
        return format_html(
            '<a href="{}">{} {}</a>',
            events_url(event.stream_id),
            event.stream.category,
            str(event.stream_id)[:8],
        )

    @admin.display(description="recorded by")
    def recorded_by(self, event: Event) -> str:
        name = getattr(event, "recorder_name", None)
        if name:
            return str(name)
        user_id = event.meta.get("recorded_by")
        return "(the service)" if user_id is None else f"user #{user_id} (deleted)"

    @admin.display(description="device")
    def device(self, event: Event) -> str:
        return event.meta.get("device") or "-"


@admin.register(Outbox)
class OutboxAdmin(ReadOnlyAdmin):
    list_display = ["id", "task", "key", "created_at", "dispatched_at", "done_at", "attempts"]
