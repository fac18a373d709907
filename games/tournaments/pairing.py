"""Who sits with whom in a tournament round: round robin, Swiss and multi-player tables.

Pure functions of the field as it stands (``Entrant``) to a ``Pairing``; no database, no clock.
The service records every pairing in ``round.paired``, so a replay never runs this module again
and a change of pairing rules never rewrites a past round.

- ``round_robin``: FIDE Berger tables (Handbook C.05, Annex 1).
- ``swiss``: the FIDE Dutch system (C.04.3, rules in force until 31 January 2026) by the py4swiss
  package, which reproduces bbpPairings (a FIDE-endorsed program); see docs/DESIGN.md "Swiss
  pairing: which library and why". The Dutch rules are not re-implemented here: this module only
  turns our entrants into the engine's input and its answer back into tables.
- ``tables``: multi-player tables seated by standing, with a few swaps to spare repeat meetings.

Seat 0 of a table starts (in chess terms, has White).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from py4swiss.engines import DutchEngine
from py4swiss.engines.common import PairingError
from py4swiss.trf import ParsedTrf
from py4swiss.trf.codes import PlayerCode
from py4swiss.trf.results import ColorToken, ResultToken, RoundResult, ScoringPointSystem
from py4swiss.trf.sections import PlayerSection, XSection
from py4swiss.trf.sections.x_section import XSectionConfiguration


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


# --- Swiss (FIDE Dutch, by py4swiss) ------------------------------------------------------------

# The engine reads a TRF(x) history. Entrants keep no game results, so every past result there
# scores the same and the true scores reach the engine as TRF(x) accelerations: before each past
# round when ``Entrant.scores`` gives them (the floats of FIDE A.4 come out exact), otherwise
# level (no past float but a round without a game, a downfloat as A.4 says), and now, which is
# what the engine ranks and groups by.
_SLOT_POINTS = 5  # tenths of a point
_WIN_POINTS = 10


@dataclass
class _History:
    """A TRF history consistent with the entrants: rounds of games, byes and empty slots."""

    rounds: int
    slots: dict[int, list[RoundResult | None]]  # starting number -> one entry per round
    meetings: list[tuple[int, int, int]]  # (round, number, number) of the games between entrants
    before: dict[int, list[int]]  # starting number -> tenths of points before each round, and now


def swiss(
    entrants: Sequence[Entrant],
    round_number: int,
    *,
    requested_byes: Collection[int] = (),
    rounds: int | None = None,
) -> Pairing:
    """Pair a Swiss round by the FIDE Dutch system.

    Those in ``requested_byes`` sit out (listed in ``byes``). No two players meet again and no
    one gets a second pairing-allocated bye while the field allows it; starters alternate and
    balance as colours do (no three in a row, a difference of at most 2) unless that cannot be
    kept. ``rounds`` (the planned number) lets the last round relax colours for topscorers (A.7);
    without it no round is taken for the last. Should the rules leave no pairing at all (a small
    field late in a long event), the oldest rounds' colours, then their meetings, are forgotten
    one round at a time until one exists: the least harm the rules' order allows.
    """
    sitting = set(requested_byes)
    field = [e for e in entrants if e.player not in sitting]
    requested = tuple(e.player for e in _by_seed(entrants) if e.player in sitting)
    if len(field) < 2:
        return Pairing(tables=(), byes=requested + tuple(e.player for e in field))
    numbers = {e.player: n for n, e in enumerate(_by_seed(entrants), start=1)}
    history = _history(entrants, numbers, round_number)
    byes = _bye_counts(field)
    last = rounds is not None and round_number >= rounds
    for forget_colours, forget_meetings in _relaxations(history.rounds):
        trf = _trf(entrants, numbers, history, byes, sitting, last, forget_colours, forget_meetings)
        try:
            found = DutchEngine.generate_pairings(trf)
        except PairingError:
            continue
        return _pairing(found, entrants, numbers, requested)
    raise AssertionError("a Swiss round with no past left to forget always pairs")


def _by_seed(entrants: Sequence[Entrant]) -> list[Entrant]:
    return sorted(entrants, key=lambda e: (e.seed, e.player))


def _bye_counts(field: Sequence[Entrant]) -> dict[int, int]:
    """Byes as the engine should count them: when all of an odd field had one, the fewest count
    as none, so the bye goes to one of those who had fewest (C.2 would leave no one)."""
    least = min(e.byes for e in field)
    if len(field) % 2 and least > 0:
        return {e.player: e.byes - least for e in field}
    return {e.player: e.byes for e in field}


def _relaxations(rounds: int) -> list[tuple[int, int]]:
    """(rounds whose colours are forgotten, rounds whose meetings are forgotten), mildest first."""
    return [(k, 0) for k in range(rounds + 1)] + [(rounds, k) for k in range(1, rounds + 1)]


def _history(entrants: Sequence[Entrant], numbers: dict[int, int], round_number: int) -> _History:
    """Lay each entrant's games in the rounds they were played, both players alike.

    Without ``Entrant.rounds`` only the order of a player's games is known: they are laid as
    late as that order allows, which puts byes and absences first, so no float is invented for
    the last two rounds. Games against players no longer in the field go to stand-in players
    (numbered after the field) who are not paired.
    """
    sequences, given = _games(entrants, numbers)
    total = max([round_number - 1, *given.values()] + [len(e.starts) + e.byes for e in entrants])
    if all(len(e.rounds) == len(e.opponents) for e in entrants):
        when = given
    else:
        when = _latest_rounds(sequences, total)
    early = 1 - min(when.values(), default=1)
    if early > 0:  # orders no real history has; keep them all the same
        total += early
        when = {game: r + early for game, r in when.items()}
    slots: dict[int, list[RoundResult | None]] = {}
    meetings = []
    before = _points_before(entrants, numbers, total)
    stand_in = len(numbers)
    for (a, b, white, _k), r in sorted(when.items(), key=lambda item: (item[1], item[0])):
        if b is None:
            stand_in += 1
            b = stand_in
            before[b] = before[a]  # level with his opponent: no float invented
        else:
            meetings.append((r, a, b))
        for number, opponent, starts in ((a, b, white == a), (b, a, white != a)):
            token = ColorToken.WHITE if starts else ColorToken.BLACK
            played = RoundResult(id=opponent, color=token, result=ResultToken.DRAW)
            slots.setdefault(number, [None] * total)[r - 1] = played
    for e in entrants:
        own = slots.setdefault(numbers[e.player], [None] * total)
        for index in [i for i, slot in enumerate(own) if slot is None][: e.byes]:
            own[index] = _bye(ResultToken.PAIRING_ALLOCATED_BYE)
    return _History(rounds=total, slots=slots, meetings=meetings, before=before)


def _points_before(
    entrants: Sequence[Entrant], numbers: dict[int, int], total: int
) -> dict[int, list[int]]:
    """Tenths of points before each round and now; all level in the past when not all known."""
    known = all(len(e.scores) == total for e in entrants)
    before = {}
    for e in entrants:
        past = [round(s * 10) for s in e.scores] if known else [0] * total
        before[numbers[e.player]] = [*past, round(e.points * 10)]
    return before


# (a player's number, the other's number or None for a stand-in, who started, which meeting)
_Game = tuple[int, int | None, int, int]


def _games(
    entrants: Sequence[Entrant], numbers: dict[int, int]
) -> tuple[dict[int, list[_Game]], dict[_Game, int]]:
    """Each entrant's games in his order (one key for both players), and their rounds if given."""
    sequences: dict[int, list[_Game]] = {}
    given: dict[_Game, int] = {}
    for e in entrants:
        if len(e.opponents) != len(e.starts):
            raise ValueError(
                f"Swiss pairing needs two-player tables; player {e.player} has "
                f"{len(e.opponents)} opponents over {len(e.starts)} tables."
            )
        me = numbers[e.player]
        met: Counter[int] = Counter()
        own: list[_Game] = []
        for index, (opponent, started) in enumerate(zip(e.opponents, e.starts, strict=True)):
            met[opponent] += 1
            other = numbers.get(opponent)
            game: _Game
            if other is None:
                game = (me, None, me if started else 0, opponent * 10_000 + met[opponent])
            else:
                low, high = sorted((me, other))
                game = (low, high, me if started else other, met[opponent])
            own.append(game)
            if index < len(e.rounds):
                given[game] = e.rounds[index]
        sequences[me] = own
    _check_agreement(sequences)
    return sequences, given


