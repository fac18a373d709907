"""The scale bench's database: players, tournaments and matches up to a million events.

``bench/seed_scale.py`` drives it in four steps:

1. players, registered through ``games.play.register.player_register`` (the register's stream);
2. tournaments (High-Low Scarney Swiss evenings, sheet entry) through
   ``games.tournaments``: entries, every round paired by the service, every table's
   sheet entered through ``games.play.services.event_record``, settled by the close task (Celery
   eager);
3. template matches through the services: live matches of several formats played to the end with
   random legal play (``games.demo.sample_tables.next_move``), each settled by its close task, and
   sheet matches whose lines are the live templates' game scores;
4. clones of the templates, bulk-loaded with COPY until the store holds the target counts: a
   clone is its template's events with new stream and event ids, other players (chosen from the
   register), later timestamps, its own hash chain (``games.store.journal.chain_hash``) and a
   snapshot made by re-folding its events through the rule engines (``games.store.folding``), so
   every clone
   is a stream the services could have written and ``verify_events`` re-checks it like any other.

Read models are then rebuilt from the events (``rebuild_projections``).
"""

from __future__ import annotations

import datetime as dt
import json
import multiprocessing as mp
import random
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

# format, seats: formats whose random play ends by itself (probed: the others wait for moves the
# random player does not make, such as Double Cameroon's groupings or Manchester's deals).
LIVE_FORMATS: list[tuple[str, int]] = [
    ("scarney-singles", 3),
    ("scarney-doubles", 2),
    ("high-low-scarney", 2),
    ("straight-scarney-dice", 4),
    ("scarney-3000", 3),
    ("partnership-scarney-3000", 4),
    ("partnership-straight-scarney-dice", 4),
    ("hearts-due", 3),
    ("going-to-boston", 2),
    ("multiplication", 2),
    ("scarney-solitaire", 1),
]
HL_WIN = [34, 0]  # a High-Low game won by the first seat (RULES.md Appendix C.3)
EPOCH = dt.datetime(2023, 1, 1, tzinfo=dt.UTC)
SPAN_DAYS = 700
CHUNK = 250  # clones per COPY transaction


# --- 1. players -------------------------------------------------------------------------------


def players_register(count: int, user: Any) -> list[tuple[int, str]]:
    """``count`` players of the register (made through the service if missing): (pk, name)."""
    from games.play import register
    from games.store.models import Player

    have = list(Player.objects.filter(name__startswith="Scale ").order_by("pk"))
    for i in range(len(have), count):
        have.append(
            register.player_register(
                name=f"Scale {i + 1:04d}", member_number=f"S{i + 1:05d}", user=user
            )
        )
    return [(p.pk, p.name) for p in have[:count]]


# --- 2. tournaments ---------------------------------------------------------------------------


def tournament_run(
    number: int, players: list[tuple[int, str]], rounds: int, rng: random.Random, user: Any
) -> int:
    """One Swiss evening of High-Low Scarney, every round played; the matches it made."""
    from games.play import services
    from games.store.models import TournamentTable
    from games.tournaments import creating, entries
    from games.tournaments import rounds as pairing

    tournament = creating.tournament_create(
        spec={
            "name": f"Scale evening {number}",
            "format": "high-low-scarney",
            "system": "swiss",
            "rounds": rounds,
            "table_size": 2,
            "entry": "sheet",
        },
        user=user,
    )
    for pk, _name in players:
        entries.entry_add(tournament_id=tournament.pk, spec={"player": pk}, user=user)
    matches = 0
    for _ in range(rounds):
        n = pairing.round_pair(tournament_id=tournament.pk, user=user)
        tables = TournamentTable.objects.filter(tournament=tournament, round_number=n)
        for table in tables.exclude(match=None):
            line = HL_WIN if rng.random() < 0.5 else HL_WIN[::-1]
            for _game in range(3):
                services.event_record(
                    stream_id=uuid.UUID(str(table.match_id)),
                    event_id=uuid.uuid4(),
                    type="game.scored",
                    data={"scores": line},
                    user=user,
                )
            matches += 1
    return matches


# --- 3. templates -----------------------------------------------------------------------------


def live_template(
    format: str, seats: int, players: list[tuple[int, str]], rng: random.Random, user: Any
) -> uuid.UUID | None:
    """A live match played to its end through the services (None if random play stalls)."""
    from games.demo import sample_tables
    from games.play import services
    from games.store import folding
    from games.store.models import Stream

    chosen = rng.sample(players, seats)
    match = services.match_start(
        format=format, players=[{"player": pk} for pk, _ in chosen], entry="live", user=user
    )
    for _game in range(60):
        if Stream.objects.get(pk=match.pk).status != Stream.Status.IN_PROGRESS:
            break
        game = services.game_start(kind=format, seats=None, match_id=match.pk, user=user)
        for _move in range(5000):
            move = sample_tables.next_move(folding.load(Stream.objects.get(pk=game.pk)), rng)
            if move is None:
                break
            sample_tables.record(game.pk, user, *move)
    finished = Stream.objects.get(pk=match.pk).status in ("finished", "settled")
    return match.pk if finished else None


