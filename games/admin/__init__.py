"""The director's admin. Django's autodiscovery imports this package; each module registers its
models' admin classes."""

from django.contrib import admin

from games.admin import players, readmodels, records, seasons, tournaments  # noqa: F401  (registers them)

# The club's names for the admin, in place of "Django administration".
admin.site.site_header = "Scarney Scorekeeper: the director's desk"
admin.site.site_title = "Scarney Scorekeeper"
admin.site.index_title = "The club's tournaments, games and players"
