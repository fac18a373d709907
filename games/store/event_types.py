"""Event types: their names, schema versions and upcasters, and the data each takes.

An event is stored in the schema version current when it was recorded. When a type's data shape
changes, its version goes up and an ``upcast_vN_vN+1`` function turns old data into the new shape
*on read*; stored rows are never rewritten. Type names are stable strings, never import paths.

What each type's data holds is declared once, where it is decided (games/rules/shapes.py): by the
game families beside their rules (``Rules.events``, ``MatchRules.events``), by the tournaments'
core (``games.tournaments.core.events``), and in ``games.store.service_events`` for what the
service writes itself. A type several games take is published as the union of their declarations
(:func:`declared`): one schema per type, which cannot know the stream. :func:`check_data` refuses a
client's data that no game could read and, once the stream is known, data its own game kind or
match format does not take (its own declaration, not the union): a field the type does not take
(422 ``event.unknown_field``), a value too large (``event.too_large``: longer text, more items, a
number beyond :data:`LARGEST_NUMBER` either way), or of the wrong type (``event.bad_data``). A
field missing, a range and a choice are the rule engines' to check, with their own codes: a
declared bound is a guard against absurd input, and a count or a value the rules judge (the dice in
the cup, the faces of a die) is declared no tighter than the guard, so that the rules answer it
with the code RULES.md names. :func:`check_meta` does the same for the client's ``meta`` (and the
``X-Device`` header).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.rules import registry
from games.rules.errors import IllegalEvent
from games.rules.events import (
    JUMPED,
    TAKEN_OFF,
)
from games.rules.shapes import (
    LARGEST_NUMBER,
    AnyOf,
    ListOf,
    MapOf,
    Nullable,
    Record,
    Shape,
    ShapeError,
    Text,
)
from games.store import service_events
from games.tournaments.core.events import EVENT_SHAPES as TOURNAMENT_SHAPES
from games.tournaments.core.season.events import EVENT_SHAPES as SEASON_SHAPES

__all__ = ["LARGEST_NUMBER", "EVENT_TYPES", "declared", "check_data", "check_meta"]

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class EventType:
    name: str
    version: int = 1
    # upcasters[n] turns data of version n into version n + 1.
    upcasters: Mapping[int, Upcaster] = field(default_factory=dict)

    def upcast(self, data: dict[str, Any], from_version: int) -> dict[str, Any]:
        for version in range(from_version, self.version):
            data = self.upcasters[version](data)
        return data


def _circle_number(value: Any) -> Any:
    if isinstance(value, str) and value[:1] in "Cc" and value[1:].isascii() and value[1:].isdigit():
        return int(value[1:])
    return value


def upcast_pawn_jumped_v1_v2(data: dict[str, Any]) -> dict[str, Any]:
    """v1 kept circles as sent ("C11" or 11); v2 stores circle numbers."""
    return {key: _circle_number(value) for key, value in data.items()}


def upcast_pawn_taken_off_v1_v2(data: dict[str, Any]) -> dict[str, Any]:
    """v1 kept the circle as sent; v2 stores its number."""
    return {key: _circle_number(value) for key, value in data.items()}


# Types whose schema version moved on; every other type is at version 1.
_VERSIONED = {
    t.name: t
    for t in [
        EventType(TAKEN_OFF, 2, {1: upcast_pawn_taken_off_v1_v2}),
        EventType(JUMPED, 2, {1: upcast_pawn_jumped_v1_v2}),
    ]
}


@functools.cache
def _all_declared() -> dict[str, Record]:
    """Every event type's data: the union of what each game, format and context declares."""
    found: dict[str, dict[str, Record]] = {}
    for kind in registry.kinds():
        for type_name, shape in registry.get(kind).events.items():
            found.setdefault(type_name, {})[kind] = shape
    for format_name in registry.formats():
        for type_name, shape in registry.match_rules(format_name).events.items():
            found.setdefault(type_name, {})[f"{format_name} sheets"] = shape
    for type_name, shape in {
        **TOURNAMENT_SHAPES,
        **SEASON_SHAPES,
        **service_events.service_shapes(),
    }.items():
        found.setdefault(type_name, {})["the service"] = shape
    return {name: merged(shapes) for name, shapes in sorted(found.items())}


