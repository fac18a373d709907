"""The history API at a million events, against its ceilings, measured from outside with wrk.

The database is seeded beforehand by ``bench/seed_scale.py`` (1,000,000 events, 10,000
matches, 500 players, 20 tournaments). gunicorn serves ``bench.settings_reads`` (the product's
URLs, bench/http.py's insert ceiling and the read ceiling of ``bench/ceiling_reads.py``) with the
project's ``gunicorn.conf.py`` (2 processes x 4 threads). For each read, wrk (2 threads, 16
connections, ``--seconds`` a run) GETs paths spread over many rows, and the ceiling runs alternate
with the product's (C P, P C, C P ...):

* ``matches``          GET /api/v1/matches/ (the first page)
* ``matches-filtered`` GET /api/v1/matches/?player=P&format=F
* ``match-history``    GET /api/v1/matches/{id}/history/
* ``player-history``   GET /api/v1/players/{id}/history/
* ``standings``        GET /api/v1/tournaments/{id}/standings/
* ceiling              GET /bench/ceiling-read/{id}/: one stream row by primary key, as JSON

Target: each read's p99 at most 2x the ceiling's (medians of ``--runs`` runs each). The feed:
``/api/v1/events.ndjson?after=0`` read over HTTP for its first ``--feed-events`` lines, against
psycopg alone reading as many rows of games_event in position order (a server-side cursor);
target: at least half psycopg's rate. Results: one JSON line in bench/results/scale.jsonl.

Run: ``DATABASE_URL=postgres://postgres@127.0.0.1:5432/scarney_scale .venv/bin/python
bench/scale.py [--reads matches,...] [--seconds 10] [--runs 3] [--feed-events 200000]``.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
if sys.path and Path(sys.path[0] or ".").resolve() == _HERE:
    sys.path.pop(0)  # bench/http.py must not shadow the standard library's http package
sys.path.insert(0, str(_HERE.parent))

import argparse  # noqa: E402
import datetime as dt  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402
from http.client import HTTPConnection  # noqa: E402
from typing import Any  # noqa: E402

from bench import _common  # noqa: E402
from bench import http as bench_http  # noqa: E402  (its server and token machinery)

NAME = "scale"
HOST = bench_http.HOST
LUA = _HERE / "wrk" / "reads.lua"
WORK = _common.RESULTS / "wrk" / "scale"
READS = ["matches", "matches-filtered", "match-history", "player-history", "standings"]
PATHS_PER_READ = 2000


def start_gunicorn(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    """bench/http.py's server with the read ceiling's URLconf (bench.settings_reads)."""
    return bench_http.start_gunicorn(env, port, "bench.settings_reads", "gunicorn-scale")


# --- the paths ----------------------------------------------------------------------------------


def paths(read: str, rng: random.Random) -> tuple[list[str], list[str]]:
    """The product's paths for ``read`` and the ceiling's (one stream row each, by primary key)."""
    from django.db import connection

    with connection.cursor() as cur:
        # Matches anyone may read: one in progress is its recorders' and the directors' (403)
        cur.execute(
            "SELECT m.stream_id FROM games_match m JOIN games_stream s ON s.id = m.stream_id"
            " WHERE s.is_public AND s.status <> 'in_progress' ORDER BY random() LIMIT %s",
            [PATHS_PER_READ],
        )
        matches = [str(r[0]) for r in cur.fetchall()]
        cur.execute("SELECT id FROM games_player WHERE name LIKE 'Scale %%'")
        players = [r[0] for r in cur.fetchall()]
        cur.execute("SELECT stream_id FROM games_tournament")
        tournaments = [str(r[0]) for r in cur.fetchall()]
        cur.execute("SELECT DISTINCT format FROM games_match")
        formats = [r[0] for r in cur.fetchall()]
    ceiling = [f"/bench/ceiling-read/{m}/" for m in matches]
    if read == "matches":
        product = ["/api/v1/matches/"]
    elif read == "matches-filtered":
        product = [
            f"/api/v1/matches/?player={rng.choice(players)}&format={rng.choice(formats)}"
            for _ in range(PATHS_PER_READ)
        ]
    elif read == "match-history":
        product = [f"/api/v1/matches/{m}/history/" for m in matches]
    elif read == "player-history":
        product = [f"/api/v1/players/{p}/history/" for p in players]
    else:
        product = [f"/api/v1/tournaments/{t}/standings/" for t in tournaments]
    return product, ceiling


def wrk(port: int, paths_file: Path, token: str, seconds: float) -> dict[str, Any]:
    out = subprocess.run(
        [
            "wrk",
            "-t2",
            "-c16",
            f"-d{seconds:g}s",
            "--timeout",
            "10s",
            "-s",
            str(LUA),
            f"http://{HOST}:{port}/",
            "--",
            str(paths_file),
            token,
        ],
        capture_output=True,
        text=True,
        timeout=seconds + 60,
        check=True,
    )
    line = next(x for x in out.stdout.splitlines() if x.startswith("WRK "))
    figures: dict[str, Any] = json.loads(line[4:])
    figures["rps"] = figures["requests"] / figures["seconds"]
    figures["loadavg_1m"] = os.getloadavg()[0]
    return figures


def measure_read(read: str, port: int, token: str, args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(read)
    product, ceiling = paths(read, rng)
    files = {}
    for which, lines in (("product", product), ("ceiling", ceiling)):
        files[which] = WORK / f"{read}-{which}.txt"
        files[which].write_text("".join(p + "\n" for p in lines))
    runs: dict[str, list[dict[str, Any]]] = {"ceiling": [], "product": []}
    for run in range(args.runs):
        for which in ("ceiling", "product") if run % 2 == 0 else ("product", "ceiling"):
            figures = wrk(port, files[which], token, args.seconds)
            runs[which].append(figures)
            print(
                f"    {read:16s} {which:8s} {figures['rps']:7.0f} req/s  p50 "
                f"{figures['p50_ms']:6.1f}  p99 {figures['p99_ms']:6.1f}  non-2xx "
                f"{figures['non_2xx']}  load {figures['loadavg_1m']:.1f}",
                flush=True,
            )
    summary: dict[str, Any] = {
        which: {k: _common.median(r[k] for r in rows) for k in ("rps", "p50_ms", "p99_ms")}
        for which, rows in runs.items()
    }
    summary["p99_ratio"] = summary["product"]["p99_ms"] / summary["ceiling"]["p99_ms"]
    return {"read": read, "summary": summary, "runs": runs}


# --- the feed -----------------------------------------------------------------------------------


def feed_http(port: int, token: str, count: int) -> float:
    """Seconds to receive the first ``count`` lines of the NDJSON feed (then hang up)."""
    conn = HTTPConnection(HOST, port, timeout=120)
    t0 = time.perf_counter()
    conn.request(
        "GET", "/api/v1/events.ndjson?after=0", headers={"Authorization": f"Token {token}"}
    )
    response = conn.getresponse()
    if response.status != 200:
        raise RuntimeError(f"the feed answered {response.status}: {response.read(300)!r}")
    lines = 0
    while lines < count:
        line = response.readline()
        if not line:
            break
        lines += 1
    seconds = time.perf_counter() - t0
    conn.close()
    if lines < count:
        raise RuntimeError(f"the feed ended after {lines} lines; seed more events")
    return seconds


def feed_psycopg(url: str, count: int) -> float:
    """Seconds for psycopg alone to read ``count`` rows of games_event in position order."""
    import psycopg

    t0 = time.perf_counter()
    with psycopg.connect(_common.conninfo(url)) as conn, conn.cursor(name="feed") as cur:
        cur.itersize = 2000
        cur.execute(
            "SELECT position, id, stream_id, version, type, schema_version, data, meta,"
            " recorded_at, hash FROM games_event WHERE position > 0 ORDER BY position LIMIT %s",
            [count],
        )
        rows = sum(1 for _ in cur)
    seconds = time.perf_counter() - t0
    if rows < count:
        raise RuntimeError(f"games_event holds {rows} rows; seed more events")
    return seconds


def measure_feed(port: int, token: str, url: str, args: argparse.Namespace) -> dict[str, Any]:
    n = args.feed_events
    runs: dict[str, list[float]] = {"psycopg": [], "feed": []}
    for run in range(args.runs):
        for which in ("psycopg", "feed") if run % 2 == 0 else ("feed", "psycopg"):
            seconds = feed_http(port, token, n) if which == "feed" else feed_psycopg(url, n)
            runs[which].append(n / seconds)
            print(f"    feed {which:8s} {n / seconds:9,.0f} events/s ({seconds:.2f} s)", flush=True)
    rates = {which: _common.median(rows) for which, rows in runs.items()}
    return {"events": n, "rates": rates, "ratio": rates["feed"] / rates["psycopg"], "runs": runs}


# --- main ---------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--reads", default=",".join(READS), help="comma-separated, or none")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--runs", type=int, default=3, help="runs of each, alternating")
    parser.add_argument("--feed-events", type=int, default=200_000, help="0: skip the feed")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is missing: apt-get install -y wrk")
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/scarney_scale")
    url = _common.setup_django()
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DEBUG": "0",
        "THROTTLE_TOKEN_RATE": os.environ.get("THROTTLE_TOKEN_RATE") or "100000000/m",
        "THROTTLE_ADDRESS_RATE": os.environ.get("THROTTLE_ADDRESS_RATE") or "100000000/m",
    }
    env.pop("REDIS_URL", None)
    token = bench_http.issue_token(env)
    WORK.mkdir(parents=True, exist_ok=True)
    port = bench_http.free_port()
    print(f"gunicorn (gunicorn.conf.py) on {HOST}:{port}, database {_common.dbname_of(url)}")
    proc = start_gunicorn(env, port)
    results: dict[str, Any] = {"args": vars(args), "reads": [], "feed": None}
    try:
        for read in [r for r in args.reads.split(",") if r and r != "none"]:
            result = measure_read(read, port, token, args)
            s = result["summary"]
            print(
                f"  {read}: p99 {s['product']['p99_ms']:.1f} vs {s['ceiling']['p99_ms']:.1f} ms"
                f" = {s['p99_ratio']:.2f} (target <= 2)",
                flush=True,
            )
            results["reads"].append(result)
        if args.feed_events:
            # The all-stream feed is the directors': a staff user of its own reads it
            results["feed"] = measure_feed(
                port, bench_http.issue_token(env, "bench-director", staff=True), url, args
            )
            f = results["feed"]
            print(f"  feed: {f['ratio']:.2f} of psycopg's rate (target >= 0.5)", flush=True)
    finally:
        bench_http.stop_gunicorn(proc)
    record(results)


def record(payload: dict[str, Any]) -> None:
    """One JSON line in bench/results/scale.jsonl (no git call: the lead engineer commits)."""
    line = {
        "bench": NAME,
        "at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "machine": _common.machine(),
        "loadavg_at_end": os.getloadavg(),
        **payload,
    }
    with (_common.RESULTS / f"{NAME}.jsonl").open("a") as out:
        out.write(json.dumps(line, default=str) + "\n")


if __name__ == "__main__":
    main()
