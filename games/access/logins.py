"""Failed logins, counted per account and per address, with django-axes (its database handler).

Every login form (the pages' ``/accounts/login/``, the admin's, the browsable API's
``/api-auth/login/``) authenticates through ``django.contrib.auth``, so axes's backend, first in
AUTHENTICATION_BACKENDS, sees every attempt and refuses a locked one before any password is
checked. API tokens never authenticate this way: a token request is neither counted nor refused.

- An account: LOGIN_FAILURES_PER_ACCOUNT wrong passwords lock its guessing, from every address.
  The other accounts of the same address (a club's phones share one) log in as before.
- An address: LOGIN_FAILURES_PER_ADDRESS wrong passwords over all its accounts lock it (one
  guesser trying one password on every account).
- A lock lapses LOGIN_LOCK_MINUTES after the failure that set it; attempts refused meanwhile
  neither count nor push it further, so its ``Retry-After`` holds.

The refusal is the form's own page, its message in the place of the wrong password's, with 429
and ``Retry-After``. Axes logs every failure and every lock (WARNING, naming the account, the
address and the path); each refused attempt is logged here.
"""

from __future__ import annotations

import ipaddress
import logging
import math
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_client_username
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db.models import Max, QuerySet, Sum
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils import timezone
from rest_framework.throttling import BaseThrottle

log = logging.getLogger(__name__)

LOCKED_ACCOUNT = "Too many wrong passwords for this account: it cannot log in for {minutes}."
LOCKED_ADDRESS = (
    "Too many wrong passwords from this address: no account can log in from here for {minutes}."
)


def client_address(request: HttpRequest) -> str | None:
    """The client's address, trusting as many fronts as the API's throttles do (DRF's
    NUM_PROXIES), so that behind nginx each client counts for itself, not the front's loopback."""
    found = BaseThrottle().get_ident(request)  # type: ignore[arg-type]  # it reads META alone
    try:
        return str(ipaddress.ip_address(str(found).strip()))
    except ValueError:  # nothing usable forwarded: the peer's address
        return request.META.get("REMOTE_ADDR") or None


class AccountAndAddress(AxesDatabaseHandler):  # type: ignore[misc]  # axes is untyped
    """Axes's database handler with a limit of its own for an address.

    Axes holds one count against one limit (the account's). The count here is the account's
    failures, or that limit itself once the address has reached its own, higher, limit.
    """

    def get_failures(self, request: Any, credentials: dict[str, Any] | None = None) -> int:
        account, address = self.attempts(request, credentials)
        if total(address) >= settings.LOGIN_FAILURES_PER_ADDRESS:
            return max(total(account), settings.LOGIN_FAILURES_PER_ACCOUNT)
        return total(account)

    def attempts(self, request: Any, credentials: dict[str, Any] | None) -> list[QuerySet[Any]]:
        """The failures of the span that counts: the account's, then the address's (in the
        order of AXES_LOCKOUT_PARAMETERS)."""
        return list(self.get_user_attempts(request, credentials))

    def lock(self, request: Any, credentials: dict[str, Any] | None) -> tuple[str, int]:
        """The sentence of the lock that refused this login, and the seconds until it lapses."""
        account, address = self.attempts(request, credentials)
        if total(account) >= settings.LOGIN_FAILURES_PER_ACCOUNT:
            return LOCKED_ACCOUNT, seconds_left(account)
        return LOCKED_ADDRESS, seconds_left(address)


def total(attempts: QuerySet[Any]) -> int:
    return int(attempts.aggregate(n=Sum("failures_since_start"))["n"] or 0)


def seconds_left(attempts: QuerySet[Any]) -> int:
    """Until the newest failure counted leaves the span (an upper bound: an older one leaving
    may free the login sooner)."""
    newest = attempts.aggregate(at=Max("attempt_time"))["at"] or timezone.now()
    left = newest + settings.AXES_COOLOFF_TIME - timezone.now()
    return max(1, math.ceil(left.total_seconds()))


def locked_out(
    request: HttpRequest, original_response: HttpResponse | None, credentials: Any
) -> HttpResponse:
    """The answer to a login a lock refused: the form's page again, 429, ``Retry-After``."""
    handler = AxesProxyHandler.get_implementation()
    sentence, seconds = handler.lock(request, credentials)
    message = sentence.format(minutes=in_minutes(seconds))
    log.warning(
        "login refused (locked) for account %r from %s at %s; %d s left",
        get_client_username(request, credentials),
        getattr(request, "axes_ip_address", None),
        request.path,
        seconds,
    )
    response = form_page(request, original_response, message)
    response["Retry-After"] = str(seconds)
    return response


def form_page(
    request: HttpRequest, original_response: HttpResponse | None, message: str
) -> HttpResponse:
    """The login form's own page (the pages', the admin's or the API's), the lock's message in
    the place of the wrong password's."""
    context = getattr(original_response, "context_data", None) or {}
    form = context.get("form")
    if form is None:  # an authentication that was no form's: the sentence alone
        return HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")
    form.errors.clear()
    form.add_error(None, ValidationError(message, code="locked_out"))
    page = TemplateResponse(
        request,
        original_response.template_name,  # type: ignore[union-attr]
        context,
        status=429,
        using=original_response.using,  # type: ignore[union-attr]
    )
    return page.render()


def in_minutes(seconds: int) -> str:
    minutes = math.ceil(seconds / 60)
    return "a minute" if minutes == 1 else f"{minutes} minutes"
