"""How a stream folds: an engine per category (a game's rules, a match format, a tournament, the
player register) and the folded state (``Folded``) every reader gets.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from games.rules import registry
from games.rules.base import GameRules, Move, Rules, make_ruleset, step
from games.rules.errors import StateConflict
from games.rules.events import (
    GAME_STARTED,
    MATCH_STARTED,
    REGISTER_OPENED,
    RESULT_CONFIRMED,
    SEASON_CREATED,
    TOURNAMENT_CREATED,
    UNDO,
)
from games.rules.matches import MatchRules
from games.store import journal
from games.store.models import Stream
from games.tournaments.core import fold as tournament_fold
from games.tournaments.core import state as tournament_state
from games.tournaments.core.season import state as season_state

# The first event of a stream of each category.
START_EVENTS = (GAME_STARTED, MATCH_STARTED, TOURNAMENT_CREATED, REGISTER_OPENED, SEASON_CREATED)


class GameEngine:
    """A game stream's engine: its rule engine, started from the header, moved by its events."""

    category = Stream.Category.GAME

    def __init__(self, kind: str) -> None:
        self.rules: Rules[Any] = registry.get(kind)

    def start(self, header: dict[str, Any]) -> Any:
        ruleset = make_ruleset(self.rules.ruleset_type, header.get("ruleset"))
        return self.rules.initial_state(self._setup(header), ruleset, len(header["seats"]))

    def _setup(self, header: dict[str, Any]) -> dict[str, Any]:
        """The recorded setup, of the keys its game declares: a stream recorded before every
        game refused an unknown key (the card games ignored one) folds as it was played."""
        setup = dict(header.get("setup") or {})
        if isinstance(self.rules, GameRules):
            declared = self.rules.setup_shape.fields
            return {key: value for key, value in setup.items() if key in declared}
        return setup

    def apply(self, state: Any, move: Move) -> Any:
        return self.rules.apply(state, move)

    def status(self, state: Any) -> str:
        over = self.rules.is_terminal(state)
        return Stream.Status.FINISHED if over else Stream.Status.IN_PROGRESS


class MatchEngine:
    """A match stream's engine: its format's rules, started from the header."""

    category = Stream.Category.MATCH

    def __init__(self, format: str) -> None:
        self.rules: MatchRules = registry.match_rules(format)

    def start(self, header: dict[str, Any]) -> Any:
        ruleset = make_ruleset(self.rules.ruleset_type, header.get("ruleset"))
        return self.rules.initial_state(ruleset, len(header["players"]), header.get("teams"))

    def apply(self, state: Any, move: Move) -> Any:
        if move.type == RESULT_CONFIRMED:
            # The table's agreement to the result: the tournament's to count (table.confirmed),
            # nothing the format scores. It comes once the match is played out.
            if self.rules.next_game_number(state) is not None:
                raise StateConflict(
                    "result.not_finished",
                    "This match is still being played: its result is confirmed once it ends.",
                )
            return state
        return self.rules.apply(state, move)

    def status(self, state: Any) -> str:
        if self.rules.is_settled(state):
            return Stream.Status.SETTLED
        if self.rules.next_game_number(state) is None:
            return Stream.Status.FINISHED
        return Stream.Status.IN_PROGRESS


class TournamentEngine:
    """A tournament stream's engine: the pure fold of games.tournaments.core.fold."""

    category = Stream.Category.TOURNAMENT

    def __init__(self, name: str = "") -> None:
        self.rules = tournament_fold

    def start(self, header: dict[str, Any]) -> Any:
        return tournament_state.start(header)

    def apply(self, state: Any, move: Move) -> Any:
        return tournament_fold.apply(state, move)

    def status(self, state: Any) -> str:
        over = state.status == tournament_state.FINISHED
        return Stream.Status.FINISHED if over else Stream.Status.IN_PROGRESS


class SeasonEngine:
    """A season's stream: the pure fold of games.tournaments.core.season.state; open until
    it is closed."""

    category = Stream.Category.SEASON

    def __init__(self, name: str = "") -> None:
        self.rules = season_state

    def start(self, header: dict[str, Any]) -> Any:
        return season_state.start(header)

    def apply(self, state: Any, move: Move) -> Any:
        return season_state.apply(state, move)

    def status(self, state: Any) -> str:
        return Stream.Status.FINISHED if state.closed else Stream.Status.IN_PROGRESS


class RegisterEngine:
    """The player register's stream: registrations and merges, checked by the service; its
    state is the merges recorded (``{player: into}``)."""

    category = Stream.Category.REGISTER

    def __init__(self, name: str = "") -> None:
        self.rules = self

    def start(self, header: dict[str, Any]) -> Any:
        return {}

    def apply(self, state: Any, move: Move) -> Any:
        if move.type == "player.merged":
            return {**state, move.data["player"]: move.data["into"]}
        return state

    def status(self, state: Any) -> str:
        return Stream.Status.IN_PROGRESS


Engine = GameEngine | MatchEngine | TournamentEngine | RegisterEngine | SeasonEngine
E = TypeVar("E", GameEngine, MatchEngine, TournamentEngine, RegisterEngine, SeasonEngine)


