"""Request bodies of the write API; they check shape only, the rule engines check the rules."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request

from games.rules import registry
from games.store.canonical import BadValue


# The schema lists the kinds and formats; the service still names an unknown one itself
# (422 ``game.unknown_kind``, ``match.unknown_format``, with the list of known ones).
class Closed(serializers.Serializer[Any]):
    """A request body that takes its own fields only: a field it does not know is refused (400
    request.invalid), never silently dropped. The schema says so too (additionalProperties:
    false, games.api.schema.openapi)."""

    def to_internal_value(self, data: Any) -> Any:
        # Here, not in validate(): a body nested in a list (a seat) has no initial_data.
        unknown = sorted(set(data) - set(self.fields)) if isinstance(data, dict) else []
        if unknown:
            raise serializers.ValidationError(
                {name: ["This request does not take this field."] for name in unknown}
            )
        return super().to_internal_value(data)


class Text(serializers.CharField):
    """Text as the schema says it: a JSON string. DRF's CharField would take a number and turn
    it into text (a seat named ``0``), which the schema refuses and so must the server."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class WholeNumber(serializers.IntegerField):
    """A whole number as the schema says it: a JSON integer, not the text "12" nor true, which
    DRF's IntegerField would read as numbers."""

    def to_internal_value(self, data: Any) -> int:
        if type(data) is not int:
            self.fail("invalid")
        return int(super().to_internal_value(data))


# An event type's name (pawn.jumped): the body's schema gives it as the pattern, and
# games.api.streams reads a plain move by it.
EVENT_TYPE = r"^[a-z0-9_.]+$"


@extend_schema_field({"type": "string", "enum": registry.kinds()})
class KindField(Text):
    pass


@extend_schema_field({"type": "string", "enum": registry.formats()})
class FormatField(Text):
    pass


class SeatSpec(Closed):
    player = WholeNumber(required=False, allow_null=True, min_value=1)
    # Not trimmed here: a name of spaces is the service's to refuse (422 seat.bad_name), as the
    # schema's minLength cannot say "not only spaces".
    name = Text(required=False, max_length=100, allow_blank=False, trim_whitespace=False)
    member_number = Text(required=False, max_length=30, allow_blank=False, trim_whitespace=False)

    def validate(self, attrs):  # type: ignore[no-untyped-def]
        if attrs.get("player") is None and not attrs.get("name") and not attrs.get("member_number"):
            raise serializers.ValidationError(
                "A seat needs a player id, a member number or a name."
            )
        return attrs


class TextUUIDField(serializers.UUIDField):
    """A UUID written as a JSON string. DRF's own field also takes a number as the UUID of that
    value (12345 as ``...003039``): an id a client did not mean to send."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, str):
            self.fail("invalid", value=data)
        return super().to_internal_value(data)


# The most seats any kind (or format) takes: a longer list is no game's, refused here (400); a
# count within it that the kind does not take is its rules' to refuse (422 game.bad_seats). The
# schema gives each kind its own bounds (games.api.schema.declared).
MOST_SEATS = max(
    [registry.get(kind).max_seats for kind in registry.kinds()]
    + [registry.match_rules(name).max_seats for name in registry.formats()]
)


class GameCreate(Closed):
    kind = KindField(max_length=60)
    # A list field, so that the schema carries maxItems too.
    seats = serializers.ListField(child=SeatSpec(), required=False, max_length=MOST_SEATS)
    ruleset = serializers.DictField(required=False, default=dict)
    setup = serializers.DictField(required=False, default=dict)
    match = TextUUIDField(required=False, allow_null=True)


class EventCreate(Closed):
    id = TextUUIDField()
    # Event types are dotted lower-case names (pawn.jumped); the schema says so, so that a
    # body it calls valid is never refused here (an unknown type is the service's 422).
    type = serializers.RegexField(EVENT_TYPE, max_length=60)
    # DRF's metaclass takes declared fields off the class, so this leaves Serializer.data alone.
    data = serializers.DictField(required=False, default=dict)  # type: ignore[assignment]
    expected_version = WholeNumber(required=False, allow_null=True, min_value=0)
    meta = serializers.DictField(required=False, default=dict)


class MatchCreate(Closed):
    format = FormatField(max_length=60)
    players = serializers.ListField(child=SeatSpec(), max_length=MOST_SEATS)
    teams = serializers.ListField(required=False, default=list, max_length=16)
    ruleset = serializers.DictField(required=False, default=dict)
    entry = serializers.ChoiceField(choices=["live", "sheet"], required=False, default="live")


class KeeperAdd(Closed):
    # Not trimmed: a name of spaces is no user's, which the service says (422).
    user = Text(max_length=150, trim_whitespace=False, help_text="The keeper's username.")


class Keepers(serializers.Serializer[Any]):
    """A stream's recorders: its creator and the keepers it names (directors record anywhere)."""

    created_by = serializers.CharField(allow_null=True)
    keepers = serializers.ListField(child=serializers.CharField())


class Recorded(serializers.Serializer[Any]):
    """Answer of an event POST: the event as listed, and the stream's state after it."""

    event = serializers.DictField()
    game = serializers.DictField(required=False)
    match = serializers.DictField(required=False)


# --- reading a body ---------------------------------------------------------------------------


def client_meta(request: Request, meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """The client's meta for a director's event, as a game event's (``games.api.streams``): the
    body's ``meta`` where the body has one (a correction's), and the ``X-Device`` header as its
    device.
    The services check it (``meta.*``) and store it beside who recorded the event."""
    device = request.headers.get("X-Device")
    meta = dict(meta or {})
    return {**meta, "device": device} if device else meta


def checked_body(
    request: Request, shape: type[serializers.Serializer[Any]] | None = None
) -> dict[str, Any]:
    """The request's JSON object, checked against its documented ``shape`` where one is given
    (400 ``request.invalid`` with the fields at fault); the services check the rest."""
    if not isinstance(request.data, dict):
        raise BadValue("request.not_an_object", "The request body must be a JSON object.")
    if shape is None:
        return dict(request.data)
    body = shape(data=request.data)
    body.is_valid(raise_exception=True)
    return dict(body.validated_data)
