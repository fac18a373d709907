"""The one append: fold, insert, snapshot, project, react.

Every service that writes (games, matches, the register, tournaments, a client's move) appends
through :func:`append`. Given a locked stream, it takes the locked path. Given a stream's id (a
client's event, nothing locked yet), it first tries the fast path (games.store.fast_append: the
same steps in one statement, on PostgreSQL, for a game's legal move) and, where that writes
nothing, hands over to the caller's locked path, which checks under the lock and appends here.

The event is folded onto the snapshot through the pure rule engine (its refusals pass through
unchanged), inserted by the journal, and the stream's snapshot and status move with it. Then
come the effects of play itself (a finished game reports to its match, a complete match
registers its close), and the reactions registered by other contexts (webhooks, the read
models), in that order: every path takes match locks before the player locks of the projections.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction

from games.play import permissions
from games.play.refusals import labelled
from games.rules.base import Move, ReportsToMatch, step
from games.rules.errors import IllegalEvent
from games.rules.events import GAME_FINISHED, GAME_SCORED, RESULT_CONFIRMED, SERVICE_ONLY, UNDO
from games.store import event_types, fast_append, folding, journal, outbox, reactions
from games.store.canonical import canonical
from games.store.models import Outbox, Stream

CLOSE_TASK = "scoring.close_match"  # the Celery task that runs match_close
RENDER_TASK = (
    "scoring.render_document"  # renders a printed document (scoring/documents/printing.py)
)
SHEET_RENDER_KEY = "render:sheet:"  # + the match id: the outbox row of its score sheet


def close_key(match_id: uuid.UUID) -> str:
    """The outbox key of a match's close task: one per match, however often registered."""
    return f"close:{match_id}"


@dataclass(frozen=True)
class Recorded:
    """The outcome of recording an event: the row, the stream's state after it, and whether new."""

    event: journal.StoredEvent
    folded: folding.Folded
    created: bool
    status: str


def append(
    stream: Stream | uuid.UUID,
    event_id: uuid.UUID,
    type: str,
    data: dict[str, Any],
    meta: dict[str, Any],
    folded: folding.Folded | None = None,
    *,
    expected_version: int | None = None,
    user: Any = None,
    category: str | None = None,
) -> Recorded:
    """Fold, insert, snapshot, project, and register side effects.

    ``stream`` locked by the caller (a service's own event): the locked path. ``meta`` is
    :func:`recorded_meta`'s; ``folded``, when the caller has loaded the stream already, saves a
    second load.

    ``stream`` an id (a client's event, checked by ``services.event_record``; ``category``, when
    given, the kind of stream he addressed): a game's move goes by the fast path's one statement
    at ``expected_version``, which tests ``user``'s right to record; what it does not write takes
    the locked path, where ``user``'s right and the stream's checks are made and a refusal says
    why. A retry of a recorded event gets its first answer."""
    if not isinstance(stream, Stream):
        return _client_event(stream, event_id, type, data, meta, expected_version, user, category)
    if type in SERVICE_ONLY:
        data = canonical(data)  # the service's own events (a client's are canonical already)
    after = _fold_next(stream, folded, type, data)
    status_before = None if stream.version == 0 else stream.status
    status = status_of(after, stream.status)
    event = folding.save(stream, after, status, event_id=event_id, type=type, data=data, meta=meta)
    # Side effects first: they lock the match stream, and every path takes match locks
    # before the player locks of the projections.
    _after_append(stream, after, event)
    reactions.current().handle(stream, after, event, status_before)
    if stream.category == Stream.Category.GAME and stream.status == Stream.Status.IN_PROGRESS:
        fast_append.remember(stream.pk, fast_append.Head(stream.version, stream.head_hash, after))
    else:
        fast_append.forget(stream.pk)
    return Recorded(event, after, created=True, status=stream.status)


def _fold_next(
    stream: Stream, folded: folding.Folded | None, type: str, data: dict[str, Any]
) -> folding.Folded:
    # A refusal of the rules names the stream's seats by their labels (games.play.refusals).
    version = stream.version + 1
    if type in folding.START_EVENTS:
        engine = folding.engine_for(stream.category, data)
        with labelled(data):
            return folding.Folded(stream.category, data, engine.start(data), version)
    if type == UNDO:
        _check_undo_allowed(stream)
        header, states = folding.state_stack(stream)
        with labelled(header):
            step(folding.engine_for(stream.category, header).rules, states, Move(type, data))
        return folding.Folded(stream.category, header, states[-1], version)
    folded = folded or folding.load(stream)
    with labelled(folded.header):
        state = folded.engine.apply(folded.state, Move(type, data))
    return folding.Folded(stream.category, folded.header, state, version)


