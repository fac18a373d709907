"""A game's or a match's recorders: its creator and the keepers he names, by username. Only the
creator or a director names or drops them; a keeper dropped who is not one is 404
(``keeper.not_found``), a user named who does not exist 422 (``keeper.unknown_user``)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from games.play import permissions
from games.rules.errors import BadSetup, NotThere
from games.store import journal
from games.store.models import Stream


def recorders(*, stream_id: uuid.UUID) -> dict[str, Any]:
    """The stream's creator and keepers, by username."""
    stream = Stream.objects.select_related("created_by").get(pk=stream_id)
    return _recorders_json(stream)


@transaction.atomic
def keepers_change(
    *,
    stream_id: uuid.UUID,
    add: Sequence[str] = (),
    remove: Sequence[str] = (),
    user: Any = None,
) -> dict[str, Any]:
    """Name (``add``) or drop (``remove``) score-keepers of a game or match, by username.

    Only the stream's creator or a director may; the keepers then record there as he does.
    """
    permissions.check_logged_in(user)
    stream = journal.lock_stream(stream_id)
    permissions.check_may_name_keepers(user, stream.created_by_id)
    named = _users_named(add)
    permissions.check_not_code_keepers(named)
    stream.keepers.add(*named)
    stream.keepers.remove(*_keepers_named(stream, remove))
    return _recorders_json(Stream.objects.select_related("created_by").get(pk=stream_id))


def _users_named(names: Sequence[str]) -> list[Any]:
    found = {u.get_username(): u for u in get_user_model().objects.filter(username__in=names)}
    for name in names:
        if name not in found:
            raise BadSetup("keeper.unknown_user", f"There is no user {name!r} to name as keeper.")
    return [found[name] for name in names]


def _keepers_named(stream: Stream, names: Sequence[str]) -> list[Any]:
    """The keepers to drop: each must be one (the address names him: 404 otherwise)."""
    found = {u.get_username(): u for u in stream.keepers.filter(username__in=names)}
    for name in names:
        if name not in found:
            raise NotThere("keeper.not_found", f"{name!r} is not a keeper here.")
    return [found[name] for name in names]


def _recorders_json(stream: Stream) -> dict[str, Any]:
    creator = stream.created_by.get_username() if stream.created_by else None
    names = sorted(stream.keepers.values_list("username", flat=True))
    return {"created_by": creator, "keepers": names}
