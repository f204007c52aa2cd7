#!/usr/bin/env python3
"""A long game at the table: each command's time and peak memory on a game of 20,000 entries
(a campaign, a long evening) against the same command on a game of 100, as ratios.

A game of N entries is made from a real one: a Rogue Trader turn pair (the Imperials' volley,
the turn's end, the Orks' volley, the turn's end, every die a miss) played once through hc,
its entries then repeated and chained again until there are N. Every run is a whole `hc`
process on a fresh copy of the game, so each action and undo meets the file as it was built
(its snapshot warm, as a table's would be); "cold" runs have no snapshot at all.

Usage: python3 bench/game_scale.py [-n RUNS] [SMALL LARGE]   (hc on PATH, or HC=path;
       default 100 20000)
"""

import glob
import os
import shutil
import statistics
import subprocess
import tempfile
import time

from long_game import bench_args, bench_env, example, hc_command, play, write_chained

ROSTER = example("rogue-trader-skirmish.yaml")
MISSES = {"marines": ",".join(["1"] * 5), "boyz": ",".join(["1"] * 10)}
# The roster entry, then the Initiative, then the turn pair (the cycle).
TURN_PAIR = [
    ["initiative", "--dice", "1"],
    ["fire", "marines", "--at", "boyz", "-r", "10", "--dice", MISSES["marines"]],
    ["game", "next"],
    ["fire", "boyz", "--at", "marines", "-r", "10", "--dice", MISSES["boyz"]],
    ["game", "next"],
]


def build(path: str, template: list[dict], size: int) -> None:
    """The roster, the Initiative, then the turn pair over and over, chained; it ends with a
    turn's end, so the Imperials may fire next."""
    head, cycle = template[:2], template[2:]
    write_chained(path, [*head, *cycle * ((size - len(head)) // len(cycle))])


def measure(args: list[str], env: dict, runs: int, before) -> tuple[float, float]:
    """(median seconds, median peak MB) of whole processes, `before` run ahead of each."""
    times, peaks = [], []
    for _ in range(runs):
        before()
        start = time.perf_counter()
        proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)  # fmt: skip
        _, status, usage = os.wait4(proc.pid, 0)
        times.append(time.perf_counter() - start)
        peaks.append(usage.ru_maxrss / 1024)
        if os.waitstatus_to_exitcode(status) not in (0, 1):
            raise SystemExit(f"{' '.join(args)} failed")
    return statistics.median(times), statistics.median(peaks)


def main() -> None:
    a = bench_args(__doc__, 7, [100, 20000])
    hc = hc_command()
    with tempfile.TemporaryDirectory() as folder:
        cache = os.path.join(folder, "cache")
        env = bench_env(folder)
        template = play(folder, env, ROSTER, TURN_PAIR)
        rows: dict[str, list[tuple[float, float]]] = {}
        for size in a.sizes:
            built = os.path.join(folder, f"built-{size}.hcg")
            build(built, template, size)
            path = os.path.join(folder, "game.hcg")
            game = {**env, "HC_GAME": path}

            kept = os.path.join(folder, f"snapshots-{size}")

            def snapshots() -> list[str]:
                return glob.glob(os.path.join(cache, "hc", "game-*.snapshot*"))

            def cold(built: str = built, path: str = path) -> None:
                shutil.copyfile(built, path)
                for snap in snapshots():
                    os.remove(snap)

            def fresh(kept: str = kept) -> None:
                """The game as built, with the snapshots a table would have of it."""
                cold()
                for snap in glob.glob(os.path.join(kept, "*")):
                    shutil.copy(snap, os.path.join(cache, "hc"))

            cold()
            subprocess.run([hc, "status"], env=game, capture_output=True, check=True)  # warm
            os.makedirs(kept)
            for snap in snapshots():
                shutil.copy(snap, kept)
            fire = [hc, "fire", "marines", "--at", "boyz", "-r", "10", "--dice", MISSES["marines"]]
            for name, args, before in (
                ("an action (hc fire)", fire, fresh),
                ("hc undo", [hc, "undo"], fresh),
                ("hc status, warm", [hc, "status"], fresh),
                ("hc status, cold", [hc, "status"], cold),
                ("hc history", [hc, "history"], fresh),
                ("hc game export", [hc, "game", "export"], fresh),
                ("hc replay", [hc, "replay", path], fresh),
            ):
                rows.setdefault(name, []).append(measure(args, game, a.n, before))
            print(f"measured {size} entries ({os.path.getsize(built) / 1e6:.1f} MB)", flush=True)
        small, large = a.sizes[0], a.sizes[-1]
        print(f"\n| command | {small} entries | {large} entries | time ratio | peak memory |")
        print("|---|---|---|---|---|")
        for name, ((t0, m0), *_, (t1, m1)) in rows.items():
            print(f"| {name} | {t0 * 1000:.0f} ms | {t1 * 1000:.0f} ms | {t1 / t0:.2f}x | "
                  f"{m0:.0f} MB -> {m1:.0f} MB |")  # fmt: skip


if __name__ == "__main__":
    main()
