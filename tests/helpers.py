"""What several test files share: hc run as a process, a clean-output check, and the command
lines and values the hostile-input tests use."""

from __future__ import annotations

import os
import subprocess
import sys

FIRE = {"command": "fire", "weapon": "ingrave-ar", "range": 14, "target": "orc"}
FIRE_ARGS = ("fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc")
NINES = "9" * 5000
RT = ("--ruleset", "rogue-trader")
T2K = ("--ruleset", "t2k")


def run_hc(*args: str, env: dict | None = None, **kwargs) -> subprocess.CompletedProcess:
    """`python -m hc_cli ARGS` as a process of its own, with this environment and `env`."""
    return subprocess.run(
        [sys.executable, "-m", "hc_cli", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=120,
        **kwargs,
    )


def clean(result) -> None:
    """No traceback in what a run printed."""
    output = result.output if hasattr(result, "output") else result.stdout + result.stderr
    assert "Traceback" not in output, output[-2000:]
