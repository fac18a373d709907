"""A tournament's standings: match points, tie-breaks and ranks (API.md "Tournaments").

Pure: the table results and byes of the rounds played go in, the rows come out, with ``explain``
saying in words how each column is computed. Match points are exact fractions while they are
summed and compared (a third of a point never drifts), and floats only in the answer.

Match points (``table_points``): a two-player win 1, a shared win ½ each, a loss 0, a bye as the
director gives it (1 for a pairing bye). At a table of k players place p earns (k - p)/(k - 1);
players who share a rank share the average of the places they cover. Duplicate Solitaire, where
the whole field plays one deal alone, is ranked across the field by ``duplicate_results``.

Tie-breaks, in the order the tournament chose them (declared once in ``tiebreaks``): Buchholz,
median Buchholz, Sonneborn-Berger, head to head, points difference and net. A voided table counts
as played and gives nothing else: no points, no scores, no net, no opponent for any tie-break.

A duplicate round's rows also carry each player's Solitaire match rating on the round's deal
(``Row.ratings``, RULES.md 2.6): the band of his five-game total ("Par match" ...), which the
field, having played the same layouts, can compare.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from games.tournaments.core import tiebreaks as declared

HALF = Fraction(1, 2)
# Inputs arrive as floats (⅓ is 0.333...); every match point is a fraction with a small
# denominator, which this recovers exactly.
_DENOMINATOR = 1_000_000


@dataclass(frozen=True, slots=True)
class TableResult:
    """What one table of one round gave its players, in seat order.

    ``field_average`` is for a duplicate Solitaire table (one player): the field's average total
    on the round's deal, his points difference being his total minus it. ``duplicate_results``
    fills it; a one-player table without it has a points difference of 0. ``rating`` is that
    table's Solitaire match rating, when its match was rated.
    """

    round: int
    table: int
    players: tuple[int, ...]
    points: tuple[float, ...]
    scores: tuple[int, ...]
    net: tuple[int, ...]
    voided: bool = False
    field_average: float | None = None
    rating: str | None = None


@dataclass(frozen=True, slots=True)
class Bye:
    """A round without a table: 1 point for a pairing bye, 0 or ½ for a requested one."""

    round: int
    player: int
    points: float


@dataclass(frozen=True, slots=True)
class Row:
    rank: int
    player: int
    name: str
    points: float
    played: int
    tiebreaks: dict[str, float]
    net: int
    # (round, rating) of each rated duplicate Solitaire round he played, in round order.
    ratings: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Standings:
    round: int
    rows: tuple[Row, ...]
    explain: dict[str, str]


# --- match points -------------------------------------------------------------------------------


def table_points(ranks: Sequence[int]) -> tuple[float, ...]:
    """The match points of a table of two or more from its ranks (1 wins; ties share a rank).

    Ranks are read as "lower is better": a player's first place is one more than the number of
    players ranked strictly better, so 1,1,3 and 1,1,2 both mean two share first.
    """
    if len(ranks) < 2:
        raise ValueError("table_points needs a table of two or more players.")
    return tuple(float(p) for p in _rank_points(ranks))


def _rank_points(ranks: Sequence[int]) -> tuple[Fraction, ...]:
    k = len(ranks)
    ordered = sorted(ranks)
    points = []
    for rank in ranks:
        first = bisect.bisect_left(ordered, rank) + 1
        sharing = bisect.bisect_right(ordered, rank) - first + 1
        # The average of (k - p)/(k - 1) over places first..first+sharing-1.
        average_place = first + Fraction(sharing - 1, 2)
        points.append((k - average_place) / (k - 1))
    return tuple(points)


def duplicate_results(
    round: int,
    totals: Mapping[int, int],
    nets: Mapping[int, int] | None = None,
    ratings: Mapping[int, str] | None = None,
) -> tuple[TableResult, ...]:
    """Duplicate Solitaire: one one-player TableResult per player, with points by rank in the field.

    Every player of the round played the same deal, so his total is ranked against the whole
    field (k = the field's size in the (k - p)/(k - 1) formula; a higher total ranks higher;
    equal totals share). A field of one earns 1. Tables are numbered in rank order, players level
    on total by player id. ``field_average`` carries the field's average total for the points
    difference; ``ratings`` each player's match rating where his match has one.
    """
    nets = nets or {}
    ratings = ratings or {}
    order = sorted(totals, key=lambda p: (-totals[p], p))
    if not order:
        return ()
    ranks = _competition_ranks([totals[p] for p in order])
    points = _rank_points(ranks) if len(order) > 1 else (Fraction(1),)
    average = sum(totals.values()) / len(order)
    return tuple(
        TableResult(
            round=round,
            table=number,
            players=(player,),
            points=(float(pts),),
            scores=(totals[player],),
            net=(nets.get(player, 0),),
            field_average=average,
            rating=ratings.get(player),
        )
        for number, (player, pts) in enumerate(zip(order, points, strict=True), start=1)
    )


def _competition_ranks(descending: Sequence[int]) -> list[int]:
    """1,1,3-style ranks of values already sorted best (highest) first."""
    ranks: list[int] = []
    for index, value in enumerate(descending):
        same = index > 0 and value == descending[index - 1]
        ranks.append(ranks[-1] if same else index + 1)
    return ranks


# --- standings ----------------------------------------------------------------------------------


@dataclass(slots=True)
class _Record:
    """One player's tally while the results are read."""

    points: Fraction = Fraction(0)
    played: int = 0
    # (opponent, your result against him: 1, ½ or 0), once per meeting.
    meetings: list[tuple[int, Fraction]] = field(default_factory=list)
    difference: Fraction = Fraction(0)
    net: int = 0
    ratings: list[tuple[int, str]] = field(default_factory=list)


