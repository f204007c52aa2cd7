#!/usr/bin/env python3
"""`hc batch` against the floor: a minimal Python loop that parses each line, seeds, rolls a
D100 and answers it, run by the same interpreter. Prints lines per second of each and hc's as
a ratio of the floor's, for each rule set's fire (with workers, and with --jobs 1), a roll, and
a fire with --log.

Usage: python3 bench/batch_floor.py [-n LINES] [--rounds R]      (hc on PATH, or HC=path)
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

FLOOR = r"""
import json, random, sys
out = sys.stdout
for line in sys.stdin:
    request = json.loads(line)
    die = random.Random(request["seed"]).random()
    value = int(die * 100) + 1
    outcome = "hit" if value <= 65 else "miss"
    out.write(json.dumps({"line": request["seed"], "d100": value, "outcome": outcome}) + "\n")
"""

REQUESTS = {
    "high-crusade fire": {"command": "fire", "weapon": "ingrave-ar", "range": 14, "target": "orc"},
    "rogue-trader fire": {"command": "fire", "ruleset": "rogue-trader", "bs": 4,
                          "weapon": "bolt-gun", "range": 10, "target": "ork"},
    "t2k fire": {"command": "fire", "ruleset": "t2k", "asset": 12, "strength": 5,
                 "weapon": "m16a2", "range": 30},
    "roll d100": {"command": "roll", "expression": "d100"},
}  # fmt: skip


def timed(command: list[str], data: bytes, lines: int) -> float:
    start = time.perf_counter()
    run = subprocess.run(command, input=data, capture_output=True)
    took = time.perf_counter() - start
    if run.returncode != 0 or run.stdout.count(b"\n") != lines:
        sys.exit(f"{command[:3]} failed: exit {run.returncode}\n{run.stderr[-500:]!r}")
    return lines / took


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("-n", type=int, default=30_000)
    p.add_argument("--rounds", type=int, default=3)
    a = p.parse_args()
    hc = os.environ.get("HC") or shutil.which("hc") or "hc"
    python = sys.executable
    with open(hc, "rb") as f:  # the interpreter hc runs on: the floor runs on the same
        first = f.readline()
    if first.startswith(b"#!"):
        python = first[2:].decode().strip().split()[0]
    print(f"{'case':34} {'lines/s':>10} {'floor/s':>10} {'ratio':>6}")
    with tempfile.TemporaryDirectory() as folder:
        log = os.path.join(folder, "bench.log")
        cases = []
        for name, request in REQUESTS.items():
            data = "".join(json.dumps({**request, "seed": i}) + "\n" for i in range(a.n))
            cases.append((name, [hc, "batch"], data.encode()))
            cases.append((name + " --jobs 1", [hc, "batch", "--jobs", "1"], data.encode()))
        fire = REQUESTS["high-crusade fire"]
        logged = "".join(json.dumps({**fire, "seed": i}) + "\n" for i in range(a.n)).encode()
        cases.append(("high-crusade fire --log", [hc, "batch", "--log", log], logged))
        floor_data = "".join(json.dumps({"seed": i}) + "\n" for i in range(a.n)).encode()
        for name, command, data in cases:
            mine, floor = [], []
            for _ in range(a.rounds):  # interleaved, so a noisy machine slows both alike
                floor.append(timed([python, "-c", FLOOR], floor_data, a.n))
                if os.path.exists(log):
                    os.remove(log)
                mine.append(timed(command, data, a.n))
            m, f = statistics.median(mine), statistics.median(floor)
            print(f"{name:34} {m:10,.0f} {f:10,.0f} {m / f:6.2f}", flush=True)


if __name__ == "__main__":
    main()
