"""Tokens get a name and a scope. A token issued before keeps doing what it did: "write", unnamed."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("access", "0002_hash_legacy_tokens"),
    ]

    operations = [
        migrations.AddField(
            model_name="apitoken",
            name="name",
            field=models.CharField(blank=True, default="", max_length=100),
        ),
        migrations.AddField(
            model_name="apitoken",
            name="scope",
            field=models.CharField(
                choices=[("read", "Read"), ("write", "Write")], default="write", max_length=5
            ),
        ),
    ]
