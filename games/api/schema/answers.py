"""The shapes of the API's answers, for the OpenAPI schema (drf-spectacular components): the
fields every answer shares, and the players' and tournaments' answers.

The views build their answers as plain data (games/play/representation.py,
games/api/tournaments.py); these serializers only describe them, so that a client (and schemathesis'
``response_schema_conformance``) can check every 200 against a typed shape. The answers of play
(games, matches, their events) are in games/api/schema/play_answers.py, the read API's in
games/api/schema/read_answers.py.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api.request_bodies import Closed
from games.rules import registry
from games.store.event_types import EVENT_TYPES

STREAM_STATUSES = ["in_progress", "finished", "settled", "abandoned"]
TOURNAMENT_STATUSES = ["entering", "running", "finished"]
# The enums' choices, named in SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"].
GAME_KINDS = registry.kinds()
MATCH_FORMATS = registry.formats()
EVENT_TYPE_NAMES = sorted(EVENT_TYPES)
# A score: whole points in every game so far; typed as a number so that a family with halves
# (tarot's) stays within the contract.
Points = serializers.FloatField


def kind_field(**kwargs: Any) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=GAME_KINDS, **kwargs)


def format_field(**kwargs: Any) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=MATCH_FORMATS, **kwargs)


def event_type_field(**kwargs: Any) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=EVENT_TYPE_NAMES, **kwargs)


@extend_schema_field({"type": "object", "additionalProperties": True})
class OpenObject(serializers.DictField):
    """A JSON object whose keys depend on the game (a ruleset, an event's data)."""


def page_of(row: type[serializers.Serializer[Any]], name: str) -> type[serializers.Serializer[Any]]:
    """A cursor page (``next``, ``previous``, ``results``) of ``row``."""
    fields = {
        "next": serializers.URLField(allow_null=True),
        "previous": serializers.URLField(allow_null=True),
        "results": row(many=True),
        "__doc__": f"A page of {row.__name__}; follow ``next`` until it is null.",
    }
    return type(name, (serializers.Serializer,), fields)


# --- players and tournaments (games/api/tournaments.py) ------------------------------------


class PlayerAnswer(serializers.Serializer[Any]):
    id = serializers.IntegerField(min_value=1)
    name = serializers.CharField()
    member_number = serializers.CharField(allow_null=True)
    merged_into = serializers.IntegerField(allow_null=True)


PlayerList = page_of(PlayerAnswer, "PlayerList")


class Text(serializers.CharField):
    """Text as sent: a number is refused, not turned into its digits, and spaces are kept (a
    text of spaces only is the service's to refuse, with its code)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("trim_whitespace", False)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class PlayerCreate(Closed):
    name = Text(max_length=100)
    member_number = Text(max_length=30, required=False, allow_null=True)


class PlayerMerge(Closed):
    into = serializers.IntegerField(min_value=1)
    reason = Text(max_length=500)


class TournamentRow(serializers.Serializer[Any]):
    id = serializers.UUIDField()
    name = serializers.CharField()
    format = format_field()
    system = serializers.ChoiceField(choices=["swiss", "round_robin", "tables"])
    status = serializers.ChoiceField(choices=TOURNAMENT_STATUSES)
    round = serializers.IntegerField(min_value=0)
    created_at = serializers.DateTimeField()


TournamentList = page_of(TournamentRow, "TournamentList")


class EntryAnswer(serializers.Serializer[Any]):
    player = serializers.IntegerField(min_value=1)
    name = serializers.CharField()
    label = serializers.CharField(  # type: ignore[assignment]  # a field named as Field.label
        help_text="How every page, document and scoreboard shows the entry: unique within the "
        "tournament (the name, or the name told apart from another of the same name)."
    )
    status = serializers.ChoiceField(choices=["active", "withdrawn"])
    joined = serializers.IntegerField(min_value=1)


class TournamentAnswer(serializers.Serializer[Any]):
    id = serializers.UUIDField()
    name = serializers.CharField()
    format = format_field()
    system = serializers.ChoiceField(choices=["swiss", "round_robin", "tables"])
    status = serializers.ChoiceField(choices=TOURNAMENT_STATUSES)
    version = serializers.IntegerField(min_value=1)
    round = serializers.IntegerField(min_value=0)
    rounds = serializers.IntegerField(allow_null=True)
    table_size = serializers.IntegerField(min_value=1)
    entry = serializers.ChoiceField(choices=["live", "sheet"])
    tiebreaks = serializers.ListField(child=serializers.CharField())
    double = serializers.BooleanField()
    published = serializers.BooleanField(
        help_text="Read by anyone; false: by its creator, keepers, linked entrants and directors."
    )
    entries = EntryAnswer(many=True)


class TournamentCreate(Closed):
    name = Text(max_length=200)
    format = format_field()
    system = serializers.ChoiceField(choices=["swiss", "round_robin", "tables"])
    rounds = serializers.IntegerField(min_value=1, max_value=30, required=False)
    table_size = serializers.IntegerField(min_value=1, max_value=16, required=False)
    entry = serializers.ChoiceField(choices=["live", "sheet"], required=False)
    ruleset = OpenObject(required=False)
    tiebreaks = serializers.ListField(child=serializers.CharField(), required=False)
    double = serializers.BooleanField(required=False)
    seeding = serializers.ChoiceField(choices=["entry", "random", "rating"], required=False)
    published = serializers.BooleanField(required=False)
    season = serializers.UUIDField(
        required=False,
        allow_null=True,
        help_text="A season the new evening joins in the same transaction (refused as "
        "POST /api/v1/seasons/{id}/tournaments/ refuses it, and then nothing is created).",
    )


class EntryCreate(Closed):
    """One of ``player``, ``member_number`` or ``name``; once round 1 is paired, a late entry
    says why in ``reason`` (422 ``tournament.reason_required`` without it)."""

    player = serializers.IntegerField(min_value=1, required=False)
    member_number = Text(max_length=30, required=False)
    name = Text(max_length=100, required=False)
    new = serializers.BooleanField(
        required=False,
        help_text="With name: enter a new player of that name even if players of it are "
        "registered (else a name matching an entered or several players is player.ambiguous).",
    )
    label = Text(  # type: ignore[assignment]  # a field named as Field.label
        max_length=40,
        required=False,
        help_text='How the entry is shown, e.g. "Pat K.": unique within the tournament.',
    )
    reason = Text(max_length=500, required=False)


class RoundCreate(Closed):
    tables = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(min_value=1)), required=False
    )
    seed = serializers.IntegerField(required=False)
    repair = serializers.BooleanField(required=False)
    override = serializers.BooleanField(
        required=False,
        help_text="Pair although a result of the current round is unconfirmed (with a reason).",
    )
    reason = Text(max_length=500, required=False)


class KeeperAssign(Closed):
    round = serializers.IntegerField(min_value=1)
    table = serializers.IntegerField(min_value=1)
    user = Text(max_length=150)


class TableSeat(serializers.Serializer[Any]):
    seat = serializers.IntegerField(min_value=0)
    player = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    label = serializers.CharField(allow_blank=True)  # type: ignore[assignment]  # a field named as Field.label


class TableResult(serializers.Serializer[Any]):
    how = serializers.CharField()
    points = serializers.ListField(child=Points())
    scores = serializers.ListField(child=Points())
    net = serializers.ListField(child=Points())
    ranks = serializers.ListField(child=serializers.IntegerField())
    rating = serializers.CharField(allow_null=True)
    reason = serializers.CharField(allow_null=True, allow_blank=True)


class TableAnswer(serializers.Serializer[Any]):
    table = serializers.IntegerField(min_value=1)
    seats = TableSeat(many=True)
    match = serializers.UUIDField(allow_null=True)
    keepers = serializers.ListField(child=serializers.CharField())
    status = serializers.ChoiceField(choices=[*STREAM_STATUSES, "unconfirmed"], allow_null=True)
    confirmed = serializers.ListField(
        child=serializers.IntegerField(min_value=0), help_text="The seats that agreed."
    )
    result = TableResult(allow_null=True)
    code = serializers.CharField(
        allow_null=True,
        required=False,
        help_text="The table's keeper code (directors only): whoever opens keeper_url may "
        "record at this table.",
    )
    keeper_url = serializers.CharField(allow_null=True, required=False)


class ByeAnswer(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    label = serializers.CharField(allow_blank=True)  # type: ignore[assignment]  # a field named as Field.label
    points = Points()


class RoundAnswer(serializers.Serializer[Any]):
    number = serializers.IntegerField(min_value=1)
    status = serializers.ChoiceField(choices=["playing", "finished"])
    closed = serializers.BooleanField()
    tables = TableAnswer(many=True)
    byes = ByeAnswer(many=True)
    missing = serializers.ListField(child=serializers.IntegerField())
    unconfirmed = serializers.ListField(
        child=serializers.IntegerField(), help_text="Tables whose result awaits confirmation."
    )
    seed = serializers.IntegerField(allow_null=True)
    layouts = serializers.ListField(child=serializers.JSONField())


class RoundRating(serializers.Serializer[Any]):
    """A duplicate Solitaire round's match rating (RULES.md 2.6) on the round's deal."""

    round = serializers.IntegerField(min_value=1)
    rating = serializers.CharField()


class StandingsRow(serializers.Serializer[Any]):
    rank = serializers.IntegerField(min_value=1)
    player = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    label = serializers.CharField(allow_blank=True)  # type: ignore[assignment]  # a field named as Field.label
    points = Points()
    played = serializers.IntegerField(min_value=0)
    unconfirmed = serializers.BooleanField(
        help_text="A result counted here awaits its table's confirmation."
    )
    tiebreaks = serializers.DictField(child=Points())
    net = Points()
    ratings = RoundRating(many=True, help_text="Empty but in duplicate Solitaire rounds.")


class StandingsAnswer(serializers.Serializer[Any]):
    round = serializers.IntegerField(
        min_value=0, help_text="After this round: by default the last with every result in."
    )
    in_play = serializers.IntegerField(
        allow_null=True, help_text="The round being played, its results not all in."
    )
    rows = StandingsRow(many=True)
    explain = serializers.DictField(child=serializers.CharField())


class NetAnswer(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    net = Points()


class EveningPayment(serializers.Serializer[Any]):
    from_name = serializers.CharField(allow_blank=True)
    to = serializers.IntegerField()
    to_name = serializers.CharField(allow_blank=True)
    points = Points()


EveningPayment._declared_fields["from"] = serializers.IntegerField()


class SettlementAnswer(serializers.Serializer[Any]):
    nets = NetAnswer(many=True)
    payments = EveningPayment(many=True)
    left_in_pot = Points()


class TournamentEvent(serializers.Serializer[Any]):
    id = serializers.UUIDField()
    version = serializers.IntegerField(min_value=1)
    type = serializers.CharField()
    data = OpenObject()  # type: ignore[assignment]  # a field, not Serializer.data
    recorded_at = serializers.DateTimeField()
    recorded_by = serializers.IntegerField(allow_null=True)


class TournamentEvents(serializers.Serializer[Any]):
    results = TournamentEvent(many=True)
