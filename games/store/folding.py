"""From events to state: the stream's header, the rule engine, snapshots and replays.

The first event of every stream (``game.started`` / ``match.started``) carries everything needed
to rebuild it: kind, seats, the effective ruleset and the setup. Folding the rest through the
pure rule engine gives the state; the snapshot on the stream row only saves that work.

This is the one module that loads a stream (:func:`load`: its snapshot, then the events after
it) and saves one (:func:`save`: the event appended, the snapshot kept), as a repository of
event-sourced aggregates does; ``games.store.journal`` below it reads and writes the rows.
"""

from __future__ import annotations

import copyreg
import dataclasses
import functools
import hashlib
import hmac
import io
import operator
import pickle
import struct
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from django.conf import settings

from games.rules import registry
from games.rules.base import Move, Rules, make_ruleset, step
from games.rules.errors import StateConflict
from games.rules.events import (
    GAME_STARTED,
    MATCH_SETTLED,
    MATCH_STARTED,
    REGISTER_OPENED,
    RESULT_CONFIRMED,
    TOURNAMENT_CREATED,
    UNDO,
)
from games.rules.matches import MatchRules
from games.rules.shapes import ShapeError
from games.store import event_types, journal
from games.store.event_types import upcast
from games.store.models import Stream
from games.tournaments.core import fold as tournament_fold
from games.tournaments.core import state as tournament_state

# Bump when a state class changes shape or moves: older snapshots are then ignored and refolded.
# 3: the rule modules moved into family packages (pickles name class paths); 4: authenticated;
# 5: Scarney 3000 keeps its turns packed and only the last turn's throws; 6: the Scarney dice
# games' rulesets moved from their family's ``scoring`` module to ``throws``; 7: a finished
# Truffle hand keeps Dealer's discards in Opposite's pile when Dealer won no trick (21.2); 8: a
# tournament's entries, results and tables hold labels and confirmations; 9: a tournament holds
# whether it is published; 10: its state moved into games.tournaments.core.
SNAPSHOT_FORMAT = 10
# The first event of a stream of each category.
START_EVENTS = (GAME_STARTED, MATCH_STARTED, TOURNAMENT_CREATED, REGISTER_OPENED)


class GameEngine:
    """A game stream's engine: its rule engine, started from the header, moved by its events."""

    category = Stream.Category.GAME

    def __init__(self, kind: str) -> None:
        self.rules: Rules[Any] = registry.get(kind)

    def start(self, header: dict[str, Any]) -> Any:
        ruleset = make_ruleset(self.rules.ruleset_type, header.get("ruleset"))
        return self.rules.initial_state(header.get("setup") or {}, ruleset, len(header["seats"]))

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


Engine = GameEngine | MatchEngine | TournamentEngine | RegisterEngine
E = TypeVar("E", GameEngine, MatchEngine, TournamentEngine, RegisterEngine)


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


def refold(stream: Stream, upto: int | None = None) -> Folded:
    return fold_events(stream.category, journal.stream_events(stream.pk, upto))


def state_stack(stream: Stream) -> tuple[dict[str, Any], list[Any]]:
    """The header and the stack of states of the moves in force (for ``move.undone``)."""
    events = journal.stream_events(stream.pk)
    first = next(events)
    engine = engine_for(stream.category, first.data)
    states = [engine.start(first.data)]
    for event in events:
        engine_step(engine, states, Move(event.type, event.data))
    return first.data, states


# A snapshot is its MAC then its pickle. Unpickling runs code the pickle names, so a snapshot is
# unpickled only once its MAC shows this installation made it: HMAC-SHA256, under a key derived
# from SECRET_KEY (which the database does not hold), of the format, the version, the stream and
# the pickle. One written by anyone else, or copied from another stream or version, is ignored.
_MAC_SIZE = hashlib.sha256().digest_size
_MAC_SALT = "games.store.folding.snapshot"
_BOUND = struct.Struct(">HQ")  # SNAPSHOT_FORMAT, version; then the stream id's 16 bytes


