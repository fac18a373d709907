from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring (the read side)"

    def ready(self) -> None:
        # Registers the tasks with the Celery app in the web process too (eager mode, outbox).
        from scoring import tasks  # noqa: F401
