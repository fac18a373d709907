"""The API keeps its published contract: schemathesis drives every operation of the served
OpenAPI schema with ``--checks all`` against a live gunicorn (the project's config) on the test
database, as a director (staff) and as a member (not staff), and finds nothing.

The detail endpoints are exercised on real rows: a finished game, a settled match, a player and
a paired tournament are made first (tests/api_seed.py) and given to schemathesis as the path
parameters of their operations; revoking a token is given a spare token of the user's own, so
that a drawn id never revokes the token the run sends (its every later request would be a
401). Bounded in examples (``SCHEMATHESIS_EXAMPLES``) and time; on CI the examples are drawn
deterministically.

Two checks are narrowed, by design:

- ``positive_data_acceptance`` also takes 422 on the operations of RULE_JUDGED, each listed with
  its reason: a body can match the schema and still be a move the rules forbid (a jump over no
  pawn, a setup whose parts disagree, pairing a round while a table plays), or name data only
  the server holds (a user, a tournament); a 422 with the rule's code, documented for each.
  What a body's shape can say, the schema says: starting a game is one body per kind with its
  seats' bounds, house rules and setup (tests/games/api/test_create_bodies.py).
- ``positive_data_acceptance`` also takes 400 on reads whose parameters name data (a cursor,
  a feed position, a time): see DATA_REFERENCES.
- The coverage phase is not run on recording an event: its body is one of a component per event
  type (45 for a game), whose every boundary the phase would enumerate for minutes. The
  examples and fuzzing phases still draw from the whole union, and each type's boundaries are
  drawn from its declaration in tests/games/store/test_declared_events.py.
- ``use_after_free`` and ``ensure_resource_availability`` are not run: the API deletes nothing
  a later GET could miss (events are append-only; a DELETE drops a keeper, an evening from a
  season, a table's code or a token, none of them read at a URL of its own, or a webhook, which
  is then gone from its URL as it should be).

Every phase runs: examples, coverage, fuzzing and stateful (the links schemathesis infers from
the answers' ids and from ``Location`` headers chain a created game, match or tournament into
the operations on it).
"""

from __future__ import annotations

import io
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection

from games.access.models import ApiToken
from tests.api_seed import Seeded, seed

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[3]
BIN = Path(sys.executable).parent
EXAMPLES = os.environ.get("SCHEMATHESIS_EXAMPLES", "8")
# Operations where a body valid by the schema may still be refused (422), each with why the
# schema cannot say it: a rule of the game or the tournament, or a reference to data only the
# server holds. Starting a game or match is bounded by its kind's (format's) body in the schema
# (seats, house rules, setup keys): what is left is listed here.
RULE_JUDGED: list[tuple[str, str, str]] = [
    (
        "^/api/v1/(games|matches)/$",
        "POST",
        "a setup whose parts disagree (a position's pawns, teams of the seats), a tarot game's "
        "base game to name, a partnership's seats, a seat's player id or member number of no "
        "one, a game's match that is not there or plays another kind, no seats without a match",
    ),
    (
        "^/api/v1/(games|matches|tournaments)/\\{id\\}/events/$",
        "POST",
        "a move the rules forbid in this state (a jump over no pawn, a throw after the end)",
    ),
    (
        "^/api/v1/(games|matches)/\\{id\\}/keepers/$",
        "POST",
        "the body names a user (keeper.unknown_user): only the server knows its users",
    ),
    (
        "^/api/v1/tournaments/\\{id\\}/(entries|rounds|keepers)/$",
        "POST",
        "the tournament's rules: an entry after the start, a round while a table plays, a "
        "keeper for a table not paired",
    ),
    ("^/api/v1/tournaments/$", "POST", "a system and format that do not go together"),
    ("^/api/v1/seasons/$", "POST", "a season's counting and points that do not go together"),
    (
        "^/api/v1/seasons/\\{id\\}/(tournaments|close)/$",
        "POST",
        "the body names a tournament (season.no_such_tournament) or one of another format",
    ),
    (
        "^/api/v1/players/(\\{id\\}/merge/)?$",
        "POST",
        "a member number another player has; a merge into a player of no one or merged away",
    ),
    ("^/api/v1/webhooks/$", "POST", "a URL the server will not call (webhook.bad_url)"),
    (
        "^/api/v1/tokens/$",
        "POST",
        "an expiry must lie ahead of the server's clock and within 366 days (token.bad_expiry)",
    ),
    (
        "^/api/v1/games/\\{id\\}/(pot|analysis)/$",
        "GET",
        "a kind with no pot or no solver (pot.none, analysis.unavailable)",
    ),
]
# Reads whose parameters name data, not just a shape: a cursor is a token from a page's
# ``next`` (400 request.bad_cursor otherwise), ``after`` a position some event has,
# ``at_version`` a version the stream has, ``as_of`` a time after the tournament began (400
# query.bad_value otherwise). Any well-formed value matches the schema; only the server knows
# which exist.
DATA_REFERENCES = [
    "^/api/v1/(games|matches|players|tournaments|seasons)/$",
    "^/api/v1/(games|matches)/\\{id\\}/(events/)?$",
    "^/api/v1/players/\\{id\\}/(history/|plays.json|games.ndjson)$",
    "^/api/v1/events(/|.ndjson)$",
    "^/api/v1/tournaments/\\{id\\}/(rounds/\\{number\\}/|standings/|settlement/|events/)?$",
    "^/api/v1/ratings/\\{kind\\}/$",
]


