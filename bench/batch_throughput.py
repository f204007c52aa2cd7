#!/usr/bin/env python3
"""Resolutions per second through `hc batch` for a simple fire (the whole process).

Usage: python3 bench/batch_throughput.py [-n LINES] [--odds | --roll] [--log] [--jobs N]
(HC=path, else the hc beside the interpreter, else hc on PATH)
Times the whole `hc batch` process (start-up included) over N identical-but-seeded requests:
a simple fire, its odds, or `roll d100` lines.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("-n", type=int, default=50_000)
    p.add_argument("--odds", action="store_true", help="ask for the odds instead of rolling")
    p.add_argument("--roll", action="store_true", help="`roll d100` lines instead of fires")
    p.add_argument("--log", action="store_true", help="with --log to a file (synced in groups)")
    p.add_argument("--jobs", type=int, help="hc batch --jobs N (default: hc's own, the CPUs)")
    a = p.parse_args()
    request = {"command": "fire", "weapon": "ingrave-ar", "range": 14, "target": "crusader"}
    if a.roll:
        request = {"command": "roll", "expression": "d100"}
    if a.odds:
        request["odds"] = True
    lines = "".join(
        json.dumps({**request, **({} if a.odds else {"seed": i})}) + "\n" for i in range(a.n)
    ).encode()
    beside = os.path.join(os.path.dirname(sys.executable), "hc")  # the venv's own hc
    hc = os.environ.get("HC") or (beside if os.path.exists(beside) else shutil.which("hc") or "hc")
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        extra = ["--log", os.path.join(folder, "bench.log")] if a.log else []
        extra += ["--jobs", str(a.jobs)] if a.jobs else []
        run = subprocess.run([hc, "batch", *extra], input=lines, capture_output=True)
    took = time.perf_counter() - start
    results = run.stdout.count(b"\n")
    if run.returncode != 0 or results != a.n:
        sys.exit(f"batch failed: exit {run.returncode}, {results} results\n{run.stderr[-500:]!r}")
    print(f"{a.n} resolutions in {took:.2f} s: {a.n / took:,.0f} per second")


if __name__ == "__main__":
    main()
