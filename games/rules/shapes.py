"""Declared shapes: what an event's data, a game's view or a house rule holds, said once.

Each game family declares, beside its rules, the data of every event type it takes and the view of
its state (``Rules.events``, ``Rules.view_shape``) with these few shapes. From one declaration
come the store's check of a client's data (:meth:`Shape.check`: types, required fields, unknown
fields, sizes), the OpenAPI schema (:meth:`Shape.schema`), the test data drawn from it, and the
pages' typed reading of a view. Ranges and choices are part of the schema; the rule engines check
them, each with its own code, so the store refuses only what no game could read.

Pure Python: no framework, so the rules stay free of Django.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# The largest number an event may carry, either sign: ample for any score or count of these
# games, so that a lenient sheet (whose figures the rules do not bound) cannot carry 10^30.
LARGEST_NUMBER = 1_000_000_000


class ShapeError(Exception):
    """A value does not fit its shape: ``why`` is one of ``unknown``, ``too_large``, ``bad``."""

    def __init__(self, why: str, path: str, expected: str, unknown: tuple[str, ...] = ()) -> None:
        super().__init__(f"{path or 'the data'}: {expected}")
        self.why = why
        self.path = path
        self.expected = expected
        self.unknown = unknown


def _at(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


class Shape:
    """A declared shape: its JSON Schema (OpenAPI 3.0) and a check of a JSON value.

    ``check(value, whole=False)`` leaves out the required fields' presence: the store checks a
    client's data so (types, sizes, unknown fields) and leaves what is missing to the rules, which
    name it in their own words (a correction without its reason is ``tournament.reason_required``).
    """

    doc: str

    def schema(self) -> dict[str, Any]:
        raise NotImplementedError

    def check(self, value: Any, path: str = "", whole: bool = True) -> None:
        raise NotImplementedError

    def described(self, schema: dict[str, Any]) -> dict[str, Any]:
        if self.doc:
            schema["description"] = self.doc
        return schema


@dataclass(frozen=True)
class Integer(Shape):
    """A whole number (never true/false)."""

    minimum: int | None = None
    maximum: int | None = None
    doc: str = ""
    choices: tuple[int, ...] = ()

    def schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "integer"}
        if self.choices:
            schema["enum"] = list(self.choices)
        # Unbounded in the rules, a number is still within the store's bound.
        schema["minimum"] = -LARGEST_NUMBER if self.minimum is None else self.minimum
        schema["maximum"] = LARGEST_NUMBER if self.maximum is None else self.maximum
        return self.described(schema)

    def check(self, value: Any, path: str = "", whole: bool = True) -> None:
        if type(value) is not int:
            raise ShapeError("bad", path, "a whole number")
        if self.maximum is None or not self.maximum >= value >= (self.minimum or 0):
            _in_range(value, path)  # a seed's declared range goes beyond the store's bound


@dataclass(frozen=True)
class Number(Shape):
    """A number, whole or not (a tarot score has halves)."""

    minimum: float | None = None
    maximum: float | None = None
    doc: str = ""

    def schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "number"}
        schema["minimum"] = -LARGEST_NUMBER if self.minimum is None else self.minimum
        schema["maximum"] = LARGEST_NUMBER if self.maximum is None else self.maximum
        return self.described(schema)

    def check(self, value: Any, path: str = "", whole: bool = True) -> None:
        if type(value) not in (int, float):
            raise ShapeError("bad", path, "a number")
        _in_range(value, path)


def _in_range(value: float, path: str) -> None:
    if not -LARGEST_NUMBER <= value <= LARGEST_NUMBER:
        raise ShapeError(
            "too_large", path, f"numbers from -{LARGEST_NUMBER:,} to {LARGEST_NUMBER:,}"
        )


@dataclass(frozen=True)
class Text(Shape):
    """Text of at most ``longest`` characters, one of ``choices`` if given."""

    longest: int = 16
    choices: tuple[str, ...] = ()
    pattern: str | None = None
    shortest: int = 0
    doc: str = ""

    def schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "string"}
        if self.choices:
            schema["enum"] = list(self.choices)
        else:
            schema["maxLength"] = self.longest
            if self.shortest:
                schema["minLength"] = self.shortest
            # PostgreSQL's text holds no NUL: the store refuses it (request.malformed).
            schema["pattern"] = self.pattern or "^[^\\u0000]*$"
        return self.described(schema)

    def check(self, value: Any, path: str = "", whole: bool = True) -> None:
        if type(value) is not str:
            raise ShapeError("bad", path, "text")
        if len(value) > self.longest:
            raise ShapeError("too_large", path, f"text of at most {self.longest} characters")


@dataclass(frozen=True)
class Boolean(Shape):
    doc: str = ""

    def schema(self) -> dict[str, Any]:
        return self.described({"type": "boolean"})

    def check(self, value: Any, path: str = "", whole: bool = True) -> None:
        if type(value) is not bool:
            raise ShapeError("bad", path, "true or false")


@dataclass(frozen=True)
class Nullable(Shape):
    """``shape``, or null."""

    of: Shape
    doc: str = ""

    def schema(self) -> dict[str, Any]:
        schema = self.of.schema()
        if "oneOf" in schema or "anyOf" in schema:
            return {"nullable": True, **schema} | ({"description": self.doc} if self.doc else {})
        schema["nullable"] = True
        if "enum" in schema:
            schema["enum"] = [*schema["enum"], None]
        return self.described(schema)

    def check(self, value: Any, path: str = "", whole: bool = True) -> None:
        if value is not None:
            self.of.check(value, path, whole)


@dataclass(frozen=True)
class ListOf(Shape):
    """A list of at most ``longest`` items, each ``of``."""

    of: Shape
    longest: int = 64
    shortest: int = 0
    doc: str = ""

    def schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "array", "items": self.of.schema()}
        schema["maxItems"] = self.longest
        if self.shortest:
            schema["minItems"] = self.shortest
        return self.described(schema)

    def check(self, value: Any, path: str = "", whole: bool = True) -> None:
        if type(value) is not list:
            raise ShapeError("bad", path, "a list")
        if len(value) > self.longest:
            raise ShapeError("too_large", path, f"at most {self.longest} items")
        for index, item in enumerate(value):
            self.of.check(item, _at(path, index), whole)


@dataclass(frozen=True)
class MapOf(Shape):
    """An object whose keys are data (a seat's number, a circle's name), each value ``of``."""

    of: Shape
    key: Text = Text(16)
    longest: int = 64
    doc: str = ""

    def schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "object", "additionalProperties": self.of.schema()}
        schema["maxProperties"] = self.longest
        schema = self.described(schema)
        if self.key.pattern:  # OpenAPI 3.0 has no propertyNames: the keys are said in words
            keys = f"keys match {self.key.pattern}"
            schema["description"] = f"{schema['description']} ({keys})" if self.doc else keys
        return schema

    def check(self, value: Any, path: str = "", whole: bool = True) -> None:
        if type(value) is not dict:
            raise ShapeError("bad", path, "an object")
        if len(value) > self.longest:
            raise ShapeError("too_large", path, f"at most {self.longest} items")
        for key, item in value.items():
            if len(key) > self.key.longest:
                most = f"keys of at most {self.key.longest} characters"
                raise ShapeError("too_large", path, most)
            self.of.check(item, _at(path, key), whole)


@dataclass(frozen=True)
class Record(Shape):
    """An object of these fields only; those in ``optional`` may be left out."""

    fields: Mapping[str, Shape] = field(default_factory=dict)
    optional: frozenset[str] = frozenset()
    doc: str = ""

    def __hash__(self) -> int:  # the fields' mapping is a dict: hash its items
        return hash((tuple(self.fields.items()), self.optional, self.doc))

    def schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {
            "type": "object",
            "properties": {name: shape.schema() for name, shape in self.fields.items()},
            "additionalProperties": False,
        }
        required = [name for name in self.fields if name not in self.optional]
        if required:
            schema["required"] = required
        return self.described(schema)

    def check(self, value: Any, path: str = "", whole: bool = True) -> None:
        if type(value) is not dict:
            raise ShapeError("bad", path, "an object")
        unknown = tuple(key for key in value if key not in self.fields)
        if unknown:
            raise ShapeError("unknown", path, ", ".join(self.fields), unknown)
        for name, shape in self.fields.items():
            if name in value:
                shape.check(value[name], _at(path, name), whole)
            elif whole and name not in self.optional:
                raise ShapeError("bad", _at(path, name), "a value (it is required)")


def record(doc: str = "", optional: tuple[str, ...] = (), **fields: Shape) -> Record:
    """A :class:`Record` written as keywords (``from`` and other Python words by ``**{}``)."""
    return Record(fields, frozenset(optional), doc)


@dataclass(frozen=True)
class AnyOf(Shape):
    """One of several shapes (a circle: ``7`` or ``"C7"``)."""

    shapes: tuple[Shape, ...]
    doc: str = ""

    def schema(self) -> dict[str, Any]:
        return self.described({"anyOf": [shape.schema() for shape in self.shapes]})

    def check(self, value: Any, path: str = "", whole: bool = True) -> None:
        errors = []
        for shape in self.shapes:
            try:
                shape.check(value, path, whole)
                return
            except ShapeError as error:
                errors.append(error)
        # The most telling refusal: a size or an unknown field before a mere type.
        errors.sort(key=lambda e: {"unknown": 0, "too_large": 1, "bad": 2}[e.why])
        raise errors[0] if errors[0].why != "bad" else ShapeError("bad", path, self.expected())

    def expected(self) -> str:
        return " or ".join(shape.doc or type(shape).__name__.lower() for shape in self.shapes)


def one_of(*shapes: Shape, doc: str = "") -> AnyOf:
    return AnyOf(shapes, doc)


# --- shapes most families use -------------------------------------------------------------------

SEAT = Integer(0, 63, doc="a seat number, from 0")
SEATS = ListOf(SEAT, 64)
CIRCLE = one_of(
    Integer(1, 16, doc="a circle number 1-16"),
    Text(3, pattern="^[Cc]([1-9]|1[0-6])$", doc='a circle name "C1"-"C16"'),
    doc='a circle: 1-16 or "C1"-"C16"',
)
PAWN = Text(2, pattern="^[BRYG][1-4]$", doc='a pawn: colour B, R, Y or G and spots 1-4, e.g. "B4"')
POINTS = Number(doc="points")
CHIPS = Integer(doc="chips")
FACE = Text(2, doc='a face as the dice show it: "1"-"6", or a Scarney die\'s "D"')
FACES = ListOf(FACE, 32, doc='the faces thrown, e.g. ["D", "3", "6"]')
CARD = Text(4, doc='a card of the 78-card pack: "Kh", "T21", "FOOL"')
CARDS = ListOf(CARD, 100)
REASON = Text(500, doc="why, in words")


# --- a ruleset's shape, read off its dataclass -----------------------------------------------


def ruleset_shape(ruleset_type: type[Any], doc: str = "") -> Record:
    """The house rules a game takes: each field of its ruleset dataclass, typed by its annotation
    and its ``ALLOWED`` values; every field has a default, so every one is optional in a request
    (the answer shows them all)."""
    hints = typing.get_type_hints(ruleset_type)
    allowed: Mapping[str, tuple[Any, ...]] = getattr(ruleset_type, "ALLOWED", {})
    fields = {
        f.name: _parameter(hints[f.name], allowed.get(f.name))
        for f in dataclasses.fields(ruleset_type)
    }
    return Record(fields, frozenset(fields), doc or (ruleset_type.__doc__ or "").strip())


def _parameter(hint: Any, allowed: tuple[Any, ...] | None) -> Shape:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(hint) if a is not type(None)]
        shapes = tuple(_parameter(member, allowed) for member in members)
        inner = shapes[0] if len(shapes) == 1 else AnyOf(shapes)
        return Nullable(inner) if len(members) < len(typing.get_args(hint)) else inner
    if hint is bool:
        return Boolean()
    if hint is int:
        numbers = tuple(a for a in allowed or () if type(a) is int)
        return Integer(-LARGEST_NUMBER, LARGEST_NUMBER, choices=numbers)
    if hint is float:
        return Number(-LARGEST_NUMBER, LARGEST_NUMBER)
    if hint is str:
        choices = tuple(a for a in allowed or () if type(a) is str)
        return Text(64, choices)
    if origin in (tuple, list):
        return ListOf(_parameter(typing.get_args(hint)[0], None), 64)
    raise TypeError(f"no shape for a house rule of type {hint!r}")
