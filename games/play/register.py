"""The player register: a stream of its own (category ``register``, one per database).

``player.registered`` records every new player, whether a director adds him or a seat names him
first; ``player.merged`` records that two records are one person (a director's, with a reason).
The ``Player`` rows follow these events; merging sets ``merged_into`` and edits nothing else.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db import transaction

from games.play import appending, permissions
from games.rules.errors import BadSetup
from games.rules.events import REGISTER_OPENED
from games.store import event_types, journal
from games.store.canonical import canonical
from games.store.models import Player, Stream

# A fixed id: one register per club database.
REGISTER_ID = uuid.uuid5(uuid.NAMESPACE_URL, "scarney:player-register")


@transaction.atomic
def player_register(
    *, name: Any, member_number: Any = None, user: Any, meta: dict[str, Any] | None = None
) -> Player:
    """A new player of the club (directors): a name, and a member number if he has one.

    ``meta`` is the client's (``client_time``, ``device``, ``note``, as a game event's),
    stored with the event.
    """
    permissions.check_director(user)
    if not isinstance(name, str) or not name.strip() or len(name) > 100:
        raise BadSetup("player.bad_name", "A player's name has 1 to 100 characters.", field="name")
    number = _member_number(member_number)
    player = Player.objects.create(name=name.strip(), member_number=number)
    recorded(player, user, meta)
    return player


def _member_number(value: Any) -> str | None:
    if value is None:
        return None
    number = str(value).strip() if isinstance(value, str | int) else ""
    if isinstance(value, bool) or not number or len(number) > 30:
        raise BadSetup(
            "player.bad_member_number",
            "A member number is a text of 1 to 30 characters.",
            field="member_number",
        )
    if Player.objects.filter(member_number=number).exists():
        raise BadSetup(
            "player.member_number_taken",
            f"Member number {number} is already another player's.",
            field="member_number",
        )
    return number


def recorded(player: Player, user: Any, meta: dict[str, Any] | None = None) -> None:
    """Record a new player's ``player.registered`` (the caller made the row, in his
    transaction)."""
    data = {"player": player.pk, "name": player.name, "member_number": player.member_number}
    _append("player.registered", data, user, meta)


@transaction.atomic
def player_merge(
    *, player: Any, into: Any, reason: Any, user: Any, meta: dict[str, Any] | None = None
) -> Player:
    """Record that ``player`` is the same person as ``into``: seats naming him resolve to
    ``into`` from then on; his past events stay as they were recorded. ``meta`` as for
    ``player_register``."""
    permissions.check_director(user)
    if not isinstance(reason, str) or not reason.strip():
        raise BadSetup("tournament.reason_required", "A merge says why: send a reason.")
    _lock()  # merges one at a time: two crossing merges must not make a loop
    source = Player.objects.filter(pk=player).first()
    target = Player.objects.filter(pk=into).first() if isinstance(into, int) else None
    if source is None or target is None:
        raise BadSetup("seat.unknown_player", "Both players must exist to be merged.")
    if source.pk == target.pk or source.merged_into_id or target.merged_into_id:
        raise BadSetup(
            "player.bad_merge",
            f"{source} cannot be merged into {target}: a player merges into another record "
            "that is itself not merged away.",
        )
    data = {"player": source.pk, "into": target.pk, "reason": reason.strip()}
    _append("player.merged", data, user, meta)
    source.merged_into = target
    source.save(update_fields=["merged_into"])
    return source


def _lock() -> Stream:
    Stream.objects.get_or_create(
        pk=REGISTER_ID, defaults={"category": Stream.Category.REGISTER, "kind": "register"}
    )
    return journal.lock_stream(REGISTER_ID)


def _append(type: str, data: dict[str, Any], user: Any, meta: dict[str, Any] | None) -> None:
    stored = appending.recorded_meta(user, event_types.check_meta(canonical(meta or {})))
    stream = _lock()
    if stream.version == 0:
        appending.append(stream, uuid.uuid4(), REGISTER_OPENED, {}, stored, None)
    appending.append(stream, uuid.uuid4(), type, data, stored, None)
