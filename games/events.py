"""Event types: their names, schema versions and upcasters.

An event is stored in the schema version current when it was recorded. When a type's data shape
changes, its version goes up and an ``upcast_vN_vN+1`` function turns old data into the new shape
*on read*; stored rows are never rewritten. Type names are stable strings, never import paths.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.rules.events import (
    GAME_FINISHED,
    GAME_SCORED,
    GAME_STARTED,
    JUMPED,
    MATCH_RATED,
    MATCH_SETTLED,
    MATCH_STARTED,
    SCARNEY_CALLED,
    TAKEN_OFF,
    UNDO,
)

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
    if isinstance(value, str) and value[:1] in "Cc" and value[1:].isdigit():
        return int(value[1:])
    return value


def upcast_pawn_jumped_v1_v2(data: dict[str, Any]) -> dict[str, Any]:
    """v1 kept circles as sent ("C11" or 11); v2 stores circle numbers."""
    return {key: _circle_number(value) for key, value in data.items()}


def upcast_pawn_taken_off_v1_v2(data: dict[str, Any]) -> dict[str, Any]:
    """v1 kept the circle as sent; v2 stores its number."""
    return {key: _circle_number(value) for key, value in data.items()}


EVENT_TYPES: dict[str, EventType] = {
    t.name: t
    for t in [
        EventType(GAME_STARTED),
        EventType(MATCH_STARTED),
        EventType("board.laid_out"),
        EventType(TAKEN_OFF, 2, {1: upcast_pawn_taken_off_v1_v2}),
        EventType(JUMPED, 2, {1: upcast_pawn_jumped_v1_v2}),
        EventType(SCARNEY_CALLED),
        EventType(UNDO),
        EventType(GAME_FINISHED),
        EventType(GAME_SCORED),
        EventType(MATCH_RATED),
        EventType(MATCH_SETTLED),
    ]
}


def current_version(type_name: str) -> int:
    event_type = EVENT_TYPES.get(type_name)
    return event_type.version if event_type else 1


def normalise(type_name: str, data: dict[str, Any]) -> dict[str, Any]:
    """The data as stored in the current schema version (circle names become numbers)."""
    return upcast(type_name, data, 1)


def upcast(type_name: str, data: dict[str, Any], schema_version: int) -> dict[str, Any]:
    event_type = EVENT_TYPES.get(type_name)
    if event_type is None:
        return data
    return event_type.upcast(data, schema_version)
