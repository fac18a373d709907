from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring (the read side)"

    def ready(self) -> None:
        # Registers the tasks with the Celery app in the web process too (eager mode, outbox).
        from games.store import reactions
        from scoring import projections, tasks  # noqa: F401

        # The write side keeps these read models in step through its registry.
        reactions.register(projections)
