"""A club's season (API.md "Seasons"): made, its evenings added and removed, closed.

A season is a stream of its own, written by directors; its row (``Season``) and each evening's
``Tournament.season`` are projections of it, rewritten here in the event's transaction. An
evening belongs to one season: adding it locks the tournament's row, so two seasons cannot take
it at once.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db import transaction

from games.play import appending, permissions
from games.rules import registry
from games.rules.errors import BadSetup, IllegalEvent, StateConflict
from games.store import folding, journal
from games.store.canonical import canonical
from games.store.models import Season, Stream, Tournament
from games.tournaments import recording
from games.tournaments.core.season import events
from games.tournaments.core.season import state as ss
from games.tournaments.core.season.events import LONGEST_TABLE, MOST_BEST

_SPEC_FIELDS = ("name", "format", "counting", "points", "published")


@transaction.atomic
def season_create(*, spec: dict[str, Any], user: Any, meta: dict[str, Any] | None = None) -> Season:
    """Create a season from the API's body and record ``season.created``."""
    permissions.check_director(user)
    stored_meta = recording.stored_meta(user, meta)
    header = _header(canonical(spec))
    stream = Stream.objects.create(
        category=Stream.Category.SEASON,
        kind=header["format"] or "any",
        created_by=recording.account(user),
    )
    season = Season.objects.create(stream=stream, name=header["name"])
    recorded = appending.append(stream, uuid.uuid4(), events.CREATED, header, stored_meta, None)
    _project(stream, recorded.folded.state)
    season.refresh_from_db()
    return season


@transaction.atomic
def tournament_add(
    *,
    season_id: uuid.UUID,
    tournament_id: uuid.UUID,
    user: Any,
    reason: str | None = None,
    meta: dict[str, Any] | None = None,
) -> ss.SeasonState:
    """An evening joins the season: 409 if it is in a season already, 422 if it plays another
    format than the season's."""
    permissions.check_director(user)
    stream = _lock(season_id)
    tournament = _locked_tournament(tournament_id)
    folded = folding.load(stream)
    state: ss.SeasonState = folded.state
    if tournament.season_id is not None:
        where = "this season" if tournament.season_id == season_id else "another season"
        raise StateConflict(
            "season.already_has_tournament",
            f"{tournament.name} is already an evening of {where}: an evening counts in one.",
            field="tournament",
        )
    if state.format is not None and tournament.format != state.format:
        raise IllegalEvent(
            "season.wrong_format",
            f"{state.name} is played at {state.format}; {tournament.name} at {tournament.format}.",
            field="tournament",
        )
    data = _with_reason({"tournament": str(tournament_id)}, reason)
    return _append(stream, events.ADDED, data, user, folded, meta)


@transaction.atomic
def tournament_remove(
    *,
    season_id: uuid.UUID,
    tournament_id: uuid.UUID,
    user: Any,
    reason: str | None = None,
    meta: dict[str, Any] | None = None,
) -> ss.SeasonState:
    """An evening leaves the season: its results stop counting at once."""
    permissions.check_director(user)
    stream = _lock(season_id)
    data = _with_reason({"tournament": str(tournament_id)}, reason)
    return _append(stream, events.REMOVED, data, user, None, meta)


@transaction.atomic
def season_close(
    *,
    season_id: uuid.UUID,
    user: Any,
    reason: str | None = None,
    meta: dict[str, Any] | None = None,
) -> ss.SeasonState:
    """The season is over: its evenings stay as they are (409 ``season.closed`` after)."""
    permissions.check_director(user)
    stream = _lock(season_id)
    return _append(stream, events.CLOSED, _with_reason({}, reason), user, None, meta)


def _lock(season_id: uuid.UUID) -> Stream:
    stream = journal.lock_stream(season_id)
    if stream.category != Stream.Category.SEASON:
        raise Season.DoesNotExist(f"There is no season {season_id}.")
    return stream


def _locked_tournament(tournament_id: uuid.UUID) -> Tournament:
    found = Tournament.objects.select_for_update(of=("self",)).filter(pk=tournament_id).first()
    if found is None:
        raise IllegalEvent(
            "season.no_such_tournament", "There is no such tournament.", field="tournament"
        )
    return found


