"""How a table page follows its stream: a poll with the page's tag, answered 304 while nothing
it shows has changed.

A game's or a match's page shows more than its own stream: a game's page shows who may record
(its match's keepers, its tournament's table), a match's page its games and, at a tournament's
table, the result the tournament took and who agreed to it. So a page's tag names the heads of
the whole family in one query: the stream, its match (itself for a match) and the match's games,
and its tournament. Any event recorded in any of them moves the tag; nothing else does. The heads
(chain hashes) prove the content, as the API's ETags do: after a restore from a backup, the same
versions reached by other events give another tag.

The tag names the reader too: the same page draws other controls for a recorder than for a
visitor. The poll is read only after the reader's permission (``selectors.stream_readable``), so
a 304 never tells anything to someone who may not read the page.
"""

from __future__ import annotations

import hashlib
from typing import Any, TypeVar

from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase

from games.store.models import Game, Stream
from scoring import selectors

_Answer = TypeVar("_Answer", bound=HttpResponseBase)

# Revalidated on every poll; kept out of shared caches (the page names its reader).
CACHE_CONTROL = "private, no-cache"


def _family_sql() -> str:
    stream, game = Stream._meta.db_table, Game._meta.db_table
    heads = selectors.heads_sum("gs.head_hash")
    match_of = "COALESCE(sg.match_id, CASE WHEN s.category = 'match' THEN s.id END)"
    return (
        f"SELECT s.version, s.head_hash, m.version, m.head_hash,"
        f" (SELECT COALESCE(SUM(gs.version), 0) FROM {game} g"
        f"  JOIN {stream} gs ON gs.id = g.stream_id WHERE g.match_id = m.id),"
        f" (SELECT {heads} FROM {game} g"
        f"  JOIN {stream} gs ON gs.id = g.stream_id WHERE g.match_id = m.id),"
        f" t.version, t.head_hash"
        f" FROM {stream} s"
        f" LEFT JOIN {game} sg ON sg.stream_id = s.id"
        f" LEFT JOIN {stream} m ON m.id = {match_of}"
        f" LEFT JOIN {stream} t ON t.id = s.in_tournament_id"
        f" WHERE s.id = %s"
    )


FAMILY_SQL = _family_sql()


def stream_tag(stream: Stream, user: Any) -> str:
    """The tag of a game's or a match's page for ``user``, from one query."""
    with connection.cursor() as cursor:
        cursor.execute(FAMILY_SQL, [Stream._meta.pk.get_db_prep_value(stream.pk, connection)])
        found = cursor.fetchone()
    return _tag("page", found[0] if found else 0, (found, _reader(user)))


def tournament_tag(board_tag: str, user: Any) -> str:
    """The tag of a tournament's page: its scoreboard's (the tournament and its current round's
    streams, kept in the shared cache) for ``user``."""
    return _tag("tournament", 0, (board_tag, _reader(user)))


def season_tag(fingerprint: str, user: Any) -> str:
    """The tag of a season's page: its standings' fingerprint (the season's, its evenings' and
    the register's heads, as this reader may read them) for ``user``."""
    return _tag("season", 0, (fingerprint, _reader(user)))


def _reader(user: Any) -> Any:
    return user.pk if user is not None and user.is_authenticated else None


def _tag(kind: str, version: Any, parts: Any) -> str:
    proof = hashlib.sha256(repr(parts).encode()).hexdigest()[:24]
    return f'W/"{kind}-{version}-{proof}"'


def unchanged(request: HttpRequest, tag: str) -> bool:
    """Whether the poll's ``If-None-Match`` holds ``tag`` (compared weakly)."""
    sent = request.headers.get("If-None-Match", "")
    return tag.removeprefix("W/") in [part.strip().removeprefix("W/") for part in sent.split(",")]


def not_modified(tag: str) -> HttpResponse:
    return tagged(HttpResponse(status=304), tag)


def tagged(response: _Answer, tag: str) -> _Answer:
    response["ETag"] = tag
    response["Cache-Control"] = CACHE_CONTROL
    return response


def followed(request: HttpRequest, response: _Answer, tag: str) -> _Answer:
    """A page's answer: tagged for its poll (a conditional request). A page opened by a person
    carries its tag in the page alone: a browser revalidating it on a reload would be answered
    304 and show its kept copy, without the sentence a form's redirect left for it."""
    if "If-None-Match" in request.headers:
        return tagged(response, tag)
    return response
