"""A tournament's results: a closed match's result and its players' confirmations, reported
by the match (registered reactions), and a director's corrections (withdrawal, bye, adjusted
result, forfeit, void, closing a round, a duplicate round's layouts, publication)."""

from __future__ import annotations

import secrets
import uuid
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from games.play import permissions
from games.rules.errors import IllegalEvent, StateConflict
from games.rules.events import RESULT_CONFIRMED
from games.rules.wording import player_at
from games.store import event_types, folding, journal, outbox, reactions
from games.store.canonical import canonical
from games.store.models import (
    Event,
    Game,
    Stream,
)
from games.tournaments import keepers, recording, rounds
from games.tournaments.core import events, fold, layouts
from games.tournaments.core import state as ts


def correction_record(
    *,
    tournament_id: uuid.UUID,
    event_id: uuid.UUID,
    type: str,
    data: Any,
    user: Any,
    expected_version: int | None = None,
    meta: dict[str, Any] | None = None,
) -> tuple[folding.Folded, bool]:
    """A director's correction (withdrawal, bye, adjusted result, forfeit, void, closing a
    round, a duplicate round's layouts); idempotent by ``event_id``. Answers (state, created).

    ``round.laid_out`` without ``layouts`` has the server deal them: a seed drawn here, the
    same five layouts for every player of the round, both recorded in the event.
    """
    permissions.check_director(user)
    if not isinstance(data, dict):
        raise IllegalEvent("event.bad_data", "The event's data must be a JSON object.")
    if type not in events.CORRECTIONS | {events.LAID_OUT}:
        raise IllegalEvent(
            "event.reserved_type" if type in events.SERVICE_ONLY else "event.unknown_type",
            f"A director records {', '.join(sorted(events.CORRECTIONS | {events.LAID_OUT}))} here; "
            f"not {type!r}.",
        )
    data = canonical(data)
    event_types.check_data(type, data)
    # Before a resent id is answered with its event: a body is checked whole, as a game's move.
    event_types.check_meta(canonical(meta or {}))
    with transaction.atomic():
        stream = recording.lock(tournament_id)
        replay = _replay_of(stream, event_id, type, data)
        if replay is not None:
            return replay, False
        if expected_version is not None and expected_version != stream.version:
            raise journal.VersionConflict(stream.version)
        folded = folding.load(stream)
        if type == events.LAID_OUT:
            data = _laid_out(folded.state, data)
        if type == events.ROUND_CLOSED:
            _check_closing(folded.state, data)
        after = recording.append(stream, type, data, user, folded, event_id=event_id, meta=meta)
        if type == events.ROUND_CLOSED:  # the round's table codes stop with it
            keepers.expire_closed(stream.pk, [data["round"]])
        if type in (events.PUBLISHED, events.UNPUBLISHED):
            _published_anew(tournament_id, after.version)
        return after, True


# The Celery task that renders again the stored nightly reports showing a tournament's play.
NIGHTLY_TASK = "scoring.renew_nightly_reports"


def _published_anew(tournament_id: uuid.UUID, version: int) -> None:
    """What is kept of the tournament's reads beside the database follows its new flag once it
    commits: the room's board tag is dropped, and the club's stored nightly reports of the days
    its play ended are rendered again (an outbox row: done by the task)."""
    transaction.on_commit(
        lambda: reactions.publish(reactions.PUBLICATION, tournament_id=tournament_id)
    )
    key = f"nightly:{tournament_id}:{version}"
    outbox.register(NIGHTLY_TASK, [str(tournament_id), key], key=key)


def _check_closing(state: ts.TournamentState, data: dict[str, Any]) -> None:
    """Closing a round over a result its players have not confirmed is a director's override:
    it says why, as pairing over it does (checked here: rounds closed before confirmations
    existed still fold)."""
    played = state.round(data.get("round"))
    if played.closed or played.missing or not played.unconfirmed:
        return  # the fold says what is wrong, if anything
    reason = data.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise rounds.unconfirmed(played, 'or close the round with {"reason": "..."}')


def _laid_out(state: ts.TournamentState, data: dict[str, Any]) -> dict[str, Any]:
    """A duplicate round's layouts as recorded: the director's, checked now (a bad one would
    otherwise be refused only when a game of the round starts on it), or dealt here."""
    fold.may_lay_out(state, data.get("round"))
    if "layouts" in data:
        layouts.check(data["layouts"])
        return data
    seed = secrets.randbelow(2**31)
    return {**data, "seed": seed, "layouts": layouts.deal(seed)}


