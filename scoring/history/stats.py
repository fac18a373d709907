"""A player's statistics (API.md "Players": ``GET /api/v1/players/{id}/stats/``), per game kind.

Read from the read models only, in a fixed number of queries whatever the player has played
(six: his games' seats, their summaries, his bonuses, his matches' seats with their standings,
his sheet matches' standings and his seats at them):

- ``games``: finished games of the kind he sat in (those of live matches included), and the games
  of sheet matches, a sheet line each (``scoring.history.sheet_games``, which his games export
  reads too): played, won (his total is the table's highest; every seat level on it wins, and a
  one-seat game such as Solitaire is won by finishing it, as the rules' results say; a sheet
  game's winners are the match rules' for its line), and his average and best total;
- ``matches``: finished or settled matches of the format: played, won (his seat is among the
  standing's winners), average and best match total;
- ``bonuses``: the bonuses he scored in those games, by kind (how many, how many points);
- ``ratings``: Solitaire's ratings (RULES.md 2.6) of his games and matches, by rating;
- ``head_to_head``: each opponent met in those matches and in games outside matches, with his
  wins, losses and draws (both or neither among the winners) against him.

What the reader may see is what is counted (``selectors.visible``), as in the history.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import F, Q

from games.store.models import GameSeat, MatchSeat, Player
from scoring.history import sheet_games
from scoring.models import BonusAward, GameSummary, MatchStanding

FINISHED_GAME = ("finished",)
FINISHED_MATCH = ("finished", "settled")


@dataclass
class Meeting:
    """One finished game or match: the seats' players and names, and the winning seats."""

    seats: dict[int, tuple[int, str]]  # seat -> (player id, name)
    winners: set[int]


@dataclass
class Kind:
    """What is counted for one kind: the player's totals and wins, bonuses, ratings, rivals."""

    game_totals: list[float] = field(default_factory=list)
    games_won: int = 0
    match_totals: list[float] = field(default_factory=list)
    matches_won: int = 0
    bonuses: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    ratings: Counter[str] = field(default_factory=Counter)
    rivals: dict[int, dict[str, Any]] = field(default_factory=dict)


def player_stats(player: Player, visible: Q, match_visible: Q) -> dict[str, Any]:
    """The player's statistics per kind, sorted by kind."""
    kinds: dict[str, Kind] = defaultdict(Kind)
    _count_games(player.pk, visible, kinds)
    _count_sheet_games(player.pk, match_visible, kinds)
    _count_matches(player.pk, match_visible, kinds)
    return {
        "player": {"id": player.pk, "name": player.name},
        "kinds": [_kind_json(name, kinds[name]) for name in sorted(kinds)],
    }


def _count_games(player_id: int, visible: Q, kinds: dict[str, Kind]) -> None:
    summaries = GameSummary.objects.filter(
        visible, status__in=FINISHED_GAME, game__seats__player=player_id
    )
    meetings = _seats_of(
        GameSeat.objects.filter(game__in=summaries.values("game_id")).values_list(
            "game_id", "seat", "player_id", "player__name"
        )
    )
    for row in summaries.values("game_id", "kind", "match_id", "scores", "rating"):
        meeting = meetings[row["game_id"]]
        totals = {score["seat"]: score["total"] for score in row["scores"]}
        meeting.winners = _best_seats(totals)
        kind = kinds[row["kind"]]
        for seat in _seats_held(meeting, player_id):
            kind.game_totals.append(totals.get(seat, 0))
            kind.games_won += seat in meeting.winners
        if row["rating"]:
            kind.ratings[row["rating"]] += 1
        if row["match_id"] is None:  # a live match's games meet in the match itself
            _meet(kind, meeting, player_id)
    bonuses = BonusAward.objects.filter(
        game__in=summaries.values("game_id"),
        game__game__seats__player=player_id,
        # the same seat row as the player's: only his own bonuses
        game__game__seats__seat=F("seat"),
    )
    for kind_name, bonus, points in bonuses.values_list("game__kind", "kind", "points"):
        kinds[kind_name].bonuses[bonus].append(points)


