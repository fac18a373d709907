"""Tokens a user makes himself (API.md "Ratings, player exports, tokens"): made with a name, a
scope and an expiry, the secret shown once, listed without secrets, revoked at once; a read-only
token reads and is refused every write, wherever it is sent."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from rest_framework.test import APIClient

from games.access import services
from games.access.models import ApiToken, digest_of
from tests.games.tournaments.helpers import client_for, create, enter

pytestmark = pytest.mark.django_db

TOKENS = "/api/v1/tokens/"
SOLITAIRE = {"kind": "scarney-solitaire", "seats": [{"name": "Tia"}]}
PAWNS = [colour + str(spots) for colour in "BRYG" for spots in range(1, 5)]


def by_key(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def made(client: APIClient, **body: Any) -> dict[str, Any]:
    answer = client.post(TOKENS, {"name": "analysis", "scope": "read", **body}, format="json")
    assert answer.status_code == 201, answer.content
    return dict(answer.json())


def refused_as_read_only(answer: Any) -> bool:
    body = answer.json()
    return (
        answer.status_code == 403
        and body["code"] == "permission.read_only_token"
        and "read" in body["detail"]
    )


# --- make, list, revoke ------------------------------------------------------------------------


def test_a_token_is_made_with_its_secret_shown_once_and_listed_without_it(api: APIClient) -> None:
    # when a member makes a read token to run out in January
    token = made(api, expires="2027-01-01T00:00:00Z")
    # then the answer names it and carries the secret, which works
    assert set(token) == {"id", "name", "scope", "created", "expires", "expired", "secret"}
    assert (token["name"], token["scope"], token["expired"]) == ("analysis", "read", False)
    assert parse_datetime(token["expires"]) == parse_datetime("2027-01-01T00:00:00Z")
    assert by_key(token["secret"]).get(TOKENS).status_code == 200
    # and only its hash is kept
    row = ApiToken.objects.get(pk=token["id"])
    assert row.digest == digest_of(token["secret"]) and token["secret"] not in row.digest
    # and the list shows it (and the fixture's own), never a secret
    listed = api.get(TOKENS).json()["results"]
    assert [t["id"] for t in listed][0] == token["id"]
    assert all("secret" not in t for t in listed)
    assert {k: v for k, v in listed[0].items()} == {k: v for k, v in token.items() if k != "secret"}


def test_a_token_left_without_expiry_lives_the_configured_days(
    api: APIClient, settings: Any
) -> None:
    settings.API_TOKEN_LIFETIME_DAYS = 30
    token = made(api)
    expires = parse_datetime(token["expires"])
    assert expires is not None
    assert abs(expires - (timezone.now() + timedelta(days=30))) < timedelta(minutes=1)


def test_a_revoked_token_is_refused_at_once(api: APIClient) -> None:
    token = made(api, scope="write")
    mine = by_key(token["secret"])
    assert mine.get(TOKENS).status_code == 200
    # when it is revoked
    answer = api.delete(f"{TOKENS}{token['id']}/")
    # then it is gone from the list and refused from the next request on
    assert answer.status_code == 204 and answer.content == b""
    assert token["id"] not in [t["id"] for t in api.get(TOKENS).json()["results"]]
    refused = mine.get(TOKENS)
    assert refused.status_code == 401
    assert refused.json()["code"] == "request.authentication_failed"
    # and revoking it again finds nothing
    assert api.delete(f"{TOKENS}{token['id']}/").status_code == 404


def test_a_write_token_may_revoke_itself(api: APIClient) -> None:
    token = made(api, scope="write")
    mine = by_key(token["secret"])
    assert mine.delete(f"{TOKENS}{token['id']}/").status_code == 204
    assert mine.get(TOKENS).status_code == 401


def test_an_expired_token_is_refused(api: APIClient) -> None:
    token = made(api)
    ApiToken.objects.filter(pk=token["id"]).update(expires=timezone.now() - timedelta(seconds=1))
    answer = by_key(token["secret"]).get("/api/v1/games/")
    assert answer.status_code == 401
    assert answer.json()["code"] == "request.authentication_failed"
    # listed as expired to its owner until his next token
    (listed,) = [t for t in api.get(TOKENS).json()["results"] if t["id"] == token["id"]]
    assert listed["expired"] is True
    made(api)
    assert not ApiToken.objects.filter(pk=token["id"]).exists()


def test_another_users_token_is_not_there_for_him() -> None:
    _ann, ann = client_for("ann")
    _bob, bob = client_for("bob")
    anns = made(ann)
    # bob neither sees nor revokes it: 404, as for a token that never was
    assert anns["id"] not in [t["id"] for t in bob.get(TOKENS).json()["results"]]
    answer = bob.delete(f"{TOKENS}{anns['id']}/")
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    assert by_key(anns["secret"]).get(TOKENS).status_code == 200
    # nor does a director, over the API (the admin is where directors see every token)
    _dee, dee = client_for("dee", staff=True)
    assert dee.delete(f"{TOKENS}{anns['id']}/").status_code == 404


@pytest.mark.parametrize("segment", ["abc", "0", "99999999", "9" * 19, "9" * 40, "-1"])
def test_an_id_that_names_no_token_is_404(api: APIClient, segment: str) -> None:
    answer = api.delete(f"{TOKENS}{segment}/")
    assert answer.status_code == 404, answer.content
    assert answer.json()["code"] == "not_found"


def test_a_token_id_takes_no_other_method(api: APIClient) -> None:
    token = made(api)
    assert api.get(f"{TOKENS}{token['id']}/").status_code == 405
    assert api.put(TOKENS, {}, format="json").status_code == 405


def test_without_a_login_there_are_no_tokens(anon: APIClient) -> None:
    for answer in (
        anon.get(TOKENS),
        anon.post(TOKENS, {"name": "x", "scope": "read"}, format="json"),
        anon.delete(f"{TOKENS}1/"),
    ):
        assert answer.status_code == 401
        assert answer.json()["code"] == "permission.login_required"


def test_a_browser_session_makes_tokens_too(user: Any) -> None:
    browser = APIClient()
    browser.force_login(user)
    token = made(browser, name="phone")
    assert by_key(token["secret"]).get(TOKENS).status_code == 200


# --- limits ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        {"scope": "read"},
        {"name": "", "scope": "read"},
        {"name": "x" * 101, "scope": "read"},
        {"name": "x"},
        {"name": "x", "scope": "admin"},
        {"name": "x", "scope": "read", "expires": "soon"},
        {"name": "x", "scope": "read", "expires": 1798761600},
        {"name": "x", "scope": "read", "expires": None},
        {"name": 7, "scope": "read"},
        {"name": "x", "scope": "read", "user": "ann"},
    ],
)
def test_a_malformed_token_body_is_a_400(api: APIClient, body: dict[str, Any]) -> None:
    answer = api.post(TOKENS, body, format="json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["code"] == "request.invalid"


def test_a_name_of_spaces_only_is_refused_by_the_service(api: APIClient) -> None:
    answer = api.post(TOKENS, {"name": "   ", "scope": "read"}, format="json")
    assert answer.status_code == 422 and answer.json()["code"] == "token.bad_name"


def test_an_expiry_may_be_written_small_or_with_an_offset(api: APIClient) -> None:
    soon = timezone.now() + timedelta(days=10)
    small = soon.strftime("%Y-%m-%dt%H:%M:%Sz")
    assert parse_datetime(made(api, expires=small)["expires"]) == soon.replace(microsecond=0)
    offset = (soon + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M:%S+02:00")
    assert parse_datetime(made(api, expires=offset)["expires"]) == soon.replace(microsecond=0)


def test_a_name_of_100_characters_is_taken() -> None:
    _ann, ann = client_for("ann")
    assert made(ann, name="x" * 100)["name"] == "x" * 100


@pytest.mark.parametrize(
    "expires",
    [
        timedelta(seconds=-1),
        timedelta(days=-400),
        timedelta(days=367),
        timedelta(days=365 * 20),
    ],
)
def test_an_expiry_in_the_past_or_over_a_year_away_is_refused(
    api: APIClient, expires: timedelta
) -> None:
    when = (timezone.now() + expires).isoformat()
    answer = api.post(TOKENS, {"name": "x", "scope": "read", "expires": when}, format="json")
    assert answer.status_code == 422, answer.content
    assert answer.json()["code"] == "token.bad_expiry"


@pytest.mark.parametrize(
    "expires",
    ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00", "4657-06-10T23:59:18-18:20"],
)
def test_an_expiry_at_the_ends_of_the_calendar_is_refused_as_any_other(
    api: APIClient, expires: str
) -> None:
    answer = api.post(TOKENS, {"name": "x", "scope": "read", "expires": expires}, format="json")
    assert answer.status_code == 422, answer.content
    assert answer.json()["code"] == "token.bad_expiry"


def test_a_user_has_at_most_fifty_live_tokens(user: Any, api: APIClient) -> None:
    # given the fixture's token and 49 more, and an expired one that does not count
    for number in range(49):
        ApiToken.objects.issue(user, name=f"device {number}")
    old, _key = ApiToken.objects.issue(user, lifetime=timedelta(seconds=-1))
    # when one more is asked for
    answer = api.post(TOKENS, {"name": "one too many", "scope": "read"}, format="json")
    # then it is refused, saying how many there are
    assert answer.status_code == 409, answer.content
    assert answer.json()["code"] == "token.too_many" and answer.json()["count"] == 50
    # and once one is revoked there is room again
    last = ApiToken.objects.filter(user=user, name="device 48").get()
    assert api.delete(f"{TOKENS}{last.pk}/").status_code == 204
    made(api)
    assert not ApiToken.objects.filter(pk=old.pk).exists()


def test_the_service_checks_what_the_api_checks(user: Any) -> None:
    from games.rules.errors import IllegalEvent

    with pytest.raises(IllegalEvent) as bad_name:
        services.token_create(user=user, name=" ", scope="read")
    with pytest.raises(IllegalEvent) as bad_scope:
        services.token_create(user=user, name="x", scope="admin")
    assert (bad_name.value.code, bad_scope.value.code) == ("token.bad_name", "token.bad_scope")


# --- scopes ------------------------------------------------------------------------------------


@pytest.fixture
def director_read_and_write() -> tuple[APIClient, APIClient]:
    """A director's read-only token and his write token."""
    _dee, dee = client_for("dee", staff=True)
    return by_key(made(dee)["secret"]), dee