def standings(
    players: Sequence[tuple[int, str]],
    results: Sequence[TableResult],
    byes: Sequence[Bye],
    tiebreaks: Sequence[str],
    *,
    round: int,
) -> Standings:
    """The standings of ``players`` (id, name) after round ``round``.

    Later results and byes are ignored. Opponents who are not among ``players`` (a withdrawn
    player, say) still count with their points in everyone's tie-breaks.
    """
    chosen = _checked(tiebreaks)
    records = _tally(
        [r for r in results if r.round <= round], [b for b in byes if b.round <= round]
    )
    keyed = []
    for player, name in players:
        record = records.get(player) or _Record()
        values = [_tiebreak(kind, player, record, records) for kind in chosen]
        keyed.append((record, values, player, name))
    keyed.sort(key=lambda e: (-e[0].points, *(-v for v in e[1]), e[3], e[2]))
    sentences = explain(chosen)
    if any(record.ratings for record, *_ in keyed):
        sentences["ratings"] = _SENTENCES["ratings"]
    return Standings(round=round, rows=_ranked(keyed, chosen), explain=sentences)


def _checked(tiebreaks: Sequence[str]) -> tuple[str, ...]:
    return declared.check(tuple(tiebreaks))


def _tally(results: Sequence[TableResult], byes: Sequence[Bye]) -> dict[int, _Record]:
    records: defaultdict[int, _Record] = defaultdict(_Record)
    for result in sorted(results, key=lambda r: r.round):
        for player in result.players:
            records[player].played += 1
            if result.rating is not None and not result.voided:
                records[player].ratings.append((result.round, result.rating))
        if not result.voided:
            _count_table(result, records)
    for bye in byes:
        records[bye.player].points += _exact(bye.points)
    return dict(records)


def _count_table(result: TableResult, records: Mapping[int, _Record]) -> None:
    points = [_exact(p) for p in result.points]
    seats = range(len(result.players))
    for i in seats:
        record = records[result.players[i]]
        record.points += points[i]
        record.net += result.net[i]
        record.difference += _difference(result, i)
        for j in seats:
            if j != i:
                record.meetings.append((result.players[j], _against(points[i], points[j])))


