"""Shared plumbing of the benchmark scripts in bench/ (not a benchmark itself).

Every script starts with the same few lines (see any of them) so that ``bench/`` is *not* first on
``sys.path``: ``bench/http.py`` would otherwise shadow the standard library's ``http`` package for
Django and everything else.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/scarney_bench"


def bench_env() -> str:
    """Set the environment every bench shares; return the bench DATABASE_URL."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scarney_site.settings")
    os.environ.setdefault("DATABASE_URL", DEFAULT_DATABASE_URL)
    os.environ.setdefault("DEBUG", "0")
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    # No broker: Celery eager, as in the embedded default (Solitaire games register no side effect).
    os.environ.pop("REDIS_URL", None)
    url = os.environ["DATABASE_URL"]
    host = urlparse(url).hostname
    if host not in ("127.0.0.1", "localhost", "::1"):
        sys.exit(f"DATABASE_URL must point at 127.0.0.1 for the benches, not {host!r}.")
    return url


def with_dbname(url: str, dbname: str) -> str:
    parts = urlparse(url)
    return urlunparse(parts._replace(path="/" + dbname))


def dbname_of(url: str) -> str:
    return urlparse(url).path.lstrip("/")


def conninfo(url: str) -> str:
    """A psycopg conninfo for a postgres:// URL (psycopg takes URLs as they are)."""
    return url.replace("postgres://", "postgresql://", 1)


def ensure_database(url: str) -> None:
    """CREATE DATABASE if it is missing (connecting to the server's ``postgres`` database)."""
    import psycopg

    name = dbname_of(url)
    with psycopg.connect(conninfo(with_dbname(url, "postgres")), autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')
            print(f"created database {name}")


def setup_django(migrate: bool = True) -> str:
    """Bench environment, database present and migrated, Django set up; the DATABASE_URL."""
    url = bench_env()
    ensure_database(url)
    if migrate:
        recreate_if_migrations_changed(url)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    if migrate:
        from django.core.management import call_command

        call_command("migrate", verbosity=0, interactive=False)
        _store_fingerprint(url)
    return url


def migrations_fingerprint() -> str:
    """A hash of the project's migration files (they have been regenerated in place before)."""
    digest = hashlib.sha256()
    for path in sorted(
        [*ROOT.glob("games/migrations/*.py"), *ROOT.glob("scoring/migrations/*.py")]
    ):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def recreate_if_migrations_changed(url: str) -> None:
    """Drop and recreate a scarney_bench* database migrated from different migration files.

    ``migrate`` cannot bring such a database up to date when the initial migrations were
    rewritten in place, and an append-only store cannot be cleaned up row by row. Databases whose
    name does not start with ``scarney_bench`` are never dropped, only warned about.
    """
    import psycopg

    name = dbname_of(url)
    with psycopg.connect(conninfo(url), autocommit=True) as conn:
        exists = conn.execute("SELECT to_regclass('bench_meta') IS NOT NULL").fetchone()[0]
        stored = None
        if exists:
            row = conn.execute("SELECT value FROM bench_meta WHERE key = 'migrations'").fetchone()
            stored = row[0] if row else None
        migrated = conn.execute("SELECT to_regclass('django_migrations') IS NOT NULL").fetchone()[0]
    if not migrated or stored == migrations_fingerprint():
        return
    if not name.startswith("scarney_bench"):
        print(f"warning: {name} was migrated from other migration files; not dropping it")
        return
    print(f"the project's migrations changed since {name} was made: dropping and recreating it")
    with psycopg.connect(conninfo(with_dbname(url, "postgres")), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def _store_fingerprint(url: str) -> None:
    import psycopg

    with psycopg.connect(conninfo(url), autocommit=True) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS bench_meta (key text PRIMARY KEY, value text)")
        conn.execute(
            "INSERT INTO bench_meta VALUES ('migrations', %s)"
            " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            [migrations_fingerprint()],
        )


def close_django_connections() -> None:
    """Before a fork: children must open their own connections."""
    from django.db import connections

    connections.close_all()


# --- figures ------------------------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of ``values``; nan when empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def median(values: Iterable[float]) -> float:
    values = list(values)
    return statistics.median(values) if values else float("nan")


def spread(values: Sequence[float]) -> float:
    """(max - min) / median, as a rough noise figure across repeated runs."""
    if not values:
        return float("nan")
    mid = statistics.median(values)
    return (max(values) - min(values)) / mid if mid else float("nan")


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]], title: str = "") -> str:
    """A plain text table; floats printed with sensible precision."""

    def cell(value: Any) -> str:
        if isinstance(value, float):
            if value != value:  # nan
                return "-"
            if abs(value) >= 100:
                return f"{value:,.0f}"
            if abs(value) >= 10:
                return f"{value:.1f}"
            return f"{value:.2f}"
        if isinstance(value, int):
            return f"{value:,}"
        return str(value)

    text = [[cell(v) for v in row] for row in rows]
    widths = [
        max(len(h), *(len(r[i]) for r in text)) if text else len(h) for i, h in enumerate(headers)
    ]
    lines = []
    if title:
        lines.append(title)
    lines.append(
        "  ".join(
            h.ljust(w) if i == 0 else h.rjust(w)
            for i, (h, w) in enumerate(zip(headers, widths, strict=True))
        )
    )
    lines.append("  ".join("-" * w for w in widths))
    for row in text:
        lines.append(
            "  ".join(
                v.ljust(w) if i == 0 else v.rjust(w)
                for i, (v, w) in enumerate(zip(row, widths, strict=True))
            )
        )
    return "\n".join(lines)


