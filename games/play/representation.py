"""The public JSON shape of games, matches and events (API.md), built from folded state."""

from __future__ import annotations

from typing import Any

from games.rules.events import GAME_FINISHED, GAME_SCORED, UNDO
from games.store import journal
from games.store.folding import Folded
from games.store.journal import StoredEvent
from games.store.models import Game, Match, Stream


def event_json(event: StoredEvent) -> dict[str, Any]:
    return {
        "position": event.position,
        "id": str(event.id),
        "version": event.version,
        "type": event.type,
        "schema_version": event.schema_version,
        "data": event.data,
        "meta": event.meta,
        "recorded_at": event.recorded_at.isoformat().replace("+00:00", "Z"),
        "hash": event.hash,
    }


def undone_move(stream_id: Any) -> StoredEvent | None:
    """The move the stream's last event took back, if that event is a take-back
    (``move.undone``): each take-back takes back the last move still in force, as the fold does
    (games.rules.base.step)."""
    in_force: list[StoredEvent] = []
    taken_back = None
    events = journal.stream_events(stream_id)
    next(events, None)  # the start event: never taken back
    for event in events:
        if event.type == UNDO:
            taken_back = in_force.pop() if in_force else None
        else:
            in_force.append(event)
            taken_back = None
    return taken_back


def game_json(folded: Folded, *, stream_id: Any, status: str) -> dict[str, Any]:
    """The game as API.md shows it; ``status`` is the stream's, at ``folded.version``."""
    rules = folded.game_rules
    state = folded.state
    result = folded.result
    legal = rules.legal_events(state)
    header = folded.header
    return {
        "id": str(stream_id),
        "kind": header["kind"],
        "version": folded.version,
        "status": status,
        "match": header.get("match"),
        "number": header.get("number"),
        "seats": header["seats"],
        "ruleset": header["ruleset"],
        "turn": folded.turn,
        "expected": folded.expected,
        "pot": None,  # a game with a pot gives {"balance", "nets"} in its view
        **rules.view(state),
        "legal_events": None if legal is None else [_move_json(m) for m in legal],
        "scores": folded.scores_json,
        "result": None if result is None else _result_json(result),
    }


def game_status(stream: Stream, folded: Folded) -> str:
    """The status at ``folded.version``: the stream's own if current, else as the rules say."""
    if folded.version == stream.version:
        return str(stream.status)
    return folded.engine.status(folded.state)


def _move_json(move: Any) -> dict[str, Any]:
    # legal_events makes its moves anew for each call: their data is this answer's alone.
    data = move.data
    return {"type": move.type, "data": data if type(data) is dict else dict(data)}


def _result_json(result: Any) -> dict[str, Any]:
    return {
        "totals": [s.total for s in result.scores],
        "winner": list(result.winners),
        "rating": result.rating,
    }


def standing_fields(folded: Folded, status: str) -> dict[str, Any]:
    """A match's games, standing, winner, rating and warnings at ``status`` (the standing read
    model stores exactly this; the match JSON shows it)."""
    rules = folded.match_rules
    standing = rules.standing(folded.state)
    names = {p["seat"]: p["name"] for p in folded.header["players"]}
    for row in standing:
        row["name"] = names.get(row["seat"], "")
    return {
        "format": folded.header["format"],
        "status": status,
        "version": folded.version,
        "games": rules.games(folded.state),
        "standing": standing,
        "winner": [row["seat"] for row in standing if row["rank"] == 1]
        if status != "in_progress"
        else [],
        "rating": rules.rating(folded.state),
        "warnings": rules.warnings(folded.state),
    }


def match_json(match: Match, folded: Folded, settlement: dict[str, Any] | None) -> dict[str, Any]:
    stream = match.stream
    fields = standing_fields(folded, str(stream.status))
    game_ids = dict(Game.objects.filter(match=match).values_list("number", "pk"))
    games = [{**g, "game": _str_or_none(game_ids.get(g["number"]))} for g in fields["games"]]
    return {
        "id": str(stream.pk),
        "format": match.format,
        "entry": match.entry,
        "status": stream.status,
        "version": folded.version,
        "ruleset": folded.header["ruleset"],
        "players": folded.header["players"],
        "games": games,
        "next_game": folded.match_rules.next_game_number(folded.state),
        "expected": _match_expected(folded, match.entry),
        "standing": fields["standing"],
        "winner": fields["winner"],
        "rating": fields["rating"],
        "warnings": folded.match_rules.warnings(folded.state),
        "settlement": settlement,
    }


def _match_expected(folded: Folded, entry: str) -> list[str]:
    """What the table records next on the match: sheet lines, or live games (by the games)."""
    expected = folded.match_rules.expected
    # A live match's games come through the game streams; a sheet match's as game.scored.
    skip = GAME_FINISHED if entry == "sheet" else GAME_SCORED
    return [t for t in expected(folded.state) if t != skip]


def _str_or_none(value: Any) -> str | None:
    return None if value is None else str(value)