def merged(shapes: Mapping[str, Record]) -> Record:
    """One record taking what any of ``shapes`` (by who declares it) takes: a field is required
    where every one requires it; a field declared differently is any of its declarations; a field
    only some declare says which in its description (the published schema is one per type and
    cannot know the stream: the store checks a stream's data against its own game's)."""
    if len(set(shapes.values())) == 1:
        return next(iter(shapes.values()))
    fields: dict[str, list[Shape]] = {}
    for shape in shapes.values():
        for name, declared_field in shape.fields.items():
            fields.setdefault(name, [])
            if declared_field not in fields[name]:
                fields[name].append(declared_field)
    records = list(shapes.values())
    required = {
        name for name in fields if all(name in s.fields and name not in s.optional for s in records)
    }
    docs = list(dict.fromkeys(s.doc for s in records if s.doc))
    return Record(
        {
            name: _only(_any(one), [who for who, s in shapes.items() if name in s.fields], shapes)
            for name, one in fields.items()
        },
        frozenset(fields) - required,
        " / ".join(docs),
    )


def _any(shapes: list[Shape]) -> Shape:
    return shapes[0] if len(shapes) == 1 else AnyOf(tuple(shapes))


def _only(shape: Shape, takers: list[str], every: Mapping[str, Record]) -> Shape:
    """``shape``, its description naming who takes it when not every declarer does."""
    if len(takers) == len(every):
        return shape
    only = f"{', '.join(takers)} only"
    # Every shape is a frozen dataclass with a ``doc``; the base class does not say so to mypy.
    return dataclasses.replace(shape, doc=f"{shape.doc} ({only})" if shape.doc else only)  # type: ignore[type-var]


def declared(type_name: str) -> Record | None:
    """The data ``type_name`` takes, or None for a type no game, format or context takes."""
    return _all_declared().get(type_name)


class _Types(Mapping[str, EventType]):
    """Every event type by name (its version and upcasters), read lazily from the families."""

    def __getitem__(self, name: str) -> EventType:
        if name not in _all_declared():
            raise KeyError(name)
        return _VERSIONED.get(name) or EventType(name)

    def __iter__(self) -> Any:
        return iter(_all_declared())

    def __len__(self) -> int:
        return len(_all_declared())


EVENT_TYPES: Mapping[str, EventType] = _Types()


def current_version(type_name: str) -> int:
    event_type = _VERSIONED.get(type_name)
    return event_type.version if event_type else 1


def normalise(type_name: str, data: dict[str, Any]) -> dict[str, Any]:
    """The data as stored in the current schema version (circle names become numbers)."""
    return upcast(type_name, data, 1)


def upcast(type_name: str, data: dict[str, Any], schema_version: int) -> dict[str, Any]:
    event_type = _VERSIONED.get(type_name)
    if event_type is None:
        return data
    return event_type.upcast(data, schema_version)


# --- what the store takes of a client's event ----------------------------------------------------


def check_data(
    type_name: str, data: dict[str, Any], own: Mapping[str, Record] | None = None, of: str = ""
) -> None:
    """Refuse data ``type_name`` does not take: a field unknown, a value too large or of the
    wrong type. ``data`` is in its canonical form (``games.store.canonical``). A type no game
    takes is the rule engine's to refuse (``event.unknown_type``).

    ``own``: the declarations of the stream's own game kind or match format (``of``, its name),
    once the stream is known. A type it declares is checked against that declaration alone, not
    the union: a field only another game takes is unknown here. A type it does not declare (an
    undo, a confirmation, a type of another game the rules refuse) is checked against the union.
    """
    shape = (own or {}).get(type_name) or declared(type_name)
    if shape is None:
        return
    try:
        shape.check(data, whole=False)
    except ShapeError as error:
        whose = of if own and type_name in own else ""
        raise _refusal(type_name, error, whose) from None


