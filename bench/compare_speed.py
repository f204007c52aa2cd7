#!/usr/bin/env python3
"""`hc compare` of 6 units against 6 targets against one `hc fire UNIT --at TARGET --odds` of
the same game, and a 100-point `hc sweep` (of an option, and of a table's value laid as a house
rule) against one `--odds` of the same action, as ratios of whole processes (issue 29's bounds:
under 3 times, under 10 times).

Usage: python3 bench/compare_speed.py [-n RUNS]   (hc on PATH, or HC=path)
"""

import os
import subprocess
import tempfile

from long_game import bench_args, bench_env, hc_command, timed

FIGURES = (3, 4, 5, 6, 7, 8)
ROSTER = (
    "ruleset: high-crusade\nsides:\n  Free Companies:\n"
    + "".join(
        f"    fireteam-{i}: {{troop: crusader, figures: {n}, weapon: ingrave-ar}}\n"
        for i, n in enumerate(FIGURES, 1)
    )
    + "  Orcs:\n"
    + "".join(
        f"    mob-{i}: {{troop: orc, figures: {n + 2}, weapon: bolt-gun}}\n"
        for i, n in enumerate(FIGURES, 1)
    )
)


def main() -> None:
    a = bench_args(__doc__, 9, each="command")
    hc = hc_command()
    with tempfile.TemporaryDirectory() as folder:
        env = bench_env(folder)
        roster, path = os.path.join(folder, "roster.yaml"), os.path.join(folder, "g.hcg")
        with open(roster, "w", encoding="utf-8") as f:
            f.write(ROSTER)
        env["HC_GAME"] = path
        for step in (["game", "new", path, "--roster", roster], ["initiative", "--dice", "9,1"]):
            subprocess.run([hc, *step], env=env, check=True, capture_output=True)
        one = timed([hc, "fire", "fireteam-1", "--at", "mob-1", "--range", "14", "--odds"],
                    env, a.n)  # fmt: skip
        matrix = timed([hc, "compare", "--range", "14"], env, a.n)
        print(f"one --odds {one * 1000:.0f} ms; compare 6 x 6 {matrix * 1000:.0f} ms: "
              f"{matrix / one:.2f} times")  # fmt: skip
        alone = {**env, "HC_GAME": "none"}
        single = timed([hc, "fire", "-w", "ingrave-ar", "-t", "orc", "-r", "14", "--shots", "5",
                        "--odds"], alone, a.n)  # fmt: skip
        swept = timed([hc, "sweep", "--over", "range=0.25..25:0.25", "--", "fire", "-w",
                       "ingrave-ar", "-t", "orc", "--shots", "5"], alone, a.n)  # fmt: skip
        print(f"one --odds {single * 1000:.0f} ms; a sweep of 100 points {swept * 1000:.0f} ms: "
              f"{swept / single:.2f} times")  # fmt: skip
        modded = ["fire", "-w", "ingrave-ar", "-t", "orc", "-r", "14", "--shots", "5", "--mod",
                  "smoke"]  # fmt: skip
        single = timed([hc, *modded, "--odds"], alone, a.n)
        swept = timed([hc, "sweep", "--over", "modifiers.smoke.value=-50..49", "--", *modded],
                      alone, a.n)  # fmt: skip
        print(f"one --odds {single * 1000:.0f} ms; a sweep of a table's value over 100 points "
              f"{swept * 1000:.0f} ms: {swept / single:.2f} times")  # fmt: skip


if __name__ == "__main__":
    main()
