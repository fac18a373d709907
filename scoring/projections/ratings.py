"""Ratings (scoring/ratings): results, ratings and their history, from the events.

Inline, an event that changes what a stream counts for (a game or match played out or taken
back, a tournament's table voided or set aside) records the stream's result anew under its
kind's lock, and the kind is rated again from there (``scoring.ratings.ledger``). The rebuild
finds every result from the events alone, sorts them by the events that decided them and rates
them in that order: the same rows, as ``verify_events --projections`` checks.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from typing import Any

from django.db import connection, transaction

from games.store import folding
from games.store.folding import Folded
from games.store.models import Event, Match, Stream
from games.tournaments.core import events
from games.tournaments.core import state as ts
from scoring.models import Rating, RatingPoint, RatingResult
from scoring.projections import match_standing
from scoring.ratings import ledger, outcomes
from scoring.ratings.outcomes import AFTER_THE_RESULT, RATED, Outcome
from scoring.replay import Replayed, final_states, map_final_states

# The games the rebuild folds: those of two seats or more played outside any match.
STANDALONE_GAMES = (
    "AND s.id IN (SELECT g.stream_id FROM games_game g WHERE g.match_id IS NULL"
    " AND EXISTS (SELECT 1 FROM games_gameseat x WHERE x.game_id = g.stream_id AND x.seat = 1))"
)
# A tournament's corrections that can void a table's match or bring it back.
_TABLE_EVENTS = frozenset({events.VOIDED, events.RESULT_ADJUSTED, events.FORFEIT})


def rated_game(folded: Folded) -> bool:
    """Whether the game's end is a rated result (the fast path leaves such moves to the locked
    path, which rates them in the appending transaction)."""
    return not folded.header.get("match") and len(folded.header["seats"]) >= 2


# --- inline -------------------------------------------------------------------------------------


def handle_game(stream: Any, folded: Folded, event: Any, status_before: str | None) -> None:
    """A game whose status changed: played out, or taken back from its end (a game started
    takes no lock: the starts of a kind's games do not wait on each other)."""
    if not rated_game(folded) or "finished" not in (status_before, stream.status):
        return
    kind = folded.header["kind"]
    ledger.lock(kind)
    outcome = outcomes.of_game(folded, stream.status)
    ledger.record(
        stream_id=stream.pk,
        kind=kind,
        outcome=outcome,
        position=event.position,
        at=event.recorded_at,
    )


def handle_match(stream: Any, folded: Folded, event: Any, status_before: str | None) -> None:
    """A match played out, taken back, or taken back in part while played out.

    Its closing event and the table's agreements decide nothing and take no lock, which keeps
    the match's close (its lock, then its tournament's) clear of the kind's lock."""
    if event.type in AFTER_THE_RESULT:
        return
    if status_before not in RATED and stream.status not in RATED:
        return
    kind = folded.header["format"]
    ledger.lock(kind)
    outcome = _kept(folded, outcomes.of_match(folded, stream.status), stream.pk)
    ledger.record(
        stream_id=stream.pk,
        kind=kind,
        outcome=outcome,
        position=event.position,
        at=event.recorded_at,
    )


def handle_tournament(stream: Any, folded: Folded, event: Any) -> None:
    """A table voided or its result replaced, or a round paired again: its matches anew."""
    if event.type in _TABLE_EVENTS:
        played = folded.state.round(event.data["round"])
        matches = [t.match for t in played.tables if t.number == event.data["table"] and t.match]
    elif event.type == events.REPAIRED:
        rows = Match.objects.filter(tournament_id=stream.pk, round_number=event.data["round"])
        matches = [str(pk) for pk in rows.order_by("pk").values_list("pk", flat=True)]
    else:
        return
    kind = folded.state.settings.format
    ledger.lock(kind)
    for match_id in matches:
        match = Stream.objects.get(pk=match_id)
        decided = deciding_events([match.pk]).get(match.pk)
        if decided is None:
            continue  # nothing recorded yet: no result
        played_out = folding.load(match)
        outcome = outcomes.of_match(played_out, match.status)
        ledger.record(
            stream_id=match.pk,
            kind=kind,
            outcome=_kept(played_out, outcome, match.pk, folded.state),
            position=decided[0],
            at=decided[1],
        )


def _kept(
    folded: Folded,
    outcome: Outcome | None,
    match_id: Any,
    tournament: ts.TournamentState | None = None,
) -> Outcome | None:
    """The outcome, if the match's tournament (read now, under the kind's lock, unless given)
    still has it at its table, unvoided; a match of no tournament keeps it."""
    place = folded.header.get("tournament")
    if outcome is None or not place:
        return outcome
    if tournament is None:
        tournament = folding.load(Stream.objects.get(pk=place["id"])).state
    keeps = outcomes.kept_by_tournament(tournament, str(match_id), place["round"], place["table"])
    return outcome if keeps else None


def deciding_events(matches: list[Any] | None = None) -> dict[Any, tuple[int, datetime]]:
    """The event that decided each match's result (its last but the closing event and the
    table's agreements): position and time, by match id (every match, without ``matches``)."""
    rows = Event.objects.filter(stream__category=Stream.Category.MATCH).exclude(
        type__in=AFTER_THE_RESULT
    )
    if matches is not None:
        rows = rows.filter(stream_id__in=matches)
    found: dict[Any, tuple[int, datetime]] = {}
    ordered = rows.order_by("stream_id", "position")
    for stream_id, position, at in ordered.values_list("stream_id", "position", "recorded_at"):
        found[stream_id] = (position, at)
    return found


# --- rebuild ------------------------------------------------------------------------------------


@transaction.atomic
def rebuild(progress: Callable[[int], None] | None = None, workers: int = 1) -> int:
    """Every result found again from the events and rated in order; the results found.

    ``workers`` > 1 folds the games outside matches in that many processes. ``progress`` is not
    told: the events were counted once already, by the summaries' rebuild."""
    _empty()
    results = found_results(workers)
    write(results, rate_every_kind(results))
    return len(results)


def write(results: list[RatingResult], rated: Iterable[tuple[str, ledger.Rated]]) -> None:
    """Insert the results, and each kind's points and ratings as ``rate_all`` worked them out
    (COPY on PostgreSQL), into emptied tables."""
    _write(RatingResult, RESULT_COLUMNS, [_result_row(r) for r in results])
    for kind, found in rated:
        _write(RatingPoint, POINT_COLUMNS, [_point_row(p) for p in found.points])
        rows = [ledger.rating_row(p, kind, *found.skills[p]) for p in sorted(found.skills)]
        _write(Rating, RATING_COLUMNS, [_rating_row(r) for r in rows])


def rate_every_kind(results: list[RatingResult]) -> Iterator[tuple[str, ledger.Rated]]:
    """Each kind's results rated in order, from nothing."""
    ordered = sorted(results, key=lambda r: (r.kind, r.position))
    for kind, group in itertools.groupby(ordered, key=lambda r: r.kind):
        yield kind, ledger.rate_all(kind, group, {})


def found_results(workers: int = 1) -> list[RatingResult]:
    """Every rated result the events give, in the order they are rated (unsaved rows)."""
    tournaments = {str(r.stream_id): r.folded.state for r in final_states("tournament")}
    decided = deciding_events()
    found = []
    for replayed in final_states("match"):
        status = match_standing.status_of(replayed.status, replayed.folded)
        outcome = outcomes.of_match(replayed.folded, status)
        place = replayed.folded.header.get("tournament")
        tournament = tournaments.get(place["id"]) if place else None
        if place and tournament is None:
            outcome = None
        outcome = _kept(replayed.folded, outcome, replayed.stream_id, tournament)
        if outcome is not None:
            found.append(_result(replayed.stream_id, outcome, *decided[replayed.stream_id]))
    games = map_final_states("game", game_result, workers=workers, only=STANDALONE_GAMES)
    found += [_result(*row) for row in games if row is not None]
    found.sort(key=lambda r: r.position)
    return found


def game_result(replayed: Replayed) -> tuple[Any, Outcome, int, datetime] | None:
    """A game's result as the rebuild finds it (run in the workers: it pickles)."""
    folded = replayed.folded
    if not rated_game(folded):
        return None
    status = "abandoned" if replayed.status == "abandoned" else folded.engine.status(folded.state)
    outcome = outcomes.of_game(folded, status)
    if outcome is None:
        return None
    return replayed.stream_id, outcome, replayed.last_position, replayed.updated_at


def _result(stream_id: Any, outcome: Outcome, position: int, at: datetime) -> RatingResult:
    return RatingResult(
        stream_id=stream_id,
        kind=outcome.kind,
        position=position,
        at=at,
        sides=[list(side) for side in outcome.sides],
        ranks=list(outcome.ranks),
    )


# --- writing ------------------------------------------------------------------------------------

RESULT_COLUMNS = ("stream_id", "kind", "position", "at", "sides", "ranks")
RATING_COLUMNS = ("player_id", "kind", *ledger.RATING_FIELDS)
POINT_COLUMNS = (
    "player_id",
    "kind",
    "result_id",
    "position",
    "at",
    "mu",
    "sigma",
    "rating",
    "deviation",
    "games",
)
_JSON_COLUMNS = frozenset({"sides", "ranks"})


def _result_row(row: RatingResult) -> tuple[Any, ...]:
    return tuple(_value(row, column) for column in RESULT_COLUMNS)


def _point_row(row: RatingPoint) -> tuple[Any, ...]:
    return tuple(_value(row, column) for column in POINT_COLUMNS)


def _rating_row(row: Rating) -> tuple[Any, ...]:
    return tuple(_value(row, column) for column in RATING_COLUMNS)


def _value(row: Any, column: str) -> Any:
    value = getattr(row, column)
    return json.dumps(value) if column in _JSON_COLUMNS else value


def _empty() -> None:
    tables = [m._meta.db_table for m in (RatingPoint, Rating, RatingResult)]
    if connection.vendor != "postgresql":
        for model in (RatingPoint, Rating, RatingResult):
            model.objects.all().delete()
        return
    with connection.cursor() as cursor:
        # As game_summary._empty: deferred checks first, else TRUNCATE refuses the tables.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute(f"TRUNCATE {', '.join(tables)}")
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")


def _write(model: Any, columns: tuple[str, ...], rows: Iterable[tuple[Any, ...]]) -> None:
    if connection.vendor != "postgresql":
        model.objects.bulk_create(
            model(
                **{
                    c: json.loads(v) if c in _JSON_COLUMNS else v
                    for c, v in zip(columns, row, strict=True)
                }
            )
            for row in rows
        )
        return
    sql = f"COPY {model._meta.db_table} ({', '.join(columns)}) FROM STDIN"
    with connection.cursor() as cursor:
        with cursor.copy(sql) as copy:
            for row in rows:
                copy.write_row(row)
