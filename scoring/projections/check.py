"""Every read model row against a re-fold of the events (``verify_events --projections``).

Read-only: the rows the rebuild would write are computed by the rebuild's own row functions
(``game_summary.rebuild_rows``, ``standing_fields``) and compared with the rows stored, a batch
of games at a time; nothing is written or locked. The player records expected are summed from
the expected game summaries and the seats of each game's first event, not from the stored
summaries, so an altered summary cannot hide an altered record. On PostgreSQL the whole
comparison reads one snapshot (REPEATABLE READ, READ ONLY), so appends going on meanwhile, which
change events and read models in one transaction, never show as differences.
"""

from __future__ import annotations

import json
import uuid
from collections import defaultdict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, transaction

from games.play.representation import standing_fields
from scoring.models import (
    BonusAward,
    GameSummary,
    MatchStanding,
    PlayerRecord,
    Rating,
    RatingPoint,
    RatingResult,
)
from scoring.projections import game_summary, match_standing, ratings
from scoring.projections.game_summary import BONUS_COLUMNS, SUMMARY_COLUMNS
from scoring.ratings import ledger
from scoring.replay import Replayed, final_states

_BATCH = 500
_RECORD_FIELDS = ("games_played", "games_finished", "best_total", "points_total", "last_played")
_STANDING_FIELDS = (
    "format",
    "status",
    "version",
    "games",
    "standing",
    "winner",
    "rating",
    "warnings",
    "updated_at",
)


def differences() -> list[str]:
    """Each read model row that differs from a re-fold, as a sentence naming row and field."""
    with _one_snapshot():
        records: dict[Any, _Record] = defaultdict(_Record)
        found = list(_games(records))
        found += _records(records)
        found += _matches()
        found += _ratings()
    return found


@contextmanager
def _one_snapshot() -> Iterator[None]:
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


# --- game summaries, bonus awards ---------------------------------------------------------------


@dataclass
class _Record:
    games_played: int = 0
    games_finished: int = 0
    best_total: int | None = None
    points_total: int = 0
    last_played: datetime | None = None


def _games(records: dict[Any, _Record]) -> Iterator[str]:
    seen: set[uuid.UUID] = set()
    batch: list[Replayed] = []
    for replayed in final_states("game"):
        batch.append(replayed)
        if len(batch) >= _BATCH:
            yield from _game_batch(batch, records, seen)
            batch = []
    yield from _game_batch(batch, records, seen)
    for game in GameSummary.objects.order_by("pk").values_list("pk", flat=True).iterator():
        if game not in seen:
            yield f"game summary {game}: no game stream with events gives it."


def _game_batch(
    batch: list[Replayed], records: dict[Any, _Record], seen: set[uuid.UUID]
) -> Iterator[str]:
    if not batch:
        return
    ids = [replayed.stream_id for replayed in batch]
    stored = {row.pk: row for row in GameSummary.objects.filter(pk__in=ids)}
    awards: dict[uuid.UUID, list[BonusAward]] = defaultdict(list)
    for award in BonusAward.objects.filter(game_id__in=ids).order_by("game", "seat", "id"):
        awards[award.game_id].append(award)
    for replayed in batch:
        game = replayed.stream_id
        seen.add(game)
        summary_row, bonus_rows = game_summary.rebuild_rows(replayed)
        expected = _decoded(SUMMARY_COLUMNS, summary_row)
        _add_to_records(records, replayed, expected)
        row = stored.get(game)
        if row is None:
            yield f"game summary {game}: missing (the events give a {expected['status']} game)."
        else:
            for column in SUMMARY_COLUMNS[1:]:
                yield from _compare(f"game summary {game}", column, getattr(row, column), expected)
        yield from _bonuses(game, [_decoded(BONUS_COLUMNS, b) for b in bonus_rows], awards[game])


def _bonuses(game: uuid.UUID, expected: list[dict[str, Any]], stored: list[BonusAward]) -> Any:
    by_seat: dict[int, tuple[list[dict[str, Any]], list[BonusAward]]] = defaultdict(
        lambda: ([], [])
    )
    for award in expected:
        by_seat[award["seat"]][0].append(award)
    for row in stored:
        by_seat[row.seat][1].append(row)
    for seat in sorted(by_seat):
        wanted, found = by_seat[seat]
        for number in range(max(len(wanted), len(found))):
            where = f"bonus award of game {game} seat {seat} #{number + 1}"
            if number >= len(found):
                award = wanted[number]
                yield f"{where}: missing (the events give {award['kind']} {award['points']})."
            elif number >= len(wanted):
                row = found[number]
                yield f"{where}: not given by the events ({row.kind} {row.points}, id {row.pk})."
            else:
                for column in ("kind", "points", "pawns"):
                    yield from _compare(
                        where, column, getattr(found[number], column), wanted[number]
                    )