def sheet_template(
    live: uuid.UUID, players: list[tuple[int, str]], rng: random.Random, user: Any
) -> uuid.UUID | None:
    """A sheet match of the live template's format whose lines are its game scores."""
    from games.play import services
    from games.rules.errors import RuleError
    from games.store.models import Event, Match

    template = Match.objects.get(pk=live)
    lines = [
        e.data["scores"]
        for e in Event.objects.filter(stream_id=live, type="game.finished").order_by("version")
    ]
    chosen = rng.sample(players, template.seats.count())
    for ruleset in ({}, {"sheet_entry_validation": "lenient"}):
        match = services.match_start(
            format=template.format,
            entry="sheet",
            ruleset=ruleset,
            players=[{"player": pk} for pk, _ in chosen],
            user=user,
        )
        try:
            for scores in lines:
                services.event_record(
                    stream_id=match.pk,
                    event_id=uuid.uuid4(),
                    type="game.scored",
                    data={"scores": scores},
                    user=user,
                )
            return uuid.UUID(str(match.pk))
        except (RuleError, TypeError):
            continue  # a line the strict sheet refuses: that match stays unfinished, unused
    return None


# --- 4. clones --------------------------------------------------------------------------------


@dataclass
class Stream_:
    """One stream of a template: its row and its events as JSON text with ids as tokens."""

    id: uuid.UUID
    category: str
    kind: str
    status: str
    is_public: bool
    created_by: int | None
    number: int | None  # a game's number in its match
    seats: list[int]  # player pk per seat (games)
    events: list[tuple[str, str, int, str, str, float]] = field(default_factory=list)
    # (id rule, type, schema, data text, meta text, seconds after the match's start)


@dataclass
class Template:
    match: uuid.UUID
    format: str
    entry: str
    players: list[int]
    streams: list[Stream_]

    @property
    def events(self) -> int:
        return sum(len(s.events) for s in self.streams)


def template_load(match_id: uuid.UUID) -> Template:
    """A finished template match and its games, ready to be copied."""
    from games.store.models import Event, Game, Match

    match = Match.objects.select_related("stream").get(pk=match_id)
    players = [s.player_id for s in match.seats.order_by("seat")]
    games = list(Game.objects.filter(match=match).select_related("stream").order_by("number"))
    ids = [match.pk, *(g.pk for g in games)]
    tokens = {str(pk): f"@@S{i}@@" for i, pk in enumerate(ids)}
    start = match.stream.created_at
    streams = []
    for stream, number, seats in [(match.stream, None, players)] + [
        (g.stream, g.number, [s.player_id for s in g.seats.order_by("seat")]) for g in games
    ]:
        item = Stream_(
            stream.pk,
            stream.category,
            stream.kind,
            stream.status,
            stream.is_public,
            stream.created_by_id,
            number,
            seats,
        )
        for e in Event.objects.filter(stream=stream).order_by("version"):
            rule = _id_rule(e.id, e.type, ids)
            text = json.dumps(e.data, separators=(",", ":"))
            for old, token in tokens.items():
                text = text.replace(old, token)
            at = (e.recorded_at - start).total_seconds()
            item.events.append((rule, e.type, e.schema_version, text, json.dumps(e.meta), at))
        streams.append(item)
    return Template(match.pk, match.format, match.entry, players, streams)


def _id_rule(event_id: uuid.UUID, type: str, ids: list[uuid.UUID]) -> str:
    """How a clone's event gets its id: "uuid4", or "S<i>" for uuid5(stream i of the clone,
    type), the ids the services derive (a game's report to its match, a match's close)."""
    for i, pk in enumerate(ids):
        if event_id == uuid.uuid5(pk, type):
            return f"S{i}"
    return "uuid4"


def _seat_swap(data: dict[str, Any], type: str, people: dict[int, tuple[int, str]]) -> None:
    """The clone's players in the start events' seat lists (the only place events name them)."""
    key = {"match.started": "players", "game.started": "seats"}.get(type)
    for seat in data.get(key, []) if key else []:
        if seat.get("player") in people:
            seat["player"], seat["name"] = people[seat["player"]]