def _with_reason(data: dict[str, Any], reason: str | None) -> dict[str, Any]:
    if reason is not None and str(reason).strip():
        data["reason"] = str(reason).strip()
    return data


def _append(
    stream: Stream,
    type: str,
    data: dict[str, Any],
    user: Any,
    folded: folding.Folded | None,
    meta: dict[str, Any] | None,
) -> ss.SeasonState:
    recorded = appending.append(
        stream, uuid.uuid4(), type, canonical(data), recording.stored_meta(user, meta), folded
    )
    state: ss.SeasonState = recorded.folded.state
    _project(stream, state)
    return state


def _project(stream: Stream, state: ss.SeasonState) -> None:
    """Rewrite the season's row and its evenings' link from its state."""
    Season.objects.filter(pk=stream.pk).update(
        name=state.name,
        format=state.format or "",
        best=state.best,
        points=state.points if state.points == ss.FIELD else list(state.points),
        published=state.published,
        closed=state.closed,
    )
    evenings = [uuid.UUID(t) for t in state.evenings]
    Tournament.objects.filter(season_id=stream.pk).exclude(pk__in=evenings).update(season=None)
    Tournament.objects.filter(pk__in=evenings, season__isnull=True).update(season_id=stream.pk)


# --- the settings, checked ----------------------------------------------------------------------


def _header(spec: Any) -> dict[str, Any]:
    if not isinstance(spec, dict):
        raise BadSetup("season.bad_body", "A season is an object: name, format, counting, points.")
    unknown = sorted(set(spec) - set(_SPEC_FIELDS))
    if unknown:
        raise BadSetup(
            "season.unknown_field",
            f"A season takes {', '.join(_SPEC_FIELDS)}; not {', '.join(unknown)}.",
            field=unknown[0],
        )
    return {
        "name": _name(spec.get("name")),
        "format": _format(spec.get("format")),
        "best": _best(spec.get("counting", {"best": None})),
        "points": _points(spec.get("points", ss.FIELD)),
        "published": _published(spec.get("published", True)),
    }


def _name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip() or len(name) > 200:
        raise BadSetup(
            "season.bad_name", "A season needs a name of 1 to 200 characters.", field="name"
        )
    return name.strip()


def _format(format: Any) -> str | None:
    if format is None:
        return None
    if format not in registry.formats():
        raise BadSetup(
            "season.bad_format",
            f"format is a match format ({', '.join(registry.formats())}) or null (any), "
            f"not {format!r}.",
            field="format",
        )
    return str(format)


def _best(counting: Any) -> int | None:
    best: Any = counting.get("best", "missing") if isinstance(counting, dict) else "missing"
    if best is None and set(counting) == {"best"}:
        return None
    whole = isinstance(best, int) and not isinstance(best, bool)
    if not whole or not 1 <= best <= MOST_BEST or set(counting) != {"best"}:
        raise BadSetup(
            "season.bad_counting",
            f'counting is {{"best": N}}, N evenings from 1 to {MOST_BEST}, or {{"best": null}} '
            "for every evening.",
            field="counting",
        )
    return int(best)


def _points(points: Any) -> str | list[float]:
    if points == ss.FIELD:
        return ss.FIELD
    table = (
        points.get("by_place") if isinstance(points, dict) and set(points) == {"by_place"} else None
    )
    good = (
        isinstance(table, list)
        and 1 <= len(table) <= LONGEST_TABLE
        and all(_points_value(p) for p in table)
    )
    if not good:
        raise BadSetup(
            "season.bad_points",
            f'points is "field" (n - place + 1) or {{"by_place": [...]}}: 1 to {LONGEST_TABLE} '
            "numbers from 0 to 1000, the winner's first.",
            field="points",
        )
    return [float(p) for p in table]  # type: ignore[union-attr]


def _points_value(value: Any) -> bool:
    number = isinstance(value, int | float) and not isinstance(value, bool)
    return number and 0 <= value <= 1000


def _published(published: Any) -> bool:
    if not isinstance(published, bool):
        raise BadSetup(
            "season.bad_flag", f"published is true or false, not {published!r}.", field="published"
        )
    return published
