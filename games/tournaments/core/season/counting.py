"""A season's standings from its evenings' places (API.md "Seasons"), pure.

Each evening gives its players season points by place: ``field`` gives n - place + 1 in an
evening of n players; a ``by_place`` table gives its entry for the place, 0 past its end. Players
who share a place share the points of the places they cover (two sharing 2nd of 8 cover 2nd and
3rd: 7 and 6, so 6.5 each). A player's best ``best`` evenings count (all, without a limit); his
season points are theirs. Ties are broken by evenings won (first place, alone or shared), then by
the points of every evening he played, counted or not; players level on all three share a place.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from games.tournaments.core.season.state import FIELD


@dataclass(frozen=True, slots=True)
class Evening:
    """An evening as the season reads it: its places (competition places, 1 for the winner,
    shared where its standings share a rank) and the size of its field."""

    tournament: str
    name: str
    date: str
    places: Mapping[int, int]  # player -> place
    field: int


@dataclass(frozen=True, slots=True)
class Result:
    tournament: str
    name: str
    date: str
    place: int
    of: int
    points: float
    counted: bool


@dataclass(frozen=True, slots=True)
class Row:
    place: int
    player: int
    points: float
    evenings: int
    counted: int
    won: int
    all_points: float
    results: tuple[Result, ...]


def placed(ranks: Mapping[int, int]) -> dict[int, int]:
    """Competition places among these players from their ranks in a larger table: 1 plus the
    number of them ranked strictly better. An evening's table also ranks entrants who never
    played (and, once two players are merged, a duplicate), who are not in its field."""
    order = sorted(ranks.values())
    return {player: 1 + bisect.bisect_left(order, rank) for player, rank in ranks.items()}


def evening_points(evening: Evening, scheme: str | Sequence[float]) -> dict[int, Fraction]:
    """Each player's season points for ``evening``: shared places share what they cover."""
    sharing: dict[int, int] = {}
    for place in evening.places.values():
        sharing[place] = sharing.get(place, 0) + 1
    given: dict[int, Fraction] = {}
    for place, count in sharing.items():
        covered = [_place_points(p, evening.field, scheme) for p in range(place, place + count)]
        given[place] = sum(covered, Fraction(0)) / count
    return {player: given[place] for player, place in evening.places.items()}


def _place_points(place: int, field: int, scheme: str | Sequence[float]) -> Fraction:
    if scheme == FIELD:
        return Fraction(max(field - place + 1, 0))
    # Through its decimal text: Fraction(0.3) is the float's binary value, and 0.2 + 0.1 would
    # then beat 0.3 on a tie-break.
    table = [Fraction(str(p)) for p in scheme]
    return table[place - 1] if place <= len(table) else Fraction(0)


def standings(
    evenings: Sequence[Evening],
    scheme: str | Sequence[float],
    best: int | None,
    given: Sequence[Mapping[int, Fraction]] | None = None,
) -> tuple[Row, ...]:
    """The season's rows, best first; ``evenings`` in the season's order (by date).
    ``given``: each evening's ``evening_points``, where the caller keeps them already."""
    played: dict[int, list[tuple[Evening, int, Fraction]]] = {}
    for index, evening in enumerate(evenings):
        points = given[index] if given is not None else evening_points(evening, scheme)
        for player, place in evening.places.items():
            played.setdefault(player, []).append((evening, place, points[player]))
    keyed = [_row_key(player, results, best) for player, results in played.items()]
    keyed.sort(key=lambda k: (-k[0], -k[1], -k[2], k[3]))
    rows: list[Row] = []
    previous: tuple[Fraction, int, Fraction] | None = None
    place = 0
    for index, (counted_points, won, all_points, player, results) in enumerate(keyed, start=1):
        standing = (counted_points, won, all_points)
        if standing != previous:
            place, previous = index, standing
        rows.append(
            Row(
                place=place,
                player=player,
                points=float(counted_points),
                evenings=len(results),
                counted=sum(1 for r in results if r.counted),
                won=won,
                all_points=float(all_points),
                results=results,
            )
        )
    return tuple(rows)


def _row_key(
    player: int, played: list[tuple[Evening, int, Fraction]], best: int | None
) -> tuple[Fraction, int, Fraction, int, tuple[Result, ...]]:
    # His best evenings count; between evenings of equal points, the earlier counts.
    order = sorted(range(len(played)), key=lambda i: (-played[i][2], i))
    counting = set(order if best is None else order[:best])
    results = tuple(
        Result(
            tournament=evening.tournament,
            name=evening.name,
            date=evening.date,
            place=place,
            of=evening.field,
            points=float(points),
            counted=index in counting,
        )
        for index, (evening, place, points) in enumerate(played)
    )
    counted = sum((played[i][2] for i in counting), Fraction(0))
    won = sum(1 for _, place, _ in played if place == 1)
    every = sum((points for _, _, points in played), Fraction(0))
    return counted, won, every, player, results


def explain(scheme: str | Sequence[float], best: int | None, evenings: int) -> dict[str, str]:
    """The standings' columns in words, for this season's settings."""
    if scheme == FIELD:
        points = (
            "An evening of n players gives n - place + 1 points: its winner n, its last 1. "
            "Players who share a place share the points of the places they cover."
        )
    else:
        table = ", ".join(f"{p:g}" for p in scheme)
        points = (
            f"An evening gives points by place: {table}, and 0 past the last. Players who share "
            "a place share the points of the places they cover."
        )
    if best is None:
        counted = f"Every evening a player plays counts ({evenings} so far)."
    else:
        counted = (
            f"A player's best {best} evening{'s' if best != 1 else ''} count, of the "
            f"{evenings} so far; the others are shown but not counted."
        )
    ties = (
        "Players level on points are ranked by evenings won (first place, alone or shared), "
        "then by the points of every evening they played, counted or not; level on all three, "
        "they share the place."
    )
    evening = (
        "An evening counts from its standings after its last complete round, and a correction "
        "to it changes the season at once."
    )
    return {"points": points, "counted": counted, "ties": ties, "evenings": evening}


def progress(
    evenings: Sequence[Evening],
    scheme: str | Sequence[float],
    best: int | None,
    players: Sequence[int],
) -> dict[int, list[float]]:
    """Each of ``players``' season points as counted after each evening (``evenings`` in the
    season's order): his best ``best`` of the evenings so far, so an evening that pushes a weaker
    one out adds only what it beats it by. For the chart of the leaders' season."""
    so_far: dict[int, list[Fraction]] = {player: [] for player in players}
    lines: dict[int, list[float]] = {player: [] for player in players}
    for evening in evenings:
        points = evening_points(evening, scheme)
        for player in players:
            if player in points:
                so_far[player].append(points[player])
            kept = sorted(so_far[player], reverse=True)
            counted = kept if best is None else kept[:best]
            lines[player].append(float(sum(counted, Fraction(0))))
    return lines
