"""A tournament in the admin, where a director runs the evening: the admin and its inlines
(``admin``), its forms, the director's steps (pairing, keepers, closing, publishing), entering
players, and confirming a table's result."""

from games.admin.tournaments import admin  # noqa: F401  (registers the tournament's admin)
