#!/usr/bin/env python3
"""Exact odds against the number of shots: the whole `hc fire --odds` process for N shots
(text, and `--json`), beside icepool's time (in process) for the same N-fold sum of one shot's
distribution, where icepool is installed (`pip install icepool`; a test-only dependency).

One shot's distribution is hc's own (`--shots 1 --odds --json`); icepool then sums N of them
(`N @ die`). The cases: a High Crusade Fireteam's kills, a Rogue Trader unit's wounds with each
shot at its own model, every shot at one model (`--one-model`: its wounds add up), and a D6-damage
weapon at a carnosaur in mesh armour.

Usage: python3 bench/odds_curve.py [N ...]     (default 100 300 1000 3000 10000)
"""

import math
import shutil
import subprocess
import sys
import time
from fractions import Fraction

RT = ["--ruleset", "rogue-trader", "--bs", "4"]
CASES = {
    "high-crusade kills": (
        ["fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc"],
        "kills",
    ),
    "rogue-trader wounds, a model each": (
        ["fire", *RT, "-w", "heavy-bolter", "-r", "10", "-t", "carnosaur"],
        "wounds",
    ),
    "rogue-trader --one-model wounds": (
        ["fire", *RT, "-w", "lascannon", "-r", "10", "-t", "carnosaur", "--one-model"],
        "wounds",
    ),
    "rogue-trader d6 damage, mesh": (
        ["fire", *RT, "--strength", "6", "--damage", "d6", "-r", "10", "-t", "carnosaur",
         "--armour", "mesh"],
        "wounds",
    ),
}  # fmt: skip


def hc(args: list[str]) -> tuple[float, bytes]:
    start = time.perf_counter()
    run = subprocess.run([shutil.which("hc") or "hc", *args], capture_output=True)
    took = time.perf_counter() - start
    if run.returncode != 0:
        sys.exit(f"hc {' '.join(args)} failed: {run.stderr[-300:]!r}")
    return took, run.stdout


def one_shot(args: list[str], count: str) -> dict[int, Fraction]:
    """One shot's distribution of the count, as hc gives it: its own distribution, or (one
    Fireteam shot) the chance of a kill."""
    import json

    single = [a for a in args if a != "--one-model"]
    out = json.loads(hc([*single, "--shots", "1", "--odds", "--json"])[1])
    exact = out.get("distributions_exact", {})
    if count in exact:
        return {int(k): Fraction(v) for k, v in exact[count].items()}
    kill = Fraction(out["odds_exact"]["kill"])
    return {0: 1 - kill, 1: kill}


def icepool_time(dist: dict[int, Fraction], n: int) -> str:
    try:
        import icepool
    except ImportError:
        return "-"
    if n > 1000:
        return "(skipped)"  # 42 s at 3,000 two-sided shots; minutes and gigabytes past this
    denominator = math.lcm(*(p.denominator for p in dist.values()))
    die = icepool.Die({k: int(p * denominator) for k, p in dist.items()})
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20 * n + 1000))  # n @ die recurses
    start = time.perf_counter()
    try:
        total = n @ die
        total.probability(total.outcomes()[len(total.outcomes()) // 2])
    except RecursionError:
        return "recursion"
    return f"{time.perf_counter() - start:.3f}"


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [100, 300, 1000, 3000, 10000]
    for name, (args, count) in CASES.items():
        dist = one_shot(args, count)
        print(f"{name}: {' '.join(args)}")
        print(f"  {'shots':>7} {'hc --odds s':>12} {'--json s':>9} {'icepool s':>10}")
        for n in sizes:
            text, _ = hc([*args, "--shots", str(n), "--odds"])
            as_json, _ = hc([*args, "--shots", str(n), "--odds", "--json"])
            print(f"  {n:>7} {text:>12.3f} {as_json:>9.3f} {icepool_time(dist, n):>10}", flush=True)


if __name__ == "__main__":
    main()
