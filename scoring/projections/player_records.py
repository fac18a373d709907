"""Player records: games played and finished, best total, points, last played.

Inline, a game's start and finish adjust the record with atomic increments (O(1) whatever the
player's history); a finished game taken back, and the rebuild, recompute the record from the
game summaries. The rebuild test holds the two ways equal.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.db import connection, transaction
from django.db.models import F, Value
from django.db.models.functions import Coalesce, Greatest

from games.store.models import GameSeat, Player
from scoring.models import GameSummary, PlayerRecord


def handle(folded: Any, event: Any, status_before: str | None, status: str) -> None:
    """Adjust the records of the game's players for a change of the game's status."""
    seats = folded.header["seats"]
    if status_before is None:
        for seat in seats:
            _started(seat["player"], event.recorded_at)
        if status == "finished":  # over at its start (a study position with no jump left)
            _finish_all(folded)
    elif status == "finished" and status_before == "in_progress":
        _finish_all(folded)
    else:
        recompute([seat["player"] for seat in seats])


def _finish_all(folded: Any) -> None:
    seats = folded.header["seats"]
    for score in folded.game_rules.scores(folded.state):
        _finished(seats[score.seat]["player"], score.total)


def _started(player_id: int, started_at: Any) -> None:
    PlayerRecord.objects.get_or_create(player_id=player_id)
    PlayerRecord.objects.filter(pk=player_id).update(
        games_played=F("games_played") + 1,
        last_played=Greatest(Coalesce(F("last_played"), Value(started_at)), Value(started_at)),
    )


def _finished(player_id: int, total: int) -> None:
    PlayerRecord.objects.filter(pk=player_id).update(
        games_finished=F("games_finished") + 1,
        points_total=F("points_total") + total,
        best_total=Greatest(Coalesce(F("best_total"), Value(total)), Value(total)),
    )


def finish_clause(folded: Any) -> tuple[str, dict[str, Any]]:
    """``_finished`` for every seat, as a clause of the store's one-statement append."""
    seats = folded.header["seats"]
    rows = [
        {"player": seats[score.seat]["player"], "total": score.total}
        for score in folded.game_rules.scores(folded.state)
    ]
    sql = (
        "UPDATE scoring_playerrecord AS r SET games_finished = r.games_finished + 1, "
        "points_total = r.points_total + x.total, "
        "best_total = GREATEST(COALESCE(r.best_total, x.total), x.total) "
        "FROM jsonb_to_recordset(%(pr_rows)s::jsonb) AS x(player integer, total integer) "
        "WHERE r.player_id = x.player AND EXISTS (SELECT 1 FROM s)"
    )
    return sql, {"pr_rows": json.dumps(rows)}


def recompute(player_ids: list[int]) -> None:
    ids = sorted(set(player_ids))
    # Lock the players (in id order, so no deadlock) and recompute from what is committed.
    list(Player.objects.select_for_update().filter(pk__in=ids).order_by("pk").values_list("pk"))
    PlayerRecord.objects.filter(player_id__in=ids).delete()
    PlayerRecord.objects.bulk_create(records(ids))


def records(player_ids: list[int]) -> list[PlayerRecord]:
    seats = (
        GameSeat.objects.filter(player_id__in=player_ids)
        .values("player_id", "seat", "game_id")
        .order_by()
    )
    by_game = {s.pk: s for s in GameSummary.objects.filter(game_id__in=seats.values("game_id"))}
    rows = {pk: PlayerRecord(player_id=pk) for pk in player_ids}
    for seat in seats:
        _add(rows[seat["player_id"]], by_game.get(seat["game_id"]), seat["seat"])
    return list(rows.values())


def _add(record: PlayerRecord, summary: GameSummary | None, seat: int) -> None:
    if summary is None:
        return
    record.games_played += 1
    # The start of the latest game: it is fixed once recorded, so inline and rebuild agree.
    if record.last_played is None or summary.started_at > record.last_played:
        record.last_played = summary.started_at
    if summary.status != "finished":
        return
    total = summary.scores[seat]["total"]
    record.games_finished += 1
    record.points_total += total
    record.best_total = total if record.best_total is None else max(record.best_total, total)


# records() of every player who has a game, in one statement, from the game summaries (rebuilt
# before). As inline, a player has a record from his first game on.
_REBUILD_SQL = """
    INSERT INTO scoring_playerrecord
        (player_id, games_played, games_finished, best_total, points_total, last_played)
    SELECT p.id, count(g.game_id), count(g.total), max(g.total), coalesce(sum(g.total), 0),
        max(g.started_at)
    FROM games_player p JOIN (
        SELECT s.player_id, g.game_id, g.started_at,
            CASE WHEN g.status = 'finished'
                THEN (g.scores -> s.seat::integer ->> 'total')::integer END AS total
        FROM games_gameseat s JOIN scoring_gamesummary g ON g.game_id = s.game_id
    ) g ON g.player_id = p.id
    GROUP BY p.id
"""


@transaction.atomic
def rebuild(progress: Callable[[int], None] | None = None, workers: int = 1) -> int:
    """Every player's record from the game summaries (``workers`` is not used here)."""
    PlayerRecord.objects.all().delete()
    if connection.vendor == "postgresql":
        # Loading the summaries of each thousand players into model instances took seconds.
        with connection.cursor() as cursor:
            cursor.execute(_REBUILD_SQL)
            return int(cursor.rowcount)
    ids = sorted(set(GameSeat.objects.values_list("player_id", flat=True)))
    for start in range(0, len(ids), 1000):
        PlayerRecord.objects.bulk_create(records(ids[start : start + 1000]))
    return len(ids)
