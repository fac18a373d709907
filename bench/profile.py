"""Summarise py-spy's collapsed stacks (``bench/http.py --profile``): the share of a web
process's samples inside each of the functions that make up a move.

Run: ``.venv/bin/python bench/profile.py bench/results/wrk/<scenario>/profile-0.txt``.
"""

from __future__ import annotations

import sys
from collections import Counter

# The parts of a move, by the function that does each (file, function).
PARTS = [
    ("the whole request (Django + DRF)", "django/core/handlers/wsgi.py", "WSGIHandler.__call__"),
    ("token authentication", "games/api/http/authentication.py", "HashedTokenAuthentication.auth"),
    (
        "permission to record (a query; else in the statement)",
        "games/play/permissions.py",
        "check_",
    ),
    ("body parsing + validation", "games/api/request_bodies.py", ""),
    ("plain move body", "games/api/streams.py", "_plain_move"),
    ("canonical form + schema checks", "games/store/canonical.py", "canonical"),
    ("event_record", "games/play/services.py", "event_record"),
    ("fast path", "games/store/fast_append.py", "try_append"),
    ("  head read (a game not cached)", "games/store/fast_append.py", "_read_head"),
    ("  fold (rules)", "games/store/fast_append.py", "_fold"),
    ("  snapshot pack (pickle + MAC)", "games/store/folding.py", "pack"),
    ("  read-model clauses", "scoring/projections/", "append_clauses"),
    ("  the one statement", "games/store/journal/prepared.py", "fetch_row"),
    ("locked path", "games/play/appending.py", "_locked"),
    ("replay of a retry", "games/play/appending.py", "_replay_of"),
    ("the answer (game JSON)", "games/play/representation.py", "game_json"),
    ("rendering JSON (orjson)", "games/api/http/renderers.py", "JSONRenderer.render"),
    ("waiting on PostgreSQL", "psycopg/", "Connection.wait"),
]


def shares(path: str) -> tuple[int, list[tuple[str, float]]]:
    total = 0
    hits: Counter[str] = Counter()
    for line in open(path):
        stack, _, count = line.rstrip().rpartition(" ")
        n = int(count)
        frames = stack.split(";")
        if not any("WSGIHandler.__call__" in f for f in frames):
            continue  # idle threads and the arbiter
        total += n
        for label, file, function in PARTS:
            if any(file in f and f.startswith(function) for f in frames):
                hits[label] += n
    return total, [(label, 100 * hits[label] / total) for label, _, _ in PARTS if total]


def main() -> None:
    for path in sys.argv[1:]:
        total, rows = shares(path)
        print(f"{path}: {total} samples in requests")
        for label, share in rows:
            print(f"  {share:5.1f} %  {label}")


if __name__ == "__main__":
    main()
