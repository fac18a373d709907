"""Answers kept for as long as the facts they were built from still hold.

The player's history, the match list, a match's history and a tournament's reads are read far
more often than they change (every client's refresh, every scoreboard's poll), and building a
page (its statement, its rows, its JSON) costs several times what reading one row costs. Each of
these reads first takes a cheap fingerprint of what its page is made of: the history its ETag
(the count, newest activity and versions of the rows the reader may see), the match list the
ids and versions of the page's rows, the others their ETags. Two requests with the same
fingerprint and the same URL get the same bytes: that is the promise the ETag already makes to a
client sending ``If-None-Match``. So the body rendered for one is kept, per process, and given
to the next, which then costs the fingerprint and no page.

The bodies are kept in a least-recently-used cache bounded in bytes (``ANSWER_CACHE_BYTES``,
cachetools): a bound in entries would let a few large pages take any amount of memory, or thrash
when a club's working set (its matches, its players) outgrows it. ``build`` says whether its
answer may be kept (not if it was built from rows newer than the fingerprint names). Only the
compact JSON rendering is kept (the browsable API renders anew), only 200 answers, and only
bodies under ``MAX_BODY``. A fingerprint that no longer holds is never asked for again (versions
only grow), so stale entries simply age out. Each fingerprint names the heads (chain hashes) of
the streams it depends on too: after a restore from a backup the same versions are reached again
by other events, and a fingerprint of versions alone would give the lost timeline's page.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from typing import Any

from cachetools import LRUCache
from django.conf import settings
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.http.renderers import JsonTextRenderer

MAX_BODY = 128 * 1024  # a page of 200 history rows is about 190 KB: built each time


class Rendered:
    """A body as ``JsonTextRenderer`` rendered it before: written out again as it is. A holder,
    not a ``bytes`` of its own: a kept body of a few hundred kilobytes (a season's standings)
    is then handed to the response without a copy."""

    __slots__ = ("body",)

    def __init__(self, body: bytes) -> None:
        self.body = body


_kept: LRUCache[str, bytes] = LRUCache(maxsize=max(settings.ANSWER_CACHE_BYTES, 1), getsizeof=len)
_lock = threading.Lock()  # gunicorn's threads share the process's cache


def cached(
    request: Request,
    fingerprint: Any,
    build: Callable[[], tuple[Response, bool]],
    max_body: int = MAX_BODY,
) -> Response:
    """``build()``'s answer, or the body rendered for the same fingerprint and URL before.
    ``max_body``: a read with one large body per resource (a season's standings) keeps it too."""
    if not isinstance(getattr(request, "accepted_renderer", None), JsonTextRenderer):
        return build()[0]
    key = _key(request, fingerprint)
    with _lock:
        body = _kept.get(key)
    if body is not None:
        return Response(Rendered(body))
    answer, keep = build()
    if keep and answer.status_code == 200:
        answer.add_post_render_callback(lambda rendered: _keep(key, rendered.content, max_body))
    return answer


def forget_all() -> None:
    """Drop every kept answer of this process (after the read models are rebuilt)."""
    with _lock:
        _kept.clear()


def _key(request: Request, fingerprint: Any) -> str:
    # The URL carries the query and the host the answer's links are written with.
    named = repr((fingerprint, request.build_absolute_uri(), request.accepted_media_type))
    return hashlib.sha256(named.encode()).hexdigest()


def _keep(key: str, body: bytes, max_body: int) -> None:
    if len(body) <= min(max_body, settings.ANSWER_CACHE_BYTES):
        with _lock:
            _kept[key] = bytes(body)
