from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scores and records"

    def ready(self) -> None:
        # Registers the tasks with the Celery app in the web process too (eager mode, outbox).
        from games.store import reactions
        from scoring import projections, tasks  # noqa: F401
        from scoring.ratings import reading

        # The write side keeps these read models in step through its registry.
        reactions.register(projections)
        # A tournament seeded by rating asks for its entrants' ratings.
        reactions.answer(reactions.RATINGS, reading.ratings_of)