def _check_undo_allowed(stream: Stream) -> None:
    if stream.category == Stream.Category.GAME and stream.status != Stream.Status.IN_PROGRESS:
        if stream.game.match_id is not None:
            raise IllegalEvent(
                "undo.game_closed",
                "This game's result is already part of its match and cannot be taken back.",
            )


def status_of(folded: folding.Folded, current: str) -> str:
    # A settled match stays settled: its settlement is the last word. An abandoned one (a
    # tournament round paired again: its round.repaired event says so) stays abandoned.
    if current in (Stream.Status.SETTLED, Stream.Status.ABANDONED):
        return current
    return folded.engine.status(folded.state)


def _after_append(stream: Stream, folded: folding.Folded, event: journal.StoredEvent) -> None:
    """Side effects of a game finishing inside a match, and of a match completing; then what
    other contexts registered for an appended event (the webhooks' deliveries)."""
    reactions.publish(reactions.APPENDED, event=event)
    if stream.category == Stream.Category.GAME:
        match_id = folded.header.get("match")
        if match_id and stream.status == Stream.Status.FINISHED:
            _report_game_to_match(stream, folded, uuid.UUID(match_id))
    elif stream.category == Stream.Category.MATCH:
        if stream.status == Stream.Status.FINISHED:
            if folded.match_rules.closing_event(folded.state) is not None:
                outbox.register(CLOSE_TASK, [str(stream.pk)], key=close_key(stream.pk))
        _render_sheet_again(stream)


def _render_sheet_again(stream: Stream) -> None:
    """A match event (game finished or scored, settled, rated, taken back) changes its score
    sheet: render it again ahead of its readers, once, if it was ever rendered (its outbox row,
    ``render:sheet:<id>``, exists). Without a worker the next reader renders it instead."""
    if not settings.REPORTS_RENDER_AHEAD or stream.version < 2:
        return
    key = f"{SHEET_RENDER_KEY}{stream.pk}"
    if Outbox.objects.filter(key=key).exists():
        outbox.register(RENDER_TASK, [key.removeprefix("render:")], key=key)


def _report_game_to_match(game_stream: Stream, folded: folding.Folded, match_id: uuid.UUID) -> None:
    rules = folded.game_rules
    result = rules.result(folded.state)
    assert result is not None, "only a finished game reports to its match"
    data: dict[str, Any] = {
        "game": str(game_stream.pk),
        "scores": [s.total for s in result.scores],
        "winners": list(result.winners),
    }
    if isinstance(rules, ReportsToMatch):
        # Facts a match format needs beyond the scores (who moved last, the last pawn ...).
        data["report"] = rules.match_report(folded.state)
    match_stream = journal.lock_stream(match_id)
    event_id = uuid.uuid5(game_stream.pk, GAME_FINISHED)
    append(match_stream, event_id, GAME_FINISHED, data, recorded_meta(None, {}), None)


def user_or_none(user: Any) -> Any:
    """The user who records, or None for an anonymous or absent one."""
    return user if getattr(user, "is_authenticated", False) else None


def recorded_meta(user: Any, client_meta: dict[str, Any]) -> dict[str, Any]:
    """The client's meta (checked by ``events.check_meta``) and who recorded the event."""
    return {"recorded_by": getattr(user_or_none(user), "pk", None), **client_meta}


# --- a client's event --------------------------------------------------------------------------


def _client_event(
    stream_id: uuid.UUID,
    event_id: uuid.UUID,
    type: str,
    data: dict[str, Any],
    meta: dict[str, Any],
    expected_version: int | None,
    user: Any,
    category: str | None,
) -> Recorded:
    try:
        if category in (None, Stream.Category.GAME):
            # The fast statement tests the right to record itself (no query of its own); a move
            # it does not write is checked on the locked path, where a refusal says why.
            recorder = permissions.recorder_to_test(user)
            fast = fast_append.try_append(
                stream_id, event_id, type, data, expected_version, meta, recorder
            )
            if fast is not None:
                return Recorded(fast[0], fast[1], created=True, status=fast[2])
        permissions.check_may_record(user, stream_id, category)
        return _locked(stream_id, event_id, type, data, expected_version, meta, category, user)
    except journal.EventIdReused:
        # Another request took the id first; it is a retry only if it carried the same event.
        original = _replay_of(event_id, stream_id, type, data)
        if original is None:
            raise
        return original


