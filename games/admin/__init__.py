"""The director's admin. Django's autodiscovery imports this package; each module registers its
models' admin classes."""

from games.admin import players, readmodels, records, tournaments  # noqa: F401  (registers them)
