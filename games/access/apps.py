from django.apps import AppConfig


class AccessConfig(AppConfig):
    name = "games.access"
    label = "access"
    verbose_name = "API access"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.access import checks  # noqa: F401  (registers the deploy checks)