@transaction.atomic
def _locked(
    stream_id: uuid.UUID,
    event_id: uuid.UUID,
    type: str,
    data: dict[str, Any],
    expected_version: int | None,
    meta: dict[str, Any],
    category: str | None,
    user: Any,
) -> Recorded:
    stream = journal.lock_stream(stream_id)
    if category is not None and stream.category != category:
        raise Stream.DoesNotExist(f"There is no {category} {stream_id}.")
    if expected_version != stream.version:
        # A retry of a recorded event comes without a version or with the one it first had;
        # it gets its original answer, not a refusal from a state that has moved on.
        original = _replay_of(event_id, stream_id, type, data)
        if original is not None:
            return original
        if expected_version is not None:
            raise journal.VersionConflict(stream.version)
    _check_client_type(stream, type)
    event_types.check_stream_data(stream.category, stream.kind, type, data)
    check_not_abandoned(stream)
    if type == UNDO and stream.status != Stream.Status.IN_PROGRESS:
        _check_reopen(user, data)
    if type == RESULT_CONFIRMED:
        return _confirmed(stream, event_id, data, meta, user)
    return append(stream, event_id, type, data, meta, None)


def _confirmed(
    stream: Stream, event_id: uuid.UUID, data: dict[str, Any], meta: dict[str, Any], user: Any
) -> Recorded:
    """A tournament table's result agreed by a seat (any of the table's recorders, at the
    table) or confirmed by a director; the tournament counts it in this same transaction."""
    if stream.category != Stream.Category.MATCH or not stream.match.tournament_id:
        raise IllegalEvent(
            "result.not_a_table",
            "Only the result of a tournament table's match is confirmed.",
        )
    if ("seat" in data) == bool(data.get("director")):
        raise IllegalEvent(
            "result.bad_confirmation",
            'A confirmation names one seat, {"seat": 1}, or is a director\'s, {"director": true}.',
        )
    if data.get("director"):
        permissions.check_director(user)
    recorded = append(stream, event_id, RESULT_CONFIRMED, data, meta, None)
    with labelled(recorded.folded.header):  # the tournament's refusal names the table's seats
        reactions.publish(
            reactions.RESULT_CONFIRMED,
            stream=stream,
            folded=recorded.folded,
            event=recorded.event,
            data=data,
            user=user,
        )
    return recorded


def check_not_abandoned(stream: Stream) -> None:
    if stream.status == Stream.Status.ABANDONED:
        raise IllegalEvent(
            "match.abandoned",
            "This match was set aside when its tournament round was paired again: "
            "record in the round's new match.",
        )


def _check_reopen(user: Any, data: dict[str, Any]) -> None:
    """Taking back the move that ended a game or match reopens it: a director's act, explained."""
    permissions.check_may_reopen(user)
    reason = data.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise IllegalEvent(
            "undo.reason_required",
            'Reopening a finished game or match needs a reason: send {"reason": "..."}.',
        )


def _replay_of(
    event_id: uuid.UUID, stream_id: uuid.UUID, type: str, data: dict[str, Any]
) -> Recorded | None:
    """The original outcome if ``event_id`` was recorded with the same body; raise if not."""
    row = journal.find(event_id)
    if row is None:
        return None
    event = journal.read(row)
    if event.stream_id != stream_id or event.type != type or event.data != data:
        raise journal.EventIdReused(event_id)
    stream = Stream.objects.get(pk=stream_id)
    folded = folding.load(stream, at_version=event.version)
    status = stream.status if event.version == stream.version else status_of(folded, "")
    return Recorded(event, folded, created=False, status=status)


def _check_client_type(stream: Stream, type: str) -> None:
    if type in SERVICE_ONLY:
        raise IllegalEvent("event.reserved_type", f"{type} is recorded by the service itself.")
    # Other match events (a first-player draw, say) are the format's to accept or refuse.
    if (
        stream.category == Stream.Category.MATCH
        and type == GAME_SCORED
        and (stream.match.entry != "sheet")
    ):
        raise IllegalEvent(
            "match.live_entry", "This match is recorded live: its games carry the moves."
        )
