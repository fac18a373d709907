"""A season's standings as its readers get them (API.md "Seasons"); who may read a season is
``games.tournaments.reading``'s to say.

Each evening is read from its tournament's standings after its last complete round (its stream
folded, from its snapshot), so a correction to it (a result adjusted, a table voided, a round
paired again, a withdrawal) changes the season with its commit. A player merged into another
counts as that one: his evenings count once, as one player's.

The answer is kept per *fingerprint*: the season's head, each evening's head (its version with
its hash: versions repeat after a restore from a backup) and the register's (merges), read in
one statement with the season's row (who may read it). Any event of any of them changes the
fingerprint, so a kept answer is never stale; an evening's places are kept the same
way, so a correction to one evening reads that one again.
An unpublished evening counts only for those who may read it (``reading.tournament_hidden``):
for anyone else it is not in the season.
"""

from __future__ import annotations

import functools
import hashlib
import threading
import uuid
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

from django.db import connection
from django.utils import timezone

from games.play.register import REGISTER_ID
from games.rules.wording import told_apart
from games.store import folding
from games.store.models import Player, Season, Stream, Tournament
from games.tournaments import reading
from games.tournaments.core import rounds
from games.tournaments.core.season import counting
from games.tournaments.core.season import state as ss


class _Kept(OrderedDict[Hashable, Any]):
    """The last ``size`` values made, by key, shared by a process's threads.

    A key is made by one thread at a time: the others asking for it meanwhile wait and take its
    value. Made by each of them at once, a season's standings after a correction cost the
    process's four threads four times the work under one GIL, and everyone's answer waited for
    all four (a 40-evening season from nothing: 0.45 s alone, ~2 s four at a time).
    """

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size
        self.lock = threading.Lock()
        self.making: dict[Hashable, threading.Lock] = {}

    def get_or_make(self, key: Hashable, make: Any) -> Any:
        with self.lock:
            if key in self:
                self.move_to_end(key)
                return self[key]
            making = self.making.setdefault(key, threading.Lock())
        with making:
            with self.lock:
                if key in self:  # made by the thread we waited for
                    self.move_to_end(key)
                    return self[key]
            try:
                made = make()
            except BaseException:
                with self.lock:
                    self.making.pop(key, None)
                raise
            with self.lock:
                self[key] = made
                self.making.pop(key, None)
                while len(self) > self.size:
                    self.popitem(last=False)
        return made


_ANSWERS = _Kept(64)
_PLACES = _Kept(2048)
_COUNTED = _Kept(2048)


# --- the evenings -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Head:
    """An evening's stream head, as every request reads it: what the fingerprint is made of."""

    tournament: uuid.UUID
    published: bool
    version: int
    head_hash: str


@dataclass(frozen=True, slots=True)
class EveningHead:
    """An evening as pages and documents show it: its head with its name and date."""

    tournament: uuid.UUID
    name: str
    date: str
    published: bool
    version: int
    head_hash: str


@dataclass(frozen=True, slots=True)
class Heads:
    """Everything a request for the standings reads, in one statement: the season's row (who
    may read it) and head, the register's head (merges) and its evenings' heads by date."""

    published: bool
    created_by: int | None
    season: tuple[int, str]
    register: tuple[int, str]
    evenings: tuple[Head, ...]


def evening_heads(season: Season) -> list[EveningHead]:
    """The season's evenings by date, with their names, dates and heads."""
    rows = (
        Tournament.objects.filter(season=season)
        .order_by("created_at", "pk")
        .values_list(
            "pk", "name", "created_at", "published", "stream__version", "stream__head_hash"
        )
    )
    return [
        EveningHead(pk, name, _date(at), published, version, head)
        for pk, name, at, published, version, head in rows
    ]


def _date(at: Any) -> str:
    return str(timezone.localtime(at).date().isoformat())