def test_a_read_token_reads(director_read_and_write: tuple[APIClient, APIClient]) -> None:
    reader, writer = director_read_and_write
    game = writer.post("/api/v1/games/", SOLITAIRE, format="json").json()
    for url in (f"/api/v1/games/{game['id']}/", "/api/v1/games/", "/api/v1/events/", TOKENS):
        assert reader.get(url).status_code == 200, url
    assert reader.head(f"/api/v1/games/{game['id']}/").status_code == 200
    assert reader.options("/api/v1/games/").status_code == 200


def test_a_read_token_is_refused_every_write(
    director_read_and_write: tuple[APIClient, APIClient],
) -> None:
    reader, writer = director_read_and_write
    game = writer.post("/api/v1/games/", SOLITAIRE, format="json").json()
    cup = create(writer, format="high-low-scarney", system="swiss", rounds=2)["id"]
    enter(writer, cup, ["Ann", "Bob"])
    move = {"id": str(uuid.uuid4()), "type": "board.laid_out", "data": {}}
    mine = made(writer, scope="write")
    writes = [
        reader.post(f"/api/v1/games/{game['id']}/events/", move, format="json"),
        reader.post("/api/v1/games/", SOLITAIRE, format="json"),
        reader.post("/api/v1/matches/", {"format": "scarney-singles"}, format="json"),
        reader.post(f"/api/v1/tournaments/{cup}/rounds/", {}, format="json"),
        reader.post(f"/api/v1/tournaments/{cup}/entries/", {"name": "Cid"}, format="json"),
        reader.post("/api/v1/players/", {"name": "Hal"}, format="json"),
        reader.post("/api/v1/webhooks/", {"url": "https://x.example/"}, format="json"),
        reader.post(TOKENS, {"name": "x", "scope": "write"}, format="json"),
        reader.delete(f"{TOKENS}{mine['id']}/"),
        reader.put(f"/api/v1/games/{game['id']}/", {}, format="json"),
        reader.patch(f"/api/v1/games/{game['id']}/", {}, format="json"),
    ]
    assert all(refused_as_read_only(answer) for answer in writes), [
        (a.status_code, a.content[:120]) for a in writes if not refused_as_read_only(a)
    ]
    # and nothing was written: the game has its first event only, the round is not paired
    assert writer.get(f"/api/v1/games/{game['id']}/").json()["version"] == 1
    assert writer.get(f"/api/v1/tournaments/{cup}/").json()["round"] in (None, 0)
    assert by_key(mine["secret"]).get(TOKENS).status_code == 200


