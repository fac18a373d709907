"""The Django project: settings, URLs, the Celery app and the API's exception handler."""

from scarney_site.celery import app as celery_app

__all__ = ["celery_app"]
