"""The Celery app. Tasks live in scoring.tasks; settings come from CELERY_* in settings.py."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scarney_site.settings")

app = Celery("scarney_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
