"""The all-stream feed's statements: every event in an order no reader skips (positions and
transaction ids).
"""

from __future__ import annotations

from django.db import connection

from games.store import event_types as event_types
from games.store.journal.prepared import prepared_rows
from games.store.models import Event

# The all-stream feed in an order no reader can skip through (see games migration 0005): only
# events of finished transactions, in (transaction id, position) order, resuming after the
# event the reader saw last. ``mark`` is the feed's mark (feed_start): every transaction below
# it that could write an event has ended.
FEED_SQL = """
    SELECT e.position, e.id, e.stream_id, e.version, e.type, e.schema_version, e.data, e.meta,
        e.recorded_at, e.hash
    FROM games_event e
    WHERE (e.txid, e.position) > (%(txid)s::xid8, %(after)s)
        AND e.txid < %(mark)s::xid8
    ORDER BY e.txid, e.position
    LIMIT %(limit)s
"""

# The feed's mark, and the transaction id of the event at a position (NULL for none), in one
# statement run *before* the feed's query: every event of a transaction below the mark that will
# ever commit has committed by the time the feed's query takes its snapshot.
#
# The snapshot's xmin would do (pg_snapshot_xmin), but it is the oldest transaction running in
# the whole server: a write transaction left open in another database (another application, a
# migration, a test run) held the feed back for as long as it stayed open. Only transactions
# connected to this database can insert an event here, so the mark is the oldest xid among this
# database's backends (and its prepared transactions), or this statement's snapshot's xmax when
# none has one. Why no event can commit below it unseen, given the feed's query runs after this
# statement and takes a new snapshot then:
# - an xid below the xmax that this statement's snapshot does not list as running had ended
#   before the statement began; one that is listed and belongs to another database writes no
#   event here;
# - one listed that belongs to this database is read from pg_stat_get_activity *after* that
#   snapshot was taken (a statement's snapshot is taken before it runs): still running then, it
#   is in the list and the mark stays at or below it; ended by then, it had committed before the
#   feed's query took its snapshot, which sees its events;
# - an xid given out later is at or above the xmax: never below the mark.
# The reader's own backend is left out, as the snapshot's xmin leaves it out. Activity is read
# once per transaction and kept (pg_stat_clear_snapshot forgets it: feed_start does inside a
# transaction). Backends report 32-bit xids: each is widened to the 64-bit xid8 of the events'
# txid by its distance to the xmax (a running xid is never 2^31 away).
_FEED_START = """
WITH top AS (
    SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS xmax
), running AS (
    SELECT a.backend_xid::text::bigint AS xid FROM pg_stat_get_activity(NULL) a
    WHERE a.datid = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND a.backend_xid IS NOT NULL AND a.pid <> pg_backend_pid()
    UNION ALL
    SELECT p.transaction::text::bigint FROM pg_prepared_xact() p
    WHERE p.dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
)
SELECT (SELECT txid::text FROM games_event WHERE position = %s),
    LEAST(top.xmax, min(top.xmax - (
        mod(mod(top.xmax, 4294967296) - running.xid + 6442450944, 4294967296) - 2147483648
    )))::text
FROM top LEFT JOIN running ON true
GROUP BY top.xmax
"""


class UnknownPosition(Exception):
    pass


def feed_page(after: int, limit: int) -> list[Event]:
    """Up to ``limit`` events of the all-stream feed after the event at position ``after``."""
    if connection.vendor != "postgresql":
        # One writer at a time (SQLite): positions commit in order.
        return list(Event.objects.filter(position__gt=after).order_by("position")[:limit])
    txid, mark = feed_start(after)
    params = {"txid": txid, "mark": mark, "after": after, "limit": limit}
    return list(Event.objects.raw(FEED_SQL, params))


def feed_start(after: int) -> tuple[str, str]:
    """Where the feed resumes after position ``after`` (its event's txid, "0" for the start)
    and the feed's mark (_FEED_START), for FEED_SQL's ``txid`` and ``mark`` (PostgreSQL)."""
    if connection.in_atomic_block:
        # The activity a transaction read earlier is kept: it must be read anew, after this
        # statement's snapshot (see _FEED_START).
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_stat_clear_snapshot()")
    txid, mark = prepared_rows(_FEED_START, [after])[0]
    if txid is None and after:
        raise UnknownPosition(after)
    return txid or "0", str(mark)


def txid_of(position: int) -> str:
    if position == 0:
        return "0"
    with connection.cursor() as cursor:
        cursor.execute("SELECT txid::text FROM games_event WHERE position = %s", [position])
        row = cursor.fetchone()
    if row is None:
        raise UnknownPosition(position)
    return str(row[0])
