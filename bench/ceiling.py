"""The ceiling of ``bench/http.py``: a bare DRF view of the move's shape, one INSERT, JSON back.

It goes through everything a move's request does that is not the move itself (gunicorn, Django's
middleware, DRF's parsing, token authentication, throttles, rendering) and writes one event row
into ``bench_raw_event`` (bench/append.py's raw table) in one statement. Served only by
``bench.urls`` (``bench.settings``), never by the product's URLconf.
"""

from __future__ import annotations

import dataclasses
import json
import os
import uuid
from typing import Any

from django.db import IntegrityError, connection
from django.utils import timezone
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

INSERT = (
    "INSERT INTO bench_raw_event (id, stream, version, type, data, meta, recorded_at, hash)"
    " VALUES (%s, %s, 1, %s, %s, %s, %s, %s) ON CONFLICT (id) DO NOTHING RETURNING position"
)


class CeilingInsert(APIView):
    """``POST /bench/ceiling/{id}/``: the body of a move, stored as one row."""

    def post(self, request: Request, pk: uuid.UUID) -> Response:
        body = request.data if isinstance(request.data, dict) else {}
        event_id = uuid.UUID(str(body.get("id")))
        data: dict[str, Any] = body["data"] if isinstance(body.get("data"), dict) else {}
        kind = str(body.get("type", ""))[:100]
        recorded_at = timezone.now()
        with connection.cursor() as cursor:
            # The stream of a row is its own id: the (stream, version) key never collides.
            row: list[Any] = [event_id, event_id, kind, json.dumps(data), "{}", recorded_at]
            row.append(event_id.hex)
            cursor.execute(INSERT, row)
            found = cursor.fetchone()
        # An id sent again (bench/wrk/moves.lua resends a run's last move) is no error here.
        answer = _answer(pk, event_id, kind, data, found[0] if found else None)
        return Response(answer, status=status.HTTP_201_CREATED if found else status.HTTP_200_OK)


def _answer(
    pk: uuid.UUID, event_id: uuid.UUID, kind: str, data: dict[str, Any], position: int | None
) -> dict[str, Any]:
    return {
        "event": {"position": position, "id": str(event_id), "type": kind, "data": data},
        "game": {"id": str(pk), "version": position},
    }


# --- the floor under the product: its one append statement, without the rules --------------------

_heads: dict[uuid.UUID, list[Any]] = {}  # stream id -> [version, head hash, folded, game JSON]

# What the statement writes (BENCH_STATEMENT, read once per web process):
#   full         the product's statement: the stream row, the event, the game's summary row;
#   no-summary   the same without the summary's clause (a summary projected off the request);
#   insert-only  the event row alone, its version checked by the (stream, version) key and its
#                chain by the previous event's row: no stream row and no summary written.
VARIANT = os.environ.get("BENCH_STATEMENT", "full")

INSERT_ONLY = """
INSERT INTO games_event
    (id, stream_id, version, type, schema_version, data, meta, recorded_at, hash)
SELECT %(event_id)s, %(stream)s, %(version)s, %(type)s, %(schema_version)s,
    %(data)s::jsonb, %(meta)s::jsonb, %(recorded_at)s, %(hash)s
WHERE EXISTS (SELECT 1 FROM games_event p
              WHERE p.stream_id = %(stream)s AND p.version = %(previous)s
                AND p.hash = %(previous_hash)s)
  AND EXISTS (SELECT 1 FROM games_stream WHERE games_stream.id = %(stream)s{recorder})
RETURNING position
"""
LAST_EVENT = (
    "SELECT version, hash FROM games_event WHERE stream_id = %(stream)s"
    " ORDER BY version DESC LIMIT 1"
)


