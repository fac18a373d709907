"""The README's "Recording a game over the API" runs as written: the block is taken from the
README and run with bash against a live server on the test database (only the server's address
is put in place of ``make run``'s)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
SECTION = "## Recording a game over the API"
MAKE_RUN_ADDRESS = "http://127.0.0.1:8000"


def walkthrough() -> str:
    """The first ``sh`` block of the README's walkthrough section."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index(SECTION) :]
    found = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    assert found, "the walkthrough has no sh block"
    return found.group(1)


def database_url_of_the_tests() -> str:
    """The test database, so that ``manage.py issue_token`` in the block writes where the live
    server reads."""
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.mark.skipif(shutil.which("curl") is None, reason="the walkthrough uses curl")
def test_the_readme_walkthrough_records_a_game(live_server: Any) -> None:
    # given the README's block, pointed at the live server
    script = walkthrough()
    assert MAKE_RUN_ADDRESS in script
    script = "set -eu -o pipefail\n" + script.replace(MAKE_RUN_ADDRESS, live_server.url)
    # when bash runs it from the project's root
    run = subprocess.run(
        ["bash", "-c", script],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": database_url_of_the_tests()},
        capture_output=True,
        text=True,
        timeout=120,
    )
    # then it prints what the README says it prints
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines() == ["['pawn.taken_off']", "3"], run.stdout + run.stderr
    text = README.read_text(encoding="utf-8")
    assert "It prints `['pawn.taken_off']` (what the table may record next) and `3`." in text
