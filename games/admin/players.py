"""The player register in the admin: register a player, merge two records of one person."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse

from games.admin.base import ADMIN_META, DirectorViewMixin, form_page, refusals
from games.play import permissions, register
from games.store.models import (
    Player,
)

# --- players ----------------------------------------------------------------------------------


class PlayerRegisterForm(forms.Form):
    name = forms.CharField(max_length=100)
    member_number = forms.CharField(max_length=30, required=False)


class PlayerMergeForm(forms.Form):
    into = forms.ModelChoiceField(
        queryset=Player.objects.none(), label="Merge into", help_text="The record that stays."
    )
    reason = forms.CharField(max_length=500, widget=forms.TextInput(attrs={"size": 60}))

    def __init__(self, *args: Any, merging: QuerySet[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        keep = Player.objects.filter(merged_into=None).exclude(pk__in=merging.values("pk"))
        self.fields["into"].queryset = keep  # type: ignore[attr-defined]


@admin.register(Player)
class PlayerAdmin(DirectorViewMixin, admin.ModelAdmin):
    """The register: players are added and merged by the services, never renamed by a save."""

    list_display = ["name", "member_number", "merged_into", "user", "created_at"]
    list_select_related = ["merged_into", "user"]
    search_fields = ["name", "member_number"]
    actions = ["merge_players"]
    # Only the login a player is linked to is edited here (no event records it).
    readonly_fields = ["name", "member_number", "merged_into", "created_at"]
    fields = ["name", "member_number", "merged_into", "user", "created_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return permissions.is_director(request.user) or super().has_add_permission(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return permissions.is_director(request.user) or super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # seats and events name him: a duplicate is merged, never deleted

    def save_model(self, request: HttpRequest, obj: Player, form: Any, change: bool) -> None:
        # Write the one editable column: a full save would put back a merged_into read before
        # a merge that committed meanwhile.
        obj.save(update_fields=["user"])

    def add_view(
        self, request: HttpRequest, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = PlayerRegisterForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            with refusals(request):
                player = register.player_register(
                    name=form.cleaned_data["name"],
                    member_number=form.cleaned_data["member_number"] or None,
                    user=request.user,
                    meta=ADMIN_META,
                )
                messages.success(request, f"{player.name} is registered.")
                return HttpResponseRedirect(reverse("admin:games_player_change", args=[player.pk]))
        return form_page(self, request, form, title="Register a player", submit="Register")

    @admin.action(description="Merge the selected players into another record")
    def merge_players(self, request: HttpRequest, queryset: QuerySet[Player]) -> Any:
        """An intermediate page (into whom, why); each merge is a ``player.merged`` event."""
        form = PlayerMergeForm(request.POST if "apply" in request.POST else None, merging=queryset)
        if form.is_valid():
            self._merge(request, queryset, form.cleaned_data["into"], form.cleaned_data["reason"])
            return None  # back to the changelist
        hidden: list[tuple[str, Any]] = [("action", "merge_players"), ("apply", "1")]
        hidden += [(ACTION_CHECKBOX_NAME, p.pk) for p in queryset]
        names = ", ".join(f"{p.name} (#{p.pk})" for p in queryset)
        return form_page(
            self,
            request,
            form,
            title="Merge players",
            submit="Merge",
            hidden=hidden,
            intro=f"Merging {names}: their seats will resolve to the record chosen here; "
            "their past events stay as they were recorded.",
        )

    def _merge(
        self, request: HttpRequest, queryset: QuerySet[Player], into: Player, reason: str
    ) -> None:
        for player in queryset:
            with refusals(request, prefix=f"{player.name}: "):
                register.player_merge(
                    player=player.pk,
                    into=into.pk,
                    reason=reason,
                    user=request.user,
                    meta=ADMIN_META,
                )
                messages.success(request, f"{player.name} (#{player.pk}) is merged into {into}.")


# --- the club's users: table codes' keepers out of the way ------------------------------------


class TableKeeperFilter(admin.SimpleListFilter):
    """Every table code makes a keeper user of its own (games.tournaments.keepers): a club makes
    hundreds a year. The users' list leaves them out unless asked for."""

    title = "table codes' keepers"
    parameter_name = "code_keepers"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("shown", "shown too"), ("only", "only them")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "shown":
            return queryset
        if self.value() == "only":
            return queryset.filter(table_code__isnull=False)
        return queryset.filter(table_code__isnull=True)


User = get_user_model()


class ClubUserAdmin(UserAdmin):
    list_filter = (*UserAdmin.list_filter, TableKeeperFilter)


if admin.site.is_registered(User):
    admin.site.unregister(User)
admin.site.register(User, ClubUserAdmin)
