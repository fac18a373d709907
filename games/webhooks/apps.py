"""The webhooks app: its models, and its Celery tasks registered in every process."""

from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "games.webhooks"
    label = "webhooks"
    verbose_name = "Webhooks"

    def ready(self) -> None:
        # The web process runs the tasks itself in eager mode, and the outbox finds them by name.
        from games.webhooks import tasks  # noqa: F401