# What the server adds to an event's data: a retry of the same request is no new event.
_SERVER_FIELDS = {events.LAID_OUT: ("seed", "layouts")}


def _replay_of(
    stream: Stream, event_id: uuid.UUID, type: str, data: dict[str, Any]
) -> folding.Folded | None:
    row = journal.find(event_id)
    if row is None:
        return None
    event = journal.read(row)
    stored = event.data
    if type == events.LAID_OUT and "seed" in stored and "layouts" not in data:
        stored = {k: v for k, v in stored.items() if k not in _SERVER_FIELDS[type]}
    if event.stream_id != stream.pk or event.type != type or stored != data:
        raise journal.EventIdReused(event_id)
    return folding.load(stream)


def result_from_match(*, stream: Stream, folded: folding.Folded, data: dict[str, Any]) -> None:
    """Record a closed match's result on its tournament (once: the id derives from the match).

    ``stream`` is the match's, ``data`` its closing event's (``reactions.MATCH_CLOSED``).
    Called inside the match's closing transaction, holding the match's lock; the tournament's
    lock comes second, as in every path that holds both.
    """
    place = folded.header.get("tournament")
    if not place:
        return
    rules = folded.match_rules
    rows = sorted(rules.standing(folded.state), key=lambda row: row["seat"])
    nets = _nets(data, len(rows))
    result = {
        "round": place["round"],
        "table": place["table"],
        "match": str(stream.pk),
        "ranks": [row["rank"] for row in rows],
        "scores": [row["total"] for row in rows],
        "net": nets,
    }
    if "rating" in data:
        result["rating"] = data["rating"]
    if _entered_by_director(stream.pk):
        result["confirmed"] = True
    tournament = recording.lock(uuid.UUID(place["id"]))
    event_id = uuid.uuid5(stream.pk, events.RESULT_RECORDED)
    if journal.find(event_id) is None:
        recording.append(tournament, events.RESULT_RECORDED, result, None, event_id=event_id)


def _entered_by_director(match_id: uuid.UUID) -> bool:
    """Did a director record the match's last scoring event (its sheet, or a game's last move)?
    A result a director enters is confirmed by its entry."""
    games = Game.objects.filter(match_id=match_id).values_list("stream_id", flat=True)
    streams = [match_id, *games]
    # A player's agreement is no entry of the result: the last scoring event's recorder is.
    recent = Event.objects.filter(stream_id__in=streams).exclude(type=RESULT_CONFIRMED)
    recent = recent.order_by("-position")
    for meta in recent.values_list("meta", flat=True)[:50]:
        recorder = (meta or {}).get("recorded_by")
        if recorder is not None:
            user = get_user_model().objects.filter(pk=recorder).first()
            return permissions.is_director(user)
    return False


def confirmation_from_match(
    *, stream: Stream, folded: folding.Folded, event: Any, data: dict[str, Any], user: Any
) -> None:
    """A match's ``result.confirmed`` counted by its tournament (``table.confirmed``), in the
    match's transaction: the match's lock first, the tournament's second, as everywhere."""
    place = folded.header["tournament"]
    tournament = recording.lock(uuid.UUID(place["id"]))
    folded = folding.load(tournament)
    played = folded.state.round(place["round"])
    table = played.table(place["table"])
    if played.closed:
        raise StateConflict(
            "round.closed", f"Round {played.number} is closed: its results are final."
        )
    if table.match != str(stream.pk):
        raise IllegalEvent(
            "match.abandoned",
            "This match was set aside when its round was paired again: confirm the new one.",
        )
    if table.result is None:
        # The match is played out; its close, which gives the tournament the result, follows.
        raise StateConflict(
            "result.not_finished",
            f"Table {table.number}'s result is on its way to the tournament: confirm again in a "
            "moment.",
        )
    seat = data.get("seat")
    if table.director_confirmed or (seat is not None and seat in table.confirmed_seats):
        who = "A director" if table.director_confirmed else player_at(seat)
        raise StateConflict(
            "result.already_confirmed",
            f"{who} has already confirmed table {table.number}'s result.",
        )
    confirmed = {"round": played.number, "table": table.number, **data}
    event_id = uuid.uuid5(event.id, events.CONFIRMED)
    recording.append(tournament, events.CONFIRMED, confirmed, user, folded, event_id=event_id)


def _nets(settlement: dict[str, Any], seats: int) -> list[int]:
    if isinstance(settlement.get("nets"), list):
        return [int(n) for n in settlement["nets"]]
    nets = [0] * seats
    for payment in settlement.get("payments", []):
        nets[payment["from"]] -= payment["points"]
        nets[payment["to"]] += payment["points"]
    return nets
