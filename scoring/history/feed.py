"""The all-stream feed as NDJSON, written straight from the rows (``/api/v1/events.ndjson``).

It answers byte for byte what ``json.dumps(event_json(read(row)), separators=(",", ":"))`` would
per event, without building a model, a StoredEvent or a dict per row: rows are read as tuples
through a server-side cursor, and the stored ``data``/``meta`` (jsonb, which the database sends
as text) are passed through once compacted, unless their schema version is old (then upcast).

The order and the never-skip guarantee are the store's: the query is ``games.store.journal``'s own
feed query (events of finished transactions only, in (txid, position) order), run page after page as
``journal.feed_page`` is, until a page comes back short.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from json.encoder import encode_basestring_ascii
from typing import Any

from django.db import connection, transaction

from games.play.representation import event_json
from games.store import event_types as event_types
from games.store import journal

# Rows a feed query asks for at once (journal.feed_page's pages, only larger), and rows fetched
# from the server-side cursor per round trip (also the lines written per chunk).
PAGE = 20_000
FETCH = 1_000

# Python's json writes a float below 1e-4 with an exponent, where the database writes its
# digits; text holding a "." goes the slow way, as does text Python would escape.
_SLOW = ("\\", ".")


def position_known(after: int) -> None:
    """Raise ``journal.UnknownPosition`` unless ``after`` is 0 or an event's position."""
    if after and connection.vendor == "postgresql":
        journal.txid_of(after)


def lines(after: int) -> Iterator[str]:
    """The feed after position ``after`` up to the present, as chunks of NDJSON lines."""
    if connection.vendor != "postgresql":
        yield from _lines_of_models(after)
        return
    while True:
        count = 0
        for chunk in _page(after):
            count += len(chunk)
            after = chunk[-1][0]
            yield "".join(_line(row) for row in chunk)
        if count < PAGE:
            return


def _page(after: int) -> Iterator[list[tuple[Any, ...]]]:
    """One feed query's rows in chunks, read through a server-side cursor (which lives only
    inside a transaction: one short transaction per page, so none stays open for the stream)."""
    txid, mark = journal.feed_start(after)
    params: dict[str, int | str] = {"txid": txid, "mark": mark, "after": after, "limit": PAGE}
    with transaction.atomic(), connection.chunked_cursor() as cursor:
        cursor.execute(journal.FEED_SQL, params)
        while chunk := cursor.fetchmany(FETCH):
            yield chunk


def _line(row: tuple[Any, ...]) -> str:
    position, id, _stream, version, type, schema_version, data, meta, recorded_at, hash = row
    if schema_version < _current(type):
        data = _dumps(event_types.upcast(type, json.loads(data), schema_version))
    else:
        data = _compact(data)
    return (
        f'{{"position":{position},"id":"{id}","version":{version},"type":{_string(type)},'
        f'"schema_version":{schema_version},"data":{data},"meta":{_compact(meta)},'
        f'"recorded_at":"{recorded_at.isoformat().replace("+00:00", "Z")}",'
        f'"hash":{_string(hash)}}}\n'
    )


_CURRENT: dict[str, int] = {}


def _current(type: str) -> int:
    version = _CURRENT.get(type)
    if version is None:
        version = _CURRENT[type] = event_types.current_version(type)
    return version


def _string(value: str | None) -> str:
    return "null" if value is None else str(encode_basestring_ascii(value))


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _compact(text: str) -> str:
    """jsonb's text (``{"a": 1, "b": [2, 3]}``) as Python's compact json writes it.

    The database writes ", " and ": " between items outside strings and escapes every quote
    inside one, so between the quotes' split points the separators can simply be closed up.
    """
    if not text.isascii() or any(mark in text for mark in _SLOW):
        return _dumps(json.loads(text))
    parts = text.split('"')
    parts[::2] = [part.replace(", ", ",").replace(": ", ":") for part in parts[::2]]
    return '"'.join(parts)


def _lines_of_models(after: int) -> Iterator[str]:
    """SQLite (the demo's single writer): the store's own pages, positions commit in order."""
    while True:
        page = journal.feed_page(after, PAGE)
        if page:
            yield "".join(_dumps(event_json(journal.read(row))) + "\n" for row in page)
        if len(page) < PAGE:
            return
        after = page[-1].position
