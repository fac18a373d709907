"""Hypothesis strategies drawn from the declared shapes (games/rules/shapes.py), and the shapes'
OpenAPI 3.0 schemas as plain JSON Schema for the ``jsonschema`` library.

:func:`from_shape` draws JSON values a shape takes: numbers within its bounds (the store's
:data:`LARGEST_NUMBER` where it declares none), text within its length and pattern (never a NUL
nor a lone surrogate, which no stored text holds), lists and maps of a few items (at least their
shortest), records with every required field and some of the optional ones. ``full=True`` draws
every optional field, no null and at least one item of each list and map, so that every part of a
shape has a value to mutate. :func:`json_schema` turns OpenAPI's ``nullable: true`` into JSON
Schema's ``null`` type.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from hypothesis import strategies as st

from games.rules.shapes import (
    LARGEST_NUMBER,
    AnyOf,
    Boolean,
    Integer,
    ListOf,
    MapOf,
    Nullable,
    Number,
    Record,
    Shape,
    Text,
)

# Items drawn beyond a list's or a map's shortest: enough to show a shape, few enough to be fast.
FEW = 4
# Any character text may hold: no NUL (PostgreSQL's text has none), no lone surrogate (not Unicode).
TEXT_CHARACTERS = st.characters(exclude_characters="\x00", exclude_categories=("Cs",))


def from_shape(shape: Shape, *, full: bool = False, few: int = FEW) -> st.SearchStrategy[Any]:
    """Values ``shape`` takes (its JSON Schema and its ``check(value, whole=True)`` both)."""
    if isinstance(shape, Nullable):
        inner = from_shape(shape.of, full=full, few=few)
        return inner if full else st.none() | inner
    if isinstance(shape, AnyOf):
        return st.one_of([from_shape(member, full=full, few=few) for member in shape.shapes])
    if isinstance(shape, Record):
        drawn = {
            name: from_shape(field, full=full, few=few) for name, field in shape.fields.items()
        }
        required = {n: s for n, s in drawn.items() if full or n not in shape.optional}
        optional = {n: s for n, s in drawn.items() if n not in required}
        return st.fixed_dictionaries(required, optional=optional)
    if isinstance(shape, ListOf):
        least = min(max(shape.shortest, 1 if full else 0), shape.longest)
        most = max(least, min(shape.longest, few))
        return st.lists(from_shape(shape.of, full=full, few=few), min_size=least, max_size=most)
    if isinstance(shape, MapOf):
        least = min(1 if full else 0, shape.longest)
        return st.dictionaries(
            from_shape(shape.key),
            from_shape(shape.of, full=full, few=few),
            min_size=least,
            max_size=max(least, min(shape.longest, few)),
        )
    # A scalar: its choices, as its schema lists them (a kind of a family's own, such as a flag
    # the rules take only as true, says so by its schema's ``enum``).
    choices = shape.schema().get("enum")
    if choices:
        return st.sampled_from(choices)
    if isinstance(shape, Boolean):
        return st.booleans()
    if isinstance(shape, Integer):
        return st.integers(*_bounds(shape.minimum, shape.maximum))
    if isinstance(shape, Number):
        least, most = _bounds(shape.minimum, shape.maximum)
        return st.integers(int(least), int(most)) | st.floats(
            least, most, allow_nan=False, allow_infinity=False
        )
    if isinstance(shape, Text):
        return _text(shape)
    raise TypeError(f"no strategy for the shape {shape!r}")


def _bounds(least: float | None, most: float | None) -> tuple[Any, Any]:
    least = -LARGEST_NUMBER if least is None else least
    most = LARGEST_NUMBER if most is None else most
    return least, most


def _text(shape: Text) -> st.SearchStrategy[str]:
    shortest, longest = shape.shortest, shape.longest
    if shape.pattern:
        return st.from_regex(shape.pattern, fullmatch=True, alphabet=TEXT_CHARACTERS).filter(
            lambda text: shortest <= len(text) <= longest
        )
    return st.text(TEXT_CHARACTERS, min_size=shortest, max_size=longest)


# --- OpenAPI 3.0 to JSON Schema ------------------------------------------------------------------


def json_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """An OpenAPI 3.0 schema (a shape's ``schema()``) as JSON Schema: ``nullable: true`` becomes
    the ``null`` type (an ``enum`` already lists null: :class:`Nullable` adds it)."""
    result = dict(schema)
    nullable = result.pop("nullable", False)
    for key in ("items", "additionalProperties", "propertyNames", "not"):
        if isinstance(result.get(key), dict):
            result[key] = json_schema(result[key])
    if "properties" in result:
        result["properties"] = {n: json_schema(s) for n, s in result["properties"].items()}
    for key in ("anyOf", "oneOf", "allOf"):
        if key in result:
            result[key] = [json_schema(member) for member in result[key]]
    if nullable is True:
        if isinstance(result.get("type"), str):
            result["type"] = [result["type"], "null"]
        else:
            result = {"anyOf": [result, {"type": "null"}]}
    return result


# --- the parts of a value, by the shape that declares each --------------------------------------


def parts(shape: Shape, value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple, Shape]]:
    """Every part of ``value`` (``shape``'s) with its path and the shape that declares it: the
    value itself, a record's fields, a list's items and a map's values, not the members of an
    :class:`AnyOf` (which member declares a part is not known)."""
    yield path, shape
    inner = shape.of if isinstance(shape, Nullable) else shape
    if value is None:
        return
    if isinstance(inner, Record):
        for name, item in value.items():
            yield from parts(inner.fields[name], item, (*path, name))
    elif isinstance(inner, ListOf):
        for index, item in enumerate(value):
            yield from parts(inner.of, item, (*path, index))
    elif isinstance(inner, MapOf):
        for key, item in value.items():
            yield from parts(inner.of, item, (*path, key))


def replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    """A copy of ``value`` with the part at ``path`` (not empty) replaced by ``new``."""
    head, *rest = path
    copy = list(value) if isinstance(value, list) else dict(value)
    copy[head] = replaced(copy[head], tuple(rest), new) if rest else new
    return copy


def part_at(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value
