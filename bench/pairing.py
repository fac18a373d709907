"""Time to pair a large Swiss round: ``games.tournaments.core.swiss.swiss`` (FIDE Dutch).

A field of ``--players`` (default 200) plays ``--rounds`` - 1 rounds (default 7) with seeded random
results (40% seat-0 wins, 20% draws, 40% losses), each round paired by ``swiss`` itself; then round
``--rounds`` is paired ``--runs`` times (default 7) on the same entrants and timed. Entrants are
timed twice: with their rounds and scores (``Entrant.rounds``/``scores``, exact floats) and
without (the six fields alone). Prints median and max; the target is a median under 1 s. Pure
Python, no database. Standings are benchmarked elsewhere.

Run: ``.venv/bin/python bench/pairing.py [--players 200] [--rounds 8] [--runs 7] [--seed 2024]``.
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
from dataclasses import replace  # noqa: E402

from bench import _common  # noqa: E402
from games.tournaments.core.pairing import Entrant  # noqa: E402
from games.tournaments.core.swiss import swiss  # noqa: E402

NAME = "pairing"


def simulate(players: int, rounds: int, seed: int) -> list[Entrant]:
    """The entrants after ``rounds`` rounds paired by ``swiss`` with random results."""
    rng = random.Random(seed)
    field = [Entrant(p, 0.0, (), (), 0, p - 1) for p in range(1, players + 1)]
    for number in range(1, rounds + 1):
        pairing = swiss(field, number)
        by_player = {e.player: e for e in field}
        after = {p: _before(e) for p, e in by_player.items()}
        for first, second in pairing.tables:
            won = rng.choice((1.0, 1.0, 0.5, 0.0, 0.0))
            after[first] = _played(after[first], second, True, won, number)
            after[second] = _played(after[second], first, False, 1 - won, number)
        for p in pairing.byes:
            after[p] = replace(after[p], points=after[p].points + 1, byes=after[p].byes + 1)
        field = [after[e.player] for e in field]
    return field


def _before(e: Entrant) -> Entrant:
    return replace(e, scores=(*e.scores, e.points))


def _played(e: Entrant, other: int, started: bool, won: float, number: int) -> Entrant:
    return replace(
        e,
        points=e.points + won,
        opponents=(*e.opponents, other),
        starts=(*e.starts, started),
        rounds=(*e.rounds, number),
    )


def time_round(field: list[Entrant], number: int, runs: int) -> list[float]:
    times = []
    first = swiss(field, number)
    for _ in range(runs):
        t0 = time.perf_counter()
        again = swiss(field, number)
        times.append(time.perf_counter() - t0)
        assert again == first, "swiss() must be deterministic"
    return times


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=8, help="the round timed")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()

    t0 = time.perf_counter()
    full = simulate(args.players, args.rounds - 1, args.seed)
    seconds = time.perf_counter() - t0
    print(f"simulated {args.rounds - 1} rounds of {args.players} in {seconds:.1f} s")
    basic = [replace(e, rounds=(), scores=()) for e in full]
    figures = {}
    rows = []
    for label, field in (("rounds and scores", full), ("six fields only", basic)):
        times = time_round(field, args.rounds, args.runs)
        med, worst = _common.median(times), max(times)
        figures[label] = {"median_s": med, "max_s": worst, "runs_s": times}
        verdict = _common.verdict(med, 1.0, higher_is_better=False)
        rows.append([label, med * 1000, worst * 1000, "< 1000", verdict])
    print()
    print(
        _common.table(
            ["entrants", "median ms", "max ms", "target", "verdict"],
            rows,
            title=f"swiss(): round {args.rounds} of {args.players} players, {args.runs} runs",
        )
    )
    path = _common.record(NAME, {"args": vars(args), "figures": figures})
    print(f"\nappended to {path.relative_to(_common.ROOT)}")


if __name__ == "__main__":
    main()
