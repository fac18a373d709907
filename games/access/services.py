"""A user's own API tokens (API.md "Ratings, player exports, tokens"): make one, list them,
revoke one.

Anyone logged in (by session or token) keeps his own tokens and sees no one else's: another
user's token is not there for him (404), as one that never was. A table code's session is no
account: it makes, lists and revokes none (403 ``permission.not_your_table``), so a card's code
never becomes a key that outlives its round. Directors see every token in the
admin. A read-only token only lists here: the authentication refuses every write it sends
(games/api/http/authentication.py), these included.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from games.access.models import ApiToken
from games.play import permissions
from games.rules.errors import IllegalEvent, StateConflict

# Enough for every device and script a member runs; a runaway loop stops here, not at the disk.
MAX_LIVE = 50
# A token outlives no club season: one made for longer is refused, never quietly shortened.
MAX_LIFETIME = timedelta(days=366)
NAME_LENGTH = ApiToken._meta.get_field("name").max_length or 100


def token_create(
    *,
    user: Any,
    name: str,
    scope: str,
    expires: datetime | None = None,
    made_with: ApiToken | None = None,
) -> tuple[ApiToken, str]:
    """A new token of ``user``: the row and its key, which is shown this once and never kept.
    ``expires`` defaults to API_TOKEN_LIFETIME_DAYS from now (at most MAX_LIFETIME). A token
    made with a token (``made_with``) lives no longer than it: a token about to expire cannot
    renew itself for a year."""
    _check_account(user)
    name = _checked_name(name)
    if scope not in ApiToken.Scope.values:
        raise IllegalEvent("token.bad_scope", "A token's scope is read or write.")
    now = timezone.now()
    if expires is None:
        expires = now + min(timedelta(days=settings.API_TOKEN_LIFETIME_DAYS), MAX_LIFETIME)
    if not now < expires <= now + MAX_LIFETIME:
        raise IllegalEvent(
            "token.bad_expiry",
            f"A token expires in the future and within {MAX_LIFETIME.days} days from now.",
        )
    if made_with is not None and expires > made_with.expires:
        expires = made_with.expires  # the answer says when it expires
    with transaction.atomic():
        # The user's row locked: two requests at once cannot both take the last free place.
        list(get_user_model().objects.select_for_update().filter(pk=user.pk).values("pk"))
        mine = ApiToken.objects.filter(user=user)
        mine.filter(expires__lte=now).delete()  # refused anyway: clutter (as issue_token)
        live = mine.count()
        if live >= MAX_LIVE:
            raise StateConflict(
                "token.too_many",
                f"You have {live} tokens that still work, the most one may have: revoke one you "
                "no longer use first.",
                count=live,
            )
        return ApiToken.objects.issue(user, name=name, scope=scope, expires=expires)


def token_list(*, user: Any) -> QuerySet[ApiToken]:
    """The user's own tokens, newest first (expired ones too, until his next new token)."""
    _check_account(user)
    return ApiToken.objects.filter(user=user).order_by("-created", "-id")


def token_revoke(*, user: Any, token_id: int) -> None:
    """Delete one of the user's tokens: every process refuses it from the next request on.
    Another user's token, or none, raises ApiToken.DoesNotExist (404)."""
    _check_account(user)
    deleted, _by_model = ApiToken.objects.filter(pk=token_id, user=user).delete()
    if not deleted:
        raise ApiToken.DoesNotExist(f"You have no token {token_id}.")


def _check_account(user: Any) -> None:
    # A token is always someone's: the service itself (user None) has none to keep.
    if user is None or not user.is_authenticated:
        raise permissions.NotPermitted(
            "permission.login_required", "Log in or send a token to see and make your tokens."
        )
    permissions.check_not_table_keeper(user, "keep API tokens")


def _checked_name(name: Any) -> str:
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= NAME_LENGTH:
        raise IllegalEvent(
            "token.bad_name",
            f"A token's name says what it is for, in 1 to {NAME_LENGTH} characters.",
        )
    return name.strip()