def _add_to_records(
    records: dict[Any, _Record], replayed: Replayed, summary: dict[str, Any]
) -> None:
    # As player_records.records() and its rebuild: the scores are indexed by seat number.
    for number, seat in enumerate(replayed.folded.header["seats"]):
        record = records[seat["player"]]
        record.games_played += 1
        if record.last_played is None or replayed.started_at > record.last_played:
            record.last_played = replayed.started_at
        if summary["status"] == "finished":
            total = summary["scores"][number]["total"]
            record.games_finished += 1
            record.points_total += total
            record.best_total = (
                total if record.best_total is None else max(record.best_total, total)
            )


# --- player records -----------------------------------------------------------------------------


def _records(expected: dict[Any, _Record]) -> Iterator[str]:
    stored = {row.pk: row for row in PlayerRecord.objects.all()}
    for player in sorted(expected.keys() | stored.keys()):
        where = f"player record {player}"
        if player not in stored:
            games = expected[player].games_played
            yield f"{where}: missing (the events seat the player in {games} game(s))."
        elif player not in expected:
            yield f"{where}: not given by the events (no game seats the player)."
        else:
            wanted = vars(expected[player])
            for column in _RECORD_FIELDS:
                yield from _compare(where, column, getattr(stored[player], column), wanted)


# --- match standings ----------------------------------------------------------------------------


def _matches() -> Iterator[str]:
    stored = {row.pk: row for row in MatchStanding.objects.all()}
    seen = set()
    for replayed in final_states("match"):
        match = replayed.stream_id
        seen.add(match)
        status = match_standing.status_of(replayed.status, replayed.folded)
        expected = _json(
            {
                **standing_fields(replayed.folded, status),
                "updated_at": replayed.updated_at,
            }
        )
        row = stored.get(match)
        if row is None:
            yield f"match standing {match}: missing (the events give a {status} match)."
            continue
        for column in _STANDING_FIELDS:
            yield from _compare(f"match standing {match}", column, getattr(row, column), expected)
    for match in sorted(stored.keys() - seen):
        yield f"match standing {match}: no match stream with events gives it."


# --- ratings ------------------------------------------------------------------------------------

_RESULT_FIELDS = ("kind", "position", "at", "sides", "ranks")
_POINT_FIELDS = ("kind", "position", "at", "mu", "sigma", "rating", "deviation", "games")


def _ratings() -> Iterator[str]:
    """Results found again from the events (as the rebuild finds them) and rated in order."""
    results = ratings.found_results()
    yield from _compared(
        "rating result",
        {r.pk: r for r in results},
        {r.pk: r for r in RatingResult.objects.all()},
        _RESULT_FIELDS,
    )
    wanted_points: dict[Any, RatingPoint] = {}
    wanted_ratings: dict[Any, Rating] = {}
    for kind, rated in ratings.rate_every_kind(results):
        for point in rated.points:
            wanted_points[(point.player_id, str(point.result_id))] = point
        for player, found in rated.skills.items():
            wanted_ratings[(player, kind)] = ledger.rating_row(player, kind, *found)
    stored_points = {(p.player_id, str(p.result_id)): p for p in RatingPoint.objects.all()}
    yield from _compared("rating point", wanted_points, stored_points, _POINT_FIELDS)
    stored_ratings = {(r.player_id, r.kind): r for r in Rating.objects.all()}
    yield from _compared("rating", wanted_ratings, stored_ratings, ledger.RATING_FIELDS)


def _compared(
    what: str, wanted: dict[Any, Any], stored: dict[Any, Any], fields: Iterable[str]
) -> Iterator[str]:
    for key in sorted(wanted.keys() | stored.keys(), key=str):
        where = f"{what} {key}"
        if key not in stored:
            yield f"{where}: missing (the events give one)."
        elif key not in wanted:
            yield f"{where}: not given by the events."
        else:
            values = {field: getattr(wanted[key], field) for field in fields}
            for field in fields:
                yield from _compare(where, field, getattr(stored[key], field), values)


# --- comparing ----------------------------------------------------------------------------------


def _compare(where: str, column: str, stored: Any, expected: dict[str, Any]) -> Iterator[str]:
    wanted = expected[column]
    if _plain(stored) != _plain(wanted):
        yield f"{where}: {column} is {_short(stored)}, the events give {_short(wanted)}."


def _decoded(columns: Iterable[str], row: tuple[Any, ...]) -> dict[str, Any]:
    """A rebuild row (JSON columns as text) as values comparable with the stored ones."""
    values = dict(zip(columns, row, strict=True))
    for column in ("expected", "scores", "pawns"):
        if column in values:
            values[column] = json.loads(values[column])
    return values


def _json(values: dict[str, Any]) -> dict[str, Any]:
    # JSON columns come back as lists and dicts: tuples expected must compare as lists.
    return {
        key: value if isinstance(value, datetime) else json.loads(json.dumps(value))
        for key, value in values.items()
    }


def _plain(value: Any) -> Any:
    return str(value) if isinstance(value, uuid.UUID) else value


def _short(value: Any) -> str:
    text = json.dumps(value, default=str) if not isinstance(value, datetime) else value.isoformat()
    return text if len(text) <= 160 else text[:157] + "..."