def _count_sheet_games(player_id: int, visible: Q, kinds: dict[str, Kind]) -> None:
    """The games of his sheet matches the reader may see, whatever the match's status: each
    line entered is a game played. They meet in the match itself (head to head), as a live
    match's games do; a sheet gives totals only, so no bonus and no rating of a game."""
    rows = sheet_games.standings(player_id, visible)
    held = sheet_games.seats_held(player_id, rows)
    for match_id, format, games in rows.values_list("match_id", "format", "games"):
        kind = kinds[format]
        for game in sheet_games.games_of(games):
            for seat in held[match_id]:
                kind.game_totals.append(game["scores"][seat])
                kind.games_won += seat in sheet_games.winners(game)


def _count_matches(player_id: int, visible: Q, kinds: dict[str, Kind]) -> None:
    standings = MatchStanding.objects.filter(
        visible, status__in=FINISHED_MATCH, match__seats__player=player_id
    )
    meetings = _seats_of(
        MatchSeat.objects.filter(match__in=standings.values("match_id")).values_list(
            "match_id", "seat", "player_id", "player__name"
        )
    )
    for row in standings.values("match_id", "format", "standing", "winner", "rating"):
        meeting = meetings[row["match_id"]]
        meeting.winners = set(row["winner"])
        totals = {line["seat"]: line["total"] for line in row["standing"]}
        kind = kinds[row["format"]]
        for seat in _seats_held(meeting, player_id):
            kind.match_totals.append(totals.get(seat, 0))
            kind.matches_won += seat in meeting.winners
        if row["rating"]:
            kind.ratings[row["rating"]] += 1
        _meet(kind, meeting, player_id)


def _seats_of(rows: Iterable[tuple[Any, int, int, str]]) -> dict[Any, Meeting]:
    meetings: dict[Any, Meeting] = defaultdict(lambda: Meeting({}, set()))
    for stream_id, seat, player_id, name in rows:
        meetings[stream_id].seats[seat] = (player_id, name)
    return meetings


def _seats_held(meeting: Meeting, player_id: int) -> list[int]:
    return [seat for seat, (who, _name) in meeting.seats.items() if who == player_id]


def _best_seats(totals: dict[int, float]) -> set[int]:
    if not totals:
        return set()
    best = max(totals.values())
    return {seat for seat, total in totals.items() if total == best}


def _meet(kind: Kind, meeting: Meeting, player_id: int) -> None:
    """Count the meeting against every other player at it (once per opponent)."""
    mine = _seats_held(meeting, player_id)
    won = any(seat in meeting.winners for seat in mine)
    opponents = {who: name for who, name in meeting.seats.values() if who != player_id}
    for who, name in opponents.items():
        theirs = any(
            seat in meeting.winners for seat, (other, _n) in meeting.seats.items() if other == who
        )
        rival = kind.rivals.setdefault(
            who, {"opponent": who, "name": name, "played": 0, "won": 0, "lost": 0, "drawn": 0}
        )
        rival["played"] += 1
        rival["won" if won and not theirs else "lost" if theirs and not won else "drawn"] += 1


def _tally(totals: list[float], won: int) -> dict[str, Any]:
    return {
        "played": len(totals),
        "won": won,
        "average": round(sum(totals) / len(totals), 1) if totals else None,
        "best": max(totals) if totals else None,
    }


def _kind_json(name: str, kind: Kind) -> dict[str, Any]:
    return {
        "kind": name,
        "games": _tally(kind.game_totals, kind.games_won),
        "matches": _tally(kind.match_totals, kind.matches_won),
        "bonuses": [
            {"kind": bonus, "count": len(points), "points": sum(points)}
            for bonus, points in sorted(kind.bonuses.items())
        ],
        "ratings": [
            {"rating": rating, "count": count} for rating, count in sorted(kind.ratings.items())
        ],
        "head_to_head": sorted(kind.rivals.values(), key=lambda r: (r["name"], r["opponent"])),
    }
