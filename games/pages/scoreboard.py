"""The room's scoreboard: its change tag in one query, and its figures when the tag has moved.

A screen polls the board every second with the tag it has (``If-None-Match``). The tag is made of
the versions of the tournament's stream and of every stream of its current round (the matches and
their games): any recorded event raises one of them, so their sum moves on every change, and the
answer is 304 without folding anything. Their heads (chain hashes) are in it too: after a restore
from a backup, the same versions may be reached again by other events. Only when something
changed is the tournament folded and the board drawn again, from the read models (MatchStanding,
GameSummary) and the tournament API's builders.

The tag's figures are kept in the shared cache (games.store.shared_cache: Redis where it is
configured) for TAG_TTL_S, so 100 screens of one room ask PostgreSQL a few times a second in all
instead of 100 times: a poll that finds the figures cached touches no database. A move shows on
the screens at worst one poll interval (1 s) plus TAG_TTL_S plus one render later, within the 2 s
asked.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from typing import Any

from django.db import connection

from games.pages import sheet_presenting
from games.store import folding, shared_cache
from games.store.models import Game, Match, Stream, Tournament
from games.tournaments.shapes import round_json, standings_json, tournament_json
from scoring import selectors
from scoring.models import GameSummary, MatchStanding

TAG_TTL_S = 0.5
TAG_KEEP_S = 5


def _tag_sql() -> str:
    """The tag's query: the tournament's row, and two sums over its current round's streams,
    of their versions and of their heads (``selectors.heads_sum``: after a restore from a
    backup, versions are reached again by other events); and its season, which its page links."""
    stream, match, game = (m._meta.db_table for m in (Stream, Match, Game))
    tournament = Tournament._meta.db_table
    round_of = "m.tournament_id = t.stream_id AND m.round_number = t.current_round"
    heads = selectors.heads_sum("s.head_hash")
    return (
        f"SELECT ts.version, t.current_round, t.published, ts.head_hash, t.season_id,"
        f" (SELECT COALESCE(SUM(s.version), 0) FROM {match} m"
        f"  JOIN {stream} s ON s.id = m.stream_id WHERE {round_of}),"
        f" (SELECT {heads} FROM {match} m"
        f"  JOIN {stream} s ON s.id = m.stream_id WHERE {round_of}),"
        f" (SELECT COALESCE(SUM(s.version), 0) FROM {match} m"
        f"  JOIN {game} g ON g.match_id = m.stream_id"
        f"  JOIN {stream} s ON s.id = g.stream_id WHERE {round_of}),"
        f" (SELECT {heads} FROM {match} m"
        f"  JOIN {game} g ON g.match_id = m.stream_id"
        f"  JOIN {stream} s ON s.id = g.stream_id WHERE {round_of})"
        f" FROM {tournament} t JOIN {stream} ts ON ts.id = t.stream_id WHERE t.stream_id = %s"
    )


TAG_SQL = _tag_sql()


def change_tag(pk: uuid.UUID, user: Any) -> str | None:
    """The board's ETag, or None when there is no such tournament for ``user``: one he may not
    read is not there, as in the API (``selectors.tournament_hidden``; no query for a published
    one)."""
    found = _tag_figures(pk)
    if found is None:
        return None
    version, current, published, *heads = found
    if selectors.tournament_hidden(user, pk, published):
        return None
    # The heads prove the content; the version stays readable in the tag.
    proof = hashlib.sha256(repr(heads).encode()).hexdigest()[:24]
    return f'W/"board-{version}-{current}-{int(published)}-{proof}"'


def _tag_figures(pk: uuid.UUID) -> tuple[Any, ...] | None:
    """The tag's figures, from the cache while they are younger than TAG_TTL_S."""
    key = _tag_key(pk)
    cached = shared_cache.kept(key)  # a cache that cannot answer only costs the query
    # Kept with the time they were read: Django's Redis cache expires keys in whole seconds only.
    if cached is not None and time.time() - cached[0] < TAG_TTL_S:
        return tuple(cached[1]) if cached[1] else None
    found = _tag_query(pk)
    # An unknown tournament is kept too (as []), so probing ids costs no query either.
    shared_cache.keep(key, (time.time(), list(found) if found else []), TAG_KEEP_S)
    return found


