"""Who keeps score at a tournament's table: a keeper a director assigns for a round
(``keeper_assign``), or the table's code, a keeper link for a phone with no account (API.md
"Tournaments").

When a round is paired, each table gets a code of 8 signs from an alphabet without look-alikes
(32 signs: 40 random bits, too many to guess at the throttled rate of the keeper link). Opening
``/t/{code}/`` logs that browser in as the code's keeper: a user made for the code alone, with
no password, who keeps that table's match. So every check of who may record (the pages, the
API with the session and CSRF, the fast path's statement) treats it as any keeper, at that
table alone. A code stops when its round closes, or when a director revokes or reissues it: its
keeper is deactivated then, and a browser still holding its session is refused at once.
"""

from __future__ import annotations

import secrets
import uuid
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.play import permissions
from games.rules.errors import BadSetup, IllegalEvent, StateConflict
from games.store import folding, journal
from games.store.models import Stream, TableCode
from games.tournaments import recording
from games.tournaments.core import events
from games.tournaments.core import state as ts

# No 0/O, no 1/I: a code read aloud or typed from a card is not misread.
ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
LENGTH = 8  # 8 signs of 5 bits: 40 bits


class CodeRefused(Exception):
    """A code that opens nothing: ``code.unknown`` (404), ``code.revoked`` or
    ``code.expired`` (410)."""

    def __init__(self, code: str, message: str, status: int) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def shown(code: str) -> str:
    """A code as printed and typed: two groups of four, ``K7QM-2XPA``."""
    return f"{code[:4]}-{code[4:]}"


def keeper_url(code: str) -> str:
    return f"/t/{shown(code)}/"


def normalized(text: str) -> str | None:
    """The code in ``text`` as stored, or None if it cannot be one (case and dashes aside)."""
    code = text.upper().replace("-", "").replace(" ", "")
    if len(code) != LENGTH or any(sign not in ALPHABET for sign in code):
        return None
    return code


def issue_round(tournament_id: uuid.UUID, round_number: int, tables: list[dict[str, Any]]) -> None:
    """A code for every table of a round just paired (or paired again: every old code of the
    round stops, a table the new pairing no longer has included)."""
    _stop(
        TableCode.objects.filter(tournament_id=tournament_id, round_number=round_number),
        revoked=True,
    )
    for table in tables:
        _issue(tournament_id, round_number, table["table"], uuid.UUID(table["match"]))


def _of_table(tournament_id: uuid.UUID, round_number: int, table_number: int) -> Any:
    return TableCode.objects.filter(
        tournament_id=tournament_id, round_number=round_number, table_number=table_number
    )


def _issue(
    tournament_id: uuid.UUID, round_number: int, table_number: int, match_id: uuid.UUID
) -> TableCode:
    """A new code for the table, and the keeper it logs in (its codes before stopped already)."""
    keeper = get_user_model()(
        username=f"table-keeper-{secrets.token_hex(8)}",
        first_name=f"Table {table_number}, round {round_number}",  # how the pages name him
    )
    keeper.set_unusable_password()
    keeper.save()
    Stream.objects.get(pk=match_id).keepers.add(keeper)
    return _created(tournament_id, round_number, table_number, match_id, keeper)


def _created(
    tournament_id: uuid.UUID, round_number: int, table_number: int, match_id: uuid.UUID, keeper: Any
) -> TableCode:
    for _ in range(5):  # a clash of 40 random bits is all but impossible; never a 500 for one
        try:
            with transaction.atomic():
                return TableCode.objects.create(
                    code="".join(secrets.choice(ALPHABET) for _ in range(LENGTH)),
                    tournament_id=tournament_id,
                    round_number=round_number,
                    table_number=table_number,
                    match_id=match_id,
                    keeper=keeper,
                )
        except IntegrityError:
            continue
    raise RuntimeError("No free table code after five draws.")


def expire_closed(tournament_id: uuid.UUID, closed_rounds: list[int]) -> None:
    """The codes of closed rounds stop (called after every event of the tournament)."""
    if closed_rounds:
        live = TableCode.objects.filter(tournament_id=tournament_id, round_number__in=closed_rounds)
        _stop(live, revoked=False)


