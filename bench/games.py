"""Recording cost per game kind: one event through ``games.play.services.event_record`` on
PostgreSQL.

For each kind, games are started and driven by the demo club's table driver
(``games.demo.sample_tables.next_move``: a random legal event where the game lists them, random
faces for the dice in the cup, sometimes a stand) until ``--events`` events are recorded; a finished
game is followed by a new one. Each append is timed (wall clock, commit included). Printed per
kind: events, p50 and p99 latency, events/s, and the state's pickled size at the end (the
snapshot written with each event). Kinds whose next event the driver cannot make up (a Scarnie
deal, a tarot deal, Double Cameroon's keeps) are not measured here.

Run: ``.venv/bin/python bench/games.py [--events 600] [--seed 7]``.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
if sys.path and Path(sys.path[0] or ".").resolve() == _HERE:
    sys.path.pop(0)
sys.path.insert(0, str(_HERE.parent))

import argparse  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402
import uuid  # noqa: E402

from bench import _common  # noqa: E402

KINDS = [
    ("scarney-solitaire", 1),
    ("scarney-singles", 3),
    ("scarney-doubles", 2),
    ("high-low-scarney", 2),
    ("straight-scarney-dice", 4),
    ("scarney-3000", 4),
    ("scarney-put-and-take", 4),
    ("going-to-boston", 4),
    ("hearts-due", 3),
]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--events", type=int, default=600)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    _common.setup_django()
    rows, figures = [], {}
    for kind, seats in KINDS:
        times, size = measure(kind, seats, args.events, random.Random(args.seed))
        p50 = _common.median(times) * 1000
        p99 = _common.percentile(times, 99) * 1000
        rate = len(times) / sum(times)
        rows.append([kind, len(times), f"{p50:.2f}", f"{p99:.2f}", f"{rate:,.0f}", size])
        figures[kind] = {"events": len(times), "p50_ms": p50, "p99_ms": p99, "per_s": rate}
    print(
        _common.table(
            ["kind", "events", "p50 ms", "p99 ms", "events/s", "state bytes"],
            rows,
            "one event through the service, one writer",
        )
    )
    print(f"appended to {_common.record('games', {'args': vars(args), 'kinds': figures})}")


def measure(kind: str, seats: int, events: int, rng: random.Random) -> tuple[list[float], int]:
    import pickle

    from games.demo import sample_tables
    from games.play import services
    from games.store import folding
    from games.store.models import Stream

    times: list[float] = []
    folded = None
    game_id = None
    while len(times) < events:
        if folded is None:
            names = [{"name": f"bench-{kind}-{i}"} for i in range(seats)]
            game_id = services.game_start(kind=kind, seats=names).pk
            folded = folding.load(Stream.objects.get(pk=game_id))
        move = sample_tables.next_move(folded, rng)
        if move is None:
            if folded.version == 1:
                raise SystemExit(f"the table driver cannot start a {kind} game")
            folded = None
            continue
        t0 = time.perf_counter()
        recorded = services.event_record(
            stream_id=game_id, event_id=uuid.uuid4(), type=move[0], data=move[1]
        )
        times.append(time.perf_counter() - t0)
        folded = recorded.folded
    return times, len(pickle.dumps(folded.state if folded else None))


if __name__ == "__main__":
    main()
