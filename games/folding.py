"""From events to state: the stream's header, the rule engine, snapshots and replays.

The first event of every stream (``game.started`` / ``match.started``) carries everything needed
to rebuild it: kind, seats, the effective ruleset and the setup. Folding the rest through the
pure rule engine gives the state; the snapshot on the stream row only saves that work.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from games import store
from games.events import GAME_STARTED, MATCH_STARTED
from games.models import Stream
from games.rules import matches, registry
from games.rules.base import Move, fold_states, make_ruleset, step

# Bump when a state class changes shape: older snapshots are then ignored and refolded.
SNAPSHOT_FORMAT = 2  # 2: the game modules were split and new games added


@dataclass(frozen=True)
class Folded:
    """A stream's header (its first event's data), its state and the version it reflects."""

    category: str
    header: dict[str, Any]
    state: Any
    version: int

    @property
    def engine(self) -> Any:
        return engine_for(self.category, self.header)


class GameEngine:
    """Adapts a game's rule engine to the stream: start from the header, then apply moves."""

    def __init__(self, kind: str) -> None:
        self.rules = registry.get(kind)

    def start(self, header: dict[str, Any]) -> Any:
        ruleset = make_ruleset(self.rules.ruleset_type, header.get("ruleset"))
        return self.rules.initial_state(header.get("setup") or {}, ruleset, len(header["seats"]))

    def apply(self, state: Any, move: Move) -> Any:
        return self.rules.apply(state, move)


class MatchEngine:
    def __init__(self, format: str) -> None:
        self.rules = matches.match_rules(format)

    def start(self, header: dict[str, Any]) -> Any:
        ruleset = make_ruleset(self.rules.ruleset_type, header.get("ruleset"))
        return self.rules.initial_state(ruleset, len(header["players"]), header.get("teams"))

    def apply(self, state: Any, move: Move) -> Any:
        return self.rules.apply(state, move)


_ENGINES: dict[tuple[str, str], Any] = {}


def engine_for(category: str, header: dict[str, Any]) -> Any:
    key = (category, header["kind"] if category == Stream.Category.GAME else header["format"])
    if key not in _ENGINES:
        _ENGINES[key] = (
            GameEngine(key[1]) if category == Stream.Category.GAME else MatchEngine(key[1])
        )
    return _ENGINES[key]


def fold_events(category: str, events: Iterable[store.StoredEvent]) -> Folded:
    """Replay a stream's events (the first must be its start event) into a Folded state."""
    iterator = iter(events)
    first = next(iterator)
    check_start(first.stream_id, first.type)
    moves = ((event.version, event.type, event.data) for event in iterator)
    return fold_moves(category, first.data, first.version, moves)


def check_start(stream_id: Any, type: str) -> None:
    if type not in (GAME_STARTED, MATCH_STARTED):
        raise ValueError(f"stream {stream_id} does not begin with a start event")


def fold_moves(
    category: str, header: dict[str, Any], version: int, moves: Iterable[tuple[int, str, Any]]
) -> Folded:
    """Fold ``(version, type, data)`` moves (data upcast) onto the start event's ``header``.

    fold_events without a StoredEvent per event: the projections' rebuild replays every stream
    through here, from plain rows. ``move.undone`` pops the stack of states, as appends do.
    """
    engine = engine_for(category, header)
    rules = engine.rules
    states = [engine.start(header)]
    for version, type, data in moves:  # noqa: B007 - the last version is the result's
        step(rules, states, Move(type, data))
    return Folded(category, header, states[-1], version)


def refold(stream: Stream, upto: int | None = None) -> Folded:
    return fold_events(stream.category, store.stream_events(stream.pk, upto))


def state_stack(stream: Stream) -> tuple[dict[str, Any], list[Any]]:
    """The header and the stack of states of the moves in force (for ``move.undone``)."""
    events = store.stream_events(stream.pk)
    first = next(events)
    engine = engine_for(stream.category, first.data)
    moves = (Move(e.type, e.data) for e in events)
    return first.data, fold_states(engine.rules, engine.start(first.data), moves)


def pack(folded: Folded) -> bytes:
    return pickle.dumps((SNAPSHOT_FORMAT, folded.header, folded.state), pickle.HIGHEST_PROTOCOL)


def unpack(stream: Stream) -> Folded | None:
    """The snapshot, if present, current and readable; else None (the caller refolds)."""
    if not stream.snapshot or stream.snapshot_version != stream.version:
        return None
    try:
        fmt, header, state = pickle.loads(bytes(stream.snapshot))
    except Exception:  # an unreadable cache is not an error: the events are the truth
        return None
    if fmt != SNAPSHOT_FORMAT:
        return None
    return Folded(stream.category, header, state, stream.version)


def load(stream: Stream, at_version: int | None = None) -> Folded:
    """The stream's state now, or as of ``at_version``."""
    if at_version is None or at_version == stream.version:
        return unpack(stream) or refold(stream)
    return refold(stream, upto=at_version)
