from django.contrib import admin
from django.http import HttpRequest

from games.access.models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Tokens are issued by ``manage.py issue_token`` or made by their users
    (``POST /api/v1/tokens/``; the key is shown once); here a director sees them all and revokes."""

    list_display = ("id", "user", "name", "scope", "created", "expires")
    list_filter = ("scope", "expires")
    search_fields = ("user__username", "name")
    readonly_fields = ("user", "name", "scope", "created", "expires")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
