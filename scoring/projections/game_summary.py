"""Game summary and bonus awards: status, whose turn, per-seat points and itemised bonuses."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator
from typing import Any

import orjson
from django.db import connection, transaction

from games.store.folding import Folded
from scoring.models import BonusAward, GameSummary
from scoring.replay import Replayed, map_final_states


def summary_fields(folded: Folded, status: str) -> dict[str, Any]:
    """The read model's columns for a game in state ``folded``."""
    result = folded.result
    return {
        "kind": folded.header["kind"],
        "match_id": folded.header.get("match"),
        "number": folded.header.get("number"),
        "status": status,
        "version": folded.version,
        "turn": folded.turn,
        "expected": folded.expected,
        "scores": folded.scores_json,
        "rating": result.rating if result else None,
    }


def same_scores(before: Folded, after: Folded) -> bool:
    """Whether a move left the scores as they were, judged only where the state it was folded
    onto has already made its scores (the fast path's head, whose own move wrote them)."""
    known = before.known_scores_json
    return known is not None and known == after.scores_json


def update_clause(
    fields: dict[str, Any], updated_at: Any, scores_kept: bool = False
) -> tuple[str, dict[str, Any]]:
    """The summary's UPDATE as a clause of the store's one-statement append (stream ``s``).

    ``scores_kept``: the row already holds these scores (the move changed none of them), so they
    are not written again: a long dice game's itemised scores are kilobytes, and most throws of
    a turn change no score. The clause runs only if the stream was still at the state the move
    was folded onto, whose scores the row holds."""
    sql = (
        "UPDATE scoring_gamesummary SET status = %(gs_status)s, version = %(gs_version)s, "
        "turn = %(gs_turn)s, expected = %(gs_expected)s::jsonb, "
        "scores = COALESCE(%(gs_scores)s::jsonb, scores), "
        "rating = %(gs_rating)s, updated_at = %(gs_updated_at)s "
        "WHERE game_id IN (SELECT id FROM s)"
    )
    params = {
        "gs_status": fields["status"],
        "gs_version": fields["version"],
        "gs_turn": fields["turn"],
        "gs_expected": json_text(fields["expected"]),
        "gs_scores": None if scores_kept else json_text(fields["scores"]),
        "gs_rating": fields["rating"],
        "gs_updated_at": updated_at,
    }
    return sql, params


def json_text(value: Any) -> str:
    """``value`` as JSON text for a jsonb parameter, by orjson (a long dice game's itemised scores
    are kilobytes, written with every move); by json where orjson cannot write it (an integer
    beyond 64 bits). jsonb keeps the value, not the text, so either is the same row."""
    try:
        return orjson.dumps(value).decode()
    except orjson.JSONEncodeError:
        return json.dumps(value)


