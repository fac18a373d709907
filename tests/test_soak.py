"""An evening's soak, small (bench/soak.py): the whole deployment for a minute and a half, with
a worker, Redis and a web worker killed in the middle, a checkpoint every 30 s. Nothing
acknowledged is lost or doubled, every complete match is settled once, the stack recovers from
the failures, and no checkpoint reports a tamper that is not there."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # about two minutes: a stack to start, an evening to play

ROOT = Path(__file__).resolve().parent.parent


def test_a_small_evening_with_its_failures_loses_and_doubles_nothing() -> None:
    # given the deployment's processes on this machine, and a small evening
    argv = [
        sys.executable,
        "bench/soak.py",
        "--minutes",
        "1.5",
        "--tables",
        "5",
        "--boards",
        "10",
        "--every",
        "1",
        "--json",
    ]
    # when it is played, with the worker, Redis and a web worker killed in the middle
    run = subprocess.run(
        argv, cwd=ROOT, env=dict(os.environ), capture_output=True, text=True, timeout=600
    )
    assert run.returncode in (0, 1), run.stderr[-3000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    # then nothing acknowledged is lost or doubled, and every complete match is settled once
    assert result["moves_acknowledged"] > 100
    assert (result["moves_lost"], result["moves_doubled"]) == (0, 0)
    assert result["matches_complete"] > 20
    assert result["matches_settled"] == result["matches_complete"]
    assert result["settlements_doubled"] == 0
    assert [what.split()[0] for _, what in result["faults"]] == [
        "worker",
        "worker",
        "redis",
        "redis",
        "web",
    ]
    assert result["recovery_s"] is not None, result
    # and beat's checkpoints, every 30 s beside the appends, raised no alarm and signed only
    # what the events say
    assert result["checkpoints"] > 0
    assert result["checkpoint_alarms"] == result["checkpoint_faults"] == 0, result
    assert result["signed_heads_wrong"] == 0
    assert result["holds"], result
