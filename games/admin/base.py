"""What every admin page of the director shares: refusals shown as messages, read-only pages of
rows the events own, and the page of one form.

Nothing in the admin edits a row that the events own. Tournaments, their entries and tables,
matches, games and events are shown read-only; everything a director does (a new tournament,
entries, a round, keepers, a closed round, settlement, a player registered or merged) goes
through the services with the request's user, so the admin, the API and the pages share one
permission check and every change is an event.
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html

from games.admin import director_tools
from games.play import permissions
from games.play.refusals import refusal_of

FORM_PAGE = "admin/games/form_page.html"
# Stored with every event the admin records, as a table's device is with its moves.
ADMIN_META = director_tools.ADMIN_META


class refusals:  # noqa: N801  (used as a statement: ``with refusals(request):``)
    """Show a service's refusal as an error message and carry on; anything else still raises.

    The code after the service call inside the block (the success message) is skipped.
    """

    def __init__(self, request: HttpRequest, prefix: str = "") -> None:
        self.request = request
        self.prefix = prefix
        self.refused = False

    def __enter__(self) -> refusals:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> bool:
        refused = refusal_of(error) if isinstance(error, Exception) else None
        if refused is None:
            return False
        messages.error(self.request, f"{self.prefix}{refused.sentence}")
        self.refused = True
        return True


def events_url(stream_id: Any) -> str:
    """The event changelist filtered to one stream."""
    return f"{reverse('admin:games_event_changelist')}?stream__id__exact={stream_id}"


def events_link(stream_id: Any, text: str = "events") -> str:
    return format_html('<a href="{}">{}</a>', events_url(stream_id), text)


class DirectorViewMixin:
    """Directors (staff or ``games.direct``) read these pages without model permissions of
    their own; what they may *do* is decided once, by the services."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return permissions.is_director(request.user) or super().has_module_permission(request)  # type: ignore[misc]

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return permissions.is_director(request.user) or super().has_view_permission(request, obj)  # type: ignore[misc]


class ReadOnlyAdmin(DirectorViewMixin, admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyInline(DirectorViewMixin, admin.TabularInline):
    # Rows without a title each: the default repeats the row's __str__ ("Hal in Friday Swiss")
    # above every line, next to the columns that already say it.
    template = "admin/games/readonly_tabular.html"
    extra = 0

    class Media:
        css = {"all": ["games/admin_inlines.css"]}  # a file: the page's policy refuses style="..."

    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def form_page(
    admin_: admin.ModelAdmin, request: HttpRequest, form: forms.Form, **context: Any
) -> TemplateResponse:
    """A form inside the admin's frame (an action's intermediate page, an add page)."""
    page = {
        **admin_.admin_site.each_context(request),
        "opts": admin_.model._meta,
        "form": form,
        "hidden": [],
        "intro": "",
        **context,
    }
    return TemplateResponse(request, FORM_PAGE, page)