def bonus_clause(fields: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The bonus rows of a game that has just ended, as a clause of the one-statement append."""
    rows = [
        {"seat": score["seat"], "kind": b["kind"], "points": b["points"], "pawns": b["pawns"]}
        for score in fields["scores"]
        for b in score["bonuses"]
    ]
    sql = (
        "INSERT INTO scoring_bonusaward (game_id, seat, kind, points, pawns) "
        "SELECT s.id, x.seat, x.kind, x.points, x.pawns FROM s, "
        "jsonb_to_recordset(%(ba_rows)s::jsonb) "
        "AS x(seat integer, kind text, points integer, pawns jsonb)"
    )
    return sql, {"ba_rows": json.dumps(rows)}


def bonus_rows(summary: GameSummary) -> list[BonusAward]:
    if summary.status == "in_progress":
        return []
    return [
        BonusAward(
            game=summary, seat=s["seat"], kind=b["kind"], points=b["points"], pawns=b["pawns"]
        )
        for s in summary.scores
        for b in s["bonuses"]
    ]


def handle(stream: Any, folded: Folded, event: Any, status_before: str | None) -> None:
    fields = summary_fields(folded, stream.status)
    if status_before is None:
        summary = GameSummary.objects.create(
            game_id=stream.pk, started_at=event.recorded_at, updated_at=event.recorded_at, **fields
        )
    else:
        GameSummary.objects.filter(pk=stream.pk).update(updated_at=event.recorded_at, **fields)
        summary = GameSummary(game_id=stream.pk, **fields)
    if status_before is not None and status_before != stream.status:
        # Bonus rows exist only while a game is over: a game that ends gains them, a game
        # taken back from its end loses them.
        if status_before != "in_progress":
            BonusAward.objects.filter(game_id=stream.pk).delete()
        BonusAward.objects.bulk_create(bonus_rows(summary))


# The rebuild's rows, in these column orders (JSON columns as text, ready for COPY).
SUMMARY_COLUMNS = (
    "game_id",
    "started_at",
    "updated_at",
    "kind",
    "match_id",
    "number",
    "status",
    "version",
    "turn",
    "expected",
    "scores",
    "rating",
)
BONUS_COLUMNS = ("game_id", "seat", "kind", "points", "pawns")
_JSON_COLUMNS = frozenset({"expected", "scores", "pawns"})


@transaction.atomic
def rebuild(progress: Callable[[int], None] | None = None, workers: int = 1) -> int:
    """Drop and rebuild every game summary and bonus award from the events; the games rebuilt.

    ``workers`` > 1 folds the games in that many processes (scoring.replay.map_final_states);
    this process writes every row.
    """
    _empty()
    rows = map_final_states("game", rebuild_rows, progress, workers)
    if workers > 1 and connection.vendor == "postgresql":
        return _copy_as_they_come(rows)
    count = 0
    while batch := list(itertools.islice(rows, 2000)):
        _write(batch)
        count += len(batch)
    return count


def rebuild_rows(replayed: Replayed) -> tuple[tuple[Any, ...], list[tuple[Any, ...]]]:
    """A game's summary row and bonus rows, as SUMMARY_COLUMNS and BONUS_COLUMNS.

    Runs in the replay's worker processes, so JSON is encoded there, not in the writing one.
    """
    status = _status(replayed.status, replayed.folded)
    fields = summary_fields(replayed.folded, status)
    game = replayed.stream_id
    values = {
        **fields,
        "game_id": game,
        "started_at": replayed.started_at,
        "updated_at": replayed.updated_at,
        "expected": json.dumps(fields["expected"]),
        "scores": json.dumps(fields["scores"]),
    }
    summary = tuple(values[column] for column in SUMMARY_COLUMNS)
    if status == "in_progress":  # as bonus_rows: bonus rows exist only once a game is over
        return summary, []
    bonuses = [
        (game, score["seat"], bonus["kind"], bonus["points"], json.dumps(bonus["pawns"]))
        for score in fields["scores"]
        for bonus in score["bonuses"]
    ]
    return summary, bonuses


def _status(stored: str | None, folded: Folded) -> str:
    # The stream row's status only adds what events cannot show (abandoned); else derive it.
    if stored == "abandoned":
        return stored
    return folded.engine.status(folded.state)


def _empty() -> None:
    if connection.vendor != "postgresql":
        BonusAward.objects.all().delete()
        GameSummary.objects.all().delete()
        return
    # TRUNCATE, not the ORM's delete, which loads every summary to cascade to its bonus rows.
    # It refuses a table with pending deferred constraint checks (rows written earlier in the
    # same transaction, as in tests): run those checks first, then defer again as Django does.
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute(f"TRUNCATE {BonusAward._meta.db_table}, {GameSummary._meta.db_table}")
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")


def _write(batch: list[tuple[tuple[Any, ...], list[tuple[Any, ...]]]]) -> None:
    summaries = [summary for summary, _ in batch]
    bonuses = [row for _, rows in batch for row in rows]
    if connection.vendor == "postgresql":
        _copy(GameSummary._meta.db_table, SUMMARY_COLUMNS, summaries)
        _copy(BonusAward._meta.db_table, BONUS_COLUMNS, bonuses)
    else:
        GameSummary.objects.bulk_create(
            GameSummary(**_model_fields(SUMMARY_COLUMNS, row)) for row in summaries
        )
        BonusAward.objects.bulk_create(
            BonusAward(**_model_fields(BONUS_COLUMNS, row)) for row in bonuses
        )


def _copy_as_they_come(rows: Iterator[tuple[tuple[Any, ...], list[tuple[Any, ...]]]]) -> int:
    # The workers read through their own connections, so this one can hold a single COPY open
    # for every summary: PostgreSQL stores them while the workers fold, instead of this process
    # waiting on a COPY per batch while the workers wait on it.
    bonuses = []
    count = 0
    with connection.cursor() as cursor:
        with cursor.copy(_copy_sql(GameSummary._meta.db_table, SUMMARY_COLUMNS)) as copy:
            for summary, awards in rows:
                copy.write_row(summary)
                bonuses.extend(awards)
                count += 1
    _copy(BonusAward._meta.db_table, BONUS_COLUMNS, bonuses)
    return count


def _copy_sql(table: str, columns: tuple[str, ...]) -> str:
    return f"COPY {table} ({', '.join(columns)}) FROM STDIN"


def _copy(table: str, columns: tuple[str, ...], rows: list[tuple[Any, ...]]) -> None:
    with connection.cursor() as cursor:
        with cursor.copy(_copy_sql(table, columns)) as copy:
            for row in rows:
                copy.write_row(row)


def _model_fields(columns: tuple[str, ...], row: tuple[Any, ...]) -> dict[str, Any]:
    return {
        column: json.loads(value) if column in _JSON_COLUMNS else value
        for column, value in zip(columns, row, strict=True)
    }
