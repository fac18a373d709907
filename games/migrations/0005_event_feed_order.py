"""The all-stream feed's order on PostgreSQL: the writing transaction's id, then the position.

Positions come from a sequence and can commit out of order under concurrent writers, so a reader
that pages by position alone could step past an event still in flight. Every transaction that
has not finished has an id at or above the snapshot's xmin; reading only below it, in
(txid, position) order, never skips an event (scoring.selectors.feed_page).
"""

from django.db import migrations

CREATE = """
ALTER TABLE games_event ADD COLUMN txid xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX games_event_feed ON games_event (txid, position);
"""
DROP = """
DROP INDEX IF EXISTS games_event_feed;
ALTER TABLE games_event DROP COLUMN IF EXISTS txid;
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("games", "0004_hot_updates")]

    operations = [migrations.RunPython(forwards, backwards)]
