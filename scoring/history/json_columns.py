"""The columns of the history's written statements, read as the answers need them.

A JSON column goes through as the text the database wrote (``JsonText``), which the API's
renderer puts into the answer undecoded; a time is made aware (SQLite gives naive UTC text).
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from django.utils import timezone


class JsonText(str):
    """A JSON value already written as the answer's renderer would write it (compact, ASCII):
    the API's history renderer (``games.api.reads.history``) puts it into the answer as it is,
    undecoded."""


def decoded(value: Any) -> Any:
    """``value`` with every ``JsonText`` in it read back into Python values."""
    if isinstance(value, JsonText):
        return json.loads(value)
    if isinstance(value, dict):
        return {key: decoded(item) for key, item in value.items()}
    if isinstance(value, list):
        return [decoded(item) for item in value]
    return value


def json_value(raw: Any) -> Any:
    """A JSON column's value: text on both databases (Django's psycopg loads jsonb as text).

    Decoding a page's scores and standings only to encode them again was most of its Python
    time and almost all its garbage (~10,000 objects a page), so plain text goes through as
    ``JsonText``: the database writes ", " and ": " between items outside strings and escapes
    every quote inside one, so between the quotes' split points the separators can be closed
    up. Text where Python's encoder could write something else (a backslash escape, a number
    with a ".", a non-ASCII character) is decoded instead."""
    if not isinstance(raw, str):
        return raw
    if not raw.isascii() or any(mark in raw for mark in _DECODE):
        return json.loads(raw)
    parts = raw.split('"')
    parts[::2] = [part.replace(", ", ",").replace(": ", ":") for part in parts[::2]]
    return JsonText('"'.join(parts))


# PostgreSQL writes numbers without exponents; a "." may be written as Python would not ("1.50").
_DECODE = ("\\", ".")


def aware(value: Any) -> dt.datetime:
    when: dt.datetime = value
    if isinstance(value, str):  # SQLite: naive UTC text
        when = dt.datetime.fromisoformat(value)
    return timezone.make_aware(when, dt.UTC) if timezone.is_naive(when) else when
