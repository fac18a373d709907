"""Write-side services of tournaments. One transaction each.

A tournament is a stream: every command locks it, folds the new event through
``games.tournaments.core.state`` (which refuses what does not fit) and appends it with the same
machinery as games and matches (``appending.append``). The pairing is computed here, once, and
recorded whole in ``round.paired`` with the matches it created; the tournament's rows (entries,
tables) are projections rewritten after each event. Directors write; keepers record only at
their tables; a match's settlement reports its result to its tournament by itself.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from games.play import appending, permissions, register, services
from games.play.tables import codes
from games.rules import registry
from games.rules.base import make_ruleset
from games.rules.errors import BadSetup, IllegalEvent, StateConflict
from games.rules.events import RESULT_CONFIRMED
from games.store import event_types, folding, journal, outbox, reactions
from games.store.canonical import canonical
from games.store.models import (
    Event,
    Game,
    Match,
    Player,
    Stream,
    Tournament,
    TournamentEntry,
    TournamentTable,
)
from games.tournaments.core import layouts, rounds, tiebreaks
from games.tournaments.core import state as ts

# --- tournaments ------------------------------------------------------------------------------


# Every service below takes the client's ``meta`` (``client_time``, ``device``, ``note``: the
# shape of a game event's meta, games.store.event_types.check_meta) and stores it with each event it
# records, beside who recorded it, so the admin shows a director's device as it does a keeper's.


@transaction.atomic
def tournament_create(
    *, spec: dict[str, Any], user: Any, meta: dict[str, Any] | None = None
) -> Tournament:
    """Create a tournament stream from the API's body (API.md) and record ``tournament.created``."""
    permissions.check_director(user)
    stored_meta = _meta(user, meta)
    header = _header(canonical(spec))
    stream = Stream.objects.create(
        category=Stream.Category.TOURNAMENT, kind=header["format"], created_by=_user(user)
    )
    tournament = Tournament.objects.create(
        stream=stream,
        name=header["name"],
        format=header["format"],
        system=header["system"],
        published=header["published"],
    )
    appending.append(stream, uuid.uuid4(), ts.CREATED, header, stored_meta, None)
    return tournament


_SPEC_FIELDS = {
    "name",
    "format",
    "system",
    "rounds",
    "table_size",
    "entry",
    "ruleset",
    "tiebreaks",
    "double",
    "seeding",
    "published",
}