# Read on every request, kept answer or not, so written out once and plain enough for SQLite
# (``make run``) and PostgreSQL alike: through the ORM (two statements, and each evening's time
# turned into a local date) it cost 1.2 ms of the 3.7 a kept answer took in process at 40
# evenings; the season's row was a third. The evenings come by date as a number (parsing forty
# timestamps a request cost a fifth of what was left), with the heads their rows hold (the
# store copies each one with its event: forty probes into the streams were half the rest).
def _heads_sql() -> str:
    stream, tournament, season = (m._meta.db_table for m in (Stream, Tournament, Season))
    return f"""
SELECT 0, t.stream_id, t.published, t.head_version, t.head_hash, NULL,
       row_number() OVER (ORDER BY t.created_at, t.stream_id)
  FROM {tournament} t
 WHERE t.season_id = %s
UNION ALL
SELECT 1, s.id, se.published, s.version, s.head_hash, s.created_by_id, 0
  FROM {stream} s LEFT JOIN {season} se ON se.stream_id = s.id
 WHERE s.id IN (%s, %s)
ORDER BY 1, 7"""


_HEADS = _heads_sql()


def season_heads(season_id: uuid.UUID) -> Heads | None:
    """The season's ``Heads``, or None when there is no such season."""
    as_db = Stream._meta.pk.get_db_prep_value
    key, register = as_db(season_id, connection), as_db(REGISTER_ID, connection)
    with connection.cursor() as cursor:
        cursor.execute(_HEADS, [key, key, register])
        rows = cursor.fetchall()
    evenings: list[Head] = []
    own: dict[uuid.UUID, tuple[Any, ...]] = {}
    for part, pk, published, version, head, created_by, _at in rows:
        pk = pk if isinstance(pk, uuid.UUID) else uuid.UUID(str(pk))  # SQLite: hex text
        if part == 0:
            evenings.append(Head(pk, bool(published), version, head))
        else:
            own[pk] = (published, created_by, (version, head))
    if season_id not in own or own[season_id][0] is None:
        return None
    published, created_by, season_head = own[season_id]
    register_head = own[REGISTER_ID][2] if REGISTER_ID in own else (0, "")
    return Heads(bool(published), created_by, season_head, register_head, tuple(evenings))


H = TypeVar("H", Head, EveningHead)


def readable_evenings(user: Any, heads: Sequence[H]) -> list[H]:
    """The evenings ``user`` may read (a query only for an unpublished one)."""
    return [h for h in heads if not reading.tournament_hidden(user, h.tournament, h.published)]


def _ranks(head: Head) -> tuple[dict[int, int], dict[int, str]]:
    """The ranks of the evening's field in its standings after its last complete round, and its
    players' names: a player is in the field once he played a round there (a table or a bye)."""
    stream = Stream.objects.get(pk=head.tournament)
    state = folding.load(stream).state
    done = state.last_complete
    if done == 0:
        return {}, {}
    table = rounds.standings_at(state, done)
    played = [row for row in table.rows if row.played > 0 or row.points > 0]
    names = {e.player: e.name for e in state.entries}
    return {row.player: row.rank for row in played}, names


def _evening(
    head: Head, shown: tuple[str, str], merges: dict[int, int]
) -> tuple[counting.Evening, dict[int, str]]:
    """The evening as the season counts it (``shown``: its name and date)."""
    ranks, names = _PLACES.get_or_make(
        (head.tournament, head.version, head.head_hash), lambda: _ranks(head)
    )
    best: dict[int, int] = {}
    for player, rank in ranks.items():
        into = _final(player, merges)
        best[into] = min(rank, best.get(into, rank))  # two entries of one player: his best
    # Placed among the field alone: the table also ranks entrants who never played, and a
    # merged player's second entry is no one else's place.
    places = counting.placed(best)
    evening = counting.Evening(str(head.tournament), *shown, places, len(places))
    return evening, names


def _counted(
    head: Head, shown: tuple[str, str], heads: Heads, scheme: Any, merges: dict[int, int]
) -> tuple[counting.Evening, dict[int, str], dict[int, Fraction]]:
    """The evening with its season points, kept per head, register head (merges) and scheme:
    after a correction to one evening only that one is counted again."""

    def make() -> tuple[counting.Evening, dict[int, str], dict[int, Fraction]]:
        evening, names = _evening(head, shown, merges)
        return evening, names, counting.evening_points(evening, scheme)

    key = (head.tournament, head.version, head.head_hash, heads.register, scheme, shown)
    made: tuple[counting.Evening, dict[int, str], dict[int, Fraction]]
    made = _COUNTED.get_or_make(key, make)
    return made


def _final(player: int, merges: dict[int, int]) -> int:
    seen = {player}
    while player in merges and merges[player] not in seen:
        player = merges[player]
        seen.add(player)
    return player


