#!/usr/bin/env python3
"""`hc roll EXPR --odds --json` against icepool answering the same question in a process of its
own (import, build, every exact probability printed as JSON), whole processes in turn, as
medians and their ratio (issue 30's bound: at most 1.5 times icepool on the keeps and the
explosion; ahead of it on sums and pools of explosions).

Usage: python3 bench/roll_vs_icepool.py [-n RUNS]   (hc on PATH, or HC=path; icepool importable
by the python running this, e.g. the test environment's)
"""

import os
import sys
import tempfile

from long_game import bench_args, bench_env, hc_command, timed

KEEP_20 = "+".join(["4d6kh3"] * 20)
CASES = [  # (hc's expression, icepool's expression of the same die)
    ("6d6kh3", "d(6).pool(6).highest(3).sum()"),
    ("5d10kh3", "d(10).pool(5).highest(3).sum()"),
    ("10d6kh5", "d(6).pool(10).highest(5).sum()"),
    ("100d6kh10", "d(6).pool(100).highest(10).sum()"),
    ("d1000!", "d(1000).explode([1000], depth=20)"),
    (KEEP_20, "20 @ d(6).pool(4).highest(3).sum()"),
    ("100d20", "100 @ d(20)"),
    ("20d10!", "20 @ d(10).explode([10], depth=20)"),
]
ICEPOOL = """import json, sys
from fractions import Fraction
from icepool import d
die = {expression}
n = die.denominator()
json.dump({{str(k): str(Fraction(q, n)) for k, q in zip(die.outcomes(), die.quantities())}},
          sys.stdout)
"""


def main() -> None:
    a = bench_args(__doc__, 5, each="command")
    hc = hc_command()
    with tempfile.TemporaryDirectory() as folder:
        env = {**bench_env(folder), "HC_GAME": "none"}
        print(f"{'expression':<16} {'hc':>9} {'icepool':>9} {'ratio':>6}")
        for expression, theirs in CASES:
            script = os.path.join(folder, "icepool_case.py")
            with open(script, "w", encoding="utf-8") as f:
                f.write(ICEPOOL.format(expression=theirs))
            ours = timed([hc, "roll", "--odds", "--json", "--", expression], env, a.n)
            other = timed([sys.executable, script], env, a.n)
            name = expression if len(expression) < 16 else "4d6kh3 x20"
            print(f"{name:<16} {ours * 1000:7.0f}ms {other * 1000:7.0f}ms {ours / other:6.2f}")


if __name__ == "__main__":
    main()