def _against(mine: Fraction, his: Fraction) -> Fraction:
    """Your result against a table-mate: 1 above him, ½ level, 0 below (points follow rank)."""
    if mine == his:
        return HALF
    return Fraction(1) if mine > his else Fraction(0)


def _difference(result: TableResult, seat: int) -> Fraction:
    mine = result.scores[seat]
    others = [s for i, s in enumerate(result.scores) if i != seat]
    if others:
        return mine - Fraction(sum(others), len(others))
    if result.field_average is None:
        return Fraction(0)  # a lone table with no field to compare to
    return mine - _exact(result.field_average)


def _exact(value: float) -> Fraction:
    return Fraction(value).limit_denominator(_DENOMINATOR)


def _tiebreak(kind: str, player: int, record: _Record, records: Mapping[int, _Record]) -> Fraction:
    def points_of(opponent: int) -> Fraction:
        return records[opponent].points

    if kind == "buchholz":
        return sum((points_of(o) for o, _ in record.meetings), Fraction(0))
    if kind == "median_buchholz":
        scores = sorted(points_of(o) for o, _ in record.meetings)
        kept = scores[1:-1] if len(scores) >= 3 else scores
        return sum(kept, Fraction(0))
    if kind == "sonneborn_berger":
        return sum((points_of(o) * r for o, r in record.meetings), Fraction(0))
    if kind == "head_to_head":
        level = (r for o, r in record.meetings if o != player and points_of(o) == record.points)
        return sum(level, Fraction(0))
    if kind == "points_difference":
        return record.difference
    return Fraction(record.net)


def _ranked(
    keyed: Sequence[tuple[_Record, list[Fraction], int, str]], chosen: Sequence[str]
) -> tuple[Row, ...]:
    """Rows with competition ranks: level on points and every tie-break, the same rank."""
    rows: list[Row] = []
    previous: tuple[Fraction, ...] | None = None
    rank = 0
    for index, (record, values, player, name) in enumerate(keyed, start=1):
        standing = (record.points, *values)
        if standing != previous:
            rank, previous = index, standing
        tiebreaks = {kind: float(v) for kind, v in zip(chosen, values, strict=True)}
        rows.append(
            Row(
                rank,
                player,
                name,
                float(record.points),
                record.played,
                tiebreaks,
                record.net,
                tuple(record.ratings),
            )
        )
    return tuple(rows)


# --- explain ------------------------------------------------------------------------------------

_SENTENCES = {
    "points": (
        "Match points: a two-player win 1, a shared win ½ each, a bye 1 (a requested bye 0 or ½, "
        "as the director says); at a table of k players place p earns (k-p)/(k-1), players "
        "sharing a place share the average, and in duplicate Solitaire k is the whole field."
    ),
    "played": "Tables sat at, voided ones included; byes are not counted.",
    **{t.key: t.sentence for t in declared.DECLARED},
    "ratings": (
        "Ratings: in each duplicate Solitaire round, the rating of your five-game total "
        "(Scarney Solitaire's match point ratings); the whole field played the same layouts, "
        "so ratings, like totals, compare on the same deal. Shown, not ranked on."
    ),
}


def explain(tiebreaks: Sequence[str]) -> dict[str, str]:
    """A sentence for each column shown: rank, points, played, each chosen tie-break, net."""
    chosen = _checked(tiebreaks)
    order = ", then ".join(["points", *(declared.BY_KEY[t].named for t in chosen), "name"])
    sentences = {
        "rank": (
            f"Ordered by {order}; players level on points and on every tie-break share a rank."
        ),
        "points": _SENTENCES["points"],
        "played": _SENTENCES["played"],
    }
    sentences.update({t: _SENTENCES[t] for t in chosen})
    sentences["net"] = _SENTENCES["net"]
    return sentences
