"""The ceiling of ``bench/http.py``: a bare DRF view of the move's shape, one INSERT, JSON back.

It goes through everything a move's request does that is not the move itself (gunicorn, Django's
middleware, DRF's parsing, token authentication, throttles, rendering) and writes one event row
into ``bench_raw_event`` (bench/append.py's raw table) in one statement. Served only by
``bench.urls`` (``bench.settings``), never by the product's URLconf.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from django.db import connection
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
