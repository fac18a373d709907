"""JSON answers for errors raised outside the API views (bad URLs, bad requests)."""

import contextlib
import sys
from typing import Any

from django import db
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse

from games.api.http.exceptions import connection_dropped, unavailable


def not_found(request: HttpRequest, exception: Any = None) -> JsonResponse:
    return JsonResponse({"code": "not_found", "detail": "Not found."}, status=404)


def bad_request(request: HttpRequest, exception: Any = None) -> JsonResponse:
    return JsonResponse({"code": "request.malformed", "detail": "Bad request."}, status=400)


def server_error(request: HttpRequest) -> HttpResponse:
    # Called while the error is handled: one that is a dropped database connection (raised in a
    # middleware, where RetryDroppedConnection does not see it) is a 503, not a bug.
    if connection_dropped(sys.exc_info()[1]):
        with contextlib.suppress(db.Error):
            connection.close()
        return unavailable(request)
    return JsonResponse(
        {"code": "server.error", "detail": "Something went wrong on our side; it is logged."},
        status=500,
    )
