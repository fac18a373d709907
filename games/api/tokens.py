"""A user's own API tokens (API.md "Ratings, player exports, tokens"): make one (its secret shown
once), list them (never a secret), revoke one at once. Views parse and answer; the services
(games/access/services.py) check who."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import permissions as drf_permissions
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.access import services
from games.access.models import ApiToken
from games.api.http.query import QueryChecked, read_time
from games.api.request_bodies import Closed
from games.api.schema.answers import Text

# The largest id a token can have (a bigint): a longer number names none (404), and is never
# sent to the database, which would refuse it.
MAX_ID = 2**63 - 1


# --- the schema's shapes ----------------------------------------------------------------------


class Moment(serializers.DateTimeField):
    """A time written as ISO 8601 text, read as the query's times are (``query.read_time``); a
    number is refused, not read as something else."""

    def to_internal_value(self, value: Any) -> datetime:
        read = read_time(value) if isinstance(value, str) else None
        if read is None:
            self.fail("invalid", format="YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]")
        return read


class TokenCreate(Closed):
    # Spaces kept: a name of spaces only is the service's to refuse (422 token.bad_name), as the
    # schema's minLength cannot say "not only spaces".
    name = Text(
        min_length=1,
        max_length=services.NAME_LENGTH,
        help_text="What the token is for (a device, a script): 1 to 100 characters.",
    )
    scope = serializers.ChoiceField(
        choices=ApiToken.Scope.values,
        help_text="`read`: it only reads (every other request is 403 "
        "`permission.read_only_token`); `write`: whatever you may do.",
    )
    expires = Moment(
        required=False,
        help_text="When it stops working: in the future, within 366 days (422 "
        "`token.bad_expiry`); API_TOKEN_LIFETIME_DAYS (90) from now when left out.",
    )


class TokenAnswer(serializers.Serializer[Any]):
    id = serializers.IntegerField(help_text="Revoke it by DELETE /api/v1/tokens/{id}/.")
    name = serializers.CharField()
    scope = serializers.ChoiceField(choices=ApiToken.Scope.values)
    created = serializers.DateTimeField()
    expires = serializers.DateTimeField()
    expired = serializers.BooleanField(help_text="Refused from now on; dropped at your next token.")


class TokenCreated(TokenAnswer):
    secret = serializers.CharField(
        help_text="The key, sent as `Authorization: Token <secret>`: shown in this answer only "
        "(only its hash is kept)."
    )


class TokenPage(serializers.Serializer[Any]):
    results = TokenAnswer(many=True, help_text="Your tokens, newest first (at most 50 live).")


TOKEN_ID = OpenApiParameter("id", int, OpenApiParameter.PATH, description="The token's id.")


# --- the views --------------------------------------------------------------------------------


class TokenList(QueryChecked, APIView):
    permission_classes = [drf_permissions.AllowAny]  # the services answer 401

    @extend_schema(operation_id="v1_tokens_list", responses={200: TokenPage})
    def get(self, request: Request) -> Response:
        """Your own tokens, newest first, without their secrets."""
        rows = services.token_list(user=request.user)
        return Response({"results": [token_json(row) for row in rows]})

    @extend_schema(
        request=TokenCreate,
        responses={201: TokenCreated},
        examples=[
            OpenApiExample(
                "A read-only token for an analysis script",
                value={"name": "analysis", "scope": "read", "expires": "2027-01-01T00:00:00Z"},
                request_only=True,
            )
        ],
    )
    def post(self, request: Request) -> Response:
        """Make a token of your own; the answer carries its secret, shown this once."""
        body = TokenCreate(data=request.data)
        body.is_valid(raise_exception=True)
        values = body.validated_data
        token, key = services.token_create(
            user=request.user,
            name=values["name"],
            scope=values["scope"],
            expires=values.get("expires"),
            made_with=request.auth if isinstance(request.auth, ApiToken) else None,
        )
        return Response({**token_json(token), "secret": key}, status=status.HTTP_201_CREATED)


class TokenDetail(QueryChecked, APIView):
    permission_classes = [drf_permissions.AllowAny]

    @extend_schema(parameters=[TOKEN_ID], responses={204: None})
    def delete(self, request: Request, pk: str) -> Response:
        """Revoke one of your tokens: refused from the next request on, by every process."""
        services.token_revoke(user=request.user, token_id=_token_id(pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


def token_json(token: ApiToken) -> dict[str, Any]:
    return {
        "id": token.pk,
        "name": token.name,
        "scope": token.scope,
        "created": _time(token.created),
        "expires": _time(token.expires),
        "expired": token.expired,
    }


def _token_id(text: str) -> int:
    """The id in the path; one that is not a whole number in range names no token (0)."""
    if text.isascii() and text.isdigit() and len(text) <= 19 and int(text) <= MAX_ID:
        return int(text)
    return 0


def _time(value: datetime) -> str:
    return value.isoformat().replace("+00:00", "Z")
