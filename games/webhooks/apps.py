"""The webhooks app: its models, its Celery tasks registered in every process, and its reaction
to every appended event (its deliveries, registered in the appending transaction)."""

from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "games.webhooks"
    label = "webhooks"
    verbose_name = "Webhooks"

    def ready(self) -> None:
        # The web process runs the tasks itself in eager mode, and the outbox finds them by name.
        from games.store import reactions
        from games.webhooks import services, tasks  # noqa: F401

        reactions.subscribe(reactions.APPENDED, services.deliveries_register)
