"""Prepared statements on the database connection's own psycopg connection: the fast statement's
and the reads that would otherwise compile a queryset per request.
"""

from __future__ import annotations

import uuid
from typing import Any

import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections

from games.store import event_types as event_types


def uuid_param(value: uuid.UUID) -> Any:
    """A uuid as a written statement binds it: itself on PostgreSQL, its hex text on SQLite (as
    Django stores a UUIDField there)."""
    return value if connection.vendor == "postgresql" else uuid.UUID(str(value)).hex


def prepared_rows(sql: str, params: Any) -> list[tuple[Any, ...]]:
    """The statement's rows, through Django's cursor wrapper (logged and counted as any query).

    On PostgreSQL as a server-side prepared statement on the persistent connection, for the
    statements read on every request (the token's, a history's, the match list's): planning
    their joins cost as much as running them, and they have a few fixed shapes. Django binds
    client-side and switches preparing off for the connection (prepare_threshold None), so it
    is switched on for this call only, as for the append (``fetch_row``)."""
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows: list[tuple[Any, ...]] = cursor.fetchall()
            return rows
    connection.ensure_connection()
    raw = connection.connection
    threshold, raw.prepare_threshold = raw.prepare_threshold, 0
    try:
        logged = connection.queries_logged
        wrap = connection.make_debug_cursor if logged else connection.make_cursor
        inner: Any = psycopg.Cursor(raw)  # server-side binding, which can prepare
        with wrap(inner) as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        if logged and connection.queries_log and connection.queries_log[-1]["sql"] is None:
            # A prepared statement's text is not kept by the cursor: log it as bound.
            ops: Any = connection.ops
            connection.queries_log[-1]["sql"] = ops.compose_sql(sql, params)
        return rows
    finally:
        raw.prepare_threshold = threshold


def fetch_row(sql: str, params: dict[str, Any]) -> tuple[Any, ...] | None:
    # A server-side prepared statement: planning this CTE costs half as much as running it.
    # Django's cursors bind client-side and switch preparing off for the whole connection
    # (prepare_threshold None), so it is switched on for this one call only.
    db = database()
    db.ensure_connection()
    raw = db.connection
    cursor = _cursor(db, raw)
    threshold, raw.prepare_threshold = raw.prepare_threshold, 0
    try:
        with db.wrap_database_errors:
            cursor.execute(sql, params, prepare=True)
            return cursor.fetchone()
    finally:
        raw.prepare_threshold = threshold


def in_transaction() -> bool:
    """Whether this thread's connection is inside a transaction a caller holds."""
    return bool(database().in_atomic_block)


def database() -> Any:
    """This thread's default database connection. ``django.db.connection`` finds it anew on
    every attribute (2 µs each, five in an append); the fast path looks it up once."""
    return connections[DEFAULT_DB_ALIAS]


def _cursor(db: Any, raw: psycopg.Connection[Any]) -> psycopg.Cursor[Any]:
    """A psycopg cursor (server-side binding, which can prepare) kept with the thread's database
    connection for as long as it holds the same psycopg connection: one cursor for every
    append, not one made and closed for each."""
    kept: tuple[Any, psycopg.Cursor[Any]] | None = getattr(db, "_append_cursor", None)
    if kept is None or kept[0] is not raw or kept[1].closed:
        kept = raw, psycopg.Cursor(raw)
        db._append_cursor = kept
    return kept[1]