def _tag_key(pk: Any) -> str:
    return f"board-tag:{pk}"


def forget_tag(tournament_id: Any) -> None:
    """Drop the kept figures of a tournament published or unpublished (``reactions.PUBLICATION``):
    its tag holds ``published``, and a board must not be shown for TAG_TTL_S more to a reader
    who may no longer read it."""
    shared_cache.forget(_tag_key(tournament_id))


def _tag_query(pk: uuid.UUID) -> tuple[Any, ...] | None:
    """One query, written out once: the ORM's compiling of two correlated subqueries cost more
    than the query itself."""
    with connection.cursor() as cursor:
        cursor.execute(TAG_SQL, [Stream._meta.pk.get_db_prep_value(pk, connection)])
        found = cursor.fetchone()
    return None if found is None else tuple(found)


def board(pk: uuid.UUID) -> dict[str, Any]:
    """The whole room's board: every table of the current round, and the standings, laid out
    in columns and pages for the room's screen (``screens``)."""
    tournament = Tournament.objects.select_related("stream").get(pk=pk)
    folded = folding.load(tournament.stream)
    shown = tournament_json(folded, pk)
    state = folded.state
    played = round_json(state, shown["round"]) if shown["round"] else None
    standings = standings_json(state)
    rows = [
        {**row, "shown": _shown(row), "points": sheet_presenting.figure(row["points"])}
        for row in standings["rows"]
    ]
    current = _round(played) if played else None
    return {
        "tournament": {**shown, "format_label": sheet_presenting.label(shown["format"])},
        "round": current,
        "standings_round": standings["round"],
        # The game column shows while a live game is played at some table (sheets have none).
        "live_games": bool(current and any(t["game"] for t in current["tables"])),
        "standings": rows,
        **screens(_table_items(current), rows),
    }


# --- the room's screen: columns of rows, pages that turn ---------------------------------------

# (columns, rows in a column) from the largest type to the smallest: the board takes the first that
# holds it on one screen, else the last, in pages that turn by themselves. A row is a seat at a
# table or a line of the standings; each column has one more for its heading. On a 16:9 screen the
# last gives rows of 1/17 of the board's height (54 px on 1080) and 4 x 16 standings lines a page.
DENSITIES = ((2, 9), (3, 12), (4, 16))
# Long enough to find one's name in four columns of sixteen, short enough to come round again.
TURN_SECONDS = 12


def screens(tables: list[dict[str, Any]], standings: list[dict[str, Any]]) -> dict[str, Any]:
    """The board's pages, each a list of columns (``tables`` or ``standings``), and the layout
    (columns across, rows down) the room's stylesheet sizes the type from."""
    for across, down in DENSITIES:
        columns = _table_columns(tables, down) + _standings_columns(standings, down)
        if len(columns) <= across:
            return {"layout": {"columns": across, "rows": down + 1}, "pages": [columns]}
    # Too many for one screen: the tables' pages, then the standings', each page full across.
    pages = []
    for part in (_table_columns(tables, down), _standings_columns(standings, down)):
        pages += [part[first : first + across] for first in range(0, len(part), across)]
    return {"layout": {"columns": across, "rows": down + 1}, "pages": pages}


