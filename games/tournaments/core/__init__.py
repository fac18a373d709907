"""Tournaments without Django: the folded state of a tournament stream, pairing, standings and
the evening's settlement. Like ``games.rules`` it knows nothing of the database; the services
record what it decides (``round.paired`` carries the full pairing), so a replay never re-runs it.
"""