@functools.lru_cache(maxsize=4)
def _hmac_pads(secret: str) -> tuple[Any, Any]:
    """HMAC-SHA256's inner and outer hashes, keyed and ready to copy (RFC 2104).

    The key is derived from SECRET_KEY as django.utils.crypto.salted_hmac derives its own, under
    this module's salt. The pads are hashed once per key, not per snapshot: hmac.digest() would
    set up its key on every call, four times the cost of the MAC itself.
    """
    key = hashlib.sha256((_MAC_SALT + secret).encode()).digest()
    block = key.ljust(hashlib.sha256().block_size, b"\0")
    inner = hashlib.sha256(bytes(byte ^ 0x36 for byte in block))
    outer = hashlib.sha256(bytes(byte ^ 0x5C for byte in block))
    return inner, outer


def _mac(stream_id: uuid.UUID, version: int, body: bytes | memoryview) -> bytes:
    inner, outer = (pad.copy() for pad in _hmac_pads(settings.SECRET_KEY))
    inner.update(_BOUND.pack(SNAPSHOT_FORMAT, version))
    inner.update(stream_id.bytes)
    inner.update(body)
    outer.update(inner.digest())
    mac: bytes = outer.digest()
    return mac


def pack(folded: Folded, stream_id: uuid.UUID) -> bytes:
    """The snapshot of ``folded``, the state of stream ``stream_id`` at ``folded.version``."""
    out = io.BytesIO()
    _Pickler(out, pickle.HIGHEST_PROTOCOL).dump((folded.header, folded.state))
    body = out.getvalue()
    return _mac(stream_id, folded.version, body) + body


class _Pickler(pickle.Pickler):
    """pickle's own output, faster for the rule engines' slotted dataclasses.

    Their state comes from dataclasses' ``__getstate__``, which looks the class's fields up
    again for every object and lists their values one by one: most of pickling a dice game's
    state (its throws, turns and frames are many small objects; a sixth of a move's CPU).
    Here one ``attrgetter`` per class takes the values in C, and the object is reduced as
    ``object.__reduce_ex__`` reduces it, but with its state a tuple rather than a list (one
    opcode apart), which the stock ``__setstate__`` reads back alike
    (tests/games/store/test_fast_append.py).
    """

    def reducer_override(self, obj: Any) -> Any:
        values = _slotted_values.get(type(obj), _UNSEEN)
        if values is _UNSEEN:
            values = _slotted_values[type(obj)] = _values_of(type(obj))
        if values is None:
            return NotImplemented
        return _NEWOBJ, (type(obj),), values(obj)


# copyreg.__newobj__, as object.__reduce_ex__ names it (typeshed does not list it).
_NEWOBJ = copyreg.__newobj__  # type: ignore[attr-defined]
_UNSEEN = object()
_slotted_values: dict[type, Any] = {}


def _values_of(cls: type) -> Callable[[Any], tuple[Any, ...]] | None:
    """What takes the field values of a slotted dataclass that pickles through dataclasses' own
    state functions, as a tuple; None for any other class (pickled as pickle pickles it)."""
    getstate = getattr(cls, "__getstate__", None)
    if not dataclasses.is_dataclass(cls) or "__slots__" not in cls.__dict__:
        return None
    if getattr(getstate, "__qualname__", "") != "_dataclass_getstate":
        return None
    names = tuple(field.name for field in dataclasses.fields(cls))
    if len(names) == 1:  # attrgetter of one name gives the value itself, not a tuple
        return lambda obj: (getattr(obj, names[0]),)
    return operator.attrgetter(*names)


def unpack(stream: Stream) -> Folded | None:
    """The state at the stream's version from its snapshot, if present, authentic and readable,
    with the few events after it folded on when it is behind the head (the fast path writes one
    every journal.SNAPSHOT_EVERY events); else None (the caller refolds)."""
    if stream.snapshot_version == stream.version:
        return _unpack(stream.pk, stream.category, stream.version, stream.snapshot)
    return _from_own_snapshot(stream)


def unpack_head(stream_id: uuid.UUID, category: str, head: journal.StreamHead) -> Folded | None:
    """unpack() of a head read by the fast path's statement (journal.StreamHead): its snapshot,
    and the events after it folded on when it is behind the head."""
    if head.snapshot_version == head.version:
        return _unpack(stream_id, category, head.version, head.snapshot)
    if head.snapshot_version is None or head.since is None:
        return None
    if len(head.since) != head.version - head.snapshot_version:
        return None  # not the whole run of events since the snapshot: the locked path decides
    start = _unpack(stream_id, category, head.snapshot_version, head.snapshot)
    moves = [Move(type, upcast(type, data, schema)) for type, data, schema in head.since]
    return None if start is None else fold_on(start, moves)