def _table_columns(items: list[dict[str, Any]], down: int) -> list[dict[str, Any]]:
    """The round's tables (and byes) in columns, a table never split, as even as they pack."""
    heights = [min(item["height"], down) for item in items]
    if not items:
        return []
    count = len(_packed(heights, down))
    even = max(-(-sum(heights) // count), max(heights))
    packs = _packed(heights, even)
    if len(packs) > count:
        packs = _packed(heights, down)
    return [{"kind": "tables", "items": [items[i] for i in pack]} for pack in packs]


def _packed(heights: list[int], capacity: int) -> list[list[int]]:
    """Indexes of the items in order, a new column whenever the next would not fit."""
    packs: list[list[int]] = [[]]
    used = 0
    for index, height in enumerate(heights):
        if packs[-1] and used + height > capacity:
            packs.append([])
            used = 0
        packs[-1].append(index)
        used += height
    return packs


def _standings_columns(rows: list[dict[str, Any]], down: int) -> list[dict[str, Any]]:
    """The standings in columns of equal length, read down then across."""
    if not rows:
        return []
    count = -(-len(rows) // down)
    each = -(-len(rows) // count)
    return [
        {"kind": "standings", "rows": rows[start : start + each]}
        for start in range(0, len(rows), each)
    ]


def _table_items(current: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The current round's tables as the board's column items (a row per seat), then its byes."""
    if current is None:
        return []
    tables = [{**t, "kind": "table", "height": max(len(t["seats"]), 1)} for t in current["tables"]]
    byes = [
        {
            "kind": "bye",
            "height": 1,
            "shown": _shown(bye),
            "points": sheet_presenting.figure(bye["points"]),
        }
        for bye in current["byes"]
    ]
    return tables + byes


def _shown(named: dict[str, Any]) -> str:
    """A player as the room tells him apart: his label where there is one, else his name."""
    return str(named.get("label") or named.get("name") or "")


def table_board(pk: uuid.UUID, number: int) -> dict[str, Any] | None:
    """One table of the current round, with its games and the game being played."""
    room = board(pk)
    tables = room["round"]["tables"] if room["round"] else []
    table = next((t for t in tables if t["table"] == number), None)
    if table is None:
        return None
    return {**room, "table": table, "games": _games(table)}


def _round(played: dict[str, Any]) -> dict[str, Any]:
    """The round's tables, each with its match's live totals and the game in play."""
    matches = [t["match"] for t in played["tables"] if t["match"]]
    standing = {str(s.match_id): s for s in MatchStanding.objects.filter(match_id__in=matches)}
    playing = _games_in_play(matches)
    missing = set(played["missing"])
    tables = []
    for table in played["tables"]:
        row = standing.get(table["match"] or "")
        totals = {s["seat"]: s.get("total") for s in row.standing} if row else {}
        game = playing.get(table["match"] or "")
        tables.append(
            {
                **table,
                "playing": table["table"] in missing,
                "games_played": len(row.games) if row else 0,
                "seats": [_seat(seat, totals, game) for seat in table["seats"]],
                "game": game,
                "standing_row": row,
            }
        )
    return {**played, "tables": tables}


def _seat(seat: dict[str, Any], totals: dict[int, Any], game: dict[str, Any] | None) -> Any:
    live = game["scores"].get(seat["seat"]) if game else None
    on_turn = game is not None and game["turn"] == seat["seat"]
    return {
        **seat,
        "shown": _shown(seat),
        "total": totals.get(seat["seat"], 0),
        "live": live,
        "on_turn": on_turn,
    }


def _games_in_play(matches: list[str]) -> dict[str, dict[str, Any]]:
    """Per match, its latest game still in progress: number, kind, turn, per-seat totals."""
    found: dict[str, dict[str, Any]] = {}
    rows = GameSummary.objects.filter(match_id__in=matches, status=Stream.Status.IN_PROGRESS)
    for summary in rows.order_by("number"):
        found[str(summary.match_id)] = {
            "id": summary.game_id,
            "number": summary.number,
            "kind": sheet_presenting.label(summary.kind),
            "turn": summary.turn,
            "scores": {s["seat"]: s.get("total") for s in summary.scores or []},
        }
    return found


def _games(table: dict[str, Any]) -> list[dict[str, Any]]:
    """The table's games as the sheet writes them: score - cumulative per seat."""
    row = table["standing_row"]
    if row is None:
        return []
    return [
        {
            "number": game["number"],
            "cells": [
                {"score": s, "cumulative": c}
                for s, c in zip(game["scores"], game["cumulative"], strict=True)
            ],
        }
        for game in row.games
    ]
