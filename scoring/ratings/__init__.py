"""Ratings per game kind (docs/DESIGN.md "Ratings"): OpenSkill's Weng-Lin Plackett-Luce model
over every rated result, in the order of the events that decided them.

- ``scale``: the model, its numbers as club players read them, what provisional means (pure);
- ``outcomes``: what counts, from a stream's folded state (a match by its ranks, a game outside
  a match by its own, partnerships as sides);
- ``ledger``: the rows, kept in step in the appending transaction and replayed from where a
  result changed; ``rebuild`` (scoring.projections.ratings) replays them all;
- ``reading``: the leaderboards, a player's ratings, and the ratings a seeding asks for.
"""