def _check_agreement(sequences: dict[int, list[_Game]]) -> None:
    """Both players of a game must hold it, with the same starter."""
    for number, games in sequences.items():
        for a, b, _white, k in games:
            if b is None:
                continue
            other = b if a == number else a
            if Counter(sequences[number])[(a, b, _white, k)] != Counter(sequences[other]).get(
                (a, b, _white, k)
            ):
                raise ValueError(
                    f"Entrants disagree on meeting {k} of seeds {a} and {b} (who started, or "
                    "whether they met)."
                )


def _latest_rounds(sequences: dict[int, list[_Game]], total: int) -> dict[_Game, int]:
    """Each game's latest round such that every player's games keep their order."""
    following: dict[_Game, list[_Game]] = {}
    for sequence in sequences.values():
        for index, game in enumerate(sequence):
            following.setdefault(game, []).extend(sequence[index + 1 : index + 2])
    when: dict[_Game, int] = {}
    pending = sorted(following, key=lambda g: (g[0], g[1] or 0, g[2], g[3]))
    while pending:
        ready = [g for g in pending if all(f in when for f in following[g])]
        if not ready:
            raise ValueError("The entrants' game orders contradict each other.")
        for game in ready:
            when[game] = min((when[f] for f in following[game]), default=total + 1) - 1
        done = set(ready)
        pending = [g for g in pending if g not in done]
    return when


