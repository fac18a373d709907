"""Cursor pagination (API.md: lists carry next, previous, results).

A cursor is the client's to send back as given. One that does not decode, or that decodes to a
position the ordering field cannot hold (``p=2026-13-45`` for a date), is answered 400
``request.bad_cursor``, never compared against the table (where it would fail as a 500).
"""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db.models import Field, Model, QuerySet
from rest_framework import exceptions, pagination
from rest_framework.request import Request

from games.api.http.query import bad_value

BASE64 = re.compile(r"[A-Za-z0-9+/]+={0,2}")


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
        raw = request.query_params.get(self.cursor_query_param)
        # Base64 decoding skips characters outside its alphabet, so "@@" would read as the
        # first page: a cursor is refused unless it is base64 as this list writes it.
        if raw is not None and not BASE64.fullmatch(raw):
            raise BadCursor()
        try:
            cursor = super().decode_cursor(request)
        except exceptions.NotFound:
            raise BadCursor() from None
        if cursor is not None and cursor.position is not None:
            self._check_position(cursor.position)
        return cursor

    def get_page_size(self, request: Request) -> int | None:
        """The page size asked for, refused (400 ``query.bad_value``) outside 1 to the maximum;
        DRF's own falls back to the default, which would ignore a malformed value."""
        name = self.page_size_query_param
        raw = request.query_params.get(name) if name else None
        if raw is None or name is None:
            return self.page_size
        high = self.max_page_size or self.page_size or 1
        if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= high:
            raise bad_value(name, f"give a whole number from 1 to {high}.")
        return int(raw)

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
