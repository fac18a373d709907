"""Write-side services: start a game or a match, close a match, record a client's event (naming
keepers: games.play.keepers). One transaction each.

Every event is appended by the one append (games.play.appending.append): a service's own with
the stream locked; a client's, once checked here, by its stream's id, where the fast path's one
statement writes a game's legal move (on PostgreSQL) and the locked path anything else.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from django.db import transaction

from games.play import appending, permissions
from games.play.refusals import labelled
from games.play.register import player_resolve
from games.rules import registry
from games.rules.base import make_ruleset, ruleset_as_dict
from games.rules.errors import BadSetup, IllegalEvent, RuleError
from games.rules.events import (
    GAME_STARTED,
    MATCH_RATED,
    MATCH_SETTLED,
    MATCH_STARTED,
    SERVICE_ONLY,
)
from games.store import event_types, folding, journal, outbox, reactions
from games.store.canonical import BadValue, canonical
from games.store.models import Game, GameSeat, Match, MatchSeat, Player, Stream


def _seats_header(
    players: list[Player], shown: Sequence[str | None] | None = None
) -> list[dict[str, Any]]:
    """The seats as a stream's header keeps them; ``shown``, where given, names a seat as its
    table shows him (a tournament's label: two players of one name told apart)."""
    names = [
        (shown[i] if shown and i < len(shown) else None) or p.name for i, p in enumerate(players)
    ]
    return [{"seat": i, "player": p.pk, "name": names[i]} for i, p in enumerate(players)]


# --- games -------------------------------------------------------------------------------------


@transaction.atomic
def game_start(
    *,
    kind: str,
    seats: list[Any] | None,
    ruleset: dict[str, Any] | None = None,
    setup: dict[str, Any] | None = None,
    match_id: uuid.UUID | None = None,
    user: Any = None,
) -> Game:
    """Create a game stream and record its ``game.started`` event."""
    _check_may_start(user, match_id)
    seats, ruleset, setup = canonical(seats), canonical(ruleset), canonical(setup)
    rules = registry.get(kind)
    match, number, roles = _match_slot(match_id, kind) if match_id else (None, None, {})
    if match is not None:
        appending.check_not_abandoned(match.stream)
    players = [player_resolve(spec, user=user) for spec in (seats or [])]
    # A match's games seat its players as the match names them, under its house rules (the
    # game's own overrides on top).
    shown, overrides = None, ruleset
    if match is not None:
        match_header = folding.load(match.stream).header
        players = _match_players(match, players)
        shown = [seat["name"] for seat in match_header["players"]]
        overrides = {**_match_ruleset(match.format, match_header), **(ruleset or {})}
    effective = make_ruleset(rules.ruleset_type, overrides)
    # The match decides the roles of its next game (active player, starter ...), not the client.
    setup = {**(setup or {}), **roles}
    header = {
        "kind": kind,
        "seats": _seats_header(players, shown),
        "ruleset": ruleset_as_dict(effective),
        "setup": setup,
        "match": str(match.pk) if match else None,
        "number": number,
    }
    with labelled(header):
        rules.initial_state(setup, effective, len(players))  # refuses a bad setup early
    layout = _duplicate_layout(match, number)  # refuses a duplicate round not laid out yet
    stream = Stream.objects.create(
        category=Stream.Category.GAME,
        kind=kind,
        created_by=appending.user_or_none(user),
        # A tournament's game is read as its tournament is (games.tournaments.reading).
        in_tournament_id=match.tournament_id if match is not None else None,
    )
    game = Game.objects.create(stream=stream, kind=kind, match=match, number=number)
    GameSeat.objects.bulk_create(
        [GameSeat(game=game, seat=i, player=p) for i, p in enumerate(players)]
    )
    appending.append(
        stream, uuid.uuid4(), GAME_STARTED, header, appending.recorded_meta(user, {}), None
    )
    if layout is not None:
        _lay_out_duplicate(stream, layout)
    return game


def _check_may_start(user: Any, match_id: uuid.UUID | None) -> None:
    """A game of one's own is started by any member but a table code's keeper; a match's next
    game by one of the match's recorders, asked before anything of the match is looked at (its
    format, entry, games): a refusal tells a stranger nothing of what the match is doing. A
    match that is not there is ``match.not_found`` for everyone, as it was."""
    permissions.check_logged_in(user)
    if match_id is None:
        permissions.check_not_table_keeper(user)
        return
    try:
        permissions.check_may_record(user, match_id, Stream.Category.MATCH)
    except Stream.DoesNotExist:
        raise BadSetup("match.not_found", f"There is no match {match_id}.") from None


def _duplicate_layout(match: Match | None, number: int | None) -> Any:
    """The layout a duplicate Solitaire round's game starts on, None for any other game; the
    tournaments answer it (``reactions.DUPLICATE_LAYOUT``), refusing with 409
    ``round.not_laid_out`` while the round has none, as its player would lay out another deal
    than the field's."""
    if match is None or match.tournament_id is None:
        return None
    return reactions.ask(reactions.DUPLICATE_LAYOUT, match=match, number=number)


def _lay_out_duplicate(stream: Stream, position: Any) -> None:
    """A duplicate Solitaire round's game starts on the round's layout: every player of the
    round plays the same deal, recorded once for the round (``round.laid_out``)."""
    data = canonical({"position": position})
    appending.append(
        stream,
        uuid.uuid5(stream.pk, "board.laid_out"),
        "board.laid_out",
        data,
        appending.recorded_meta(None, {}),
        None,
    )


def _match_players(match: Match, given: list[Player]) -> list[Player]:
    """A match's games seat the match's players in its order; seats given must say the same."""
    players = [s.player for s in match.seats.select_related("player")]
    if given and [p.pk for p in given] != [p.pk for p in players]:
        names = ", ".join(p.name for p in players)
        raise BadSetup(
            "match.seats_fixed",
            f"The games of this match seat its players in match order ({names}); "
            "leave seats out or list exactly them.",
        )
    return players


def _match_ruleset(format: str, header: dict[str, Any]) -> dict[str, Any]:
    game_rules = registry.get(format)
    names = {f for f in game_rules.ruleset_type.__dataclass_fields__}
    return {k: v for k, v in header.get("ruleset", {}).items() if k in names}


def _match_slot(match_id: uuid.UUID, kind: str) -> tuple[Match, int, dict[str, Any]]:
    """Lock the match and give the number and setup of its next game, or refuse."""
    try:
        stream = journal.lock_stream(match_id)
        match = stream.match
    except (Stream.DoesNotExist, Match.DoesNotExist):
        raise BadSetup("match.not_found", f"There is no match {match_id}.") from None
    if match.format != kind:
        raise BadSetup("match.wrong_kind", f"This match plays {match.format}, not {kind}.")
    if match.entry != "live":
        raise BadSetup("match.sheet_entry", "This match is entered as a score sheet.")
    if match.games.filter(stream__status=Stream.Status.IN_PROGRESS).exists():
        raise BadSetup("match.game_in_progress", "Finish the match's current game first.")
    folded = folding.load(stream)
    rules = folded.match_rules
    number = rules.next_game_number(folded.state)
    if number is None:
        raise BadSetup("match.over", "This match has all its games.")
    return match, number, rules.next_game_setup(folded.state)


# --- matches -----------------------------------------------------------------------------------


@transaction.atomic
def match_start(
    *,
    format: str,
    players: list[Any],
    teams: list[Any] | None = None,
    ruleset: dict[str, Any] | None = None,
    entry: str = "live",
    user: Any = None,
    tournament: dict[str, Any] | None = None,
    shown: Sequence[str | None] | None = None,
) -> Match:
    """Create a match stream and record its ``match.started`` event.

    ``tournament`` (``{"id", "round", "table"}``) places a tournament's match at its table;
    ``shown`` names its seats as the tournament does (their labels), else by their names.
    """
    permissions.check_logged_in(user)
    permissions.check_not_table_keeper(user)
    players, teams, ruleset = canonical(players), canonical(teams), canonical(ruleset)
    engine = folding.MatchEngine(format)
    if entry not in ("live", "sheet"):
        raise BadSetup("match.bad_entry", f"entry must be 'live' or 'sheet', not {entry!r}.")
    seated = [player_resolve(spec, user=user) for spec in players or []]
    effective = make_ruleset(engine.rules.ruleset_type, ruleset)
    header = {
        "format": format,
        "players": _seats_header(seated, shown),
        "teams": teams or [],
        "ruleset": ruleset_as_dict(effective),
        "entry": entry,
    }
    if tournament:
        header["tournament"] = tournament
    with labelled(header):
        engine.start(header)  # refuses a bad player count early
    stream = Stream.objects.create(
        category=Stream.Category.MATCH,
        kind=format,
        created_by=appending.user_or_none(user),
        in_tournament_id=tournament["id"] if tournament else None,
    )
    match = Match.objects.create(
        stream=stream,
        format=format,
        entry=entry,
        tournament_id=tournament["id"] if tournament else None,
        round_number=tournament["round"] if tournament else None,
        table_number=tournament["table"] if tournament else None,
    )
    MatchSeat.objects.bulk_create(
        [MatchSeat(match=match, seat=i, player=p) for i, p in enumerate(seated)]
    )
    appending.append(
        stream, uuid.uuid4(), MATCH_STARTED, header, appending.recorded_meta(user, {}), None
    )
    return match


def match_close(*, match_id: uuid.UUID) -> bool:
    """Record the event that closes a complete match (its settlement, or a Solitaire rating) once.

    False if there is nothing to record: the match is not complete, or it is already closed.
    The event id derives from the match, so two racing tasks cannot both record it.
    """
    with transaction.atomic():
        stream = journal.lock_stream(match_id)
        # The close task's outbox row is done with this transaction, whichever way it ends.
        outbox.mark_done(appending.close_key(match_id))
        folded = folding.load(stream)
        closing = folded.match_rules.closing_event(folded.state)
        if closing is None:
            return False
        type, data = closing
        after = appending.append(
            stream,
            uuid.uuid5(match_id, type),
            type,
            data,
            appending.recorded_meta(None, {}),
            folded,
        )
        if folded.header.get("tournament"):
            # The tournament records the table's result in this same transaction.
            reactions.publish(reactions.MATCH_CLOSED, stream=stream, folded=after.folded, data=data)
        return True


def match_close_sweep(*, limit: int = 500) -> int:
    """Register the close task of every complete match without its closing event; the number.

    The safety net under the outbox (run by beat, and by ``manage.py close_matches``): a match
    whose close was never registered or never recorded is closed all the same.
    """
    unclosed = (
        Stream.objects.filter(category=Stream.Category.MATCH, status=Stream.Status.FINISHED)
        .exclude(events__type__in=(MATCH_SETTLED, MATCH_RATED))
        .values_list("pk", flat=True)
    )
    registered = 0
    for match_id in list(unclosed[:limit]):
        with transaction.atomic():
            stream = journal.lock_stream(match_id)
            folded = folding.load(stream)
            if folded.match_rules.closing_event(folded.state) is not None:
                outbox.register(
                    appending.CLOSE_TASK, [str(match_id)], key=appending.close_key(match_id)
                )
                registered += 1
    return registered


# --- recording ---------------------------------------------------------------------------------


def event_record(
    *,
    stream_id: uuid.UUID,
    event_id: uuid.UUID,
    type: str,
    data: Any,
    expected_version: int | None = None,
    meta: dict[str, Any] | None = None,
    user: Any = None,
    category: str | None = None,
) -> appending.Recorded:
    """Record one client event on a game or match stream (idempotent by ``event_id``).

    ``category`` ("game" or "match"), when given, is the kind of stream the caller addressed;
    another kind is answered as not found.
    """
    permissions.check_logged_in(user)
    try:
        data, meta = _checked_event(type, data, meta, user)
    except (RuleError, BadValue):
        # A stranger learns no more than that he may not write here.
        permissions.check_may_record(user, stream_id, category)
        raise

    return appending.append(
        stream_id,
        event_id,
        type,
        data,
        meta,
        expected_version=expected_version,
        user=user,
        category=category,
    )


def _checked_event(
    type: str, data: Any, meta: dict[str, Any] | None, user: Any
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The event's data and meta as stored; RuleError or BadValue for a body that is not."""
    if not isinstance(data, dict):
        raise IllegalEvent("event.bad_data", "The event's data must be a JSON object.")
    # One form, hashed, stored, compared with a retry and returned (games.store.canonical), and only
    # the fields and sizes the event's type takes (games.store.event_types).
    data = canonical(data)
    if type not in SERVICE_ONLY:  # refused as event.reserved_type, whatever their data
        event_types.check_data(type, data)
    data = event_types.normalise(type, data)
    return data, appending.recorded_meta(user, event_types.check_meta(canonical(meta or {})))
