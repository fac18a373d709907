"""One set-up for every machine: ``make test`` makes the machine ready itself (deploy/test-machine),
CI runs exactly ``make test``, and ``make run`` serves without collecting static files."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def target(name: str) -> list[str]:
    """The recipe lines of a Makefile target."""
    text = (ROOT / "Makefile").read_text()
    found = re.search(rf"^{name}:[^\n]*\n((?:\t[^\n]*\n)+)", text, re.M)
    assert found, f"no target {name}"
    return [line.strip() for line in found.group(1).splitlines()]


def test_make_test_makes_the_machine_ready_before_the_suite() -> None:
    recipe = target("test")
    assert recipe[0] == "bash deploy/test-machine"
    assert "pytest" in recipe[-1]


def test_ci_installs_the_project_and_runs_make_test_alone() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    assert ci.rstrip().endswith("make test")
    assert "apt-get" not in ci and "redis-server" not in ci  # all in deploy/test-machine


def test_the_set_up_script_finds_this_machine_ready_and_says_nothing() -> None:
    # the suite runs on a ready machine: a second set-up installs and starts nothing
    run = subprocess.run(
        ["bash", "deploy/test-machine"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == "" and run.stderr == ""


def test_make_run_serves_static_files_from_the_apps_without_collecting_them() -> None:
    recipe = target("run")
    assert not any("collectstatic" in line for line in recipe)
    assert any("STATIC_FROM_APPS=true" in line and "runserver" in line for line in recipe)
