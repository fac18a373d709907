"""The journal: the only code that writes Event rows, by purpose in the modules of this package
(rows and the hash chain, the fast statement, prepared statements, the feed); named here for
every importer.
"""

from games.store.journal.feed import FEED_SQL, UnknownPosition, feed_page, feed_start, txid_of
from games.store.journal.prepared import (
    database,
    fetch_row,
    in_transaction,
    prepared_rows,
    uuid_param,
)
from games.store.journal.rows import (
    CANONICAL_JSON,
    Chained,
    Draft,
    EventIdReused,
    StoredEvent,
    VersionConflict,
    chain_hash,
    event_data,
    events_of,
    find,
    hash_of_texts,
    insert,
    lock_stream,
    new_event,
    read,
    stream_events,
)
from games.store.journal.statement import (
    KEEP_EVERY,
    RECORDER_CONDITION,
    SNAPSHOT_EVERY,
    StreamHead,
    append_unlocked,
    game_head,
    keep_past,
    past_snapshot,
)

__all__ = [
    "CANONICAL_JSON",
    "Chained",
    "Draft",
    "EventIdReused",
    "FEED_SQL",
    "KEEP_EVERY",
    "RECORDER_CONDITION",
    "SNAPSHOT_EVERY",
    "StoredEvent",
    "StreamHead",
    "UnknownPosition",
    "VersionConflict",
    "append_unlocked",
    "chain_hash",
    "database",
    "event_data",
    "events_of",
    "feed_page",
    "feed_start",
    "fetch_row",
    "find",
    "game_head",
    "hash_of_texts",
    "in_transaction",
    "insert",
    "keep_past",
    "lock_stream",
    "new_event",
    "past_snapshot",
    "prepared_rows",
    "read",
    "stream_events",
    "txid_of",
    "uuid_param",
]