def check_stream_data(category: str, kind: str, type_name: str, data: dict[str, Any]) -> None:
    """A client's data against the declaration of the stream's own game kind or match format
    (``category`` "game" or "match", ``kind`` the stream's); the service checked it against the
    union of every game's before the stream was known, so only what this game does not take is
    left to refuse: ``opposite`` in a Scarney 3000 throw is ``event.unknown_field``, naming the
    fields Scarney 3000's ``dice.thrown`` takes.

    Sizes are not checked again. The union's bounds are the guard against absurd input; a count
    this game's declaration bounds tighter (three scores on a two-seat High-Low sheet, eleven
    dice from a cup of ten) is the rules' to judge, with their code (``sheet.wrong_length``,
    ``throw.wrong_dice_count``), never the store's ``event.too_large``."""
    own = _own_declarations(category, kind)
    if own is not None:
        check_data(type_name, data, *own)


@functools.cache
def _own_declarations(category: str, kind: str) -> tuple[dict[str, Record], str] | None:
    """A game kind's (or a match format's) declarations with their sizes left to the rules."""
    if category == "game":
        events, of = registry.get(kind).events, kind
    elif category == "match":
        events, of = registry.match_rules(kind).events, f"a {kind} match"
    else:
        return None
    return {name: _sizeless(shape) for name, shape in events.items()}, of


def _sizeless(shape: Any) -> Any:
    """``shape`` with no bound on its texts', lists' and maps' sizes (numbers keep the store's
    bound: the union checked them already); its fields and types as declared."""
    if isinstance(shape, Record):
        fields = {name: _sizeless(field) for name, field in shape.fields.items()}
        return Record(fields, shape.optional, shape.doc)
    if isinstance(shape, AnyOf):
        return AnyOf(tuple(_sizeless(member) for member in shape.shapes), shape.doc)
    if isinstance(shape, Nullable):
        return dataclasses.replace(shape, of=_sizeless(shape.of))
    if isinstance(shape, MapOf):
        key = dataclasses.replace(shape.key, longest=UNBOUNDED)
        return dataclasses.replace(shape, of=_sizeless(shape.of), key=key, longest=UNBOUNDED)
    if isinstance(shape, ListOf):
        return dataclasses.replace(shape, of=_sizeless(shape.of), longest=UNBOUNDED)
    if isinstance(shape, Text):
        return dataclasses.replace(shape, longest=UNBOUNDED)
    return shape


# No size a guarded value can reach: what the union took, this game's check takes.
UNBOUNDED = 2**62


def _refusal(type_name: str, error: ShapeError, whose: str = "") -> IllegalEvent:
    path = error.path
    named = f"{type_name} in {whose}" if whose else type_name
    where = f"{path!r} of {named}" if path else named
    if error.why == "unknown":
        known = error.expected.split(", ") if error.expected else []
        return IllegalEvent(
            "event.unknown_field",
            f"{where} takes {error.expected or 'no field'}; "
            f"{', '.join(repr(u) for u in error.unknown)} is unknown.",
            fields=list(error.unknown),
            known=sorted(known),
        )
    if error.why == "too_large":
        where = where if path else f"The data of {named}"
        return IllegalEvent(
            "event.too_large",
            f"{where} is too large: it takes {error.expected}.",
            field=path or None,
        )
    return IllegalEvent("event.bad_data", f"{where} must be {error.expected}.", field=path or None)


# The client's meta: each key's longest text. ``client_time`` may be a number (epoch seconds).
META_FIELDS: Mapping[str, int] = {"client_time": 64, "device": 100, "note": 500}


def check_meta(meta: Any) -> dict[str, Any]:
    """The client's meta (canonical) with its known keys only, or IllegalEvent ``meta.*``.

    A key given null is left out, as if not given.
    """
    if not isinstance(meta, dict):
        raise IllegalEvent("meta.bad_value", "meta must be an object.")
    unknown = sorted(key for key in meta if key not in META_FIELDS)
    if unknown:
        raise IllegalEvent(
            "meta.unknown_field",
            f"meta takes {', '.join(META_FIELDS)}; {', '.join(repr(u) for u in unknown)} "
            "is unknown.",
            fields=unknown,
        )
    for key, value in meta.items():
        if value is None or (key == "client_time" and type(value) in (int, float)):
            continue
        if type(value) is not str or len(value) > META_FIELDS[key]:
            where = "the X-Device header or meta's" if key == "device" else "meta's"
            raise IllegalEvent(
                "meta.bad_value",
                f"{where} {key!r} is text of at most {META_FIELDS[key]} characters"
                + (" (or a number)." if key == "client_time" else "."),
                field=key,
            )
    return {key: value for key, value in meta.items() if value is not None}
