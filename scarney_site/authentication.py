"""Token authentication with the key lookup cached per process.

Looking the token up cost a quarter of a recorded move's time over HTTP. A revoked token or a
deactivated user is refused by every process within TOKEN_CACHE_SECONDS (and at once by the
process that revoked it).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Any

from django.conf import settings
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

MAX_KEYS = 10_000
_seen: OrderedDict[str, tuple[float, Any, Any]] = OrderedDict()


class CachedTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        now = time.monotonic()
        hit = _seen.get(key)
        if hit is not None and hit[0] > now:
            return hit[1], hit[2]
        user, token = super().authenticate_credentials(key)
        _seen[key] = (now + settings.TOKEN_CACHE_SECONDS, user, token)
        if len(_seen) > MAX_KEYS:
            _seen.popitem(last=False)
        return user, token


@receiver(post_delete, sender=Token)
def _forget_token(sender: Any, instance: Token, **kwargs: Any) -> None:
    _seen.pop(instance.key, None)


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def _forget_user(sender: Any, instance: Any, **kwargs: Any) -> None:
    for key in [k for k, (_, user, _) in _seen.items() if user.pk == instance.pk]:
        _seen.pop(key, None)
