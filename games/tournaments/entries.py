"""A tournament's field: players entered (by id, member number or name), late ones with a
reason."""

from __future__ import annotations

import uuid
from typing import Any

from django.db import transaction

from games.play import permissions, register
from games.rules.errors import BadSetup, IllegalEvent
from games.store import folding
from games.store.models import (
    Player,
)
from games.tournaments import recording
from games.tournaments.core import events
from games.tournaments.core import state as ts


@transaction.atomic
def entry_add(
    *,
    tournament_id: uuid.UUID,
    spec: Any,
    user: Any,
    reason: Any = None,
    meta: dict[str, Any] | None = None,
) -> ts.Entry:
    """Enter a player (by id, member number or name); late entries join from the next round.

    A late entry, once round 1 is paired, is a director's correction like the others and says
    why: ``reason`` (or the spec's ``"reason"``, as the API's body carries it), recorded in
    ``player.entered``.
    """
    permissions.check_director(user)
    if reason is None and isinstance(spec, dict):
        reason = spec.get("reason")
    stream = recording.lock(tournament_id)
    folded = folding.load(stream)
    late = bool(folded.state.rounds)
    if late or reason is not None:
        _check_entry_reason(reason, late)
    player = _entrant(spec, folded.state, user)
    data: dict[str, Any] = {"player": player.pk, "name": player.name}
    if isinstance(spec, dict) and spec.get("label") is not None:
        data["label"] = spec["label"].strip() if isinstance(spec["label"], str) else spec["label"]
    if reason is not None:
        data["reason"] = reason.strip()
    folded = recording.append(stream, events.ENTERED, data, user, folded, meta=meta)
    state: ts.TournamentState = folded.state
    return state.entry(player.pk)


def _entrant(spec: Any, state: ts.TournamentState, user: Any) -> Player:
    """The player an entry names. A name is asked about (``player.ambiguous``) when it could be
    more than one person: several registered players have it, or the one who has it is entered
    already (a second Pat tonight is not the first one entered twice). ``"new": true`` enters a
    new player of that name."""
    if not isinstance(spec, dict) or spec.get("name") is None or spec.get("player") is not None:
        return register.player_resolve(spec, user=user)
    if spec.get("member_number") is not None:
        return register.player_resolve(spec, user=user)
    name = spec["name"].strip() if isinstance(spec["name"], str) else spec["name"]
    if spec.get("new") is True:
        return register.player_register(name=name, user=user)
    player = register.player_resolve({"name": name}, user=user)
    if any(e.player == player.pk for e in state.entries):
        raise BadSetup(
            "player.ambiguous",
            f"{player.name} is already entered. To enter another player called {player.name}, "
            'send {"name": ..., "new": true} (and a "label" to tell them apart, e.g. "Pat K.").',
            candidates=[{"player": player.pk, "name": player.name}],
        )
    return player


def _check_entry_reason(reason: Any, late: bool) -> None:
    # Checked here, not in the fold: entries recorded late before a reason was asked still fold.
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 500:
        why = "The tournament has started: a late entry" if late else "An entry's reason"
        raise IllegalEvent(
            "tournament.reason_required",
            f'{why} says why in 1 to 500 characters: send {{"reason": "..."}}.',
            field="reason",
        )
