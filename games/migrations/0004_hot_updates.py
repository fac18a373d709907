"""Leave room in the pages of the rows updated on every move (PostgreSQL's HOT updates).

A stream row and its game summary are rewritten by every recorded move; with free space on the
page the new row version stays on it and no index is touched.
"""

from django.db import migrations

TABLES = ["games_stream", "scoring_gamesummary"]


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for table in TABLES:
            schema_editor.execute(f"ALTER TABLE {table} SET (fillfactor = 70)", params=None)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for table in TABLES:
            schema_editor.execute(f"ALTER TABLE {table} RESET (fillfactor)", params=None)


class Migration(migrations.Migration):
    dependencies = [("games", "0003_event_stream_no_extra_index"), ("scoring", "0001_initial")]

    operations = [migrations.RunPython(forwards, backwards)]
