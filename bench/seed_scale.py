"""The scale bench's database (bench/scale.py), up to a million events: a command of the bench,
run as ``python bench/seed_scale.py [--events N ...]`` on the DATABASE_URL it is given (it ships
with no product module: nothing shipped reaches ``bench/``).

Players, tournaments and template matches go through the services; the bulk of the matches are
clones of the templates, COPYed with their own ids, players, times, hash chains and snapshots
(bench/seeding.py says how). The read models are then rebuilt from the events, and a sample of
streams is verified as ``manage.py verify_events`` does. A database that already holds events is
refused unless ``--force``, which tops it up to the targets instead.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
if sys.path and Path(sys.path[0] or ".").resolve() == _HERE:
    sys.path.pop(0)  # bench/http.py must not shadow the standard library's http package
sys.path.insert(0, str(_HERE.parent))

import os  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

from bench import _common  # noqa: E402

# A match's close runs in the committing thread, before the next round is paired (as in
# bench/seasons.py): left to a publisher thread, it came after, and an evening of more than
# five tables was refused its next round (round.results_missing).
os.environ["OUTBOX_INLINE"] = "1"
_common.bench_env()
import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.core.management.base import BaseCommand, CommandError, CommandParser  # noqa: E402
from django.db import connection  # noqa: E402
from tqdm import tqdm  # noqa: E402

from bench import seeding  # noqa: E402

SEED_USER = "seed"


class Command(BaseCommand):
    help = (
        "Seed the scale bench's database: players, tournaments, matches (live and sheet, several "
        "formats) up to --events events, read models rebuilt, a sample verified."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--events", type=int, default=1_000_000)
        parser.add_argument("--matches", type=int, default=10_000)
        parser.add_argument("--players", type=int, default=500)
        parser.add_argument("--tournaments", type=int, default=20)
        parser.add_argument("--tournament-players", type=int, default=12)
        parser.add_argument("--rounds", type=int, default=3, help="rounds of each tournament")
        parser.add_argument("--templates", type=int, default=3, help="live templates per format")
        parser.add_argument("--workers", type=int, default=2, help="processes loading clones")
        parser.add_argument("--verify-sample", type=int, default=300, help="streams verified")
        parser.add_argument("--seed", type=int, default=13)
        parser.add_argument("--force", action="store_true", help="top up a non-empty database")

    def handle(self, *args: Any, **o: Any) -> None:
        if _count("games_event") and not o["force"]:
            raise CommandError(
                f"The database holds {_count('games_event'):,} events already: seed an empty one, "
                "or pass --force to top it up to the targets."
            )
        started = time.perf_counter()
        rng = random.Random(o["seed"])
        user = _seed_user()
        players = self.step("players", lambda: seeding.players_register(o["players"], user))
        self.step("tournaments", lambda: self.tournaments(players, rng, user, o))
        templates = self.step("templates", lambda: self.templates(players, rng, user, o))
        self.step("clones", lambda: self.clones(templates, players, rng, o))
        self.step("rebuild", lambda: call_command("rebuild_projections", stdout=self.stdout))
        self.step("analyze", lambda: connection.cursor().execute("ANALYZE"))
        self.step("verify", lambda: self.verify(o["verify_sample"], rng))
        self.stdout.write(
            f"Seeded {_count('games_event'):,} events, {_count('games_match'):,} matches, "
            f"{_count('games_player'):,} players, {_count('games_tournament'):,} tournaments "
            f"in {time.perf_counter() - started:.0f} s."
        )

    def step(self, name: str, work: Any) -> Any:
        t0 = time.perf_counter()
        out = work()
        self.stdout.write(f"{name}: {time.perf_counter() - t0:.1f} s")
        return out

    def tournaments(self, players: list[Any], rng: random.Random, user: Any, o: Any) -> None:
        from games.store.models import Tournament

        have = Tournament.objects.filter(name__startswith="Scale evening").count()
        for n in tqdm(range(have, o["tournaments"]), desc="tournaments", file=sys.stderr):
            entrants = rng.sample(players, o["tournament_players"])
            seeding.tournament_run(n + 1, entrants, o["rounds"], rng, user)

    def templates(
        self, players: list[Any], rng: random.Random, user: Any, o: Any
    ) -> list[seeding.Template]:
        jobs = [f for f in seeding.LIVE_FORMATS for _ in range(o["templates"])]
        made = []
        for format, seats in tqdm(jobs, desc="templates", file=sys.stderr):
            live = seeding.live_template(format, seats, players, rng, user)
            if live is None:
                continue
            made.append(live)
            sheet = seeding.sheet_template(live, players, rng, user)
            if sheet is not None:
                made.append(sheet)
        return [seeding.template_load(pk) for pk in made]

    def clones(
        self, templates: list[seeding.Template], players: list[Any], rng: random.Random, o: Any
    ) -> None:
        matches = o["matches"] - _count("games_match")
        events = o["events"] - _count("games_event")
        if matches <= 0 or events <= 0:
            self.stdout.write("clones: the targets are met already")
            return
        plan = seeding.clone_plan(templates, matches, events, rng)
        conninfo = _conninfo()
        connection.close()  # the forked workers open their own
        with tqdm(total=len(plan), desc="clones", unit="match", file=sys.stderr) as bar:

            def progress(clones: int, written: int) -> None:
                bar.update(clones)
                bar.set_postfix(events=f"{written:,}")

            seeding.clone_all(plan, templates, players, conninfo, o["workers"], progress)

    def verify(self, sample: int, rng: random.Random) -> None:
        from games.store.checkpoints import verify_stream
        from games.store.models import Stream

        ids = list(Stream.objects.values_list("pk", flat=True))
        chosen = rng.sample(ids, min(sample, len(ids)))
        problems = []
        for stream in Stream.objects.filter(pk__in=chosen):
            problems += verify_stream(stream)
        if problems:
            raise CommandError(f"{len(problems)} problem(s) in the sample; first: {problems[0]}")
        self.stdout.write(f"verified {len(chosen)} streams: every chain holds and re-folds")


def _count(table: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM {table}")  # noqa: S608 - our own table names
        return int(cursor.fetchone()[0])


def _seed_user() -> Any:
    user, _ = get_user_model().objects.get_or_create(
        username=SEED_USER, defaults={"is_staff": True, "is_superuser": True}
    )
    return user


def _conninfo() -> str:
    s = connection.settings_dict
    return (
        f"host={s['HOST'] or 'localhost'} port={s['PORT'] or 5432} dbname={s['NAME']} "
        f"user={s['USER']}" + (f" password={s['PASSWORD']}" if s["PASSWORD"] else "")
    )


if __name__ == "__main__":
    Command().run_from_argv(["bench/seed_scale.py", "seed_scale", *sys.argv[1:]])
