"""The pot ledger of a game with chips: every movement, with the event that caused it.

A rule engine with a pot (``HasPotLedger``) gives ``pot_ledger(state)``: the movements a state
holds, in order, from the ``pot_ledger_start(state)``-th on (a session keeps only its round's),
each a ``PotEntry`` as a dict (chips into the pot positive, out of it negative; ``seat`` is None
for a movement of no one seat). Movements only ever grow from one state to the next, so replaying
the stream and taking what each event added names the event behind every movement; a take-back
drops the movements of the move it takes back, exactly as it restores the state."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.rules.base import HasPotLedger, Move, step
from games.rules.errors import IllegalEvent
from games.rules.events import UNDO
from games.store import folding, journal
from games.store.models import Stream


def ledger(stream: Stream) -> dict[str, Any]:
    events = journal.stream_events(stream.pk)
    first = next(events)
    rules = folding.game_rules(first.data)
    if not isinstance(rules, HasPotLedger):
        raise IllegalEvent("pot.none", f"{stream.kind} is not played with a pot.")
    states = [folding.game_start(first.data)]
    movements: list[dict[str, Any]] = []
    lengths: list[int] = []  # how many movements each state in force had
    _extend(movements, rules, states[0], first)
    lengths.append(len(movements))
    for event in events:
        step(rules, states, Move(event.type, event.data))
        if event.type == UNDO:
            lengths.pop()
            del movements[lengths[-1] :]
        else:
            _extend(movements, rules, states[-1], event)
            lengths.append(len(movements))
    view = rules.view(states[-1]).get("pot") or {}
    return {
        "balance": view.get("balance", sum(m["chips"] for m in movements)),
        "nets": view.get("nets"),
        "movements": movements,
    }


def _extend(
    movements: list[dict[str, Any]], rules: HasPotLedger, state: Any, event: journal.StoredEvent
) -> None:
    """Add the entries ``event`` added to the ledger (those past the ones already listed)."""
    entries: Sequence[Mapping[str, Any]] = rules.pot_ledger(state)
    added = entries[max(0, len(movements) - rules.pot_ledger_start(state)) :]
    movements.extend(
        {**entry, "event": str(event.id), "version": event.version, "type": event.type}
        for entry in added
    )
