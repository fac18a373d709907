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


def _tags(request: Request) -> list[str]:
    """The tags of the client's ``If-None-Match`` (or ``*``), compared weakly as RFC 9110 asks
    for it: W/"x" matches "x"."""
    header = request.headers.get("If-None-Match")
    return [tag.removeprefix("W/") for tag in parse_etags(header)] if header else []


def conditional(request: Request, etag: str, build: Callable[[], _Answer]) -> _Answer | Response:
    """304 if the client has ``etag``; else ``build()``'s answer, tagged.

    ``*`` holds any answer the read gives, but only an answer: the page is built first, so that
    a query value it refuses (``?limit=-1``, checked while building) is still a 400, never a 304
    (RFC 9110 13.2.2: a request that would fail ignores its preconditions). A tag names a query
    answered before, so it is answered 304 without building.
    """
    tags = _tags(request)
    answer: _Answer | Response
    if etag in tags and "*" not in tags:
        answer = Response(status=304)
    else:
        answer = build()  # a bad query value raises its 400 here, before any 304
        if "*" in tags and 200 <= answer.status_code < 300:
            answer = Response(status=304)
    answer["ETag"] = etag
    answer["Cache-Control"] = CACHE_CONTROL
    return answer
