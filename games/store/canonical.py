"""One canonical form of an event's JSON: what is hashed is what is stored is what is returned.

PostgreSQL keeps JSON numbers as ``numeric``: ``-0.0`` comes back ``0.0`` and ``1e20`` comes
back an integer. An event hashed over its numbers as sent would then fail ``verify_events``, and
an identical retry would not compare equal to its stored row. So the service puts every payload,
once, at its door (``games.play.services``: the API, the demo and any other caller alike), in the
form a jsonb round trip gives back unchanged, and hashes, stores, compares and returns that form:

- a float with a whole value becomes an int (``-0.0`` -> ``0``, ``2.0`` -> ``2``, ``1e20`` ->
  ``100000000000000000000``); any other finite float stays (its shortest ``repr`` is a decimal
  that jsonb keeps exactly); a number that is not finite (``1e400`` reads as infinity) is
  refused, 400 ``request.bad_number``;
- text must be Unicode the database can store: a lone surrogate (``"\\ud800"``) or a NUL
  character is refused, 400 ``request.bad_text``;
- tuples become lists and object keys strings, as JSON writes them; nesting deeper than
  :data:`MAX_DEPTH` is refused, 400 ``request.malformed``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

# As the API's JSON parser (games.api.http.parsers): no event of any game nests this deep.
MAX_DEPTH = 32


class BadValue(Exception):
    """A payload that has no canonical form (answered 400 with ``code``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def canonical(value: Any) -> Any:
    """``value`` in its canonical form (a new object), or :class:`BadValue`."""
    return _value(value, 0)


def _value(value: Any, depth: int) -> Any:
    kind = type(value)
    if kind is str:
        return _text(value)
    if kind is int or kind is bool or value is None:
        return value
    if kind is float:
        return _number(value)
    if kind is dict:
        if depth >= MAX_DEPTH:
            raise _too_deep()
        return {_key(k): _value(v, depth + 1) for k, v in value.items()}
    if kind is list or kind is tuple:
        if depth >= MAX_DEPTH:
            raise _too_deep()
        return [_value(v, depth + 1) for v in value]
    return _other(value, depth)


def _other(value: Any, depth: int) -> Any:
    """Subclasses of the JSON types (an IntEnum, a frozen mapping ...) as their plain type."""
    if isinstance(value, str):
        return _text(str(value))
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return _number(float(value))
    if isinstance(value, Mapping):
        return _value(dict(value), depth)
    if isinstance(value, list | tuple):
        return _value(list(value), depth)
    raise TypeError(f"{type(value).__name__} is not a JSON value")


def _text(text: str) -> str:
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise BadValue(
                "request.bad_text",
                "A string holds a lone surrogate (such as \\ud800): it is not Unicode text.",
            ) from None
    if "\x00" in text:
        raise BadValue(
            "request.bad_text", "A string holds a NUL character, which cannot be stored."
        )
    return text


def _number(number: float) -> int | float:
    if not math.isfinite(number):
        raise BadValue(
            "request.bad_number",
            "A number is not finite (1e400 and larger read as infinity): send a finite one.",
        )
    return int(number) if number.is_integer() else number


def _key(key: Any) -> str:
    """An object key as JSON writes it."""
    if type(key) is str:
        return _text(key)
    if key is True or key is False or key is None:
        return {True: "true", False: "false", None: "null"}[key]
    if isinstance(key, int | float):
        return str(_value(key, 0))
    if isinstance(key, str):
        return _text(str(key))
    raise TypeError(f"{type(key).__name__} is not a JSON object key")


def _too_deep() -> BadValue:
    return BadValue("request.malformed", f"The value is nested deeper than {MAX_DEPTH} levels.")
