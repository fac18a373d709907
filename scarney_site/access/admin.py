from django.contrib import admin
from django.http import HttpRequest

from scarney_site.access.models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Tokens are issued by ``manage.py issue_token`` (the key is shown once); here one revokes."""

    list_display = ("id", "user", "created", "expires")
    list_filter = ("expires",)
    search_fields = ("user__username",)
    readonly_fields = ("user", "created", "expires")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
