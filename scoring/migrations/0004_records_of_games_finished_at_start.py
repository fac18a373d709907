"""Repair the player records a game finished by its own start left behind.

A game over at version 1 (a study position with no jump left) was counted as played but not
as finished: its players' records missed its total. Their records are recomputed here from the
game summaries, as the projection's rebuild computes every record.
"""

from django.db import migrations


def recompute_records(apps, schema_editor):
    GameSummary = apps.get_model("scoring", "GameSummary")
    PlayerRecord = apps.get_model("scoring", "PlayerRecord")
    GameSeat = apps.get_model("games", "GameSeat")
    finished_at_start = GameSummary.objects.filter(status="finished", version=1)
    players = set(
        GameSeat.objects.filter(game_id__in=finished_at_start.values("pk")).values_list(
            "player_id", flat=True
        )
    )
    for player_id in sorted(players):
        record = PlayerRecord(player_id=player_id)
        seats = GameSeat.objects.filter(player_id=player_id).values_list("game_id", "seat")
        summaries = GameSummary.objects.in_bulk([game for game, _ in seats])
        for game, seat in seats:
            summary = summaries.get(game)
            if summary is None:
                continue
            record.games_played += 1
            if record.last_played is None or summary.started_at > record.last_played:
                record.last_played = summary.started_at
            if summary.status == "finished":
                total = summary.scores[seat]["total"]
                record.games_finished += 1
                record.points_total += total
                best = record.best_total
                record.best_total = total if best is None else max(best, total)
        PlayerRecord.objects.filter(player_id=player_id).delete()
        record.save()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_past_snapshots"),
        ("scoring", "0003_match_standing_updated_index"),
    ]

    operations = [migrations.RunPython(recompute_records, migrations.RunPython.noop)]