class StatementOnly(APIView):
    """``POST /bench/statement/{id}/``: the product's append statement (the stream row, the event,
    the summary, the right to record tested) onto a game's head, with no rules: the head's state
    is folded once per process and never moved on, its summary clause and its game JSON are made
    from that state. What a move costs over ``CeilingInsert`` that is not the rules. The state's
    scores never change, so the summary's scores are written with a game's first move only
    (game_summary.same_scores): a move that changes a score writes more, and this floor is, if
    anything, high."""

    def post(self, request: Request, pk: uuid.UUID) -> Response:
        from games.play import permissions
        from games.play.representation import event_json
        from games.store import journal, reactions

        body = request.data if isinstance(request.data, dict) else {}
        data: dict[str, Any] = body["data"] if isinstance(body.get("data"), dict) else {}
        recorder = permissions.recorder_to_test(request.user)
        for _attempt in range(2):
            head = _heads.get(pk) or _read_head(pk)
            if head is None:
                return Response({"code": "not_found"}, status=status.HTTP_404_NOT_FOUND)
            version, previous, folded, game = head
            event = journal.Draft(
                stream_id=pk,
                version=version + 1,
                event_id=uuid.UUID(str(body.get("id"))),
                type=str(body.get("type", ""))[:60],
                data=data,
                meta={"recorded_by": request.user.pk},
            )
            # Made in every variant, so that they differ only in what the database writes.
            more = reactions.current().append_clauses(
                folded, "in_progress", event.recorded_at, folded
            )
            try:
                if VARIANT == "insert-only":
                    written = _insert_only(event, previous, recorder)
                else:
                    written = journal.append_unlocked(
                        event,
                        previous_hash=previous,
                        status="in_progress",
                        snapshot=None,
                        more=[] if VARIANT == "no-summary" else more,
                        recorder=recorder,
                    )
            except journal.EventIdReused:
                # An id sent again (bench/wrk/moves.lua resends a run's last move): as for the
                # ceiling, no error. For insert-only, the (stream, version) key may be what was
                # hit (a head cached before the other process moved on): read it and try again.
                _heads.pop(pk, None)
                if _attempt:
                    return Response({"event": {"id": str(event.id)}, "game": game})
                continue
            if isinstance(written, int):
                _heads[pk] = [event.version, event.hash, folded, game]
                answer = {"event": event_json(event.stored(written)), "game": game}
                return Response(answer, status=status.HTTP_201_CREATED)
            _heads.pop(pk, None)  # the other web process moved the stream on: read it again
        return Response({"code": "version.conflict"}, status=status.HTTP_409_CONFLICT)


def _read_head(pk: uuid.UUID) -> list[Any] | None:
    from games.play.representation import game_json
    from games.store import folding, journal

    found = journal.game_head(pk)
    if found is not None and found.since and found.snapshot_version is not None:
        # The rules' moves only: insert-only's rows past the stream row's version are not moves.
        found = dataclasses.replace(
            found, since=found.since[: found.version - found.snapshot_version]
        )
    folded = None if found is None else folding.unpack_head(pk, "game", found)
    if found is None or folded is None:
        return None
    game = game_json(folded, stream_id=pk, status="in_progress")
    version, hash = found.version, found.hash
    if VARIANT == "insert-only":  # the stream row is not moved on: the last event is the head
        version, hash = journal.fetch_row(LAST_EVENT, {"stream": pk}) or (version, hash)
    _heads[pk] = [version, hash, folded, game]
    return _heads[pk]


def _insert_only(event: Any, previous: str, recorder: int | None) -> int | None:
    from games.play import permissions
    from games.store import journal

    # The store's own JSON form and prepared execution, as its append uses them.
    data, meta = (
        journal.CANONICAL_JSON.encode(event.data),
        journal.CANONICAL_JSON.encode(event.meta),
    )
    event.hash = journal.hash_of_texts(previous, event, data, meta)
    params = {
        "event_id": event.id,
        "stream": event.stream_id,
        "version": event.version,
        "previous": event.version - 1,
        "previous_hash": previous,
        "type": event.type,
        "schema_version": event.schema_version,
        "data": data,
        "meta": meta,
        "recorded_at": event.recorded_at,
        "hash": event.hash,
        "recorder": recorder,
    }
    test = "" if recorder is None else f" AND {permissions.RECORDER_CONDITION}"
    try:
        row = journal.fetch_row(INSERT_ONLY.format(recorder=test), params)
    except IntegrityError:
        raise journal.EventIdReused(event.id) from None
    return None if row is None else int(row[0])
