"""Cursor pagination (API.md: lists carry next, previous, results).

A cursor is the client's to send back as given. One that does not decode, or that decodes to a
position the ordering field cannot hold (``p=2026-13-45`` for a date), is answered 400
``request.bad_cursor``, never compared against the table (where it would fail as a 500).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db.models import Field, Model, QuerySet
from rest_framework import exceptions, pagination
from rest_framework.request import Request


class BadCursor(exceptions.APIException):
    status_code = 400
    default_detail = "The cursor is not one this list gave: send back a page's next or previous."
    default_code = "bad_cursor"  # answered as request.bad_cursor


class CheckedCursorPagination(pagination.CursorPagination):
    """DRF's cursor pagination, refusing a malformed cursor as 400 ``request.bad_cursor``."""

    _model: type[Model] | None = None

    def paginate_queryset(
        self, queryset: QuerySet[Any], request: Request, view: Any = None
    ) -> list[Any] | None:
        self._model = queryset.model
        return super().paginate_queryset(queryset, request, view)

    def decode_cursor(self, request: Request) -> pagination.Cursor | None:
        try:
            cursor = super().decode_cursor(request)
        except exceptions.NotFound:
            raise BadCursor() from None
        if cursor is not None and cursor.position is not None:
            self._check_position(cursor.position)
        return cursor

    def _check_position(self, position: Any) -> None:
        """The position must be a value of the first ordering field."""
        name = self.ordering[0].lstrip("-")
        try:
            field = self._model._meta.get_field(name) if self._model else None
        except FieldDoesNotExist:
            field = None
        if not isinstance(field, Field):
            return
        try:
            field.run_validators(field.to_python(position))
        except (ValidationError, ValueError, TypeError, OverflowError):
            raise BadCursor() from None


class CursorPagination(CheckedCursorPagination):
    ordering = "-created_at"
    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 1000
