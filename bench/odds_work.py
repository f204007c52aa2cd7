#!/usr/bin/env python3
"""`--odds`'s work estimate (hc_cli/core/weigh.py, in steps of a microsecond) against the time
each question takes in-process, over a sweep of sums, keeps, explosions, joins and groups: the
measurements its fitted costs come from. Each is weighed with the budget lifted; ratio is the
time taken over the estimate (at most 1 where the estimate holds, its margin included).

Usage: python3 bench/odds_work.py [-n RUNS] [EXPRESSION ...]   (hc_cli importable)"""

import argparse
import time

from hc_cli.core import parser, weigh
from hc_cli.core.errors import HcError

SWEEP = {
    "sums": ["2d1000", "d1000+d1000", "10d1000", "100d100", "200d100", "100d6", "999d6",
             "2000d6", "500d20", "999d2", "20d20+20d20", "3d6*2d10"],
    "faces": ["d1000", "d40601", "d100000", "d1000000"],
    "keeps": ["4d6kh3", "6d6kh3", "100d6kh10", "100d6kh50", "100d100kh10", "100d20kh30",
              "897d2kh1", "1000d6kh1", "300d6kh3", "200d10kh10", "100d1000kh1", "40d40kh20",
              "100d10kh50", "d40601k1", "50d100kh5", "10d10>=6", "100d10>=6"],
    "explodes": ["d6!", "d100!", "d1000!", "10d10!", "20d10!", "8d6!>=5", "d20!>=10",
                 "3d100!p", "5d%!p", "10d6!!", "4d6!!kh3"],
    "joins": ["d1000*d1000", "100d10*10d10", "d100/d100", "(d20+d20)//d6", "d1000-d1000"],
    "groups": ["{4d6, 3d8}kh1", "{100d100, 100d100}kh1", "{d20, d20, 5}>=10",
               "{2d6, 2d6, 2d6, 2d6}kh2", "{3d6, 3d6, 3d6, 3d6, 3d6}>=10",
               "{7d%, 4*2d6, 7d10-2}k3"],
}  # fmt: skip


def measure(expression: str, runs: int) -> tuple[float, float]:
    """(estimated steps, best measured microseconds) of the exact odds of `expression`."""
    spent: list[float] = []
    original = weigh._Budget.spend

    def spend(self, steps, part, hint):
        original(self, steps, part, hint)
        spent.append(steps)

    best = float("inf")
    weigh._Budget.spend = spend
    try:
        for _ in range(runs):
            spent.clear()
            parser.read(expression)
            start = time.perf_counter()
            weigh.roll_odds(expression, "hc")
            best = min(best, time.perf_counter() - start)
    finally:
        weigh._Budget.spend = original
    return sum(spent), best * 1e6


def main() -> None:
    a = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    a.add_argument("-n", type=int, default=2, help="runs of each (the best is taken)")
    a.add_argument("expressions", nargs="*")
    args = a.parse_args()
    weigh.MAX_ODDS_WORK = 10**12  # every question weighed, however long
    groups = {"given": args.expressions} if args.expressions else SWEEP
    print(f"{'expression':<26} {'estimate':>12} {'measured':>12} {'ratio':>6}")
    for kind, expressions in groups.items():
        print(f"-- {kind}")
        for expression in expressions:
            try:
                steps, micros = measure(expression, args.n)
            except HcError as refused:
                print(f"{expression:<26} refused: {refused.message}")
                continue
            print(f"{expression:<26} {steps:>12,.0f} {micros:>12,.0f} {micros / steps:>6.2f}",
                  flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
