"""The filters of the game and match lists (django-filter), over the read models.

Each FilterSet also tells :class:`games.api.http.query.QueryChecked` which parameters its list
takes, so a misspelt filter is refused rather than ignored. Choices come from the rules'
registry: a kind or format the service does not keep is a bad value (400), not an empty list.
"""

from __future__ import annotations

import django_filters
from django import forms

from games.rules import registry
from scoring.models import GameSummary, MatchStanding

# Bounded so that a huge id is a 400, not a database overflow (a 500).
MAX_ID = 2**63 - 1

GAME_STATUSES = [(s, s) for s in ("in_progress", "finished", "abandoned")]
MATCH_STATUSES = [(s, s) for s in ("in_progress", "finished", "settled", "abandoned")]


def _kinds() -> list[tuple[str, str]]:
    return [(kind, kind) for kind in registry.kinds()]


def _formats() -> list[tuple[str, str]]:
    return [(name, name) for name in registry.formats()]


# django-filter ships no type hints, so its classes are Any to mypy.
class IntegerFilter(django_filters.NumberFilter):  # type: ignore[misc]
    """A whole number (django-filter's NumberFilter would take ``1.5``)."""

    field_class = forms.IntegerField


class GameFilter(django_filters.FilterSet):  # type: ignore[misc]
    kind = django_filters.ChoiceFilter(choices=_kinds, help_text="Only games of this kind.")
    status = django_filters.ChoiceFilter(choices=GAME_STATUSES, help_text="Only this status.")

    class Meta:
        model = GameSummary
        fields: list[str] = []


class MatchFilter(django_filters.FilterSet):  # type: ignore[misc]
    format = django_filters.ChoiceFilter(choices=_formats, help_text="Only this match format.")
    status = django_filters.ChoiceFilter(choices=MATCH_STATUSES, help_text="Only this status.")
    player = IntegerFilter(
        field_name="match__seats__player",
        min_value=1,
        max_value=MAX_ID,
        distinct=True,
        help_text="Only matches this player (by id) plays in.",
    )
    tournament = django_filters.UUIDFilter(
        field_name="match__tournament", help_text="Only the matches of this tournament (by id)."
    )
    since = django_filters.DateFilter(
        field_name="updated_at",
        lookup_expr="date__gte",
        help_text="Last played on or after this date (YYYY-MM-DD).",
    )
    until = django_filters.DateFilter(
        field_name="updated_at",
        lookup_expr="date__lte",
        help_text="Last played on or before this date (YYYY-MM-DD).",
    )

    class Meta:
        model = MatchStanding
        fields: list[str] = []
