"""The games a player played at sheet matches: each line of a score sheet is a game.

A sheet match (``entry="sheet"``) has no game streams: each game is a ``game.scored`` line in the
match's own stream, and the match rules' games (the standing read model's ``games``, rows with no
``game`` id) are what the lines add up to. His statistics and his games export both read them
here, from the same rows, so both count the same games for the same reader.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet

from games.play.representation import event_json
from games.rules.events import GAME_SCORED, RESULT_CONFIRMED, UNDO
from games.store.journal import read
from games.store.models import Event, MatchSeat
from scoring.models import MatchStanding

SHEET = "sheet"


def standings(player_id: int, visible: Q) -> QuerySet[MatchStanding]:
    """The standings of the sheet matches the player sat in that the reader may see
    (``visible``, leading to the match's stream), whatever their status: a line entered is a
    game played, as a live match's finished game is."""
    seated = MatchSeat.objects.filter(player=player_id).values("match_id")
    return MatchStanding.objects.filter(visible, match__entry=SHEET, match_id__in=seated)


def games_of(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A match's games (its standing's ``games``) entered as sheet lines: those with no game
    stream (``game`` null), in their order (``number``)."""
    return [game for game in games if game.get("game") is None]


def winners(row: dict[str, Any]) -> list[int]:
    """The seats that won a sheet game: the match rules' for its line; a one-seat game (a
    Solitaire sheet, whose rows name no winner) is won by finishing it, as a live one is."""
    if "winners" in row:
        return list(row["winners"])
    return [0] if len(row["scores"]) == 1 else []


def seats_held(player_id: int, matches: QuerySet[MatchStanding]) -> dict[uuid.UUID, list[int]]:
    """The seats the player held at each of ``matches`` (one query)."""
    held: dict[uuid.UUID, list[int]] = defaultdict(list)
    rows = MatchSeat.objects.filter(player=player_id, match_id__in=matches.values("match_id"))
    for match_id, seat in rows.order_by().values_list("match_id", "seat"):
        held[match_id].append(seat)
    return held


# --- the lines of the export -------------------------------------------------------------------


@dataclass(frozen=True)
class SheetGame:
    """One game of a sheet match: its match, number, kind, the rules' row for it (scores,
    winners), when its line was entered and that line's event's position. Should the standing
    hold more sheet games than the events lines (a read model behind its events), the extra
    ones still count, at the standing's time and with no event, so that the export and the
    statistics never differ."""

    match: uuid.UUID
    number: int
    kind: str
    row: dict[str, Any]
    finished_at: dt.datetime
    position: int | None


def player_sheet_games(
    player_id: int,
    visible: Q,
    *,
    kind: str | None = None,
    since: dt.datetime | None = None,
    until: dt.datetime | None = None,
) -> list[SheetGame]:
    """The games of ``standings`` the reader may see, each with its line's time; ``kind`` and
    ``since``/``until`` (inclusive, on the line's time) narrow them. Two queries: the standings,
    and their events' numbers, types and times (not their data)."""
    rows = standings(player_id, visible)
    if kind is not None:
        rows = rows.filter(format=kind)
    if since is not None:  # a match's last event is at or after each of its lines
        rows = rows.filter(updated_at__gte=since)
    matches = {
        match_id: (format, games_of(games), updated_at)
        for match_id, format, games, updated_at in rows.values_list(
            "match_id", "format", "games", "updated_at"
        )
    }
    lines = _lines_in_force(matches)
    found = []
    for match_id, (format, games, updated_at) in matches.items():
        entered = lines.get(match_id, [])
        for index, row in enumerate(games):
            at, position = entered[index] if index < len(entered) else (updated_at, None)
            if (since is None or at >= since) and (until is None or at <= until):
                found.append(SheetGame(match_id, row["number"], format, row, at, position))
    return found


def _lines_in_force(
    matches: dict[uuid.UUID, Any],
) -> dict[uuid.UUID, list[tuple[dt.datetime, int]]]:
    """Per match, the time and position of each sheet line still in force, in order: a
    take-back (``move.undone``) takes back the last event in force, as the fold does, and a
    table's ``result.confirmed`` takes no place among them."""
    in_force: dict[uuid.UUID, list[tuple[str, dt.datetime, int]]] = defaultdict(list)
    events = (
        Event.objects.filter(stream_id__in=list(matches), version__gt=1)
        .order_by("stream_id", "version")
        .values_list("stream_id", "type", "recorded_at", "position")
    )
    for stream_id, type, recorded_at, position in events.iterator(chunk_size=2000):
        stack = in_force[stream_id]
        if type == UNDO:
            if stack:
                stack.pop()
        elif type != RESULT_CONFIRMED:
            stack.append((type, recorded_at, position))
    return {
        match_id: [(at, position) for type, at, position in stack if type == GAME_SCORED]
        for match_id, stack in in_force.items()
    }


def sheet_lines(games: list[SheetGame]) -> dict[tuple[uuid.UUID, int], dict[str, Any]]:
    """Each of ``games`` as the export writes it, keyed by (match, number): the fields of a
    live game's line, those a sheet cannot know null, and the sheet line's own (API.md). Two
    queries: the lines' events and their matches' start events (players, house rules)."""
    positions = [game.position for game in games if game.position is not None]
    matches = {game.match for game in games}
    events = Event.objects.filter(Q(position__in=positions) | Q(stream_id__in=matches, version=1))
    by_position, headers = {}, {}
    for row in events:
        if row.version == 1:
            headers[row.stream_id] = row.data
        else:
            by_position[row.position] = event_json(read(row))
    return {
        (game.match, game.number): _line(game, headers.get(game.match, {}), by_position)
        for game in games
    }


def _line(game: SheetGame, header: dict[str, Any], events: dict[int, Any]) -> dict[str, Any]:
    players = [
        {"seat": p["seat"], "player": p["player"], "name": p["name"]}
        for p in header.get("players", [])
    ]
    scores = game.row["scores"]
    won = winners(game.row)
    return {
        "id": None,  # no game stream of its own
        "kind": game.kind,
        "version": None,
        "status": "finished",
        "match": str(game.match),
        "number": game.number,
        "seats": players,
        "ruleset": header.get("ruleset", {}),
        "turn": None,
        "expected": [],
        "pot": None,
        "legal_events": None,
        "scores": [
            {"seat": seat, "points": total, "bonuses": [], "total": total}
            for seat, total in enumerate(scores)
        ],
        "result": {"totals": scores, "winner": won, "rating": None},
        "game": game.number,
        "entry": SHEET,
        "finished_at": game.finished_at.isoformat().replace("+00:00", "Z"),
        "players": players,
        "winner": won,
        "events": [events[game.position]] if game.position in events else [],
    }
