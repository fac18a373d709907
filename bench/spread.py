"""One game's moves through two processes: the fast path's head cache, before and after issue 14.

Two writer processes (forked, each with its own head cache, as gunicorn's two) append Hearts Due
rolls without ``expected_version`` to the same few games, each roll to a game picked at random,
so that a game's consecutive moves come from either process and a process's cached head is
often behind. Measured alternately in the same minutes:

* after   the code as it is: a statement that writes nothing answers with the head it read,
          and the move is folded onto that and sent once more;
* before  the same code with that second try switched off (``fast_append._fresh_head``
          answering None), which is what it did before: the locked path did the whole work again.

Printed per mode: appends/s over both writers, p50/p99 of one append, and the share of appends
that reached the locked path. Run: ``.venv/bin/python bench/spread.py [--seconds 10]
[--rounds 2] [--games 4]``.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
if sys.path and Path(sys.path[0] or ".").resolve() == _HERE:
    sys.path.pop(0)  # bench/http.py must not shadow the standard library's http package
sys.path.insert(0, str(_HERE.parent))

import argparse  # noqa: E402
import multiprocessing as mp  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402
import uuid  # noqa: E402
from typing import Any  # noqa: E402

from bench import _common, families  # noqa: E402

KIND, SEATS, RULESET = "hearts-due", 3, {"hearts_due_target": 10_000_000}


def writer(mode: str, games: list[str], seconds: float, seed: int, barrier: Any, out: Any) -> None:
    from games.play import appending, services
    from games.store import fast_append

    if mode == "before":
        fast_append._fresh_head = lambda stream_id, stale: None
    locked = [0]
    record = appending._locked

    def counted(*args: Any, **kwargs: Any) -> Any:
        locked[0] += 1
        return record(*args, **kwargs)

    appending._locked = counted
    rng = random.Random(seed)
    rolls = [m for m in families.moves(KIND, SEATS, RULESET, 500, seed)]
    barrier.wait()
    latencies = []
    clock = time.perf_counter
    deadline = clock() + seconds
    while clock() < deadline:
        type, data = rolls[rng.randrange(len(rolls))]
        game = uuid.UUID(rng.choice(games))
        t0 = clock()
        services.event_record(stream_id=game, event_id=uuid.uuid4(), type=type, data=data)
        latencies.append(clock() - t0)
    out.put((latencies, locked[0]))


def measure(mode: str, games: list[str], seconds: float, seed: int) -> dict[str, Any]:
    _common.close_django_connections()
    ctx = mp.get_context("fork")
    barrier, out = ctx.Barrier(2), ctx.Queue()
    procs = [
        ctx.Process(target=writer, args=(mode, games, seconds, seed + w, barrier, out))
        for w in range(2)
    ]
    for p in procs:
        p.start()
    results = [out.get(timeout=seconds + 120) for _ in procs]
    for p in procs:
        p.join()
    latencies = [x for lat, _ in results for x in lat]
    locked = sum(n for _, n in results)
    return {
        "mode": mode,
        "rate": len(latencies) / seconds,
        "p50_ms": _common.percentile(latencies, 50) * 1000,
        "p99_ms": _common.percentile(latencies, 99) * 1000,
        "locked_share": locked / len(latencies) if latencies else float("nan"),
        "loadavg_1m": os.getloadavg()[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--games", type=int, default=4)
    args = parser.parse_args()
    _common.setup_django()
    from games.play import services

    games = []
    for g in range(args.games):
        names = [{"name": f"spread-{g}-{s}"} for s in range(SEATS)]
        games.append(str(services.game_start(kind=KIND, seats=names, ruleset=RULESET).pk))
    rows = []
    for round in range(args.rounds):
        for mode in ("before", "after") if round % 2 == 0 else ("after", "before"):
            m = measure(mode, games, args.seconds, 1000 * round)
            rows.append(m)
            print(
                f"  {mode:6s} {m['rate']:7.0f} appends/s  p50 {m['p50_ms']:6.2f} ms"
                f"  p99 {m['p99_ms']:6.2f} ms  locked path {100 * m['locked_share']:4.1f} %"
                f"  load {m['loadavg_1m']:.1f}",
                flush=True,
            )
    table = []
    for mode in ("before", "after"):
        ms = [r for r in rows if r["mode"] == mode]
        table.append(
            [
                mode,
                _common.median(r["rate"] for r in ms),
                _common.median(r["p50_ms"] for r in ms),
                _common.median(r["p99_ms"] for r in ms),
                f"{100 * _common.median(r['locked_share'] for r in ms):.1f} %",
            ]
        )
    print(
        _common.table(
            ["mode", "appends/s", "p50 ms", "p99 ms", "locked path"],
            table,
            title=f"{args.games} Hearts Due games, 2 writer processes, medians of {args.rounds}",
        )
    )
    _common.record("spread", {"args": vars(args), "runs": rows})


if __name__ == "__main__":
    main()