def _stop(codes: Any, *, revoked: bool) -> None:
    live = codes.filter(revoked_at=None, expired_at=None)
    keepers = list(live.values_list("keeper_id", "match_id"))
    if not keepers:
        return
    now = timezone.now()
    live.update(**({"revoked_at": now} if revoked else {"expired_at": now}))
    get_user_model().objects.filter(pk__in=[k for k, _ in keepers]).update(is_active=False)
    for keeper_id, match_id in keepers:
        Stream.keepers.through.objects.filter(stream_id=match_id, user_id=keeper_id).delete()


def live_codes(tournament_id: uuid.UUID, round_number: int) -> dict[int, str]:
    """The round's live codes, by table, as shown."""
    rows = TableCode.objects.filter(
        tournament_id=tournament_id,
        round_number=round_number,
        revoked_at=None,
        expired_at=None,
    ).values_list("table_number", "code")
    return {table: shown(code) for table, code in rows}


def opened(text: str) -> TableCode:
    """The live code ``text`` names, or CodeRefused saying why it opens nothing."""
    code = normalized(text)
    found = None if code is None else TableCode.objects.filter(code=code).first()
    if found is None:
        raise CodeRefused(
            "code.unknown", "No table has this code: check it against the table card.", 404
        )
    if found.revoked_at is not None:
        raise CodeRefused(
            "code.revoked",
            "This table's code was revoked by the director: ask for the table's new card.",
            410,
        )
    if found.expired_at is not None:
        raise CodeRefused(
            "code.expired",
            f"Round {found.round_number} is over: this table's code no longer records.",
            410,
        )
    return found


# --- the directors' commands ------------------------------------------------------------------


@transaction.atomic
def reissue(*, tournament_id: uuid.UUID, round: Any, table: Any, user: Any) -> TableCode:
    """A new code for the table (a lost card, a keeper changed): the old one stops at once."""
    seated = _open_table(tournament_id, round, table, user)
    _stop(_of_table(tournament_id, round, seated.number), revoked=True)
    return _issue(tournament_id, round, seated.number, uuid.UUID(seated.match))


@transaction.atomic
def revoke(*, tournament_id: uuid.UUID, round: Any, table: Any, user: Any) -> None:
    """The table's code stops at once; nobody records by a code there until one is reissued."""
    seated = _open_table(tournament_id, round, table, user)
    _stop(_of_table(tournament_id, round, seated.number), revoked=True)


def _open_table(tournament_id: uuid.UUID, round: Any, table: Any, user: Any) -> Any:
    permissions.check_director(user)
    stream = journal.lock_stream(tournament_id)  # in step with the round's closing
    if stream.category != Stream.Category.TOURNAMENT:
        raise Stream.DoesNotExist(f"There is no tournament {tournament_id}.")
    try:
        played = folding.load(stream).state.round(round)
        seated = played.table(table)
    except IllegalEvent as missing:
        # The round and table are the address's: one that is not there is not found (404).
        raise TableCode.DoesNotExist(missing.message) from None
    if played.closed:
        raise StateConflict("round.closed", f"Round {played.number} is closed: its codes stop.")
    if not seated.match:
        raise TableCode.DoesNotExist(f"Table {seated.number} has no match.")
    return seated


@transaction.atomic
def keeper_assign(
    *,
    tournament_id: uuid.UUID,
    round: Any,
    table: Any,
    username: Any,
    user: Any,
    meta: dict[str, Any] | None = None,
) -> ts.Table:
    """``username`` keeps score at that table this round: he may record in its match only."""
    permissions.check_director(user)
    keeper = get_user_model().objects.filter(username=username).first()
    if keeper is None:
        raise BadSetup("keeper.unknown_user", f"There is no user {username!r} to name as keeper.")
    permissions.check_not_code_keepers([keeper])
    stream = recording.lock(tournament_id)
    data = {"round": round, "table": table, "user": username}
    folded = recording.append(stream, events.KEEPER_ASSIGNED, data, user, meta=meta)
    state: ts.TournamentState = folded.state
    seated = state.round(round).table(table)
    if seated.match:
        Stream.objects.get(pk=seated.match).keepers.add(keeper)
    return seated
