"""A player's page (``/players/{id}/``, docs/API.md "Pages"): his ratings with their charts, his
recent play, his tournaments and places, head to head.

``reading`` gathers it for a reader through the read side's own functions (the API's history,
stats and ratings, the tournaments' standings), so the page lists what the API lists to that
reader and nothing more; ``presenting`` words it; ``views`` parses and renders.
"""
