"""The player register: a stream of its own (category ``register``, one per database).

``player.registered`` records every new player, whether a director adds him or a seat names him
first; ``player.merged`` records that two records are one person (a director's, with a reason).
The ``Player`` rows follow these events; merging sets ``merged_into`` and edits nothing else.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db import connection, transaction

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
    if source is None:
        # The player merged away is the address's (``/players/{id}/merge/``): not there, 404.
        raise Player.DoesNotExist(f"There is no player {player}.")
    target = Player.objects.filter(pk=into).first() if isinstance(into, int) else None
    if target is None:
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


# --- a seat's player: found, or registered by his name --------------------------------------


def player_resolve(spec: Any, *, user: Any = None) -> Player:
    """A seat spec ``{"player": id}``, ``{"member_number": "..."}`` or ``{"name": "..."}``.

    A name matching no player creates one; a name shared by several is ``player.ambiguous``.
    A merged record resolves to the one it was merged into. A member number is ``user``'s to
    give only if he is a director or that member (``permission.member_number``).
    """
    if not isinstance(spec, dict):
        raise BadSetup("seat.bad_spec", "Each seat must be an object with a player or a name.")
    if spec.get("player") is not None:
        player_id = _int_or_none(spec["player"])
        player = None if player_id is None else Player.objects.filter(pk=player_id).first()
        if player is None:
            raise BadSetup("seat.unknown_player", f"There is no player {spec['player']!r}.")
        return _unmerged(player)
    if spec.get("member_number") is not None:
        number = str(spec["member_number"])
        permissions.check_may_seat_by_member_number(user, number)
        player = Player.objects.filter(member_number=number).first()
        if player is None:
            raise BadSetup("seat.unknown_member", f"There is no member number {number!r}.")
        return _unmerged(player)
    name = spec.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 100:
        raise BadSetup(
            "seat.bad_name", "A seat needs a player id or a name of 1 to 100 characters."
        )
    return player_named(name.strip())


def player_named(name: str) -> Player:
    """The one player called ``name``, a new one if there is none.

    Two racing seats of a new name must not make two players: the name's advisory lock orders
    them (PostgreSQL; SQLite writes one at a time anyway).
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [f"player:{name}"])
    found = list(Player.objects.filter(name=name, merged_into=None).order_by("pk")[:3])
    if len(found) > 1:
        raise BadSetup(
            "player.ambiguous",
            f"More than one player is called {name!r}: name the player by id or member "
            "number (GET /api/v1/players/?q=...).",
            # Ids only: a member number is the directors' and its player's (docs/API.md)
            candidates=[{"player": p.pk, "name": p.name} for p in found],
        )
    if found:
        return found[0]
    player = Player.objects.create(name=name)
    recorded(player, None)
    return player


def _unmerged(player: Player) -> Player:
    while player.merged_into_id is not None:
        player = Player.objects.get(pk=player.merged_into_id)
    return player


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
