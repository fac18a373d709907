"""Who sits with whom in a tournament round: the field, round robin and multi-player tables.

Pure functions of the field as it stands (``Entrant``) to a ``Pairing``; no database, no clock.
The service records every pairing in ``round.paired``, so a replay never runs this module again
and a change of pairing rules never rewrites a past round.

- ``round_robin``: FIDE Berger tables (Handbook C.05, Annex 1).
- ``swiss`` (module ``games.tournaments.core.swiss``): the FIDE Dutch system (C.04.3, rules in force
  until 31 January 2026) by the py4swiss package, which reproduces bbpPairings (a FIDE-endorsed
  program); see docs/DESIGN.md "Swiss pairing: which library and why". The Dutch rules are not
  re-implemented: that module only turns our entrants into the engine's input and back.
- ``tables``: multi-player tables seated by standing, with a few swaps to spare repeat meetings;
  as few tables off the chosen size as the format's seats allow (``table_sizes``).

Seat 0 of a table starts (in chess terms, has White).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement


@dataclass(frozen=True)
class Entrant:
    """A player as the pairing engines see him, after the rounds played so far."""

    player: int
    points: float
    opponents: tuple[int, ...]  # one entry per meeting, in round order (repeats repeated)
    starts: tuple[bool, ...]  # his two-player tables in round order: True when he had seat 0
    byes: int  # byes had so far
    seed: int  # initial order: 0 is the top seed
    # Optional, for the Swiss floats (FIDE A.4): the round of each entry of ``opponents``, and
    # his points before each round so far (``scores[r - 1]`` before round r). Without them the
    # Dutch engine sees no past floats (docs/DESIGN.md "Swiss pairing").
    rounds: tuple[int, ...] = ()
    scores: tuple[float, ...] = ()


@dataclass(frozen=True)
class Pairing:
    """A round: tables (players in seat order, table 1 first) and the players given a bye."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...]


# --- round robin ---------------------------------------------------------------------------------


def round_robin_rounds(count: int, *, double: bool = False) -> int:
    """Rounds a full round robin of ``count`` players takes (an odd field plays a dummy)."""
    if count < 2:
        return 0
    rounds = count + count % 2 - 1
    return 2 * rounds if double else rounds


def round_robin(
    players: Sequence[int],
    round_number: int,
    *,
    double: bool = False,
    withdrawn: Collection[int] = (),
) -> Pairing:
    """Round ``round_number`` of the Berger tables for ``players`` (in seed order).

    An odd field gets a dummy last number: whoever meets it has the bye. A table with a withdrawn
    player becomes a bye for the other one. The second cycle of a double round robin repeats the
    first with the seats reversed.
    """
    total = round_robin_rounds(len(players), double=double)
    if not 1 <= round_number <= total:
        raise ValueError(f"A round robin of {len(players)} players has rounds 1 to {total}.")
    size = len(players) + len(players) % 2
    cycle_round = (round_number - 1) % (size - 1) + 1
    second_cycle = round_number > size - 1
    gone = set(withdrawn)
    tables: list[tuple[int, ...]] = []
    byes: list[int] = []
    for first, second in berger_round(size, cycle_round):
        if second_cycle:
            first, second = second, first
        seated = [players[n - 1] for n in (first, second) if n <= len(players)]
        present = tuple(p for p in seated if p not in gone)
        if len(present) == 2:
            tables.append(present)
        else:
            byes += present
    return Pairing(tables=tuple(tables), byes=tuple(byes))


