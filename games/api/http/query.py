"""Query parameters are read, never ignored: an unknown one or a malformed value is a 400.

A client that misspells a filter (``?staus=finished``) would otherwise get the whole list and
believe it filtered; so every read view names the parameters it takes, and anything else is
refused with ``query.unknown_parameter``. Values are checked by the view's FilterSet (or its own
reader) and refused with ``query.bad_value``. Both answer the house error shape.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any, NoReturn, TypeVar

import django_filters
from django import forms
from django.db.models import Model, QuerySet
from django.utils.dateparse import parse_datetime
from rest_framework import exceptions
from rest_framework.request import Request

UNKNOWN_PARAMETER = "query.unknown_parameter"
BAD_VALUE = "query.bad_value"

_M = TypeVar("_M", bound=Model)


class QueryError(exceptions.APIException):
    """A 400 about the query string, answered as ``{"code", "detail", ...data}``."""

    status_code = 400

    def __init__(self, code: str, detail: str, **data: Any) -> None:
        super().__init__(detail)
        self.code = code
        self.data = data


def bad_value(name: str, message: str) -> QueryError:
    return QueryError(BAD_VALUE, f"{name}: {message}", errors={name: [message]})


NAME_SHOWN = 100


def check_names(params: Any, known: Iterable[str]) -> None:
    """Refuse a parameter not in ``known``, one given twice, and one given empty."""
    allowed = sorted(set(known))
    # A name is echoed cut to the answer's declared bound (100 characters): a client may send
    # any length, and the refusal must still match its schema.
    unknown = sorted(name[:NAME_SHOWN] for name in params if name not in allowed)
    if unknown:
        takes = ", ".join(allowed) if allowed else "no query parameters"
        raise QueryError(
            UNKNOWN_PARAMETER,
            f"Unknown query parameter {', '.join(unknown)}; this endpoint takes {takes}.",
            parameters=unknown,
            known=allowed,
        )
    for name in params:
        values = params.getlist(name)
        if len(values) > 1:
            raise bad_value(name, "give it once.")
        if values[0] == "":
            raise bad_value(name, "give a value, or leave the parameter out.")


def filtered(
    filterset_class: type[django_filters.FilterSet], request: Request, rows: QuerySet[_M]
) -> QuerySet[_M]:
    """``rows`` narrowed by the FilterSet, or ``query.bad_value`` naming each bad value."""
    narrowed: QuerySet[_M] = _checked(filterset_class, request, rows).qs
    return narrowed


def filter_values(
    filterset_class: type[django_filters.FilterSet], request: Request, model: type[Model]
) -> dict[str, Any]:
    """The filters' values as the FilterSet reads and checks them (``query.bad_value`` as for
    ``filtered``), for a list that writes its own statement from them."""
    form = _form_class(filterset_class, model)(request.query_params)
    if not form.is_valid():
        _refuse(form.errors)
    values: dict[str, Any] = form.cleaned_data
    return {name: value for name, value in values.items() if value not in (None, "")}


def _form_class(
    filterset_class: type[django_filters.FilterSet], model: type[Model]
) -> type[forms.Form]:
    """The FilterSet's form, made once: a FilterSet deep-copies its filters and builds a form
    class for each instance (~100 ``deepcopy`` calls a request for the match list's six
    filters; 2.2 → 2.0 ms a filtered page not kept). Its fields check the values as the
    FilterSet's own form does: they are the same fields."""
    made = _forms.get((filterset_class, model))
    if made is None:  # two threads may both make it: the same class either way
        blank = filterset_class(queryset=model._default_manager.none())
        made = _forms[(filterset_class, model)] = blank.get_form_class()
    return made


_forms: dict[tuple[Any, Any], type[forms.Form]] = {}


def _checked(
    filterset_class: type[django_filters.FilterSet], request: Request, rows: QuerySet[Any]
) -> django_filters.FilterSet:
    filterset = filterset_class(request.query_params, queryset=rows, request=request)
    if not filterset.is_valid():
        _refuse(filterset.errors)
    return filterset


def _refuse(found: Any) -> NoReturn:
    errors = {name: [str(m) for m in messages] for name, messages in found.items()}
    name, messages = next(iter(errors.items()))
    raise QueryError(BAD_VALUE, f"{name}: {messages[0]}", errors=errors)


def read_time(text: str) -> datetime | None:
    """An ISO 8601 time (RFC 3339 lets its ``t`` and ``z`` be small; a date alone is its
    midnight) in UTC, UTC if it names no offset; None if it is not one. A time beyond year 1 or
    9999 once in UTC is the calendar's first or last moment: PostgreSQL takes no offset past
    15:59, and a time that far out means "from the start" or "to the end" anyway."""
    try:
        value = parse_datetime(text.upper())
    except ValueError:  # shaped as a time and not one: month 13, second 60
        return None
    if value is None:
        return None
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    try:
        return value.astimezone(UTC)
    except OverflowError:
        return (datetime.min if value.year == 1 else datetime.max).replace(tzinfo=UTC)


class QueryChecked:
    """A view mixin: a GET with a query parameter the view does not take is refused (400).

    A view lists what it takes in ``query_names``; its ``filterset_class`` adds its filters.
    Checked after authentication, so a caller without a login hears 401 first.
    """

    query_names: tuple[str, ...] = ()
    filterset_class: type[django_filters.FilterSet] | None = None

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)  # type: ignore[misc]
        if request.method in ("GET", "HEAD"):
            check_names(request.query_params, self.known_query_names())

    def known_query_names(self) -> list[str]:
        names = list(self.query_names)
        if self.filterset_class is not None:
            names += list(self.filterset_class.base_filters)
        return names
