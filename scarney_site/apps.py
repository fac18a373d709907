"""The site's own app config: it hands the store what the store sends through.

The store (games/store/outbox.py) relays its side effects to the Celery app, which the site
defines (scarney_site/celery.py). The site sits above everything, so nothing below imports it:
the app is handed to the outbox here, at ``ready()``, as a reaction is registered.
"""

from django.apps import AppConfig


class SiteConfig(AppConfig):
    name = "scarney_site"
    label = "site"
    verbose_name = "The site"

    def ready(self) -> None:
        from games.store import outbox
        from scarney_site.celery import app

        outbox.sender_register(app)