def verdict(value: float, target: float, higher_is_better: bool = True) -> str:
    ok = value >= target if higher_is_better else value < target
    return "MET" if ok else "MISSED"


# --- machine and results ------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "nproc": os.cpu_count(),
        "cpu": model,
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def git_commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=5,
        ).stdout.strip()
    except Exception:
        return ""


def dirty_files() -> list[str]:
    """Project files changed since the commit (outside bench/ and docs/), for the record."""
    try:
        out = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=5,
        ).stdout
    except Exception:
        return []
    files = [line[3:] for line in out.splitlines()]
    return [f for f in files if not f.startswith(("bench/", "docs/"))]


def record(name: str, payload: dict[str, Any]) -> Path:
    """Append one JSON line to bench/results/<name>.jsonl and return the file."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    line = {
        "bench": name,
        "at": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "commit": git_commit(),
        "dirty": dirty_files(),
        "machine": machine(),
        "loadavg_at_end": os.getloadavg(),
        **payload,
    }
    path = RESULTS / f"{name}.jsonl"
    with path.open("a") as out:
        out.write(json.dumps(line, default=str) + "\n")
    return path


class Deadline:
    """A wall-clock budget: ``left()`` seconds remain, ``over()`` once it is spent."""

    def __init__(self, seconds: float) -> None:
        self.end = time.monotonic() + seconds

    def left(self) -> float:
        return self.end - time.monotonic()

    def over(self) -> bool:
        return time.monotonic() >= self.end


# The peer (the ``bench`` extra). Its classes live at module level so that the topics stored
# with its events ("bench._common:PeerGame.Moved") resolve in a later run.
try:
    from eventsourcing.application import Application
    from eventsourcing.domain import Aggregate, event
except ImportError:  # reported by peer_classes() when the peer is run
    Aggregate = None  # type: ignore[assignment,misc]

if Aggregate is not None:

    class PeerGame(Aggregate):  # type: ignore[misc]
        """One game: a "Moved" event per move."""

        def __init__(self) -> None:
            self.moves = 0
            self.last: tuple[int, int] | None = None

        @event("Moved")
        def move(self, frm: int, to: int) -> None:
            self.moves += 1
            self.last = (frm, to)

    class PeerGames(Application):  # type: ignore[misc]
        pass


def peer_classes() -> tuple[type, type]:
    """The peer's application and aggregate classes, or exit saying how to install them."""
    if Aggregate is None:
        sys.exit("the peer needs eventsourcing[postgres]: pip install -e '.[bench]'")
    return PeerGames, PeerGame
