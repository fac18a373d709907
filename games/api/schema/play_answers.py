"""The shapes of play's answers (games, matches, their events), for the OpenAPI schema.

The views build their answers as plain data (games/play/representation.py); these serializers only
describe them (see games/api/schema/answers.py). A game's state carries fields of its family
besides the common ones (``board``, ``dice``, hands ...): those are named here where every family
has them and left open otherwise.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.api.schema.answers import (
    STREAM_STATUSES,
    OpenObject,
    Points,
    event_type_field,
    format_field,
    kind_field,
    page_of,
)


class SeatAnswer(serializers.Serializer[Any]):
    seat = serializers.IntegerField(min_value=0)
    player = serializers.IntegerField(allow_null=True)
    name = serializers.CharField(allow_blank=True)


class BonusAnswer(serializers.Serializer[Any]):
    kind = serializers.CharField()
    points = Points()
    why = serializers.CharField(required=False, allow_blank=True)
    pawns = serializers.ListField(child=serializers.CharField(), required=False)


class ScoreAnswer(serializers.Serializer[Any]):
    seat = serializers.IntegerField(min_value=0)
    points = Points()
    bonuses = BonusAnswer(many=True)
    total = Points()


class MoveAnswer(serializers.Serializer[Any]):
    type = serializers.CharField()
    data = OpenObject()  # type: ignore[assignment]  # a field, not Serializer.data


class ResultAnswer(serializers.Serializer[Any]):
    totals = serializers.ListField(child=Points())
    winner = serializers.ListField(child=serializers.IntegerField(min_value=0))
    rating = serializers.CharField(allow_null=True)


class PotAnswer(serializers.Serializer[Any]):
    balance = Points()
    nets = serializers.ListField(child=Points(), allow_null=True)


class GameAnswer(serializers.Serializer[Any]):
    """A game's state (API.md "Games"), as of now or of ``at_version``."""

    id = serializers.UUIDField()
    kind = kind_field()
    version = serializers.IntegerField(min_value=1)
    status = serializers.ChoiceField(choices=STREAM_STATUSES)
    match = serializers.UUIDField(allow_null=True)
    number = serializers.IntegerField(allow_null=True)
    seats = SeatAnswer(many=True)
    ruleset = OpenObject()
    turn = serializers.IntegerField(allow_null=True)
    expected = serializers.ListField(child=serializers.CharField())
    pot = PotAnswer(allow_null=True)
    legal_events = MoveAnswer(many=True, allow_null=True)
    scores = ScoreAnswer(many=True)
    result = ResultAnswer(allow_null=True)


class GameRow(serializers.Serializer[Any]):
    """A game in the list: its summary read model."""

    id = serializers.UUIDField()
    kind = kind_field()
    status = serializers.ChoiceField(choices=STREAM_STATUSES)
    version = serializers.IntegerField(min_value=1)
    match = serializers.UUIDField(allow_null=True)
    number = serializers.IntegerField(allow_null=True)
    scores = ScoreAnswer(many=True)
    rating = serializers.CharField(allow_null=True)
    updated_at = serializers.DateTimeField()


class EventAnswer(serializers.Serializer[Any]):
    """One stored event, as every list and the feed show it."""

    position = serializers.IntegerField(min_value=1)
    id = serializers.UUIDField()
    version = serializers.IntegerField(min_value=1)
    # Any stream's types (the feed carries tournaments' and the register's too); a game's and
    # a match's are those of the EventType enum.
    type = serializers.CharField()
    schema_version = serializers.IntegerField(min_value=1)
    data = OpenObject()  # type: ignore[assignment]  # a field, not Serializer.data
    meta = OpenObject()
    recorded_at = serializers.DateTimeField()
    hash = serializers.CharField(min_length=64, max_length=64)


GamePage = page_of(GameRow, "GamePage")
EventPage = page_of(EventAnswer, "EventPage")


class AnalysisAnswer(serializers.Serializer[Any]):
    """One-player games: ``value``, ``line``, ``from_start``; two-player: ``winner``, ``line``."""

    value = Points(required=False)
    from_start = Points(required=False)
    winner = serializers.IntegerField(required=False, allow_null=True)
    line = MoveAnswer(many=True)


class PotMovement(serializers.Serializer[Any]):
    kind = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True, required=False)
    chips = Points()
    event = serializers.UUIDField()
    version = serializers.IntegerField(min_value=1)
    type = event_type_field()


class PotLedger(serializers.Serializer[Any]):
    balance = Points()
    nets = serializers.ListField(child=Points(), allow_null=True)
    movements = PotMovement(many=True)


class StandingBonus(serializers.Serializer[Any]):
    kind = serializers.CharField()
    points = Points()


class StandingRow(serializers.Serializer[Any]):
    seat = serializers.IntegerField(min_value=0)
    name = serializers.CharField(allow_blank=True)
    match_score = Points()
    bonuses = StandingBonus(many=True)
    total = Points()
    games_won = serializers.IntegerField(min_value=0)
    rank = serializers.IntegerField(min_value=1)


class MatchGame(serializers.Serializer[Any]):
    number = serializers.IntegerField(min_value=1)
    game = serializers.UUIDField(allow_null=True)
    scores = serializers.ListField(child=Points())
    cumulative = serializers.ListField(child=Points())


class SheetWarning(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    code = serializers.CharField()
    message = serializers.CharField()


class Payment(serializers.Serializer[Any]):
    # "from" is a Python keyword: the field is added below under its JSON name.
    to = serializers.IntegerField(min_value=0)
    points = Points()


Payment._declared_fields["from"] = serializers.IntegerField(min_value=0)


class Settlement(serializers.Serializer[Any]):
    payments = Payment(many=True)
    nets = serializers.ListField(child=Points(), required=False)


class MatchAnswer(serializers.Serializer[Any]):
    """A match (API.md "Matches"), as of now or of ``at_version``."""

    id = serializers.UUIDField()
    format = format_field()
    entry = serializers.ChoiceField(choices=["live", "sheet"])
    status = serializers.ChoiceField(choices=STREAM_STATUSES)
    version = serializers.IntegerField(min_value=1)
    ruleset = OpenObject()
    players = SeatAnswer(many=True)
    games = MatchGame(many=True)
    next_game = serializers.IntegerField(allow_null=True)
    expected = serializers.ListField(child=serializers.CharField())
    standing = StandingRow(many=True)
    winner = serializers.ListField(child=serializers.IntegerField(min_value=0))
    rating = serializers.CharField(allow_null=True)
    warnings = SheetWarning(many=True)
    settlement = Settlement(allow_null=True)


class MatchRow(serializers.Serializer[Any]):
    """A match in the list: its standing read model."""

    id = serializers.UUIDField()
    format = format_field()
    status = serializers.ChoiceField(choices=STREAM_STATUSES)
    standing = StandingRow(many=True)
    winner = serializers.ListField(child=serializers.IntegerField(min_value=0))
    rating = serializers.CharField(allow_null=True)
    warnings = SheetWarning(many=True)
    updated_at = serializers.DateTimeField()


MatchPage = page_of(MatchRow, "MatchPage")


class RecordedAnswer(serializers.Serializer[Any]):
    """Answer of an event POST: the event as listed, and the stream's state after it."""

    event = EventAnswer()
    game = GameAnswer(required=False)
    match = MatchAnswer(required=False)
