"""A batch survives its workers: a worker killed by any signal costs no line, and hc ended by
SIGTERM ends its workers quietly."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import FIRE

# ---------------------------------------------------------------------------------------------
# 1. A batch survives its workers


def _batch_file(tmp_path: Path, n: int) -> Path:
    path = tmp_path / "in.jsonl"
    with path.open("w") as f:
        for i in range(n):
            f.write(json.dumps({**FIRE, "seed": i}) + "\n")
    return path


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGSEGV])
def test_a_dead_worker_costs_no_line(tmp_path, sig):
    """Kill a worker mid-batch: every line is still answered, in order, and logged once."""
    source = _batch_file(tmp_path, 60_000)
    log = tmp_path / "b.log"
    out = tmp_path / "out.jsonl"
    with source.open() as stdin, out.open("w") as stdout:
        proc = subprocess.Popen(
            [sys.executable, "-m", "hc_cli", "batch", "--jobs", "2", "--log", str(log)],
            stdin=stdin,
            stdout=stdout,
            stderr=subprocess.PIPE,
        )
        children: list[int] = []
        deadline = time.monotonic() + 30
        while not children and time.monotonic() < deadline and proc.poll() is None:
            found = subprocess.run(
                ["ps", "--ppid", str(proc.pid), "-o", "pid="], capture_output=True, text=True
            )
            children = [int(p) for p in found.stdout.split()]
            time.sleep(0.05)
        if children:
            os.kill(children[0], sig)
        _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0 and b"Traceback" not in err
    lines = [json.loads(line)["line"] for line in out.read_text().splitlines()]
    assert lines == list(range(1, 60_001))
    assert log.read_bytes().count(b"\n") == 60_000


def test_hc_terminated_ends_its_workers_quietly(tmp_path):
    source = _batch_file(tmp_path, 100_000)
    with source.open() as stdin:
        proc = subprocess.Popen(
            [sys.executable, "-m", "hc_cli", "batch", "--jobs", "2"],
            stdin=stdin,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        children: list[str] = []
        deadline = time.monotonic() + 30  # until its workers run, however loaded the machine
        while not children and time.monotonic() < deadline and proc.poll() is None:
            children = subprocess.run(
                ["ps", "--ppid", str(proc.pid), "-o", "pid="], capture_output=True, text=True
            ).stdout.split()
            time.sleep(0.05)
        assert children, "hc batch started no worker"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode in (0, 143) and b"Traceback" not in err
    for child in children:  # reaped, not left running
        assert (
            not Path(f"/proc/{child}").exists()
            or "Z" in Path(f"/proc/{child}/stat").read_text().split()[2]
        )
