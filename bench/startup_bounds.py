#!/usr/bin/env python3
"""The start-up bounds of issue 36: each command's wall time as a ratio to `python -c pass` of
the same interpreter, against its bound; then `hc batch`'s throughput (bench/batch_throughput.py).
Exits 1 when a ratio is past its bound or a command does not do its job. Not a timed test: run
it by hand, on the project's two-core machine, when nothing else runs.

Usage: .venv/bin/python bench/startup_bounds.py [-n RUNS] [--lines N]
The `hc` timed is the one beside the interpreter (the venv's), else HC=path, else hc on PATH.
Each case alternates with `python -c pass`, run for run, so a drift of the machine's speed
falls on both; the ratio is of the two medians of wall time (bounded), and beside it of CPU
time (what the kernel counts each run: steadier when other work shares the machine).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FIRE = ["fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc"]
# name, hc's arguments, its environment, the bound, what its output must hold
CASES = [
    ("hc fire ... --json", [*FIRE, "--json"], {}, 10.0, '"outcome"'),
    (
        "TAB: hc fire --wea",
        [],
        {"_HC_COMPLETE": "complete_bash", "COMP_WORDS": "hc fire --wea", "COMP_CWORD": "2"},
        10.0,
        "--weapon",
    ),
    ("hc fire ... (colour)", FIRE, {"FORCE_COLOR": "1"}, 12.0, "\x1b["),
    ("hc fire --help", ["fire", "--help"], {}, 12.0, "--weapon"),
]


def hc_command() -> list[str]:
    """The `hc` of this interpreter's environment."""
    if os.environ.get("HC"):
        return [os.environ["HC"]]
    beside = Path(sys.executable).parent / "hc"
    if beside.exists():
        return [str(beside)]
    found = shutil.which("hc")
    return [found] if found else [sys.executable, "-m", "hc_cli"]


def clean_environment(folder: str) -> dict[str, str]:
    """The caller's environment without hc's settings: a fresh config and cache folder (the
    first run fills the cache, as a player's first command does), no colour asked or refused."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("HC_") and k not in ("NO_COLOR", "FORCE_COLOR", "_HC_COMPLETE")
    }
    env.update(XDG_CONFIG_HOME=f"{folder}/config", XDG_CACHE_HOME=f"{folder}/cache", COLUMNS="80")
    return env


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """One run's wall time and CPU time (user and system, as the kernel counts the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return took, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def measure(cmd: list[str], env: dict[str, str], runs: int) -> tuple[float, float, float]:
    """The medians, `cmd` against `python -c pass` run in turn, of the wall time and its ratio,
    and of the CPU time's ratio (steadier on a busy machine; the bound is on the wall time)."""
    bare = [sys.executable, "-c", "pass"]
    mine, base = [], []
    for _ in range(runs):
        base.append(timed(bare, env))
        mine.append(timed(cmd, env))
    wall = statistics.median(t for t, _ in mine)
    wall_ratio = wall / statistics.median(t for t, _ in base)
    cpu_ratio = statistics.median(c for _, c in mine) / statistics.median(c for _, c in base)
    return wall, wall_ratio, cpu_ratio


def check(name: str, cmd: list[str], env: dict[str, str], wanted: str) -> str | None:
    """Why the command does not do its job (None: it does)."""
    run = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if run.returncode != 0 or wanted not in run.stdout:
        said = (run.stdout + run.stderr).strip().splitlines()[-1:] or ["nothing"]
        return f"{name}: exit {run.returncode}, {wanted!r} not in its output ({said[0][:80]})"
    return None


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("-n", type=int, default=15, help="runs of each command (default 15)")
    p.add_argument("--lines", type=int, default=20_000, help="lines of the batch (0: none)")
    a = p.parse_args()
    hc = hc_command()
    failed = []
    with tempfile.TemporaryDirectory() as folder:
        base_env = clean_environment(folder)
        print(f"hc: {' '.join(hc)}; python: {sys.executable}; {a.n} runs each")
        print(f"{'case':24} {'hc ms':>8} {'ratio':>7} {'bound':>6} {'cpu ratio':>10}")
        for name, args, extra, bound, wanted in CASES:
            env = {**base_env, **extra}
            problem = check(name, [*hc, *args], env, wanted)  # and the warm-up
            if problem is not None:
                print(f"{name:24} {'-':>8} {'-':>7} {bound:6.1f} {'-':>10}  FAILS: {problem}")
                failed.append(name)
                continue
            wall, ratio, cpu_ratio = measure([*hc, *args], env, a.n)
            over = ratio > bound
            failed += [name] if over else []
            print(
                f"{name:24} {wall * 1000:8.1f} {ratio:7.2f} {bound:6.1f} {cpu_ratio:10.2f}"
                + ("  PAST ITS BOUND" if over else "")
            )
        if a.lines:
            throughput = Path(__file__).with_name("batch_throughput.py")
            for jobs in ("1", "2"):
                run = subprocess.run(
                    [sys.executable, str(throughput), "-n", str(a.lines), "--jobs", jobs],
                    env={**base_env, "HC": hc[0]} if len(hc) == 1 else base_env,
                    capture_output=True,
                    text=True,
                )
                print(f"batch --jobs {jobs}: " + (run.stdout or run.stderr).strip())
                failed += [f"batch --jobs {jobs}"] if run.returncode else []
    if failed:
        print("past a bound or failing: " + ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
