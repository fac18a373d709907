"""DRF's plain-text tokens (``authtoken_token``, from before tokens were hashed) become hashed
tokens with the default lifetime, and their keys are deleted: devices keep working, and the
database no longer holds a usable key. Nothing to do on a database that never had the table."""

import hashlib
from datetime import timedelta

from django.conf import settings
from django.db import migrations
from django.utils import timezone

LEGACY = "authtoken_token"


def hash_legacy_tokens(apps, schema_editor):
    connection = schema_editor.connection
    if LEGACY not in connection.introspection.table_names():
        return
    ApiToken = apps.get_model("access", "ApiToken")
    expires = timezone.now() + timedelta(days=settings.API_TOKEN_LIFETIME_DAYS)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT key, user_id FROM {LEGACY}")
        rows = cursor.fetchall()
        ApiToken.objects.bulk_create(
            ApiToken(digest=hashlib.sha256(key.encode()).hexdigest(), user_id=user, expires=expires)
            for key, user in rows
        )
        cursor.execute(f"DELETE FROM {LEGACY}")


class Migration(migrations.Migration):
    dependencies = [("access", "0001_initial")]

    operations = [migrations.RunPython(hash_legacy_tokens, migrations.RunPython.noop)]
