"""Exports for other programs (API.md, docs/API.md "Exports"): a match's or a tournament's events
as NDJSON, a player's finished games with their events (those entered as sheet lines too), the
match list as CSV, and a player's plays in the shape play-logging apps import.

The export shapes are built here from the read models (and, for the NDJSON, the stored events
as the event list shows them); the views in games/api/reads/exports.py parse, check and stream them.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import uuid
from collections import defaultdict
from collections.abc import Iterable, Iterator
from typing import Any

from django.db.models import Q, QuerySet

from games.play.representation import event_json, game_json, game_status
from games.store import folding
from games.store.journal import read
from games.store.models import Event, Game, GameSeat, Match, MatchSeat, Player, Stream
from scoring.documents.reports import FORMULA_LEADS
from scoring.history import sheet_games, timeline
from scoring.models import GameSummary, MatchStanding

FINISHED = ("finished", "settled")
CHUNK = 500

HISTORY_CSV_COLUMNS = (
    "match",
    "format",
    "status",
    "last_played",
    "seat",
    "player",
    "name",
    "match_score",
    "total",
    "games_won",
    "rank",
    "winner",
)


# --- a match's or a tournament's events ---------------------------------------------------------


def match_event_lines(match_id: uuid.UUID) -> Iterator[str]:
    """The match's events and its games' events in position order, one JSON object a line;
    each names its ``stream`` (the match's id or a game's)."""
    games = Game.objects.filter(match_id=match_id).values_list("pk", flat=True)
    return _event_lines([match_id, *games])


def tournament_event_lines(tournament_id: uuid.UUID, visible: Q) -> Iterator[str]:
    """The tournament's events, and those of its tables' matches and their games that the
    reader may see (``visible``, leading to the stream: a table still playing is its
    recorders'), in position order, as ``match_event_lines`` writes them."""
    # The ids listed rather than subqueries in the events' condition: an OR of subqueries
    # walks the whole events table, a list of ids is read by the stream index.
    matches = list(
        Match.objects.filter(visible, tournament_id=tournament_id).values_list("pk", flat=True)
    )
    games = Game.objects.filter(visible, match_id__in=matches).values_list("pk", flat=True)
    return _event_lines([tournament_id, *matches, *games])


def _event_lines(streams: list[uuid.UUID]) -> Iterator[str]:
    """The events of ``streams`` in position order, one JSON object a line with its stream."""
    rows = Event.objects.filter(stream_id__in=streams).order_by("position")
    for row in rows.iterator(chunk_size=1000):
        line = {"stream": str(row.stream_id), **event_json(read(row))}
        yield json.dumps(line, separators=(",", ":")) + "\n"


# --- a player's finished games with their events ---------------------------------------------

# Games read at once: their stream rows and all their events by two queries (a sheet game's
# line and its match's start by one more).
GAMES_AT_ONCE = 100

# A game of the export: a live game's id, or a game entered as a sheet line.
PlayedGame = uuid.UUID | sheet_games.SheetGame


def player_games(
    player_id: int,
    visible: Q,
    match_visible: Q,
    *,
    kind: str | None = None,
    since: dt.datetime | None = None,
    until: dt.datetime | None = None,
    most: int,
) -> list[PlayedGame]:
    """Every game the player played that the reader may see, as his statistics count them:
    his finished games (``visible`` leading to the game's stream; games of live matches
    included) and the games of his sheet matches (``match_visible`` leading to the match's
    stream), in the order they finished (a game's last event, a sheet game's line), at most
    ``most``; ``since``/``until`` bound the finish, ``kind`` the game kind."""
    seated = GameSeat.objects.filter(player=player_id).values("game_id")
    rows = GameSummary.objects.filter(visible, status="finished", game_id__in=seated)
    if kind is not None:
        rows = rows.filter(kind=kind)
    if since is not None:
        rows = rows.filter(updated_at__gte=since)
    if until is not None:
        rows = rows.filter(updated_at__lte=until)
    live = rows.order_by("updated_at", "game_id").values_list("updated_at", "game_id")[:most]
    sheet = sheet_games.player_sheet_games(
        player_id, match_visible, kind=kind, since=since, until=until
    )
    # One order for both: the finish, then the id (a sheet game's match and number).
    ordered: list[tuple[dt.datetime, str, int, PlayedGame]] = [
        *((at, str(game_id), 0, game_id) for at, game_id in live),
        *((game.finished_at, str(game.match), game.number, game) for game in sheet),
    ]
    ordered.sort(key=lambda item: item[:3])
    return [item[3] for item in ordered[:most]]


def games_with_events(games: list[PlayedGame]) -> Iterator[list[dict[str, Any]]]:
    """Each of ``games`` as its line: a live game as ``GET /api/v1/games/{id}/`` shows it, with
    ``events`` as ``GET /api/v1/games/{id}/events/`` lists them; a sheet game as
    ``sheet_games.sheet_lines`` writes it. In batches of GAMES_AT_ONCE: a batch costs two
    queries for its live games (their streams, their events), two for its sheet games, and a
    fold only where a snapshot is behind."""
    for start in range(0, len(games), GAMES_AT_ONCE):
        batch = games[start : start + GAMES_AT_ONCE]
        ids = [game for game in batch if isinstance(game, uuid.UUID)]
        sheet = [game for game in batch if isinstance(game, sheet_games.SheetGame)]
        live = _live_lines(ids) if ids else {}
        lines = sheet_games.sheet_lines(sheet) if sheet else {}
        yield [
            live[game] if isinstance(game, uuid.UUID) else lines[(game.match, game.number)]
            for game in batch
        ]


def _live_lines(ids: list[uuid.UUID]) -> dict[uuid.UUID, dict[str, Any]]:
    streams = Stream.objects.in_bulk(ids)
    events: dict[uuid.UUID, list[dict[str, Any]]] = defaultdict(list)
    for row in Event.objects.filter(stream_id__in=ids).order_by("stream_id", "version"):
        events[row.stream_id].append(event_json(read(row)))
    return {game_id: _game_with_events(streams[game_id], events[game_id]) for game_id in ids}


def _game_with_events(stream: Stream, events: list[dict[str, Any]]) -> dict[str, Any]:
    folded = folding.load(stream)
    game = game_json(folded, stream_id=stream.pk, status=game_status(stream, folded))
    return {**game, "events": events}


# --- the match list as CSV ---------------------------------------------------------------------


def history_csv_lines(rows: QuerySet[MatchStanding]) -> Iterator[str]:
    """One CSV row per seat of each match of ``rows`` (newest first), under a header row."""
    yield _csv_line(HISTORY_CSV_COLUMNS)
    ordered = rows.order_by("-updated_at", "-match_id")
    chunk: list[MatchStanding] = []
    for row in ordered.iterator(chunk_size=CHUNK):
        chunk.append(row)
        if len(chunk) == CHUNK:
            yield from _history_chunk(chunk)
            chunk = []
    yield from _history_chunk(chunk)


def _history_chunk(rows: list[MatchStanding]) -> Iterator[str]:
    players = dict(
        ((str(match_id), seat), player_id)
        for match_id, seat, player_id in MatchSeat.objects.filter(
            match_id__in=[row.match_id for row in rows]
        ).values_list("match_id", "seat", "player_id")
    )
    for row in rows:
        for seat in row.standing:
            yield _csv_line(
                (
                    str(row.match_id),
                    row.format,
                    row.status,
                    row.updated_at.date().isoformat(),
                    seat["seat"],
                    players.get((str(row.match_id), seat["seat"]), ""),
                    seat.get("name", ""),
                    seat.get("match_score", ""),
                    seat.get("total", ""),
                    seat.get("games_won", ""),
                    seat.get("rank", ""),
                    "yes" if seat["seat"] in row.winner else "no",
                )
            )


def _csv_line(cells: Iterable[Any]) -> str:
    """One CSV line; a text cell a spreadsheet would run as a formula is quoted as text."""
    out = io.StringIO()
    csv.writer(out).writerow(
        ["'" + c if isinstance(c, str) and c.startswith(FORMULA_LEADS) else c for c in cells]
    )
    return out.getvalue()


# --- a player's plays --------------------------------------------------------------------------


def player_plays(
    player: Player, query: timeline.Query, visible: Q, match_visible: Q
) -> dict[str, Any]:
    """The player's finished games (outside matches) and matches, newest first, as plays:
    date, kind, every player with his score and win flag, the player's own win flag, and the
    duration from first to last event."""
    finished = Q(status__in=FINISHED)
    page = timeline.player_history(player, query, visible & finished, match_visible & finished)
    games = [row["id"] for row in page["results"] if row["type"] == "game"]
    matches = [row["id"] for row in page["results"] if row["type"] == "match"]
    facts = {**_game_facts(games), **_match_facts(matches)}
    plays = [_play(row, facts[row["id"]], player.pk) for row in page["results"]]
    return {"player": page["player"], "next": page["next"], "plays": plays}


def _game_facts(ids: list[str]) -> dict[str, dict[str, Any]]:
    """Per game: when it started, who sat where, and the winning seats (from its state)."""
    facts: dict[str, dict[str, Any]] = {
        str(game_id): {"started_at": started, "seats": {}, "winners": ()}
        for game_id, started in GameSummary.objects.filter(pk__in=ids).values_list(
            "game_id", "started_at"
        )
    }
    for game_id, seat, player_id, name in GameSeat.objects.filter(game_id__in=ids).values_list(
        "game_id", "seat", "player_id", "player__name"
    ):
        facts[str(game_id)]["seats"][seat] = (player_id, name)
    for stream in Stream.objects.filter(pk__in=ids):
        folded = folding.load(stream)
        result = folded.game_rules.result(folded.state)
        facts[str(stream.pk)]["winners"] = result.winners if result else ()
    return facts


def _match_facts(ids: list[str]) -> dict[str, dict[str, Any]]:
    """Per match: when it started and who sat where (the winners are in its row)."""
    facts: dict[str, dict[str, Any]] = {
        str(match_id): {"started_at": created, "seats": {}}
        for match_id, created in Match.objects.filter(pk__in=ids).values_list(
            "stream_id", "created_at"
        )
    }
    for match_id, seat, player_id, name in MatchSeat.objects.filter(match_id__in=ids).values_list(
        "match_id", "seat", "player_id", "player__name"
    ):
        facts[str(match_id)]["seats"][seat] = (player_id, name)
    return facts


def _play(row: dict[str, Any], facts: dict[str, Any], player_id: int) -> dict[str, Any]:
    if row["type"] == "game":
        scores = {s["seat"]: s["total"] for s in row["scores"]}
        winners = set(facts["winners"])
    else:
        scores = {s["seat"]: s["total"] for s in row["standing"]}
        winners = set(row["winner"])
    players = [
        {
            "seat": seat,
            "player": player,
            "name": name,
            "score": scores.get(seat),
            "win": seat in winners,
        }
        for seat, (player, name) in sorted(facts["seats"].items())
    ]
    return {
        "id": row["id"],
        "type": row["type"],
        "kind": row["kind"],
        "date": row["updated_at"][:10],
        "started_at": facts["started_at"].isoformat(),
        "ended_at": row["updated_at"],
        "duration_seconds": _seconds(facts["started_at"], row["updated_at"]),
        "players": players,
        "win": any(p["win"] for p in players if p["player"] == player_id),
        "url": row["url"],
    }


def _seconds(started: Any, ended: str) -> int | None:
    seconds = (dt.datetime.fromisoformat(ended) - started).total_seconds()
    return int(seconds) if seconds >= 0 else None