def _header(spec: dict[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(spec) - _SPEC_FIELDS)
    if unknown:
        raise BadSetup(
            "tournament.unknown_field",
            f"A tournament takes {', '.join(sorted(_SPEC_FIELDS))}; not {', '.join(unknown)}.",
        )
    name = spec.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 200:
        raise BadSetup("tournament.bad_name", "A tournament needs a name of 1 to 200 characters.")
    format = spec.get("format")
    if format not in registry.formats():
        raise BadSetup(
            "tournament.bad_format",
            f"format must be a match format ({', '.join(registry.formats())}), not {format!r}.",
            field="format",
        )
    rules = registry.match_rules(format)
    system = spec.get("system", "swiss")
    header = {
        "name": name.strip(),
        "format": format,
        "system": system,
        "rounds": spec.get("rounds"),
        "table_size": spec.get("table_size", 1 if format == "scarney-solitaire" else 2),
        "entry": spec.get("entry", "sheet"),
        "ruleset": spec.get("ruleset") or {},
        "tiebreaks": spec.get("tiebreaks", list(tiebreaks.DEFAULT)),
        "double": spec.get("double", False),
        "seeding": spec.get("seeding", "entry"),
        "published": spec.get("published", True),
        # Results played at its tables wait for their players' confirmation (older
        # tournaments, without the flag, took them as entered).
        "confirm_results": True,
    }
    _check_choices(header)
    ts.settings_from(header)  # the system
    _check_header(header, rules.min_seats, rules.max_seats)
    # The matches' house rules, checked now rather than when the first round starts them.
    make_ruleset(rules.ruleset_type, header["ruleset"])
    return header


def _check_choices(header: dict[str, Any]) -> None:
    for flag in ("double", "published"):
        if not isinstance(header[flag], bool):
            raise BadSetup(
                "tournament.bad_flag", f"{flag} is true or false, not {header[flag]!r}.", field=flag
            )
    tiebreaks.check(header["tiebreaks"])


def _check_header(header: dict[str, Any], low: int, high: int) -> None:
    size, system, rounds_ = header["table_size"], header["system"], header["rounds"]
    if not isinstance(size, int) or isinstance(size, bool) or not low <= size <= high:
        raise BadSetup(
            "tournament.bad_table_size",
            f"{header['format']} seats {low} to {high} players at a table, not {size!r}.",
            field="table_size",
        )
    if system in ("swiss", "round_robin") and size != 2 and header["format"] != "scarney-solitaire":
        raise BadSetup(
            "tournament.bad_table_size",
            f"A {system} pairs two players at a table; use system 'tables' for {size}.",
            field="table_size",
        )
    if system != "round_robin" and (
        not isinstance(rounds_, int) or isinstance(rounds_, bool) or not 1 <= rounds_ <= 30
    ):
        raise BadSetup(
            "tournament.bad_rounds",
            "rounds is the number of rounds to play, 1 to 30.",
            field="rounds",
        )
    if header["entry"] not in ("live", "sheet"):
        raise BadSetup(
            "match.bad_entry", f"entry must be 'live' or 'sheet', not {header['entry']!r}."
        )
    if header["seeding"] not in ("entry", "random", "rating"):
        raise BadSetup(
            "tournament.bad_seeding",
            "seeding is 'entry' (entry order), 'random' or 'rating' (by the players' ratings).",
        )


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
    stream = _lock(tournament_id)
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
    state: ts.TournamentState = _append(stream, ts.ENTERED, data, user, folded, meta=meta).state
    return state.entry(player.pk)


def _entrant(spec: Any, state: ts.TournamentState, user: Any) -> Player:
    """The player an entry names. A name is asked about (``player.ambiguous``) when it could be
    more than one person: several registered players have it, or the one who has it is entered
    already (a second Pat tonight is not the first one entered twice). ``"new": true`` enters a
    new player of that name."""
    if not isinstance(spec, dict) or spec.get("name") is None or spec.get("player") is not None:
        return services.player_resolve(spec, user=user)
    if spec.get("member_number") is not None:
        return services.player_resolve(spec, user=user)
    name = spec["name"].strip() if isinstance(spec["name"], str) else spec["name"]
    if spec.get("new") is True:
        return register.player_register(name=name, user=user)
    player = services.player_resolve({"name": name}, user=user)
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


@transaction.atomic
def round_pair(
    *,
    tournament_id: uuid.UUID,
    user: Any,
    tables: Sequence[Sequence[int]] | None = None,
    seed: int | None = None,
    override: bool = False,
    reason: str | None = None,
    meta: dict[str, Any] | None = None,
) -> int:
    """Pair the next round (by the system, or ``tables`` by hand) and start its matches.

    The current round is closed first when all its results are in; while a table still plays
    the answer is 409 ``round.results_missing``, and while a result awaits its table's
    confirmation 409 ``round.results_unconfirmed`` unless the director ``override``s it with a
    ``reason`` (recorded in ``round.closed``). A random first round of ``tables`` without a
    ``seed`` draws one here and records it in ``round.paired``. Each table gets its keeper code.
    """
    permissions.check_director(user)
    stream = _lock(tournament_id)
    folded = folding.load(stream)
    current = folded.state.current
    if current is not None and not current.closed:
        closing = {"round": current.number, **_override(current, override, reason)}
        folded = _append(stream, ts.ROUND_CLOSED, closing, user, folded, meta=meta)
    data = _pairing(folded.state, tables, seed, _seeds(stream.pk, folded.state))
    _start_matches(stream, folded.header, folded.state, data)
    _append(stream, ts.PAIRED, data, user, folded, meta=meta)
    codes.issue_round(stream.pk, data["round"], data["tables"])
    return int(data["round"])


def _override(current: ts.Round, override: bool, reason: str | None) -> dict[str, Any]:
    """What closing the round records of a director's override (nothing without one)."""
    if current.missing:
        return {}  # the fold refuses it: round.results_missing says more than unconfirmed
    if not current.unconfirmed:
        return {}
    if not override:
        remedy = 'confirm it yourself, or pair anyway with {"override": true, "reason": "..."}'
        raise _unconfirmed(current, remedy)
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 500:
        raise IllegalEvent(
            "tournament.reason_required",
            "Pairing over an unconfirmed result says why in 1 to 500 characters: "
            'send {"override": true, "reason": "..."}.',
            field="reason",
        )
    return {"reason": reason.strip()}


def _unconfirmed(played: ts.Round, remedy: str) -> StateConflict:
    """409: the round's results are not all confirmed; ``remedy`` says what the director may do."""
    tables = ", ".join(str(n) for n in played.unconfirmed)
    return StateConflict(
        "round.results_unconfirmed",
        f"Round {played.number}'s result at table(s) {tables} is not confirmed by its players "
        f"yet: have them confirm it at the table, {remedy}.",
        unconfirmed=list(played.unconfirmed),
    )


@transaction.atomic
def round_repair(
    *,
    tournament_id: uuid.UUID,
    reason: str,
    user: Any,
    tables: Sequence[Sequence[int]] | None = None,
    meta: dict[str, Any] | None = None,
) -> int:
    """Pair the current round again (before any of its results): its matches are abandoned.

    The field is the one of now (``rounds.repair_current``): whoever withdrew since the round
    was paired is out of it, without a bye; a late entrant since then is in it.
    """
    permissions.check_director(user)
    stream = _lock(tournament_id)
    folded = folding.load(stream)
    state: ts.TournamentState = folded.state
    current = state.current
    if current is None:
        raise IllegalEvent("round.out_of_order", "No round is paired yet.")
    low, high = _seats(state)
    by_hand = None if tables is None else _hand_tables(tables)
    seeds = _seeds(stream.pk, state)
    data = rounds.repair_current(state, min_size=low, max_size=high, by_hand=by_hand, seeds=seeds)
    data["reason"] = reason
    if current.layouts and not data.get("layouts"):
        # A duplicate round paired again keeps its deal: written into the event, since the fold
        # of round.repaired takes the round as the event gives it (as it always has).
        data["layouts"] = list(current.layouts)
    _start_matches(stream, folded.header, state, data)
    _append(stream, ts.REPAIRED, data, user, folded, meta=meta)
    codes.issue_round(stream.pk, data["round"], data["tables"])
    old = [t.match for t in current.tables if t.match]
    # After the commit, outside the tournament's lock: a match's close takes its match's lock
    # and then the tournament's, so taking them the other way round here could deadlock. The
    # tournament already ignores a set-aside match's result (round.repaired names the new ones).
    transaction.on_commit(lambda: _set_aside(old))
    return int(data["round"])


def _set_aside(matches: list[str]) -> None:
    Stream.objects.filter(pk__in=matches).update(status=Stream.Status.ABANDONED)


def _pairing(
    state: ts.TournamentState,
    tables: Sequence[Sequence[int]] | None,
    seed: int | None,
    seeds: list[int],
) -> dict[str, Any]:
    settings = state.settings
    first = not state.rounds
    if seed is None and settings.system == "tables" and first and settings.seeding == "random":
        seed = secrets.randbelow(2**31)  # recorded in round.paired: the draw can be checked
    if tables is not None:
        tables = _hand_tables(tables)
    low, high = _seats(state)
    return rounds.pair_next(
        state, seed=seed, min_size=low, max_size=high, by_hand=tables, seeds=seeds
    )


def _seeds(tournament_id: uuid.UUID, state: ts.TournamentState) -> list[int]:
    """The initial order of a tournament seeded by rating, top seed first; [] for the others.

    For the first round the read side answers the entrants' ratings in the format's game
    (``reactions.RATINGS``): rated players by rating (entry order between equals), then the
    unrated in entry order. Round 1's ``round.paired`` records the order, and every later
    pairing reads it back from there, so neither they nor a replay ask the ratings again."""
    if state.settings.seeding != "rating":
        return []
    if state.rounds:
        first = journal.event_data(tournament_id, ts.PAIRED) or {}
        return [int(player) for player in first.get("seeds", ())]
    players = [entry.player for entry in state.entries]
    known = reactions.ask(reactions.RATINGS, kind=state.settings.format, players=players) or {}
    rated = sorted((p for p in players if p in known), key=lambda p: -known[p])
    return rated + [p for p in players if p not in known]


def _seats(state: ts.TournamentState) -> tuple[int, int]:
    """The fewest and most players the tournament's format seats at a table."""
    rules = registry.match_rules(state.settings.format)
    return rules.min_seats, rules.max_seats


def _hand_tables(tables: Any) -> list[list[int]]:
    if not isinstance(tables, list) or not all(
        isinstance(t, list) and t and all(isinstance(p, int) for p in t) for t in tables
    ):
        raise IllegalEvent(
            "round.bad_tables",
            "'tables' lists each table's player ids in seat order, e.g. [[12, 7], [3, 9]].",
            field="tables",
        )
    return [list(t) for t in tables]


def _start_matches(
    stream: Stream, header: dict[str, Any], state: ts.TournamentState, data: dict[str, Any]
) -> None:
    """One match per table, created by the tournament's creator, its seats in pairing order."""
    settings = state.settings
    creator = stream.created_by
    labels = state.labels()  # the table shows its players as the tournament does
    for table in data["tables"]:
        match = services.match_start(
            format=settings.format,
            players=[{"player": p} for p in table["players"]],
            shown=[labels.get(p) for p in table["players"]],
            ruleset=header.get("ruleset") or {},
            entry=settings.entry,
            user=creator,
            tournament={
                "id": str(stream.pk),
                "round": data["round"],
                "table": table["table"],
            },
        )
        table["match"] = str(match.pk)


@transaction.atomic
def keeper_assign(
    *,
    tournament_id: uuid.UUID,
    round: Any,
    table: Any,
    username: Any,
    user: Any,
    meta: dict[str, Any] | None = None,
) -> ts.Table:
    """``username`` keeps score at that table this round: he may record in its match only."""
    permissions.check_director(user)
    keeper = get_user_model().objects.filter(username=username).first()
    if keeper is None:
        raise BadSetup("keeper.unknown_user", f"There is no user {username!r} to name as keeper.")
    codes.check_not_code_keepers([keeper])
    stream = _lock(tournament_id)
    data = {"round": round, "table": table, "user": username}
    folded = _append(stream, ts.KEEPER_ASSIGNED, data, user, meta=meta)
    state: ts.TournamentState = folded.state
    seated = state.round(round).table(table)
    if seated.match:
        Stream.objects.get(pk=seated.match).keepers.add(keeper)
    return seated


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
    if type not in ts.CORRECTIONS | {ts.LAID_OUT}:
        raise IllegalEvent(
            "event.reserved_type" if type in ts.SERVICE_ONLY else "event.unknown_type",
            f"A director records {', '.join(sorted(ts.CORRECTIONS | {ts.LAID_OUT}))} here; "
            f"not {type!r}.",
        )
    data = canonical(data)
    event_types.check_data(type, data)
    with transaction.atomic():
        stream = _lock(tournament_id)
        replay = _replay_of(stream, event_id, type, data)
        if replay is not None:
            return replay, False
        if expected_version is not None and expected_version != stream.version:
            raise journal.VersionConflict(stream.version)
        folded = folding.load(stream)
        if type == ts.LAID_OUT:
            data = _laid_out(folded.state, data)
        if type == ts.ROUND_CLOSED:
            _check_closing(folded.state, data)
        after = _append(stream, type, data, user, folded, event_id=event_id, meta=meta)
        if type in (ts.PUBLISHED, ts.UNPUBLISHED):
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
        raise _unconfirmed(played, 'or close the round with {"reason": "..."}')


def _laid_out(state: ts.TournamentState, data: dict[str, Any]) -> dict[str, Any]:
    """A duplicate round's layouts as recorded: the director's, checked now (a bad one would
    otherwise be refused only when a game of the round starts on it), or dealt here."""
    ts.may_lay_out(state, data.get("round"))
    if "layouts" in data:
        layouts.check(data["layouts"])
        return data
    seed = secrets.randbelow(2**31)
    return {**data, "seed": seed, "layouts": layouts.deal(seed)}


# What the server adds to an event's data: a retry of the same request is no new event.
_SERVER_FIELDS = {ts.LAID_OUT: ("seed", "layouts")}


def _replay_of(
    stream: Stream, event_id: uuid.UUID, type: str, data: dict[str, Any]
) -> folding.Folded | None:
    row = journal.find(event_id)
    if row is None:
        return None
    event = journal.read(row)
    stored = event.data
    if type == ts.LAID_OUT and "seed" in stored and "layouts" not in data:
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
    tournament = _lock(uuid.UUID(place["id"]))
    event_id = uuid.uuid5(stream.pk, ts.RESULT_RECORDED)
    if journal.find(event_id) is None:
        _append(tournament, ts.RESULT_RECORDED, result, None, event_id=event_id)


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
    tournament = _lock(uuid.UUID(place["id"]))
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
        who = "A director" if table.director_confirmed else f"Seat {seat}"
        raise StateConflict(
            "result.already_confirmed",
            f"{who} has already confirmed table {table.number}'s result.",
        )
    confirmed = {"round": played.number, "table": table.number, **data}
    event_id = uuid.uuid5(event.id, ts.CONFIRMED)
    _append(tournament, ts.CONFIRMED, confirmed, user, folded, event_id=event_id)


def duplicate_layout(match: Match, number: int | None) -> Any:
    """The position game ``number`` of a duplicate round's match starts from; None outside a
    duplicate round. Before the round's layouts are recorded it is 409 ``round.not_laid_out``:
    a game laid out by its player would be another deal than the field's."""
    if number is None or match.round_number is None or match.tournament_id is None:
        return None
    folded = folding.load(Stream.objects.get(pk=match.tournament_id))
    if not folded.state.settings.duplicate:
        return None
    played = folded.state.round(match.round_number)
    if number > len(played.layouts):
        raise StateConflict(
            "round.not_laid_out",
            f"Round {played.number} of this duplicate Solitaire tournament has no layout for "
            f"game {number} yet: every player of the round plays the same deal, so the director "
            "records it first (round.laid_out, with the layouts or without them to have them "
            "dealt).",
            round=played.number,
        )
    return played.layouts[number - 1]


def _nets(settlement: dict[str, Any], seats: int) -> list[int]:
    if isinstance(settlement.get("nets"), list):
        return [int(n) for n in settlement["nets"]]
    nets = [0] * seats
    for payment in settlement.get("payments", []):
        nets[payment["from"]] -= payment["points"]
        nets[payment["to"]] += payment["points"]
    return nets


# --- the stream and its rows ------------------------------------------------------------------


def _lock(tournament_id: uuid.UUID) -> Stream:
    stream = journal.lock_stream(tournament_id)
    if stream.category != Stream.Category.TOURNAMENT:
        raise Stream.DoesNotExist(f"There is no tournament {tournament_id}.")
    return stream


def _append(
    stream: Stream,
    type: str,
    data: dict[str, Any],
    user: Any,
    folded: folding.Folded | None = None,
    *,
    event_id: uuid.UUID | None = None,
    meta: dict[str, Any] | None = None,
) -> folding.Folded:
    # appending.append folds (refusing what does not fit) before it writes anything.
    recorded = appending.append(
        stream, event_id or uuid.uuid4(), type, data, _meta(user, meta), folded
    )
    _project(stream, recorded.folded.state)
    if type == ts.ROUND_CLOSED:  # the round's table codes stop with it
        codes.expire_closed(stream.pk, [data["round"]])
    return recorded.folded


def _meta(user: Any, meta: dict[str, Any] | None) -> dict[str, Any]:
    """The meta stored with a director's event: the client's (checked as a game event's is,
    ``meta.*`` refusals) and who recorded it."""
    return appending.recorded_meta(user, event_types.check_meta(canonical(meta or {})))


def _project(stream: Stream, state: ts.TournamentState) -> None:
    """Rewrite the tournament's rows from its state (they are few: entries and tables)."""
    current = state.current
    # ``published`` is read by every read of the tournament's play (games.play.tables.reading):
    # rewritten here, in the event's transaction, it takes effect with its commit.
    Tournament.objects.filter(pk=stream.pk).update(
        status=state.status,
        current_round=current.number if current else 0,
        published=state.published,
    )
    names = state.labels()
    for entry in state.entries:
        TournamentEntry.objects.update_or_create(
            tournament_id=stream.pk,
            player_id=entry.player,
            defaults={
                "status": "withdrawn" if entry.withdrawn_after is not None else "active",
                "joined_round": entry.joined,
            },
        )
    for played in state.rounds:
        for table in played.tables:
            _project_table(stream, played, table, names)


def _project_table(
    stream: Stream, played: ts.Round, table: ts.Table, names: dict[int, str]
) -> None:
    result = ""
    if table.result is not None:
        points = " - ".join(f"{p:g}" for p in table.result.points)
        result = f"{table.result.how}: {points}"
    TournamentTable.objects.update_or_create(
        tournament_id=stream.pk,
        round_number=played.number,
        number=table.number,
        defaults={
            "match_id": table.match,
            "players": [names.get(p, str(p)) for p in table.players],
            "keepers": list(table.keepers),
            "result": result,
        },
    )


def _user(user: Any) -> Any:
    return user if getattr(user, "is_authenticated", False) else None