def test_a_write_token_made_by_its_user_writes(api: APIClient) -> None:
    writer = by_key(made(api, scope="write")["secret"])
    game = writer.post("/api/v1/games/", SOLITAIRE, format="json")
    assert game.status_code == 201, game.content
    layout = {f"C{i + 1}": pawn for i, pawn in enumerate(PAWNS)}
    move = {"id": str(uuid.uuid4()), "type": "board.laid_out", "data": {"position": layout}}
    recorded = writer.post(f"/api/v1/games/{game.json()['id']}/events/", move, format="json")
    assert recorded.status_code == 201, recorded.content
    assert writer.post(TOKENS, {"name": "x", "scope": "read"}, format="json").status_code == 201


def test_a_read_token_leaves_a_session_alone(user: Any) -> None:
    # a browser session is no token: its writes are the user's, whatever tokens he holds
    ApiToken.objects.issue(user, scope="read")
    browser = APIClient()
    browser.force_login(user)
    assert browser.post("/api/v1/games/", SOLITAIRE, format="json").status_code == 201


# --- tokens from before scopes -------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_tokens_from_before_scopes_keep_writing_unnamed() -> None:
    # given the tokens table as it was before names and scopes, with a token in it
    executor = MigrationExecutor(connection)
    before = [("access", "0002_hash_legacy_tokens")]
    latest = executor.loader.graph.leaf_nodes("access")
    executor.migrate(before)
    user = get_user_model().objects.create_user(username="old")
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO access_apitoken (digest, user_id, created, expires) "
            "VALUES (%s, %s, now(), now() + interval '1 day')",
            [digest_of("an-old-key"), user.pk],
        )
    try:
        # when the migration adds them
        executor = MigrationExecutor(connection)
        executor.migrate(latest)
    finally:
        MigrationExecutor(connection).migrate(
            MigrationExecutor(connection).loader.graph.leaf_nodes()
        )
    # then the old token is a write token without a name, and still writes
    token = ApiToken.objects.get(digest=digest_of("an-old-key"))
    assert (token.scope, token.name) == ("write", "")
    assert by_key("an-old-key").post("/api/v1/games/", SOLITAIRE, format="json").status_code == 201


