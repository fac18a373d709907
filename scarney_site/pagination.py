"""Cursor pagination (API.md: lists carry next, previous, results)."""

from rest_framework import pagination


class CursorPagination(pagination.CursorPagination):
    ordering = "-created_at"
    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 1000