def _bye(token: ResultToken) -> RoundResult:
    return RoundResult(id=0, color=ColorToken.BYE_OR_NOT_PAIRED, result=token)


def _trf(
    entrants: Sequence[Entrant],
    numbers: dict[int, int],
    history: _History,
    byes: dict[int, int],
    sitting: set[int],
    last: bool,
    forget_colours: int,
    forget_meetings: int,
) -> ParsedTrf:
    """The engine's input: the history, with the oldest rounds' games blanked as asked.

    A blanked game keeps its meeting as a forbidden pair until its meetings are forgotten too.
    """
    field = {numbers[e.player] for e in entrants if e.player not in sitting}
    had_bye = {numbers[p] for p, count in byes.items() if count > 0}
    sections = []
    for number in sorted(history.slots):
        results = []
        for r, slot in enumerate(history.slots[number], start=1):
            if slot is None:
                results.append(_bye(ResultToken.ZERO_POINT_BYE))
            elif slot.result is ResultToken.PAIRING_ALLOCATED_BYE:
                keep = number in had_bye
                results.append(slot if keep else _bye(ResultToken.ZERO_POINT_BYE))
            else:
                keep = r > forget_colours
                results.append(slot if keep else _bye(ResultToken.ZERO_POINT_BYE))
        sections.append(
            PlayerSection(
                code=PlayerCode.PLAYER,
                starting_number=number,
                points_times_ten=_SLOT_POINTS * history.rounds,
                rank=number,
                results=results,
            )
        )
    forbidden = {(a, b) for r, a, b in history.meetings if forget_meetings < r <= forget_colours}
    x_section = XSection(
        number_of_rounds=history.rounds + (1 if last else 2),
        zeroed_ids=set(history.slots) - field,
        scoring_point_system=_scoring(),
        configuration=XSectionConfiguration(first_round_color=True),
        accelerations={
            n: [points - _SLOT_POINTS * r for r, points in enumerate(history.before.get(n, []))]
            or [0] * (history.rounds + 1)
            for n in history.slots
        },
        forbidden_pairs=forbidden,
    )
    return ParsedTrf(player_sections=sections, x_section=x_section)


def _scoring() -> ScoringPointSystem:
    scoring = ScoringPointSystem()
    scoring.score_dict = {
        key: _WIN_POINTS
        if value == _WIN_POINTS and key[1] is not ColorToken.BYE_OR_NOT_PAIRED
        else _SLOT_POINTS
        for key, value in scoring.score_dict.items()
    }
    return scoring