def test_every_write_documents_the_read_only_refusal_and_no_read_does() -> None:
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-untyped-call]
    said = {
        f"{method} {path}": "`permission.read_only_token`"
        in operation["responses"].get("403", {}).get("description", "")
        for path, methods in schema["paths"].items()
        for method, operation in methods.items()
    }
    writes = {where for where in said if where.split()[0] in ("post", "put", "patch", "delete")}
    assert {"post /api/v1/tokens/", "delete /api/v1/tokens/{id}/"} <= writes
    assert {where for where, says in said.items() if says} == writes


def test_a_token_made_with_a_token_lives_no_longer_than_it(api: APIClient) -> None:
    short = made(api, scope="write", expires=(timezone.now() + timedelta(days=2)).isoformat())
    longer = made(by_key(short["secret"]), scope="write")  # the default: a year, asked of it
    assert parse_datetime(longer["expires"]) == parse_datetime(short["expires"])


def test_a_directors_read_token_reads_a_round_without_its_table_codes() -> None:
    director, full = client_for("director", staff=True)
    made_tournament = create(full, format="high-low-scarney", system="swiss", rounds=1)
    enter(full, made_tournament["id"], ["Ann", "Bob"])
    paired = full.post(f"/api/v1/tournaments/{made_tournament['id']}/rounds/", {}, format="json")
    assert paired.json()["tables"][0]["code"]
    reader = by_key(made(full, scope="read")["secret"])
    table = reader.get(f"/api/v1/tournaments/{made_tournament['id']}/rounds/1/").json()["tables"][0]
    assert "code" not in table and "keeper_url" not in table
    assert director.is_staff
