"""``Authorization: Token <key>``, checked against the hashed, expiring tokens of access.ApiToken.

Every request looks its token up: one query on the unique index of the key's digest, joined to the
user. No process keeps a copy, so a token revoked (its row deleted) or expired, or a user
deactivated, is refused at once by every process.

A read-only token (``scope`` read) is refused here for every request but a read, whatever the
view: 403 ``permission.read_only_token``.
"""

from __future__ import annotations

import functools
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request

from games.access.models import ApiToken, digest_of
from games.play import permissions
from games.store import journal

READ_ONLY_TOKEN = "permission.read_only_token"


class ReadOnlyToken(exceptions.PermissionDenied):
    """A read-only token sent with a write (403). Raised as DRF's own refusal, so that DRF sets
    the request's user to anonymous before answering it."""

    def __init__(self) -> None:
        super().__init__(
            "This token may only read (its scope is read): send a write token, or log in, to "
            "change anything.",
            READ_ONLY_TOKEN,
        )


class HashedTokenAuthentication(TokenAuthentication):
    keyword = "Token"

    def authenticate(self, request: Request) -> tuple[Any, ApiToken] | None:
        found: tuple[Any, ApiToken] | None = super().authenticate(request)
        # The scope is checked here, once, rather than by each view or service: every request
        # that carries a token passes this point before any view runs, so no view, present or
        # to come, can forget it (a default permission class is replaced by any view that names
        # its own, as most do). Nor could the services' permission checks tell it: they answer
        # reads as well as writes (check_director guards the feed and the webhook lists); the
        # method does. Pages and the admin never take a token. A read token's unsafe request
        # is refused whatever it would write: games, matches, tournaments, the register,
        # webhooks, and tokens themselves (it lists them, it makes or revokes none).
        if found is not None and found[1].read_only and request.method not in SAFE_METHODS:
            raise ReadOnlyToken()
        return found

    def authenticate_credentials(self, key: str) -> tuple[Any, ApiToken]:
        token = token_with_user(digest_of(key))
        if token is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        if token.expired:
            raise exceptions.AuthenticationFailed("The token has expired.")
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        return token.user, token


@functools.cache
def _lookup() -> tuple[str, list[str], list[str]]:
    """The token-and-user statement and the attribute names of its two halves' columns."""
    quote = connection.ops.quote_name
    token_fields = [f.attname for f in ApiToken._meta.concrete_fields]
    user_model = get_user_model()
    user_fields = [f.attname for f in user_model._meta.concrete_fields]
    columns = [f"t.{quote(f.column)}" for f in ApiToken._meta.concrete_fields]
    columns += [f"u.{quote(f.column)}" for f in user_model._meta.concrete_fields]
    # and whether the user holds games.direct, which every list and history asks next
    user_id = f"u.{quote(user_model._meta.pk.column)}"
    columns.append(permissions.DIRECT_SQL.format(user=user_id))
    sql = (
        f"SELECT {', '.join(columns)} FROM {quote(ApiToken._meta.db_table)} t "
        f"JOIN {quote(user_model._meta.db_table)} u ON {user_id} "
        f"= t.{quote(ApiToken._meta.get_field('user').column)} WHERE t.digest = %(digest)s"
    )
    return sql, token_fields, user_fields


def token_with_user(digest: str) -> ApiToken | None:
    """The token of ``digest`` with its user, in one written statement: the same query as
    ``select_related("user").get(digest=...)``, without compiling a queryset on every request
    (that was about a third of a web process's CPU under load, docs/BENCHMARKS.md), and with
    whether the user holds games.direct, so a member's list or history asks no second query.
    Prepared on the server: its plan (the permission's joins) is made once per connection."""
    if connection.vendor != "postgresql":
        # Other backends hand back raw values (SQLite: naive datetimes as text) that the ORM
        # converts; this written form is for PostgreSQL, whose driver returns them typed.
        return ApiToken.objects.select_related("user").filter(digest=digest).first()
    sql, token_fields, user_fields = _lookup()
    rows = journal.prepared_rows(sql, {"digest": digest, **permissions.direct_params()})
    if not rows:
        return None
    *values, holds_direct = rows[0]
    token = ApiToken.from_db(connection.alias, token_fields, values[: len(token_fields)])
    user = get_user_model().from_db(connection.alias, user_fields, values[len(token_fields) :])
    permissions.remember_direct(user, holds_direct)
    ApiToken.user.field.set_cached_value(token, user)
    return token