def _pairing(
    found: Sequence[Any],
    entrants: Sequence[Entrant],
    numbers: dict[int, int],
    requested: tuple[int, ...],
) -> Pairing:
    """The engine's pairs as tables, boards ordered as FIDE D.9 orders them."""
    player = {n: p for p, n in numbers.items()}
    by_player = {e.player: e for e in entrants}
    tables: list[tuple[int, int]] = []
    byes: list[int] = []
    for pair in found:
        white, black = pair.white, pair.black
        if black == 0:
            byes.append(player[white])
        else:
            tables.append((player[white], player[black]))

    def board(table: tuple[int, ...]) -> tuple[float, float, int]:
        ranked = sorted(table, key=lambda p: (-by_player[p].points, numbers[p]))
        higher, lower = (by_player[p] for p in ranked)
        return (-higher.points, -(higher.points + lower.points), numbers[higher.player])

    return Pairing(tables=tuple(sorted(tables, key=board)), byes=requested + tuple(byes))


# --- multi-player tables ------------------------------------------------------------------------


def tables(
    entrants: Sequence[Entrant],
    table_size: int,
    round_number: int,
    *,
    seed: int,
    min_size: int = 2,
    requested_byes: Collection[int] = (),
) -> Pairing:
    """Seat a round at tables of ``table_size``.

    Round 1 seats the field shuffled by ``random.Random(seed)`` (the caller records the seed);
    later rounds by standing (points, then seed), top tables first, then swaps players between
    tables while that lowers the number of past meetings among table-mates. Full tables first and
    the rest at one smaller table of at least ``min_size``; short of that, the full tables lend
    seats to it (10 at size 3, minimum 2: 3, 3, 2, 2). Only when no layout seats everyone does
    the lowest-ranked player among those with the fewest byes get one. Seat 0 goes to whoever
    has started least often, then standing order.
    """
    if table_size < 1 or not 1 <= min_size <= table_size:
        raise ValueError(f"Tables of {table_size} with at least {min_size} players cannot be laid.")
    sitting = set(requested_byes)
    order = _standing([e for e in entrants if e.player not in sitting])
    if round_number == 1:
        order = sorted(order, key=lambda e: (e.seed, e.player))
        random.Random(seed).shuffle(order)
    byes = [e.player for e in _by_seed(entrants) if e.player in sitting]
    sizes = table_sizes(len(order), table_size, min_size)
    while sizes is None:
        out = _bye_taker(order)
        order.remove(out)
        byes.append(out.player)
        sizes = table_sizes(len(order), table_size, min_size)
    seated = _fill(order, sizes)
    seated = _spare_repeats(seated, _meetings(order))
    return Pairing(tables=tuple(_seat(table) for table in seated), byes=tuple(byes))


def _standing(entrants: Sequence[Entrant]) -> list[Entrant]:
    return sorted(entrants, key=lambda e: (-e.points, e.seed, e.player))


def _bye_taker(order: Sequence[Entrant]) -> Entrant:
    """The lowest in ``order`` among those with the fewest byes."""
    fewest = min(e.byes for e in order)
    return [e for e in order if e.byes == fewest][-1]


def table_sizes(players: int, table_size: int, min_size: int) -> list[int] | None:
    """Table sizes seating all ``players``, largest first; None when no layout exists."""
    if players == 0:
        return []
    full, rest = divmod(players, table_size)
    sizes = [table_size] * full + ([rest] if rest else [])
    while sizes[-1] < min_size:
        donors = [i for i, size in enumerate(sizes[:-1]) if size > min_size]
        if not donors:
            return None
        # The largest table lowest down lends a seat, so the top tables stay full.
        donor = max(donors, key=lambda i: (sizes[i], i))
        sizes[donor] -= 1
        sizes[-1] += 1
    return sorted(sizes, reverse=True)


def _fill(order: Sequence[Entrant], sizes: Sequence[int]) -> list[list[Entrant]]:
    seated, start = [], 0
    for size in sizes:
        seated.append(list(order[start : start + size]))
        start += size
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
