"""No request gives a 500: schemathesis drives every endpoint of the served OpenAPI schema over
real HTTP (a live server on the test database), as a staff and as a non-staff user.

Bounded in examples so the suite stays quick; a local run draws new examples each time.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from games import services

pytestmark = pytest.mark.django_db(transaction=True)

SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")
EXAMPLES = os.environ.get("SCHEMATHESIS_EXAMPLES", "12")


def token_of(username: str, **flags: Any) -> str:
    get_user_model().objects.create_user(username=username, password="pass-word-1", **flags)
    out = io.StringIO()
    call_command("issue_token", username, stdout=out)
    return out.getvalue().strip().split()[-1]


def some_streams() -> None:
    """A finished and an unfinished game and a match, so that ids in paths can hit real rows."""
    services.game_start(kind="scarney-solitaire", seats=[{"name": "Ann"}])
    services.match_start(format="scarney-singles", players=[{"name": "A"}, {"name": "B"}])


@pytest.mark.slow
@pytest.mark.parametrize("staff", [False, True], ids=["member", "staff"])
def test_no_endpoint_answers_a_server_error(live_server: Any, staff: bool) -> None:
    some_streams()
    token = token_of("director" if staff else "member", is_staff=staff)
    command = [
        str(SCHEMATHESIS),
        "run",
        f"{live_server.url}/api/schema/",
        "--checks",
        "not_a_server_error",
        "--max-examples",
        EXAMPLES,
        "--header",
        f"Authorization: Token {token}",
        "--no-color",
        "--request-timeout",
        "20",
    ]
    if os.environ.get("CI"):
        command += ["--generation-deterministic"]
    run = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
