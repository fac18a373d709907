"""A tournament created: its settings checked and recorded in ``tournament.created``.

Every service of the context takes the client's ``meta`` (``client_time``, ``device``, ``note``:
the shape of a game event's meta, games.store.event_types.check_meta) and stores it with each
event it records, beside who recorded it, so the admin shows a director's device as it does a
keeper's.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db import transaction

from games.play import appending, permissions
from games.rules import registry
from games.rules.base import make_ruleset
from games.rules.errors import BadSetup
from games.store.canonical import canonical
from games.store.models import (
    Season,
    Stream,
    Tournament,
)
from games.tournaments import recording, seasons
from games.tournaments.core import events, tiebreaks
from games.tournaments.core import state as ts


@transaction.atomic
def tournament_create(
    *, spec: dict[str, Any], user: Any, meta: dict[str, Any] | None = None
) -> Tournament:
    """Create a tournament stream from the API's body (API.md) and record ``tournament.created``;
    with ``"season"``, the evening joins that season in the same transaction (refused, nothing
    is created: 409 ``season.already_has_tournament``/``season.closed``, 422
    ``season.wrong_format``)."""
    permissions.check_director(user)
    stored_meta = recording.stored_meta(user, meta)
    spec = dict(spec)
    season_id = _season_id(spec.pop("season", None))
    header = _header(canonical(spec))
    stream = Stream.objects.create(
        category=Stream.Category.TOURNAMENT,
        kind=header["format"],
        created_by=recording.account(user),
    )
    tournament = Tournament.objects.create(
        stream=stream,
        name=header["name"],
        format=header["format"],
        system=header["system"],
        published=header["published"],
    )
    appending.append(stream, uuid.uuid4(), events.CREATED, header, stored_meta, None)
    if season_id is not None:
        seasons.tournament_add(
            season_id=season_id, tournament_id=tournament.pk, user=user, meta=meta
        )
    return tournament


def _season_id(value: Any) -> uuid.UUID | None:
    """The season the new evening joins, if the body names one that exists (seasons are never
    deleted, so it still does when the evening joins it)."""
    if value is None:
        return None
    try:
        season_id = uuid.UUID(value) if isinstance(value, str) else None
    except ValueError:
        season_id = None
    if season_id is None or not Season.objects.filter(pk=season_id).exists():
        raise BadSetup(
            "tournament.no_such_season",
            "season names no season: it is a season's id.",
            field="season",
        )
    return season_id


_SPEC_FIELDS = {
    "name",
    "format",
    "system",
    "rounds",
    "table_size",
    "entry",
    "ruleset",
    "tiebreaks",
    "double",
    "seeding",
    "published",
}


def _header(spec: dict[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(spec) - _SPEC_FIELDS)
    if unknown:
        raise BadSetup(
            "tournament.unknown_field",
            f"A tournament takes {', '.join(sorted(_SPEC_FIELDS))}; not {', '.join(unknown)}.",
        )
    name = spec.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 200:
        raise BadSetup("tournament.bad_name", "A tournament needs a name of 1 to 200 characters.")
    format = spec.get("format")
    if format not in registry.formats():
        raise BadSetup(
            "tournament.bad_format",
            f"format must be a match format ({', '.join(registry.formats())}), not {format!r}.",
            field="format",
        )
    rules = registry.match_rules(format)
    system = spec.get("system", "swiss")
    header = {
        "name": name.strip(),
        "format": format,
        "system": system,
        "rounds": spec.get("rounds"),
        "table_size": spec.get("table_size", 1 if format == "scarney-solitaire" else 2),
        "entry": spec.get("entry", "sheet"),
        "ruleset": spec.get("ruleset") or {},
        "tiebreaks": spec.get("tiebreaks", list(tiebreaks.DEFAULT)),
        "double": spec.get("double", False),
        "seeding": spec.get("seeding", "entry"),
        "published": spec.get("published", True),
        # Results played at its tables wait for their players' confirmation (older
        # tournaments, without the flag, took them as entered).
        "confirm_results": True,
    }
    _check_choices(header)
    ts.settings_from(header)  # the system
    _check_header(header, rules.min_seats, rules.max_seats)
    # The matches' house rules, checked now rather than when the first round starts them.
    make_ruleset(rules.ruleset_type, header["ruleset"])
    return header


def _check_choices(header: dict[str, Any]) -> None:
    for flag in ("double", "published"):
        if not isinstance(header[flag], bool):
            raise BadSetup(
                "tournament.bad_flag", f"{flag} is true or false, not {header[flag]!r}.", field=flag
            )
    tiebreaks.check(header["tiebreaks"])


def _check_header(header: dict[str, Any], low: int, high: int) -> None:
    size, system, rounds_ = header["table_size"], header["system"], header["rounds"]
    if not isinstance(size, int) or isinstance(size, bool) or not low <= size <= high:
        raise BadSetup(
            "tournament.bad_table_size",
            f"{header['format']} seats {low} to {high} players at a table, not {size!r}.",
            field="table_size",
        )
    if system in ("swiss", "round_robin") and size != 2 and header["format"] != "scarney-solitaire":
        raise BadSetup(
            "tournament.bad_table_size",
            f"A {system} pairs two players at a table; use system 'tables' for {size}.",
            field="table_size",
        )
    if system != "round_robin" and (
        not isinstance(rounds_, int) or isinstance(rounds_, bool) or not 1 <= rounds_ <= 30
    ):
        raise BadSetup(
            "tournament.bad_rounds",
            "rounds is the number of rounds to play, 1 to 30.",
            field="rounds",
        )
    if header["entry"] not in ("live", "sheet"):
        raise BadSetup(
            "match.bad_entry", f"entry must be 'live' or 'sheet', not {header['entry']!r}."
        )
    if header["seeding"] not in ("entry", "random", "rating"):
        raise BadSetup(
            "tournament.bad_seeding",
            "seeding is 'entry' (entry order), 'random' or 'rating' (by the players' ratings).",
        )
