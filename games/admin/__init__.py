"""The director's admin. Django's autodiscovery imports this package; each module registers its
models' admin classes."""

from games.admin import readmodels, site  # noqa: F401  (registers the admin classes)
