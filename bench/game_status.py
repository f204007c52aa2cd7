#!/usr/bin/env python3
"""`hc status` on long games: its start-up against a plain `hc fire --json` (the snapshot
warm), and the state rebuilt from scratch (no snapshot) as the game grows.

A game of N entries is made from a real one: a High Crusade move (the Initiative, a Fireteam's
volley, the Morale test it calls for, the move's last three steps) played once through hc, its
entries then repeated and chained again until there are N. Every run is a whole `hc` process.

Usage: python3 bench/game_status.py [-n RUNS] [N ...]     (hc on PATH, or HC=path;
       default sizes 1000 2000 5000 10000 20000)
"""

import glob
import itertools
import os
import subprocess
import sys
import tempfile

from long_game import bench_args, bench_env, example, hc_command, play, timed, write_chained

ROSTER = example("high-crusade-skirmish.yaml")
# One move: the roster entry, then the move (the cycle).
MOVE = [
    ["initiative", "--dice", "3,6"],
    ["fire", "boyz", "--at", "fireteam-1", "--range", "14", "--dice", ",".join(["99"] * 8)],
    ["morale", "fireteam-1", "--dice", "9"],  # first fired at: the test the game holds for
    ["game", "next"],  # step 2 passed by itself once the test was taken; 4 too
]


def build(path: str, template: list[dict], size: int) -> None:
    """The roster, then the move over and over, chained, size entries in all (up to a move
    more): whole moves, so the newest entry is a step. Every command holds the newest entry,
    an action, to the game, and a move's action repeated in a later move is none it allows."""
    moves = -(-(size - 1) // (len(template) - 1))
    write_chained(path, itertools.chain(template[:1], *[template[1:]] * moves))


def main() -> None:
    a = bench_args(__doc__, 15, [1000, 2000, 5000, 10000, 20000])
    hc = hc_command()
    with tempfile.TemporaryDirectory() as folder:
        cache = os.path.join(folder, "cache")
        env = bench_env(folder)
        template = play(folder, env, ROSTER, MOVE)
        fire = [hc, "fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc", "--seed", "1", "--json"]
        subprocess.run(fire, env=env, capture_output=True, check=True)  # caches warm
        bare = timed([sys.executable, "-c", "pass"], env, a.n)
        fire_s = timed(fire, env, a.n)
        print(f"bare python {bare * 1000:.1f} ms; hc fire --json {fire_s * 1000:.1f} ms "
              f"({fire_s / bare:.2f}x bare)")  # fmt: skip
        print(f"{'entries':>8} {'MB':>6} {'status ms':>10} {'/ fire':>7} {'rebuild ms':>11} "
              f"{'us/entry':>9}")  # fmt: skip
        for size in a.sizes:
            path = os.path.join(folder, f"game-{size}.hcg")
            build(path, template, size)
            status = [hc, "status", "--game", path]

            def cold() -> None:
                for snap in glob.glob(os.path.join(cache, "hc", "game-*.snapshot")):
                    os.remove(snap)

            rebuild = timed(status, env, max(3, a.n // 3), before=cold)
            subprocess.run(status, env=env, capture_output=True, check=True)  # the snapshot
            warm = timed(status, env, a.n)
            mb = os.path.getsize(path) / 1e6
            print(f"{size:>8} {mb:>6.1f} {warm * 1000:>10.1f} {warm / fire_s:>7.2f} "
                  f"{rebuild * 1000:>11.0f} {rebuild / size * 1e6:>9.0f}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
