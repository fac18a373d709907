"""Conditional GET: an ETag on reads that change only when their streams do, and 304 when the
client's ``If-None-Match`` still holds it.

The tag is computed from cheap facts (a stream's id and version, a count and a max of read-model
rows) *before* the answer is built, so a table polling a game it already has costs one row read
and no fold.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, TypeVar

from django.http.response import HttpResponseBase
from django.utils.http import parse_etags, quote_etag
from rest_framework.request import Request
from rest_framework.response import Response

_Answer = TypeVar("_Answer", bound=HttpResponseBase)

# Revalidate every time (the state changes with each move), and keep answers that need a login
# out of shared caches.
CACHE_CONTROL = "private, no-cache"


def etag_of(*parts: Any) -> str:
    """A strong ETag naming ``parts`` (ids, versions, the query string ...)."""
    digest = hashlib.sha256(repr(parts).encode()).hexdigest()[:32]
    return quote_etag(digest)


def matches(request: Request, etag: str) -> bool:
    """Whether the client's ``If-None-Match`` names ``etag`` (or ``*``)."""
    header = request.headers.get("If-None-Match")
    if not header:
        return False
    # A weak comparison, as RFC 9110 asks for If-None-Match: W/"x" matches "x".
    tags = [tag.removeprefix("W/") for tag in parse_etags(header)]
    return "*" in tags or etag in tags


def conditional(request: Request, etag: str, build: Callable[[], _Answer]) -> _Answer | Response:
    """304 if the client has ``etag``; else ``build()``'s answer, tagged."""
    answer: _Answer | Response = Response(status=304) if matches(request, etag) else build()
    answer["ETag"] = etag
    answer["Cache-Control"] = CACHE_CONTROL
    return answer
