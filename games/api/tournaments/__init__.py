"""The tournament endpoints (API.md "Tournaments"): ``reads`` answers a tournament, a round, its
standings and settlement; ``directing`` takes a director's steps. Both ask the tournaments
context (games.tournaments) and decide nothing of a tournament themselves."""
