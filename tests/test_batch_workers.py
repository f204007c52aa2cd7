"""A batch survives its workers: a worker killed by any signal costs no line, and hc ended by
SIGTERM ends its workers quietly.

The lines are fed through a pipe by a thread that keeps hc's input full, so hc's workers are
busy (each with a group of lines in hand) when one is killed, and lines still arrive after
the kill: the batch has to answer both the groups the dead worker held and those that come
after it, whatever the machine's load, with a few thousand lines rather than a file of
60,000 that had to outlast the kill.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from helpers import FIRE

from hc_cli.batch.run import GROUP


class _Feed(threading.Thread):
    """Writes numbered fire requests to hc's standard input a group at a time (each write
    waits while hc's input is full) until `stop` is set; then `tail` lines more, and closes
    the input. `sent`: the lines written."""

    def __init__(self, stdin, tail: int = 0) -> None:
        super().__init__(daemon=True)
        self.stdin = stdin
        self.tail = tail
        self.sent = 0
        self.stop = threading.Event()

    def _write(self, count: int) -> None:
        lines = (json.dumps({**FIRE, "seed": self.sent + k}) + "\n" for k in range(count))
        self.stdin.write("".join(lines).encode())
        self.stdin.flush()
        self.sent += count

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                self._write(GROUP)
            self._write(self.tail)
        except BrokenPipeError:  # hc ended (the test of SIGTERM): stop feeding
            pass
        finally:
            try:
                self.stdin.close()
            except BrokenPipeError:
                pass


def _workers(proc: subprocess.Popen, until: float) -> list[int]:
    """hc's worker processes, as soon as it has forked one (an empty list past `until`)."""
    children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
    while time.monotonic() < until and proc.poll() is None:
        found = children.read_text().split()
        if found:
            return [int(pid) for pid in found]
        time.sleep(0.001)
    return []


def _answered(out: Path) -> int:
    return out.read_bytes().count(b"\n")


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGSEGV])
def test_a_dead_worker_costs_no_line(tmp_path, sig):
    """Kill a worker mid-batch, while every worker holds a group and lines keep coming:
    every line is still answered, in order, and logged once."""
    log = tmp_path / "b.log"
    out = tmp_path / "out.jsonl"
    with out.open("w") as stdout:
        proc = subprocess.Popen(
            [sys.executable, "-m", "hc_cli", "batch", "--jobs", "2", "--log", str(log)],
            stdin=subprocess.PIPE,
            stdout=stdout,
            stderr=subprocess.PIPE,
        )
        feed = _Feed(proc.stdin, tail=4 * GROUP)
        feed.start()
        deadline = time.monotonic() + 60  # however loaded the machine
        workers = _workers(proc, deadline)
        # The first group is answered by hc itself, the pool starts on the second: a third
        # group answered is the pool's, so the workers are at work.
        while _answered(out) < 3 * GROUP and time.monotonic() < deadline:
            time.sleep(0.01)
        assert workers and _answered(out) >= 3 * GROUP, "hc batch started no worker"
        os.kill(workers[0], sig)
        feed.stop.set()
        proc.wait(timeout=120)  # not communicate(): the feed closes hc's input
        feed.join(timeout=10)
        err = proc.stderr.read()
        proc.stderr.close()
    assert proc.returncode == 0 and b"Traceback" not in err, err
    answers = [json.loads(line) for line in out.read_text().splitlines()]
    assert feed.sent >= 3 * GROUP + feed.tail  # lines came before the kill and after it
    assert [a["line"] for a in answers] == list(range(1, feed.sent + 1))
    assert not [a for a in answers if "error" in a]
    assert log.read_bytes().count(b"\n") == feed.sent


@pytest.mark.parametrize("moment", ["forking", "working"])
def test_hc_terminated_ends_its_workers_quietly(tmp_path, moment):
    """SIGTERM to hc as it forks its workers (the signal lands in the fork's own hooks
    unless hc holds it) or while they work: hc ends, saying nothing of it, and leaves no
    worker running."""
    out = tmp_path / "out.jsonl"
    with out.open("w") as stdout:
        proc = subprocess.Popen(
            [sys.executable, "-m", "hc_cli", "batch", "--jobs", "2"],
            stdin=subprocess.PIPE,
            stdout=stdout,
            stderr=subprocess.PIPE,
        )
        feed = _Feed(proc.stdin)
        feed.start()
        deadline = time.monotonic() + 60
        workers = _workers(proc, deadline)
        while moment == "working" and _answered(out) < 3 * GROUP and time.monotonic() < deadline:
            time.sleep(0.01)
        assert workers, "hc batch started no worker"
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
        feed.stop.set()
        feed.join(timeout=10)
        err = proc.stderr.read()
        proc.stderr.close()
    assert proc.returncode in (0, 143) and b"Traceback" not in err, err
    for child in workers:  # reaped, not left running
        assert (
            not Path(f"/proc/{child}").exists()
            or "Z" in Path(f"/proc/{child}/stat").read_text().split()[2]
        )
