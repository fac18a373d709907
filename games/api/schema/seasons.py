"""The shapes of a season's answers and bodies, for the OpenAPI schema (API.md "Seasons";
the views: games/api/tournaments/seasons.py)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api.request_bodies import Closed, TextUUIDField
from games.api.schema.answers import Points, Text, format_field, page_of


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "enum": ["field"]},
            {
                "type": "object",
                "properties": {
                    "by_place": {
                        "type": "array",
                        "items": {"type": "number", "minimum": 0, "maximum": 1000},
                        "minItems": 1,
                        "maxItems": 200,
                    }
                },
                "required": ["by_place"],
                "additionalProperties": False,
            },
        ],
        "description": '"field": an evening of n players gives n - place + 1; '
        '{"by_place": [...]}: the table, the winner\'s first, 0 past its end.',
    }
)
class SeasonPoints(serializers.JSONField):
    """How an evening's place becomes season points."""


class SeasonCounting(Closed):
    best = serializers.IntegerField(
        min_value=1,
        max_value=1000,
        allow_null=True,
        help_text="How many of a player's evenings count: his best; null: every one.",
    )


class SeasonCreate(Closed):
    name = Text(max_length=200)
    format = format_field(
        required=False,
        allow_null=True,
        help_text="The one match format its evenings play; null (the default): any.",
    )
    counting = SeasonCounting(required=False, help_text='Default {"best": null}.')
    points = SeasonPoints(required=False, help_text='Default "field".')
    published = serializers.BooleanField(required=False, help_text="Default true.")


class SeasonRow(serializers.Serializer[Any]):
    id = serializers.UUIDField()
    name = serializers.CharField()
    format = format_field(allow_null=True)
    counting = SeasonCounting()
    points = SeasonPoints()
    published = serializers.BooleanField(
        help_text="Read by anyone; false: by its creator and the directors."
    )
    closed = serializers.BooleanField(help_text="No evening joins or leaves it any more.")
    created_at = serializers.DateTimeField()


SeasonList = page_of(SeasonRow, "SeasonList")


class SeasonEvening(serializers.Serializer[Any]):
    tournament = serializers.UUIDField()
    name = serializers.CharField()
    date = serializers.DateField()


class SeasonAnswer(SeasonRow):
    evenings = SeasonEvening(
        many=True, help_text="Its evenings by date: those you may read (an unpublished one not)."
    )
    version = serializers.IntegerField(min_value=1, help_text="The season stream's version.")


class SeasonTournamentAdd(Closed):
    tournament = TextUUIDField(help_text="The evening (a tournament) that joins the season.")
    reason = Text(max_length=500, required=False)


class SeasonClose(Closed):
    reason = Text(max_length=500, required=False)


class SeasonResult(serializers.Serializer[Any]):
    tournament = serializers.UUIDField()
    name = serializers.CharField()
    date = serializers.DateField()
    place = serializers.IntegerField(min_value=1)
    of = serializers.IntegerField(min_value=1, help_text="The evening's field.")
    points = Points(help_text="The season points of that place.")
    counted = serializers.BooleanField(help_text="Among the player's best evenings.")


class SeasonStandingsRow(serializers.Serializer[Any]):
    place = serializers.IntegerField(min_value=1)
    player = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    label = serializers.CharField(allow_blank=True)  # type: ignore[assignment]  # a field named as Field.label
    points = Points(help_text="The points of his counted evenings.")
    evenings = serializers.IntegerField(min_value=1, help_text="Evenings played.")
    counted = serializers.IntegerField(min_value=0, help_text="Evenings counted.")
    won = serializers.IntegerField(min_value=0, help_text="Evenings won (first place).")
    points_all = Points(help_text="The points of every evening he played (a tie-break).")
    results = SeasonResult(many=True)


class SeasonStandingsAnswer(serializers.Serializer[Any]):
    season = serializers.UUIDField()
    evenings = serializers.IntegerField(min_value=0, help_text="The evenings you may read.")
    counted_evenings = serializers.IntegerField(
        min_value=0, help_text="Those with a complete round: the evenings that count so far."
    )
    rows = SeasonStandingsRow(many=True)
    explain = serializers.DictField(child=serializers.CharField())