def berger_round(size: int, round_number: int) -> list[tuple[int, int]]:
    """The pairs of one round of FIDE's Berger table for an even ``size``, seat 0 first.

    Round 1 is 1-n, 2-(n-1), ...; each later round adds n/2 to every number but n (modulo n-1,
    counting 1 to n-1), and n changes seat every round: the published tables, generated.
    """
    shift = (round_number - 1) * (size // 2)

    def moved(number: int) -> int:
        return (number - 1 + shift) % (size - 1) + 1

    first = moved(1)
    pairs = [(first, size) if round_number % 2 else (size, first)]
    for k in range(2, size // 2 + 1):
        pairs.append((moved(k), moved(size + 1 - k)))
    return pairs


def by_seed(entrants: Sequence[Entrant]) -> list[Entrant]:
    return sorted(entrants, key=lambda e: (e.seed, e.player))


# --- multi-player tables ------------------------------------------------------------------------


def tables(
    entrants: Sequence[Entrant],
    table_size: int,
    round_number: int,
    *,
    seed: int | None,
    min_size: int = 2,
    max_size: int | None = None,
    requested_byes: Collection[int] = (),
) -> Pairing:
    """Seat a round at tables of ``table_size``.

    Round 1 seats the field shuffled by ``random.Random(seed)`` (the caller records the seed),
    or with no seed by entry order dealt round the tables in a serpentine (1, 2, 3, then 3, 2,
    1 ...), so the top seeds start at different tables. Later rounds go by standing (points,
    then seed), top tables first, then swap players between tables while that lowers the number
    of past meetings among table-mates. The table sizes are ``table_sizes``'s: as few tables
    off ``table_size`` as the format's seats (``min_size`` to ``max_size``) allow, smaller ones
    rather than larger. Only when no layout seats everyone does the lowest-ranked player among
    those with the fewest byes get one. Seat 0 goes to whoever has started least often, then
    standing order.
    """
    if table_size < 1 or not 1 <= min_size <= table_size:
        raise ValueError(f"Tables of {table_size} with at least {min_size} players cannot be laid.")
    sitting = set(requested_byes)
    order = _standing([e for e in entrants if e.player not in sitting])
    seeded = round_number == 1 and seed is None
    if round_number == 1:
        order = sorted(order, key=lambda e: (e.seed, e.player))
        if seed is not None:
            random.Random(seed).shuffle(order)
    byes = [e.player for e in by_seed(entrants) if e.player in sitting]
    sizes = table_sizes(len(order), table_size, min_size, max_size)
    while sizes is None:
        out = _bye_taker(order)
        order.remove(out)
        byes.append(out.player)
        sizes = table_sizes(len(order), table_size, min_size, max_size)
    seated = _serpentine(order, sizes) if seeded else _fill(order, sizes)
    seated = _spare_repeats(seated, _meetings(order))
    return Pairing(tables=tuple(_seat(table) for table in seated), byes=tuple(byes))


def _standing(entrants: Sequence[Entrant]) -> list[Entrant]:
    return sorted(entrants, key=lambda e: (-e.points, e.seed, e.player))


def _bye_taker(order: Sequence[Entrant]) -> Entrant:
    """The lowest in ``order`` among those with the fewest byes."""
    fewest = min(e.byes for e in order)
    return [e for e in order if e.byes == fewest][-1]


def table_sizes(
    players: int, table_size: int, min_size: int, max_size: int | None = None
) -> list[int] | None:
    """Table sizes seating all ``players``, largest first; None when no layout exists.

    Every table seats ``min_size`` to ``max_size`` players (the format's seats; ``max_size``
    defaults to ``table_size``). Of the layouts that seat everyone, the one with the fewest
    tables off ``table_size`` wins; on a tie, the one with fewer tables above it (a smaller
    table rather than a larger one), then the one whose odd tables are nearest ``table_size``.
    So 10 at size 3 is 3, 3, 2, 2 when the format seats 2 or 3, and 4, 3, 3 when it seats 4
    as well; 11 at size 3 is 3, 3, 3, 2 either way.
    """
    if players == 0:
        return []
    high = table_size if max_size is None else max(max_size, table_size)
    others = [size for size in range(min_size, high + 1) if size != table_size]
    for off in range(players // min_size + 1):
        best: tuple[tuple[int, int], tuple[int, ...]] | None = None
        for odd in combinations_with_replacement(others, off):
            rest = players - sum(odd)
            if rest < 0 or rest % table_size:
                continue
            larger = sum(size > table_size for size in odd)
            key = (larger, sum(abs(size - table_size) for size in odd))
            if best is None or key < best[0]:
                best = (key, odd)
        if best is not None:
            odd = best[1]
            full = (players - sum(odd)) // table_size
            return sorted([table_size] * full + list(odd), reverse=True)
    return None


def _fill(order: Sequence[Entrant], sizes: Sequence[int]) -> list[list[Entrant]]:
    seated, start = [], 0
    for size in sizes:
        seated.append(list(order[start : start + size]))
        start += size
    return seated


def _serpentine(order: Sequence[Entrant], sizes: Sequence[int]) -> list[list[Entrant]]:
    """Deal the field round the tables, turning at each end, until each table is full."""
    seated: list[list[Entrant]] = [[] for _ in sizes]
    lap = list(range(len(sizes)))
    turns = [*lap, *reversed(lap)]
    places = (t for _ in range(len(order)) for t in turns)
    for entrant in order:
        table = next(t for t in places if len(seated[t]) < sizes[t])
        seated[table].append(entrant)
    return seated


def _meetings(field: Sequence[Entrant]) -> dict[int, Counter[int]]:
    return {e.player: Counter(e.opponents) for e in field}


def repeats(table: Sequence[Entrant], met: dict[int, Counter[int]]) -> int:
    """Past meetings among the table's players, counting each pair once per meeting."""
    return sum(met[a.player][b.player] for i, a in enumerate(table) for b in table[i + 1 :])


def _spare_repeats(
    seated: list[list[Entrant]], met: dict[int, Counter[int]]
) -> list[list[Entrant]]:
    """Swap players between tables while a swap lowers the repeats, the nearest tables first.

    Only strict improvements are taken, so the layout never has more repeats than the plain
    standing order, and the search ends (the count falls every step).
    """
    pairs = sorted(
        ((i, j) for i in range(len(seated)) for j in range(i + 1, len(seated))),
        key=lambda ij: (ij[1] - ij[0], ij[0]),
    )
    improved = True
    while improved:
        improved = False
        for i, j in pairs:
            if _best_swap(seated[i], seated[j], met):
                improved = True
    return seated


def _best_swap(one: list[Entrant], two: list[Entrant], met: dict[int, Counter[int]]) -> bool:
    """Make the swap between two tables that lowers their repeats most; whether there was one."""
    before = repeats(one, met) + repeats(two, met)
    if before == 0:
        return False
    best, chosen = before, None
    for a in range(len(one)):
        for b in range(len(two)):
            one[a], two[b] = two[b], one[a]
            after = repeats(one, met) + repeats(two, met)
            one[a], two[b] = two[b], one[a]
            if after < best:
                best, chosen = after, (a, b)
    if chosen is None:
        return False
    a, b = chosen
    one[a], two[b] = two[b], one[a]
    return True


def _seat(table: Sequence[Entrant]) -> tuple[int, ...]:
    """Seat 0 to whoever started least often (standing order on a tie), the rest by standing."""
    ranked = _standing(table)
    first = min(ranked, key=lambda e: sum(e.starts))
    return (first.player, *(e.player for e in ranked if e is not first))
