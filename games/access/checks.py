"""Deploy checks (``manage.py check --deploy``) of the key the site signs with."""

from __future__ import annotations

import os
from typing import Any

from django.conf import settings
from django.core import checks

# Keys that were ever written in this project's files: anyone can read them.
PUBLISHED_KEYS = frozenset({"insecure-local-demo-key-set-SECRET_KEY-in-production"})


@checks.register(checks.Tags.security, deploy=True)
def check_secret_key(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    if settings.SECRET_KEY in PUBLISHED_KEYS:
        return [
            checks.Warning(
                "SECRET_KEY is a key published in this project's source: anyone can forge "
                "sessions and signatures with it.",
                hint="Set SECRET_KEY to a new random key of 50 characters or more.",
                id="scarney.W001",
            )
        ]
    if not os.environ.get("SECRET_KEY", "").strip():
        return [
            checks.Warning(
                f"SECRET_KEY is not set in the environment: this host signs with the key it "
                f"generated in {settings.SECRET_KEY_FILE}, which no other host shares.",
                hint="Set SECRET_KEY (the same on every host of the deployment).",
                id="scarney.W002",
            )
        ]
    return []
