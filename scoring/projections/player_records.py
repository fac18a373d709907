"""Player records: games played and finished, best total, points, last played.

Derived from the game summaries of the player's games, so handling an event and rebuilding
both come down to recomputing the affected players' rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.db import transaction

from games.models import GameSeat, Player
from scoring.models import GameSummary, PlayerRecord


def handle(player_ids: Iterable[int]) -> None:
    ids = sorted(set(player_ids))
    # Two games of one player may finish at once: lock the players (in id order, so no
    # deadlock) and recompute from what is committed once we hold them.
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


@transaction.atomic
def rebuild(progress: Callable[[int], None] | None = None) -> int:
    PlayerRecord.objects.all().delete()
    ids = list(Player.objects.values_list("pk", flat=True))
    for start in range(0, len(ids), 1000):
        PlayerRecord.objects.bulk_create(records(ids[start : start + 1000]))
    return len(ids)
