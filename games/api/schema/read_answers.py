"""The shapes of the read API's answers, for the OpenAPI schema (see games/api/schema/answers.py).

The views build plain data (scoring/history/timeline.py, exports.py, reports.py, stats.py); these
serializers only describe it.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.api.schema.answers import STREAM_STATUSES, OpenObject, Points
from games.api.schema.play_answers import (
    EventAnswer,
    MatchGame,
    ScoreAnswer,
    SeatAnswer,
    Settlement,
    SheetWarning,
    StandingRow,
)
from scoring.ratings.reading import rated_kinds


class FeedPage(serializers.Serializer[Any]):
    """A page of the all-stream feed; follow ``next`` until it is null."""

    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = EventAnswer(many=True)


class SeatBonus(serializers.Serializer[Any]):
    seat = serializers.IntegerField(min_value=0)
    kind = serializers.CharField()
    points = Points()


class HistoryGame(MatchGame):
    url = serializers.CharField(allow_null=True)
    bonuses = SeatBonus(many=True)
    warnings = SheetWarning(many=True)


class MatchHistoryAnswer(serializers.Serializer[Any]):
    """Every game of a match with each seat's score and cumulative score (API.md)."""

    id = serializers.UUIDField()
    format = serializers.CharField()
    entry = serializers.ChoiceField(choices=["live", "sheet"])
    status = serializers.ChoiceField(choices=STREAM_STATUSES)
    players = SeatAnswer(many=True)
    games = HistoryGame(many=True)
    standing = StandingRow(many=True)
    winner = serializers.ListField(child=serializers.IntegerField(min_value=0))
    rating = serializers.CharField(allow_null=True)
    warnings = SheetWarning(many=True)
    settlement = Settlement(allow_null=True)


class PlayerRef(serializers.Serializer[Any]):
    id = serializers.IntegerField(min_value=1)
    name = serializers.CharField()


class HistoryRow(serializers.Serializer[Any]):
    """A game (``type: game``, with ``scores``) or a match (``type: match``, with ``games``,
    ``standing``, ``winner`` and ``warnings``) the player sat in."""

    type = serializers.ChoiceField(choices=["game", "match"])
    id = serializers.UUIDField()
    kind = serializers.CharField()
    status = serializers.ChoiceField(choices=STREAM_STATUSES)
    rating = serializers.CharField(allow_null=True)
    url = serializers.CharField()
    updated_at = serializers.DateTimeField()
    seats = serializers.ListField(child=serializers.IntegerField(min_value=0))
    scores = ScoreAnswer(many=True, required=False)
    games = serializers.ListField(child=OpenObject(), required=False)
    standing = StandingRow(many=True, required=False)
    winner = serializers.ListField(child=serializers.IntegerField(min_value=0), required=False)
    warnings = SheetWarning(many=True, required=False)


class PlayerHistoryAnswer(serializers.Serializer[Any]):
    player = PlayerRef()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = HistoryRow(many=True)


class PlaySeat(serializers.Serializer[Any]):
    seat = serializers.IntegerField(min_value=0)
    player = serializers.IntegerField(allow_null=True)
    name = serializers.CharField(allow_blank=True)
    score = Points(allow_null=True)
    win = serializers.BooleanField()


class Play(serializers.Serializer[Any]):
    """One finished game or match, in the shape play-logging apps import (docs/API.md)."""

    id = serializers.UUIDField()
    type = serializers.ChoiceField(choices=["game", "match"])
    kind = serializers.CharField()
    date = serializers.DateField()
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField()
    duration_seconds = serializers.IntegerField(allow_null=True, min_value=0)
    players = PlaySeat(many=True)
    win = serializers.BooleanField()
    url = serializers.CharField()


class PlaysAnswer(serializers.Serializer[Any]):
    player = PlayerRef()
    next = serializers.URLField(allow_null=True)
    plays = Play(many=True)


# --- a player's statistics (scoring/history/stats.py)
# -----------------------------------------------


class Tally(serializers.Serializer[Any]):
    """Finished games (or matches) of a kind: how many, how many won, the player's totals."""

    played = serializers.IntegerField(min_value=0)
    won = serializers.IntegerField(min_value=0)
    average = serializers.FloatField(allow_null=True, help_text="Mean total, to 0.1.")
    best = Points(allow_null=True)


class BonusTally(serializers.Serializer[Any]):
    kind = serializers.CharField()
    count = serializers.IntegerField(min_value=1)
    points = Points()


class RatingTally(serializers.Serializer[Any]):
    rating = serializers.CharField()
    count = serializers.IntegerField(min_value=1)


class HeadToHead(serializers.Serializer[Any]):
    opponent = serializers.IntegerField(min_value=1)
    name = serializers.CharField()
    played = serializers.IntegerField(min_value=1)
    won = serializers.IntegerField(min_value=0)
    lost = serializers.IntegerField(min_value=0)
    drawn = serializers.IntegerField(min_value=0)


class KindStats(serializers.Serializer[Any]):
    kind = serializers.CharField(help_text="A game kind or a match format.")
    games = Tally()
    matches = Tally()
    bonuses = BonusTally(many=True)
    ratings = RatingTally(many=True)
    head_to_head = HeadToHead(many=True)


class PlayerStatsAnswer(serializers.Serializer[Any]):
    player = PlayerRef()
    kinds = KindStats(many=True)


# --- ratings (scoring/ratings; docs/API.md "Ratings") --------------------------------------------


class RatingPointAnswer(serializers.Serializer[Any]):
    """The rating just after one rated result."""

    at = serializers.DateTimeField(help_text="When the result was decided.")
    rating = serializers.IntegerField()
    deviation = serializers.IntegerField(min_value=0)


class PlayerRatingAnswer(serializers.Serializer[Any]):
    """A player's rating in one game kind (1500 to start; docs/DESIGN.md "Ratings")."""

    kind = serializers.ChoiceField(choices=rated_kinds(), help_text="A rated game kind.")
    rating = serializers.IntegerField()
    deviation = serializers.IntegerField(min_value=0, help_text="Its uncertainty, same scale.")
    games = serializers.IntegerField(min_value=1, help_text="Results counted: a match once.")
    provisional = serializers.BooleanField(help_text="Fewer results counted than establish it.")
    history = RatingPointAnswer(many=True)


class LeaderboardRow(serializers.Serializer[Any]):
    rank = serializers.IntegerField(min_value=1)
    player = serializers.IntegerField(min_value=1)
    name = serializers.CharField()
    rating = serializers.IntegerField()
    deviation = serializers.IntegerField(min_value=0)
    games = serializers.IntegerField(min_value=1)


class LeaderboardPage(serializers.Serializer[Any]):
    """A page of a game kind's leaderboard, best first; follow ``next`` until it is null."""

    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = LeaderboardRow(many=True)
