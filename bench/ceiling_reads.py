"""The ceiling of ``bench/scale.py``'s reads: a bare DRF view fetching one row by primary key.

It goes through everything a read's request does that is not the read itself (gunicorn, Django's
middleware, DRF's content negotiation, token authentication, throttles, JSON rendering) and runs
one ``SELECT ... WHERE id = %s`` on ``games_stream``, answering its columns as JSON. Served only
by ``bench.urls_reads`` (``bench.settings_reads``), never by the product's URLconf.
"""

from __future__ import annotations

import uuid

from django.db import connection
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

SELECT = (
    "SELECT id, category, kind, version, status, head_hash, created_at"
    " FROM games_stream WHERE id = %s"
)


class CeilingRead(APIView):
    """``GET /bench/ceiling-read/{id}/``: one stream row by its primary key, as JSON."""

    def get(self, request: Request, pk: uuid.UUID) -> Response:
        with connection.cursor() as cursor:
            cursor.execute(SELECT, [pk])
            row = cursor.fetchone()
        if row is None:
            return Response({"code": "not_found", "detail": "No such stream."}, status=404)
        names = ("id", "category", "kind", "version", "status", "head_hash", "created_at")
        return Response(dict(zip(names, row, strict=True)))
