"""The public JSON shape of games, matches and events (API.md), built from folded state."""

from __future__ import annotations

from typing import Any

from games.folding import Folded
from games.models import Game, Match, Stream
from games.store import StoredEvent


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


def game_json(folded: Folded, *, stream_id: Any, status: str) -> dict[str, Any]:
    """The game as API.md shows it; ``status`` is the stream's, at ``folded.version``."""
    rules = folded.engine.rules
    state = folded.state
    result = rules.result(state)
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
        "turn": rules.current_player(state),
        "expected": rules.expected(state),
        "pot": None,  # a game with a pot gives {"balance", "nets"} in its view
        **rules.view(state),
        "legal_events": None if legal is None else [_move_json(m) for m in legal],
        "scores": [s.as_dict() for s in rules.scores(state)],
        "result": None if result is None else _result_json(result),
    }


def game_status(stream: Stream, folded: Folded) -> str:
    """The status at ``folded.version``: the stream's own if current, else as the rules say."""
    if folded.version == stream.version:
        return str(stream.status)
    return "finished" if folded.engine.rules.is_terminal(folded.state) else "in_progress"


def _move_json(move: Any) -> dict[str, Any]:
    return {"type": move.type, "data": dict(move.data)}


def _result_json(result: Any) -> dict[str, Any]:
    return {
        "totals": [s.total for s in result.scores],
        "winner": list(result.winners),
        "rating": result.rating,
    }


def match_json(match: Match, folded: Folded, settlement: dict[str, Any] | None) -> dict[str, Any]:
    from scoring.projections.match_standing import standing_fields

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
        "next_game": folded.engine.rules.next_game_number(folded.state),
        "expected": _match_expected(folded, match.entry),
        "standing": fields["standing"],
        "winner": fields["winner"],
        "rating": fields["rating"],
        "warnings": folded.engine.rules.warnings(folded.state),
        "settlement": settlement,
    }


def _match_expected(folded: Folded, entry: str) -> list[str]:
    """What the table records next on the match: sheet lines, or live games (by the games)."""
    expected = folded.engine.rules.expected
    # A live match's games come through the game streams; a sheet match's as game.scored.
    skip = "game.finished" if entry == "sheet" else "game.scored"
    return [t for t in expected(folded.state) if t != skip]


def _str_or_none(value: Any) -> str | None:
    return None if value is None else str(value)
