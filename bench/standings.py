"""Time to compute a big Swiss's standings with every tie-break, and an evening's settlement.

Standings: a ``--players``-player Swiss (default 200) of two-player tables is simulated for
``--rounds`` rounds (default 7) with seeded random pairs (the pairing engine is elsewhere, and the
standings do not care who met whom) and random results: a win, a loss or now and then a shared
win, random match totals and the loser paying the difference. ``games.tournaments.core.standings``
is then timed after the last round with all six tie-breaks, ``--runs`` times (default 7). Prints
median and max; the target is a median under 1 s.

Settlement: ``fewest_transfers`` on ``EXACT_LIMIT`` non-zero random balances (the largest the exact
search takes), as a figure beside it. Pure Python, no database.

Run: ``.venv/bin/python bench/standings.py [--players 200] [--rounds 7] [--runs 7] [--seed 2024]``
(``--no-record`` leaves bench/results alone).
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
if sys.path and Path(sys.path[0] or ".").resolve() == _HERE:
    sys.path.pop(0)  # bench/http.py must not shadow the standard library's http package
sys.path.insert(0, str(_HERE.parent))

import argparse  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402

from bench import _common  # noqa: E402
from games.tournaments.core import settlement, standings, tiebreaks  # noqa: E402

NAME = "standings"


def swiss(
    rng: random.Random, players: int, rounds: int
) -> tuple[list[standings.TableResult], list[standings.Bye]]:
    """Random pairs each round (a bye for the odd one out) and random two-player results."""
    ids = list(range(1, players + 1))
    results, byes = [], []
    for number in range(1, rounds + 1):
        rng.shuffle(ids)
        for table, first in enumerate(range(0, players - 1, 2), start=1):
            results.append(random_result(rng, number, table, ids[first], ids[first + 1]))
        if players % 2:
            byes.append(standings.Bye(number, ids[-1], 1.0))
    return results, byes


def random_result(
    rng: random.Random, number: int, table: int, first: int, second: int
) -> standings.TableResult:
    scores = (rng.randint(0, 120), rng.randint(0, 120))
    if rng.random() < 0.1:
        scores = (scores[0], scores[0])  # a shared win
    ranks = [1 + (scores[0] < scores[1]), 1 + (scores[1] < scores[0])]
    difference = scores[0] - scores[1]
    return standings.TableResult(
        round=number,
        table=table,
        players=(first, second),
        points=standings.table_points(ranks),
        scores=scores,
        net=(difference, -difference),
    )


def time_standings(args: argparse.Namespace) -> list[float]:
    rng = random.Random(args.seed)
    results, byes = swiss(rng, args.players, args.rounds)
    players = [(p, f"Player {p:03d}") for p in range(1, args.players + 1)]
    times = []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        table = standings.standings(players, results, byes, tiebreaks.TIEBREAKS, round=args.rounds)
        times.append(time.perf_counter() - t0)
    assert len(table.rows) == args.players
    return times


def time_settlement(args: argparse.Namespace) -> list[float]:
    rng = random.Random(args.seed)
    times = []
    for _ in range(args.runs):
        values = [rng.choice([-1, 1]) * rng.randint(1, 200) for _ in range(settlement.EXACT_LIMIT)]
        nets = dict(enumerate(values))
        nets[0] -= sum(values)  # balanced; player 0 may fall to zero, leaving one fewer
        t0 = time.perf_counter()
        settlement.fewest_transfers(nets)
        times.append(time.perf_counter() - t0)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--no-record", action="store_true", help="do not append to bench/results")
    args = parser.parse_args()

    standing_times = time_standings(args)
    settle_times = time_settlement(args)
    med, worst = _common.median(standing_times), max(standing_times)
    print(
        _common.table(
            ["figure", "ms", "target", "verdict"],
            [
                ["median", med * 1000, "< 1000", _common.verdict(med, 1.0, higher_is_better=False)],
                ["max", worst * 1000, "-", "-"],
                ["settle median", _common.median(settle_times) * 1000, "-", "-"],
                ["settle max", max(settle_times) * 1000, "-", "-"],
            ],
            title=(
                f"standings with all six tie-breaks after round {args.rounds} of a "
                f"{args.players}-player Swiss, {args.runs} runs; fewest_transfers on "
                f"{settlement.EXACT_LIMIT} balances"
            ),
        )
    )
    if args.no_record:
        return
    path = _common.record(
        NAME,
        {
            "args": vars(args),
            "median_s": med,
            "max_s": worst,
            "settle_median_s": _common.median(settle_times),
            "settle_max_s": max(settle_times),
        },
    )
    print(f"\nappended to {path.relative_to(_common.ROOT)}")


if __name__ == "__main__":
    main()