def _unpack(
    stream_id: uuid.UUID, category: str, version: int, snapshot: bytes | memoryview | None
) -> Folded | None:
    if not snapshot:
        return None
    view = memoryview(snapshot)
    mac, body = view[:_MAC_SIZE], view[_MAC_SIZE:]
    if not hmac.compare_digest(mac, _mac(stream_id, version, body)):
        return None  # not made here for this stream and version: never unpickled
    try:
        header, state = pickle.loads(body)
    except Exception:  # an unreadable cache is not an error: the events are the truth
        return None
    return Folded(category, header, state, version)


def settlement(stream_id: uuid.UUID, folded: Folded) -> dict[str, Any] | None:
    """The data of a match's ``match.settled`` event, or None. No query while the fold says the
    match is unsettled; else the event is read from the stream's end, where it lies (a match is
    settled once, after its games): from the start it cost a match report ~1.5 ms at 100 events.
    """
    if not folded.match_rules.is_settled(folded.state):
        return None
    return journal.event_data(stream_id, MATCH_SETTLED, last=True)


def save(
    stream: Stream,
    after: Folded,
    status: str,
    *,
    event_id: uuid.UUID,
    type: str,
    data: dict[str, Any],
    meta: dict[str, Any],
) -> journal.StoredEvent:
    """Append the event that made ``after`` and keep ``after`` as the stream's snapshot, with its
    ``status``; the caller holds the stream's lock and the transaction (the locked path)."""
    if settings.CHECK_DECLARED:
        check_declared(after, type, data)
    row = journal.insert(stream, event_id=event_id, type=type, data=data, meta=meta)
    stream.status = status
    stream.snapshot = pack(after, stream.pk)
    stream.snapshot_version = stream.version
    stream.save(update_fields=["version", "head_hash", "status", "snapshot", "snapshot_version"])
    journal.keep_past(stream.pk, stream.version, stream.snapshot)
    return journal.read(row)


def check_declared(after: Folded, type: str, data: dict[str, Any]) -> None:
    """Assert that an event and the game's view after it hold to their declarations
    (games/rules/shapes.py): on in the test suite (``CHECK_DECLARED``), so that every event any
    test writes, the service's own included, checks what the schema and the pages rely on."""
    shape = event_types.declared(type)
    assert shape is not None, f"{type} is declared nowhere"
    try:
        shape.check(data)
        if after.category == Stream.Category.GAME:
            after.game_rules.view_shape.check(after.game_rules.view(after.state))
    except ShapeError as error:
        raise AssertionError(
            f"{type} or the view after it: {error.path}: {error.expected}"
        ) from None


def load(stream: Stream, at_version: int | None = None) -> Folded:
    """The stream's state now, or as of ``at_version``."""
    if at_version is None or at_version == stream.version:
        return unpack(stream) or refold(stream)
    return (
        _from_own_snapshot(stream, at_version)
        or _from_past(stream, at_version)
        or refold(stream, upto=at_version)
    )


def _from_own_snapshot(stream: Stream, upto: int | None = None) -> Folded | None:
    """The state at ``upto`` (the head's by default), folded on from the stream row's snapshot
    when that is behind it by less than journal.SNAPSHOT_EVERY (a retry of one of the last moves,
    say); None otherwise, or if it is not usable."""
    upto = stream.version if upto is None else upto
    version = stream.snapshot_version
    if version is None or not 0 < version < upto or upto - version >= journal.SNAPSHOT_EVERY:
        return None
    start = _unpack(stream.pk, stream.category, version, stream.snapshot)
    if start is None:
        return None
    events = journal.stream_events(stream.pk, upto=upto, after=version)
    return fold_on(start, [Move(event.type, event.data) for event in events])


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


def _from_past(stream: Stream, version: int) -> Folded | None:
    """The state at ``version`` folded on from the last snapshot kept before it (at most
    journal.KEEP_EVERY - 1 events); None if none is kept or usable."""
    kept = journal.past_snapshot(stream.pk, version)
    if kept is None:
        return None
    start = _unpack(stream.pk, stream.category, kept[0], kept[1])
    if start is None:
        return None
    events = journal.stream_events(stream.pk, upto=version, after=start.version)
    return fold_on(start, [Move(event.type, event.data) for event in events])
