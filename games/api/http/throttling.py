"""Request rates: per token (or per user of a browser session), and per address for anonymous
requests. Over the rate: 429 ``request.throttled`` with ``Retry-After`` (seconds).

Each rate (``"N/s"``, ``"N/m"``, ``"N/h"``, ``"N/d"``; settings THROTTLE_TOKEN_RATE and
THROTTLE_ADDRESS_RATE, see README) is counted in fixed windows of its period, one counter per
token or address and window in the shared cache (games.store.shared_cache): Redis when REDIS_URL
is set (one count for every process; an atomic increment per request), a per-process memory
otherwise. DRF's own throttles keep a list of every request's time in the cache and rewrite it on
each request, which costs more the higher the rate. The rates are read from
``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` on each request, so tests can change them. While
Redis cannot be reached each process counts on its own (the log says so once).
"""

from __future__ import annotations

import time
from typing import Any

from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from games.store import shared_cache

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: object) -> tuple[int, int] | None:
    """``"120/m"`` → ``(120, 60)``; None or empty: no limit."""
    if not rate:
        return None
    number, period = str(rate).split("/")
    return int(number), PERIODS[period.strip()[0]]


class WindowThrottle(BaseThrottle):
    scope = ""

    def __init__(self) -> None:
        self.retry_after: float | None = None

    def ident(self, request: Request) -> str | None:
        """Whom the request is counted for; None: this throttle does not apply."""
        raise NotImplementedError

    def allow_request(self, request: Request, view: Any) -> bool:
        rate = parse_rate(api_settings.DEFAULT_THROTTLE_RATES.get(self.scope))
        who = self.ident(request) if rate else None
        if rate is None or who is None:
            return True
        allowed, period = rate
        now = time.time()
        window = int(now // period)
        key = f"throttle:{self.scope}:{who}:{period}:{window}"
        if shared_cache.count(key, period + 1) <= allowed:
            return True
        self.retry_after = (window + 1) * period - now
        return False

    def wait(self) -> float | None:
        return self.retry_after


class TokenRateThrottle(WindowThrottle):
    """Per API token (each device its own budget); per user for a browser session."""

    scope = "token"

    def ident(self, request: Request) -> str | None:
        if not request.user or not request.user.is_authenticated:
            return None
        token_id = getattr(request.auth, "pk", None)
        return f"t{token_id}" if token_id is not None else f"u{request.user.pk}"


class AddressRateThrottle(WindowThrottle):
    """Per client address, for anonymous requests (REST_FRAMEWORK NUM_PROXIES: fronts trusted)."""

    scope = "address"

    def ident(self, request: Request) -> str | None:
        if request.user and request.user.is_authenticated:
            return None
        return self.get_ident(request)
