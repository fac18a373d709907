"""The rating model and its scale: OpenSkill's Plackett-Luce, shown as club players read ratings.

OpenSkill (Weng and Lin 2011) keeps a skill ``mu`` and its uncertainty ``sigma`` per player
(``mu`` 25 and ``sigma`` 25/3 to start, ``beta`` 25/6, ``tau`` 25/300). Plackett-Luce rates any
number of sides of any size, ties shared, which is what these games are: two players, tables of
three to sixteen, partnerships. Shown, ``mu`` becomes a rating centred on 1500 as lichess's and
the FIDE's are: 30 points a unit of ``mu`` make the odds of two settled players read as Elo's
(400 points ahead wins about 10 to 1); the deviation is ``sigma`` on the same scale (250 to
start). Pure: no Django, no clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
CENTRE = 1500
PER_MU = 30
# Results a rating counts before it is established: fewer, and it is provisional (a "?" on
# lichess), shown on the player's page but kept off the leaderboards.
ESTABLISHED_AFTER = 10
# Decimals kept of mu and sigma after each result: what is stored is what the next result
# starts from, so the inline rows and a rebuild compute from the same numbers.
KEPT_DECIMALS = 6


@dataclass(frozen=True, slots=True)
class Skill:
    """A player's rating in one game kind: the model's mu and sigma, and results counted."""

    mu: float
    sigma: float
    games: int = 0

    @property
    def rating(self) -> int:
        return round(CENTRE + PER_MU * (self.mu - MODEL.mu))

    @property
    def deviation(self) -> int:
        return round(PER_MU * self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < ESTABLISHED_AFTER


START = Skill(MODEL.mu, MODEL.sigma, 0)


def rate(sides: Sequence[Sequence[Skill]], ranks: Sequence[int]) -> list[list[Skill]]:
    """Every player's skill after one result: ``sides`` in a fixed order (seat order), each
    side's place in ``ranks`` (1 first; equal places tie)."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma) for s in side] for side in sides]
    after = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return [
        [
            Skill(round(new.mu, KEPT_DECIMALS), round(new.sigma, KEPT_DECIMALS), old.games + 1)
            for old, new in zip(side, rated, strict=True)
        ]
        for side, rated in zip(sides, after, strict=True)
    ]


def board(skill: Skill, player: int) -> int:
    """The leaderboard's order as one number, higher first: the rating, then the smaller
    deviation, then the lower player id (one column, so a page after any other is one index
    range)."""
    rating = min(max(skill.rating + 2**16, 0), 2**17 - 1)
    steadiness = 2**10 - 1 - min(skill.deviation, 2**10 - 1)
    return (rating << 42) | (steadiness << 32) | (2**32 - 1 - player)