def token_of(username: str, **flags: Any) -> tuple[Any, str]:
    user = get_user_model().objects.create_user(username=username, password="pass-word-1", **flags)
    out = io.StringIO()
    call_command("issue_token", username, stdout=out)
    return user, out.getvalue().strip().split()[-1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def database_url() -> str:
    db = connection.settings_dict
    host = db["HOST"] or "127.0.0.1"
    return f"postgres://{db['USER']}@{host}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def gunicorn(tmp_path: Path) -> Iterator[str]:
    """gunicorn with the project's config, on the test database; its base URL."""
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "scarney_site.settings",
        "DATABASE_URL": database_url(),
        "SECRET_KEY": "schemathesis-" + os.urandom(24).hex(),
        "WEB_BIND": f"127.0.0.1:{port}",
        "THROTTLE_TOKEN_RATE": "1000000/m",
        "THROTTLE_ADDRESS_RATE": "1000000/m",
    }
    env.pop("REDIS_URL", None)  # Celery runs eagerly in the web process
    command = [str(BIN / "gunicorn"), "scarney_site.wsgi", "--config", "gunicorn.conf.py"]
    with open(tmp_path / "gunicorn.log", "wb") as log:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, start_new_session=True, stdout=log, stderr=log
        )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(url, process)
        yield url
    finally:
        os.killpg(process.pid, signal.SIGQUIT)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:  # a worker still busy with a fuzzed request
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)


