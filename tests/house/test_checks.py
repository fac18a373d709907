"""The house's own checks run where work lands: `make test` (and so CI, .ci/run) runs the lint
(ruff, import-linter) and the type check before the suite."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_test_runs_lint_and_typecheck_before_the_suite() -> None:
    # given the Makefile; when make says what `make test` would run (the stamp taken as made)
    run = subprocess.run(
        ["make", "-n", "--no-print-directory", "test", "-o", ".venv/.installed"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()

    def first(word: str) -> int:
        return next(i for i, line in enumerate(lines) if word in line)

    # then ruff, import-linter and mypy all come before pytest
    suite = first("-m pytest")
    assert first("ruff check") < suite
    assert first("ruff format --check") < suite
    assert first("lint-imports") < suite
    assert first("mypy ") < suite


def test_ci_runs_make_test() -> None:
    script = (ROOT / ".ci" / "run").read_text()
    assert "\nmake test\n" in script
