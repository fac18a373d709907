"""``Authorization: Token <key>``, checked against the hashed, expiring tokens of access.ApiToken.

Every request looks its token up: one query on the unique index of the key's digest, joined to the
user. No process keeps a copy, so a token revoked (its row deleted) or expired, or a user
deactivated, is refused at once by every process.
"""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from scarney_site.access.models import ApiToken, digest_of


class HashedTokenAuthentication(TokenAuthentication):
    keyword = "Token"

    def authenticate_credentials(self, key: str) -> tuple[Any, ApiToken]:
        try:
            token = ApiToken.objects.select_related("user").get(digest=digest_of(key))
        except ApiToken.DoesNotExist:
            raise exceptions.AuthenticationFailed("Invalid token.") from None
        if token.expired:
            raise exceptions.AuthenticationFailed("The token has expired.")
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        return token.user, token