def _merges() -> dict[int, int]:
    rows = Player.objects.filter(merged_into__isnull=False).values_list("pk", "merged_into")
    return {player: into for player, into in rows if into is not None}


# --- the standings ------------------------------------------------------------------------------


def fingerprint(season: Season, evenings: Sequence[Head | EveningHead]) -> str:
    """A digest of everything the standings of ``evenings`` show: any event of the season, of
    one of those evenings or of the register changes it."""
    heads = season_heads(season.pk)
    if heads is None:
        raise Season.DoesNotExist(f"There is no season {season.pk}.")
    return _digest(season.pk, evenings, heads)


def _digest(season_id: uuid.UUID, evenings: Sequence[Head | EveningHead], heads: Heads) -> str:
    parts = (
        str(season_id),
        heads.season,
        [(str(h.tournament), h.version, h.head_hash) for h in evenings],
        heads.register,
    )
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:24]


def hidden(user: Any, heads: Heads) -> bool:
    """``reading.season_hidden`` from the heads already read: no query."""
    return reading.season_hidden_given(user, heads.published, heads.created_by)


def standings_for(season_id: uuid.UUID, user: Any) -> tuple[str, dict[str, Any]] | None:
    """The season's standings for ``user`` with their fingerprint, in one statement when they
    are kept; None when there is no such season for him (hidden is not there)."""
    heads = season_heads(season_id)
    if heads is None or hidden(user, heads):
        return None
    return _answer(season_id, user, heads)


def standings_json(season: Season, user: Any) -> dict[str, Any]:
    """The season's standings for ``user``: the evenings he may read. Shared: callers must
    not change it. The caller has asked whether he may read the season."""
    return standings_with_fingerprint(season, user)[1]


def standings_with_fingerprint(season: Season, user: Any) -> tuple[str, dict[str, Any]]:
    """``standings_json`` with its fingerprint (an ETag for the API and the page)."""
    heads = season_heads(season.pk)
    if heads is None:
        raise Season.DoesNotExist(f"There is no season {season.pk}.")
    return _answer(season.pk, user, heads)


def _answer(season_id: uuid.UUID, user: Any, heads: Heads) -> tuple[str, dict[str, Any]]:
    shown = readable_evenings(user, heads.evenings)
    key = _digest(season_id, shown, heads)
    make = functools.partial(_standings, season_id, shown, heads)
    answer: dict[str, Any] = _ANSWERS.get_or_make(key, make)
    return key, answer


def _standings(season_id: uuid.UUID, heads: list[Head], read: Heads) -> dict[str, Any]:
    state: ss.SeasonState = folding.load(Stream.objects.get(pk=season_id)).state
    merges = _merges()
    rows_of = Tournament.objects.filter(pk__in=[h.tournament for h in heads])
    shown = {
        pk: (name, _date(at)) for pk, name, at in rows_of.values_list("pk", "name", "created_at")
    }
    evenings, names, given = [], {}, []
    for head in heads:
        evening, evening_names, points = _counted(
            head, shown[head.tournament], read, state.points, merges
        )
        evenings.append(evening)
        names.update(evening_names)
        given.append(points)
    rows = counting.standings(evenings, state.points, state.best, given)
    players = {p.pk: p.name for p in Player.objects.filter(pk__in=[row.player for row in rows])}
    named = {row.player: players.get(row.player) or names.get(row.player, "") for row in rows}
    labels = told_apart(named)  # namesakes numbered by registration, "Pat (2)"
    return {
        "season": str(season_id),
        "evenings": len(heads),
        "counted_evenings": sum(1 for e in evenings if e.field),
        "rows": [_row_json(row, named, labels) for row in rows],
        "explain": counting.explain(state.points, state.best, len(heads)),
    }


def _row_json(row: counting.Row, names: dict[int, str], labels: dict[int, str]) -> dict[str, Any]:
    return {
        "place": row.place,
        "player": row.player,
        "name": names[row.player],
        "label": labels[row.player],
        "points": row.points,
        "evenings": row.evenings,
        "counted": row.counted,
        "won": row.won,
        "points_all": row.all_points,
        "results": [
            {
                "tournament": r.tournament,
                "name": r.name,
                "date": r.date,
                "place": r.place,
                "of": r.of,
                "points": r.points,
                "counted": r.counted,
            }
            for r in row.results
        ],
    }
