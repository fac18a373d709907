"""API tokens, kept hashed: the database holds a token's SHA-256, never the key itself.

A key is 256 random bits, so one unsalted SHA-256 is enough (nothing to guess, nothing to
tabulate) and the lookup stays one indexed equality. A token expires (``expires``) and is revoked
by deleting its row: every process looks the token up on every request, so a revoked or expired
token is refused at once everywhere.

A token has a ``name`` its user chose and a ``scope``: ``write`` does whatever its user may, a
``read`` token only reads (games.api.http.authentication refuses its every other request).
Tokens from before scopes (and those ``manage.py issue_token`` issues) are ``write``.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone


def digest_of(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class ApiTokenManager(models.Manager["ApiToken"]):
    def issue(
        self,
        user: Any,
        lifetime: timedelta | None = None,
        *,
        name: str = "",
        scope: str = "write",
        expires: datetime | None = None,
    ) -> tuple[ApiToken, str]:
        """A new token for ``user``: the row and the key (shown once, never stored). It expires
        at ``expires``, else after ``lifetime``, else after API_TOKEN_LIFETIME_DAYS."""
        key = secrets.token_urlsafe(32)
        if expires is None:
            days = settings.API_TOKEN_LIFETIME_DAYS
            expires = timezone.now() + (lifetime if lifetime is not None else timedelta(days=days))
        token = self.create(
            user=user, digest=digest_of(key), expires=expires, name=name, scope=scope
        )
        return token, key

    def revoke(self, user: Any) -> int:
        """Revoke every token of ``user``; how many there were."""
        count, _ = self.filter(user=user).delete()
        return count


class ApiToken(models.Model):
    class Scope(models.TextChoices):
        READ = "read"
        WRITE = "write"

    digest = models.CharField(max_length=64, unique=True, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    created = models.DateTimeField(auto_now_add=True)
    expires = models.DateTimeField()
    name = models.CharField(max_length=100, blank=True, default="")
    scope = models.CharField(max_length=5, choices=Scope.choices, default=Scope.WRITE)

    objects = ApiTokenManager()

    class Meta:
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"token {self.pk} of {self.user}"

    @property
    def expired(self) -> bool:
        return self.expires <= timezone.now()

    @property
    def read_only(self) -> bool:
        return self.scope == self.Scope.READ
