#!/usr/bin/env python3
"""Resolutions per second through `hc batch` for a simple fire, in one process.

Usage: python3 bench/batch_throughput.py [-n LINES] [--odds]
Times the whole `hc batch` process (start-up included) over N identical-but-seeded requests.
"""
import argparse
import json
import shutil
import subprocess
import sys
import time


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("-n", type=int, default=50_000)
    p.add_argument("--odds", action="store_true", help="ask for the odds instead of rolling")
    a = p.parse_args()
    request = {"command": "fire", "weapon": "ingrave-ar", "range": 14, "target": "crusader"}
    if a.odds:
        request["odds"] = True
    lines = "".join(json.dumps({**request, **({} if a.odds else {"seed": i})}) + "\n"
                    for i in range(a.n)).encode()
    hc = shutil.which("hc") or "hc"
    start = time.perf_counter()
    run = subprocess.run([hc, "batch"], input=lines, capture_output=True)
    took = time.perf_counter() - start
    results = run.stdout.count(b"\n")
    if run.returncode != 0 or results != a.n:
        sys.exit(f"batch failed: exit {run.returncode}, {results} results\n{run.stderr[-500:]!r}")
    print(f"{a.n} resolutions in {took:.2f} s: {a.n / took:,.0f} per second")


if __name__ == "__main__":
    main()
