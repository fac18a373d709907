"""The one place where errors become HTTP answers: ``{"code", "detail", ...}`` (API.md).

A service's refusal is answered as ``games.play.refusals`` says (rule refusals 422, version
conflicts and reused ids 409, ...), as the pages and the admin show it; missing things are 404,
malformed requests 400. Anything unexpected is logged and answered 500 in the same shape: a bug.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import ObjectDoesNotExist, RequestDataTooBig
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from games.api.http.query import QueryError
from games.play.refusals import refusal_of

log = logging.getLogger(__name__)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
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
