"""Who may write: a stream's recorders and the directors (ARCHITECTURE.md "Roles").

The recorders of a game or a match are the user who created it, the score-keepers it names
(``Stream.keepers``, set by its creator or a director) and, for a game of a match, the match's
recorders. Directors are staff or hold the ``games.direct`` permission; they may record anywhere
and alone may reopen a finished game or match. The services make this one check for the API, the
pages and the admin alike. ``user=None`` is the service itself (Celery tasks, management
commands); a request always passes its user, anonymous included.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db import connection

from games.rules.errors import BadSetup
from games.store.models import Player, Stream, TableCode

DIRECT = "games.direct"


class NotPermitted(Exception):
    """A write the user may not make: 403 (401 for ``permission.login_required``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def is_director(user: Any) -> bool:
    """Staff, or a user with the ``games.direct`` permission (his own or a group's)."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if user.is_staff or user.is_superuser:
        return True
    # One query, remembered on the request's user: has_perm would cost two on every request.
    held = getattr(user, "_holds_direct", None)
    if held is None:
        held = _holds_direct(user.pk)
        user._holds_direct = held
    return bool(held)


# Written out rather than as the ORM's four-way join: a member's every list or history asks it,
# and compiling that queryset cost 0.75 ms a request. ``{user}`` is the user's id: a parameter,
# or the column of a statement that reads the user (the token's, games.api.http.authentication).
DIRECT_SQL = """
    EXISTS (
        SELECT 1 FROM auth_permission p
        JOIN django_content_type ct ON ct.id = p.content_type_id
        WHERE p.codename = %(direct_codename)s AND ct.app_label = %(direct_app)s
          AND (p.id IN (SELECT permission_id FROM auth_user_user_permissions
                        WHERE user_id = {user})
               OR p.id IN (SELECT gp.permission_id FROM auth_group_permissions gp
                           JOIN auth_user_groups ug ON ug.group_id = gp.group_id
                           WHERE ug.user_id = {user})))
"""


def direct_params() -> dict[str, str]:
    """DIRECT_SQL's parameters: the permission's app and codename."""
    app_label, codename = DIRECT.split(".")
    return {"direct_app": app_label, "direct_codename": codename}


def remember_direct(user: Any, held: bool) -> None:
    """Whether ``user`` holds games.direct, as read with him (is_director asks no more)."""
    user._holds_direct = held


def _holds_direct(user_id: int) -> bool:
    params: dict[str, str | int] = {**direct_params(), "user": user_id}
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {DIRECT_SQL.format(user='%(user)s')}", params)
        row = cursor.fetchone()
    return bool(row and row[0])


# One indexed query: is the user the creator or a keeper of the stream, or of the match the game
# belongs to? No row: there is no such stream.
# The second column: does the stream belong to a tournament's table? The third: its category.
_RECORDER_SQL = """
    SELECT s.created_by_id = %(user)s
        OR EXISTS (SELECT 1 FROM games_stream_keepers k
                   WHERE k.stream_id IN (s.id, g.match_id) AND k.user_id = %(user)s)
        OR EXISTS (SELECT 1 FROM games_stream m
                   WHERE m.id = g.match_id AND m.created_by_id = %(user)s),
        mt.tournament_id IS NOT NULL,
        s.category
    FROM games_stream s
    LEFT JOIN games_game g ON g.stream_id = s.id
    LEFT JOIN games_match mt ON mt.stream_id = COALESCE(g.match_id, s.id)
    WHERE s.id = %(stream)s
"""


def recorder_to_test(user: Any) -> int | None:
    """Whose right to record a statement with RECORDER_CONDITION must test: None when nobody's
    (the service itself, staff). Call check_logged_in first."""
    if user is None or user.is_staff or user.is_superuser:
        return None
    return int(user.pk)


def is_recorder(user: Any, stream_id: uuid.UUID) -> bool:
    """May ``user`` record in this stream: a director, its creator or one of its keepers?"""
    return _recorder_row(user, stream_id)[0]


def _recorder_row(
    user: Any, stream_id: uuid.UUID, category: str | None = None
) -> tuple[bool, bool]:
    """(may record, the stream is a tournament table's). ``category``, when given, is the kind
    of stream addressed: a stream of another kind is not there (Stream.DoesNotExist), for
    whoever asks, so that a refusal does not tell a game's id from nothing at all."""
    if user is None:
        return True, False
    if not user.is_authenticated:
        return False, False
    if user.is_staff or user.is_superuser:
        return True, False
    params = {"stream": _db_uuid(stream_id), "user": user.pk}
    with connection.cursor() as cursor:
        cursor.execute(_RECORDER_SQL, params)
        row = cursor.fetchone()
    if row is None or (category is not None and row[2] != category):
        raise Stream.DoesNotExist(f"There is no {category or 'game or match'} {stream_id}.")
    # A keeper's move costs this one query; a director without staff rights, one more.
    return bool(row[0]) or is_director(user), bool(row[1])


def check_logged_in(user: Any) -> None:
    """Every write comes from a user who has logged in (or from the service itself)."""
    if user is not None and not user.is_authenticated:
        raise NotPermitted(
            "permission.login_required", "Log in or send a token to record in a game or match."
        )


def check_may_record(user: Any, stream_id: uuid.UUID, category: str | None = None) -> None:
    """Refuse a write by anyone but the stream's recorders and the directors.

    Asked before anything of the stream is looked at (its status, version, entry, games, what
    the event means there): whoever may not write learns no more than that he may not.
    ``category`` as for ``_recorder_row``."""
    check_logged_in(user)
    allowed, at_table = _recorder_row(user, stream_id, category)
    if not allowed and (at_table or is_table_keeper(user)):
        raise NotPermitted(
            "permission.not_your_table",
            "This is a tournament table's match: only the keepers assigned to this table, the "
            "tournament's director and the directors may record in it.",
        )
    if not allowed:
        raise NotPermitted(
            "permission.not_a_recorder",
            "Only this game's or match's recorders may record in it: the user who created it, "
            "the score-keepers it names, and the directors.",
        )


def is_table_keeper(user: Any) -> bool:
    """Is ``user`` a table code's keeper (games.tournaments.keepers), who records at one table?"""
    if user is None or not user.is_authenticated:
        return False
    return TableCode.objects.filter(keeper_id=user.pk).exists()


def check_not_table_keeper(user: Any, doing: str = "start a game or match of your own") -> None:
    """A table code records at its table alone: whatever an account does beyond it (a game or
    match of its own, API tokens) is refused to its session, by every service that does it."""
    if is_table_keeper(user):
        raise NotPermitted(
            "permission.not_your_table",
            "This browser keeps score at one tournament table by its code: it records there "
            f"alone. Log in with an account to {doing}.",
        )


def check_not_code_keepers(users: list[Any]) -> None:
    """A code's keeper keeps its own table and no other: naming him keeper of another game,
    match or table would open them to the card's code (422 ``keeper.table_code``)."""
    named = TableCode.objects.filter(keeper__in=users).select_related("keeper").first()
    if named is not None:
        raise BadSetup(
            "keeper.table_code",
            f"{named.keeper.get_username()} is the keeper of table {named.table_number}'s code "
            f"in round {named.round_number}: he records at that table alone. Name a user with "
            "an account.",
            field="user",
        )


def check_director(user: Any) -> None:
    """Tournaments and the player register are written by directors (and the service)."""
    check_logged_in(user)
    if user is not None and not is_director(user):
        raise NotPermitted(
            "permission.director_only",
            "Only a director (staff, or the games.direct permission) may do this.",
        )


def check_may_reopen(user: Any) -> None:
    """A finished game or match is reopened (``move.undone`` past its end) by a director only."""
    if user is not None and not is_director(user):
        raise NotPermitted(
            "permission.director_only",
            "This game or match is finished: only a director may reopen it, with a reason.",
        )


def check_may_name_keepers(user: Any, created_by_id: int | None) -> None:
    """Keepers are named by the stream's creator or a director."""
    if user is None or is_director(user):
        return
    check_not_table_keeper(user, "name score-keepers")  # its table is not its to hand on
    if not user.is_authenticated or user.pk != created_by_id:
        raise NotPermitted(
            "permission.not_the_creator",
            "Only the user who created this game or match, or a director, names its keepers.",
        )


def _db_uuid(value: uuid.UUID) -> Any:
    # SQLite stores UUIDs as 32 hex digits; PostgreSQL takes the UUID itself.
    return value.hex if connection.vendor == "sqlite" else value


def check_may_seat_by_member_number(user: Any, member_number: str) -> None:
    """Only a director, or the member himself, seats a player by member number. Anyone else is
    refused before the number is looked up, whatever it is: an answer that differed for a known
    and an unknown number would match numbers to names (403 ``permission.member_number``)."""
    if is_director(user):
        return
    if getattr(user, "is_authenticated", False):
        if Player.objects.filter(user=user, member_number=member_number).exists():
            return
    raise NotPermitted(
        "permission.member_number",
        "Only a director, or the member himself, may seat a player by member number: seat "
        "others by name or by player id.",
    )
