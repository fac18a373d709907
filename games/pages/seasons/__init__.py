"""A season's page (``/seasons/{id}/``, API.md "Seasons"): its standings explained, each player's
evenings with the counted ones marked, and the leaders' points over the season."""
