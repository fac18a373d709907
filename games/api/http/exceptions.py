"""The one place where errors become HTTP answers: ``{"code", "detail", ...}`` (API.md).

A service's refusal is answered as ``games.play.refusals`` says (rule refusals 422, version
conflicts and reused ids 409, ...), as the pages and the admin show it; missing things are 404,
malformed requests 400. Anything unexpected is logged and answered 500 in the same shape: a bug.

A database connection that went away (PostgreSQL restarted, a restore from a backup ended the
sessions, the database briefly absent) is not a bug: ``RetryDroppedConnection`` closes it and
runs a request that changes nothing (``GET``, ``HEAD``, ``OPTIONS``) once more on a new one;
any other request, or a second drop, is answered 503 ``service.database_unavailable`` with
``Retry-After`` (an HTML page outside the API). A write is never run twice here: its client
sends it again, and a resent event id is answered with its original outcome if it was recorded.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from typing import Any

from django import db
from django.core.exceptions import ObjectDoesNotExist, RequestDataTooBig
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from games.api.http.query import QueryError
from games.play.refusals import refusal_of

log = logging.getLogger(__name__)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if connection_dropped(exc):
        return None  # raised on, to RetryDroppedConnection
    answer = _known(exc)
    if answer is not None:
        return answer
    response = exception_handler(exc, context)
    if response is not None:
        return _reshape(exc, response)
    log.exception("unexpected error in %s", context.get("view"))
    return Response(
        {"code": "server.error", "detail": "Something went wrong on our side; it is logged."},
        status=status.HTTP_500_INTERNAL_SERVER_ERROR,
    )


def _known(exc: Exception) -> Response | None:
    refused = refusal_of(exc)
    if refused is not None:
        return Response(refused.answer(), status=refused.status)
    if isinstance(exc, QueryError):
        return Response({"code": exc.code, "detail": str(exc.detail), **exc.data}, status=400)
    if isinstance(exc, RequestDataTooBig):
        return Response(
            {"code": "request.too_large", "detail": "The request body is too large."}, status=400
        )
    if isinstance(exc, (Http404, ObjectDoesNotExist)):
        return Response({"code": "not_found", "detail": "Not found."}, status=404)
    return None


def _reshape(exc: Exception, response: Response) -> Response:
    if isinstance(exc, exceptions.ValidationError):
        response.data = {
            "code": "request.invalid",
            "detail": _first_message(exc.detail) or "The request is not valid.",
            "errors": exc.detail,
        }
        return response
    if isinstance(exc, exceptions.ParseError):
        response.data = {"code": "request.malformed", "detail": str(exc.detail)}
        return response
    code = f"request.{getattr(exc, 'default_code', 'error')}"
    detail = getattr(exc, "detail", str(exc))
    # DRF's refusals carry their own name as the code; one raised with a dotted code of the
    # house (the authentication's permission.read_only_token) answers that code.
    own = getattr(detail, "code", None)
    if isinstance(own, str) and "." in own:
        code = own
    response.data = {"code": code, "detail": str(detail)}
    return response


def _first_message(detail: Any) -> str | None:
    if isinstance(detail, dict):
        for key, value in detail.items():
            message = _first_message(value)
            if message:
                return message if key == "non_field_errors" else f"{key}: {message}"
    if isinstance(detail, list):
        for item in detail:
            message = _first_message(item)
            if message:
                return message
    if isinstance(detail, str):
        return detail
    return None


# --- a dropped database connection -------------------------------------------------------------

DATABASE_UNAVAILABLE = "service.database_unavailable"
RETRY_AFTER_S = 2
# What may run twice: these change nothing (RFC 9110 9.2.1).
RETRIED = frozenset({"GET", "HEAD", "OPTIONS"})
_UNAVAILABLE_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Back in a moment</title></head>
<body><h1>Back in a moment</h1>
<p>The score keeper cannot reach its database just now. Nothing you sent was lost: try again in
a few seconds.</p></body></html>
"""


def connection_dropped(exc: BaseException | None) -> bool:
    """Whether ``exc`` is the database connection gone (the server ended the session, or none
    could be opened), not an error of a statement: the connection is then closed or absent."""
    if not isinstance(exc, (db.OperationalError, db.InterfaceError)):
        return False
    raw = connection.connection
    return raw is None or bool(getattr(raw, "closed", False))


def unavailable(request: HttpRequest) -> HttpResponse:
    """503 with ``Retry-After``: JSON in the house's error shape for the API, a page elsewhere."""
    answer: HttpResponse
    if request.path.startswith("/api/"):
        detail = "The database cannot be reached just now; send the request again shortly."
        answer = JsonResponse({"code": DATABASE_UNAVAILABLE, "detail": detail}, status=503)
    else:
        answer = HttpResponse(_UNAVAILABLE_PAGE, status=503, content_type="text/html")
    answer["Retry-After"] = str(RETRY_AFTER_S)
    answer["Cache-Control"] = "no-store"
    return answer


class RetryDroppedConnection:
    """A request that met a dropped database connection: run once more if it changes nothing,
    else 503 (the module's docstring). Placed outside the session and authentication
    middleware, so that a request run again loads them anew."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if getattr(request, "database_dropped", False) and request.method in RETRIED:
            request.database_dropped = False  # type: ignore[attr-defined]
            response = self.get_response(request)  # a second drop keeps its 503
        return response

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if not connection_dropped(exc):
            return None
        log.warning(
            "the database connection dropped during %s %s: %s", request.method, request.path, exc
        )
        # The next statement opens a new connection (a closed one answers nothing again).
        with contextlib.suppress(db.Error):
            connection.close()
        request.database_dropped = True  # type: ignore[attr-defined]
        return unavailable(request)
