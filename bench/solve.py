"""Time to solve a full 16-pawn layout from the take-off (RULES.md 2.7 analysis), and the
two-player solver of games.rules.scarney_board.solve.duel (High-Low Scarney and Scarney Doubles).

Solitaire: for ``--layouts`` seeded random layouts (default 25), the state after ``board.laid_out``
is built with the pure rules and ``games.rules.scarney_board.solve.solitaire.best_line`` is timed on
it (a fresh search each time: the memo lives in one ``_Search``). Prints median, p90 and max; the
target is a median under 1 s.

Two players: the median time of a 10-pawn High-Low position (``--duel-positions`` seeded random
positions, default 25), and for each game the largest position, in pawns, every one of whose
sampled positions (``--duel-samples`` per size, default 5) is solved in under 1 s. Doubles
positions of 2-15 pawns are in play (pawns on random circles); its 16-pawn position is a full
layout with both take-offs still due, the whole game. Pure Python, no database.

Run: ``.venv/bin/python bench/solve.py [--layouts 25] [--seed 2024] [--only solitaire|duel]``.
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

NAME = "solve"


def layout_state(seed: int):  # type: ignore[no-untyped-def]
    from games.rules.base import Move
    from games.rules.scarney_board.board import ALL_PAWNS, CIRCLES
    from games.rules.scarney_board.solitaire import SOLITAIRE, Ruleset

    pawns = list(ALL_PAWNS)
    random.Random(seed).shuffle(pawns)
    position = {f"C{c}": p for c, p in zip(CIRCLES, pawns, strict=True)}
    state = SOLITAIRE.initial_state({}, Ruleset(), 1)
    return SOLITAIRE.apply(state, Move("board.laid_out", {"position": position}))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--layouts", type=int, default=25)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--budget", type=float, default=600.0, help="stop starting layouts after this many s"
    )
    parser.add_argument("--only", choices=["solitaire", "duel"], default=None)
    parser.add_argument("--duel-positions", type=int, default=25)
    parser.add_argument("--duel-samples", type=int, default=5)
    args = parser.parse_args()
    if args.only != "duel":
        solitaire(args)
    if args.only != "solitaire":
        duel(args)


def solitaire(args: argparse.Namespace) -> None:
    from games.rules.scarney_board.solve import solitaire as solver

    budget = _common.Deadline(args.budget)
    rows, times = [], []
    for i in range(args.layouts):
        if budget.over():
            print(f"budget of {args.budget:g} s spent after {i} layouts")
            break
        seed = args.seed + i
        state = layout_state(seed)
        t0 = time.perf_counter()
        analysis = solver.best_line(state)
        seconds = time.perf_counter() - t0
        # How many positions the search visited: re-run with a probe on the memo size.
        search = solver._Search(allow_call=False)
        cells = solver.encode(state.board)
        for circle in range(1, 17):
            pawn = state.board[circle - 1]
            if pawn is not None and int(pawn[1]) <= 2:
                search.value(cells[: circle - 1] + b"\0" + cells[circle:])
        times.append(seconds)
        rows.append(
            [str(seed), analysis.value, len(analysis.line), len(search.memo), seconds * 1000]
        )
        print(
            f"  layout seed {seed}: best {analysis.value} in {seconds * 1000:.0f} ms "
            f"({len(search.memo):,} positions)",
            flush=True,
        )

    print()
    print(
        _common.table(
            ["seed", "best total", "line moves", "positions", "ms"],
            rows,
            title="best_line from the take-off, one fresh search per layout",
        )
    )
    med, p90, worst = _common.median(times), _common.percentile(times, 90), max(times)
    print()
    print(
        _common.table(
            ["figure", "ms", "target", "verdict"],
            [
                ["median", med * 1000, "< 1000", _common.verdict(med, 1.0, higher_is_better=False)],
                ["p90", p90 * 1000, "-", "-"],
                ["max", worst * 1000, "-", "-"],
            ],
        )
    )
    path = _common.record(
        NAME,
        {
            "args": vars(args),
            "median_s": med,
            "p90_s": p90,
            "max_s": worst,
            "layouts": [{"seed": r[0], "best": r[1], "positions": r[3], "ms": r[4]} for r in rows],
        },
    )
    print(f"\nappended to {path.relative_to(_common.ROOT)}")


def random_board(rng: random.Random, pawns: int) -> tuple[str | None, ...]:
    from games.rules.scarney_board.board import ALL_PAWNS

    cells: list[str | None] = [None] * 16
    for circle, pawn in zip(
        rng.sample(range(16), pawns), rng.sample(ALL_PAWNS, pawns), strict=True
    ):
        cells[circle] = pawn
    return tuple(cells)


def time_high_low(board: tuple[str | None, ...]) -> float:
    from games.rules.scarney_board.solve.duel import solve_high_low

    t0 = time.perf_counter()
    solve_high_low(board, 0)
    return time.perf_counter() - t0


def time_doubles(board: tuple[str | None, ...]) -> float:
    from games.rules.scarney_board.solve.duel import solve_doubles

    full = all(pawn is not None for pawn in board)
    t0 = time.perf_counter()
    solve_doubles(board, 0, takeoffs=2 if full else 0)
    return time.perf_counter() - t0


def duel(args: argparse.Namespace) -> None:
    """High-Low at 10 pawns, and the largest position of each game solved in under 1 s."""
    rng = random.Random(args.seed)
    ten = [time_high_low(random_board(rng, 10)) for _ in range(args.duel_positions)]
    print(
        _common.table(
            ["figure", "ms", "target", "verdict"],
            [
                [
                    "median",
                    _common.median(ten) * 1000,
                    "< 1000",
                    _common.verdict(_common.median(ten), 1.0, higher_is_better=False),
                ],
                ["max", max(ten) * 1000, "-", "-"],
            ],
            title=f"High-Low Scarney, {args.duel_positions} random 10-pawn positions",
        )
    )
    largest = {}
    rows = []
    for name, timer in (("high-low-scarney", time_high_low), ("scarney-doubles", time_doubles)):
        largest[name] = 0
        for pawns in range(2, 17):
            times = [timer(random_board(rng, pawns)) for _ in range(args.duel_samples)]
            rows.append([name, pawns, _common.median(times) * 1000, max(times) * 1000])
            if max(times) >= 1.0:
                break
            largest[name] = pawns
    print()
    print(_common.table(["game", "pawns", "median ms", "max ms"], rows, title="by position size"))
    print()
    for name, pawns in largest.items():
        print(f"{name}: largest position solved in under 1 s: {pawns} pawns")
    path = _common.record(
        "solve-duel",
        {
            "args": vars(args),
            "high_low_10_median_s": _common.median(ten),
            "high_low_10_max_s": max(ten),
            "largest_under_1s": largest,
            "sizes": [
                {"game": r[0], "pawns": r[1], "median_ms": r[2], "max_ms": r[3]} for r in rows
            ],
        },
    )
    print(f"\nappended to {path.relative_to(_common.ROOT)}")


if __name__ == "__main__":
    main()
