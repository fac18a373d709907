"""A season's state, folded from its stream: its settings, its evenings, whether it is closed.

``start`` takes ``season.created``'s data; ``apply`` each later event, refusing what does not
fit (an evening added twice, one removed that is not there, anything after the close) with the
codes API.md "Seasons" names.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.rules.base import Move
from games.rules.errors import IllegalEvent, StateConflict
from games.tournaments.core.season import events

FIELD = "field"


@dataclass(frozen=True, slots=True)
class SeasonState:
    name: str
    format: str | None
    best: int | None  # how many of a player's evenings count; None: all
    points: str | tuple[float, ...]  # "field", or points by place
    published: bool
    evenings: tuple[str, ...] = ()  # tournament ids, in the order they joined
    closed: bool = False


def start(header: Mapping[str, Any]) -> SeasonState:
    points = header["points"]
    return SeasonState(
        name=header["name"],
        format=header["format"],
        best=header["best"],
        points=FIELD if points == FIELD else tuple(float(p) for p in points),
        published=header["published"],
    )


def apply(state: SeasonState, move: Move) -> SeasonState:
    if state.closed:
        raise StateConflict(
            "season.closed", f"{state.name} is closed: its evenings stay as they are."
        )
    if move.type == events.ADDED:
        return _added(state, move.data["tournament"])
    if move.type == events.REMOVED:
        return _removed(state, move.data["tournament"])
    if move.type == events.CLOSED:
        return dataclasses.replace(state, closed=True)
    raise IllegalEvent("event.unknown_type", f"A season does not take {move.type}.")


def _added(state: SeasonState, tournament: str) -> SeasonState:
    if tournament in state.evenings:
        raise StateConflict(
            "season.already_has_tournament",
            f"This evening is already in {state.name}.",
            field="tournament",
        )
    return dataclasses.replace(state, evenings=(*state.evenings, tournament))


def _removed(state: SeasonState, tournament: str) -> SeasonState:
    if tournament not in state.evenings:
        raise IllegalEvent(
            "season.no_such_tournament",
            f"This evening is not in {state.name}.",
            field="tournament",
        )
    return dataclasses.replace(state, evenings=tuple(t for t in state.evenings if t != tournament))
