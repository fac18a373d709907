"""JSON answers for errors raised outside the API views (bad URLs, bad requests)."""

from typing import Any

from django.http import HttpRequest, JsonResponse


def not_found(request: HttpRequest, exception: Any = None) -> JsonResponse:
    return JsonResponse({"code": "not_found", "detail": "Not found."}, status=404)


def bad_request(request: HttpRequest, exception: Any = None) -> JsonResponse:
    return JsonResponse({"code": "request.malformed", "detail": "Bad request."}, status=400)


def server_error(request: HttpRequest) -> JsonResponse:
    return JsonResponse(
        {"code": "server.error", "detail": "Something went wrong on our side; it is logged."},
        status=500,
    )
