"""A request body nobody read is read off before the answer goes, so its connection stays usable.

gunicorn drains at most 64 KiB of an unread body before it keeps a connection alive; past that it
closes the connection after the answer, which it has already sent as ``keep-alive``. A client, or
nginx reusing its upstream connection, then finds the next request unanswered (502 through the
front). A body is left unread whenever a request is refused before its view reads it: too large
(400 ``request.too_large``), not logged in (401), throttled (429). This middleware reads such a
body to its end, up to :data:`MOST_DRAINED` (nginx refuses larger bodies itself; beyond it the
connection is better closed than read).
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase

GUNICORN_DRAINS = 64 * 1024
MOST_DRAINED = 16 * 1024 * 1024
CHUNK = 256 * 1024


class DrainUnreadBody:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return response
        if GUNICORN_DRAINS < length <= MOST_DRAINED:
            # What a view has read is gone from the stream: this reads only the rest.
            while request.read(CHUNK):
                pass
        return response