def wait_until_up(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"gunicorn exited with {process.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    pytest.fail("gunicorn did not answer /healthz within 30 s")


def config(seeded: Seeded, spare_token: int) -> str:
    """schemathesis.toml: the seeded ids as path parameters, and the narrowed check.

    schemathesis merges every ``[[operations]]`` block that matches, the later ones over the
    earlier: the ids first, then the narrowed checks (each block carries the ids too)."""
    ids = {
        "games": f'"path.id" = "{seeded.game}"',
        "matches": f'"path.id" = "{seeded.match}"',
        "players": f'"path.id" = {seeded.player}',
        "tournaments": f'"path.id" = "{seeded.tournament}"\n"path.number" = 1',
        "tokens": f'"path.id" = {spare_token}',
        "seasons": f'"path.id" = "{seeded.season}"\n"path.tournament" = "{seeded.tournament}"',
    }

    def block(regex: str, method: str | None, statuses: list[str] | None) -> str:
        text = f"[[operations]]\ninclude-path-regex = '{regex}'\n"
        if method:
            # Every other method excluded: schemathesis ORs the include keys of a block (path
            # or method), while any exclusion removes the operation.
            text += f"exclude-method-regex = '^(?!{method}$)'\n"
        resource = regex.removeprefix("^/api/v1/").split("/")[0]
        if "\\{id" in regex and resource in ids:
            text += f"[operations.parameters]\n{ids[resource]}\n"
        if statuses:
            text += "[operations.checks.positive_data_acceptance]\n"
            text += f"expected-statuses = {statuses!r}\n".replace("'", '"')
        return text

    def each(regex: str) -> list[str]:
        """One regex per resource, so that each gets its own id."""
        for names in ("(games|matches|tournaments)", "(games|matches)"):
            if names in regex:
                return [regex.replace(names, name) for name in names.strip("()").split("|")]
        return [regex]

    judged = ["2xx", "401", "403", "404", "409", "422"]
    references = ["2xx", "304", "400", "401", "403", "404"]
    blocks = [block(f"^/api/v1/{name}/\\{{id\\}}", None, None) for name in ids]
    blocks += [block(one, "GET", references) for regex in DATA_REFERENCES for one in each(regex)]
    blocks += [
        block(one, method, judged) for regex, method, _why in RULE_JUDGED for one in each(regex)
    ]
    # A fuzzed query string can outgrow the request line gunicorn takes: 414 from gunicorn is a
    # refusal too (documented on every operation).
    # Recording an event: no coverage phase (the docstring says why).
    blocks.append(
        "[[operations]]\n"
        "include-path-regex = '^/api/v1/(games|matches|tournaments)/\\{id\\}/events/$'\n"
        'include-method = "POST"\n'
        "[operations.phases.coverage]\nenabled = false\n"
    )
    refusals = ["400", "401", "403", "404", "405", "406", "409", "414", "415", "422", "428", "429"]
    head = f"[checks.negative_data_rejection]\nexpected-statuses = {refusals!r}\n".replace("'", '"')
    return head + "\n" + "\n".join(blocks)


@pytest.mark.slow
@pytest.mark.parametrize("staff", [False, True], ids=["member", "staff"])
def test_the_api_keeps_its_schema(gunicorn: str, staff: bool, tmp_path: Path) -> None:
    director, _key = token_of("seeder", is_staff=True)
    seeded = seed(director)
    user, token = token_of("director" if staff else "member", is_staff=staff)
    spare, _key = ApiToken.objects.issue(user, name="spare")
    settings_file = tmp_path / "schemathesis.toml"
    settings_file.write_text(config(seeded, spare.pk))
    command = [
        str(BIN / "schemathesis"),
        "--config-file",
        str(settings_file),
        "run",
        f"{gunicorn}/api/schema/",
        "--checks",
        "all",
        "--exclude-checks",
        "use_after_free,ensure_resource_availability",
        "--phases",
        "examples,coverage,fuzzing,stateful",
        "--max-examples",
        EXAMPLES,
        "--header",
        f"Authorization: Token {token}",
        "--no-color",
        "--request-timeout",
        "20",
        # One worker: schemathesis' generators describe hypothesis strategies by parsing lambda
        # sources, which CPython 3.11 does not survive from several threads at once
        # ("SystemError: AST constructor recursion depth mismatch").
        "--workers",
        "1",
        # PostgreSQL text cannot hold NUL, so the JSON parser refuses it (400 request.malformed,
        # docs/ERRORS.md); the schema's strings cannot say so in OpenAPI 3.0.
        "--generation-allow-x00",
        "false",
    ]
    if os.environ.get("CI"):
        command += ["--generation-deterministic"]
    run = subprocess.run(command, capture_output=True, text=True, timeout=900, cwd=tmp_path)
    (tmp_path / "schemathesis.txt").write_text(run.stdout)  # the whole report, for a look
    server_errors = [
        line
        for line in (tmp_path / "gunicorn.log").read_text(errors="replace").splitlines()
        if "Error" in line and not line.startswith(("Bad Request", "Forbidden", "Unprocessable"))
    ]
    assert run.returncode == 0, "\n".join(
        [run.stdout[-12000:], run.stderr[-2000:], *server_errors[-40:]]
    )