def clone_rows(
    t: Template, people: dict[int, tuple[int, str]], start: dt.datetime, rng: random.Random
) -> dict[str, list[tuple[Any, ...]]]:
    """The rows of one clone of ``t``: streams, match, seats, games, events."""
    from psycopg.types.json import Jsonb

    from games.store import folding
    from games.store.journal import chain_hash

    ids = [uuid.uuid4() for _ in t.streams]
    tokens = {f"@@S{i}@@": str(pk) for i, pk in enumerate(ids)}
    rows: dict[str, list[tuple[Any, ...]]] = {
        k: [] for k in ("stream", "match", "mseat", "game", "gseat", "event")
    }
    for i, s in enumerate(t.streams):
        head, moves, header = "", [], None
        for version, (rule, type, schema, text, meta, after) in enumerate(s.events, 1):
            for token, value in tokens.items():
                text = text.replace(token, value)
            data = json.loads(text)
            _seat_swap(data, type, people)
            event_id = uuid.uuid4() if rule == "uuid4" else uuid.uuid5(ids[int(rule[1:])], type)
            at = start + dt.timedelta(seconds=after)
            meta_d = json.loads(meta)
            head = chain_hash(
                head,
                SimpleNamespace(  # type: ignore[arg-type]
                    stream_id=ids[i],
                    version=version,
                    id=event_id,
                    type=type,
                    schema_version=schema,
                    data=data,
                    meta=meta_d,
                    recorded_at=at,
                ),
            )
            rows["event"].append(
                (event_id, ids[i], version, type, schema, Jsonb(data), Jsonb(meta_d), at, head)
            )
            if version == 1:
                header = data
            else:
                moves.append((version, type, data))
        folded = folding.fold_moves(s.category, header or {}, 1, moves)
        created = start + dt.timedelta(seconds=s.events[0][5])
        rows["stream"].append(
            (
                ids[i],
                s.category,
                s.kind,
                len(s.events),
                s.status,
                folding.pack(folded, ids[i]),
                len(s.events),
                head,
                s.is_public,
                s.created_by,
                created,
            )
        )
        seats = [people[p][0] for p in s.seats]
        if s.category == "match":
            rows["match"].append((ids[0], t.format, t.entry, created))
            rows["mseat"] += [(n, p, ids[0]) for n, p in enumerate(seats)]
        else:
            rows["game"].append((ids[i], s.kind, s.number, created, ids[0]))
            rows["gseat"] += [(n, p, ids[i]) for n, p in enumerate(seats)]
    return rows


COPIES = {
    "stream": "COPY games_stream (id, category, kind, version, status, snapshot, snapshot_version,"
    " head_hash, is_public, created_by_id, created_at) FROM STDIN",
    "match": "COPY games_match (stream_id, format, entry, created_at) FROM STDIN",
    "mseat": "COPY games_matchseat (seat, player_id, match_id) FROM STDIN",
    "game": "COPY games_game (stream_id, kind, number, created_at, match_id) FROM STDIN",
    "gseat": "COPY games_gameseat (seat, player_id, game_id) FROM STDIN",
    "event": "COPY games_event (id, stream_id, version, type, schema_version, data, meta,"
    " recorded_at, hash) FROM STDIN",
}


def clone_chunk(job: tuple[int, list[int], list[Template], list[tuple[int, str]], str]) -> int:
    """COPY one chunk of clones (template indexes) in one transaction; the events written."""
    seed, picks, templates, players, conninfo = job
    import django

    django.setup()
    import psycopg

    rng = random.Random(seed)
    merged: dict[str, list[tuple[Any, ...]]] = {k: [] for k in COPIES}
    for index in picks:
        t = templates[index]
        chosen = rng.sample(players, len(t.players))
        people = dict(zip(t.players, chosen, strict=True))
        start = EPOCH + dt.timedelta(seconds=rng.randrange(SPAN_DAYS * 86400))
        for key, rows in clone_rows(t, people, start, rng).items():
            merged[key] += rows
    with psycopg.connect(conninfo) as conn, conn.cursor() as cur:
        for key, sql in COPIES.items():
            with cur.copy(sql) as copy:
                for row in merged[key]:
                    copy.write_row(row)
        conn.commit()
    return len(merged["event"])


def clone_plan(
    templates: list[Template], matches: int, events: int, rng: random.Random
) -> list[int]:
    """Template indexes, one per clone: ``matches`` clones holding about ``events`` events.

    Live templates are long and sheet ones short; the share of live clones is solved from the
    two means so that both totals come out (within a template's length).
    """
    live = [i for i, t in enumerate(templates) if t.entry == "live"]
    sheet = [i for i, t in enumerate(templates) if t.entry == "sheet"] or live
    mean_live = sum(templates[i].events for i in live) / len(live)
    mean_sheet = sum(templates[i].events for i in sheet) / len(sheet)
    share = (events / max(matches, 1) - mean_sheet) / max(mean_live - mean_sheet, 1e-9)
    n_live = max(0, min(matches, round(share * matches)))
    plan = [rng.choice(live) for _ in range(n_live)]
    plan += [rng.choice(sheet) for _ in range(matches - n_live)]
    rng.shuffle(plan)
    return plan


def clone_all(
    plan: list[int],
    templates: list[Template],
    players: list[tuple[int, str]],
    conninfo: str,
    workers: int,
    progress: Callable[[int, int], None],
) -> None:
    """Load every clone of ``plan`` with ``workers`` processes; ``progress(clones, events)``."""
    jobs = [
        (7919 * n, plan[at : at + CHUNK], templates, players, conninfo)
        for n, at in enumerate(range(0, len(plan), CHUNK))
    ]
    sizes = _sizes(jobs)
    ctx = mp.get_context("fork")
    with ctx.Pool(workers) as pool:
        for size, written in zip(sizes, pool.imap(clone_chunk, jobs), strict=True):
            progress(size, written)


def _sizes(jobs: list[Any]) -> Iterator[int]:
    return (len(job[1]) for job in jobs)
