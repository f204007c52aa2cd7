#!/usr/bin/env python3
"""`hc luck` over a long game against `hc status` on the same game (its snapshot warm), as a
ratio: a game of 2,000 actions (4,000 entries with the turns' ends).

The game is made as bench/game_scale.py makes its own: a Rogue Trader turn pair played once
through hc (each side's volley, every die a miss, and the turn's end), its entries repeated and
chained again. Each volley is then given a range of its own, so that the actions are not all
one question of odds: `--distinct K` ranges in turn (K distinct actions a side; a table's game
repeats far more than it varies), or every volley a range no other has (`--distinct 0`: no
two alike, the worst case).

Usage: python3 bench/luck_scale.py [-n RUNS] [--actions N] [--distinct K]   (hc on PATH, or
       HC=path)
"""

import argparse
import json
import os
import subprocess
import tempfile

from game_scale import ROSTER, TURN_PAIR
from long_game import bench_env, hc_command, play, timed, write_chained


def build(path: str, template: list[dict], actions: int, distinct: int) -> None:
    head, cycle = template[:2], template[2:]
    entries = list(head)
    fired = 0
    while fired < actions:
        for entry in cycle:
            entry = json.loads(json.dumps(entry))
            if entry["command"] == "fire":
                step = fired if distinct == 0 else fired % distinct
                entry["flags"]["range"] = 1 + step * (23 / max(actions, distinct or actions))
                fired += 1
            entries.append(entry)
    write_chained(path, entries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=5, help="runs of each measurement")
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--distinct", type=int, default=40)
    a = parser.parse_args()
    hc = hc_command()
    with tempfile.TemporaryDirectory() as folder:
        env = bench_env(folder)
        template = play(folder, env, ROSTER, TURN_PAIR)
        path = os.path.join(folder, "game.hcg")
        build(path, template, a.actions, a.distinct)
        game = {**env, "HC_GAME": path}
        subprocess.run([hc, "status"], env=game, check=True, capture_output=True)  # warm
        status = timed([hc, "status"], game, a.n)
        luck = timed([hc, "luck", "--json"], game, a.n)
        kinds = "every one distinct" if a.distinct == 0 else f"{a.distinct} distinct a side"
        print(f"{a.actions} actions ({kinds}): hc status {status * 1000:.0f} ms, "
              f"hc luck {luck * 1000:.0f} ms: {luck / status:.1f} times")  # fmt: skip


if __name__ == "__main__":
    main()
