#!/usr/bin/env python3
"""The bound of issue 37 (item 8) on `hc luck`: on a game of 20,000 entries of each rule set,
its peak memory within 50 MB and its time within 2 times `hc replay`'s on the same game.
Exits 1 when a bound is passed. Not a timed test: run it by hand, when nothing else runs.

Each game is bench/long_game.py's LONG_GAMES: its start and one cycle played through hc (every
shot a miss), the cycle's entries repeated. Every run is a whole process, its peak resident
memory as the kernel counts it; the median of -n runs is shown. With --against OLD_HC, both
builds' output of `hc luck` and `hc luck --json` on each game is compared byte for byte first.

Usage: python3 bench/luck_bounds.py [-n RUNS] [--entries N] [--against OLD_HC]   (hc on PATH,
       or HC=path)

Measured on the project's two-core machine with other work on it (20,000 entries; wall time
and peak memory; before: one run each, after: the median of 3). Before, every entry was held
until the game was folded whole, and the report drawn whole twice over:

| rule set | hc replay | hc luck before | hc luck --json before | hc luck after | --json after |
|---|---|---|---|---|---|
| high-crusade | 3.8 s, 36 MB | 7.1 s, 205 MB | 6.8 s, 214 MB | 3.1 s, 43 MB | 3.1 s, 39 MB |
| t2k | 2.7 s, 36 MB | 3.5 s, 143 MB | 3.1 s, 148 MB | 2.3 s, 36 MB | 2.5 s, 36 MB |
| rogue-trader | 5.9 s, 37 MB | 8.3 s, 255 MB | 12.1 s, 263 MB | 2.9 s, 46 MB | 3.6 s, 40 MB |

The games: High Crusade 15,000 actions rated in 2,500 parts of the game, Twilight: 2000 6,668
in 1,334, Rogue Trader 10,001 in 9,999 (each action's line and each part's point are in the
report). In colour (a terminal), the Rogue Trader game's text peaks at 49 MB.
"""

import argparse
import os
import subprocess
import sys
import tempfile

from game_scale import measure
from long_game import LONG_GAMES, bench_env, hc_command, long_game

MOST_MB = 50
MOST_TIMES_REPLAY = 2.0


def same_output(old: str, new: str, path: str, env: dict) -> list[str]:
    """What differs between two builds' `hc luck` (text, then --json) on the game."""
    differ = []
    for extra in ([], ["--json"]):
        outputs = [
            subprocess.run([hc, "luck", path, *extra], env=env, capture_output=True)
            for hc in (old, new)
        ]
        if outputs[0].stdout != outputs[1].stdout or outputs[0].returncode != outputs[1].returncode:
            differ.append(f"hc luck {' '.join(extra)} differs on {os.path.basename(path)}")
    return differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=3, help="runs of each measurement")
    parser.add_argument("--entries", type=int, default=20_000)
    parser.add_argument("--against", metavar="OLD_HC", help="another build: the same output?")
    a = parser.parse_args()
    hc = hc_command()
    failed = []
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        env = bench_env(folder)
        for ruleset in LONG_GAMES:
            path = os.path.join(folder, f"{ruleset}.hcg")
            long_game(folder, env, ruleset, a.entries, path)
            if a.against:
                failed += same_output(a.against, hc, path, env)
            subprocess.run([hc, "status", "--game", path], env=env, check=True,
                           capture_output=True)  # fmt: skip
            found = {
                name: measure([hc, *args, path], env, a.n, lambda: None)
                for name, args in (("replay", ["replay"]), ("luck", ["luck"]),
                                   ("luck --json", ["luck", "--json"]))
            }  # fmt: skip
            replay_s = found["replay"][0]
            cells = [f"{s:.1f} s, {mb:.0f} MB" for s, mb in found.values()]
            rows.append(f"| {ruleset} | {' | '.join(cells)} |")
            print(rows[-1], flush=True)
            for name, (seconds, mb) in found.items():
                if name == "replay":
                    continue
                if mb > MOST_MB:
                    failed.append(f"{ruleset}: hc {name} peaks at {mb:.0f} MB (bound {MOST_MB})")
                if seconds > MOST_TIMES_REPLAY * replay_s:
                    failed.append(f"{ruleset}: hc {name} takes {seconds / replay_s:.2f} times "
                                  f"hc replay (bound {MOST_TIMES_REPLAY})")  # fmt: skip
    print(f"\n| rule set ({a.entries} entries) | hc replay | hc luck | hc luck --json |")
    print("|---|---|---|---|")
    print("\n".join(rows))
    for line in failed:
        print(line, file=sys.stderr)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
