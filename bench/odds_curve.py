#!/usr/bin/env python3
"""Exact odds against the number of shots: the whole `hc fire --odds` process for N shots,
beside icepool's time (in process) for the same N-fold distribution, where icepool is
installed (`pip install icepool`; it is a test-only dependency).

Usage: python3 bench/odds_curve.py [N ...]     (default 10 100 1000 10000)
"""

import shutil
import subprocess
import sys
import time


def hc_time(n: int) -> float:
    hc = shutil.which("hc") or "hc"
    start = time.perf_counter()
    run = subprocess.run(
        [hc, "fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc", "--shots", str(n), "--odds"],
        capture_output=True,
    )
    took = time.perf_counter() - start
    if run.returncode != 0:
        sys.exit(f"hc failed for {n}: {run.stderr[-300:]!r}")
    return took


def icepool_time(n: int) -> str:
    try:
        import icepool
    except ImportError:
        return "-"
    if n > 2000:
        return "(skipped)"  # minutes, and deep recursion, past this
    die = icepool.Die({0: 7, 1: 13})  # a kill on 65 or less: 13/20
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20 * n + 1000))  # n @ die recurses
    start = time.perf_counter()
    try:
        (n @ die).probability(n // 2)
    except RecursionError:
        return "recursion"
    return f"{time.perf_counter() - start:.3f}"


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [10, 100, 1000, 10000]
    print(f"{'shots':>7} {'hc --odds s':>12} {'icepool s':>10}")
    for n in sizes:
        print(f"{n:>7} {hc_time(n):>12.3f} {icepool_time(n):>10}", flush=True)


if __name__ == "__main__":
    main()
