"""The cache the web processes share (Redis when REDIS_URL is set), used so that losing it costs
no request.

What is kept there is never a fact: the API's rate counts (games/api/http/throttling.py), the
wrong table codes counted per address (games/pages/tournament_tables.py), the scoreboard's tags
and fragments (games/pages). A count kept apart per process for a while only loosens a limit (N
processes let N times the rate through), a fragment lost costs a render. So when the cache
cannot answer, ``count`` counts in this process instead, ``kept`` finds nothing and ``keep``
keeps nothing; the log says so once when the cache is lost (a warning, not one per request) and
once when it answers again. After a failure the cache is left alone for ``RETRY_AFTER`` seconds:
a host that does not answer at all costs a connect timeout, which every request would pay.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.core.cache import cache
from redis import RedisError

log = logging.getLogger(__name__)

RETRY_AFTER = 5.0  # seconds in which a cache that failed is not asked again
PROCESS_KEYS = 10_000  # past this many counts in a process, the ended ones are dropped
# What a cache that cannot be reached raises: redis-py's errors, or the socket's own.
UNREACHABLE = (RedisError, OSError)

_lock = threading.Lock()
_counts: dict[str, tuple[float, int]] = {}  # key -> (its window's end, count), in this process


class _Outage:
    """Whether the cache is lost, and when to ask it again (one per process)."""

    down = False
    retry_at = 0.0


_outage = _Outage()


def count(key: str, window: int) -> int:
    """One more in ``key``'s count, and its new value. The count starts at its first and lasts
    ``window`` seconds; each call is atomic (Redis's INCR, or this process's lock), so N callers
    at once get N different values."""
    if _may_ask():
        try:
            value = _count_in_cache(key, window)
        except UNREACHABLE as error:
            _lost(error)
        else:
            _answered()
            return value
    return _count_in_process(key, window, 1)


def uncount(key: str) -> None:
    """One less in ``key``'s count: a request counted before it was looked at turned out not to
    count. A count that ended meanwhile, or a cache lost meanwhile, is left as it is."""
    if _may_ask():
        try:
            cache.decr(key)
        except ValueError:  # its window ended
            pass
        except UNREACHABLE as error:
            _lost(error)
        else:
            _answered()
            return
    _count_in_process(key, 1, -1, start=False)


def kept(key: str) -> Any:
    """What ``keep`` kept under ``key``, or None (none kept, or no cache to ask)."""
    if not _may_ask():
        return None
    try:
        value = cache.get(key)
    except UNREACHABLE as error:
        _lost(error)
        return None
    _answered()
    return value


def keep(key: str, value: Any, seconds: float) -> None:
    """Keep ``value`` under ``key`` for ``seconds``, if the cache can be reached."""
    if not _may_ask():
        return
    try:
        cache.set(key, value, seconds)
    except UNREACHABLE as error:
        _lost(error)
    else:
        _answered()


def forget(key: str) -> None:
    """Drop what ``keep`` kept under ``key``, if the cache can be reached (a process's own
    fallback keeps nothing to drop)."""
    if not _may_ask():
        return
    try:
        cache.delete(key)
    except UNREACHABLE as error:
        _lost(error)
    else:
        _answered()


def forget_outage() -> None:
    """Ask the cache again at once, and forget every count kept in this process (the tests, after
    they have made the cache unreachable)."""
    with _lock:
        _outage.down, _outage.retry_at = False, 0.0
        _counts.clear()


def _count_in_cache(key: str, window: int) -> int:
    try:
        return int(cache.incr(key))  # the usual case: the window has begun
    except ValueError:  # its first count, or its window just ended
        if cache.add(key, 1, timeout=window):
            return 1
        return int(cache.incr(key))  # another request began it meanwhile


def _count_in_process(key: str, window: int, step: int, *, start: bool = True) -> int:
    now = time.monotonic()
    with _lock:
        ends, value = _counts.get(key, (0.0, 0))
        if ends <= now:
            if not start:
                return 0
            ends, value = now + window, 0
        _counts[key] = (ends, value + step)
        if len(_counts) > PROCESS_KEYS:
            for ended in [k for k, (end, _v) in _counts.items() if end <= now]:
                del _counts[ended]
        return value + step


def _may_ask() -> bool:
    return time.monotonic() >= _outage.retry_at


def _lost(error: BaseException) -> None:
    with _lock:
        first = not _outage.down
        _outage.down, _outage.retry_at = True, time.monotonic() + RETRY_AFTER
    if first:
        log.warning(
            "The shared cache cannot be reached (%s): counting in each process, keeping nothing, "
            "until it answers again.",
            error,
        )


def _answered() -> None:
    if not _outage.down:  # the usual case, read without the lock
        return
    with _lock:
        was_down, _outage.down = _outage.down, False
    if was_down:
        log.warning("The shared cache answers again: counts are shared again.")
