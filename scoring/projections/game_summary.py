"""Game summary and bonus awards: status, whose turn, per-seat points and itemised bonuses."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.db import transaction

from games.folding import Folded
from scoring.models import BonusAward, GameSummary
from scoring.replay import final_states


def summary_fields(folded: Folded, status: str) -> dict[str, Any]:
    """The read model's columns for a game in state ``folded``."""
    rules = folded.engine.rules
    result = rules.result(folded.state)
    return {
        "kind": folded.header["kind"],
        "match_id": folded.header.get("match"),
        "number": folded.header.get("number"),
        "status": status,
        "version": folded.version,
        "turn": rules.current_player(folded.state),
        "expected": rules.expected(folded.state),
        "scores": [s.as_dict() for s in rules.scores(folded.state)],
        "rating": result.rating if result else None,
    }


def update_clause(fields: dict[str, Any], updated_at: Any) -> tuple[str, dict[str, Any]]:
    """The summary's UPDATE as a clause of the store's one-statement append (stream ``s``)."""
    sql = (
        "UPDATE scoring_gamesummary SET status = %(gs_status)s, version = %(gs_version)s, "
        "turn = %(gs_turn)s, expected = %(gs_expected)s::jsonb, scores = %(gs_scores)s::jsonb, "
        "rating = %(gs_rating)s, updated_at = %(gs_updated_at)s "
        "WHERE game_id IN (SELECT id FROM s)"
    )
    params = {
        "gs_status": fields["status"],
        "gs_version": fields["version"],
        "gs_turn": fields["turn"],
        "gs_expected": json.dumps(fields["expected"]),
        "gs_scores": json.dumps(fields["scores"]),
        "gs_rating": fields["rating"],
        "gs_updated_at": updated_at,
    }
    return sql, params


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


@transaction.atomic
def rebuild(progress: Callable[[int], None] | None = None) -> int:
    """Drop and rebuild every game summary and bonus award from the events; the games rebuilt."""
    from games.models import Stream

    BonusAward.objects.all().delete()
    GameSummary.objects.all().delete()
    statuses = dict(Stream.objects.filter(category="game").values_list("pk", "status"))
    batch: list[GameSummary] = []
    count = 0
    for replayed in final_states("game", progress):
        status = _status(statuses.get(replayed.stream_id), replayed.folded)
        batch.append(
            GameSummary(
                game_id=replayed.stream_id,
                started_at=replayed.started_at,
                updated_at=replayed.updated_at,
                **summary_fields(replayed.folded, status),
            )
        )
        if len(batch) >= 2000:
            count += _flush(batch)
    return count + _flush(batch)


def _status(stored: str | None, folded: Folded) -> str:
    # The stream row's status only adds what events cannot show (abandoned); else derive it.
    if stored == "abandoned":
        return stored
    return "finished" if folded.engine.rules.is_terminal(folded.state) else "in_progress"


def _flush(batch: list[GameSummary]) -> int:
    GameSummary.objects.bulk_create(batch)
    BonusAward.objects.bulk_create([row for summary in batch for row in bonus_rows(summary)])
    done = len(batch)
    batch.clear()
    return done