@dataclass(frozen=True)
class Folded:
    """A stream's header (its first event's data), its state and the version it reflects."""

    category: str
    header: dict[str, Any]
    state: Any
    version: int

    @property
    def engine(self) -> Engine:
        return engine_for(self.category, self.header)

    @property
    def game_rules(self) -> Rules[Any]:
        """The rule engine of a game stream (TypeError for a match: a caller's bug)."""
        return game_rules(self.header)

    @functools.cached_property
    def scores_json(self) -> list[dict[str, Any]]:
        """A game's scores as the API shows them, made once per state: the answer to a move and
        the read model's row both show them (a long dice game itemises a hundred bonus hands).
        Shared: callers must not change it."""
        return _scores_json(self.game_rules.scores(self.state))

    @property
    def known_scores_json(self) -> list[dict[str, Any]] | None:
        """``scores_json`` if this state has made it already, else None (not made for this)."""
        known: list[dict[str, Any]] | None = self.__dict__.get("scores_json")
        return known

    # Made once per state as well, for the answer to a move and the summary row alike.
    @functools.cached_property
    def result(self) -> Any:
        """A game's result (None while it is played)."""
        return self.game_rules.result(self.state)

    @functools.cached_property
    def turn(self) -> int | None:
        """The seat a game waits on (None if none)."""
        return self.game_rules.current_player(self.state)

    @functools.cached_property
    def expected(self) -> list[str]:
        """The event types a game waits for. Shared: callers must not change it."""
        return self.game_rules.expected(self.state)

    @property
    def match_rules(self) -> MatchRules:
        """The format of a match stream (TypeError for a game: a caller's bug)."""
        if self.category != Stream.Category.MATCH:
            raise TypeError("a game stream has no match rules")
        return _engine(MatchEngine, self.header["format"]).rules


# Rules that make a game's scores once for many states (Scarney 3000: once a turn) hand back the
# same tuple for each: its JSON is then made once as well. Keyed by identity, the tuple held so
# that its id cannot be another's while kept.
_SCORES_JSON: OrderedDict[int, tuple[Any, list[dict[str, Any]]]] = OrderedDict()
_SCORES_JSON_SIZE = 512
_scores_json_lock = threading.Lock()


def _scores_json(scores: Any) -> list[dict[str, Any]]:
    kept = _SCORES_JSON.get(id(scores))
    if kept is not None and kept[0] is scores:
        return kept[1]
    made = [score.as_dict() for score in scores]
    with _scores_json_lock:
        _SCORES_JSON[id(scores)] = (scores, made)
        if len(_SCORES_JSON) > _SCORES_JSON_SIZE:
            _SCORES_JSON.popitem(last=False)
    return made


_ENGINES: dict[tuple[type[Any], str], Any] = {}


def engine_for(category: str, header: dict[str, Any]) -> Engine:
    """The engine of a stream of ``category`` whose first event's data is ``header``."""
    if category == Stream.Category.MATCH:
        return _engine(MatchEngine, header["format"])
    if category == Stream.Category.TOURNAMENT:
        return _engine(TournamentEngine, "")
    if category == Stream.Category.REGISTER:
        return _engine(RegisterEngine, "")
    if category == Stream.Category.SEASON:
        return _engine(SeasonEngine, "")
    return _engine(GameEngine, header["kind"])


def game_rules(header: dict[str, Any]) -> Rules[Any]:
    """The rule engine of the game whose ``game.started`` data is ``header``."""
    if "kind" not in header:
        raise TypeError("a match stream has no game rules")
    return _engine(GameEngine, header["kind"]).rules


def game_start(header: dict[str, Any]) -> Any:
    """The game's state before its first move, from its ``game.started`` data."""
    return _engine(GameEngine, header["kind"]).start(header)


def _engine(engine_type: type[E], name: str) -> E:
    key = (engine_type, name)
    if key not in _ENGINES:
        _ENGINES[key] = engine_type(name)
    engine: E = _ENGINES[key]
    return engine


def fold_events(category: str, events: Iterable[journal.StoredEvent]) -> Folded:
    """Replay a stream's events (the first must be its start event) into a Folded state."""
    iterator = iter(events)
    first = next(iterator)
    check_start(first.stream_id, first.type)
    moves = ((event.version, event.type, event.data) for event in iterator)
    return fold_moves(category, first.data, first.version, moves)


def check_start(stream_id: Any, type: str) -> None:
    if type not in START_EVENTS:
        raise ValueError(f"stream {stream_id} does not begin with a start event")


def fold_moves(
    category: str, header: dict[str, Any], version: int, moves: Iterable[tuple[int, str, Any]]
) -> Folded:
    """Fold ``(version, type, data)`` moves (data upcast) onto the start event's ``header``.

    fold_events without a StoredEvent per event: the projections' rebuild replays every stream
    through here, from plain rows. ``move.undone`` pops the stack of states, as appends do.
    """
    engine = engine_for(category, header)
    states = [engine.start(header)]
    for version, type, data in moves:  # noqa: B007 - the last version is the result's
        engine_step(engine, states, Move(type, data))
    return Folded(category, header, states[-1], version)


def engine_step(engine: Engine, states: list[Any], move: Move) -> None:
    """``step`` through the stream's engine. A table's ``result.confirmed`` changes no state and
    takes no place on the stack: a take-back after it takes back the match's last move."""
    if move.type == RESULT_CONFIRMED:
        engine.apply(states[-1], move)
        return
    step(engine, states, move)


def fold_on(start: Folded, moves: list[Move]) -> Folded | None:
    """``start`` with ``moves`` applied, or None if one is a take-back: it may pop a move made
    before ``start``, so the caller folds the stream from its beginning instead."""
    if any(move.type == UNDO for move in moves):
        return None
    engine = start.engine
    states = [start.state]
    for move in moves:
        engine_step(engine, states, move)
    return Folded(start.category, start.header, states[-1], start.version + len(moves))
